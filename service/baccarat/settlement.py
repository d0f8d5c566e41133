"""Settling bet slips on a finished round, exactly, in ``Decimal``.

Per bet: ``result`` (win, lose, push); ``win``, the profit (0 unless it
won); ``commission``, what the house kept of the gross win; ``returned``,
what goes back to the player (stake + win, the stake on a push, 0 on a loss).
Per slip: ``staked``, ``returned`` and ``net = returned - staked``.

A winning banker bet of 25.00 at 5% commission:

>>> from service.baccarat.cards import parse_card
>>> from service.baccarat.coup import deal
>>> coup = deal([parse_card(c) for c in ["9S", "KH", "2D", "7C", "5H"]])
>>> bet = settle_bet(Bet(type=BetType.BANKER, amount=Decimal("25.00")), coup, Rules())
>>> bet.win, bet.commission, bet.returned
(Decimal('23.75'), Decimal('1.25'), Decimal('48.75'))
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from .coup import Coup
from .errors import BetError, Problem
from .frozen import slot_setters
from .money import ZERO, Rounding, decimal_places, format_amount, rounder
from .payouts import Payout, Result, payout
from .tables import BetType, Rules


@dataclass(frozen=True, slots=True, kw_only=True)
class Bet:
    type: BetType
    amount: Decimal
    id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledBet:
    bet: Bet
    amount: Decimal
    result: Result
    win: Decimal
    commission: Decimal
    returned: Decimal


@dataclass(frozen=True, slots=True, kw_only=True)
class SettledSlip:
    bets: tuple[SettledBet, ...]
    staked: Decimal
    returned: Decimal
    id: str | None = None

    @property
    def net(self) -> Decimal:
        return self.returned - self.staked


def _bet_problem(bet: Bet, rules: Rules) -> Problem | None:
    """What is wrong with one bet on its own, located within the bet."""
    limits = rules.limits.get(bet.type)
    unit = rules.minor_unit
    if limits is None:
        offered = ", ".join(rules.bet_types)
        return Problem(("type",), f"this table does not offer '{bet.type}' bets (it offers {offered})")
    if decimal_places(bet.amount) > unit:
        return Problem(
            ("amount",), f"{bet.amount} has more than {unit} decimal places; amounts are never rounded"
        )
    if bet.amount < limits.min:
        return Problem(
            ("amount",),
            f"{bet.amount} is under the table minimum of {format_amount(limits.min, unit)} "
            f"for {bet.type} bets",
        )
    return None


def slip_problems(bets: Sequence[Bet], rules: Rules) -> list[Problem]:
    """Every reason the slip cannot be settled under ``rules``, located at
    the offending bet: a bet the table does not offer, more decimals than the
    minor unit, a bet under the minimum, or a bet type whose total on the
    slip is over the maximum (each bet of that type is named).

    The verdict on each (bet type, stake) is remembered per table
    (:class:`_Table`): the slips of a table repeat the same few stakes."""
    table = _table(rules)
    if table.accepts(bets):  # most slips: nothing to report
        return []
    problems: list[Problem] = []
    unit = rules.minor_unit
    totals: defaultdict[BetType, Decimal] = defaultdict(Decimal)
    for index, bet in enumerate(bets):
        problem = table.verdict(bet)[0]
        if problem is not None:
            problems.append(problem.within("bets", index))
            if problem.path == ("type",):
                continue
        totals[bet.type] += bet.amount
    for bet_type, total in totals.items():
        maximum = rules.limits[bet_type].max
        if total > maximum:
            problems.extend(
                Problem(
                    ("bets", index, "amount"),
                    f"{bet_type} bets on this slip total {format_amount(total, unit)}, over the "
                    f"table maximum of {format_amount(maximum, unit)}",
                )
                for index, bet in enumerate(bets)
                if bet.type is bet_type
            )
    if problems:
        problems.sort(key=lambda problem: problem.path)
    return problems


#: What one stake gets on one payout: stake, result, win, commission and
#: returned, each with exactly the minor unit's digits.
Terms = tuple[Decimal, Result, Decimal, Decimal, Decimal]


@functools.lru_cache(maxsize=4096)
def _terms(pay: Payout, amount: Decimal, minor_unit: int, rounding: Rounding) -> Terms:
    """The terms of a stake of ``amount`` (already checked) on ``pay``.

    Tables repeat the same few stakes and rounds end in few payouts, so this
    is remembered across rounds. Equal amounts (``25`` and ``25.00``) share
    an entry: they settle alike, as the stake is rounded to the minor unit
    before anything else."""
    round_ = rounder(minor_unit, rounding)
    stake = round_(amount)  # exact: the slip was checked
    zero = round_(ZERO)
    if pay.result is Result.WIN:
        gross = round_(stake * pay.odds)
        win = round_(stake * (pay.odds * (1 - pay.commission)))
        return stake, pay.result, win, gross - win, stake + win
    returned = stake if pay.result is Result.PUSH else zero
    return stake, pay.result, zero, zero, returned


#: What a pay table may read of a round (:class:`~.paytable.PayLine`): each
#: hand's total, card count, pair and perfect pair. The outcome, naturals and
#: cards used follow from these.
CoupFacts = tuple[int, int, int, int, bool, bool, bool, bool]


def _coup_facts(coup: Coup) -> CoupFacts:
    player, banker = coup.player, coup.banker
    return (
        player.total,
        banker.total,
        len(player.cards),
        len(banker.cards),
        player.pair,
        banker.pair,
        player.perfect_pair,
        banker.perfect_pair,
    )


#: A bet's own problem, and whether a slip may hold it as its only bet of its type.
Verdict = tuple[Problem | None, bool]
#: Entries a table's memos keep before they are emptied: a table sees few
#: stakes and few kinds of round, but amounts come from requests.
_MEMO_SIZE = 4096
#: Rules a :class:`_Table` is kept for: the presets, and a few overridden ones.
_TABLES_KEPT = 64


class _Table:
    """What settling under one :class:`Rules` remembers across rounds.

    A slip's verdict is most often "accepted", and each bet's terms depend
    only on its type, its stake and the few facts of the round a pay table
    reads (:data:`CoupFacts`), which rounds repeat: both are worked out once
    per table and looked up afterwards. Rules never change once made, so
    what is remembered stays true. Threads may share a table: entries are
    only added or dropped, and one dropped is only worked out again.
    """

    __slots__ = ("_terms", "_verdicts", "rules", "zero")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.zero = rounder(rules.minor_unit, rules.payout_rounding)(ZERO)
        self._verdicts: dict[tuple[BetType, str], Verdict] = {}
        self._terms: dict[CoupFacts, dict[tuple[BetType, Decimal], Terms]] = {}

    def verdict(self, bet: Bet) -> Verdict:
        """The bet's own problem, if any, and whether a slip may hold it as
        its only bet of its type. The stake is keyed as written: ``0.5`` and
        ``0.50`` are told apart by the minor unit and by the messages."""
        key = (bet.type, str(bet.amount))
        found = self._verdicts.get(key)
        if found is None:
            rules = self.rules
            problem = _bet_problem(bet, rules)
            alone = problem is None and not ZERO + bet.amount > rules.limits[bet.type].max
            if len(self._verdicts) >= _MEMO_SIZE:
                self._verdicts.clear()
            found = self._verdicts[key] = (problem, alone)
        return found

    def accepts(self, bets: Sequence[Bet]) -> bool:
        """:func:`slip_problems` would find nothing: each bet may be the only
        one of its type, and is. (Other slips are checked in full.)"""
        types = set()
        for bet in bets:
            if not self.verdict(bet)[1] or bet.type in types:
                return False
            types.add(bet.type)
        return True

    def terms_on(self, coup: Coup) -> dict[tuple[BetType, Decimal], Terms]:
        """The terms each (bet type, stake) gets on ``coup``, as far as known."""
        facts = _coup_facts(coup)
        found = self._terms.get(facts)
        if found is None or len(found) >= _MEMO_SIZE:
            found = self._terms[facts] = {}
        return found


_TABLES: dict[int, _Table] = {}


def _table(rules: Rules) -> _Table:
    """The :class:`_Table` of ``rules``, found by identity (rules are not
    hashable); each holds its rules, so the id cannot be reused under it."""
    table = _TABLES.get(id(rules))
    if table is None or table.rules is not rules:
        if len(_TABLES) >= _TABLES_KEPT:
            _TABLES.clear()
        table = _TABLES[id(rules)] = _Table(rules)
    return table


_new = object.__new__
_SET_TYPE, _SET_STAKE, _SET_BET_ID = slot_setters(Bet, "type", "amount", "id")
_SET_BET, _SET_AMOUNT, _SET_RESULT, _SET_WIN, _SET_COMMISSION, _SET_BET_RETURNED = slot_setters(
    SettledBet, "bet", "amount", "result", "win", "commission", "returned"
)
_SET_BETS, _SET_STAKED, _SET_SLIP_RETURNED, _SET_ID = slot_setters(
    SettledSlip, "bets", "staked", "returned", "id"
)


def make_bet(type: BetType, amount: Decimal, id: str | None = None) -> Bet:
    """``Bet(type=type, amount=amount, id=id)``, built through its slots'
    setters (:mod:`.frozen`): a request's slips can hold thousands of bets."""
    bet = _new(Bet)
    _SET_TYPE(bet, type)
    _SET_STAKE(bet, amount)
    _SET_BET_ID(bet, id)
    return bet


