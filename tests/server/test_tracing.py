"""Traces: a request is one tree of spans under the caller's W3C trace, its
spans say what was played but never what was staked, and with tracing off
nothing is installed at all."""

from __future__ import annotations

import http.client
import http.server
import itertools
import json
import logging
import re
import threading
from typing import Any, ClassVar

import flask
import pytest
from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.instrumentation.wsgi import OpenTelemetryMiddleware
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_ON

from service.app import create_app
from service.baccarat.tables.rules import TABLES
from service.server import config, tracing
from service.server.logs import TRACE_ID_KEY
from service.server.middleware import RequestId, RequestMetrics
from tests.servers import ROOT, free_port, gunicorn

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE_ID}-{CALLER_SPAN}-01"
KEY = "k-7f3a9c51d0e24b86"
CARDS = ["9S", "KH", "2D", "7C", "5H"]
#: Stakes no attribute may carry; distinctive, so that a match is never a coincidence.
STAKES = ("123.45", "17.35")
#: The operations that deal and settle, each with a body staking :data:`STAKES`.
OPERATIONS = {
    "playRound": (
        "/v1/rounds",
        {
            "cards": CARDS,
            "table": "ez",
            "bets": [{"type": "banker", "amount": STAKES[0]}, {"type": "player", "amount": STAKES[1]}],
        },
        "ez",
    ),
    "settleSlips": (
        "/v1/settlements",
        {
            "cards": CARDS,
            "slips": [
                {"id": "seat-1", "bets": [{"type": "banker", "amount": STAKES[0]}]},
                {"id": "seat-2", "bets": [{"type": "tie", "amount": STAKES[1]}]},
            ],
        },
        "standard",
    ),
}
#: A round's steps, in the order they run, each a child of the request's span.
STEPS = ["read request", "deal", "settle", "write answer", "sign answer"]


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
def traced_app(exporter: InMemorySpanExporter) -> Any:
    provider = TracerProvider(shutdown_on_exit=False)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return create_app({"TESTING": True, "API_KEYS": (KEY,), "TRACER_PROVIDER": provider})


def post(app: Any, path: str, body: Any, **headers: str) -> int:
    """POST ``body``; the answer is read and closed, which ends the request's span."""
    headers = {"Authorization": f"Bearer {KEY}", **headers}
    with app.test_client().post(path, json=body, headers=headers) as answer:
        answer.get_data()
        return int(answer.status_code)


def hex_id(number: int, digits: int) -> str:
    return format(number, f"0{digits}x")


def server_span(spans: tuple[ReadableSpan, ...]) -> ReadableSpan:
    (server,) = [span for span in spans if span.kind is trace.SpanKind.SERVER]
    return server


@pytest.mark.parametrize("operation", OPERATIONS)
def test_a_dealt_and_settled_request_is_one_tree_under_the_callers_trace(traced_app, exporter, operation):
    path, body, table = OPERATIONS[operation]
    assert post(traced_app, path, body, traceparent=TRACEPARENT, **{"X-Request-ID": "req-42"}) == 200

    spans = exporter.get_finished_spans()
    server = server_span(spans)
    assert server.name == f"POST {path}"
    assert {hex_id(span.context.trace_id, 32) for span in spans} == {TRACE_ID}
    assert server.parent is not None
    assert hex_id(server.parent.span_id, 16) == CALLER_SPAN
    assert server.parent.is_remote
    steps = sorted((span for span in spans if span is not server), key=lambda span: span.start_time or 0)
    assert [span.name for span in steps] == STEPS
    for step in steps:
        assert step.parent is not None
        assert step.parent.span_id == server.context.span_id
        # Each step lies within the request's span, and they follow one another.
        assert server.start_time <= step.start_time <= step.end_time <= server.end_time  # type: ignore[operator]
    assert all(a.end_time <= b.start_time for a, b in itertools.pairwise(steps))  # type: ignore[operator]

    attributes = server.attributes or {}
    assert attributes["baccarat.operation"] == operation
    assert attributes["baccarat.table"] == table
    assert attributes["baccarat.rules_id"] == TABLES[table].rules.id
    assert attributes["baccarat.outcome"] == "banker"
    assert attributes["baccarat.request_id"] == "req-42"
    assert attributes["http.route"] == path
    assert attributes["http.status_code"] == 200


