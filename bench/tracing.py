"""What traces cost (docs/performance.md, "Traces"):
``PYTHONPATH=. .venv/bin/python -m bench.tracing [--against REVISION]``.

1. Served: signed ``POST /v1/rounds`` (6 cards, 3 bets) under the project's
   gunicorn.conf.py, 2 workers per server, by servers taking turns eight
   times in one run, each turn in a rotated order, at 16 connections
   (``wrk -t1 -c16 -d4s``): the median throughput, p50, p99 and workers'
   CPU a request of each, and their ratios.

   * **off**: the service as shipped, without ``OTEL_EXPORTER_OTLP_ENDPOINT``
     (no layer, no instrumentation; only the steps' look-ups that find no trace);
   * **off, again**: a second server of the same, whose ratio to the first
     is what this run's noise alone makes of two equal servers;
   * **on, every request sampled**: every request traced (the SDK's default
     sampler: parent-based, always on, and no ``traceparent`` sent), its six
     spans batched by the SDK's ``BatchSpanProcessor`` and handed to an
     exporter that drops them (:func:`create_traced_app`): tracing's own
     cost, without a collector's;
   * **on, the caller samples 1 in 10**: the same server, each request
     continuing a caller's trace whose ``traceparent`` flags sample one
     request in ten (:data:`TENTH_SAMPLED`), as a platform sampling 10%;
   * **on, the caller samples none**: every ``traceparent`` unsampled: what
     an unsampled request costs with traces on;
   * **the round alone** (:mod:`bench.floor`), off, and traced by the
     bare span tree (the request's span and one per step, no attribute, the
     same SDK, batch processor and dropping exporter), every request sampled
     and 1 in 10 by the caller: what the span tree itself costs on this
     stack, which bounds what tracing the service's round can cost;
   * with ``--against REVISION``, **before**: the service at that git
     revision (say, the commit before traces), from ``git archive``, served
     the same way: off against the code before tracing existed.

2. In process: what tracing off leaves on a round's path (each step's look-up
   of the request's trace, which finds none), timed alone, against the whole
   signed round through the app's WSGI stack; then that round traced
   (spans batched and dropped) against it, median CPU of many; and where the
   traced round's extra time goes: the request's span (the WSGI middleware
   and the service's layer, around an empty app) and one step's span.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider

from service.app import create_app
from service.server.config import from_environment
from service.server.tracing import Traced, Tracing, note, step, traced
from tests.hostile.helpers import cpu_seconds
from tests.servers import ROOT, gunicorn, worker_pids

from .bodies import ROUND
from .dropped_spans import traced_provider
from .loadgen import http_load
from .paths import best_of
from .round_parts import posting
from .rounds import Side, side

CONNECTIONS = 16
RUNS = 8
SECONDS = 4.0
#: Whatever the shell running the bench says, no server here sends traces anywhere.
NO_COLLECTOR: dict[str, str | None] = {"OTEL_EXPORTER_OTLP_ENDPOINT": None}
#: What tracing off runs on a signed round's path, each finding no trace: the
#: steps (read, deal, settle, sign), the notes (rules, outcome), and the bare
#: look-ups (the table's, and the answer's writing before and after).
OFF_CHECKS = {"step": 4, "note": 2, "look-up": 3}
#: Issue 43's goals: tracing every request at least this share of the
#: throughput off, and with the caller sampling one request in ten this one.
GOAL_ALL = 0.80
GOAL_TENTH = 0.95


def create_traced_app() -> Flask:
    """The service as gunicorn serves it, every request traced and its spans dropped."""
    return create_app({**from_environment(os.environ), "TRACER_PROVIDER": traced_provider()})


@contextlib.contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """The project's files at ``revision``, in a temporary directory."""
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory(prefix="baccarat-before-") as directory:
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(directory, filter="data")
        yield Path(directory)


