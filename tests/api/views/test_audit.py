"""GET /.well-known/jwks.json and POST /v1/replays."""

from __future__ import annotations

import json
import re

import pytest

from service.app import create_app
from service.contract.audit.exchange import Exchange, StoredRequest, StoredResponse, exchange_document
from service.provenance.build import engine

ROUND = json.dumps({"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "10"}]})
KEY = "audit-key-0123456789"


def stored(client, path: str = "/v1/rounds", body: str = ROUND, **headers: str) -> dict:
    answer = client.post(path, data=body, content_type="application/json", headers=headers)
    exchange = Exchange(
        StoredRequest("POST", f"http://localhost{path}", body.encode()),
        StoredResponse(answer.status_code, dict(answer.headers), answer.get_data()),
    )
    return exchange_document(exchange)


def test_the_jwks_lists_the_signing_key(client):
    answer = client.get("/.well-known/jwks.json")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "public, max-age=300"
    [key] = answer.get_json()["keys"]
    assert {key["kty"], key["crv"], key["alg"], key["use"]} == {"OKP", "Ed25519", "EdDSA", "sig"}
    assert key["ephemeral"] is True  # the test app has no configured key
    signature_input = client.post("/v1/rounds", data=ROUND, content_type="application/json").headers[
        "Signature-Input"
    ]
    assert f'keyid="{key["kid"]}"' in signature_input


def test_the_jwks_names_the_engine_and_its_digest(client):
    """RFC 7517 section 5 lets a JWK Set carry members of its own: the build whose answers it signs."""
    document = client.get("/.well-known/jwks.json").get_json()
    assert document["engine"] == engine()
    assert re.fullmatch(r"[0-9a-f]{64}", document["engine"]["digest"])
    assert (
        document["engine"]
        == client.post("/v1/rounds", data=ROUND, content_type="application/json").json["engine"]
    )


def test_the_jwks_is_public_when_the_api_needs_a_key():
    client = create_app({"TESTING": True, "API_KEYS": (KEY,)}).test_client()
    assert client.get("/.well-known/jwks.json").status_code == 200
    assert client.post("/v1/replays", json={}).status_code == 401


def test_a_stored_round_verifies_and_replays_identically(client):
    verdict = client.post("/v1/replays", json=stored(client)).get_json()
    assert verdict["signature"]["verified"] is True
    assert verdict["replay"] == {
        "replayed": True,
        "identical": True,
        "reason": "the replay gave the same status and the same bytes",
        "status": 200,
        "signed_by": engine(),
        "engine": engine(),
        "same_build": True,
        "differences": [],
        "more_differences": 0,
        "table": {"name": "standard", "now": "same_rules"},
    }
    assert engine()["name"] == "baccarat-service"
    assert engine()["version"] == "1.0.0"


@pytest.mark.parametrize(
    ("named", "same_build", "pointers"),
    [
        ({"name": "baccarat-service", "version": "1.0.0", "digest": "0" * 64}, False, ["/engine/digest"]),
        ({"name": "baccarat-service", "version": "1.0.0"}, None, ["/engine/digest"]),
    ],
    ids=["another build", "no digest"],
)
def test_a_replay_says_when_the_stored_answer_is_another_build_s(client, named, same_build, pointers):
    """Same version, other files (or an answer that names none): the replay says so, and where."""
    document = stored(client)
    answer = json.loads(document["response"]["body"])
    answer["engine"] = named
    document["response"]["body"] = json.dumps(answer, separators=(",", ":"))
    replay = client.post("/v1/replays", json=document).get_json()["replay"]
    assert (replay["signed_by"], replay["engine"]) == (named, engine())
    assert replay["same_build"] is same_build
    assert [difference["pointer"] for difference in replay["differences"]] == pointers


@pytest.mark.parametrize(
    ("path", "body"),
    [
        (
            "/v1/settlements",
            json.dumps({"seed": "abc", "slips": [{"id": "s", "bets": [{"type": "tie", "amount": "1"}]}]}),
        ),
        ("/v1/shoes", json.dumps({"seed": "abc", "to_round": 3})),
        ("/v1/rounds/live", json.dumps({"cards": ["9S", "KH", "2D"]})),
    ],
)
def test_every_deterministic_operation_replays_identically(client, path, body):
    verdict = client.post("/v1/replays", json=stored(client, path, body)).get_json()
    assert verdict["signature"]["verified"] is True
    assert verdict["replay"]["identical"] is True


def test_a_changed_answer_fails_the_signature_and_the_replay_says_where(client):
    document = stored(client)
    answer = json.loads(document["response"]["body"])
    answer["settlement"]["net"] = "1000.00"
    document["response"]["body"] = json.dumps(answer, separators=(",", ":"))
    verdict = client.post("/v1/replays", json=document).get_json()
    assert verdict["signature"]["verified"] is False
    assert "Content-Digest" in verdict["signature"]["reason"]
    assert verdict["replay"]["identical"] is False
    [difference] = verdict["replay"]["differences"]
    assert difference["pointer"] == "/settlement/net"
    assert difference["stored"] == '"1000.00"'


def test_a_changed_request_fails_the_signature(client):
    document = stored(client)
    document["request"]["body"] = document["request"]["body"].replace('"10"', '"100"')
    verdict = client.post("/v1/replays", json=document).get_json()
    assert verdict["signature"]["verified"] is False
    assert verdict["replay"]["identical"] is False


def test_a_new_seed_is_checked_but_not_replayed(client):
    verdict = client.post("/v1/replays", json=stored(client, "/v1/seeds", "{}")).get_json()
    assert verdict["signature"]["verified"] is True
    assert verdict["replay"]["replayed"] is False
    assert "random" in verdict["replay"]["reason"]


def test_a_replay_runs_with_the_caller_s_key():
    client = create_app({"TESTING": True, "API_KEYS": (KEY,)}).test_client()
    auth = {"Authorization": f"Bearer {KEY}"}
    document = stored(client, **auth)
    verdict = client.post("/v1/replays", json=document, headers=auth).get_json()
    assert verdict["replay"]["identical"] is True


@pytest.mark.parametrize(
    ("document", "pointer"),
    [
        ({"request": {"method": "POST", "url": "http://h/v1/rounds", "body": "{}"}}, "/response"),
        (
            {
                "request": {"method": "POST", "url": "http://h/v1/rounds", "body": "{}"},
                "response": {"status": 200, "headers": {f"h{i}": "v" for i in range(40)}, "body": "{}"},
            },
            "/response/headers",
        ),
        (
            {
                "request": {"method": "POST", "url": "http://h/v1/rounds", "body": 3},
                "response": {"status": 200, "headers": {}, "body": "{}"},
            },
            "/request/body",
        ),
    ],
)
def test_a_malformed_exchange_is_a_422_naming_the_part(client, document, pointer):
    answer = client.post("/v1/replays", json=document)
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["pointer"] == pointer


@pytest.mark.parametrize(
    "body",
    [
        "",  # 400: empty
        "{",  # 400: not JSON
        "[1]",  # 422: not an object
        json.dumps({"cards": ["9S", "KH", "2D"], "bets": [{"type": "banker", "amount": "1.001"}]}),  # schema
        json.dumps({"cards": ["9S", "KH", "2D"]}),  # the rules: a card missing
        json.dumps({"cards": ["AS"] * 9, "rules": {"decks": 1}}),  # the rules: more than the shoe holds
    ],
)
def test_a_stored_problem_replays_to_the_same_bytes(client, body):
    """A request the operation refuses gets, on replay, the very problem a caller got."""
    document = stored(client, "/v1/rounds", body)
    assert document["response"]["status"] in {400, 422}
    verdict = client.post("/v1/replays", json=document).get_json()
    assert verdict["replay"]["identical"] is True, verdict["replay"]


@pytest.mark.parametrize("media", ["text/html", "text/markdown"])
def test_a_tampered_sheet_page_replays_with_its_changed_lines(client, media):
    """A page shown to players is text: the replay names the lines changed
    (here the Banker's return), never "the same JSON, written otherwise"."""
    document = stored(client, "/v1/rules-sheets", json.dumps({"table": "standard"}), Accept=media)
    page = document["response"]["body"]
    assert "98.94%" in page
    document["response"]["body"] = page.replace("98.94%", "99.94%")
    replay = client.post("/v1/replays", json=document).get_json()["replay"]
    assert replay["identical"] is False
    assert replay["differences"]
    assert all(difference["pointer"].startswith("/lines/") for difference in replay["differences"])
    # The stored page says 99.94% where the replay writes the engine's 98.94%.
    for difference in replay["differences"]:
        assert "99.94%" in (difference["stored"] or "")
        assert "98.94%" in (difference["replayed"] or "")
    assert "written otherwise" not in replay["reason"]
