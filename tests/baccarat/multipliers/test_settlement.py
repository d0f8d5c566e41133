"""Settling multiplier rounds: the rulebook of lit cards (none to six, a card
lit twice, pairs), the fee on top of the stake and kept on a push, the
Banker's 95% of the stake, the cap per round, the rounding, the largest win
of every preset, and what a slip is refused for."""

from decimal import ROUND_DOWN, Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.bets.money import Rounding
from service.baccarat.bets.paytable import Result
from service.baccarat.bets.types import Bet, BetType
from service.baccarat.multipliers.cards import draw_multiplier_cards, studio_multiplier_cards
from service.baccarat.multipliers.odds import largest_pays
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.rule import (
    MULTIPLIED_BETS,
    Counted,
    FaultCode,
    Fee,
    MultipliedPay,
    MultiplierBetError,
    MultiplierRule,
    MultiplierRulesError,
)
from service.baccarat.multipliers.settlement import settle_multiplier_slip, slip_faults
from service.baccarat.rulebook.coup import deal
from service.baccarat.shoes.shuffle import SeedInputs
from service.baccarat.tables.rules import resolve_rules
from service.baccarat.tables.settlement import settle_slip
from tests import strategies
from tests.conftest import cards

LIGHTNING, GOLDEN_WEALTH, PROSPERITY_TREE = (
    PRESETS[name].rule for name in ("lightning", "golden_wealth", "prosperity_tree")
)

# Rounds in dealing order (Player, Banker, Player, Banker, third cards).
PLAYER_NATURAL_9 = "9S KH KD 7C"  # P 9 beats B 7
PLAYER_THREE_CARDS = "5S 2H KS KH 4S KD"  # P 5-K drew 4: 9; B 2-K drew K: 2
PLAYER_SAME_CARD_TWICE = "7S KH 7S KD 5H KC"  # P 7-7 drew 5: 9; B K-K drew K: 0
BANKER_THREE_CARDS = "KS 2H KD KC KH 7C"  # P K-K drew K: 0; B 2-K drew 7: 9
BANKER_NATURAL_8 = "2S 8H 5D KC"  # B 8 beats P 7
TIE_SIX_CARDS = "AS 2H 2S 2D 3D 2C"  # P A-2 drew 3: 6; B 2-2 drew 2: 6
TIE_OF_TWO_CARDS_THRICE = "KS KH KS KH KS KH"  # P K-K drew K: 0; B K-K drew K: 0
PLAYER_PAIR = "5S 2H 5D 3C 4S KC"  # P 5-5 drew 4: 4; B 2-3 drew K: 5
PLAYER_PERFECT_PAIR = "5S 2H 5S 3C KD"  # P 5-5 drew K: 0; B 2-3 = 5 stands on the Player's 0
BANKER_PERFECT_PAIR = "2H 5S 3C 5S KD KH"  # P 2-3 drew K: 5; B 5-5 drew K: 0


#: Cards none of the rounds here deal: what makes up a rule's count of multiplier cards.
SPARE = "QH JH TH 9H 8H 7H 6H QD JD TD"


def lit(rule: MultiplierRule, text: str):
    """Multiplier cards from ``"7S x3 KH x2"``, made up to the rule's
    smallest count that holds them with :data:`SPARE` cards at the rule's
    smallest multiplier."""
    given_ = [
        (cards(code)[0], int(times.lstrip("x")))
        for code, times in zip(*[iter(text.split())] * 2, strict=True)
    ]
    counts = sorted(count for count, _ in rule.card_weights)
    wanted = next(count for count in counts if count >= len(given_))
    spare = [card for card in cards(SPARE) if card not in {given for given, _ in given_}]
    value = min(rule.multipliers)
    return studio_multiplier_cards(rule, given_ + [(card, value) for card in spare[: wanted - len(given_)]])


def settle(rule, sequence, multiplier_cards, *bets, **options):
    slip = [Bet(type=BetType(kind), amount=Decimal(amount)) for kind, amount in bets]
    return settle_multiplier_slip(slip, deal(cards(sequence)), multiplier_cards, rule, **options)


