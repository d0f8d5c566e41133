"""Every caller is served in turn: the shipped server against gunicorn's sync worker.

The server is started as ``make run`` starts it (gunicorn with
gunicorn.conf.py, 2 workers), beside the same app under ``-k sync``, the
reference for a fair tail, and both carry the README's round from 4, 16 and
32 keep-alive connections, alternated three times at each level. Every
figure is compared with the reference measured in the same run, never with
an absolute time, and with margins wide enough for a loaded 2-core machine
(bench/fairness.py, ``Level.unfair``): p99 at most 5x the reference's +
20 ms, no answer later than 5x the reference's longest (or 10 s), and no
errors. The targets themselves (p99 within 2x + 2 ms, throughput 0.85x) are
measured by ``make bench`` (``Level.misses``), not asserted here.

Without the fix of docs/adr/0007 the shipped p99 was 50 to 100 times the
reference's, from 4 connections on.
"""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from bench import fairness

from . import tools

pytestmark = pytest.mark.server

RUNS = 3
SECONDS = 2.0


@pytest.fixture(scope="module")
def servers():
    tools.wrk()
    with ExitStack() as stack:
        yield fairness.serving(stack)


@pytest.mark.parametrize("connections", fairness.CONNECTIONS)
def test_every_caller_is_served_in_turn(servers, connections: int) -> None:
    level = fairness.measure(servers, connections, runs=RUNS, seconds=SECONDS)
    figures = f"shipped: {fairness.describe(level.shipped)}; sync: {fairness.describe(level.reference)}"
    assert not level.unfair(), f"{'; '.join(level.unfair())} ({figures})"
