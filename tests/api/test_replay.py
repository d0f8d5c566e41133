"""Where a replayed answer differs from the stored one: JSON Pointers, in document order."""

import json

import pytest

from service.api.replay import MAX_DEPTH, differences


@pytest.mark.parametrize(
    ("stored", "replayed", "found"),
    [
        ({"a": 1}, {"a": 1}, []),
        ({"a": 1}, {"a": 2}, [("/a", "1", "2")]),
        ({"a": 1}, {}, [("/a", "1", None)]),
        ({}, {"b": [1]}, [("/b", None, "[1]")]),
        ([1, 2], [1], [("/1", "2", None)]),
        ({"a/b": {"c~d": 1}}, {"a/b": {"c~d": 2}}, [("/a~1b/c~0d", "1", "2")]),
        ({"a": 1}, {"a": 1.0}, [("/a", "1", "1.0")]),
        ({"a": True}, {"a": 1}, [("/a", "true", "1")]),
        ("x", {"x": 1}, [("", '"x"', '{"x":1}')]),
    ],
)
def test_differences(stored, replayed, found):
    assert [(d.pointer, d.stored, d.replayed) for d in differences(stored, replayed)] == found


@pytest.mark.parametrize("depth", [33, 5_000, 100_000])
def test_a_stored_answer_that_nests_too_deeply_is_compared_as_bytes_not_parsed(client, depth):
    """However deep a stored answer nests, the replay answers (never a 500) and says the bytes differ."""
    body = json.dumps({"cards": ["9S", "KH", "2D", "7C", "5H"]})
    stored = "[" * depth + "]" * depth
    exchange = {
        "request": {"method": "POST", "url": "http://localhost/v1/rounds", "body": body},
        "response": {"status": 200, "headers": {"Content-Type": "application/json"}, "body": stored},
    }
    answer = client.post("/v1/replays", json=exchange)
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    replay = answer.get_json()["replay"]
    assert (replay["replayed"], replay["identical"], replay["signed_by"]) == (True, False, None)
    assert len(replay["differences"]) == 1


def test_a_stored_answer_as_deep_as_allowed_is_compared_field_by_field(client):
    nested = {"outcome": "player"}
    for _ in range(MAX_DEPTH - 1):
        nested = {"deeper": nested}
    body = json.dumps({"cards": ["9S", "KH", "2D", "7C", "5H"]})
    exchange = {
        "request": {"method": "POST", "url": "http://localhost/v1/rounds", "body": body},
        "response": {"status": 200, "headers": {}, "body": json.dumps(nested)},
    }
    differences = client.post("/v1/replays", json=exchange).get_json()["replay"]["differences"]
    assert differences[0]["pointer"] == "/deeper"


@pytest.mark.parametrize("language", ["th", "zh-Hant", "en"])
def test_a_stored_answer_replays_in_the_language_it_was_written_in(client, language):
    body = '{"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "tie", "amount": "5"}]}'
    answer = client.post(
        "/v1/rounds", data=body, content_type="application/json", headers={"Accept-Language": language}
    )
    assert answer.headers["Content-Language"] == language
    stored = {
        "request": {"method": "POST", "url": "http://localhost/v1/rounds", "body": body},
        "response": {"status": 200, "headers": dict(answer.headers), "body": answer.get_data(as_text=True)},
    }
    verdict = client.post("/v1/replays", json=stored, headers={"Accept-Language": "ko"}).get_json()
    assert verdict["signature"]["verified"] is True
    assert verdict["replay"]["identical"] is True
    relabelled = json.loads(json.dumps(stored))
    relabelled["response"]["headers"]["Content-Language"] = "vi" if language != "vi" else "en"
    verdict = client.post("/v1/replays", json=relabelled).get_json()
    assert verdict["signature"]["verified"] is False
    assert verdict["replay"]["identical"] is False


def signed_without_language(key, url: str, body: str, answer: bytes) -> dict[str, str]:
    """The headers of an answer signed as answers were before they covered
    ``content-language`` (docs/audit.md: such an answer is English)."""
    import base64
    import hashlib

    from service.contract.audit.signing import content_digest

    covered = (
        '("@status" "content-type" "content-digest" "@method";req "@target-uri";req "content-digest";req)'
    )
    params = f'{covered};created=1700000000;keyid="{key.public.kid}";alg="ed25519"'
    digest = content_digest(hashlib.sha256(answer).digest())
    base = "\n".join(
        [
            '"@status": 200',
            '"content-type": application/json',
            f'"content-digest": {digest}',
            '"@method";req: POST',
            f'"@target-uri";req: {url}',
            f'"content-digest";req: {content_digest(hashlib.sha256(body.encode()).digest())}',
            f'"@signature-params": {params}',
        ]
    )
    signature = base64.b64encode(key.private.sign(base.encode())).decode()
    return {
        "Content-Type": "application/json",
        "Content-Digest": digest,
        "Signature-Input": f"baccarat={params}",
        "Signature": f"baccarat=:{signature}:",
    }


@pytest.mark.parametrize("stored_header", ["th", "zh-Hant", None])
def test_an_answer_signed_without_its_language_replays_in_english(stored_header):
    """Its signature vouches for no language, and such an answer is English:
    an unsigned ``Content-Language`` stored beside it changes nothing."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from service.app import create_app
    from service.contract.audit.keys import SigningKey

    key = SigningKey(Ed25519PrivateKey.generate())
    client = create_app({"TESTING": True, "SIGNING_KEY": key.private}).test_client()
    body = '{"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "tie", "amount": "5"}]}'
    english = client.post("/v1/rounds", data=body, content_type="application/json").get_data()
    url = "http://localhost/v1/rounds"
    headers = signed_without_language(key, url, body, english)
    if stored_header is not None:
        headers["Content-Language"] = stored_header
    stored = {
        "request": {"method": "POST", "url": url, "body": body},
        "response": {"status": 200, "headers": headers, "body": english.decode()},
    }
    verdict = client.post("/v1/replays", json=stored).get_json()
    assert verdict["signature"]["verified"] is True, verdict
    assert (verdict["replay"]["identical"], verdict["replay"]["differences"]) == (True, [])