#: A caller's span in each of ten requests: the first sampled (flags 01), the others not (00).
TENTH_SAMPLED: tuple[dict[str, str], ...] = tuple(
    {"traceparent": f"00-{index:032x}-00f067aa0ba902b7-{'01' if index == 1 else '00'}"}
    for index in range(1, 11)
)
#: The third yardstick (bench/floor.py), untraced and traced by the bare span tree.
FLOOR_OFF = "the round alone (bench/floor.py), off"
FLOOR_ALL = "the round alone, the bare span tree, every request sampled"
FLOOR_TENTH = "the round alone, the bare span tree, the caller samples 1 in 10"
#: A caller's span that is never sampled.
NONE_SAMPLED: tuple[dict[str, str], ...] = (
    {"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"},
)


def served(against: str | None) -> list[str]:
    body = json.dumps(ROUND).encode()
    with contextlib.ExitStack() as stack:
        off = stack.enter_context(gunicorn(workers=2, env=NO_COLLECTOR))
        on = stack.enter_context(
            gunicorn(workers=2, env=NO_COLLECTOR, app="bench.tracing:create_traced_app()")
        )
        sides: dict[str, tuple[Any, tuple[dict[str, str], ...]]] = {
            "off": (off, ()),
            "off, again": (stack.enter_context(gunicorn(workers=2, env=NO_COLLECTOR)), ()),
            "on, every request sampled": (on, ()),
            "on, the caller samples 1 in 10": (on, TENTH_SAMPLED),
            "on, the caller samples none": (on, NONE_SAMPLED),
        }
        alone = stack.enter_context(gunicorn(workers=2, env=NO_COLLECTOR, app="bench.floor:create_app()"))
        bare = stack.enter_context(
            gunicorn(workers=2, env=NO_COLLECTOR, app="bench.floor:create_traced_app()")
        )
        sides[FLOOR_OFF] = (alone, ())
        sides[FLOOR_ALL] = (bare, ())
        sides[FLOOR_TENTH] = (bare, TENTH_SAMPLED)
        if against is not None:
            before = stack.enter_context(checkout(against))
            sides[f"before ({against})"] = (
                stack.enter_context(gunicorn(workers=2, env=NO_COLLECTOR, root=before)),
                (),
            )
        loads: dict[str, list[Any]] = {name: [] for name in sides}
        names = list(sides)
        for turn in range(RUNS):
            # Each turn starts with the next side, so that no side always follows the same one.
            for name in names[turn % len(names) :] + names[: turn % len(names)]:
                server, headers = sides[name]
                workers = worker_pids(server.process.pid)
                cpu = cpu_seconds(workers)
                load = http_load(
                    server.url, "/v1/rounds", body, seconds=SECONDS, connections=CONNECTIONS, headers=headers
                )
                loads[name].append((load, cpu_seconds(workers) - cpu))
    results = {name: side(runs, SECONDS) for name, runs in loads.items()}
    base = results["off"]
    lines = [
        f"POST /v1/rounds (6 cards, 3 bets, signed), {CONNECTIONS} connections, tracing {name}: {result}, "
        f"CPU {result.cpu_us:,.0f} µs a request [{result.tool}, median of {RUNS} turns of {SECONDS:g}s, "
        f"{result.errors} errors]"
        for name, result in results.items()
    ]
    lines += [
        f"  {name} / off: {ratios(result, base)}" for name, result in results.items() if name.startswith("on")
    ]
    lines.append(f"  off, again / off (the run's noise): {ratios(results['off, again'], base)}")
    floor_off = results[FLOOR_OFF]
    for name in (FLOOR_ALL, FLOOR_TENTH):
        extra = results[name].cpu_us - floor_off.cpu_us
        lines.append(
            f"  {name} / the round alone: {ratios(results[name], floor_off)}; the tree's own "
            f"{extra:,.0f} µs a request would leave the service's round at "
            f"{base.cpu_us / (base.cpu_us + extra):.2f} of its untraced CPU"
        )
    if against is not None:
        lines.append(f"  off / before ({against}): {ratios(base, results[f'before ({against})'])}")
    lines.append(
        f"  goals: every request sampled >= {GOAL_ALL:.2f} of off, 1 in 10 >= {GOAL_TENTH:.2f}, "
        "none sampled: no span cost"
    )
    return lines


