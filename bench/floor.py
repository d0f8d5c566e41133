"""The third yardstick: a round's own work, and nothing of the service around it.

``POST /v1/rounds`` here does what no signed round can do without, beyond
the signed ceiling (:mod:`bench.baseline`): it reads the body as the
service reads it (:mod:`service.contract.jsonio`), loads it with the
round's schema (its plain path first, as the service does), deals and
settles the round with the engine, writes the answer with the answer's
schema as JSON (the same 2,489 bytes the service answers the bench's
round), and signs it exactly as the ceiling does. Nothing else: no request
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
"""

from __future__ import annotations

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

from .baseline import signed_answer

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
    from .tracing import traced_provider

    return create_app(traced_provider())
