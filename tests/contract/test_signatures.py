"""Signed answers: the signature binds the answer to its request, and any change breaks it."""

from __future__ import annotations

import datetime
import hashlib
import json
from dataclasses import replace
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from http_message_signatures import HTTPMessageSigner, HTTPSignatureKeyResolver, algorithms
from hypothesis import given, settings
from hypothesis import strategies as st

from service.contract.signatures import (
    COVERED,
    Exchange,
    PublicKey,
    SigningKey,
    StoredRequest,
    StoredResponse,
    content_digest,
    dumps_exchange,
    jwks,
    private_key,
    private_pem,
    public_keys,
    stored_exchange,
    thumbprint,
    verify,
)

KEY = SigningKey.generate()
REQUEST = StoredRequest("POST", "http://127.0.0.1:8000/v1/rounds", b'{"seed":"abc","bets":[]}')
BODY = b'{"outcome":"banker","engine":{"name":"baccarat-service","version":"0.1.0"}}'
UNSIGNED = Exchange(REQUEST, StoredResponse(200, {"Content-Type": "application/json"}, BODY))
SIGNED = UNSIGNED.with_headers(KEY.sign(REQUEST, 200, "application/json", BODY))


def test_a_signed_answer_verifies_with_the_published_key():
    verdict = verify(SIGNED, KEY.published)
    assert verdict.verified, verdict.reason
    assert verdict.keyid == KEY.public.kid
    assert verdict.ephemeral
    assert isinstance(verdict.created, int)


def test_the_signature_covers_what_docs_audit_md_says():
    signature_input = SIGNED.response.headers["Signature-Input"]
    assert signature_input.startswith('baccarat=("@status" "content-type" "content-digest" "@method";req ')
    assert '"@target-uri";req "content-digest";req)' in signature_input
    for parameter in ("created=", f'keyid="{KEY.public.kid}"', 'alg="ed25519"'):
        assert parameter in signature_input
    assert len(COVERED) == 6


def test_created_is_the_signing_time():
    when = datetime.datetime(2026, 12, 2, 12, 0, tzinfo=datetime.UTC)
    headers = KEY.sign(REQUEST, 200, "application/json", BODY, created=when)
    assert f"created={int(when.timestamp())};" in headers["Signature-Input"]
    assert verify(UNSIGNED.with_headers(headers), KEY.published).created == int(when.timestamp())


TAMPERED = {
    "request method": replace(SIGNED, request=replace(REQUEST, method="PUT")),
    "request url": replace(SIGNED, request=replace(REQUEST, url="http://127.0.0.1:8000/v1/settlements")),
    "request query": replace(SIGNED, request=replace(REQUEST, url=REQUEST.url + "?x=1")),
    "request body": replace(SIGNED, request=replace(REQUEST, body=REQUEST.body.replace(b"abc", b"abd"))),
    "answer body": SIGNED.with_body(BODY.replace(b"banker", b"player")),
    "answer status": replace(SIGNED, response=replace(SIGNED.response, status=201)),
    "content type": SIGNED.with_headers({"Content-Type": "text/plain"}),
    "digest": SIGNED.with_headers(
        {"Content-Digest": KEY.sign(REQUEST, 200, "x", b"other")["Content-Digest"]}
    ),
    "signature": SIGNED.with_headers(
        {"Signature": SIGNED.response.headers["Signature"].replace(":", ":A", 1).replace("A", "B", 1)}
    ),
    "created": SIGNED.with_headers(
        {"Signature-Input": SIGNED.response.headers["Signature-Input"].replace("created=", "created=1")}
    ),
    "no signature": UNSIGNED,
}


@pytest.mark.parametrize("exchange", TAMPERED.values(), ids=TAMPERED.keys())
def test_a_changed_exchange_fails(exchange):
    verdict = verify(exchange, KEY.published)
    assert not verdict.verified
    assert verdict.reason


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_any_changed_byte_of_the_answer_or_the_request_fails(data):
    which = data.draw(st.sampled_from(["answer", "request"]))
    original = BODY if which == "answer" else REQUEST.body
    at = data.draw(st.integers(0, len(original) - 1))
    byte = data.draw(st.integers(0, 255).filter(lambda b: b != original[at]))
    changed = original[:at] + bytes([byte]) + original[at + 1 :]
    exchange = (
        SIGNED.with_body(changed)
        if which == "answer"
        else replace(SIGNED, request=replace(REQUEST, body=changed))
    )
    assert not verify(exchange, KEY.published).verified


def test_another_key_does_not_verify_it():
    verdict = verify(SIGNED, SigningKey.generate().published)
    assert not verdict.verified
    assert KEY.public.kid in verdict.reason


def test_after_a_rotation_the_earlier_key_still_verifies_what_it_signed():
    rotated = SigningKey(SigningKey.generate().private, earlier=(PublicKey(KEY.private.public_key()),))
    assert [key.kid for key in rotated.published] == [rotated.public.kid, KEY.public.kid]
    assert verify(SIGNED, public_keys(jwks(rotated.published))).verified