@pytest.mark.parametrize(
    ("rule", "sequence", "multipliers", "bet", "result", "lit_cards", "multiplier", "win", "returned"),
    [
        # No counted card lit: the base pay.
        (LIGHTNING, PLAYER_NATURAL_9, "7C x8", "player", "win", "", 1, "10.00", "20.00"),
        (LIGHTNING, PLAYER_NATURAL_9, "7C x8", "banker", "lose", "7C", 8, "0.00", "0.00"),
        # One lit card.
        (LIGHTNING, PLAYER_NATURAL_9, "9S x4", "player", "win", "9S", 4, "40.00", "50.00"),
        # Two lit cards: their multipliers multiply.
        (LIGHTNING, PLAYER_NATURAL_9, "9S x4 KD x5", "player", "win", "9S KD", 20, "200.00", "210.00"),
        # Three lit cards, a three-card hand.
        (
            GOLDEN_WEALTH,
            PLAYER_THREE_CARDS,
            "5S x2 KS x3 4S x5",
            "player",
            "win",
            "5S KS 4S",
            30,
            "300.00",
            "310.00",
        ),
        (
            LIGHTNING,
            BANKER_THREE_CARDS,
            "2H x2 KC x3 7C x4",
            "banker",
            "win",
            "2H KC 7C",
            24,
            "239.50",
            "249.50",
        ),
        # A card the hand holds twice is lit twice.
        (LIGHTNING, PLAYER_SAME_CARD_TWICE, "7S x3", "player", "win", "7S 7S", 9, "90.00", "100.00"),
        (
            LIGHTNING,
            PLAYER_SAME_CARD_TWICE,
            "7S x3 5H x2",
            "player",
            "win",
            "7S 7S 5H",
            18,
            "180.00",
            "190.00",
        ),
        # The Banker: 95% of the stake back, plus the stake times the multiplier.
        (LIGHTNING, BANKER_NATURAL_8, "8H x8", "banker", "win", "8H", 8, "79.50", "89.50"),
        (LIGHTNING, BANKER_NATURAL_8, "KS x8", "banker", "win", "", 1, "9.50", "19.50"),
        # The tie counts every card: six lit (Prosperity Tree draws eight).
        (
            PROSPERITY_TREE,
            TIE_SIX_CARDS,
            "AS x2 2H x2 2S x3 2D x2 3D x2 2C x2",
            "tie",
            "win",
            "AS 2H 2S 2D 3D 2C",
            96,
            "4800.00",
            "4810.00",
        ),
        (PROSPERITY_TREE, TIE_SIX_CARDS, "KS x3", "tie", "win", "", 1, "50.00", "60.00"),
        # A push is paid nothing more, whatever its cards form.
        (PROSPERITY_TREE, TIE_SIX_CARDS, "2S x3", "player", "push", "2S", 3, "0.00", "10.00"),
        # Pairs: the two paired cards; a perfect pair is one card lit twice.
        (LIGHTNING, PLAYER_PAIR, "5S x2 5D x3", "player_pair", "win", "5S 5D", 6, "540.00", "550.00"),
        (LIGHTNING, PLAYER_PERFECT_PAIR, "5S x5", "player_pair", "win", "5S 5S", 25, "2250.00", "2260.00"),
        (LIGHTNING, PLAYER_PERFECT_PAIR, "5S x5", "banker_pair", "lose", "", 1, "0.00", "0.00"),
        (PROSPERITY_TREE, BANKER_PERFECT_PAIR, "5S x3", "banker_pair", "win", "5S 5S", 9, "900.00", "910.00"),
    ],
)
def test_the_rulebook_of_lit_cards(
    rule, sequence, multipliers, bet, result, lit_cards, multiplier, win, returned
):
    settled = settle(rule, sequence, lit(rule, multipliers), (bet, "10.00")).bets[0]
    assert settled.result is Result(result)
    assert " ".join(str(card.card) for card in settled.lit) == lit_cards
    assert settled.multiplier == multiplier
    assert (str(settled.win), str(settled.returned)) == (win, returned)
    assert settled.fee == Decimal("2.00")  # 20% on top of the stake, whatever happens
    assert settled.cost == Decimal("12.00")


