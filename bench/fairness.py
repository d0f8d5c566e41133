"""Fair service under load: ``python -m bench.fairness``.

The shipped server (``gunicorn.conf.py`` as ``make run`` starts it: the
gevent worker taking turns, 2 workers) against gunicorn's sync worker
serving the same app under the same settings (``-k sync``), the reference
for a fair tail: a sync worker takes one connection at a time from the
kernel's queue, so no caller waits for long. ``POST /v1/rounds`` with the
README's round (6 cards, 3 bets) from 4, 16 and 32 keep-alive connections,
the two servers alternated ``RUNS`` times at each level; each figure is the
median of the runs. Callers feel the tail, so p99 and the slowest answer
stand beside the throughput.

The targets (docs/performance.md, "Fair service under load"): p99 at most
2x the reference's (+2 ms), no answer later than 2 s (or, on a machine so
loaded that the reference itself was later, no later than it), throughput
at least 0.85x, and no errors (``Level.misses``). tests/test_fair_service.py
runs the same comparison with shorter runs but asserts only what shows an
unfair server, with margins wide enough for a loaded 2-core machine
(``Level.unfair``: p99 at most 5x the reference's + 20 ms, no answer later
than 5x the reference's slowest or 10 s, no errors); the throughput and the
2x targets are this benchmark's to report, not the tests' to assert.
"""

from __future__ import annotations

import json
import shutil
import statistics
from contextlib import ExitStack
from dataclasses import dataclass

from tests.servers import Server, gunicorn

from .load import QUIET, settled
from .loadgen import Load, http_load

CONNECTIONS = (4, 16, 32)
RUNS = 3
SECONDS = 4.0
WORKERS = 2
ROUND = {
    "cards": ["9S", "KH", "2D", "7C", "5H", "3D"],
    "bets": [
        {"type": "banker", "amount": "25.00"},
        {"type": "player", "amount": "10"},
        {"type": "tie", "amount": "5"},
    ],
}
#: The targets make bench measures (docs/performance.md, "Fair service under load").
P99_RATIO = 2.0
P99_SLACK_MS = 2.0
RATE_RATIO = 0.85
LONGEST_MS = 2000.0
#: What make test holds the shipped server to, against the same reference in
#: the same run: margins wide enough for a loaded 2-core machine, and still
#: far inside what an unfair server shows (p99 50 to 100 times the
#: reference's, answers waiting for seconds: docs/adr/0007).
UNFAIR_P99_RATIO = 5.0
UNFAIR_P99_SLACK_MS = 20.0
UNFAIR_LONGEST_RATIO = 5.0
SERVER_ENV = {"BACCARAT_LOG_LEVEL": "warning"}
#: The servers compared: the shipped configuration, and the sync reference.
SERVERS = {"shipped": QUIET, "sync reference": (*QUIET, "--worker-class", "sync")}


