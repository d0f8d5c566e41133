"""Traces: the caller's W3C trace context continued, the service's spans sent by OTLP.

Off unless ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set (or a test's config gives a
tracer provider as ``TRACER_PROVIDER``). Off, :func:`tracing` gives None: no
layer is put around the app, no instrumentation is installed, and the steps
below look up a context variable, find no trace and do nothing
(docs/performance.md, "Traces").

On, each worker builds its own tracer provider when it builds the app
(``preload_app = False``: after gunicorn forks it), with a batch span
processor exporting by OTLP/HTTP; the SDK reads everything else from the
standard ``OTEL_*`` variables (``OTEL_SERVICE_NAME``, the sampler, the
exporter's headers and timeout, the batch's size and delay). gunicorn's
``worker_exit`` hook shuts it down, which sends the spans it still holds.

One request's spans, under the caller's trace when it sends ``traceparent``
(a malformed one is ignored: the request starts a trace of its own)::

    POST /v1/rounds     the server span: HTTP attributes, and the service's own
    ├── read request    the body read and loaded by its schema (service/api/views)
    ├── deal            the engine deals the round (service/baccarat/play/round.py)
    ├── settle          the engine settles the slip, or a table's slips
    ├── write answer    the answer dumped by its schema and written as JSON
    └── sign answer     its signature (service/server/signing.py)

The server span is opentelemetry-instrumentation-wsgi's middleware, just
inside the request id and around every other layer, not the Flask
instrumentation's span: that one ends in Flask's ``teardown_request``, before
the signing layer (outside Flask) signs the answer and before the server
writes it, so signing would fall outside the request it belongs to. The WSGI
span ends when the server has written the answer and closed its body
(docs/adr/0010-traces-from-a-wsgi-span-and-step-hooks.md).

What the spans carry (:data:`ATTRIBUTES`) is chosen here, never a request's
contents: no stake, slip, seed or body, no API key (an ``Authorization``
header captured by ``OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST``
is redacted) and no query value (only the parameters' names, as in the logs).
A step that fails says the exception's type, never its message, which may
quote the caller's input.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from functools import wraps
from types import TracebackType
from typing import Any, TypeVar

from opentelemetry import trace
from opentelemetry.context import Context, attach, detach
from opentelemetry.instrumentation.wsgi import OpenTelemetryMiddleware, wsgi_getter
from opentelemetry.metrics import NoOpMeterProvider
from opentelemetry.propagate import extract
from opentelemetry.sdk.resources import SERVICE_NAME, Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.sdk.trace.sampling import Decision, Sampler

from .logs import TRACE_ID_KEY, query_names
from .metrics import UNMATCHED
from .middleware import ENVIRON_KEY, StartResponse, WSGIApp

#: The service's name in its traces, unless OTEL_SERVICE_NAME (or
#: OTEL_RESOURCE_ATTRIBUTES) names it.
NAME = "baccarat-service"

#: The attributes the service adds to a request's span, besides the HTTP ones
#: the instrumentation gives (method, route, status, ...).
ATTRIBUTES = {
    "baccarat.request_id": "the request id of the logs and the X-Request-ID header",
    "baccarat.operation": "the operation id (playRound, settleSlips, ...)",
    "baccarat.table": "the table preset the request names, or the default one",
    "baccarat.rules_id": "the id of the rules it was played under (GET /v1/rules)",
    "baccarat.outcome": "the round's outcome: player, banker or tie",
}
#: Request headers never carried, whatever header capture is configured.
SECRET_HEADERS = ("http.request.header.authorization", "http.request.header.cookie")
#: The span attributes that may hold a request's query string.
WITH_QUERY = ("http.target", "http.url", "url.full")

READ, WRITE, SIGN = "read request", "write answer", "sign answer"

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(slots=True)
class Traced:
    """The request being traced: its tracer, its span (and the context that
    makes it the parent), and its answer's writing while it is written."""

    tracer: trace.Tracer
    span: trace.Span
    context: Context
    writing: trace.Span | None = None

    def start(self, name: str) -> trace.Span:
        """A span under the request's, started now. Not made the current
        span: nothing runs under a step (which saves the SDK attaching and
        detaching a context for each)."""
        return self.tracer.start_span(
            name, self.context, record_exception=False, set_status_on_exception=False
        )


#: The request being traced here, if any (each greenlet or thread sees its own).
_traced: contextvars.ContextVar[Traced | None] = contextvars.ContextVar("traced", default=None)
_NOTHING = nullcontext()


