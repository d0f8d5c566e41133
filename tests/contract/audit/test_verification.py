"""The verdict on a stored exchange: the signature binds the answer to its request,
and any change breaks it."""

from __future__ import annotations

import datetime
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.contract.audit.keys import SigningKey
from service.contract.audit.signing import sign
from service.contract.audit.verification import verify

from .fixtures import BODY, KEY, REQUEST, SIGNED, UNSIGNED


def test_a_signed_answer_verifies_with_the_published_key():
    verdict = verify(SIGNED, KEY.published)
    assert verdict.verified, verdict.reason
    assert verdict.keyid == KEY.public.kid
    assert verdict.ephemeral
    assert isinstance(verdict.created, int)


def test_created_is_the_signing_time():
    when = datetime.datetime(2026, 12, 2, 12, 0, tzinfo=datetime.UTC)
    headers = sign(KEY, REQUEST, 200, "application/json", BODY, created=when)
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
        {"Content-Digest": sign(KEY, REQUEST, 200, "x", b"other")["Content-Digest"]}
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
