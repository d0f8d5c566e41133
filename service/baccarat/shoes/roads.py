"""The roads: the scoreboards a baccarat table shows, computed from its results.

Every grid is six rows high; column 0 is the leftmost, row 0 the top.

* **Bead Plate**: every result, ties included, filled top to bottom, then left
  to right (result ``i`` is at column ``i // 6``, row ``i % 6``).
* **Big Road**: one column per streak of Banker or Player wins. Ties are not
  cells but a count on the cell before them; ties before the first win are
  counted on the first cell. A streak that reaches row 6, or meets a cell
  already drawn, turns right and runs along its row: the *dragon tail*. Each
  new streak starts at the top of the column right of where the previous
  streak started (or further right, past a tail drawn along row 0).
* **Big Eye Boy, Small Road, Cockroach Pig** (k = 1, 2, 3): one red or blue
  mark per Banker or Player win, computed on the *logical* columns of the Big
  Road (the streak lengths), never on the drawn grid. With ``len(c)`` the
  length of streak ``c`` (0-based) and ``m`` the 1-based place in it:

  - a result that starts streak c: red if len(c-1) == len(c-1-k), else blue;
  - a result at m >= 2 of streak c, with p = len(c-k): red if m <= p, blue if
    m == p + 1, red if m > p + 1;
  - no mark while a column it refers to does not exist. So the first mark is
    at m = 2 of streak k, or, when that streak has one result, at the start of
    streak k + 1 (engines that skip streak k get this wrong).

  The marks are drawn like the Big Road: a streak of one colour runs down.

>>> from service.baccarat.rulebook.coup import Outcome
>>> board = roads(Result(Outcome(name)) for name in ["banker", "banker", "player", "player", "banker"])
>>> [(s.outcome.value, s.length) for s in board.big_road.streaks]
[('banker', 2), ('player', 2), ('banker', 1)]
>>> [mark.value for mark in board.big_eye_boy.marks]  # m=2 of streak 1: 2 <= len(0); then 2 == 2
['red', 'red']
>>> board.small_road.marks, board.ask.player.small_road
((), <Colour.BLUE: 'blue'>)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import groupby

from ..rulebook.coup import Coup, Outcome

ROWS = 6
#: Each derived road and how many columns back it looks (k).
DERIVED_ROADS = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}


class Colour(StrEnum):
    """The two marks of the derived roads."""

    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Result:
    """One round as the roads see it: who won, and the markers drawn on its cell."""

    outcome: Outcome
    player_pair: bool = False
    banker_pair: bool = False
    natural: bool = False

    @classmethod
    def of(cls, coup: Coup) -> Result:
        """The result of a dealt round (pairs on the first two cards; a natural in either hand)."""
        return cls(coup.outcome, coup.player.pair, coup.banker.pair, coup.natural)


@dataclass(frozen=True, slots=True)
class BeadCell:
    """A Bead Plate cell: result ``index`` of the sequence, ties included."""

    column: int
    row: int
    index: int
    outcome: Outcome
    player_pair: bool
    banker_pair: bool
    natural: bool


@dataclass(frozen=True, slots=True)
class BigRoadCell:
    """A Big Road cell: a Banker or Player win, with the ties that followed it."""

    column: int
    row: int
    index: int
    outcome: Outcome
    ties: int
    player_pair: bool
    banker_pair: bool
    natural: bool


@dataclass(frozen=True, slots=True)
class Streak:
    """A logical Big Road column: wins in a row by one side, drawn from ``column``."""

    outcome: Outcome
    length: int
    column: int


@dataclass(frozen=True, slots=True)
class MarkCell:
    """A drawn mark of a derived road, made by result ``index`` of the sequence."""

    column: int
    row: int
    index: int
    colour: Colour


@dataclass(frozen=True, slots=True)
class BeadPlate:
    """Every result, ties included, six to a column."""

    cells: tuple[BeadCell, ...]
    columns: int
    rows: int = ROWS


@dataclass(frozen=True, slots=True)
class BigRoad:
    """The wins drawn in streaks, and the streaks themselves (the logical columns)."""

    cells: tuple[BigRoadCell, ...]
    streaks: tuple[Streak, ...]
    columns: int
    rows: int = ROWS


@dataclass(frozen=True, slots=True)
class DerivedRoad:
    """Big Eye Boy, Small Road or Cockroach Pig: the marks in order, and as drawn."""

    marks: tuple[Colour, ...]
    cells: tuple[MarkCell, ...]
    columns: int
    rows: int = ROWS


@dataclass(frozen=True, slots=True)
class AskMarks:
    """The mark each derived road would add after one more result (None: no mark)."""

    big_eye_boy: Colour | None
    small_road: Colour | None
    cockroach_pig: Colour | None


@dataclass(frozen=True, slots=True)
class Ask:
    """The ask road: what the derived roads would show if Banker, or Player, won next."""

    banker: AskMarks
    player: AskMarks


@dataclass(frozen=True, slots=True)
class Roads:
    """The five roads of a sequence of results, and the ask road."""

    bead_plate: BeadPlate
    big_road: BigRoad
    big_eye_boy: DerivedRoad
    small_road: DerivedRoad
    cockroach_pig: DerivedRoad
    ask: Ask


def draw_streaks(lengths: Sequence[int]) -> list[list[tuple[int, int]]]:
    """The (column, row) of each entry of streaks of these lengths, as drawn.

    A streak starts at the top of the column right of the previous streak's
    start (or the first free top cell after it) and runs down; at row 6, or
    above a drawn cell, it turns right and stays on its row (the dragon tail).

    >>> draw_streaks([7, 2])
    [[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5)], [(1, 0), (1, 1)]]
    """
    occupied: set[tuple[int, int]] = set()
    drawn: list[list[tuple[int, int]]] = []
    start = -1
    for length in lengths:
        start += 1
        while (start, 0) in occupied:
            start += 1
        column, row, tail = start, 0, False
        cells = [(column, row)]
        for _ in range(length - 1):
            if not tail and row + 1 < ROWS and (column, row + 1) not in occupied:
                row += 1
            else:
                tail, column = True, column + 1
            cells.append((column, row))
        occupied.update(cells)
        drawn.append(cells)
    return drawn


def _width(cells: Iterable[tuple[int, int]]) -> int:
    return max((column + 1 for column, _ in cells), default=0)


def derived_mark(lengths: Sequence[int], column: int, place: int, k: int) -> Colour | None:
    """The mark of the result at 1-based ``place`` of logical ``column``, for the
    road looking ``k`` columns back; ``lengths`` holds at least the streak
    lengths before ``column``. None while a column it refers to does not exist.

    >>> derived_mark([3, 2], 1, 2, 1), derived_mark([3, 2], 1, 3, 1), derived_mark([3, 2], 1, 4, 1)
    (<Colour.RED: 'red'>, <Colour.RED: 'red'>, <Colour.BLUE: 'blue'>)
    >>> derived_mark([3, 2], 2, 1, 1), derived_mark([3, 2], 2, 1, 2)
    (<Colour.BLUE: 'blue'>, None)
    """
    if place == 1:
        if column - 1 - k < 0:
            return None
        return Colour.RED if lengths[column - 1] == lengths[column - 1 - k] else Colour.BLUE
    if column - k < 0:
        return None
    return Colour.BLUE if place == lengths[column - k] + 1 else Colour.RED


def _derived_road(positions: Sequence[tuple[int, int, int]], lengths: Sequence[int], k: int) -> DerivedRoad:
    made = [
        (index, mark)
        for index, column, place in positions
        if (mark := derived_mark(lengths, column, place, k)) is not None
    ]
    runs = [len(list(run)) for _, run in groupby(mark for _, mark in made)]
    drawn = [cell for streak in draw_streaks(runs) for cell in streak]
    cells = tuple(MarkCell(c, r, index, mark) for (c, r), (index, mark) in zip(drawn, made, strict=True))
    return DerivedRoad(tuple(mark for _, mark in made), cells, _width(drawn))


def _ask(wins: Sequence[Result], lengths: Sequence[int], side: Outcome) -> AskMarks:
    if wins and wins[-1].outcome is side:
        column, place = len(lengths) - 1, lengths[-1] + 1
    else:
        column, place = len(lengths), 1
    marks = {name: derived_mark(lengths, column, place, k) for name, k in DERIVED_ROADS.items()}
    return AskMarks(**marks)


def roads(results: Iterable[Result]) -> Roads:
    """All five roads of a sequence of results, and the ask road.

    A shoe's rounds feed in as ``roads(Result.of(coup) for coup in coups)``.
    """
    results = tuple(results)
    beads = tuple(
        BeadCell(i // ROWS, i % ROWS, i, r.outcome, r.player_pair, r.banker_pair, r.natural)
        for i, r in enumerate(results)
    )
    indices = [i for i, r in enumerate(results) if r.outcome is not Outcome.TIE]
    wins = [results[i] for i in indices]
    ties = [0] * len(wins)
    seen = 0
    for r in results:
        if r.outcome is not Outcome.TIE:
            seen += 1
        elif wins:
            ties[max(seen - 1, 0)] += 1  # leading ties go on the first cell

    lengths: list[int] = []
    sides: list[Outcome] = []
    positions: list[tuple[int, int, int]] = []  # (result index, logical column, 1-based place)
    for n, (index, win) in enumerate(zip(indices, wins, strict=True)):
        if n and win.outcome is wins[n - 1].outcome:
            lengths[-1] += 1
        else:
            lengths.append(1)
            sides.append(win.outcome)
        positions.append((index, len(lengths) - 1, lengths[-1]))

    drawn = draw_streaks(lengths)
    flat = [cell for streak in drawn for cell in streak]
    cells = tuple(
        BigRoadCell(c, r, index, win.outcome, tie_count, win.player_pair, win.banker_pair, win.natural)
        for (c, r), index, win, tie_count in zip(flat, indices, wins, ties, strict=True)
    )
    starts = [streak[0][0] for streak in drawn]
    streaks = tuple(Streak(o, n, c) for o, n, c in zip(sides, lengths, starts, strict=True))
    derived = {name: _derived_road(positions, lengths, k) for name, k in DERIVED_ROADS.items()}
    return Roads(
        bead_plate=BeadPlate(beads, -(-len(results) // ROWS)),
        big_road=BigRoad(cells, streaks, _width(flat)),
        **derived,
        ask=Ask(_ask(wins, lengths, Outcome.BANKER), _ask(wins, lengths, Outcome.PLAYER)),
    )