def test_the_fee_is_kept_when_a_player_or_banker_bet_pushes():
    slip = settle(
        PROSPERITY_TREE, TIE_SIX_CARDS, lit(PROSPERITY_TREE, "KS x2"), ("player", "10"), ("banker", "10")
    )
    assert [(bet.result, bet.returned, bet.fee_kept) for bet in slip.bets] == [
        (Result.PUSH, Decimal("10.00"), Decimal("2.00")),
        (Result.PUSH, Decimal("10.00"), Decimal("2.00")),
    ]
    assert (slip.staked, slip.fees, slip.cost, slip.returned, slip.net) == (
        Decimal("20.00"),
        Decimal("4.00"),
        Decimal("24.00"),
        Decimal("20.00"),
        Decimal("-4.00"),
    )


def test_a_rule_may_return_the_fee_on_a_push():
    returning = MultiplierRule(
        cards=PROSPERITY_TREE.cards,
        multipliers=PROSPERITY_TREE.multipliers,
        pays=PROSPERITY_TREE.pays,
        fee=Fee(rate=Decimal("0.2"), bets=MULTIPLIED_BETS, returned_on_push=True),
    )
    slip = settle(returning, TIE_SIX_CARDS, lit(returning, "KS x2"), ("player", "10"), ("tie", "10"))
    assert [(bet.returned, bet.fee_kept) for bet in slip.bets] == [
        (Decimal("12.00"), Decimal("0.00")),
        (Decimal("60.00"), Decimal("2.00")),
    ]


def test_the_fee_is_charged_only_on_the_bets_the_rule_names():
    ruled = MultiplierRule(
        cards={5: 1},
        multipliers={2: 1},
        pays=GOLDEN_WEALTH.pays,
        fee=Fee(rate=Decimal("0.2"), bets=(BetType.PLAYER, BetType.BANKER)),
    )
    slip = settle(ruled, PLAYER_NATURAL_9, lit(ruled, "AS x2"), ("player", "10"), ("tie", "10"))
    assert [bet.fee for bet in slip.bets] == [Decimal("2.00"), Decimal("0.00")]
    assert slip.net == Decimal("10.00") - Decimal("2.00") - Decimal("10.00")


def test_a_win_is_rounded_once_by_the_table_s_rounding():
    cards_ = lit(LIGHTNING, "KS x8")
    down = settle(LIGHTNING, BANKER_NATURAL_8, cards_, ("banker", "1.05")).bets[0]
    up = settle(LIGHTNING, BANKER_NATURAL_8, cards_, ("banker", "1.05"), rounding=Rounding.HALF_UP).bets[0]
    assert (down.win, down.commission, down.returned) == (Decimal("0.99"), Decimal("0.06"), Decimal("2.04"))
    assert (up.win, up.commission, up.returned) == (Decimal("1.00"), Decimal("0.05"), Decimal("2.05"))
    yen = settle(LIGHTNING, BANKER_NATURAL_8, cards_, ("banker", "105"), minor_unit=0).bets[0]
    assert (str(yen.win), str(yen.fee), str(yen.returned)) == ("99", "21", "204")


CAPPED = MultiplierRule(
    cards={2: 1},
    multipliers={2: 1, 8: 1},
    pays={
        BetType.TIE: MultipliedPay(pays=Decimal(5), counted=Counted.ALL_CARDS),
        BetType.PLAYER_PAIR: MultipliedPay(pays=Decimal(9), counted=Counted.PAIRED_CARDS),
    },
    fee=Fee(rate=Decimal("0.2"), bets=(BetType.TIE, BetType.PLAYER_PAIR)),
    cap=Decimal(100),
)
#: A tie at 6 whose Player has a pair (3S 3D) and whose Banker's 3H is lit x8.
TIE_WITH_PLAYER_PAIR = "3S 3H 3D 3C"


