"""The signing layer: the 200 answers that deal or settle are signed, nothing else is,
and the request's digest is of every byte it sent, read or not."""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.app import create_app
from service.contract.audit.exchange import Exchange, StoredRequest, StoredResponse
from service.contract.audit.keys import SigningKey
from service.contract.audit.signing import content_digest
from service.contract.audit.verification import verify
from service.server.signing import HashingReader, Signing, signing_key, target_uri

ROUND = json.dumps({"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "10"}]})
BODIES = {
    "/v1/rounds": ROUND,
    "/v1/rounds/live": json.dumps({"cards": ["9S", "KH"]}),
    "/v1/rounds/peek": json.dumps({"seed": "abc", "bets": [{"type": "player", "amount": "5"}]}),
    "/v1/settlements": json.dumps(
        {"seed": "abc", "slips": [{"id": "s1", "bets": [{"type": "tie", "amount": "5"}]}]}
    ),
    "/v1/shoes": json.dumps({"seed": "abc", "to_round": 2}),
    "/v1/seeds": "{}",
    "/v1/rules-sheets": json.dumps({"table": "standard"}),
}


@pytest.fixture(scope="module")
def key() -> SigningKey:
    return SigningKey(Ed25519PrivateKey.generate())


@pytest.fixture(scope="module")
def signed_client(key):
    app = create_app({"TESTING": True, "SIGNING_KEY": key.private})
    return app.test_client()


def exchange(path: str, body: str, answer) -> Exchange:
    return Exchange(
        StoredRequest("POST", f"http://localhost{path}", body.encode()),
        StoredResponse(answer.status_code, dict(answer.headers), answer.get_data()),
    )


@pytest.mark.parametrize("path", sorted(BODIES))
def test_an_answer_that_deals_or_settles_is_signed_by_the_configured_key(signed_client, key, path):
    answer = signed_client.post(path, data=BODIES[path], content_type="application/json")
    assert answer.status_code == 200, answer.get_json()
    verdict = verify(exchange(path, BODIES[path], answer), key.published)
    assert verdict.verified, verdict.reason
    assert not verdict.ephemeral


def test_the_signed_operations_are_those_the_docs_list(signed_client):
    """Every signed operation (its policy says so) has a body above, and
    docs/audit.md's table of signed operations lists exactly them."""
    signed = {rule for _, rule, _, policy in signed_client.application.services.operations if policy.signed}
    assert {*BODIES, "/v1/replays"} == signed
    audit = (Path(__file__).parents[2] / "docs" / "audit.md").read_text(encoding="utf-8")
    table = audit.split("## What is signed, and why", 1)[1].split("\n\n")[2]
    assert set(re.findall(r"^\| `POST (/v1/[a-z/-]+)` \|", table, flags=re.MULTILINE)) == signed


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/v1/tables", None),
        ("POST", "/v1/roads", json.dumps({"results": ["banker"]})),
        ("POST", "/v1/odds", "{}"),
        ("POST", "/v1/rounds", json.dumps({"cards": ["9S"]})),  # a 422
        ("POST", "/v1/rounds", "{"),  # a 400
    ],
)
def test_other_answers_carry_no_signature(signed_client, method, path, body):
    answer = signed_client.open(path, method=method, data=body, content_type="application/json")
    assert "Signature" not in answer.headers
    assert "Signature-Input" not in answer.headers


def test_the_request_digest_covers_bytes_the_app_did_not_read():
    key = SigningKey.generate()
    sent = b'{"a":1}' + b" " * 100

    def app(environ, start_response):
        environ["wsgi.input"].read(3)  # the app stops early
        start_response("200 OK", [("Content-Type", "application/json")])
        return [b"{}"]

    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": "/v1/rounds",
        "CONTENT_LENGTH": str(len(sent)),
        "wsgi.input": io.BytesIO(sent),
        "wsgi.url_scheme": "http",
        "HTTP_HOST": "table.example:8000",
    }
    got = {}
    signing = Signing(app, key, lambda environ: environ["PATH_INFO"] == "/v1/rounds")
    body = b"".join(signing(environ, lambda status, headers, *_: got.update(headers)))
    stored = Exchange(
        StoredRequest("POST", "http://table.example:8000/v1/rounds", sent), StoredResponse(200, got, body)
    )
    assert verify(stored, key.published).verified


