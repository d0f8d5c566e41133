"""Settling bet slips on a finished round, exactly, in ``Decimal``.

Per bet: ``result`` (win, lose, push); ``win``, the profit (0 unless it
won); ``commission``, what the house kept of the gross win; ``returned``,
what goes back to the player (stake + win, the stake on a push, 0 on a loss).
Per slip: ``staked``, ``returned`` and ``net = returned - staked``.

A winning banker bet of 25.00 at 5% commission:

>>> from service.baccarat.rulebook.cards import parse_card
>>> from service.baccarat.rulebook.coup import deal
>>> coup = deal([parse_card(c) for c in ["9S", "KH", "2D", "7C", "5H"]])
>>> bet = settle_bet(Bet(type=BetType.BANKER, amount=Decimal("25.00")), coup, Rules())
>>> bet.win, bet.commission, bet.returned
(Decimal('23.75'), Decimal('1.25'), Decimal('48.75'))
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from ..bets.money import ZERO, decimal_places, difference, format_amount, rounder
from ..bets.paytable import PayLine, Result
from ..bets.types import Bet, BetType
from ..rulebook.coup import Coup
from ..rulebook.errors import N_, BetError, Problem, ProblemCode
from .rules import Rules


@dataclass(frozen=True, slots=True)
class Terms:
    """What a stake gets on a round: each amount with exactly the minor
    unit's digits. Every bet of one type and stake on a round gets the same."""

    amount: Decimal
    result: Result
    win: Decimal
    commission: Decimal
    returned: Decimal
    #: The line of the bet's pay table that settled it (:data:`.bets.paytable.NO_LINE` for a loss).
    line: PayLine


@dataclass(frozen=True, slots=True)
class SettledBet:
    """A bet and the terms its stake got."""

    bet: Bet
    terms: Terms

    @property
    def amount(self) -> Decimal:
        """The stake, with the minor unit's digits."""
        return self.terms.amount

    @property
    def result(self) -> Result:
        return self.terms.result

    @property
    def win(self) -> Decimal:
        return self.terms.win

    @property
    def commission(self) -> Decimal:
        return self.terms.commission

    @property
    def returned(self) -> Decimal:
        return self.terms.returned


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledSlip:
    bets: tuple[SettledBet, ...]
    staked: Decimal
    returned: Decimal
    id: str | None = None

    @property
    def net(self) -> Decimal:
        return difference(self.returned, self.staked)


def _bet_problem(bet: Bet, rules: Rules) -> Problem | None:
    """What is wrong with one bet on its own, located within the bet."""
    limits = rules.limits.get(bet.type)
    unit = rules.minor_unit
    if limits is None:
        return Problem.of(("type",), ProblemCode.BET_NOT_OFFERED, type=bet.type, offered=rules.bet_types)
    if decimal_places(bet.amount) > unit:
        return Problem.of(("amount",), ProblemCode.AMOUNT_TOO_MANY_DECIMALS, amount=bet.amount, places=unit)
    if bet.amount < limits.min:
        minimum = format_amount(limits.min, unit)
        return Problem.of(
            ("amount",), ProblemCode.AMOUNT_UNDER_MINIMUM, amount=bet.amount, minimum=minimum, type=bet.type
        )
    return None


def slip_problems(bets: Sequence[Bet], rules: Rules) -> list[Problem]:
    """Every reason the slip cannot be settled under ``rules``, located at
    the offending bet: a bet the table does not offer, more decimals than the
    minor unit, a bet under the minimum, or a bet type whose total on the
    slip is over the maximum (each bet of that type is named)."""
    return SlipCheck(rules).problems(bets)