@pytest.mark.parametrize(
    "traceparent",
    [
        "garbage",
        f"00-{TRACE_ID}-{CALLER_SPAN}",  # no flags
        f"00-{'0' * 32}-{CALLER_SPAN}-01",  # the invalid all-zero trace id
        f"00-{TRACE_ID}-{'0' * 16}-01",  # the invalid all-zero parent id
        f"ff-{TRACE_ID}-{CALLER_SPAN}-01",  # the forbidden version
        f"00-{TRACE_ID.upper()}-{CALLER_SPAN}-01",  # upper-case hex
        f"00-{TRACE_ID}-{CALLER_SPAN}-01" + "-" * 600,  # too long
    ],
)
def test_a_malformed_traceparent_is_ignored_and_the_request_starts_its_own_trace(
    traced_app, exporter, traceparent
):
    path, body, _ = OPERATIONS["playRound"]
    assert post(traced_app, path, body, traceparent=traceparent) == 200
    server = server_span(exporter.get_finished_spans())
    assert server.parent is None
    assert server.context.trace_id != int(TRACE_ID, 16)


def test_a_request_without_a_traceparent_starts_its_own_trace(traced_app, exporter):
    assert post(traced_app, *OPERATIONS["playRound"][:2]) == 200
    assert server_span(exporter.get_finished_spans()).parent is None


def test_no_span_carries_a_stake_a_seed_an_api_key_or_a_query_value(traced_app, exporter, monkeypatch):
    # Even an operator capturing every request header never exports the key.
    monkeypatch.setenv("OTEL_INSTRUMENTATION_HTTP_CAPTURE_HEADERS_SERVER_REQUEST", ".*")
    seed = "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"
    for path, body in [
        *((path, body) for path, body, _ in OPERATIONS.values()),
        (
            "/v1/rounds?api_key=s3cret-in-the-query",
            {"server_seed": seed, "client_seed": "lucky-7", "nonce": 1},
        ),
    ]:
        assert post(traced_app, path, body, traceparent=TRACEPARENT) == 200
    spans = exporter.get_finished_spans()
    assert len(spans) == 3 * (1 + len(STEPS)) - 1  # the seeded round settles no bets
    said = json.dumps([[span.name, dict(span.attributes or {}), list(span.events)] for span in spans])
    for secret in (*STAKES, seed, "lucky-7", KEY, "s3cret"):
        assert secret not in said
    headers = [dict(span.attributes or {}) for span in spans if span.kind is trace.SpanKind.SERVER]
    assert all(attributes["http.request.header.authorization"] == ("[REDACTED]",) for attributes in headers)
    assert "http.request.header.traceparent" in headers[0]  # the capture was on
    assert headers[-1]["http.target"] == "/v1/rounds?api_key"


@pytest.mark.parametrize(
    ("path", "over_the_limit"),
    [
        ("/v1/rounds", {"cards": CARDS, "bets": [{"type": "banker", "amount": "678.90"}]}),
        (
            "/v1/rounds",
            {
                "cards": CARDS,
                "rules": {"multipliers": "lightning"},
                "multiplier_cards": [
                    {"card": card, "multiplier": 2} for card in ("AS", "2S", "3S", "4S", "5S")
                ],
                "bets": [{"type": "banker", "amount": "678.90"}],
            },
        ),
        (
            "/v1/settlements",
            {
                "cards": CARDS,
                "rules": {"multipliers": "lightning"},
                "multiplier_cards": [
                    {"card": card, "multiplier": 2} for card in ("AS", "2S", "3S", "4S", "5S")
                ],
                "slips": [{"id": "s", "bets": [{"type": "banker", "amount": "678.90"}]}],
            },
        ),
    ],
    ids=["plain", "multiplier", "multiplier table"],
)
def test_a_step_that_fails_says_its_error_type_never_its_message(traced_app, exporter, path, over_the_limit):
    assert post(traced_app, path, over_the_limit) == 422
    spans = {span.name: span for span in exporter.get_finished_spans()}
    settle = spans["settle"]
    assert settle.status.status_code is trace.StatusCode.ERROR
    assert settle.status.description is None
    assert (settle.attributes or {})["error.type"] == "BetError"
    assert not settle.events
    assert "baccarat.outcome" not in (spans[f"POST {path}"].attributes or {})
    assert not {"write answer", "sign answer"} & spans.keys()