class Settler:
    """Settles bets on one round under one set of rules.

    What a stake of a bet type gets is remembered per table and per kind of
    round (:class:`_Table`), so a table of ten thousand slips costs little
    more than building its answers. Settled bets and slips are built with
    their slots' setters (:mod:`.frozen`): their frozen ``__init__`` costs
    more than the rest of settling.
    """

    def __init__(self, coup: Coup, rules: Rules) -> None:
        self.coup, self.rules = coup, rules
        table = _table(rules)
        self.zero = table.zero
        self._terms = table.terms_on(coup)

    def _compute_terms(self, bet: Bet) -> Terms:
        """What ``bet`` gets on this round, worked out (and remembered)."""
        rules = self.rules
        terms = self._terms[bet.type, bet.amount] = _terms(
            payout(bet.type, self.coup, rules), bet.amount, rules.minor_unit, rules.payout_rounding
        )
        return terms

    def bet(self, bet: Bet) -> SettledBet:
        """Settle one bet (already checked against the rules). Every amount
        comes out with exactly the minor unit's digits."""
        terms = self._terms.get((bet.type, bet.amount)) or self._compute_terms(bet)
        settled = _new(SettledBet)
        _SET_BET(settled, bet)
        _SET_AMOUNT(settled, terms[0])
        _SET_RESULT(settled, terms[1])
        _SET_WIN(settled, terms[2])
        _SET_COMMISSION(settled, terms[3])
        _SET_BET_RETURNED(settled, terms[4])
        return settled

    def slip(self, bets: Sequence[Bet], id: str | None = None) -> SettledSlip:
        """Settle a slip already checked by :func:`slip_problems`."""
        settled = tuple([self.bet(bet) for bet in bets])
        slip = _new(SettledSlip)
        _SET_BETS(slip, settled)
        _SET_STAKED(slip, sum([s.amount for s in settled], self.zero))
        _SET_SLIP_RETURNED(slip, sum([s.returned for s in settled], self.zero))
        _SET_ID(slip, id)
        return slip


def settle_bet(bet: Bet, coup: Coup, rules: Rules) -> SettledBet:
    """Settle one bet (already checked against the rules)."""
    return Settler(coup, rules).bet(bet)


def settle_slip(bets: Sequence[Bet], coup: Coup, rules: Rules, *, id: str | None = None) -> SettledSlip:
    """Check and settle one slip; :class:`BetError` names each offending bet."""
    problems = slip_problems(bets, rules)
    if problems:
        raise BetError("Some bets cannot be accepted at this table", problems)
    return Settler(coup, rules).slip(bets, id)


def settle_slips(
    slips: Sequence[tuple[str | None, Sequence[Bet]]], coup: Coup, rules: Rules
) -> list[SettledSlip]:
    """Settle many slips; refuse them all, naming every offending bet of
    every slip, if any one cannot be settled."""
    problems = [
        problem.within("slips", index)
        for index, (_, bets) in enumerate(slips)
        for problem in slip_problems(bets, rules)
    ]
    if problems:
        raise BetError("Some bets cannot be accepted at this table", problems)
    settler = Settler(coup, rules)
    return [settler.slip(bets, slip_id) for slip_id, bets in slips]
