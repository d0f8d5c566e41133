"""The rules sheet states every rule fact of the rule texts it replaces.

Each seed rule text (DESIGN.md, "seeds") is a table configured as the text
describes it, and a checklist of the facts the text states, each a sentence
the sheet must hold: its section, its code and the figures it is filled
with. A sheet changes when, and only when, the rules id changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service import __version__
from service.baccarat.bets.paytable import Result
from service.baccarat.bets.types import BetType
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.odds.exact import priced_by
from service.baccarat.peek.round import PEEK
from service.baccarat.sheets.chart import CHART
from service.baccarat.sheets.sheet import DEFAULT_CHIPS, RulesSheet, rules_sheet, stake_step
from service.baccarat.sheets.words import Line, LineCode, Malfunction, SectionCode
from service.baccarat.tables.rules import TABLES, BetLimits, Dealing, resolve_rules
from tests.strategies import table_rules

S = SectionCode
L = LineCode


@dataclass(frozen=True)
class Fact:
    """A sentence the sheet must hold: in section ``section`` (of bet ``bet``),
    of code ``line``, with at least these values (each written as text)."""

    section: SectionCode
    line: LineCode
    values: dict[str, Any] = field(default_factory=dict)
    bet: BetType | None = None


def holds(sheet: RulesSheet, fact: Fact) -> bool:
    for section in sheet.sections:
        if section.code is not fact.section:
            continue
        if fact.bet is not None and section.values.get("bet") != str(fact.bet):
            continue
        if any(line.code is fact.line and _has(line, fact.values) for line in section.lines):
            return True
    return False


def _has(line: Line, values: dict[str, Any]) -> bool:
    written = {name: getattr(value, "code", str(value)) for name, value in line.values.items()}
    return all(written.get(name) == str(value) for name, value in values.items())


#: The Banker's rule as every text states it (their charts, row by row).
BANKER_RULE = [
    Fact(S.BANKER_RULE, L.BANKER_PLAYER_STOOD, {"draws": "0-5", "stands": "6-7"}),
    Fact(S.BANKER_RULE, L.BANKER_ALWAYS_DRAWS, {"totals": "0-2"}),
    Fact(S.BANKER_RULE, L.BANKER_DRAWS_ON, {"total": 3, "draws": "0-7, 9", "stands": "8"}),
    Fact(S.BANKER_RULE, L.BANKER_DRAWS_ON, {"total": 4, "draws": "2-7", "stands": "0-1, 8-9"}),
    Fact(S.BANKER_RULE, L.BANKER_DRAWS_ON, {"total": 5, "draws": "4-7", "stands": "0-3, 8-9"}),
    Fact(S.BANKER_RULE, L.BANKER_DRAWS_ON, {"total": 6, "draws": "6-7", "stands": "0-5, 8-9"}),
    Fact(S.BANKER_RULE, L.BANKER_ALWAYS_STANDS, {"totals": "7"}),
]
#: What every text says of cards, naturals, the Player's rule and winning.
THE_GAME = [
    Fact(S.OBJECT, L.OBJECT),
    Fact(S.CARD_VALUES, L.ACE, {"points": 1}),
    Fact(S.CARD_VALUES, L.PIPS),
    Fact(S.CARD_VALUES, L.TENS_AND_FACES, {"points": 0}),
    Fact(S.CARD_VALUES, L.TOTAL),
    Fact(S.NATURALS, L.NATURAL, {"naturals": "8-9"}),
    Fact(S.PLAYER_RULE, L.PLAYER_DRAWS, {"draws": "0-5", "stands": "6-7"}),
    Fact(S.OUTCOMES, L.HIGHER_TOTAL_WINS),
    *BANKER_RULE,
]
MAIN_PAYS = [
    Fact(S.BET, L.PAYS, {"when": "player_wins", "odds": "1:1"}, BetType.PLAYER),
    Fact(S.BET, L.PAYS_LESS_COMMISSION, {"when": "banker_wins", "odds": "1:1", "rate": "5%"}, BetType.BANKER),
    Fact(S.BET, L.PUSHES, {"when": "a_tie"}, BetType.PLAYER),
    Fact(S.BET, L.PUSHES, {"when": "a_tie"}, BetType.BANKER),
    Fact(S.OUTCOMES, L.TIE_PUSHES),
]


def limits(bet: BetType, low: str, high: str) -> Fact:
    return Fact(S.LIMITS, L.BET_LIMITS, {"bet": str(bet), "min": low, "max": high})


@dataclass(frozen=True)
class Seed:
    """A seed rule text: the table it describes, and the facts it states."""

    name: str
    table: str
    overrides: dict[str, Any]
    dealing: Dealing
    malfunction: Malfunction
    facts: list[Fact]


SEEDS = [
    Seed(
        # "TOP's Baccarat": hands, deal, naturals, the tableau in words, five chips,
        # and the unusual-activity clause.
        "000_09edf656cca41614",
        "standard",
        {},
        Dealing.SHOE,
        Malfunction.UNDER_REVIEW,
        [
            *THE_GAME,
            Fact(S.OBJECT, L.HANDS_ARE_NAMES),
            Fact(S.CARD_VALUES, L.EXAMPLE, {"cards": "6H+7S", "sum": 13, "total": 3}),
            Fact(S.CARD_VALUES, L.EXAMPLE, {"cards": "4D+6C", "sum": 10, "total": 0}),
            Fact(S.DEAL, L.DEAL_ORDER),
            Fact(S.DEAL, L.THIRD_CARD),
            Fact(S.LIMITS, L.CHIPS, {"chips": "1.00, 5.00, 10.00, 25.00, 100.00"}),
            Fact(S.MALFUNCTION, L.MALFUNCTION, {"clause": "under_review"}),
        ],
    ),
    Seed(
        # Even money, 5% commission, tie 8:1, the third-card chart, 1.00 to 200.00 and a tie maximum of 20.
        "001_092fd2e6805cc4c9",
        "standard",
        {"tie_pays": 8},
        Dealing.SHOE,
        Malfunction.VOIDS_ALL_PAYS_AND_PLAYS,
        [
            *THE_GAME,
            *MAIN_PAYS,
            Fact(S.CARD_VALUES, L.EXAMPLE, {"cards": "8S+9H", "sum": 17, "total": 7}),
            Fact(S.BET, L.PAYS, {"when": "the_totals_are_equal", "odds": "8:1"}, BetType.TIE),
            limits(BetType.PLAYER, "1.00", "200.00"),
            limits(BetType.BANKER, "1.00", "200.00"),
            limits(BetType.TIE, "1.00", "20.00"),
            Fact(S.BET, L.RETURN, {"rtp": "85.64%"}, BetType.TIE),
        ],
    ),
    Seed(
        # 8 decks, Player gets the first and third card, the chart in S/D, 1:1, 5% and a tie 8:1.
        "002_50e203e9ee8a90f2",
        "standard",
        {"decks": 8},
        Dealing.SHOE,
        Malfunction.VOIDS_ALL_PAYS_AND_PLAYS,
        [
            *THE_GAME,
            *MAIN_PAYS,
            Fact(S.DEAL, L.DEAL_ORDER),
            Fact(S.SHOE, L.DECKS, {"decks": 8}),
            Fact(S.CARD_VALUES, L.EXAMPLE, {"cards": "8S+9H", "sum": 17, "total": 7}),
            Fact(S.BET, L.PAYS, {"when": "the_totals_are_equal", "odds": "8:1"}, BetType.TIE),
        ],
    ),
    Seed(
        # Eight decks reshuffled after each hand, even money, 5% commission, tie 9:1, bets 5 to 100.
        "003_b0bd9ae7599263aa",
        "tie_9",
        {},
        Dealing.RESHUFFLE_EACH_HAND,
        Malfunction.VOIDS_ALL_PAYS_AND_PLAYS,
        [
            *THE_GAME,
            *MAIN_PAYS,
            Fact(S.DEAL, L.DEAL_ORDER),
            Fact(S.SHOE, L.DECKS, {"decks": 8}),
            Fact(S.SHOE, L.RESHUFFLED),
            Fact(S.CARD_VALUES, L.EXAMPLE, {"cards": "KD+5S+6H", "sum": 11, "total": 1}),
            Fact(S.CARD_VALUES, L.EXAMPLE, {"cards": "2C+TD+4S", "sum": 6, "total": 6}),
            Fact(S.BET, L.PAYS, {"when": "the_totals_are_equal", "odds": "9:1"}, BetType.TIE),
            limits(BetType.PLAYER, "5.00", "100.00"),
            limits(BetType.BANKER, "5.00", "100.00"),
            limits(BetType.TIE, "5.00", "100.00"),
            Fact(S.BET, L.RETURN, {"rtp": "95.16%"}, BetType.TIE),
        ],
    ),
]


def seed_sheet(seed: Seed) -> RulesSheet:
    rules = resolve_rules(seed.table, seed.overrides)
    return rules_sheet(rules, chips=DEFAULT_CHIPS, dealing=seed.dealing, malfunction=seed.malfunction)


@pytest.mark.parametrize("seed", SEEDS, ids=lambda seed: seed.name)
def test_the_sheet_states_every_fact_of_the_rule_text(seed):
    sheet = seed_sheet(seed)
    missing = [fact for fact in seed.facts if not holds(sheet, fact)]
    assert missing == []
    assert sheet.chart == CHART


def test_a_fact_the_table_does_not_have_is_not_stated():
    """The checklist can fail: a 9:1 tie is not on an 8:1 table's sheet, nor reshuffling on a shoe's."""
    sheet = seed_sheet(SEEDS[1])
    assert not holds(sheet, Fact(S.BET, L.PAYS, {"odds": "9:1"}, BetType.TIE))
    assert not holds(sheet, Fact(S.SHOE, L.RESHUFFLED))
    assert holds(sheet, Fact(S.SHOE, L.CUT_CARD, {"cut_card": 16}))


@pytest.mark.parametrize(
    ("table", "fact"),
    [
        (
            "no_commission",
            Fact(S.BET, L.PAYS, {"when": "banker_wins_with_a_total_of_6", "odds": "1:2"}, BetType.BANKER),
        ),
        ("ez", Fact(S.BET, L.PUSHES, {"when": "banker_wins_with_a_three_card_7"}, BetType.BANKER)),
        ("ez", Fact(S.BET, L.PAYS, {"odds": "40:1"}, BetType.DRAGON_7)),
        ("ez", Fact(S.BET, L.PAYS, {"odds": "25:1"}, BetType.PANDA_8)),
        ("standard", Fact(S.LIMITS, L.ROUNDED, {"rounding": "down", "minor_unit": 2})),
        (
            "standard",
            Fact(S.RULES, L.WRITTEN_FOR, {"rules_id": TABLES["standard"].rules.id, "version": __version__}),
        ),
    ],
)
def test_each_variant_s_pays_are_stated(table, fact):
    assert holds(rules_sheet(TABLES[table].rules), fact)


def test_a_multiplier_table_states_its_ranges_fee_and_cap():
    rules = resolve_rules("standard", {"multipliers": PRESETS["golden_wealth"].rule})
    sheet = rules_sheet(rules)
    assert holds(sheet, Fact(S.BET, L.MULTIPLIED, {"pays": "1-512:1"}, BetType.PLAYER))
    assert holds(sheet, Fact(S.BET, L.FEE, {"rate": "20%"}, BetType.PLAYER))
    assert holds(sheet, Fact(S.MULTIPLIERS, L.CAP, {"cap": "500000.00"}))
    assert holds(sheet, Fact(S.RETURN_TO_PLAYER, L.RETURNS_PER_COST))


def test_the_malfunction_clause_is_the_default_unless_the_operator_names_another():
    assert rules_sheet(TABLES["standard"].rules).malfunction is Malfunction.VOIDS_ALL_PAYS_AND_PLAYS
    for clause in Malfunction:
        sheet = rules_sheet(TABLES["standard"].rules, malfunction=clause)
        assert holds(sheet, Fact(S.MALFUNCTION, L.MALFUNCTION, {"clause": str(clause)}))


def stated(sheet: RulesSheet) -> list[Any]:
    """Everything the sheet states, as data."""
    return [
        (str(section.code), dict(section.values), [(str(line.code), line.english) for line in section.lines])
        for section in sheet.sections
    ]


@settings(deadline=None)
@given(table_rules(), table_rules())
def test_a_sheet_changes_when_and_only_when_the_rules_id_changes(one, other):
    first, second = rules_sheet(one), rules_sheet(other)
    assert (stated(first) == stated(second)) is (one.id == other.id)
    assert (first.id == second.id) is (one.id == other.id)


@settings(deadline=None)
@given(table_rules(), st.sampled_from([(Decimal(1),), (Decimal(5), Decimal(25))]))
def test_the_sheet_id_covers_the_chips_too(rules, chips):
    assert rules_sheet(rules).id != rules_sheet(rules, chips=chips).id
    assert replace(rules).id == rules.id


@pytest.mark.parametrize("name", list(TABLES))
def test_each_bet_s_stated_pays_are_exact_on_its_stated_stake_step(name):
    """The money rule (docs/bets.md): on a multiple of the stake step the sheet
    states, a win is what the lines state and a fee what the rate says, to
    the last minor unit; a bet exact on every stake states no step."""
    table = TABLES[name]
    peek = PEEK if table.peek else None
    sheet = rules_sheet(table.rules, dealing=table.dealing, peek=peek)
    unit = Decimal(1).scaleb(-table.rules.minor_unit)
    rule = table.rules.multipliers
    for section in sheet.sections:
        if section.code is not SectionCode.BET:
            continue
        bet = BetType(str(section.values["bet"]))
        step = stake_step(bet, table.rules, peek)
        assert section.values.get("stake_step") == (None if step == unit else str(step))
        if rule is not None and bet in rule.pays:
            rates = [rule.pays[bet].pays - rule.pays[bet].stake_kept, rule.fee.rate_on(bet)]
        else:
            rates = [
                line.payout.net
                for line in priced_by(bet, table.rules).lines
                if line.payout.result is Result.WIN
            ]
        if peek is not None and bet in peek.fee_bets:
            rates.append(peek.fee_rate)
        for stake in (step, step * 3, step * 7):
            for rate in rates:
                assert stake * rate == (stake * rate).quantize(unit), (bet, stake, rate)


def test_one_deck_is_said_in_the_singular():
    sheet = rules_sheet(resolve_rules("standard", {"decks": 1}))
    codes = [line.code for section in sheet.sections for line in section.lines]
    assert LineCode.ONE_DECK in codes
    assert LineCode.EXACT_RETURNS_ONE_DECK in codes
    assert LineCode.DECKS not in codes
    assert LineCode.EXACT_RETURNS not in codes
    assert not any("1 decks" in line.english for section in sheet.sections for line in section.lines)


def _bet_lines(sheet: RulesSheet, bet: BetType) -> dict[LineCode, dict[str, Any]]:
    section = next(s for s in sheet.sections if s.code is SectionCode.BET and s.values["bet"] == bet)
    return {line.code: {k: str(v) for k, v in line.values.items()} for line in section.lines}


#: A whole-unit currency at Lightning: every bet from 5 to 500.
WHOLE_UNITS = {
    "minor_unit": 0,
    "limits": {
        bet: BetLimits(min=Decimal(5), max=Decimal(500)) for bet in TABLES["lightning"].rules.bet_types
    },
}


@pytest.mark.parametrize(
    ("table", "overrides", "bet", "taken", "step"),
    [
        # 20% of a whole unit is 0.2: stakes of 5, 10, ...; the Player's 1:1 is exact on each.
        ("lightning", WHOLE_UNITS, "player", "5", None),
        # The Banker's 0.95:1 is exact on multiples of 20, and rounded on the other stakes taken.
        ("lightning", WHOLE_UNITS, "banker", "5", "20"),
        ("peek", {}, "player", "0.05", None),
        ("peek", {}, "banker", "0.05", "0.20"),
    ],
)
def test_a_bet_with_a_fee_states_the_stakes_it_takes_and_rounds_no_stake_it_refuses(
    table, overrides, bet, taken, step
):
    """A stake whose fee is not whole is refused, never rounded: the sheet says
    which stakes are taken, and says a win is rounded only where a stake
    between the exact ones is taken."""
    rules = resolve_rules(table, overrides)
    sheet = rules_sheet(rules, dealing=rules.dealing, peek=PEEK if TABLES[table].peek else None)
    lines = _bet_lines(sheet, BetType(bet))
    assert lines[LineCode.STAKES_TAKEN] == {"step": taken, "rate": "20%"}
    assert lines.get(LineCode.STAKE_STEP, {}).get("step") == step
