"""X-Request-ID: a valid one is kept, anything else replaced, always echoed,
and every log line written while a request is handled carries it."""

import http.client
import json

import pytest

from service.app import create_app
from service.server.middleware import VALID_ID as VALID
from service.server.middleware import accept_or_generate, current_request_id
from tests.servers import gunicorn

ROUND = {"cards": ["9S", "KH", "2D", "7C", "5H"]}


@pytest.mark.parametrize(
    "request_id",
    ["a", "checkout-7f3a", "A.b_c-9", "0" * 128, "550e8400-e29b-41d4-a716-446655440000"],
)
def test_a_valid_id_is_echoed_unchanged(client, request_id):
    response = client.post("/v1/rounds", json=ROUND, headers={"X-Request-ID": request_id})
    assert response.status_code == 200
    assert response.headers["X-Request-ID"] == request_id


@pytest.mark.parametrize(
    "request_id",
    ["", "two words", "0" * 129, 'quote"d', "semi;colon", "slash/path", "caf\u00e9", "<script>", "a:b"],
)
def test_an_invalid_id_is_replaced_by_a_generated_one(client, request_id):
    response = client.post("/v1/rounds", json=ROUND, headers={"X-Request-ID": request_id})
    echoed = response.headers["X-Request-ID"]
    assert echoed != request_id
    assert VALID.fullmatch(echoed)


def test_a_trailing_newline_is_not_accepted():
    # `$` in a regular expression would let "abc\n" through; fullmatch does not.
    assert accept_or_generate("abc\n") != "abc\n"


def test_without_an_id_each_request_gets_its_own(client):
    ids = {client.get("/livez").headers["X-Request-ID"] for _ in range(20)}
    assert len(ids) == 20
    assert all(VALID.fullmatch(request_id) for request_id in ids)


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status"),
    [
        ("GET", "/no/such/path", {}, 404),
        ("DELETE", "/v1/rounds", {}, 405),
        ("POST", "/v1/rounds", {"data": "x", "content_type": "text/plain"}, 415),
        ("POST", "/v1/rounds", {"data": "{", "content_type": "application/json"}, 400),
        ("POST", "/v1/rounds", {"json": {"cards": ["9S"]}}, 422),
    ],
)
def test_error_answers_echo_the_id_too(client, method, path, kwargs, status):
    response = client.open(path, method=method, headers={"X-Request-ID": "err-1"}, **kwargs)
    assert response.status_code == status
    assert response.headers["X-Request-ID"] == "err-1"


def test_an_answer_given_before_flask_runs_echoes_the_id():
    client = create_app({"MAX_BODY_BYTES": 100}).test_client()
    response = client.post(
        "/v1/rounds",
        data=b"{" + b" " * 200 + b"}",
        content_type="application/json",
        headers={"X-Request-ID": "big-1"},
    )
    assert response.status_code == 413
    assert response.headers["X-Request-ID"] == "big-1"


def test_the_id_is_only_current_while_the_request_is_handled(app):
    seen = []
    app.before_request(lambda: seen.append(current_request_id()))
    assert app.test_client().get("/livez", headers={"X-Request-ID": "during"}).status_code == 200
    assert seen == ["during"]
    assert current_request_id() is None


def test_log_lines_written_during_a_request_carry_its_id(json_log):
    client = create_app({"API_KEYS": ("right-key-0123456789",)}).test_client()
    client.post("/v1/rounds", json=ROUND, headers={"X-Request-ID": "req-42", "Authorization": "Bearer wrong"})
    lines = [line for line in json_log() if line["logger"] == "service.api.access"]
    assert lines, "the refused key should have been logged"
    assert {line["request_id"] for line in lines} == {"req-42"}
    assert all({"time", "level", "message", "process"} <= line.keys() for line in lines)


def test_log_lines_outside_a_request_have_a_null_id(client, json_log):
    with client.get("/livez", headers={"X-Request-ID": "before"}):
        pass
    create_app({"API_KEYS": ()})  # logs that the API is open
    lines = json_log()
    assert lines
    assert all(line["request_id"] is None for line in lines)


@pytest.mark.server
def test_under_gunicorn_every_line_is_json_and_request_lines_carry_the_id(tmp_path):
    log = tmp_path / "gunicorn.log"
    body = json.dumps(ROUND).encode()
    with gunicorn(workers=2, env={"BACCARAT_API_KEYS": "right-key-0123456789"}, log=log) as server:
        sent = {
            "srv-ok": call(server, "right-key-0123456789", "srv-ok", body),
            "srv-refused": call(server, "wrong-key", "srv-refused", body),
            "bad id!": call(server, "right-key-0123456789", "bad id!", body),
        }
    assert sent["srv-ok"] == (200, "srv-ok")
    assert sent["srv-refused"] == (401, "srv-refused")
    status, generated = sent["bad id!"]
    assert status == 200
    assert VALID.fullmatch(generated)

    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert all("request_id" in line and "level" in line for line in lines)
    access = {line["request_id"]: line for line in lines if line["logger"] == "gunicorn.access"}
    assert access["srv-ok"]["status"] == 200
    assert access["srv-ok"]["path"] == "/v1/rounds"
    assert access["srv-refused"]["status"] == 401
    assert access[generated]["status"] == 200
    refused = [
        line for line in lines if line["logger"] == "service.api.access" and line["level"] == "WARNING"
    ]
    assert [line["request_id"] for line in refused if "unknown API key" in line["message"]] == ["srv-refused"]
    assert "wrong-key" not in log.read_text()


def call(server, key, request_id, body):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        headers = {
            "Content-Type": "application/json",
            "Authorization": f"Bearer {key}",
            "X-Request-ID": request_id,
        }
        connection.request("POST", "/v1/rounds", body=body, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("X-Request-ID")
    finally:
        connection.close()


def test_generated_ids_are_unique():
    ids = [accept_or_generate(None) for _ in range(1000)]
    assert len(set(ids)) == 1000
    assert all(len(request_id) == 32 and VALID.fullmatch(request_id) for request_id in ids)
