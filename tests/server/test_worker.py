"""Smoke test of the real server: gunicorn with gunicorn.conf.py on loopback."""

import http.client
import json

import pytest

from tests.servers import gunicorn

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


class Recorder:
    """A client socket that keeps what is sent to it."""

    def __init__(self) -> None:
        self.sent = b""

    def gettimeout(self) -> float:
        return 0.0

    def sendall(self, data: bytes) -> None:
        self.sent += data


class Quiet:
    """The worker's log and config, as handle_error uses them: every
    attribute is another Quiet, and calling one does nothing."""

    def __getattr__(self, name):
        return Quiet()

    def __call__(self, *args, **kwargs):
        return None


def gunicorn_errors():
    """An instance of every error gunicorn's HTTP parser defines, and an SSL error."""
    import ssl

    from gunicorn.http import errors

    made = []
    for _, kind in sorted(vars(errors).items()):
        if isinstance(kind, type) and issubclass(kind, Exception) and kind.__module__ == errors.__name__:
            try:
                made.append(kind("x"))
            except TypeError:
                made.append(kind())
    return [*made, ssl.SSLError("x"), ValueError("not gunicorn's")]


def status(sent: bytes) -> int:
    """The status code of an HTTP/1.1 answer. (Only the code: gunicorn's
    reason phrase for its 500 and 501 refusals is "Bad Request"; ours is the
    status's own, which RFC 9112 leaves to the server.)"""
    return int(sent.split(b" ", 2)[1])


@pytest.mark.parametrize("error", gunicorn_errors(), ids=lambda error: type(error).__name__)
def test_each_refusal_has_the_status_gunicorn_itself_gives(error):
    """gunicorn's own handle_error writes an HTML page; the worker writes a
    problem, with the same status (docs/adr/0002)."""
    from gunicorn.workers.base import Worker as Base

    from service.server.worker import Worker

    theirs, ours = Recorder(), Recorder()
    quiet = Quiet()
    Base.handle_error(quiet, None, theirs, ("127.0.0.1", 1), error)
    Worker.handle_error(quiet, None, ours, ("127.0.0.1", 1), error)
    assert status(ours.sent) == status(theirs.sent)
    assert b"Content-Type: application/problem+json" in ours.sent