def step(name: str) -> AbstractContextManager[object]:
    """The step ``name`` of the request being traced, as a span under the
    request's; nothing when the request is not traced. The engine takes it as
    its ``step`` hook (service/baccarat/play/round.py)."""
    traced = _traced.get()
    return _NOTHING if traced is None else Step(traced.start(name))


class Step:
    """A step's span, ended when the step is; failed by an exception's type."""

    __slots__ = ("span",)

    def __init__(self, span: trace.Span) -> None:
        self.span = span

    def __enter__(self) -> trace.Span:
        return self.span

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        if error is not None:
            failed(self.span, error)
        self.span.end()


def failed(span: trace.Span, error: BaseException) -> None:
    """Mark ``span`` failed by ``error``'s type (its message may quote the caller's input)."""
    span.set_status(trace.Status(trace.StatusCode.ERROR))
    span.set_attribute("error.type", type(error).__qualname__)


def note(**attributes: str) -> None:
    """Add ``baccarat.<name>`` attributes (:data:`ATTRIBUTES`) to the request's
    span, if it is traced."""
    traced = _traced.get()
    if traced is not None:
        traced.span.set_attributes({f"baccarat.{name}": value for name, value in attributes.items()})


def traced() -> bool:
    """Whether the request being handled is traced."""
    return _traced.get() is not None


def written(respond: Callable[[F], F]) -> Callable[[F], F]:
    """``respond``, a decorator that calls a view and writes its answer
    (flask-smorest's ``@blp.response``), with the writing, from the view's
    return to ``respond``'s, the step "write answer" of a traced request. The
    view's own steps (dealing, settling) come before it, not inside it."""

    def decorate(view: F) -> F:
        @wraps(view)
        def played(*args: Any, **kwargs: Any) -> Any:
            result = view(*args, **kwargs)
            traced = _traced.get()
            if traced is not None:  # under the request's span, the current one
                traced.writing = traced.start(WRITE)
            return result

        answer = respond(played)  # type: ignore[arg-type]

        @wraps(answer)
        def answered(*args: Any, **kwargs: Any) -> Any:
            try:
                response = answer(*args, **kwargs)
            except Exception as error:
                _end_writing(error)
                raise
            _end_writing(None)
            return response

        return answered  # type: ignore[return-value]

    return decorate


def _end_writing(error: BaseException | None) -> None:
    traced = _traced.get()
    if traced is not None and traced.writing is not None:
        if error is not None:
            failed(traced.writing, error)
        traced.writing.end()
        traced.writing = None


# --- per worker: the provider and the layers ----------------------------------


def otlp_provider() -> TracerProvider:
    """A tracer provider that exports by OTLP/HTTP in batches, configured by
    the SDK from the ``OTEL_*`` variables; named :data:`NAME` unless they name it."""
    # Loaded only when traces are sent: protobuf and requests come with it.
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    resource = Resource.create()
    if str(resource.attributes.get(SERVICE_NAME, "")).startswith("unknown_service"):
        resource = resource.merge(Resource({SERVICE_NAME: NAME}))
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    return provider


def operation_ids(document: Mapping[str, Any]) -> dict[tuple[str, str], str]:
    """``(method, path) -> operationId`` for every operation of an OpenAPI document.

    >>> operation_ids({"paths": {"/v1/rounds": {"post": {"operationId": "playRound"}}}})
    {('POST', '/v1/rounds'): 'playRound'}
    """
    return {
        (method.upper(), path): operation["operationId"]
        for path, item in document.get("paths", {}).items()
        for method, operation in item.items()
        if isinstance(operation, Mapping) and "operationId" in operation
    }


@dataclass(frozen=True, slots=True)
class Tracing:
    """A worker's tracing: its provider, and how a request's span is named."""

    provider: TracerProvider
    #: The route template a request matches (``service/app.py::route_of``).
    endpoint_of: Callable[[dict[str, Any]], str]
    #: ``(method, route) -> operationId``.
    operations: Mapping[tuple[str, str], str]

    def around(self, app: WSGIApp) -> WSGIApp:
        """``app`` inside the server span and :class:`Annotate`, but for a
        request its caller sampled out (:class:`SampledOut`)."""
        annotated = Annotate(app, self.provider.get_tracer(__name__), self.endpoint_of, self.operations)
        # The service's own metrics are Prometheus's (metrics.py): none from the middleware.
        server_span = OpenTelemetryMiddleware(
            annotated, tracer_provider=self.provider, meter_provider=NoOpMeterProvider()
        )
        return SampledOut(server_span, app, self.provider.sampler)

    def shutdown(self) -> None:
        """Send the spans still held, and stop (gunicorn's ``worker_exit``)."""
        self.provider.shutdown()


