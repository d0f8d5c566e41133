"""``make bench``'s sizing table (bench/sizing.py), run short: every row is
measured, answered without an error, and written with its tail and its ratio
to the empty endpoint measured beside it. No figure is held to a bound here:
they are the machine's (docs/operations/sizing.md)."""

from __future__ import annotations

import pytest

from bench import sizing

pytestmark = pytest.mark.server


def test_the_sizing_table_measures_every_request_at_every_load():
    ours, theirs, rows, after = sizing.measure(seconds=1)
    assert [(row.what, row.connections) for row in rows] == [
        (what, connections)
        for connections in sizing.CONNECTIONS
        for what in ("round, 3 bets", "settlement, 100 slips")
    ]
    for row in rows:
        assert row.load.errors == 0, row
        assert row.load.requests_per_second > 0, row
        assert row.yardstick > 0, row
        assert row.load.p50_ms is not None
        assert row.load.p99_ms is not None
        assert 0 < row.load.p50_ms <= row.load.p99_ms, row
    assert min(ours.cpu_seconds, ours.rss_mib, theirs.rss_mib, after) > 0
    lines = list(sizing.table(ours, theirs, rows, after))
    assert len(lines) == 3 + len(rows) + 2
    assert all(line.count("|") == 8 for line in lines[1 : 3 + len(rows)])
