"""No memory kept: hostile bodies leave nothing behind in a worker.

150 invalid bodies of about 4 MiB each: half a 4 MB seed (256 characters
at most), half a bet whose amount is a unique 3 MB string of digits with a
letter in it. Any cache or log buffer that holds on to what it was sent
(an amount parser's cache, say, keyed by the text) would keep hundreds of
megabytes. Afterwards each worker's resident memory (VmRSS) must be at most
256 MiB.
"""

from __future__ import annotations

import json

import pytest

from tests.servers import Server

from .helpers import CARDS, MIB, assert_problem, call, memory_mib, workers

pytestmark = pytest.mark.server

REQUESTS = 150
RSS_MIB = 256
SEED = "x" * 4_000_000
DIGITS = "7" * 3_000_000
#: Each request's own bound, only to stop a hung test: how long a body takes
#: to be refused is measured by make bench (bench/hostile.py), never asserted here.
REQUEST_TIMEOUT = 60


def body(number: int) -> bytes:
    if number % 2:
        return json.dumps({"seed": SEED}).encode()
    # Unique: a cache keyed by the amount's text gets a new 3 MB key each time.
    amount = f"{number}{DIGITS}x"
    return json.dumps({"cards": CARDS, "bets": [{"type": "banker", "amount": amount}]}).encode()


def test_150_large_invalid_bodies_leave_each_worker_under_256_mib(server: Server) -> None:
    pids = workers(server)
    for number in range(REQUESTS):
        answer = call(server.port, "POST", "/v1/rounds", body(number), timeout=REQUEST_TIMEOUT)
        assert_problem(answer, 400, 413, 422)
    rss = {pid: memory_mib(pid, "VmRSS") for pid in workers(server)}
    figures = ", ".join(f"worker {pid}: {mib:.0f} MiB" for pid, mib in rss.items())
    # A replaced worker would take the memory it kept away with it, and hide it.
    assert set(rss) == pids, f"a worker was replaced during the run ({figures})"
    assert max(rss.values()) <= RSS_MIB, f"after {REQUESTS} bodies of ~{4 * MIB // 10**6} MB: {figures}"
