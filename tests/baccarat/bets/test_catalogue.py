"""The catalogue's pay tables as a rulebook: for every pay table, a round
that meets each of its lines and one that meets none, with what a 10.00 bet
gets on it (cards in dealing order: Player, Banker, Player, Banker, then the
Player's third card, then the Banker's)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from service.baccarat.bets.catalogue import CATALOGUE, pay_tables_of, setting_values, standard
from service.baccarat.bets.paytable import NamedPayTable, Result
from service.baccarat.bets.types import Bet, BetType, Variant
from service.baccarat.rulebook.coup import deal
from service.baccarat.tables.rules import SHORTHANDS, TABLES, BetLimits, Rules
from service.baccarat.tables.settlement import settle_bet
from tests.conftest import cards

STAKE = Decimal("10.00")

# Rounds, by what they are.
P_WINS_9_0 = "2S KH 3D KC 4H TC"  # P 2-3 draws 4: 9; B K-K draws T: 0
B_WINS_7_6 = "9S KH 2D 7C 5H"  # P 9-2 draws 5: 6; B K-7 stands: 7 (five cards)
B_TWO_CARD_6 = "2S 3H 3D 3C KH"  # P 2-3 draws K: 5; B 3-3 stands on 6
B_THREE_CARD_6 = "2S AH 3D KC KH 5D"  # P 2-3 draws K: 5; B A-K draws 5: 6
B_THREE_CARD_7 = "2S AH 4D AC 5D"  # P 2-4 stands: 6; B A-A draws 5: 7
TIE_AT_6 = "3S 3H 3D 3C"  # 6-6, both stand
TIE_AT_7 = "7S 7H KD KC"
NATURAL_TIE = "8S 8H KD KC"
P_NATURAL_9_7 = "9S KH KD 7C"  # four cards
PLAYER_PAIR = "5S 2H 5D 3C 4S KC"  # P 5-5, B 2-3
BANKER_PAIR = "TS 9H JD 9C"  # B 9-9
PERFECT_PLAYER = "5S 2H 5S 3C 4S KC"  # P 5S-5S
BOTH_PERFECT = "9S 9H 9S 9H"  # P 9S-9S, B 9H-9H
B_NATURAL_9 = "KS 9H KD KC"

#: (pay table, round, result, win on 10.00): every line of every pay table,
#: and a round that loses it.
RULEBOOK: list[tuple[str, str, str, str]] = [
    ("player_1_to_1", P_WINS_9_0, "win", "10.00"),
    ("player_1_to_1", TIE_AT_6, "push", "0.00"),
    ("player_1_to_1", B_WINS_7_6, "lose", "0.00"),
    ("banker_commission", B_WINS_7_6, "win", "9.50"),
    ("banker_commission", TIE_AT_6, "push", "0.00"),
    ("banker_commission", P_WINS_9_0, "lose", "0.00"),
    ("banker_no_commission", B_TWO_CARD_6, "win", "5.00"),
    ("banker_no_commission", B_WINS_7_6, "win", "10.00"),
    ("banker_no_commission", TIE_AT_6, "push", "0.00"),
    ("banker_no_commission", P_WINS_9_0, "lose", "0.00"),
    ("banker_ez", B_THREE_CARD_7, "push", "0.00"),
    ("banker_ez", B_WINS_7_6, "win", "10.00"),
    ("banker_ez", TIE_AT_6, "push", "0.00"),
    ("banker_ez", P_WINS_9_0, "lose", "0.00"),
    ("tie_8_to_1", TIE_AT_6, "win", "80.00"),
    ("tie_8_to_1", B_WINS_7_6, "lose", "0.00"),
    ("tie_9_to_1", TIE_AT_6, "win", "90.00"),
    ("tie_9_to_1", P_WINS_9_0, "lose", "0.00"),
    ("player_pair_11_to_1", PLAYER_PAIR, "win", "110.00"),
    ("player_pair_11_to_1", BANKER_PAIR, "lose", "0.00"),
    ("player_pair_12_to_1", PLAYER_PAIR, "win", "120.00"),
    ("player_pair_12_to_1", BANKER_PAIR, "lose", "0.00"),
    ("banker_pair_11_to_1", BANKER_PAIR, "win", "110.00"),
    ("banker_pair_11_to_1", PLAYER_PAIR, "lose", "0.00"),
    ("banker_pair_12_to_1", BANKER_PAIR, "win", "120.00"),
    ("banker_pair_12_to_1", PLAYER_PAIR, "lose", "0.00"),
    ("either_pair_5_to_1", PLAYER_PAIR, "win", "50.00"),
    ("either_pair_5_to_1", B_WINS_7_6, "lose", "0.00"),
    ("perfect_pair_25_to_1", PERFECT_PLAYER, "win", "250.00"),
    ("perfect_pair_25_to_1", BOTH_PERFECT, "win", "250.00"),
    ("perfect_pair_25_to_1", PLAYER_PAIR, "lose", "0.00"),
    ("perfect_pair_25_or_200", BOTH_PERFECT, "win", "2000.00"),
    ("perfect_pair_25_or_200", PERFECT_PLAYER, "win", "250.00"),
    ("perfect_pair_25_or_200", PLAYER_PAIR, "lose", "0.00"),
    ("dragon_bonus_player_30_10_6_4_2_1", P_NATURAL_9_7, "win", "10.00"),
    ("dragon_bonus_player_30_10_6_4_2_1", NATURAL_TIE, "push", "0.00"),
    ("dragon_bonus_player_30_10_6_4_2_1", P_WINS_9_0, "win", "300.00"),
    ("dragon_bonus_player_30_10_6_4_2_1", "2S AH 3D KC 4H TC", "win", "100.00"),
    ("dragon_bonus_player_30_10_6_4_2_1", "2S 2H 3D KC 4H TC", "win", "60.00"),
    ("dragon_bonus_player_30_10_6_4_2_1", "2S 3H 3D KC 4H TC", "win", "40.00"),
    ("dragon_bonus_player_30_10_6_4_2_1", "2S 4H 3D KC 4H TC", "win", "20.00"),
    ("dragon_bonus_player_30_10_6_4_2_1", "2S 5H 3D KC 4H TC", "win", "10.00"),
    ("dragon_bonus_player_30_10_6_4_2_1", "2S 6H 3D KC 4H", "lose", "0.00"),
    ("dragon_bonus_banker_30_10_6_4_2_1", B_NATURAL_9, "win", "10.00"),
    ("dragon_bonus_banker_30_10_6_4_2_1", NATURAL_TIE, "push", "0.00"),
    ("dragon_bonus_banker_30_10_6_4_2_1", "KS AH KD 2C TH 6D", "win", "300.00"),
    ("dragon_bonus_banker_30_10_6_4_2_1", "AS AH KD 2C TH 6D", "win", "100.00"),
    ("dragon_bonus_banker_30_10_6_4_2_1", "KS 7H KD KC TH", "win", "60.00"),
    ("dragon_bonus_banker_30_10_6_4_2_1", "AS 7H KD KC KH", "win", "40.00"),
    ("dragon_bonus_banker_30_10_6_4_2_1", "2S 7H KD KC TH", "win", "20.00"),
    ("dragon_bonus_banker_30_10_6_4_2_1", "3S 7H KD KC TH", "win", "10.00"),
    ("dragon_bonus_banker_30_10_6_4_2_1", B_WINS_7_6, "lose", "0.00"),
    ("dragon_7_40_to_1", B_THREE_CARD_7, "win", "400.00"),
    ("dragon_7_40_to_1", B_WINS_7_6, "lose", "0.00"),
    ("panda_8_25_to_1", "2S AH 3D AC 3H 5D", "win", "250.00"),
    ("panda_8_25_to_1", P_NATURAL_9_7, "lose", "0.00"),
    ("big_0_54_to_1", B_WINS_7_6, "win", "5.40"),
    ("big_0_54_to_1", P_NATURAL_9_7, "lose", "0.00"),
    ("big_0_53_to_1", P_WINS_9_0, "win", "5.30"),
    ("big_0_53_to_1", TIE_AT_6, "lose", "0.00"),
    ("small_1_5_to_1", P_NATURAL_9_7, "win", "15.00"),
    ("small_1_5_to_1", B_WINS_7_6, "lose", "0.00"),
    ("small_1_45_to_1", P_NATURAL_9_7, "win", "14.50"),
    ("small_1_45_to_1", P_WINS_9_0, "lose", "0.00"),
    ("super_6_12_to_1", B_TWO_CARD_6, "win", "120.00"),
    ("super_6_12_to_1", B_THREE_CARD_6, "win", "120.00"),
    ("super_6_12_to_1", TIE_AT_6, "lose", "0.00"),
    ("super_6_15_to_1", B_THREE_CARD_6, "win", "150.00"),
    ("super_6_15_to_1", B_WINS_7_6, "lose", "0.00"),
    ("lucky_6_12_or_20", B_TWO_CARD_6, "win", "120.00"),
    ("lucky_6_12_or_20", B_THREE_CARD_6, "win", "200.00"),
    ("lucky_6_12_or_20", TIE_AT_6, "lose", "0.00"),
    ("lucky_6_12_or_23", B_TWO_CARD_6, "win", "120.00"),
    ("lucky_6_12_or_23", B_THREE_CARD_6, "win", "230.00"),
    ("lucky_6_12_or_23", "7S 3H KD 3C", "lose", "0.00"),  # P 7 beats B 6
    ("big_tiger_50_to_1", B_THREE_CARD_6, "win", "500.00"),
    ("big_tiger_50_to_1", B_TWO_CARD_6, "lose", "0.00"),
    ("small_tiger_22_to_1", B_TWO_CARD_6, "win", "220.00"),
    ("small_tiger_22_to_1", B_THREE_CARD_6, "lose", "0.00"),
    ("tiger_tie_35_to_1", TIE_AT_6, "win", "350.00"),
    ("tiger_tie_35_to_1", TIE_AT_7, "lose", "0.00"),
    ("tiger_tie_35_to_1", B_TWO_CARD_6, "lose", "0.00"),
]


def rules_choosing(table: NamedPayTable) -> Rules:
    """Rules that offer ``table``'s bet and pay it by ``table``."""
    limits = {table.bet: BetLimits(min=Decimal(1), max=Decimal(1000))}
    if table.setting is None:
        return Rules(limits=limits, pay_tables={table.bet: table.id})
    name, value = table.setting
    if name == "variant":
        commission = Decimal("0.05") if value == Variant.STANDARD else Decimal(0)
        return Rules(limits=limits, variant=Variant(value), commission=commission)
    return Rules(limits=limits, **{name: value})


