"""What each offered bet returns and the most it can win, from the odds the
service computes (:mod:`.odds.exact`, and at a multiplier table
:mod:`.multipliers.odds`), never copied from a source.

The return to player of a plain bet is ``1 - house edge`` for a full shoe of
the table's decks: every ordered sequence of six cards counted, a push
returning the stake. At a multiplier table it is what comes back per unit
paid in, the stake and its fee, each multiplier drawn by its weight
(:attr:`.multipliers.odds.BetReturn.rtp`). At Peek Baccarat's table the
Player and Banker bets' return is per unit paid, the stake as raised and
its fee, each set of cards shown by its weight, with the best choice and
with the bet always kept (:func:`.peek.odds.peek_return`); the bets
without a fee are the plain game's. Written as a percentage to two
decimals, rounded half to even.

>>> from service.baccarat.tables.rules import TABLES
>>> returns = bet_returns(TABLES["standard"].rules)
>>> returns.bets[BetType.BANKER].rtp, returns.bets[BetType.BANKER].largest_win
('98.94', '190.00')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from enum import StrEnum
from fractions import Fraction

from ..bets.money import format_amount, to_minor_unit
from ..bets.paytable import Result
from ..bets.types import BetType
from ..odds.exact import priced_by, shoe_odds
from ..peek.odds import peek_return
from ..peek.round import PeekRule
from ..tables.rules import Rules


class ReturnMethod(StrEnum):
    """How a return was worked out."""

    #: Every ordered six-card sequence of the full shoe counted, per unit staked.
    EXACT_ENUMERATION = "exact_enumeration"
    #: The same count with each multiplier's weight, per unit of stake and fee.
    EXACT_ENUMERATION_PER_COST = "exact_enumeration_per_cost"
    #: The same count for each set of cards shown by its weight, per unit of
    #: stake as raised and fee: Peek Baccarat's Player and Banker bets.
    EXACT_ENUMERATION_PEEK = "exact_enumeration_peek"


@dataclass(frozen=True, slots=True)
class BetFigures:
    """One offered bet's return to player (per cent, two decimals) and the
    most one bet at the table maximum can win."""

    bet: BetType
    rtp: str
    largest_win: str
    #: The most a unit staked wins on a round of the table's shoe, before any
    #: cap (a multiplier rule's top pay: its counted cards lit as a round
    #: dealt from the table's decks can light them).
    largest_pay: Decimal = Decimal(0)
    #: At Peek Baccarat, a bet that pays the fee: its return always kept
    #: (``rtp`` is with the best choice), and how often the best choice triples.
    kept: str | None = None
    tripled: str | None = None
    #: At Peek Baccarat, a fee bet's return where it may be doubled, not tripled.
    doubled: str | None = None
    #: Whether the bet returns more than it costs (``rtp`` over 100%, exactly):
    #: the house loses on it in the long run, and the sheet says so.
    over_cost: bool = False


@dataclass(frozen=True, slots=True)
class Returns:
    """Every offered bet's figures, and how the returns were worked out."""

    method: ReturnMethod
    decks: int
    #: The ordered six-card sequences counted.
    sequences: int
    bets: Mapping[BetType, BetFigures]


def percent(value: Fraction) -> str:
    """``value`` as a percentage to two decimals, half to even.

    >>> percent(Fraction(9894, 10000)), percent(Fraction(1, 3)), percent(Fraction(2))
    ('98.94', '33.33', '200.00')
    """
    with localcontext() as context:
        context.prec = 40
        exact = Decimal(value.numerator * 100) / Decimal(value.denominator)
        return format(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN), "f")


def _largest_win(rules: Rules, bet: BetType, odds: Decimal) -> str:
    stake = rules.limits[bet].max
    won = to_minor_unit(stake * odds, rules.minor_unit, rules.payout_rounding)
    rule = rules.multipliers
    if rule is not None and rule.cap is not None:
        won = min(won, rule.cap)
    return format_amount(won, rules.minor_unit)


def bet_returns(rules: Rules, peek: PeekRule | None = None) -> Returns:
    """The figures of every bet ``rules`` offer, for a full shoe of their
    decks; played as Peek Baccarat by ``peek``'s conditions when given."""
    odds = shoe_odds(rules)
    figures = {}
    rule = rules.multipliers
    multiplied = odds.multipliers
    for bet in rules.bet_types:
        if rule is not None and multiplied is not None and bet in multiplied.bets:
            rtp = multiplied.bets[bet].rtp
            best = multiplied.bets[bet].largest or Decimal(0)
        else:
            rtp = 1 - odds.bets[bet].house_edge
            best = max(
                (line.payout.net for line in priced_by(bet, rules).lines if line.payout.result is Result.WIN),
                default=Decimal(0),
            )
        if peek is not None and bet in peek.fee_bets:
            priced = peek_return(bet, decks=rules.decks, rule=peek)
            figures[bet] = BetFigures(
                bet,
                percent(priced.best),
                _largest_win(rules, bet, best),
                best,
                kept=percent(priced.kept),
                tripled=percent(priced.tripled),
                doubled=percent(priced.doubled),
                over_cost=priced.best > 1,
            )
            continue
        figures[bet] = BetFigures(bet, percent(rtp), _largest_win(rules, bet, best), best, over_cost=rtp > 1)
    method = ReturnMethod.EXACT_ENUMERATION if rule is None else ReturnMethod.EXACT_ENUMERATION_PER_COST
    if peek is not None:
        method = ReturnMethod.EXACT_ENUMERATION_PEEK
    return Returns(method, rules.decks, odds.sequences, figures)