def test_an_unsampled_request_makes_no_span_but_keeps_its_trace_id_for_the_log(traced_app, exporter):
    seen = []
    traced_app.before_request(lambda: seen.append(flask.request.environ.get(TRACE_ID_KEY)))
    assert (
        post(traced_app, *OPERATIONS["playRound"][:2], traceparent=f"00-{TRACE_ID}-{CALLER_SPAN}-00") == 200
    )
    assert exporter.get_finished_spans() == ()
    assert seen == [TRACE_ID]


def test_an_unsampled_request_answers_under_the_caller_s_trace_without_a_span_of_its_own(
    traced_app, exporter
):
    """Sampled out by its caller, the request skips the server span's middleware
    (service/server/tracing.py::SampledOut): the caller's span is still the current
    one while the app answers, for its log lines, and the answer is the same."""
    current = []
    traced_app.before_request(lambda: current.append(trace.get_current_span().get_span_context()))
    unsampled = f"00-{TRACE_ID}-{CALLER_SPAN}-00"
    with traced_app.test_client().post(
        "/v1/rounds",
        json={"cards": CARDS},
        headers={"Authorization": f"Bearer {KEY}", "traceparent": unsampled},
    ) as answer:
        assert answer.status_code == 200
        assert "Signature" in answer.headers
    (context,) = current
    assert (hex_id(context.trace_id, 32), hex_id(context.span_id, 16)) == (TRACE_ID, CALLER_SPAN)
    assert not context.trace_flags.sampled
    assert exporter.get_finished_spans() == ()


@pytest.mark.parametrize(("flags", "sampled"), [("00", True), ("01", True)])
def test_a_sampler_that_keeps_children_of_unsampled_parents_is_obeyed(exporter, flags, sampled):
    """Whether a request is sampled out is the sampler's to say, not the flag's:
    a sampler that ignores its parent traces even a request its caller sampled out."""
    provider = TracerProvider(sampler=ALWAYS_ON, shutdown_on_exit=False)
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    app = create_app({"TESTING": True, "API_KEYS": (KEY,), "TRACER_PROVIDER": provider})
    assert post(app, *OPERATIONS["playRound"][:2], traceparent=f"00-{TRACE_ID}-{CALLER_SPAN}-{flags}") == 200
    server = server_span(exporter.get_finished_spans())
    assert hex_id(server.context.trace_id, 32) == TRACE_ID
    assert bool(server.context.trace_flags.sampled) is sampled


def test_a_traced_request_s_log_lines_carry_its_trace_id_beside_its_request_id(traced_app, json_log):
    headers = {"Authorization": "Bearer wrong-key", "traceparent": TRACEPARENT, "X-Request-ID": "req-7"}
    assert traced_app.test_client().post("/v1/rounds", json={}, headers=headers).status_code == 401
    refused = [line for line in json_log() if line["logger"] == "service.api.access"]
    assert refused
    assert {(line["request_id"], line["trace_id"]) for line in refused} == {("req-7", TRACE_ID)}


def test_with_tracing_off_nothing_is_installed_and_no_span_is_current(json_log):
    app = create_app({"TESTING": True})
    assert app.services.tracing is None
    assert isinstance(app.wsgi_app, RequestId)
    assert isinstance(app.wsgi_app.app, RequestMetrics)  # as before traces: no middleware between
    seen = []

    def look() -> None:
        seen.append((trace.get_current_span(), tracing.traced(), tracing.step("deal")))
        logging.getLogger("service.test").warning("during")

    app.before_request(look)
    assert post(app, *OPERATIONS["playRound"][:2], traceparent=TRACEPARENT) == 200
    assert seen == [(trace.INVALID_SPAN, False, tracing.step("settle"))]  # the one shared no-op
    assert [line["trace_id"] for line in json_log() if line["message"] == "during"] == [None]


def test_a_traced_app_beside_an_untraced_one_records_only_its_own_requests(traced_app, exporter):
    plain = create_app({"TESTING": True, "API_KEYS": (KEY,)})
    assert post(plain, *OPERATIONS["playRound"][:2], traceparent=TRACEPARENT) == 200
    assert exporter.get_finished_spans() == ()
    assert post(traced_app, *OPERATIONS["playRound"][:2]) == 200
    assert len(exporter.get_finished_spans()) == len(STEPS) + 1