@pytest.mark.parametrize(
    ("bets", "wins", "capped"),
    [
        # 5.00 on the tie wins 5 x 8 x 5 = 200, 10.00 on the pair 9 x 10 = 90: 190 over, off the tie.
        ((("tie", "5"), ("player_pair", "10")), ("10.00", "90.00"), ("190.00", "0.00")),
        # 200 and 180: 280 over, all of the larger win and 80 of the other.
        ((("tie", "5"), ("player_pair", "20")), ("0.00", "100.00"), ("200.00", "80.00")),
        # Equal wins: the first bet on the slip gives first.
        ((("tie", "2.25"), ("player_pair", "10")), ("10.00", "90.00"), ("80.00", "0.00")),
        # Under the cap: nothing taken.
        ((("tie", "1"), ("player_pair", "1")), ("40.00", "9.00"), ("0.00", "0.00")),
    ],
)
def test_the_cap_takes_what_is_over_it_off_the_largest_win_first(bets, wins, capped):
    slip = settle(CAPPED, TIE_WITH_PLAYER_PAIR, lit(CAPPED, "3H x8 KH x2"), *bets)
    assert tuple(str(bet.win) for bet in slip.bets) == wins
    assert tuple(str(bet.capped) for bet in slip.bets) == capped
    assert sum(bet.win for bet in slip.bets) <= CAPPED.cap
    assert slip.capped == sum(bet.capped for bet in slip.bets)
    assert slip.returned == sum(bet.stake + bet.win for bet in slip.bets)


def test_a_cap_finer_than_the_currency_is_refused():
    with pytest.raises(MultiplierRulesError) as raised:
        settle(
            MultiplierRule(cards={5: 1}, multipliers={2: 1}, pays=GOLDEN_WEALTH.pays, cap=Decimal("0.5")),
            PLAYER_NATURAL_9,
            lit(GOLDEN_WEALTH, "AS x2"),
            ("player", "10"),
            minor_unit=0,
        )
    assert [(fault.path, fault.code) for fault in raised.value.faults] == [
        (("cap",), FaultCode.CAP_FINER_THAN_MINOR_UNIT)
    ]


#: A round reaching each bet's largest win, and the multiplier cards that light it.
LARGEST_ROUNDS = {
    "player": (PLAYER_THREE_CARDS, "5S x{top} KS x{top} 4S x{top}"),
    "banker": (BANKER_THREE_CARDS, "2H x{top} KC x{top} 7C x{top}"),
    "tie": (TIE_OF_TWO_CARDS_THRICE, "KS x{top} KH x{top}"),
    "player_pair": (PLAYER_PERFECT_PAIR, "5S x{top}"),
    "banker_pair": (BANKER_PERFECT_PAIR, "5S x{top}"),
}
#: What 5.00 on each bet of each preset returns at its largest win, before any cap.
LARGEST_RETURNS = {
    "lightning": {
        "player": "2565.00",
        "banker": "2564.75",
        "tie": "6553605.00",
        "player_pair": "2885.00",
        "banker_pair": "2885.00",
    },
    "golden_wealth": {
        "player": "2565.00",
        "banker": "2564.75",
        "tie": "6553605.00",
        "player_pair": "2885.00",
        "banker_pair": "2885.00",
    },
    "prosperity_tree": {
        "player": "140.00",
        "banker": "139.75",
        "tie": "18230.00",
        "player_pair": "455.00",
        "banker_pair": "455.00",
    },
}


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("bet", LARGEST_ROUNDS)
def test_every_preset_s_largest_win_is_paid_to_the_cent(name, bet):
    rule = PRESETS[name].rule
    uncapped = MultiplierRule(cards=rule.cards, multipliers=rule.multipliers, pays=rule.pays, fee=rule.fee)
    sequence, multipliers = LARGEST_ROUNDS[bet]
    multiplier_cards = lit(uncapped, multipliers.format(top=max(rule.multipliers)))
    settled = settle(uncapped, sequence, multiplier_cards, (bet, "5.00")).bets[0]
    assert str(settled.returned) == LARGEST_RETURNS[name][bet]
    assert settled.win == Decimal("5.00") * largest_pays(rule)[BetType(bet)]


def test_golden_wealth_s_largest_tie_is_capped_at_500_000():
    multiplier_cards = lit(GOLDEN_WEALTH, "KS x8 KH x8")
    slip = settle(
        GOLDEN_WEALTH, TIE_OF_TWO_CARDS_THRICE, multiplier_cards, ("tie", "5.00"), ("player", "1.00")
    )
    tie, player = slip.bets
    assert (str(tie.win), str(tie.capped), str(tie.returned)) == ("500000.00", "6053600.00", "500005.00")
    assert (player.result, str(player.returned)) == (Result.PUSH, "1.00")
    assert str(slip.net) == "499998.80"  # 500,006 back on 7.20