@pytest.mark.parametrize(
    ("table_id", "sequence", "result", "win"),
    [pytest.param(*case, id=f"{case[0]}: {case[1]}") for case in RULEBOOK],
)
def test_the_rulebook(table_id, sequence, result, win):
    table = CATALOGUE[table_id]
    rules = rules_choosing(table)
    assert rules.chosen[table.bet].id == table_id
    settled = settle_bet(Bet(type=table.bet, amount=STAKE), deal(cards(sequence)), rules)
    assert (settled.result, str(settled.win)) == (Result(result), win)


@pytest.mark.parametrize("table_id", list(CATALOGUE))
def test_every_line_and_a_loss_of_every_pay_table_is_in_the_rulebook(table_id):
    table = CATALOGUE[table_id]
    rounds = [deal(cards(sequence)) for name, sequence, _, _ in RULEBOOK if name == table_id]
    for line in table.lines:
        assert any(line.applies(coup) for coup in rounds), line.when
    assert any(table.payout(coup).result is Result.LOSE for coup in rounds)


def test_every_bet_type_has_pay_tables_with_stable_distinct_ids():
    assert {table.bet for table in CATALOGUE.values()} == set(BetType)
    for bet in BetType:
        tables = pay_tables_of(bet)
        assert tables[0] is standard(bet)
        assert all(table.id.startswith(str(bet)) for table in tables), bet
        assert len({tuple(line.payout for line in table.lines) for table in tables}) == len(tables)


def test_every_pay_table_names_its_lines_and_a_public_source():
    for table in CATALOGUE.values():
        assert table.description
        assert table.lines
        assert all(line.when and line.payout.result is not Result.LOSE for line in table.lines)
        assert table.source.title
        assert table.source.url.startswith(("https://", "http://"))
        assert table.source.house_edge or table.source.note, table.id


def test_the_shorthand_settings_choose_one_pay_table_per_value():
    for bet, setting in SHORTHANDS.items():
        assert [table.setting for table in pay_tables_of(bet)] == [
            (setting, value) for value in setting_values(setting)
        ]
    assert all(table.setting is None for table in CATALOGUE.values() if table.bet not in SHORTHANDS)


@pytest.mark.parametrize("name", list(TABLES))
def test_each_preset_chooses_its_pay_tables_explicitly_or_takes_the_standard_ones(name):
    rules = TABLES[name].rules
    for bet in rules.bet_types:
        if bet in rules.pay_tables:
            assert rules.chosen[bet].id == rules.pay_tables[bet] != standard(bet).id
        elif bet not in SHORTHANDS:
            assert rules.chosen[bet] is standard(bet)
