"""Variants: how the banker bet is paid at standard, no-commission and EZ tables,
and the table presets and rule overrides that choose them."""

from decimal import Decimal

import pytest
from hypothesis import given

from service.baccarat.bets.types import Bet, BetType, Variant
from service.baccarat.rulebook.coup import deal
from service.baccarat.rulebook.errors import BetError, RulesError
from service.baccarat.tables.payouts import Result, offers, payout
from service.baccarat.tables.rules import TABLES, resolve_rules
from service.baccarat.tables.settlement import settle_bet, settle_slip
from tests import strategies
from tests.conftest import cards

STANDARD, NO_COMMISSION, EZ = (TABLES[name].rules for name in ("standard", "no_commission", "ez"))
VARIANTS = {"standard": STANDARD, "no_commission": NO_COMMISSION, "ez": EZ}

BANKER_TWO_CARD_6 = "2S 3H 3D 3C KH"  # P 5 (drew K), B 3-3 = 6 stands
BANKER_THREE_CARD_6 = "2S AH 3D KC KH 5D"  # P 5 (drew K), B A-K drew 5 = 6
BANKER_THREE_CARD_7 = "2S AH 4D AC 5D"  # P 6 stands, B A-A drew 5 = 7
BANKER_TWO_CARD_7 = "AS 7H KD KC KH"  # P 1 (drew K), B 7-K = 7
BANKER_NATURAL_8 = "KS 8H KD KC"  # B natural 8 beats 0
THREE_CARD_7_TIE = "3S AH 4D AC 5D"  # P 7 stands, B A-A drew 5 = 7: a tie
PLAYER_WINS = "9S KH KD 7C"  # P natural 9 beats 7


@pytest.mark.parametrize(
    ("table", "sequence", "result", "win", "commission"),
    [
        # Standard: 1:1 less 5% commission, whatever the total.
        ("standard", BANKER_TWO_CARD_6, "win", "9.50", "0.50"),
        ("standard", BANKER_THREE_CARD_7, "win", "9.50", "0.50"),
        # No commission: 1:1, but a win with a total of 6 pays 1:2.
        ("no_commission", BANKER_TWO_CARD_6, "win", "5.00", "0.00"),
        ("no_commission", BANKER_THREE_CARD_6, "win", "5.00", "0.00"),
        ("no_commission", BANKER_THREE_CARD_7, "win", "10.00", "0.00"),
        ("no_commission", BANKER_NATURAL_8, "win", "10.00", "0.00"),
        ("no_commission", "3S 3H 3D 3C", "push", "0.00", "0.00"),  # a tie at 6 pushes
        # EZ: 1:1, but a win with a three-card 7 pushes; a two-card 7 is paid.
        ("ez", BANKER_THREE_CARD_7, "push", "0.00", "0.00"),
        ("ez", BANKER_TWO_CARD_7, "win", "10.00", "0.00"),
        ("ez", BANKER_THREE_CARD_6, "win", "10.00", "0.00"),
        ("ez", BANKER_NATURAL_8, "win", "10.00", "0.00"),
        ("ez", THREE_CARD_7_TIE, "push", "0.00", "0.00"),
    ]
    + [(table, PLAYER_WINS, "lose", "0.00", "0.00") for table in VARIANTS],
)
def test_banker_bet_by_variant(table, sequence, result, win, commission):
    settled = settle_bet(
        Bet(type=BetType.BANKER, amount=Decimal("10.00")), deal(cards(sequence)), VARIANTS[table]
    )
    assert settled.result is Result(result)
    assert (str(settled.win), str(settled.commission)) == (win, commission)


def test_no_commission_half_pay_rounds_down_to_the_cent():
    settled = settle_bet(
        Bet(type=BetType.BANKER, amount=Decimal("10.01")), deal(cards(BANKER_TWO_CARD_6)), NO_COMMISSION
    )
    assert (str(settled.win), str(settled.commission), str(settled.returned)) == ("5.00", "0.00", "15.01")


@given(strategies.shoe_sequence())
def test_variants_change_only_the_banker_bet(sequence):
    coup = deal(sequence)
    for bet in BetType:
        if bet is not BetType.BANKER:
            assert payout(bet, coup, NO_COMMISSION) == payout(bet, coup, STANDARD) == payout(bet, coup, EZ)