def test_the_hashing_reader_passes_the_bytes_on_and_keeps_only_their_hash():
    reader = HashingReader(io.BytesIO(b"line one\nline two\nrest"), 22)
    assert reader.readline() == b"line one\n"
    assert reader.read(4) == b"line"
    assert content_digest(reader.rest()) == content_digest(
        hashlib.sha256(b"line one\nline two\nrest").digest()
    )
    assert reader.read() == b""


@pytest.mark.parametrize(
    ("environ", "uri"),
    [
        ({"HTTP_HOST": "h:8000", "PATH_INFO": "/v1/rounds"}, "http://h:8000/v1/rounds"),
        ({"SERVER_NAME": "h", "SERVER_PORT": "80", "PATH_INFO": "/v1/rounds"}, "http://h/v1/rounds"),
        ({"SERVER_NAME": "h", "SERVER_PORT": "81", "PATH_INFO": "/x"}, "http://h:81/x"),
        ({"HTTP_HOST": "h", "PATH_INFO": "/v1/shoes", "QUERY_STRING": "a=1"}, "http://h/v1/shoes?a=1"),
        ({"HTTP_HOST": "h", "PATH_INFO": "/caf\xc3\xa9", "wsgi.url_scheme": "https"}, "https://h/caf%C3%A9"),
    ],
)
def test_the_target_uri_is_the_request_s_as_received(environ, uri):
    assert target_uri(environ) == uri


def test_without_a_configured_key_the_app_makes_an_ephemeral_one(caplog):
    key = signing_key({})
    assert key.ephemeral
    assert key.public.ephemeral
    assert "BACCARAT_SIGNING_KEY_FILE is not set" in caplog.text


def test_a_configured_key_is_not_ephemeral_and_publishes_the_earlier_keys():
    earlier = SigningKey.generate().public
    key = signing_key({"SIGNING_KEY": SigningKey.generate().private, "PUBLISHED_KEYS": (earlier,)})
    assert not key.ephemeral
    assert [k.kid for k in key.published] == [key.public.kid, earlier.kid]


@pytest.mark.parametrize(
    ("header", "value", "says"),
    [
        ("Host", "ex\u00e9mple.com", "the Host header"),
        ("Host", 'a"b', "the Host header"),
        ("Host", "a b", "the Host header"),
        ("Host", "[::zz]", "the Host header"),
        ("Host", "[not-ipv6]:8000", "the Host header"),
        (None, "%zz", "the query"),
        (None, "a{b}", "the query"),
    ],
)
def test_a_request_whose_uri_cannot_be_signed_is_refused_before_it_is_dealt(
    signed_client, header, value, says
):
    """A Host or query no URI can hold would make a signature nobody can check: 400, nothing settled."""
    headers = {header: value} if header else {}
    query = "" if header else value
    answer = signed_client.post(
        "/v1/rounds", data=ROUND, content_type="application/json", headers=headers, query_string=query
    )
    assert answer.status_code == 400
    assert answer.content_type == "application/problem+json"
    assert says in answer.get_json()["detail"]
    assert "Signature" not in answer.headers


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "[::1]:8000", "baccarat.example", "b%41ccarat.example"])
def test_a_request_from_any_uri_host_is_signed_and_verifies(signed_client, key, host):
    answer = signed_client.post(
        "/v1/rounds", data=ROUND, content_type="application/json", headers={"Host": host}
    )
    assert answer.status_code == 200
    stored = Exchange(
        StoredRequest("POST", f"http://{host}/v1/rounds", ROUND.encode()),
        StoredResponse(200, dict(answer.headers), answer.get_data()),
    )
    assert verify(stored, key.published).verified