def test_the_key_id_is_the_rfc_7638_thumbprint():
    # RFC 8037, appendix A.2 and A.3: the Ed25519 key and its JWK thumbprint.
    x = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    assert thumbprint(Ed25519PublicKey.from_public_bytes(x)) == "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"


def test_the_jwks_marks_an_ephemeral_key_and_only_it():
    configured = SigningKey(KEY.private)
    assert "ephemeral" not in jwks(configured.published)["keys"][0]
    assert jwks(KEY.published)["keys"][0]["ephemeral"] is True
    assert public_keys(jwks(KEY.published))[0].ephemeral


def test_a_private_key_round_trips_through_pem():
    assert private_key(private_pem(KEY.private).encode()).public_key() == KEY.private.public_key()


@pytest.mark.parametrize(
    "pem", [b"not a key", b"", b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"]
)
def test_what_is_not_a_pem_private_key_is_refused(pem):
    with pytest.raises(ValueError, match="not an unencrypted PEM private key"):
        private_key(pem)


def test_a_key_of_another_kind_is_refused():
    pem = generate_private_key(SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    with pytest.raises(ValueError, match="not an Ed25519 key"):
        private_key(pem)


@pytest.mark.parametrize(
    ("document", "says"),
    [
        ([], "not a JWK Set"),
        ({"keys": {}}, "not a JWK Set"),
        ({"keys": [{"kty": "RSA", "n": "x"}]}, "key 0 is not an Ed25519 key"),
        ({"keys": [{"kty": "OKP", "crv": "Ed25519", "x": "short"}]}, "key 0: x is not"),
    ],
)
def test_a_jwks_that_is_not_ed25519_keys_is_refused(document, says):
    with pytest.raises(ValueError, match=says):
        public_keys(document)


def test_a_stored_exchange_round_trips_through_its_json():
    assert stored_exchange(json.loads(dumps_exchange(SIGNED))) == SIGNED


@pytest.mark.parametrize(
    ("document", "says"),
    [
        ({}, "request: an object"),
        ({"request": {}, "response": {}}, "response/headers"),
        ({"request": {"method": "POST"}, "response": {"headers": {}, "status": 200}}, "request/url"),
        ({"request": {}, "response": {"headers": {}, "status": True}}, "response/status"),
    ],
)
def test_a_malformed_stored_exchange_names_its_part(document, says):
    with pytest.raises(ValueError, match=says):
        stored_exchange(document)


# --- the hand-written signature base, held to the library's signer ------------------


class LibraryHeaders(dict[str, str]):
    """Header fields as http-message-signatures reads them."""


class LibraryRequest:
    def __init__(self, method: str, url: str, body: bytes) -> None:
        self.method, self.url = method, url
        self.headers = LibraryHeaders({"Content-Digest": content_digest(hashlib.sha256(body).digest())})


class LibraryResponse:
    def __init__(self, status: int, content_type: str, request: LibraryRequest) -> None:
        self.status_code, self.request = status, request
        self.headers = LibraryHeaders({"Content-Type": content_type})


class OneKey(HTTPSignatureKeyResolver):
    def __init__(self, key: SigningKey) -> None:
        self.key = key

    def resolve_private_key(self, key_id: str) -> Any:
        return self.key.private

    def resolve_public_key(self, key_id: str) -> Any:
        return self.key.public.key


def library_signature(
    key: SigningKey, request: StoredRequest, status: int, content_type: str, body: bytes, created
):
    """The headers http-message-signatures' own signer makes for this answer."""
    answer = LibraryResponse(status, content_type, LibraryRequest(request.method, request.url, request.body))
    signer = HTTPMessageSigner(signature_algorithm=algorithms.ED25519, key_resolver=OneKey(key))
    signer.sign(
        answer,
        key_id=key.public.kid,
        created=created,
        label="baccarat",
        covered_component_ids=COVERED,
        body=body,
    )
    return {name: answer.headers[name] for name in ("Content-Digest", "Signature-Input", "Signature")}


hosts = st.from_regex(r"\A[a-z0-9]([a-z0-9.-]{0,20}[a-z0-9])?(:[0-9]{1,5})?\Z")
segments = st.from_regex(r"\A([A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-F]{2}){0,12}\Z")
paths = st.lists(segments, max_size=4).map("/".join)
queries = st.from_regex(r"\A([A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-F]{2}){0,20}\Z")


@settings(max_examples=60, deadline=None)
@given(
    host=hosts,
    path=paths,
    query=queries,
    status=st.sampled_from([200, 201, 422]),
    content_type=st.sampled_from(["application/json", "image/svg+xml", "application/problem+json"]),
    request_body=st.binary(max_size=200),
    body=st.binary(max_size=200),
    created=st.integers(min_value=0, max_value=2**33),
)
def test_the_signature_is_byte_for_byte_the_librarys(
    host, path, query, status, content_type, request_body, body, created
):
    url = f"http://{host}/{path}" + (f"?{query}" if query else "")
    request = StoredRequest("POST", url, request_body)
    when = datetime.datetime.fromtimestamp(created, datetime.UTC)
    ours = KEY.sign(request, status, content_type, body, created=when)
    assert ours == library_signature(KEY, request, status, content_type, body, when)