@given(strategies.shoe_sequence())
def test_variants_differ_only_in_their_special_case(sequence):
    coup = deal(sequence)
    standard, no_commission, ez = (payout(BetType.BANKER, coup, rules) for rules in VARIANTS.values())
    assert no_commission.result is ez.result or ez.result is Result.PUSH
    if standard.result is not Result.WIN:
        assert standard == no_commission == ez
    elif coup.banker.total == 6:
        assert no_commission.odds == Decimal("0.5")
    elif coup.banker.total == 7 and len(coup.banker.cards) == 3:
        assert ez.result is Result.PUSH
    else:
        assert no_commission.odds == ez.odds == standard.odds == 1


@pytest.mark.parametrize("name", list(TABLES))
def test_every_preset_offers_the_main_bets_and_takes_commission_only_when_standard(name):
    rules = TABLES[name].rules
    assert {BetType.PLAYER, BetType.BANKER, BetType.TIE} <= set(rules.bet_types)
    assert (rules.commission > 0) == (rules.variant is Variant.STANDARD)
    for offer in offers(rules):
        assert Decimal(offer.min) <= Decimal(offer.max)
        assert offer.pay_table.lines


@pytest.mark.parametrize(
    ("table", "side_bets"),
    [
        ("standard", {"player_pair", "banker_pair", "either_pair", "perfect_pair"}),
        ("standard", {"dragon_bonus_player", "dragon_bonus_banker", "big", "small"}),
        ("no_commission", {"player_pair", "banker_pair", "super_6"}),
        ("ez", {"dragon_7", "panda_8"}),
        ("tiger", {"lucky_6", "big_tiger", "small_tiger", "tiger_tie"}),
    ],
)
def test_presets_offer_their_side_bets(table, side_bets):
    assert side_bets <= set(TABLES[table].rules.bet_types)


def test_a_bet_the_table_does_not_offer_is_refused_by_name():
    coup = deal(cards(BANKER_THREE_CARD_7))
    slip = [Bet(type=BetType.BANKER, amount=Decimal(10)), Bet(type=BetType.DRAGON_7, amount=Decimal(5))]
    with pytest.raises(BetError) as caught:
        settle_slip(slip, coup, STANDARD)
    [problem] = caught.value.problems
    assert problem.path == ("bets", 1, "type")
    assert "'dragon_7'" in problem.detail
    assert settle_slip(slip, coup, EZ).bets[1].win == Decimal("200.00")


def test_a_table_offers_one_more_bet_through_its_limits():
    rules = resolve_rules("standard", {"limits": {BetType.SUPER_6: STANDARD.limits[BetType.TIE]}})
    assert BetType.SUPER_6 in rules.bet_types
    settled = settle_slip(
        [Bet(type=BetType.SUPER_6, amount=Decimal(1))], deal(cards(BANKER_TWO_CARD_6)), rules
    )
    assert settled.returned == Decimal("13.00")


@pytest.mark.parametrize(
    ("table", "overrides", "where"),
    [
        ("standard", {"variant": Variant.EZ}, ("rules", "variant")),
        ("no_commission", {"commission": Decimal("0.05")}, ("rules", "commission")),
        (
            "standard",
            {"variant": Variant.NO_COMMISSION, "commission": Decimal("0.04")},
            ("rules", "commission"),
        ),
    ],
)
def test_a_commission_with_a_variant_that_takes_none_is_refused(table, overrides, where):
    with pytest.raises(RulesError) as caught:
        resolve_rules(table, overrides)
    assert [p.path for p in caught.value.problems] == [where]


@pytest.mark.parametrize(
    ("table", "overrides", "variant"),
    [
        ("standard", {"variant": Variant.EZ, "commission": Decimal(0)}, Variant.EZ),
        ("ez", {"variant": Variant.STANDARD, "commission": Decimal("0.05")}, Variant.STANDARD),
        ("ez", {"variant": Variant.STANDARD}, Variant.STANDARD),  # standard with no commission
    ],
)
def test_variant_overrides(table, overrides, variant):
    rules = resolve_rules(table, overrides)
    assert rules.variant is variant
    assert rules.id != TABLES[table].rules.id


def test_rules_ids_are_stable_and_tell_the_presets_apart():
    ids = {name: table.rules.id for name, table in TABLES.items()}
    assert len(set(ids.values())) == len(ids)
    assert resolve_rules("ez", {"variant": Variant.EZ, "commission": Decimal(0)}).id == ids["ez"]
    assert resolve_rules("no_commission", {"super_6_pays": 15}).id != ids["no_commission"]
