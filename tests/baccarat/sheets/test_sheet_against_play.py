"""The sheet against play, as a property: for every preset and for operator
tables Hypothesis makes (decks, limits, minor units 0 and 2, tie pays,
payout rounding, dealing, cut card, multiplier rules, peek), each statement
of the sheet is read by its code and checked against what the engine's
settlement, peek round and shoe do at that table: a multiplier table's pay
lines as its rule settles them (nothing lit, and every counted card lit by
the most the table's shoe can light: the richest round an exhaustive search
finds, dealt), and each fee, the multiplier rule's and the peek's,
as a round charges it at the bet's minimum and maximum.

The checks are keyed by the statement's code (``CHECKS``): a sheet that
states something no check reads fails, so a new statement joins the
property by a check of its own, never silently."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.baccarat.bets.money import format_amount, to_minor_unit
from service.baccarat.bets.paytable import Result
from service.baccarat.bets.types import Bet, BetType
from service.baccarat.counting.round_counts import structure
from service.baccarat.multipliers.cards import MultiplierCards, studio_multiplier_cards
from service.baccarat.multipliers.settlement import (
    MultipliedBet,
    settle_multiplier_slip,
    settling_line,
    slip_faults,
)
from service.baccarat.odds.exact import priced_by, shoe_odds
from service.baccarat.peek.round import PEEK, Choice, PeekRound, _open_choices, peek
from service.baccarat.rulebook.cards import check_composition
from service.baccarat.rulebook.coup import Coup, deal
from service.baccarat.rulebook.errors import BaccaratError
from service.baccarat.sheets.returns import percent
from service.baccarat.sheets.sheet import RulesSheet, fee_rate, fee_step, rules_sheet, stake_step
from service.baccarat.sheets.words import Line, LineCode, SectionCode
from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.shoes.shuffle import SeedInputs, seeded_shoe
from service.baccarat.tables.rules import TABLES, BetLimits, Dealing, Rules, check_whole_shoe, resolve_rules
from service.baccarat.tables.settlement import settle_bet, slip_problems
from tests import strategies
from tests.multiplier_rounds import most_lit

Check = Callable[[RulesSheet, Line, dict[str, Any]], None]


def _unit(rules: Rules) -> Decimal:
    return Decimal(1).scaleb(-rules.minor_unit)


def _bet(line: Line, section: dict[str, Any]) -> BetType:
    term = line.values.get("bet")
    return BetType(getattr(term, "code", None) or section["bet"])


def check_limits(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """ "From min to max": the minimum and the maximum are taken, one minor unit
    under the minimum and over the maximum refused."""
    rules, bet = sheet.rules, _bet(line, section)
    low, high = Decimal(str(line.values["min"])), Decimal(str(line.values["max"]))
    assert (low, high) == (rules.limits[bet].min, rules.limits[bet].max)
    unit = _unit(rules)
    if rules.multipliers is not None and bet in rules.multipliers.pays:
        return  # a multiplier table's slips are checked by the rule (fees): tests/baccarat/multipliers
    assert not slip_problems([Bet(type=bet, amount=low)], rules)
    assert not slip_problems([Bet(type=bet, amount=high)], rules)
    assert slip_problems([Bet(type=bet, amount=high + unit)], rules)
    if low - unit > 0:
        assert slip_problems([Bet(type=bet, amount=low - unit)], rules)


def _rounds_of(rules: Rules, bet: BetType) -> dict[int, Any]:
    """A round on which each line of the bet's pay table decides, by line."""
    table = priced_by(bet, rules)
    found: dict[int, Any] = {}
    for coup in structure().examples.values():
        line = table.line(coup)
        if line in table.lines:
            found.setdefault(table.lines.index(line), coup)
    return found


def _stated_net(text: Any) -> Decimal:
    """What a unit staked nets by odds written ``a:b`` (``0.95:1``, ``1:2``)."""
    paid, per = str(text).split(":")
    return Decimal(paid) / Decimal(per)


