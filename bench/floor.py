"""The third yardstick: a round's own work, and nothing of the service around it.

``POST /v1/rounds`` here does what no signed round can do without, beyond
the signed ceiling (:mod:`bench.baseline`): it reads the body as the
service reads it (:mod:`service.contract.jsonio`), loads it with the
round's schema (its plain path first, as the service does), deals and
settles the round with the engine, writes the answer with the answer's
schema as JSON (byte for byte the service's answer to the bench's round,
which tests/test_yardsticks.py holds it to; its size is in
docs/performance.md), and signs it exactly as the ceiling does. Nothing else: no request
id, no request metrics, no body limit, no language negotiation, no
flask-smorest or webargs, no access check, no round counted, no trace
look-up, plain Flask around one view.

Served under the project's gunicorn.conf.py beside the service and the
ceiling (:mod:`bench.rounds`), it says how close to the ceiling a round can
get at all on this stack, whatever the service's layers become: the share
of the ceiling that is out of the layers' reach (docs/performance.md).

:func:`create_traced_app` is the same round traced as bare as the
OpenTelemetry SDK allows, for :mod:`bench.tracing`: the caller's
``traceparent`` read by the configured propagator, the request's span and
one span per step of docs/adr/0010's tree (read request, deal, settle,
write answer, sign answer), each started and ended with no attribute, by the
SDK's tracer and batch span processor, the batches dropped. What it costs
over :func:`create_app` is what that tree costs in any service on this
stack, before the first HTTP attribute.

``PYTHONPATH=. .venv/bin/python -m bench.floor`` times the three in one
process (:func:`in_process`): what the round's own work and the service's
layers cost before a server is involved.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask, Response, request
from flask.typing import ResponseReturnValue
from opentelemetry import trace
from opentelemetry.propagate import extract
from opentelemetry.sdk.trace import TracerProvider

from service.baccarat.requests import play_round
from service.contract import jsonio
from service.contract.schemas.minimal import RoundAnswerSchema
from service.contract.schemas.rounds import RoundRequestSchema
from service.contract.scope import OPEN, within
from tests.servers import ROOT

from .baseline import signed_answer
from .dropped_spans import traced_provider

Steps = Callable[[str], AbstractContextManager[object]]


@contextmanager
def untraced(name: str) -> Any:
    yield


def create_app(provider: TracerProvider | None = None) -> Flask:
    """The round alone; with ``provider``, traced by :func:`spans` of it."""
    app = Flask(__name__)
    key = Ed25519PrivateKey.generate()
    schema, answer_schema = RoundRequestSchema(), RoundAnswerSchema()
    tracer = None if provider is None else provider.get_tracer(__name__)

    def answer(step: Steps) -> Response:
        # Within the open service's scope, as the service answers (its answer names the table).
        with within(OPEN):
            with step("read request"):
                loaded = schema.load(jsonio.loads(request.get_data()))
            played = play_round(loaded, step=step)
            with step("write answer"):
                written = jsonio.dumps(answer_schema.dump(played))
        with step("sign answer"):
            return signed_answer(app, key, written)

    @app.post("/v1/rounds")
    def round_alone() -> ResponseReturnValue:
        if tracer is None:
            return answer(untraced)
        span = tracer.start_span("POST /v1/rounds", extract(request.headers), kind=trace.SpanKind.SERVER)
        try:
            return answer(spans(tracer, trace.set_span_in_context(span)))
        finally:
            span.end()

    @app.get("/readyz")
    def readyz() -> ResponseReturnValue:
        return {"status": "ok"}

    return app


def spans(tracer: trace.Tracer, parent: Any) -> Steps:
    """Each step a span under ``parent``, started and ended, nothing more."""

    @contextmanager
    def step(name: str) -> Any:
        span = tracer.start_span(name, parent)
        try:
            yield
        finally:
            span.end()

    return step


def create_traced_app() -> Flask:
    """The round alone, every request traced by the bare tree, its spans dropped."""
    return create_app(traced_provider())


def in_process(calls: int = 3000, turns: int = 5) -> list[str]:
    """The CPU a round costs through each app's WSGI callable, in one
    process: the service as gunicorn's workers build it (configured from
    the environment, its metrics written to a multiprocess directory), the
    round alone and the signed ceiling, taking turns; the best turn of each."""
    if "PROMETHEUS_MULTIPROC_DIR" not in os.environ:
        # prometheus_client chooses how it keeps values when it is imported:
        # only a process started with the directory set writes them to files
        # as the workers do.
        with tempfile.TemporaryDirectory(prefix="baccarat-metrics-") as directory:
            done = subprocess.run(
                [sys.executable, "-m", "bench.floor"],
                env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": directory},
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
        return done.stdout.splitlines()
    from service.app import create_app as service_app

    from .baseline import create_app as ceiling_app
    from .round_parts import posting

    apps = {
        "the service": posting(service_app(), "/v1/rounds"),
        "the round alone": posting(create_app(), "/v1/rounds"),
        "the signed ceiling": posting(ceiling_app(), "/signed"),
    }
    best = dict.fromkeys(apps, float("inf"))
    for _ in range(turns):
        for name, post in apps.items():
            post()
            start = time.process_time()
            for _ in range(calls):
                post()
            best[name] = min(best[name], (time.process_time() - start) / calls)
    floor, ceiling = best["the round alone"], best["the signed ceiling"]
    return [
        f"in process, CPU a signed round through the app (best of {turns} turns of {calls:,}): "
        + ", ".join(f"{name} {seconds * 1e6:.0f} µs" for name, seconds in best.items())
        + f"; the round alone over the ceiling {(floor - ceiling) * 1e6:.0f} µs, the service over "
        f"the round alone {(best['the service'] - floor) * 1e6:.0f} µs"
    ]


if __name__ == "__main__":
    print("\n".join(in_process()))
