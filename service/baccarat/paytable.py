"""Pay tables: what a bet gets, written as data.

A pay table is a list of lines. Each line names a condition on the finished
round, in words and as a test, and what the bet gets when it holds: a win
at some odds (profit per unit staked, before any commission) or a push. The
first line that holds decides; when none holds the bet loses. Money is not
touched here: :mod:`.settlement` turns a :class:`Payout` into amounts.

>>> from decimal import Decimal
>>> from service.baccarat.cards import parse_card
>>> from service.baccarat.coup import deal
>>> table = PayTable("small", (PayLine("4 cards are dealt", lambda coup: coup.cards_used == 4,
...                                     Payout(Result.WIN, Decimal("1.5"))),))
>>> table.payout(deal([parse_card(c) for c in ["9S", "KH", "KD", "7C"]]))
Payout(result=<Result.WIN: 'win'>, odds=Decimal('1.5'), commission=Decimal('0'))
>>> table.payout(deal([parse_card(c) for c in ["9S", "KH", "2D", "7C", "5H"]])).result
<Result.LOSE: 'lose'>
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from .coup import Coup
from .money import ZERO


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


@dataclass(frozen=True, slots=True)
class Payout:
    """What a bet gets: ``odds`` is the profit per unit staked, and
    ``commission`` the share of that profit the house keeps."""

    result: Result
    odds: Decimal = ZERO
    commission: Decimal = ZERO


LOSE = Payout(Result.LOSE)
PUSH = Payout(Result.PUSH)


def win(odds: Decimal | int | str, commission: Decimal = ZERO) -> Payout:
    """A win paying ``odds``:1 (less ``commission``)."""
    return Payout(Result.WIN, Decimal(odds), commission)


@dataclass(frozen=True, slots=True)
class PayLine:
    """One line of a pay table: when it applies, and what the bet gets then.

    ``applies`` reads only each hand's total, card count, pair and perfect
    pair, and what follows from them (outcome, naturals, cards used): the
    exact odds count rounds by those facts (:mod:`.round_counts`). The
    engine's own tests are functions made once, at import: the exact odds
    keep, per pay table's tests, which rounds each one covers.
    """

    when: str
    applies: Callable[[Coup], bool]
    payout: Payout


@dataclass(frozen=True, slots=True)
class PayTable:
    """What a bet is on, and its lines; a round no line covers loses the bet."""

    description: str
    lines: tuple[PayLine, ...]

    def payout(self, coup: Coup) -> Payout:
        """The payout of the first line that applies to ``coup``, else a loss."""
        for line in self.lines:
            if line.applies(coup):
                return line.payout
        return LOSE