@dataclass(frozen=True)
class Level:
    """The runs of both servers at one number of connections."""

    connections: int
    shipped: list[Load]
    reference: list[Load]

    @staticmethod
    def median(runs: list[Load], field: str) -> float:
        return statistics.median(getattr(run, field) for run in runs)

    def unfair(self) -> list[str]:
        """What shows an unfair server, against the reference with wide margins
        (make test; :meth:`misses` holds the bench's targets). Throughput is
        not compared here: it is a speed, which make bench measures."""
        p99, reference_p99 = self.median(self.shipped, "p99_ms"), self.median(self.reference, "p99_ms")
        longest = max(run.max_ms or 0.0 for run in self.shipped)
        reference_longest = max(run.max_ms or 0.0 for run in self.reference)
        found = []
        if p99 > UNFAIR_P99_RATIO * reference_p99 + UNFAIR_P99_SLACK_MS:
            found.append(
                f"p99 {p99:.1f} ms > {UNFAIR_P99_RATIO:g} x {reference_p99:.1f} + {UNFAIR_P99_SLACK_MS:g} ms"
            )
        if longest > UNFAIR_LONGEST_RATIO * max(reference_longest, LONGEST_MS):
            found.append(
                f"an answer took {longest:.0f} ms, the reference's longest {reference_longest:.0f} ms"
            )
        errors = sum(run.errors for run in self.shipped)
        if errors:
            found.append(f"{errors} errors")
        return found

    def misses(self) -> list[str]:
        """Each target this level missed, in words (none: all met)."""
        p99, reference_p99 = self.median(self.shipped, "p99_ms"), self.median(self.reference, "p99_ms")
        rate = self.median(self.shipped, "requests_per_second")
        reference_rate = self.median(self.reference, "requests_per_second")
        longest = max(run.max_ms or 0.0 for run in self.shipped)
        allowed = max(LONGEST_MS, max(run.max_ms or 0.0 for run in self.reference))
        misses = []
        if p99 > P99_RATIO * reference_p99 + P99_SLACK_MS:
            misses.append(f"p99 {p99:.1f} ms > {P99_RATIO:g} x {reference_p99:.1f} + {P99_SLACK_MS:g} ms")
        if rate < RATE_RATIO * reference_rate:
            misses.append(f"throughput {rate / reference_rate:.2f}x < {RATE_RATIO:g}x")
        if longest > allowed:
            misses.append(f"an answer took {longest:.0f} ms > {allowed:.0f} ms")
        errors = sum(run.errors for run in self.shipped)
        if errors:
            misses.append(f"{errors} errors")
        return misses


def measure(servers: dict[str, Server], connections: int, *, runs: int, seconds: float) -> Level:
    """Both servers at ``connections``, alternated ``runs`` times."""
    body = json.dumps(ROUND).encode()
    loads: dict[str, list[Load]] = {name: [] for name in servers}
    for _ in range(runs):
        for name, server in servers.items():
            loads[name].append(
                http_load(server.url, "/v1/rounds", body, seconds=seconds, connections=connections, threads=2)
            )
    shipped, reference = loads.values()
    return Level(connections, shipped, reference)


def serving(stack: ExitStack) -> dict[str, Server]:
    """The two servers, started in ``stack``, every worker booted."""
    servers = {
        name: stack.enter_context(gunicorn(workers=WORKERS, env=SERVER_ENV, args=args))
        for name, args in SERVERS.items()
    }
    for server in servers.values():
        settled(server, WORKERS)
    return servers


def describe(runs: list[Load]) -> str:
    def median(field: str) -> float:
        return Level.median(runs, field)

    return (
        f"p50 {median('p50_ms'):6.2f} ms, p99 {median('p99_ms'):6.2f} ms, "
        f"slowest {max(run.max_ms or 0.0 for run in runs):6.1f} ms, "
        f"{median('requests_per_second'):6,.0f} req/s"
    )


def run(runs: int = RUNS, seconds: float = SECONDS) -> list[str]:
    """Every figure of this benchmark, as printable lines."""
    lines = [
        f"POST /v1/rounds (6 cards, 3 bets), {WORKERS} workers each, keep-alive; {runs} alternated runs "
        f"of {seconds:g} s at each level, medians (slowest: the slowest answer of all runs):"
    ]
    with ExitStack() as stack:
        servers = serving(stack)
        if not shutil.which("wrk"):
            lines.append("  wrk is NOT installed: the Python generator's tail is its own, not the server's")
        for connections in CONNECTIONS:
            level = measure(servers, connections, runs=runs, seconds=seconds)
            ratio = Level.median(level.shipped, "requests_per_second") / Level.median(
                level.reference, "requests_per_second"
            )
            misses = level.misses()
            verdict = "targets met" if not misses else "TARGET MISSED: " + "; ".join(misses)
            lines.append(f"  {connections:>2} connections, shipped:        {describe(level.shipped)}")
            lines.append(
                f"  {'':>2}              sync reference: {describe(level.reference)}; "
                f"throughput {ratio:.2f}x; {verdict}"
            )
    return lines


if __name__ == "__main__":
    for line in run():
        print(line)
