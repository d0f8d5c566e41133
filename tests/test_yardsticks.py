"""The bench's yardsticks stay what docs/performance.md says they are.

The signed ceiling (bench/baseline.py) answers a fixed copy of the
service's answer to the bench's round, and the round's own work
(bench/floor.py) computes that answer: both must write the service's very
bytes, and sign them over the same covered fields, or the ratios measured
against them would compare unlike answers. The ceiling's fixed copy may
name an earlier engine digest than the service's (every change to an engine
file changes it, docs/build-digest.md): as many bytes, hashed and signed alike.
"""

from __future__ import annotations

import base64
import re

from flask.testing import FlaskClient
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from bench import baseline, floor
from bench.rounds import ROUND


def answered(client: FlaskClient, path: str) -> tuple[bytes, dict[str, str]]:
    response = client.post(path, json=ROUND)
    assert response.status_code == 200, response.data
    return response.data, dict(response.headers)


#: The engine's digest in an answer (``engine.digest``).
ENGINE_DIGEST = re.compile(rb'"digest":"[0-9a-f]{64}"')


def but_the_engine_digest(answer: bytes) -> bytes:
    return ENGINE_DIGEST.sub(b'"digest":"<engine digest>"', answer)


def test_the_ceiling_and_the_floor_answer_the_services_bytes(client: FlaskClient) -> None:
    service, service_headers = answered(client, "/v1/rounds")
    ceiling, ceiling_headers = answered(baseline.create_app().test_client(), "/signed")
    alone, alone_headers = answered(floor.create_app().test_client(), "/v1/rounds")
    assert alone == service
    assert alone_headers["Content-Digest"] == service_headers["Content-Digest"]
    assert ceiling == baseline.ANSWER.read_bytes()
    assert but_the_engine_digest(ceiling) == but_the_engine_digest(service)
    assert len(ceiling) == len(service)
    for headers in (ceiling_headers, alone_headers):
        assert headers["Content-Language"] == service_headers["Content-Language"] == "en"


def test_the_yardsticks_sign_what_the_service_signs(client: FlaskClient) -> None:
    _, service_headers = answered(client, "/v1/rounds")
    for app, path in ((baseline.create_app(), "/signed"), (floor.create_app(), "/v1/rounds")):
        _, headers = answered(app.test_client(), path)
        covered = headers["Signature-Input"].partition(";")[0]
        assert covered == service_headers["Signature-Input"].partition(";")[0]
        assert len(base64.b64decode(headers["Signature"].split(":")[1])) == 64  # an Ed25519 signature


def test_the_traced_floor_makes_the_bare_tree_of_adr_0010() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    response = (
        floor.create_app(provider)
        .test_client()
        .post("/v1/rounds", json=ROUND, headers={"traceparent": caller})
    )
    assert but_the_engine_digest(response.data) == but_the_engine_digest(baseline.ANSWER.read_bytes())
    spans = {span.name: span for span in exporter.get_finished_spans()}
    request = spans.pop("POST /v1/rounds")
    assert request.parent is not None
    assert request.parent.span_id == 0x00F067AA0BA902B7
    assert request.context.trace_id == 0x4BF92F3577B34DA6A3CE929D0E0E4736
    assert sorted(spans) == sorted(("read request", "deal", "settle", "write answer", "sign answer"))
    for step in spans.values():
        assert step.parent is not None
        assert step.parent.span_id == request.context.span_id
        assert not step.attributes  # bare: what the tree costs, not what it carries
