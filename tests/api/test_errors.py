"""Every bad input gets a clear problem+json 4xx, never a 500, never a settlement."""

import dataclasses
import json
from decimal import Decimal

import pytest

from service.contract.jsonio import loads
from service.contract.problems import MAX_TEXT
from service.server.middleware import BodyLimit

ROUND = {"cards": ["9S", "KH", "2D", "7C", "5H"]}
PROBLEM_KEYS = {"type", "title", "status", "detail", "instance"}


def post_raw(client, body, content_type="application/json", path="/v1/rounds"):
    return client.post(path, data=body, content_type=content_type)


def assert_problem(response, status, pointer=None, detail_part=None):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.get_json(force=True)
    assert body.keys() >= PROBLEM_KEYS
    assert body["status"] == status
    assert "settlement" not in body
    assert "Traceback" not in json.dumps(body)
    if pointer is not None:
        pointers = [e["pointer"] for e in body["errors"]]
        assert pointer in pointers, pointers
        if detail_part is not None:
            details = " ".join(e["detail"] for e in body["errors"] if e["pointer"] == pointer)
            assert detail_part in details, details
    elif detail_part is not None:
        assert detail_part in body["detail"], body["detail"]
    return body


@pytest.mark.parametrize(
    ("raw", "detail_part"),
    [
        ("{not json", "not valid JSON"),
        ("[" * 5000 + "]" * 5000, "nested too deeply"),
        ('{"cards": ["9S"], "bets": [{"type": "player", "amount": NaN}]}', "NaN"),
        ('{"bets": [{"type": "player", "amount": Infinity}]}', "Infinity"),
        ('{"bets": [{"type": "player", "amount": -Infinity}]}', "Infinity"),
        ('{"cards": ["9S"], "cards": ["KH"]}', "appears twice"),
        ("", "empty"),
        (b"\xff\xfe{", "JSON"),
    ],
)
def test_bodies_that_are_not_json_are_400(client, raw, detail_part):
    assert_problem(post_raw(client, raw), 400, detail_part=detail_part)


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": [1, 2.50, "x"]}',
        '{"a": 1}'.encode("utf-8-sig"),
        '{"a": 1}',
        '\ufeff{"a": 1}',
        b"\xff",
    ],
)
def test_the_body_parser_reads_utf_8_as_json_loads_reads_it(raw):
    """``loads`` reads UTF-8 (its byte order mark ignored) and text as ``json.loads`` does."""

    def outcome(parse):
        try:
            return parse(raw)
        except ValueError as error:  # BadRequest is not a ValueError: compare by kind
            return type(error).__name__
        except Exception as error:
            return "refused" if "400" in str(error) else repr(error)

    expected = outcome(lambda data: json.loads(data, parse_float=Decimal))
    got = outcome(loads)
    assert got == expected or (got == "InvalidJSON" and expected in ("JSONDecodeError", "UnicodeDecodeError"))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"])
def test_a_body_in_another_encoding_than_utf_8_is_400(client, encoding):
    """RFC 8259: JSON exchanged between systems is UTF-8 (json.loads alone would take these)."""
    raw = json.dumps(ROUND).encode(encoding)
    assert_problem(post_raw(client, raw), 400, detail_part="JSON")


@pytest.mark.parametrize(
    "content_type", ["application/json", "application/json; charset=utf-8", "application/ld+json"]
)
def test_json_content_types_are_accepted(client, content_type):
    assert post_raw(client, json.dumps(ROUND), content_type=content_type).status_code == 200


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"]
)
def test_wrong_content_type_is_415(client, content_type):
    assert_problem(post_raw(client, json.dumps(ROUND), content_type=content_type), 415)


def test_missing_content_type_is_415(client):
    response = client.post("/v1/rounds", data=json.dumps(ROUND))
    assert_problem(response, 415)


def bet(amount, kind="player"):
    return {**ROUND, "bets": [{"type": kind, "amount": amount}]}


@pytest.mark.parametrize(
    ("body", "pointer", "detail_part"),
    [
        (bet("1e3"), "/bets/0/amount", "exponent"),
        (bet("10.005"), "/bets/0/amount", "more than 2 decimal places"),
        (bet("-5"), "/bets/0/amount", "no sign"),
        (bet("0"), "/bets/0/amount", "greater than zero"),
        (bet("0.00"), "/bets/0/amount", "greater than zero"),
        (bet("NaN"), "/bets/0/amount", "NaN"),
        (bet("Infinity"), "/bets/0/amount", None),
        (bet(" 5"), "/bets/0/amount", None),
        (bet("5."), "/bets/0/amount", None),
        (bet("05"), "/bets/0/amount", None),
        (bet(True), "/bets/0/amount", None),
        (bet(None), "/bets/0/amount", None),
        (bet(["5"]), "/bets/0/amount", None),
        (bet("5", kind="dragon"), "/bets/0/type", "Must be one of"),
        ({**ROUND, "bets": [{"type": "player"}]}, "/bets/0/amount", "Missing"),
        (
            {**ROUND, "bets": [{"type": "player", "amount": "5", "colour": "red"}]},
            "/bets/0/colour",
            "Unknown",
        ),
        ({**ROUND, "surprise": 1}, "/surprise", "Unknown"),
        ({"cards": ["9S", "KH", "XX", "7C"]}, "/cards/2", "not a card code"),
        ({"cards": ["9S", "KH", 7, "7C"]}, "/cards/2", "string"),
        ({"cards": "9S KH 2D 7C"}, "/cards", None),
        ({"cards": []}, "/cards", None),
        ({"cards": ["9S", "KH", "2D", "7C"], "seed": "x"}, "/seed", "not both"),
        ({"seed": ""}, "/seed", None),
        ({"table": "nowhere"}, "/table", "Must be one of"),
        ({"rules": {"decks": 9}}, "/rules/decks", None),
        ({"rules": {"decks": True}}, "/rules/decks", None),
        ({"rules": {"tie_pays": 7}}, "/rules/tie_pays", None),
        ({"rules": {"commission": "0.5"}}, "/rules/commission", None),
        ({"rules": {"payout_rounding": "sideways"}}, "/rules/payout_rounding", None),
        ({"rules": {"limits": {"tie": {"min": "10", "max": "5"}}}}, "/rules/limits/tie/value/min", None),
        ([1, 2], "", None),
    ],
)
def test_invalid_fields_are_422_naming_the_field(client, body, pointer, detail_part):
    assert_problem(client.post("/v1/rounds", json=body), 422, pointer, detail_part)


