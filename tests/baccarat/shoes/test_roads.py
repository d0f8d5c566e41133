"""The roads: worked examples by hand (DESIGN §7) and the invariants they keep."""

from itertools import groupby, pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.rulebook.coup import Outcome, deal
from service.baccarat.shoes.roads import (
    DERIVED_ROADS,
    ROWS,
    Colour,
    Result,
    derived_mark,
    draw_streaks,
    roads,
)
from tests.conftest import cards
from tests.strategies import road_results

LETTERS = {"B": Outcome.BANKER, "P": Outcome.PLAYER, "T": Outcome.TIE}
R, U = Colour.RED, Colour.BLUE  # U for blue, as B is the Banker


def results(text: str) -> list[Result]:
    """``results("T B B P")``: one result per letter, B Banker, P Player, T tie."""
    return [Result(LETTERS[letter]) for letter in text.split()]


def places(board_road):
    return [(cell.column, cell.row) for cell in board_road.cells]


# --- Bead Plate ---------------------------------------------------------------------------------


def test_bead_plate_fills_top_to_bottom_then_left_to_right_with_ties_and_markers():
    sequence = [*results("T B P B P B"), Result(Outcome.PLAYER, player_pair=True, natural=True)]
    plate = roads(sequence).bead_plate
    assert places(plate) == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 0)]
    assert [cell.outcome for cell in plate.cells] == [r.outcome for r in sequence]
    last = plate.cells[-1]
    assert (last.index, last.player_pair, last.banker_pair, last.natural) == (6, True, False, True)
    assert (plate.columns, plate.rows) == (2, ROWS)


# --- Big Road -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sequence", "expected"),
    [
        # (column, row, outcome letter, ties counted on the cell)
        ("T T B", [(0, 0, "B", 2)]),
        ("T T B P", [(0, 0, "B", 2), (1, 0, "P", 0)]),
        ("B T T P T", [(0, 0, "B", 2), (1, 0, "P", 1)]),
        ("T B T B T", [(0, 0, "B", 2), (0, 1, "B", 1)]),
        ("P P B B B P", [(0, 0, "P", 0), (0, 1, "P", 0),
                         (1, 0, "B", 0), (1, 1, "B", 0), (1, 2, "B", 0), (2, 0, "P", 0)]),
    ],
    ids=["ties-before-the-first-result", "leading-ties-stay-on-the-first-cell", "ties-on-the-previous-cell",
         "ties-inside-a-streak", "streaks"],
)  # fmt: skip
def test_big_road_cells_and_tie_counts(sequence, expected):
    road = roads(results(sequence)).big_road
    assert [(c.column, c.row, c.outcome, c.ties) for c in road.cells] == [
        (column, row, LETTERS[letter], ties) for column, row, letter, ties in expected
    ]


def test_only_ties_draw_no_big_road_cell_but_fill_the_bead_plate():
    board = roads(results("T T T"))
    assert board.big_road.cells == ()
    assert board.big_road.columns == 0
    assert len(board.bead_plate.cells) == 3


def test_a_streak_past_row_six_turns_right_into_a_dragon_tail():
    road = roads(results("B B B B B B B B P")).big_road
    assert places(road) == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5), (1, 0)]
    assert [(s.outcome, s.length, s.column) for s in road.streaks] == [
        (Outcome.BANKER, 8, 0),
        (Outcome.PLAYER, 1, 1),
    ]
    assert road.columns == 3


def test_a_streak_turns_above_an_earlier_tail_and_the_next_one_under_it():
    # Banker 8 tails along row 5; Player 6 meets that tail at (1, 5) and turns on row 4;
    # Banker 5 meets the Player's tail at (2, 4) and turns on row 3.
    road = roads(results(" ".join("B" * 8 + "P" * 6 + "B" * 5))).big_road
    assert places(road) == [
        *[(0, row) for row in range(6)], (1, 5), (2, 5),
        *[(1, row) for row in range(5)], (2, 4),
        *[(2, row) for row in range(4)], (3, 3),
    ]  # fmt: skip
    assert road.columns == 4


def test_a_tail_along_the_top_row_pushes_the_next_streak_past_it():
    drawn = draw_streaks([7, 6, 5, 4, 3, 3, 1])
    assert drawn[4] == [(4, 0), (4, 1), (5, 1)]
    assert drawn[5] == [(5, 0), (6, 0), (7, 0)]
    assert drawn[6] == [(8, 0)]


