"""Each bet's return to player is the odds engine's, to two decimals; its
largest win is the table maximum at its best pay (capped at a multiplier
table)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from service.baccarat.bets.types import BetType
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.odds.exact import shoe_odds
from service.baccarat.sheets.returns import ReturnMethod, bet_returns, percent
from service.baccarat.tables.rules import PUNTO_BANCO, TABLES, resolve_rules

#: DESIGN §5's house edges at 8 decks, as returns: 100 less the edge, to two decimals.
DESIGN_RETURNS = [
    ("standard", BetType.BANKER, "98.94"),
    ("standard", BetType.PLAYER, "98.76"),
    ("standard", BetType.TIE, "85.64"),
    ("tie_9", BetType.TIE, "95.16"),
    ("no_commission", BetType.BANKER, "98.54"),
    ("ez", BetType.BANKER, "98.98"),
    ("ez", BetType.DRAGON_7, "92.39"),
    ("ez", BetType.PANDA_8, "89.81"),
    ("standard", BetType.PLAYER_PAIR, "89.64"),
    ("standard", BetType.EITHER_PAIR, "86.29"),
    ("standard", BetType.PERFECT_PAIR, "86.97"),
    ("standard", BetType.DRAGON_BONUS_PLAYER, "97.35"),
    ("standard", BetType.DRAGON_BONUS_BANKER, "90.63"),
    ("standard", BetType.BIG, "95.65"),
    ("standard", BetType.SMALL, "94.72"),
    ("no_commission", BetType.SUPER_6, "70.02"),
]


@pytest.mark.parametrize(("table", "bet", "rtp"), DESIGN_RETURNS)
def test_returns_are_the_design_s_edges(table, bet, rtp):
    assert bet_returns(TABLES[table].rules).bets[bet].rtp == rtp


@pytest.mark.parametrize("name", PUNTO_BANCO)
def test_every_offered_bet_s_return_is_one_less_its_exact_edge(name):
    rules = TABLES[name].rules
    odds = shoe_odds(rules)
    returns = bet_returns(rules)
    assert returns.method is ReturnMethod.EXACT_ENUMERATION
    assert returns.sequences == 4_998_398_275_503_360
    assert list(returns.bets) == list(rules.bet_types)
    for bet, figures in returns.bets.items():
        assert figures.rtp == percent(1 - odds.bets[bet].house_edge)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_multiplier_table_s_returns_are_per_unit_of_cost(preset):
    rule = PRESETS[preset].rule
    rules = resolve_rules("standard", {"multipliers": rule})
    returns = bet_returns(rules)
    multiplied = shoe_odds(rules).multipliers
    assert returns.method is ReturnMethod.EXACT_ENUMERATION_PER_COST
    for bet, figures in returns.bets.items():
        assert figures.rtp == percent(multiplied.bets[bet].rtp)
        if rule.cap is not None:
            assert Decimal(figures.largest_win) <= rule.cap


@pytest.mark.parametrize(
    ("table", "bet", "largest"),
    [
        ("standard", BetType.BANKER, "190.00"),
        ("standard", BetType.TIE, "160.00"),
        ("tie_9", BetType.TIE, "900.00"),
        ("standard", BetType.DRAGON_BONUS_PLAYER, "300.00"),
        ("standard", BetType.BIG, "108.00"),
        ("ez", BetType.DRAGON_7, "200.00"),
    ],
)
def test_the_largest_win_is_the_table_maximum_at_the_best_pay(table, bet, largest):
    assert bet_returns(TABLES[table].rules).bets[bet].largest_win == largest


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (Fraction(1, 200), "0.50"),
        (Fraction(1, 40000), "0.00"),
        (Fraction(3, 40000), "0.01"),
        (Fraction(1), "100.00"),
    ],
)
def test_percent_rounds_half_to_even(value, written):
    assert percent(value) == written


@pytest.mark.parametrize(
    ("overrides", "bet"),
    [
        ({"commission": "0"}, "banker"),
        (
            {
                "multipliers": {
                    "cards": {"1": 1},
                    "multipliers": {"2": 1},
                    "pays": {"player": {"pays": "1", "counted": "all_cards"}},
                }
            },
            "player",
        ),
    ],
)
def test_a_sheet_for_rules_that_return_more_than_they_cost_warns_as_the_odds_do(client, overrides, bet):
    body = {"rules": overrides}
    odds = client.post("/v1/odds", json=body).get_json()
    sheet = client.post("/v1/rules-sheets", json=body).get_json()
    warned = {warning["bet"] for warning in odds["warnings"] if warning["code"] == "return_over_cost"}
    assert bet in warned
    sections = {
        section["values"]["bet"]: section for section in sheet["sections"] if "bet" in section["values"]
    }
    said = {
        name for name, section in sections.items() if section["values"].get("warning") == "return_over_cost"
    }
    assert said == warned
    codes = [line["code"] for line in sections[bet]["sentences"]]
    assert "return_over_cost" in codes
    assert float(sections[bet]["values"]["rtp"]) > 100


@pytest.mark.parametrize("name", list(TABLES))
def test_no_preset_returns_more_than_it_costs(client, name):
    sheet = client.post("/v1/rules-sheets", json={"table": name}).get_json()
    assert not [section for section in sheet["sections"] if "warning" in section["values"]]


def test_a_commission_of_0_is_named_for_what_it_is(client):
    """The Banker's commission pay table at a commission of 0 pays 1:1 with no
    commission: the sheet says so in words, not as an unnamed 1:1."""
    sheet = client.post("/v1/rules-sheets", json={"rules": {"commission": "0"}}).get_json()
    banker = next(section for section in sheet["sections"] if section["values"].get("bet") == "banker")
    codes = [line["code"] for line in banker["sentences"]]
    assert "pays_no_commission" in codes
    assert "pays_less_commission" not in codes
    standard = client.post("/v1/rules-sheets", json={}).get_json()
    banker = next(section for section in standard["sections"] if section["values"].get("bet") == "banker")
    assert "pays_no_commission" not in [line["code"] for line in banker["sentences"]]
