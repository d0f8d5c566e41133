"""Peek Baccarat's table has a sheet of its own game: the peek's fee, the
cards shown, the choices and their limit, no fee on the raise, and the
Player and Banker returns with the best choice and always kept, each figure
the peek engine's (its rule and its odds). A checklist of the facts the
game's published conditions state, as for the seed rule texts
(tests/baccarat/sheets/test_sheet.py); and the multiplier tables' sheets
state their own games."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.peek.odds import peek_return
from service.baccarat.peek.round import PEEK, Choice, _open_choices
from service.baccarat.sheets.returns import ReturnMethod, percent
from service.baccarat.sheets.sheet import rules_sheet
from service.baccarat.sheets.words import LineCode as L
from service.baccarat.sheets.words import SectionCode as S
from service.baccarat.tables.rules import TABLES, BetLimits, resolve_rules
from tests.baccarat.sheets.test_sheet import BANKER_RULE, MAIN_PAYS, THE_GAME, Fact, holds, limits


def peek_sheet():
    table = TABLES["peek"]
    return rules_sheet(table.rules, chips=table.chips, dealing=table.dealing, peek=PEEK)


#: The operator's published game conditions (service/baccarat/peek/round.py),
#: fact by fact: a 20% fee on Player and Banker, none on Tie and the pairs;
#: 1 to 4 of the first four cards shown after each hand's first two; keep,
#: double or triple up to the table maximum, no fee on the raise; the round
#: finished by the tableau and settled at Player 1:1, Banker 0.95:1, Tie 8:1,
#: pairs 11:1.
PUBLISHED = [
    *THE_GAME,
    *BANKER_RULE,
    *MAIN_PAYS,
    Fact(S.PEEK, L.PEEK_FEE, {"bet": "player", "rate": "20%"}),
    Fact(S.PEEK, L.PEEK_FEE, {"bet": "banker", "rate": "20%"}),
    Fact(S.PEEK, L.PEEK_NO_FEE, {"bet": "tie"}),
    Fact(S.PEEK, L.PEEK_NO_FEE, {"bet": "player_pair"}),
    Fact(S.PEEK, L.PEEK_NO_FEE, {"bet": "banker_pair"}),
    Fact(S.PEEK, L.PEEK_SHOWN, {"shown": "1-4"}),
    Fact(S.PEEK, L.PEEK_CHOICE, {"choice": "keep", "times": 1}),
    Fact(S.PEEK, L.PEEK_CHOICE, {"choice": "double", "times": 2}),
    Fact(S.PEEK, L.PEEK_CHOICE, {"choice": "triple", "times": 3}),
    Fact(S.PEEK, L.PEEK_MAXIMUM, {"bet": "player", "max": "200.00"}),
    Fact(S.PEEK, L.PEEK_MAXIMUM, {"bet": "banker", "max": "200.00"}),
    Fact(S.PEEK, L.PEEK_RAISE_NO_FEE),
    Fact(S.PEEK, L.PEEK_SETTLED),
    Fact(S.BET, L.FEE, {"rate": "20%"}, BetType.PLAYER),
    Fact(S.BET, L.FEE, {"rate": "20%"}, BetType.BANKER),
    Fact(S.BET, L.PAYS_LESS_COMMISSION, {"net": "0.95:1"}, BetType.BANKER),
    Fact(S.BET, L.PAYS, {"when": "the_totals_are_equal", "odds": "8:1"}, BetType.TIE),
    Fact(S.BET, L.PAYS, {"odds": "11:1"}, BetType.PLAYER_PAIR),
    Fact(S.BET, L.PAYS, {"odds": "11:1"}, BetType.BANKER_PAIR),
    limits(BetType.PLAYER, "1.00", "200.00"),
    limits(BetType.TIE, "1.00", "20.00"),
    Fact(S.RETURN_TO_PLAYER, L.PEEK_RETURNS),
]


def test_the_peek_sheet_states_every_fact_of_the_game_s_conditions():
    sheet = peek_sheet()
    assert [fact for fact in PUBLISHED if not holds(sheet, fact)] == []


def test_a_plain_table_s_sheet_states_no_peek():
    """The checklist can fail: the standard table's sheet has no peek, no fee."""
    sheet = rules_sheet(TABLES["standard"].rules)
    assert not holds(sheet, Fact(S.PEEK, L.PEEK_SHOWN))
    assert not holds(sheet, Fact(S.BET, L.FEE, {"rate": "20%"}, BetType.PLAYER))
    assert S.PEEK not in [section.code for section in sheet.sections]