def tracing(
    config: Mapping[str, Any], document: Mapping[str, Any], endpoint_of: Callable[[dict[str, Any]], str]
) -> Tracing | None:
    """The app's tracing: the provider ``TRACER_PROVIDER`` (a test's or a
    bench's), else one exporting by OTLP when ``OTLP_ENDPOINT`` is set
    (service/server/config.py); None, tracing off, with neither."""
    provider = config.get("TRACER_PROVIDER")
    if provider is None and config.get("OTLP_ENDPOINT"):
        provider = otlp_provider()
    if provider is None:
        return None
    return Tracing(provider, endpoint_of, operation_ids(document))


class SampledOut:
    """A request whose caller sampled it out costs no span: when its
    ``traceparent`` names a valid parent and the provider's sampler drops a
    span under it (the default sampler, parent-based, drops every child of an
    unsampled parent), the app answers without the server span's middleware,
    which would gather the request's HTTP attributes before the sampler is
    asked (docs/performance.md, "Traces"). The caller's trace is still the
    current context while the app answers and its id goes to the access log,
    as for a sampled-out request in the middleware. Any other request (no
    ``traceparent``, a malformed one, or a parent the sampler keeps) goes
    through the middleware, whose sampler decides with the request's
    attributes: a sampler that samples by attributes is asked here with none,
    and should not drop a child of a parent it keeps."""

    def __init__(self, traced: WSGIApp, app: WSGIApp, sampler: Sampler) -> None:
        self.traced = traced
        self.app = app
        self.sampler = sampler

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        if "HTTP_TRACEPARENT" not in environ:
            return self.traced(environ, start_response)
        context = extract(environ, getter=wsgi_getter)
        parent = trace.get_current_span(context).get_span_context()
        if not parent.is_valid:
            return self.traced(environ, start_response)
        name = f"{environ.get('REQUEST_METHOD', '')} {environ.get('PATH_INFO', '')}"
        decision = self.sampler.should_sample(context, parent.trace_id, name, trace.SpanKind.SERVER).decision
        if decision is not Decision.DROP:  # recorded, so through the middleware
            return self.traced(environ, start_response)
        environ[TRACE_ID_KEY] = trace.format_trace_id(parent.trace_id)
        token = attach(context)
        try:
            return self.app(environ, start_response)
        finally:
            detach(token)


class Annotate:
    """Inside the server span: name it by its route, give it the request's
    id and operation, keep its trace id for the access log, and make it the
    request's trace for :func:`step` and :func:`note` while the app answers."""

    def __init__(
        self,
        app: WSGIApp,
        tracer: trace.Tracer,
        endpoint_of: Callable[[dict[str, Any]], str],
        operations: Mapping[tuple[str, str], str],
    ) -> None:
        self.app = app
        self.tracer = tracer
        self.endpoint_of = endpoint_of
        self.operations = operations

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Any:
        span = trace.get_current_span()
        context = span.get_span_context()
        if context.is_valid:  # even when sampled out: the caller's trace, for the logs
            environ[TRACE_ID_KEY] = trace.format_trace_id(context.trace_id)
        if not span.is_recording():  # sampled out (or the SDK disabled): nothing to annotate
            return self.app(environ, start_response)
        method, route = environ.get("REQUEST_METHOD", ""), self.endpoint_of(environ)
        attributes = {"baccarat.request_id": environ.get(ENVIRON_KEY, "")}
        if route != UNMATCHED:
            attributes["http.route"] = route
            span.update_name(f"{method} {route}")
        if (method, route) in self.operations:
            attributes["baccarat.operation"] = self.operations[method, route]
        span.set_attributes(attributes)
        redact(span, environ.get("QUERY_STRING", ""))
        token = _traced.set(Traced(self.tracer, span, trace.set_span_in_context(span)))
        try:
            return self.app(environ, start_response)
        finally:
            _traced.reset(token)


def redact(span: trace.Span, query: str) -> None:
    """Replace what the instrumentation put on ``span`` that may hold a
    secret: a captured credential header, and the query's values."""
    held = getattr(span, "attributes", None) or {}  # the SDK's span shows what it holds
    for key in SECRET_HEADERS:
        if key in held:
            span.set_attribute(key, ["[REDACTED]"])
    if not query:
        return
    names = "&".join(query_names(query))
    for key in WITH_QUERY:
        value = held.get(key)
        if isinstance(value, str) and "?" in value:
            span.set_attribute(key, f"{value.partition('?')[0]}?{names}")
    if "url.query" in held:
        span.set_attribute("url.query", names)