def _multiplied(
    rules: Rules, bet: BetType, stake: Decimal, coup: Coup, lit: MultiplierCards
) -> MultipliedBet:
    """One bet settled by the table's multiplier rule, as a round at the table settles it."""
    assert rules.multipliers is not None
    slip = settle_multiplier_slip(
        [Bet(type=bet, amount=stake)],
        coup,
        lit,
        rules.multipliers,
        minor_unit=rules.minor_unit,
        rounding=rules.payout_rounding,
    )
    return slip.bets[0]


NONE_LIT = MultiplierCards(())


def _richest(rules: Rules, bet: BetType) -> tuple[Coup, MultiplierCards, int]:
    """The round of the table's shoe on which the bet wins with the most
    counted cards lit (found by exhaustive search: :mod:`tests.multiplier_rounds`),
    checked as a round at the table deals it (no card more often than its
    decks hold), with its multiplier cards (as many as the rule draws, each
    at the rule's largest multiplier) and how many counted cards they light.
    At one deck a six-card tie holds six different cards: Lightning, which
    draws at most five multiplier cards, lights five of them."""
    rule = rules.multipliers
    assert rule is not None
    richest = most_lit(rule, bet, rules.decks)
    check_composition(richest.cards, rules.decks)
    return deal(richest.cards), studio_multiplier_cards(rule, richest.multiplier_cards), richest.lit


