"""The Banker's chart is the tableau's, cell by cell, and the one the rule texts print."""

from __future__ import annotations

import pytest

from service.baccarat.rulebook.tableau import banker_draws
from service.baccarat.sheets.chart import CHART, THIRD_CARDS, TOTALS, player_totals, runs

#: The chart as a rule text prints it (Banker's total, then the Player's
#: third card 0-9: S stands, D draws), top row 7.
PRINTED = """
7 S S S S S S S S S S
6 S S S S S S D D S S
5 S S S S D D D D S S
4 S S D D D D D D S S
3 D D D D D D D D S D
2 D D D D D D D D D D
1 D D D D D D D D D D
0 D D D D D D D D D D
"""


def printed() -> dict[int, tuple[bool, ...]]:
    rows = {}
    for line in PRINTED.strip().splitlines():
        total, *cells = line.split()
        rows[int(total)] = tuple(cell == "D" for cell in cells)
    return rows


@pytest.mark.parametrize("row", CHART, ids=lambda row: f"banker_{row.banker_total}")
def test_each_cell_is_the_tableau_s(row):
    assert row.player_stood is banker_draws(row.banker_total, None)[0]
    assert row.player_drew == tuple(banker_draws(row.banker_total, third)[0] for third in THIRD_CARDS)


def test_the_chart_is_the_one_the_rule_texts_print():
    assert {row.banker_total: row.player_drew for row in CHART} == printed()
    assert [row.banker_total for row in CHART if row.player_stood] == [0, 1, 2, 3, 4, 5]


def test_rows_and_columns():
    assert TOTALS == (0, 1, 2, 3, 4, 5, 6, 7)
    assert tuple(range(10)) == THIRD_CARDS
    assert [len(row.player_drew) for row in CHART] == [10] * 8


@pytest.mark.parametrize(
    ("values", "written"),
    [((0, 1, 2, 3, 4, 5), "0-5"), ((6, 7), "6-7"), ((0, 1, 8, 9), "0-1, 8-9"), ((8,), "8"), ((1, 3), "1, 3")],
)
def test_runs(values, written):
    assert runs(values) == written


def test_the_player_draws_on_0_5_and_stands_on_6_7():
    assert player_totals(draws=True) == (0, 1, 2, 3, 4, 5)
    assert player_totals(draws=False) == (6, 7)
