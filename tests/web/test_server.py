"""Smoke test of the real server: gunicorn with gunicorn.conf.py on loopback."""

import http.client
import json

import pytest

from tests.server import gunicorn

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def server():
    with gunicorn(workers=2, env={"BACCARAT_MAX_BODY_BYTES": "65536"}) as running:
        yield running


def request(server, method, path, body=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        headers = headers or {}
        chunked = headers.get("Transfer-Encoding") == "chunked"
        connection.request(method, path, body=body, headers=headers, encode_chunked=chunked)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type"), response.read()
    finally:
        connection.close()


def test_serves_a_round(server):
    body = json.dumps(
        {"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "25.00"}]}
    )
    status, content_type, payload = request(
        server, "POST", "/v1/rounds", body, {"Content-Type": "application/json"}
    )
    assert status == 200
    assert content_type == "application/json"
    assert json.loads(payload)["settlement"]["net"] == "23.75"


@pytest.mark.parametrize("path", ["/livez", "/readyz", "/v1/tables", "/v1/rules", "/openapi.yaml"])
def test_gets(server, path):
    assert request(server, "GET", path)[0] == 200


def chunks(data: bytes, size: int = 1000):
    for start in range(0, len(data), size):
        yield data[start : start + size]


def test_chunked_body_within_the_limit_is_read_whole(server):
    body = json.dumps(
        {"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "player", "amount": "1"}] * 50}
    ).encode()
    status, _, payload = request(
        server,
        "POST",
        "/v1/rounds",
        chunks(body),
        {"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    )
    assert status == 200
    assert json.loads(payload)["settlement"]["staked"] == "50.00"


def test_chunked_body_over_the_limit_is_refused_never_truncated(server):
    slips = [{"id": f"s{i}", "bets": [{"type": "player", "amount": "1"}]} for i in range(3000)]
    body = json.dumps({"cards": ["9S", "KH", "2D", "7C", "5H"], "slips": slips}).encode()
    assert len(body) > 65536
    status, content_type, payload = request(
        server,
        "POST",
        "/v1/settlements",
        chunks(body, 4096),
        {"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    )
    assert status == 413
    assert content_type == "application/problem+json"
    assert "slips" not in json.loads(payload)


def test_declared_length_over_the_limit_is_413(server):
    body = b"{" + b" " * 70000 + b"}"
    status, content_type, _ = request(
        server, "POST", "/v1/rounds", body, {"Content-Type": "application/json"}
    )
    assert status == 413
    assert content_type == "application/problem+json"


def test_deep_nesting_is_400_on_the_real_server(server):
    status, content_type, _ = request(
        server, "POST", "/v1/rounds", "[" * 5000 + "]" * 5000, {"Content-Type": "application/json"}
    )
    assert status == 400
    assert content_type == "application/problem+json"
