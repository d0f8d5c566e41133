"""Pieces by shoe number, and the same results whoever computes them."""

from __future__ import annotations

from functools import partial

from service.baccarat.odds.simulation import tally_shoes
from service.baccarat.tables.rules import TABLES
from service.certification.workers import InProcess, pieces


def test_pieces_cover_the_shoes_once_in_order():
    assert pieces(5, 7, 3) == [(5, 3), (8, 3), (11, 1)]
    assert pieces(0, 0, 10) == []


def test_in_process_results_come_in_piece_order_and_report_progress():
    seen: list[int] = []
    rules = TABLES["standard"].rules
    parts = InProcess().map(partial(tally_shoes, rules, "w"), pieces(0, 12, 5), seen.append)
    assert seen == [5, 5, 2]
    assert sum(parts) == tally_shoes(rules, "w", 0, 12)
    # A Dask cluster's workers run the same function on the same pieces:
    # tests/certification/test_certify.py runs the command on two of them.
