"""The Banker's third-card chart, as the rule texts print it: a row per
Banker two-card total (0-7), a column per point value of the Player's third
card (0-9), and a column for a Player who stood, each cell draw or stand.

Every cell is asked of the tableau the rounds are dealt by
(:func:`.rulebook.tableau.banker_draws`), never typed.

>>> row = CHART[3]
>>> row.banker_total, row.player_stood, row.player_drew[8], row.player_drew[9]
(3, True, False, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rulebook.tableau import banker_draws, is_natural, player_draws

#: The point values of the Player's third card: the chart's columns.
THIRD_CARDS = tuple(range(10))
#: The two-card totals that are not naturals: the chart's rows.
TOTALS = tuple(total for total in range(10) if not is_natural(total))


@dataclass(frozen=True, slots=True)
class ChartRow:
    """The Banker's action on one two-card total: when the Player stood, and
    for each point value of the Player's third card (True: draws)."""

    banker_total: int
    player_stood: bool
    player_drew: tuple[bool, ...]


def banker_chart() -> tuple[ChartRow, ...]:
    """The chart, one row per Banker total, from the tableau."""
    return tuple(
        ChartRow(
            total,
            banker_draws(total, None)[0],
            tuple(banker_draws(total, third)[0] for third in THIRD_CARDS),
        )
        for total in TOTALS
    )


#: Made once, at import: the tableau never changes.
CHART = banker_chart()


def player_totals(*, draws: bool) -> tuple[int, ...]:
    """The Player's two-card totals (not naturals) on which it draws, or stands."""
    return tuple(total for total in TOTALS if player_draws(total)[0] is draws)


def runs(values: tuple[int, ...]) -> str:
    """Values as runs of consecutive ones, as a rule text writes them.

    >>> runs((0, 1, 2, 3, 4, 5, 6, 7, 9)), runs((7,)), runs(())
    ('0-7, 9', '7', '')
    """
    found: list[list[int]] = []
    for value in sorted(values):
        if found and value == found[-1][-1] + 1:
            found[-1].append(value)
        else:
            found.append([value])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in found)
