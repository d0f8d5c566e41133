"""Every caller is served in turn: the shipped server against gunicorn's sync worker.

The server is started as ``make run`` starts it (gunicorn with
gunicorn.conf.py, 2 workers), beside the same app under ``-k sync``, the
reference for a fair tail, and both carry the README's round from 4, 16 and
32 keep-alive connections, alternated three times at each level. Every
figure is compared with the reference measured in the same run, never with
an absolute time, so a loaded machine slows both alike: p99 at most 2x the
reference's + 2 ms, throughput at least 0.85x, no answer later than 2 s
unless the reference's was too, and no errors (bench/fairness.py holds the
targets; ``make bench`` prints the figures).

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
    assert not level.misses(), f"{'; '.join(level.misses())} ({figures})"