@pytest.mark.parametrize(
    ("bets", "path", "code", "words"),
    [
        ((("big", "10"),), ("bets", 0, "type"), FaultCode.BET_NOT_PAID, "the rule pays no big bets"),
        (
            (("player", "10"), ("tie", "1.01")),
            ("bets", 1, "amount"),
            FaultCode.FEE_FINER_THAN_MINOR_UNIT,
            "the fee on 1.01 is 0.202",
        ),
        (
            (("player", "1.001"),),
            ("bets", 0, "amount"),
            FaultCode.STAKE_TOO_MANY_DECIMALS,
            "2 decimal places",
        ),
        ((("player", "0"),), ("bets", 0, "amount"), FaultCode.STAKE_NOT_POSITIVE, "a stake is more than 0"),
        ((("player", "-5"),), ("bets", 0, "amount"), FaultCode.STAKE_NOT_POSITIVE, "a stake is more than 0"),
    ],
)
def test_a_slip_that_cannot_be_settled_is_refused_naming_each_bet(bets, path, code, words):
    with pytest.raises(MultiplierBetError) as raised:
        settle(LIGHTNING, PLAYER_NATURAL_9, lit(LIGHTNING, "AS x2"), *bets)
    assert [(fault.path, fault.code) for fault in raised.value.faults] == [(path, code)]
    assert words in raised.value.faults[0].detail
    assert str(raised.value).startswith("Some bets cannot be settled on this multiplier round: bets/")
    assert raised.value.within("slips", 2).faults[0].path == ("slips", 2, *path)


def test_a_fee_that_is_not_whole_says_which_stakes_are():
    faults = slip_faults([Bet(type=BetType.TIE, amount=Decimal("1.01"))], LIGHTNING)
    assert faults[0].detail.endswith("stake a multiple of 0.05")
    assert slip_faults([Bet(type=BetType.TIE, amount=Decimal("1.05"))], LIGHTNING) == []


@given(
    sequence=strategies.shoe_sequence(),
    seed=st.text(max_size=8),
    preset=st.sampled_from(sorted(PRESETS)),
    stakes=st.lists(st.integers(1, 10_000), min_size=5, max_size=5),
)
def test_a_settled_slip_adds_up_and_never_loses_more_than_it_cost(sequence, seed, preset, stakes):
    rule = PRESETS[preset].rule
    multiplier_cards = draw_multiplier_cards(rule, SeedInputs(seed))
    slip = [
        Bet(type=bet, amount=Decimal(stake) * Decimal("0.05"))
        for bet, stake in zip(MULTIPLIED_BETS, stakes, strict=True)
    ]
    settled = settle_multiplier_slip(slip, deal(sequence), multiplier_cards, rule)
    for bet in settled.bets:
        assert bet.multiplier == multiplier_cards.multiplier(bet.counted)
        assert bet.returned >= 0
        assert bet.returned - bet.cost >= -bet.cost
        if bet.result is Result.WIN:
            pay = rule.pays[bet.bet.type]
            exact = bet.stake * (pay.pays * bet.multiplier - pay.stake_kept)
            assert bet.win + bet.capped == exact.quantize(Decimal("0.01"), ROUND_DOWN)
        else:
            assert bet.win == 0
    assert settled.net == settled.returned - settled.staked - settled.fees
    assert sum(bet.win for bet in settled.bets) <= (rule.cap or Decimal("Infinity"))


@given(sequence=strategies.shoe_sequence(), seed=st.text(max_size=8), preset=st.sampled_from(sorted(PRESETS)))
def test_a_multiplied_bet_wins_loses_or_pushes_as_the_plain_table_s_bet_and_names_its_line(
    sequence, seed, preset
):
    """A multiplier rule changes what a win pays, never when a bet wins: the
    result and the pay line (code and sentence) are those of the bet settled
    at a plain table on the same round."""
    rule = PRESETS[preset].rule
    coup = deal(sequence)
    slip = [Bet(type=bet, amount=Decimal("1.00")) for bet in rule.bet_types]
    multiplied = settle_multiplier_slip(slip, coup, draw_multiplier_cards(rule, SeedInputs(seed)), rule)
    plain = settle_slip(slip, coup, resolve_rules())
    for bet, settled in zip(multiplied.bets, plain.bets, strict=True):
        assert (bet.result, bet.line) == (settled.terms.result, settled.terms.line)