def ratios(one: Side, other: Side) -> str:
    """``one``'s throughput, p50, p99 and CPU a request as ratios to ``other``'s."""
    return (
        f"throughput {one.rate / other.rate:.2f}, p50 {one.p50_ms / other.p50_ms:.2f}, "
        f"p99 {one.p99_ms / other.p99_ms:.2f}, CPU a request {one.cpu_us / other.cpu_us:.2f}"
    )


def median_cpu(action: Any, calls: int = 3000) -> float:
    """Median CPU seconds of one call."""
    action()
    timings = []
    for _ in range(calls):
        start = time.process_time_ns()
        action()
        timings.append(time.process_time_ns() - start)
    return statistics.median(timings) / 1e9


def in_process() -> list[str]:
    def a_step() -> None:
        with step("deal"):
            pass

    checks = {
        "step": best_of(a_step, 100_000),
        "note": best_of(lambda: note(outcome="banker"), 100_000),
        "look-up": best_of(traced, 100_000),
    }
    off_cost = sum(checks[name] * count for name, count in OFF_CHECKS.items())
    provider = traced_provider()
    off_round = posting(create_app({"TESTING": True}), "/v1/rounds")
    on_round = posting(create_app({"TESTING": True, "TRACER_PROVIDER": provider}), "/v1/rounds")
    try:
        rounds: dict[str, list[float]] = {"off": [], "on": []}
        for _ in range(5):  # alternated, so that drift hits both
            rounds["off"].append(median_cpu(off_round))
            rounds["on"].append(median_cpu(on_round))
        request_span = best_of(traced_empty_request(provider), 5000)
        step_span = best_of(traced_step(provider), 20_000)
    finally:
        provider.shutdown()
    off, on = min(rounds["off"]), min(rounds["on"])
    return [
        f"tracing off, on a signed round's path: {sum(OFF_CHECKS.values())} look-ups that find no trace, "
        f"{off_cost * 1e6:.2f} µs in all, against {off * 1e6:.0f} µs for the whole round through the app "
        f"({off_cost / off:.1%})",
        f"the same round traced (6 spans, batched and dropped): {on * 1e6:.0f} µs, "
        f"{on / off:.2f} x the untraced round [median CPU of 3,000 calls, best of 5 alternated]",
        f"  of which the request's span (the WSGI middleware and the service's attributes, around an "
        f"empty app) {request_span * 1e6:.0f} µs, and each step's span {step_span * 1e6:.1f} µs [best of 5]",
    ]


def traced_empty_request(provider: TracerProvider) -> Callable[[], None]:
    """One POST /v1/rounds through the tracing layers alone, around an app that answers nothing."""

    def empty(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("200 OK", [("Content-Length", "0")])
        return []

    layers = Tracing(provider, lambda environ: "/v1/rounds", {("POST", "/v1/rounds"): "playRound"}).around(
        empty
    )

    def call() -> None:
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": "/v1/rounds",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "HTTP_HOST": "127.0.0.1:8000",
            "REMOTE_ADDR": "127.0.0.1",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(),
        }
        answer = layers(environ, lambda status, headers, exc_info=None: None)
        b"".join(answer)
        getattr(answer, "close", lambda: None)()

    return call


def traced_step(provider: TracerProvider) -> Callable[[], None]:
    """One step's span under a request's, as :func:`service.server.tracing.step` makes it."""
    tracer = provider.get_tracer(__name__)
    request = tracer.start_span("POST /v1/rounds")
    traced = Traced(tracer, request, trace.set_span_in_context(request))
    return lambda: traced.start("deal").end()


def run(against: str | None = None) -> list[str]:
    return in_process() + served(against)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", metavar="REVISION", help="also serve the service at this git revision")
    print("\n".join(run(parser.parse_args().against)))