def test_the_peek_section_s_figures_are_the_peek_engine_s():
    sheet = peek_sheet()
    section = sheet.section(S.PEEK)
    rate = format((PEEK.fee_rate * 100).normalize(), "f") + "%"
    assert section.values["fee"] == rate
    assert set(section.values["fee_bets"]) == {str(bet) for bet in PEEK.fee_bets}
    assert section.values["shown"] == tuple(sorted(n for n, w in PEEK.shown_weights.items() if w))
    total = sum(PEEK.shown_weights.values())
    assert section.values["shown_weights"] == tuple(
        f"{count}: {weight}/{total}" for count, weight in sorted(PEEK.shown_weights.items())
    )
    assert section.values["choices"] == tuple(
        f"{choice}: {times}" for choice, times in PEEK.multiples.items()
    )
    assert [line.values["times"] for line in section.lines if line.code is L.PEEK_CHOICE] == [
        PEEK.multiples[choice] for choice in Choice
    ]
    assert sheet.returns.method is ReturnMethod.EXACT_ENUMERATION_PEEK
    for bet in (BetType.PLAYER, BetType.BANKER):
        priced = peek_return(bet, decks=sheet.rules.decks)
        best, kept, tripled = percent(priced.best), percent(priced.kept), percent(priced.tripled)
        assert (section.values[f"rtp_{bet}"], section.values[f"rtp_kept_{bet}"]) == (best, kept)
        assert holds(
            sheet, Fact(S.PEEK, L.PEEK_RETURN_BEST, {"bet": bet, "rtp": f"{best}%", "tripled": f"{tripled}%"})
        )
        assert holds(sheet, Fact(S.PEEK, L.PEEK_RETURN_KEPT, {"bet": bet, "rtp": f"{kept}%"}))
        bet_values = next(s.values for s in sheet.sections if s.values.get("bet") == str(bet))
        assert (bet_values["rtp"], bet_values["rtp_kept"], bet_values["tripled"]) == (best, kept, tripled)
        assert bet_values["fee"] == rate
    # What the game publishes (98.8% for Player and Banker) is what the sheet states, to one decimal.
    for bet in ("player", "banker"):
        assert Decimal(section.values[f"rtp_{bet}"]).quantize(Decimal("0.1")) == Decimal(
            PEEK.published_returns[bet]
        )


