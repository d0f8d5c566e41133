"""Pay tables: what a bet gets, written as data.

A pay table is a list of lines. Each line names a condition on the finished
round, in words and as a test, and what the bet gets when it holds: a win
at some odds (profit per unit staked, before any commission) or a push. The
first line that holds decides; when none holds the bet loses. Money is not
touched here: :mod:`.tables.settlement` turns a :class:`Payout` into amounts.

>>> from decimal import Decimal
>>> from service.baccarat.rulebook.cards import parse_card
>>> from service.baccarat.rulebook.coup import deal
>>> table = PayTable("small", (PayLine("4 cards are dealt", lambda coup: coup.cards_used == 4,
...                                     Payout(Result.WIN, Decimal("1.5"))),))
>>> table.payout(deal([parse_card(c) for c in ["9S", "KH", "KD", "7C"]]))
Payout(result=<Result.WIN: 'win'>, odds=Decimal('1.5'), commission=Decimal('0'))
>>> table.payout(deal([parse_card(c) for c in ["9S", "KH", "2D", "7C", "5H"]])).result
<Result.LOSE: 'lose'>
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum

from ..rulebook.coup import Coup
from .money import ZERO
from .types import BetType


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
    #: The profit per unit staked once the commission is taken, worked out
    #: once, when the payout is made: every bet it settles reads it.
    net: Decimal = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "net", self.odds * (1 - self.commission))


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
    exact odds count rounds by those facts (:mod:`.counting.round_counts`). The
    engine's own tests are functions made once, at import: the exact odds
    keep, per pay table's tests, which rounds each one covers.

    ``code`` names the line for a machine (a settled bet carries the code of
    the line that settled it): its sentence, ``when``, in lower case words
    joined by ``_``, so that one sentence has one code everywhere.

    >>> PayLine("Banker wins with a three-card 7", lambda coup: True, PUSH).code
    'banker_wins_with_a_three_card_7'
    """

    when: str
    applies: Callable[[Coup], bool]
    payout: Payout
    code: str = field(init=False)

    def __post_init__(self) -> None:
        words = re.findall(r"[a-z0-9]+", self.when.lower().replace("'", ""))
        object.__setattr__(self, "code", "_".join(words))


def _always(coup: Coup) -> bool:
    return True


#: What settles a bet no line of its pay table covers: it loses.
NO_LINE = PayLine("no line of its pay table holds", _always, LOSE)


@dataclass(frozen=True, slots=True)
class PayTable:
    """What a bet is on, and its lines; a round no line covers loses the bet."""

    description: str
    lines: tuple[PayLine, ...]

    def payout(self, coup: Coup) -> Payout:
        """The payout of the first line that applies to ``coup``, else a loss."""
        return self.line(coup).payout

    def line(self, coup: Coup) -> PayLine:
        """The first line that applies to ``coup``, else :data:`NO_LINE`."""
        for line in self.lines:
            if line.applies(coup):
                return line
        return NO_LINE


@dataclass(frozen=True, slots=True)
class Source:
    """Where a pay table is published, and the house edge printed there."""

    title: str
    url: str
    #: The house edge as the source prints it, for 8 decks (``"10.36%"``), or
    #: None where it prints none. The service shows its own, computed figure
    #: beside it, never this one in its place.
    house_edge: str | None = None
    #: What a reader should know of the source: the deck count it prints
    #: for, or that it prints the bet's odds but not this pay table.
    note: str | None = None


@dataclass(frozen=True, slots=True)
class NamedPayTable(PayTable):
    """A pay table of the catalogue (:mod:`.bets.catalogue`): a bet's pay table
    under a stable ``id``, with where it is published.

    ``setting`` names the rules setting that also chooses it, with its value
    (``("tie_pays", 9)``): the shorthands a table's rules had before pay
    tables could be chosen by name.
    """

    id: str
    bet: BetType
    source: Source
    setting: tuple[str, int | str] | None = None


def pay_text(payout: Payout) -> str:
    """What a payout pays, in the words a pay table is printed in.

    >>> pay_text(win(11)), pay_text(win("0.5")), pay_text(win("0.54")), pay_text(PUSH)
    ('11:1', '1:2', '0.54:1', 'push')
    >>> pay_text(win(1, Decimal("0.05")))
    '0.95:1 (1:1 less 5% commission)'
    """
    if payout.result is Result.PUSH:
        return "push"
    if payout.result is Result.LOSE:
        return "loses"
    odds = payout.net
    if payout.commission:
        rate = format((payout.commission * 100).normalize(), "f")
        return f"{_odds_text(odds)} ({_odds_text(payout.odds)} less {rate}% commission)"
    return _odds_text(odds)


def _odds_text(odds: Decimal) -> str:
    if 0 < odds < 1 and (1 / odds) == (1 / odds).to_integral_value():
        return f"1:{int(1 / odds)}"
    return f"{format(odds.normalize(), 'f')}:1"


def pays_text(table: PayTable) -> str:
    """A pay table's pays in a few words: the pay of a one-line table, else
    each line with its pay.

    >>> pays_text(PayTable("tie", (PayLine("the totals are equal", lambda coup: True, win(8)),)))
    '8:1'
    """
    if len(table.lines) == 1:
        return pay_text(table.lines[0].payout)
    return "; ".join(f"{line.when}: {pay_text(line.payout)}" for line in table.lines)


def at_commission(table: NamedPayTable, commission: Decimal) -> NamedPayTable:
    """``table`` with ``commission`` taken from each win that takes one (the
    standard banker table is written at 5%); the table itself when that is
    its commission already, or when it takes none."""
    lines = tuple(
        replace(line, payout=replace(line.payout, commission=commission)) if line.payout.commission else line
        for line in table.lines
    )
    if lines == table.lines:
        return table
    return replace(table, lines=lines)