class SlipCheck:
    """Checks the slips of one request against one set of rules.

    Its slips repeat the same few stakes, so what is wrong with each (bet
    type, stake) on its own is worked out once per check. The stake is keyed
    as written: ``0.5`` and ``0.50`` are told apart by the minor unit and by
    the messages.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._own_problems: dict[tuple[BetType, str], Problem | None] = {}

    def problems(self, bets: Sequence[Bet]) -> list[Problem]:
        """:func:`slip_problems` of ``bets``."""
        rules, own_problems = self.rules, self._own_problems
        problems: list[Problem] = []
        totals: defaultdict[BetType, Decimal] = defaultdict(Decimal)
        for index, bet in enumerate(bets):
            key = (bet.type, str(bet.amount))
            if key not in own_problems:
                own_problems[key] = _bet_problem(bet, rules)
            problem = own_problems[key]
            if problem is not None:
                problems.append(problem.within("bets", index))
                if problem.path == ("type",):
                    continue
            totals[bet.type] += bet.amount
        unit = rules.minor_unit
        for bet_type, staked in totals.items():
            maximum = rules.limits[bet_type].max
            if staked > maximum:
                over = {
                    "type": bet_type,
                    "total": format_amount(staked, unit),
                    "maximum": format_amount(maximum, unit),
                }
                problems.extend(
                    Problem(("bets", index, "amount"), ProblemCode.SLIP_OVER_MAXIMUM, over)
                    for index, bet in enumerate(bets)
                    if bet.type is bet_type
                )
        if problems:
            problems.sort(key=lambda problem: problem.path)
        return problems


class Settler:
    """Settles bets on one round under one set of rules.

    The slips of a round repeat the same few bet types and stakes, so a
    settler works out each bet type's payout, and the terms of each (bet
    type, stake), once, and keeps them for as long as it lives: one round.
    """

    def __init__(self, coup: Coup, rules: Rules) -> None:
        self.coup, self.rules = coup, rules
        self._round = rounder(rules.minor_unit, rules.payout_rounding)
        self.zero = self._round(ZERO)
        self._lines: dict[BetType, PayLine] = {}
        # Equal stakes (``25`` and ``25.00``) share their terms: they settle
        # alike, as a stake is rounded to the minor unit before anything else.
        self._terms: dict[tuple[BetType, Decimal], Terms] = {}

    def _line(self, bet_type: BetType) -> PayLine:
        line = self._lines.get(bet_type)
        if line is None:
            line = self._lines[bet_type] = self.rules.chosen[bet_type].line(self.coup)
        return line

    def _work_out(self, bet: Bet) -> Terms:
        """What ``bet`` (already checked) gets on this round, kept for the
        stakes equal to it."""
        line, round_, zero = self._line(bet.type), self._round, self.zero
        pay = line.payout
        stake = round_(bet.amount)  # exact: the slip was checked
        if pay.result is Result.WIN:
            gross = round_(stake * pay.odds)
            win = round_(stake * pay.net)
            terms = Terms(stake, pay.result, win, gross - win, stake + win, line)
        else:
            returned = stake if pay.result is Result.PUSH else zero
            terms = Terms(stake, pay.result, zero, zero, returned, line)
        self._terms[bet.type, bet.amount] = terms
        return terms

    def bet(self, bet: Bet) -> SettledBet:
        """Settle one bet (already checked against the rules). Every amount
        comes out with exactly the minor unit's digits."""
        return SettledBet(bet, self._terms.get((bet.type, bet.amount)) or self._work_out(bet))

    def slip(self, bets: Sequence[Bet], id: str | None = None) -> SettledSlip:
        """Settle a slip already checked by :func:`slip_problems`."""
        settled = tuple([self.bet(bet) for bet in bets])
        # A plain slip's sums fit Decimal's 28 digits with room to spare (no
        # pay table pays 1,000:1, a stake is below 10**12, a slip holds at most
        # 50 bets: tests/baccarat/tables/test_settlement.py holds the bound), so
        # the builtin sum is exact here; a table's totals use :func:`.money.total`.
        staked = sum([s.terms.amount for s in settled], self.zero)
        returned = sum([s.terms.returned for s in settled], self.zero)
        return SettledSlip(bets=settled, staked=staked, returned=returned, id=id)


def settle_bet(bet: Bet, coup: Coup, rules: Rules) -> SettledBet:
    """Settle one bet (already checked against the rules)."""
    return Settler(coup, rules).bet(bet)


def settle_slip(bets: Sequence[Bet], coup: Coup, rules: Rules, *, id: str | None = None) -> SettledSlip:
    """Check and settle one slip; :class:`BetError` names each offending bet."""
    problems = slip_problems(bets, rules)
    if problems:
        raise BetError(N_("Some bets cannot be accepted at this table"), problems)
    return Settler(coup, rules).slip(bets, id)


def settle_slips(
    slips: Sequence[tuple[str | None, Sequence[Bet]]], coup: Coup, rules: Rules
) -> list[SettledSlip]:
    """Settle many slips; refuse them all, naming every offending bet of
    every slip, if any one cannot be settled."""
    check = SlipCheck(rules)
    problems = [
        problem.within("slips", index)
        for index, (_, bets) in enumerate(slips)
        for problem in check.problems(bets)
    ]
    if problems:
        raise BetError(N_("Some bets cannot be accepted at this table"), problems)
    settler = Settler(coup, rules)
    return [settler.slip(bets, slip_id) for slip_id, bets in slips]