# --- derived roads ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lengths", "column", "place", "k", "expected"),
    [
        ([2, 2], 2, 1, 1, R),  # starts a column: len(c-1) == len(c-1-k)
        ([2, 3], 2, 1, 1, U),  # starts a column: lengths differ
        ([1, 1, 1], 3, 1, 2, R),  # k = 2 compares columns c-1 and c-3
        ([1, 1, 1, 2], 4, 1, 3, U),  # k = 3 compares columns c-1 and c-4
        ([3, 1], 1, 2, 1, R),  # m <= p
        ([3, 1], 1, 3, 1, R),  # m == p
        ([3, 1], 1, 4, 1, U),  # m == p + 1
        ([3, 1], 1, 5, 1, R),  # m > p + 1
        ([1, 4], 2, 2, 2, U),  # k = 2 looks at column c-2 (length 1): m == p + 1
        ([1], 0, 2, 1, None),  # column c-k does not exist
        ([1], 1, 1, 1, None),  # column c-1-k does not exist
        ([1, 1, 1], 2, 2, 3, None),
    ],
)
def test_derived_mark_rules(lengths, column, place, k, expected):
    assert derived_mark(lengths, column, place, k) is expected


@pytest.mark.parametrize(
    ("sequence", "road", "expected", "index"),
    [
        # Big Eye Boy starts at the second cell of column 1 ...
        ("B P P", "big_eye_boy", [U], 2),
        ("B B P P", "big_eye_boy", [R], 3),
        # ... or, when column 1 holds one result, at the first cell of column 2.
        ("B P B", "big_eye_boy", [R], 2),
        ("B B P B", "big_eye_boy", [U], 3),
        # Small Road: second cell of column 2, or first cell of column 3.
        ("B P B B", "small_road", [U], 3),
        ("B P B P", "small_road", [R], 3),
        # Cockroach Pig: second cell of column 3, or first cell of column 4.
        ("B P B P P", "cockroach_pig", [U], 4),
        ("B P B P B", "cockroach_pig", [R], 4),
    ],
)
def test_the_first_mark_of_each_derived_road(sequence, road, expected, index):
    drawn = getattr(roads(results(sequence)), road)
    assert list(drawn.marks) == expected
    assert [(c.column, c.row, c.index) for c in drawn.cells] == [(0, 0, index)]


def test_a_worked_shoe_with_ties():
    # Big Road: B B | P | B B B | P P | B  (streak lengths 2, 1, 3, 2, 1), ties at the start and between.
    board = roads(results("T T B B P T B B B P P B T"))
    assert [c.ties for c in board.big_road.cells] == [2, 0, 1, 0, 0, 0, 0, 0, 1]
    assert list(board.big_eye_boy.marks) == [U, U, R, U, R, U]
    assert list(board.small_road.marks) == [R, U, U, U, U]
    assert list(board.cockroach_pig.marks) == [R, R]
    assert places(board.big_eye_boy) == [(0, 0), (0, 1), (1, 0), (2, 0), (3, 0), (4, 0)]
    assert [c.index for c in board.big_eye_boy.cells] == [6, 7, 8, 9, 10, 11]
    assert places(board.small_road) == [(0, 0), (1, 0), (1, 1), (1, 2), (1, 3)]
    assert places(board.cockroach_pig) == [(0, 0), (0, 1)]
    assert board.big_eye_boy.columns == 5
    ask = board.ask
    assert (ask.banker.big_eye_boy, ask.banker.small_road, ask.banker.cockroach_pig) == (R, R, U)
    assert (ask.player.big_eye_boy, ask.player.small_road, ask.player.cockroach_pig) == (U, U, R)


def test_derived_marks_draw_their_own_dragon_tail():
    # Every Player win from the 3rd on repeats the column: Big Eye Boy is red 8 times running.
    road = roads(results("B " + "P " * 9)).big_eye_boy
    assert list(road.marks) == [U, *[R] * 7]
    assert places(road) == [(0, 0), *[(1, row) for row in range(6)], (2, 5)]


def test_nothing_to_ask_before_the_roads_start():
    for sequence in ("", "T", "B"):
        ask = roads(results(sequence)).ask
        for side in (ask.banker, ask.player):
            assert (side.big_eye_boy, side.small_road, side.cockroach_pig) == (None, None, None)


