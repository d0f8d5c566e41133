"""The sizing table an operator reads (docs/operations/sizing.md): what one
worker serves, its tail at 8 and 32 connections, its memory and its start.

One gunicorn worker of the service, under the project's gunicorn.conf.py,
beside one worker of the empty JSON endpoint (bench/baseline.py, the least
any JSON endpoint can do on this machine), each measured in turn in the
same run. The absolute figures belong to the machine that ran them; the
ratios to the empty endpoint are what carries over to another machine of
the same kind of CPU.

    python -m bench.sizing
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass

from tests.servers import Server, gunicorn, worker_pids

from .load import ROUND, cpu_seconds, rss_mib
from .loadgen import Load, http_load

#: The connections a worker is measured at: a light and a busy load.
CONNECTIONS = (8, 32)
SECONDS = 5.0
QUIET = ("--log-level", "warning")
#: A settlement of a busy table: 100 seats of three bets on one round.
SETTLEMENT = {
    "cards": ROUND["cards"],
    "slips": [{"id": f"seat-{n}", "bets": ROUND["bets"]} for n in range(100)],
}


@dataclass(frozen=True)
class Start:
    """A one-worker server's start: wall time from launch to its first answer,
    the worker's CPU for it, and its resident memory once ready."""

    seconds: float
    cpu_seconds: float
    rss_mib: float


@dataclass(frozen=True)
class Row:
    what: str
    connections: int
    load: Load
    #: The empty endpoint's rate at the same connections, measured in the same run.
    yardstick: float


def started(server: Server, launched: float) -> Start:
    (pid,) = worker_pids(server.process.pid)
    return Start(time.monotonic() - launched, cpu_seconds(pid), rss_mib(pid))


def body(data: object) -> bytes:
    return json.dumps(data).encode()


def check(server: Server, path: str, data: object) -> None:
    """The request the load sends is answered 200, so that a rate is never of refusals."""
    request = urllib.request.Request(
        server.url + path, data=body(data), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200, (path, response.status)


def measure(seconds: float = SECONDS) -> tuple[Start, Start, list[Row], float]:
    """The service's and the empty app's starts, the rows, and the service
    worker's resident memory after the load."""
    launched = time.monotonic()
    with gunicorn(workers=1, args=QUIET) as service:
        ours = started(service, launched)
        launched = time.monotonic()
        with gunicorn(workers=1, args=QUIET, app="bench.baseline:create_app()") as empty:
            theirs = started(empty, launched)
            for path, data in (("/v1/rounds", ROUND), ("/v1/settlements", SETTLEMENT)):
                check(service, path, data)
            rows = []
            for connections in CONNECTIONS:
                floor = http_load(empty.url, "/empty", body({}), seconds=seconds, connections=connections)
                for what, path, data in (
                    ("round, 3 bets", "/v1/rounds", ROUND),
                    ("settlement, 100 slips", "/v1/settlements", SETTLEMENT),
                ):
                    load = http_load(service.url, path, body(data), seconds=seconds, connections=connections)
                    rows.append(Row(what, connections, load, floor.requests_per_second))
            (pid,) = worker_pids(service.process.pid)
            after = rss_mib(pid)
    return ours, theirs, rows, after


def table(ours: Start, theirs: Start, rows: list[Row], after: float) -> Iterator[str]:
    yield "one worker (WEB_CONCURRENCY=1), gunicorn.conf.py as shipped; each figure of this machine, this run"
    yield "| request | connections | per second | p50 ms | p99 ms | errors | rate / empty endpoint's |"
    yield "|---|---|---|---|---|---|---|"
    for row in rows:
        load = row.load
        yield (
            f"| {row.what} | {row.connections} | {load.requests_per_second:,.0f} | {load.p50_ms:.1f} | "
            f"{load.p99_ms:.1f} | {load.errors} | {load.requests_per_second / row.yardstick:.3f} |"
        )
    yield (
        f"start: {ours.seconds:.2f} s from launching gunicorn to the first answer, "
        f"the worker {ours.cpu_seconds:.2f} s of CPU "
        f"(the empty app's: {theirs.seconds:.2f} s, {theirs.cpu_seconds:.2f} s; "
        f"ratio {ours.cpu_seconds / max(theirs.cpu_seconds, 0.01):.1f})"
    )
    yield (
        f"worker memory: {ours.rss_mib:.0f} MiB resident when ready, {after:.0f} MiB after the load "
        f"(the empty app's: {theirs.rss_mib:.0f} MiB)"
    )


def run(seconds: float = SECONDS) -> list[str]:
    return list(table(*measure(seconds)))


if __name__ == "__main__":
    for line in run():
        print(line, flush=True)