def test_too_few_cards_says_which_card_and_why(client):
    body = assert_problem(
        client.post("/v1/rounds", json={"cards": ["9S", "KH", "2D", "7C"]}),
        422,
        "/cards/4",
        "the Player draws a third card",
    )
    assert body["type"] == "urn:baccarat:problem:missing-card"
    assert "needs 5 cards but only 4 were sent" in body["detail"]


def test_a_card_more_often_than_the_shoe_holds_is_422(client):
    assert_problem(client.post("/v1/rounds", json={"cards": ["AS"] * 9}), 422, "/cards/8", "more than 8")
    assert_problem(
        client.post("/v1/rounds", json={"cards": ["KH", "KH", "2D", "7C", "5H"], "rules": {"decks": 1}}),
        422,
        "/cards/1",
    )


def test_limits_name_each_offending_bet(client):
    body = {
        **ROUND,
        "bets": [
            {"type": "banker", "amount": "201"},
            {"type": "tie", "amount": "25"},
            {"type": "player", "amount": "0.99"},
            {"type": "player", "amount": "10"},
        ],
    }
    problem = assert_problem(client.post("/v1/rounds", json=body), 422)
    assert [e["pointer"] for e in problem["errors"]] == ["/bets/0/amount", "/bets/1/amount", "/bets/2/amount"]


def test_too_many_slips_is_422(client):
    slips = [{"id": "s", "bets": [{"type": "player", "amount": "1"}]}] * 10_001
    assert_problem(client.post("/v1/settlements", json={**ROUND, "slips": slips}), 422, "/slips")


def body_limit(app):
    """The BodyLimit layer of the WSGI stack (request ids and metrics wrap it)."""
    layer = app.wsgi_app
    while not isinstance(layer, BodyLimit):
        layer = layer.app
    return layer


def test_body_over_the_limit_is_413(app):
    body_limit(app).max_bytes = 1000
    response = app.test_client().post(
        "/v1/rounds", data=json.dumps({**ROUND, "pad": "x" * 2000}), content_type="application/json"
    )
    assert_problem(response, 413)


def test_chunked_body_over_the_limit_is_refused_not_truncated(app):
    limit = body_limit(app)
    environ_body = json.dumps({**ROUND, "bets": [{"type": "player", "amount": "10"}] * 200}).encode()
    limit.max_bytes = len(environ_body) - 10
    calls = []

    def start_response(status, headers):
        calls.append(status)

    import io

    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/v1/rounds",
        "wsgi.input": io.BytesIO(environ_body),
        "HTTP_TRANSFER_ENCODING": "chunked",
        "CONTENT_TYPE": "application/json",
    }
    body = b"".join(limit(environ, start_response))
    assert calls == ["413 Content Too Large"]
    assert json.loads(body)["status"] == 413


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/nowhere", 404),
        ("GET", "/v1/rounds", 405),
        ("DELETE", "/v1/tables", 405),
        ("POST", "/v1/nowhere", 404),
        # Never werkzeug's HTML redirect to the path with its slashes merged.
        ("GET", "/v1//tables", 404),
        ("POST", "//v1/rounds", 404),
        ("GET", "/v1/..%2ftables", 404),
    ],
)
def test_404_and_405_are_problems(client, method, path, status):
    response = client.open(path, method=method, json={})
    body = assert_problem(response, status)
    assert body["type"] == "about:blank"
    if status == 405:
        allowed = response.headers["Allow"].split(", ")
        assert allowed == sorted(allowed)


def test_a_long_path_is_quoted_cut(client):
    response = client.get("/" + "x" * 3000)
    body = assert_problem(response, 404)
    assert body["instance"] == "/" + "x" * (MAX_TEXT - 1) + "…"


def test_an_unexpected_error_is_a_problem_without_a_trace(app, monkeypatch):
    from service.api.views import rounds

    def explode(*args, **kwargs):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(rounds, "ROUND", dataclasses.replace(rounds.ROUND, play=explode))
    app.config["PROPAGATE_EXCEPTIONS"] = False
    response = app.test_client().post("/v1/rounds", json=ROUND)
    body = assert_problem(response, 500)
    assert "secret" not in json.dumps(body)


def test_a_number_too_long_to_read_is_said_in_the_service_s_words(client):
    """Past Python's 4,300 digits, the reason is the service's, not the interpreter's hint."""
    answer = post_raw(client, b'{"nonce": ' + b"9" * 5000 + b"}")
    assert_problem(answer, 400, detail_part="5000 digits")
    assert "sys." not in answer.get_json()["detail"]
    translated = client.post(
        "/v1/rounds",
        data=b'{"nonce": ' + b"9" * 5000 + b"}",
        content_type="application/json",
        headers={"Accept-Language": "ja"},
    )
    assert "5000" in translated.get_json()["detail"]
    assert "too long" not in translated.get_json()["detail"]