def test_a_dealt_round_becomes_a_result():
    pairs = deal(cards("4S 4H 4D 4C"))  # two natural 8s, both hands paired
    assert Result.of(pairs) == Result(Outcome.TIE, player_pair=True, banker_pair=True, natural=True)
    assert Result.of(deal(cards("9S KH 2D 7C 5H"))) == Result(Outcome.BANKER)


# --- invariants ---------------------------------------------------------------------------------


def logical_places(sequence):
    """(result index, logical column, 1-based place) of every win, counted here from scratch."""
    wins = [(i, r.outcome) for i, r in enumerate(sequence) if r.outcome is not Outcome.TIE]
    out, column = [], -1
    for _, run in groupby(wins, key=lambda win: win[1]):
        column += 1
        out += [(index, column, place) for place, (index, _) in enumerate(run, 1)]
    return out


@given(road_results())
def test_each_derived_road_marks_every_win_from_its_starting_point(sequence):
    board = roads(sequence)
    wins = logical_places(sequence)
    for name, k in DERIVED_ROADS.items():
        road = getattr(board, name)
        start = next((n for n, (_, c, m) in enumerate(wins) if c > k or (c == k and m >= 2)), len(wins))
        assert [cell.index for cell in road.cells] == [index for index, _, _ in wins[start:]]
        assert [cell.colour for cell in road.cells] == list(road.marks)


@given(road_results(), st.sampled_from([Outcome.BANKER, Outcome.PLAYER]))
def test_the_ask_road_is_the_road_with_that_result_appended(sequence, side):
    asked = getattr(roads(sequence).ask, side.value)
    after = roads([*sequence, Result(side)])
    before = roads(sequence)
    for name in DERIVED_ROADS:
        marks, then = getattr(before, name).marks, getattr(after, name).marks
        assert then[: len(marks)] == marks
        assert getattr(asked, name) == (then[-1] if len(then) == len(marks) + 1 else None)
        assert len(then) - len(marks) in (0, 1)


@given(road_results())
def test_roads_never_depend_on_ties_but_for_the_tie_counts(sequence):
    with_ties, without = roads(sequence), roads([r for r in sequence if r.outcome is not Outcome.TIE])

    def shape(cell):
        return (cell.column, cell.row, cell.outcome, cell.player_pair, cell.banker_pair, cell.natural)

    assert [shape(c) for c in with_ties.big_road.cells] == [shape(c) for c in without.big_road.cells]
    assert with_ties.big_road.streaks == without.big_road.streaks
    for name in DERIVED_ROADS:
        a, b = getattr(with_ties, name), getattr(without, name)
        assert (a.marks, places(a), a.columns) == (b.marks, places(b), b.columns)
    assert with_ties.ask == without.ask
    tie_count = sum(r.outcome is Outcome.TIE for r in sequence)
    assert sum(c.ties for c in with_ties.big_road.cells) == (tie_count if without.big_road.cells else 0)


def assert_drawn_as_streaks(cells, runs, columns):
    """Distinct cells on six rows; each run goes down, then only right once it turns."""
    spots = [(cell.column, cell.row) for cell in cells]
    assert len(set(spots)) == len(spots)
    assert all(0 <= row < ROWS for _, row in spots)
    assert columns == max((column + 1 for column, _ in spots), default=0)
    at = 0
    for length in runs:
        run, at = spots[at : at + length], at + length
        steps = [(c2 - c1, r2 - r1) for (c1, r1), (c2, r2) in pairwise(run)]
        assert set(steps) <= {(0, 1), (1, 0)}
        if (1, 0) in steps:  # once it turns right it never goes down again
            assert (0, 1) not in steps[steps.index((1, 0)) :]


@given(road_results())
def test_every_grid_is_drawn_as_streaks_on_six_rows(sequence):
    board = roads(sequence)
    assert_drawn_as_streaks(
        board.big_road.cells, [s.length for s in board.big_road.streaks], board.big_road.columns
    )
    for name in DERIVED_ROADS:
        road = getattr(board, name)
        runs = [len(list(run)) for _, run in groupby(road.marks)]
        assert_drawn_as_streaks(road.cells, runs, road.columns)
    assert places(board.bead_plate) == [(i // ROWS, i % ROWS) for i in range(len(sequence))]