def check_pays(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """A pay line: at the bet's maximum, a round it decides pays what it states
    (its odds less the commission, rounded as the sheet says); at a
    multiplier table, settled by the rule with no card lit."""
    rules, bet = sheet.rules, BetType(section["bet"])
    table = priced_by(bet, rules)
    index = next(i for i, paid in enumerate(table.lines) if paid.code == line.values["when"].code)
    coup = _rounds_of(rules, bet).get(index)
    if coup is None:
        return  # no round of any shoe has this signature's line first (another line decides it)
    stake = rules.limits[bet].max
    multiplied = rules.multipliers is not None and bet in rules.multipliers.pays
    settled = (
        _multiplied(rules, bet, stake, coup, NONE_LIT)
        if multiplied
        else settle_bet(Bet(type=bet, amount=stake), coup, rules)
    )
    if line.code is LineCode.PUSHES:
        assert settled.result is Result.PUSH
        assert settled.returned - stake in (0, getattr(settled, "fee", 0))
        return
    stated = _stated_net(line.values.get("net", line.values["odds"]))
    assert stated == table.lines[index].payout.net
    assert settled.result is Result.WIN
    assert settled.win == to_minor_unit(stake * stated, rules.minor_unit, rules.payout_rounding)


def check_multiplied(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """ "Multiplied, low-high:1": a win with no card lit nets the low pay, and
    the richest round the table's shoe deals, its counted cards lit as the
    rule lights them at most, the high one (before the cap, which takes what
    is over it: ``capped``); the high pay is the rule's largest multiplier
    to the power of the counted cards that round lights, which no round of
    the shoe exceeds."""
    rules, bet = sheet.rules, BetType(section["bet"])
    rule = rules.multipliers
    assert rule is not None
    low, high = (_stated_net(f"{end}:1") for end in str(line.values["pays"]).removesuffix(":1").split("-"))
    stake = rules.limits[bet].min
    coup, lit, count = _richest(rules, bet)
    plain = _multiplied(rules, bet, stake, coup, NONE_LIT)
    assert plain.win == to_minor_unit(stake * low, rules.minor_unit, rules.payout_rounding)
    most = _multiplied(rules, bet, stake, coup, lit)
    assert most.result is Result.WIN
    assert most.multiplier == max(rule.multipliers) ** count
    assert high == rule.pays[bet].pays * most.multiplier - rule.pays[bet].stake_kept
    assert most.win + most.capped == to_minor_unit(stake * high, rules.minor_unit, rules.payout_rounding)


def _rate(text: Any) -> Decimal:
    return Decimal(str(text).removesuffix("%")) / 100


def _peek_round(rules: Rules, bet: BetType, stake: Decimal) -> PeekRound:
    """A seeded peek round with one bet on ``bet``, kept."""
    done = peek(rules, bets=(Bet(type=bet, amount=stake),), seed=SeedInputs("sheet"), decision={})
    assert isinstance(done, PeekRound)
    return done


def check_fee(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """A fee of rate% (a multiplier rule's, or the peek's): charged on top of
    the stake, exactly, at the bet's minimum and maximum, kept on a loss
    and, unless the rule returns it, on a push."""
    rules, bet = sheet.rules, _bet(line, section)
    rate = _rate(line.values["rate"])
    limits = rules.limits[bet]
    for stake in (limits.min, limits.max):
        if sheet.peek is not None:
            done = _peek_round(rules, bet, stake)
            assert done.fee == stake * rate
            assert done.cost == stake + stake * rate
            continue
        coup, _, _ = _richest(rules, bet)
        settled = _multiplied(rules, bet, stake, coup, NONE_LIT)
        assert settled.fee == stake * rate
        assert settled.cost == stake + stake * rate
    if sheet.peek is None and bet in (BetType.PLAYER, BetType.BANKER):
        push = next(
            c for c in structure().examples.values() if settling_line(bet, c).payout.result is Result.PUSH
        )
        settled = _multiplied(rules, bet, limits.min, push, NONE_LIT)
        back = settled.fee if line.code is LineCode.FEE_RETURNED_ON_PUSH else 0
        assert settled.returned == limits.min + back


def check_no_fee(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """A bet the peek takes no fee on: it costs its stake."""
    rules, bet = sheet.rules, _bet(line, section)
    for stake in (rules.limits[bet].min, rules.limits[bet].max):
        done = _peek_round(rules, bet, stake)
        assert (done.fee, done.cost) == (0, stake)


def check_return(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """The return stated is the exact odds' (1 less the house edge), to two decimals."""
    rules, bet = sheet.rules, BetType(section["bet"])
    odds = shoe_odds(rules)
    if odds.multipliers is not None and bet in odds.multipliers.bets:
        expected = odds.multipliers.bets[bet].rtp
    else:
        expected = 1 - odds.bets[bet].house_edge
    assert str(line.values["rtp"]) == f"{percent(expected)}%"


def check_largest_win(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """No round pays a bet at its maximum more than the largest win stated,
    and some round the table's shoe deals pays exactly that."""
    rules, bet = sheet.rules, BetType(section["bet"])
    stake = rules.limits[bet].max
    if rules.multipliers is not None and bet in rules.multipliers.pays:
        # The richest round the table's shoe deals, less the cap.
        coup, lit, _ = _richest(rules, bet)
        most = _multiplied(rules, bet, stake, coup, lit)
        assert format_amount(most.win, rules.minor_unit) == line.values["amount"]
        return
    wins = [
        settle_bet(Bet(type=bet, amount=stake), coup, rules).win for coup in _rounds_of(rules, bet).values()
    ]
    assert format_amount(max(wins), rules.minor_unit) == line.values["amount"]


def check_stake_step(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """On a multiple of the step, every winning line pays its stated odds
    exactly; "on another stake a win is rounded": another stake is taken
    (a bet with a fee takes only multiples of the fee's step)."""
    rules, bet = sheet.rules, BetType(section["bet"])
    step = Decimal(str(line.values["step"]))
    assert step == stake_step(bet, rules, sheet.peek)
    assert fee_step(bet, rules, sheet.peek) < step
    if rules.multipliers is not None and bet in rules.multipliers.pays:
        return
    for paid in priced_by(bet, rules).lines:
        if paid.payout.result is Result.WIN:
            assert step * paid.payout.net == (step * paid.payout.net).quantize(_unit(rules))
    if sheet.peek is None or bet not in sheet.peek.fee_bets:
        # The return stated, worked out on a stake of the step with its wins as settled.
        won = sum(
            (
                line.probability
                * Fraction(
                    to_minor_unit(
                        step * Decimal(line.net.numerator) / line.net.denominator,
                        rules.minor_unit,
                        rules.payout_rounding,
                    )
                )
                for line in shoe_odds(rules).bets[bet].lines
                if line.result is Result.WIN
            ),
            Fraction(0),
        )
        lost = sum(
            (line.probability for line in shoe_odds(rules).bets[bet].lines if line.result is Result.LOSE),
            Fraction(0),
        )
        assert f"{percent(1 + (won / Fraction(step)) - lost)}" == section["rtp"]


def _taken(sheet: RulesSheet, bet: BetType, stake: Decimal) -> bool:
    """Whether a round at the table takes ``stake`` on ``bet`` (a peek round
    at the peek table, else the multiplier rule's check of a slip)."""
    rules = sheet.rules
    if sheet.peek is not None:
        try:
            _peek_round(rules, bet, stake)
        except BaccaratError:
            return False
        return True
    assert rules.multipliers is not None
    return not slip_faults([Bet(type=bet, amount=stake)], rules.multipliers, minor_unit=rules.minor_unit)


def check_stakes_taken(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """ "Stakes are taken in multiples of step": the minimum, the maximum and
    the minimum plus a step are taken, the minimum plus a minor unit refused."""
    rules, bet = sheet.rules, _bet(line, section)
    step = Decimal(str(line.values["step"]))
    assert step == fee_step(bet, rules, sheet.peek) > _unit(rules)
    assert _rate(line.values["rate"]) == fee_rate(bet, rules, sheet.peek)
    low, high = rules.limits[bet].min, rules.limits[bet].max
    for stake in (low, high, low + step):
        assert stake > high or _taken(sheet, bet, stake), stake
    assert low + _unit(rules) > high or not _taken(sheet, bet, low + _unit(rules))


def check_decks(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    decks = 1 if line.code is LineCode.ONE_DECK else int(str(line.values["decks"]))
    assert decks == sheet.rules.decks
    assert len(seeded_shoe(decks, "s")[0]) == decks * 52


def check_cut_card(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """The shoe is dealt with the cut card where the sheet puts it."""
    rules = sheet.rules
    check_whole_shoe(rules, ("table",))
    shoe, _ = seeded_shoe(rules.decks, "s")
    dealt = deal_shoe(shoe, cut_card=rules.cut_card)
    assert len(shoe) - (dealt.cut_card_position or 0) == int(str(line.values["cut_card"]))


def check_reshuffled(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """No whole shoe is dealt at a table that says it reshuffles after each hand."""
    assert sheet.rules.dealing is Dealing.RESHUFFLE_EACH_HAND
    with pytest.raises(BaccaratError):
        check_whole_shoe(sheet.rules, ("table",))


def check_chips(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    written = [format_amount(chip, sheet.rules.minor_unit) for chip in sheet.chips]
    assert line.values["chips"] == ", ".join(written)


def check_peek_stakes(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """Each range of stakes is offered exactly the choices its sentence names, at both ends."""
    assert sheet.peek is not None
    bet = _bet(line, section)
    best = {
        LineCode.PEEK_STAKES_TRIPLED: Choice.TRIPLE,
        LineCode.PEEK_STAKES_DOUBLED: Choice.DOUBLE,
        LineCode.PEEK_STAKES_KEPT: Choice.KEEP,
    }[line.code]
    for end in ("low", "high"):
        stake = Decimal(str(line.values[end]))
        assert _taken(sheet, bet, stake), f"a {bet} stake of {stake} is refused"
        choices = _open_choices([Bet(type=bet, amount=stake)], bet, sheet.rules, sheet.peek)
        assert max(choices, key=lambda choice: sheet.peek.multiples[choice]) is best  # type: ignore[union-attr]


def check_rules_id(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    assert line.values["rules_id"] == sheet.rules.id


def stated(sheet: RulesSheet, line: Line, section: dict[str, Any]) -> None:
    """A statement of the game itself (the tableau, the card values, the
    multiplier rule's words), held to play by its own tests
    (tests/baccarat/sheets/test_chart.py, test_sheet.py, test_peek_sheet.py)."""


#: The statements of the game itself, the same at every table (the object,
#: card values, the deal, the tableau and its chart, the peek's procedure,
#: the multiplier rule's words, the return's method, the malfunction clause),
#: each held to play by the tests of its own room.
STATED_BY_OTHER_TESTS = frozenset(
    {
        LineCode.OBJECT,
        LineCode.HANDS_ARE_NAMES,
        LineCode.ACE,
        LineCode.PIPS,
        LineCode.TENS_AND_FACES,
        LineCode.TOTAL,
        LineCode.EXAMPLE,
        LineCode.DEAL_ORDER,
        LineCode.THIRD_CARD,
        LineCode.NATURAL,
        LineCode.PLAYER_DRAWS,
        LineCode.BANKER_PLAYER_STOOD,
        LineCode.BANKER_ALWAYS_DRAWS,
        LineCode.BANKER_DRAWS_ON,
        LineCode.BANKER_ALWAYS_STANDS,
        LineCode.HIGHER_TOTAL_WINS,
        LineCode.TIE_PUSHES,
        LineCode.OTHERWISE_LOSES,
        LineCode.RETURN_OVER_COST,
        LineCode.MULTIPLIER_CARDS,
        LineCode.MULTIPLIER_MATCH,
        LineCode.MULTIPLIER_CARD_CHANCES,
        LineCode.MULTIPLIER_CHANCES,
        LineCode.CAP,
        LineCode.PEEK_SHOWN,
        LineCode.PEEK_SHOWN_COUNT,
        LineCode.PEEK_CHOICE,
        LineCode.PEEK_MAXIMUM,
        LineCode.PEEK_RAISE_NO_FEE,
        LineCode.PEEK_SETTLED,
        LineCode.PEEK_RETURN_BEST,
        LineCode.PEEK_RETURN_KEPT,
        LineCode.EXACT_RETURNS,
        LineCode.EXACT_RETURNS_ONE_DECK,
        LineCode.RETURNS_PER_COST,
        LineCode.PEEK_RETURNS,
        LineCode.ROUNDED,
        LineCode.BURN,
        LineCode.MALFUNCTION,
    }
)
#: Each statement's check, by its code.
CHECKS: dict[LineCode, Check] = {
    LineCode.BET_LIMITS: check_limits,
    LineCode.PAYS: check_pays,
    LineCode.PAYS_LESS_COMMISSION: check_pays,
    LineCode.PAYS_NO_COMMISSION: check_pays,
    LineCode.PUSHES: check_pays,
    LineCode.RETURN: check_return,
    LineCode.LARGEST_WIN: check_largest_win,
    LineCode.STAKE_STEP: check_stake_step,
    LineCode.STAKES_TAKEN: check_stakes_taken,
    LineCode.DECKS: check_decks,
    LineCode.ONE_DECK: check_decks,
    LineCode.CUT_CARD: check_cut_card,
    LineCode.RESHUFFLED: check_reshuffled,
    LineCode.CHIPS: check_chips,
    LineCode.MULTIPLIED: check_multiplied,
    LineCode.FEE: check_fee,
    LineCode.FEE_RETURNED_ON_PUSH: check_fee,
    LineCode.PEEK_FEE: check_fee,
    LineCode.PEEK_NO_FEE: check_no_fee,
    LineCode.PEEK_STAKES_TRIPLED: check_peek_stakes,
    LineCode.PEEK_STAKES_DOUBLED: check_peek_stakes,
    LineCode.PEEK_STAKES_KEPT: check_peek_stakes,
    LineCode.WRITTEN_FOR: check_rules_id,
} | dict.fromkeys(STATED_BY_OTHER_TESTS, stated)


def holds_to_play(sheet: RulesSheet) -> None:
    for section in sheet.sections:
        values = dict(section.values)
        for line in section.lines:
            assert line.code in CHECKS, f"{line.code}: a statement no check reads: give it one in CHECKS"
            CHECKS[line.code](sheet, line, values)
        if section.code is SectionCode.BET and "rtp" in values:
            bet = BetType(values["bet"])
            assert (values["min"], values["max"]) == (
                format_amount(sheet.rules.limits[bet].min, sheet.rules.minor_unit),
                format_amount(sheet.rules.limits[bet].max, sheet.rules.minor_unit),
            )


@pytest.mark.parametrize("name", list(TABLES))
def test_every_preset_s_sheet_holds_to_play(name):
    table = TABLES[name]
    holds_to_play(rules_sheet(table.rules, dealing=table.dealing, peek=PEEK if table.peek else None))


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
@pytest.mark.parametrize(
    "name", [name for name, table in TABLES.items() if table.rules.multipliers is not None]
)
def test_every_multiplier_game_s_sheet_holds_to_play_at_each_deck_count(name, decks):
    # At one deck a round's six cards are six different cards: a game that
    # lights at most five states the top tie five of them pay.
    rules = resolve_rules(name, {"decks": decks})
    holds_to_play(rules_sheet(rules, dealing=rules.dealing))


@st.composite
def operator_tables(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A preset with overrides an operator may send and every operation takes."""
    name = draw(st.sampled_from([name for name in TABLES if name != "peek"] + ["peek"]))
    decks = draw(st.integers(1, 8))
    minor_unit = draw(st.sampled_from([0, 2]))
    unit = Decimal(1).scaleb(-minor_unit)
    overrides: dict[str, Any] = {
        "decks": decks,
        "minor_unit": minor_unit,
        "cut_card": draw(st.integers(14, min(80, decks * 26))),
        "dealing": draw(st.sampled_from(list(Dealing))),
    }
    if TABLES[name].rules.multipliers is not None and draw(st.booleans()):
        overrides["multipliers"] = draw(strategies.multiplier_rule())
    if (
        name != "peek"
        and TABLES[name].rules.multipliers is None
        and TABLES[name].rules.variant.value == "standard"
    ):
        overrides["tie_pays"] = draw(st.sampled_from([8, 9]))
    limits = {}
    rounded = draw(st.booleans())
    offered = (
        overrides["multipliers"].bet_types if "multipliers" in overrides else TABLES[name].rules.bet_types
    )
    for bet in offered:
        if rounded:
            low = draw(st.integers(1, 50)) * unit * (100 if minor_unit == 2 else 1) * 5
            limits[bet] = BetLimits(min=low, max=low * draw(st.integers(1, 40)))
        else:
            # Any whole number of minor units: the money rule refuses some (a win
            # paid nothing, a fee finer than the unit), and the others must hold.
            low = draw(st.integers(1, 5_000)) * unit
            limits[bet] = BetLimits(min=low, max=low + draw(st.integers(0, 20_000)) * unit)
    overrides["limits"] = limits
    return name, overrides


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(operator_tables())
def test_an_operator_table_s_sheet_holds_to_play(table):
    name, overrides = table
    try:
        rules = resolve_rules(name, overrides)
    except BaccaratError:
        return  # rules every operation refuses have no sheet either (test_rules_checked_once.py)
    holds_to_play(rules_sheet(rules, dealing=rules.dealing, peek=PEEK if TABLES[name].peek else None))