def test_the_peek_sheet_is_not_the_plain_sheet_of_its_rules():
    """The peek table's rules are a plain table's: its sheet's id and returns are its own."""
    rules = TABLES["peek"].rules
    plain, peek = rules_sheet(rules), peek_sheet()
    assert peek.id != plain.id
    assert peek.returns.bets[BetType.PLAYER].rtp != plain.returns.bets[BetType.PLAYER].rtp
    assert peek.returns.bets[BetType.TIE] == plain.returns.bets[BetType.TIE]


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_multiplier_table_s_sheet_states_its_game(name):
    """Each multiplier game's table (GET /v1/tables) states its own fee,
    multiplier cards and multipliers, cap, ranges of pays and returns per cost."""
    rule = PRESETS[name].rule
    sheet = rules_sheet(TABLES[name].rules)
    assert sheet.rules.multipliers == rule
    assert sheet.returns.method is ReturnMethod.EXACT_ENUMERATION_PER_COST
    multipliers = sheet.section(S.MULTIPLIERS)
    assert multipliers.values["rule"] == rule.id
    # An uncapped rule's section has no cap (it was once written "None").
    assert multipliers.values.get("cap") == (
        None if rule.cap is None else format(rule.cap.quantize(Decimal("0.01")), "f")
    )
    assert "cap" in multipliers.values or rule.cap is None
    # Its bets are paid by the rule's base pays, which no pay table of the catalogue has.
    paid = [section for section in sheet.sections if section.code is S.BET]
    assert {section.values["bet"] for section in paid} == {str(bet) for bet in rule.pays}
    for section in paid:
        assert "pay_table" not in section.values
        assert section.values["rule"] == rule.id
    assert holds(
        sheet,
        Fact(
            S.MULTIPLIERS,
            L.MULTIPLIER_CARDS,
            {"multipliers": ", ".join(str(m) for m in sorted(rule.multipliers))},
        ),
    )
    for bet in sheet.rules.bet_types:
        rate = rule.fee.rate_on(bet)
        if rate:
            code = L.FEE_RETURNED_ON_PUSH if rule.fee.returned_on_push else L.FEE
            assert holds(sheet, Fact(S.BET, code, {"rate": format((rate * 100).normalize(), "f") + "%"}, bet))
        if bet in rule.pays and rule.pays[bet].counted.most:
            assert holds(sheet, Fact(S.BET, L.MULTIPLIED, {}, bet)), bet
    assert holds(sheet, Fact(S.RETURN_TO_PLAYER, L.RETURNS_PER_COST))
    assert S.PEEK not in [section.code for section in sheet.sections]


@pytest.mark.parametrize("top", ["200.00", "30.00", "1.00"])
def test_the_peek_returns_are_stated_for_the_stakes_that_can_have_them(top):
    """Each range of stakes the sheet states is exactly the stakes the peek
    round offers those choices to (a raise stays within the maximum)."""
    limits = {bet: BetLimits(min=Decimal("1.00"), max=Decimal(top)) for bet in ("player", "banker")}
    rules = resolve_rules("peek", {"limits": limits})
    sheet = rules_sheet(rules, peek=PEEK)
    codes = {
        L.PEEK_STAKES_TRIPLED: Choice.TRIPLE,
        L.PEEK_STAKES_DOUBLED: Choice.DOUBLE,
        L.PEEK_STAKES_KEPT: Choice.KEEP,
    }
    stated = [
        line
        for section in sheet.sections
        if section.code is S.PEEK
        for line in section.lines
        if line.code in codes
    ]
    for bet in (BetType.PLAYER, BetType.BANKER):
        ranges = [line for line in stated if line.values["bet"].code == str(bet)]
        assert ranges[0].values["low"] == "1.00"
        assert ranges[-1].values["high"] == top
        for line in ranges:
            for stake in (Decimal(str(line.values["low"])), Decimal(str(line.values["high"]))):
                choices = _open_choices([Bet(type=bet, amount=stake)], bet, rules, PEEK)
                assert max(choices, key=lambda choice: PEEK.multiples[choice]) is codes[line.code]


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_multiplier_game_s_sheet_states_each_multiplier_s_chance(name):
    """'2, 3 multipliers' alone would hide Prosperity Tree's 15:1: each value is stated with its chance."""
    rule = PRESETS[name].rule
    section = rules_sheet(TABLES[name].rules).section(S.MULTIPLIERS)
    said = {line.code: str(line.values["chances"]) for line in section.lines if "chances" in line.values}
    if len(rule.multipliers) > 1:
        total = sum(rule.multipliers.values())
        for multiplier, weight in rule.multipliers.items():
            assert f"{multiplier} ({Fraction(weight, total)})" in said[L.MULTIPLIER_CHANCES]
    assert (L.MULTIPLIER_CARD_CHANCES in said) is (len(rule.cards) > 1)