def test_only_an_endpoint_turns_tracing_on_and_it_exports_by_otlp(monkeypatch):
    assert config.from_environment({}) == {}
    settings = config.from_environment({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"})
    assert settings == {"OTLP_ENDPOINT": "http://collector:4318"}
    with pytest.raises(ValueError, match="OTEL_EXPORTER_OTLP_ENDPOINT"):
        config.from_environment({"OTEL_EXPORTER_OTLP_ENDPOINT": "collector:4318"})

    monkeypatch.delenv("OTEL_SERVICE_NAME", raising=False)
    monkeypatch.delenv("OTEL_RESOURCE_ATTRIBUTES", raising=False)
    app = create_app({"TESTING": True, **settings})
    traces = app.services.tracing
    assert traces is not None
    sampled_out = app.wsgi_app.app  # type: ignore[attr-defined]
    assert isinstance(sampled_out, tracing.SampledOut)
    assert isinstance(sampled_out.traced, OpenTelemetryMiddleware)
    try:
        (processor,) = traces.provider._active_span_processor._span_processors
        assert isinstance(processor, BatchSpanProcessor)
        assert isinstance(processor.span_exporter, OTLPSpanExporter)
        assert traces.provider.resource.attributes["service.name"] == tracing.NAME
    finally:
        traces.shutdown()


def test_the_service_name_is_the_operator_s_when_they_give_one(monkeypatch):
    monkeypatch.setenv("OTEL_SERVICE_NAME", "baccarat-eu-1")
    provider = tracing.otlp_provider()
    try:
        assert provider.resource.attributes["service.name"] == "baccarat-eu-1"
    finally:
        provider.shutdown()


class Collector(http.server.BaseHTTPRequestHandler):
    """An OTLP/HTTP collector on loopback that keeps what it is sent."""

    received: ClassVar[list[ExportTraceServiceRequest]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/v1/traces":
            self.received.append(ExportTraceServiceRequest.FromString(body))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.mark.server
def test_under_gunicorn_a_worker_sends_its_spans_to_the_collector_when_it_stops(tmp_path):
    port = free_port()
    collector = http.server.ThreadingHTTPServer(("127.0.0.1", port), Collector)
    Collector.received = []
    thread = threading.Thread(target=collector.serve_forever, daemon=True)
    thread.start()
    env = {
        "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}",
        # No batch leaves before the worker stops: what arrives is what its exit sent.
        "OTEL_BSP_SCHEDULE_DELAY": "600000",
        "OTEL_SERVICE_NAME": "baccarat-test",
    }
    log = tmp_path / "gunicorn.log"
    path, body, _ = OPERATIONS["playRound"]
    try:
        with gunicorn(workers=1, env=env, log=log) as server:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            headers = {
                "Content-Type": "application/json",
                "traceparent": TRACEPARENT,
                "X-Request-ID": "srv-1",
            }
            connection.request("POST", path, body=json.dumps(body), headers=headers)
            answer = connection.getresponse()
            answer.read()
            connection.close()
            assert answer.status == 200
    finally:
        collector.shutdown()
        collector.server_close()

    spans = [
        (span, resource.resource)
        for request in Collector.received
        for resource in request.resource_spans
        for scope in resource.scope_spans
        for span in scope.spans
    ]
    ours = [span for span, _ in spans if span.trace_id.hex() == TRACE_ID]
    assert sorted(span.name for span in ours) == sorted([f"POST {path}", *STEPS])
    (request_span,) = [span for span in ours if span.name == f"POST {path}"]
    assert request_span.parent_span_id.hex() == CALLER_SPAN
    names = {
        value.value.string_value
        for _, resource in spans
        for value in resource.attributes
        if value.key == "service.name"
    }
    assert names == {"baccarat-test"}
    access = [json.loads(line) for line in log.read_text().splitlines()]
    lines = [line for line in access if line["logger"] == "gunicorn.access" and line["path"] == path]
    assert [(line["request_id"], line["trace_id"]) for line in lines] == [("srv-1", TRACE_ID)]


def test_the_integration_guide_lists_every_attribute_the_service_adds():
    guide = (ROOT / "docs" / "integration.md").read_text(encoding="utf-8")
    section = guide[guide.index("## Joining the traces") :]
    section = section[: section.index("\n## ")]
    assert set(re.findall(r"^\| `(baccarat\.[a-z_]+)` \|", section, re.MULTILINE)) == set(tracing.ATTRIBUTES)
