"""The signature an answer carries: what it covers, and its base written
byte for byte as http-message-signatures' own signer writes it."""

from __future__ import annotations

import datetime
import hashlib
from typing import Any

from http_message_signatures import HTTPMessageSigner, HTTPSignatureKeyResolver, algorithms
from hypothesis import given, settings
from hypothesis import strategies as st

from service.contract.audit.exchange import StoredRequest
from service.contract.audit.keys import SigningKey
from service.contract.audit.signing import COVERED, SIGNATURE_HEADERS, content_digest, sign

from .fixtures import KEY, SIGNED


def test_the_signature_covers_what_docs_audit_md_says():
    signature_input = SIGNED.response.headers["Signature-Input"]
    assert signature_input.startswith(
        'baccarat=("@status" "content-type" "content-language" "content-digest" "@method";req '
    )
    assert '"@target-uri";req "content-digest";req)' in signature_input
    for parameter in ("created=", f'keyid="{KEY.public.kid}"', 'alg="ed25519"'):
        assert parameter in signature_input
    assert len(COVERED) == 7
    assert set(SIGNATURE_HEADERS) <= set(SIGNED.response.headers)


# --- the hand-written signature base, held to the library's signer ------------------


class LibraryHeaders(dict[str, str]):
    """Header fields as http-message-signatures reads them."""


class LibraryRequest:
    def __init__(self, method: str, url: str, body: bytes) -> None:
        self.method, self.url = method, url
        self.headers = LibraryHeaders({"Content-Digest": content_digest(hashlib.sha256(body).digest())})


class LibraryResponse:
    def __init__(self, status: int, content_type: str, language: str, request: LibraryRequest) -> None:
        self.status_code, self.request = status, request
        self.headers = LibraryHeaders({"Content-Type": content_type, "Content-Language": language})


class OneKey(HTTPSignatureKeyResolver):
    def __init__(self, key: SigningKey) -> None:
        self.key = key

    def resolve_private_key(self, key_id: str) -> Any:
        return self.key.private

    def resolve_public_key(self, key_id: str) -> Any:
        return self.key.public.key


def library_signature(
    key: SigningKey,
    request: StoredRequest,
    status: int,
    content_type: str,
    language: str,
    body: bytes,
    created: datetime.datetime,
) -> dict[str, str]:
    """The headers http-message-signatures' own signer makes for this answer."""
    library_request = LibraryRequest(request.method, request.url, request.body)
    answer = LibraryResponse(status, content_type, language, library_request)
    signer = HTTPMessageSigner(signature_algorithm=algorithms.ED25519, key_resolver=OneKey(key))
    signer.sign(
        answer,
        key_id=key.public.kid,
        created=created,
        label="baccarat",
        covered_component_ids=COVERED,
        body=body,
    )
    return {name: answer.headers[name] for name in SIGNATURE_HEADERS}


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
    language=st.sampled_from(["en", "th", "zh-Hant"]),
    request_body=st.binary(max_size=200),
    body=st.binary(max_size=200),
    created=st.integers(min_value=0, max_value=2**33),
)
def test_the_signature_is_byte_for_byte_the_librarys(
    host, path, query, status, content_type, language, request_body, body, created
):
    url = f"http://{host}/{path}" + (f"?{query}" if query else "")
    request = StoredRequest("POST", url, request_body)
    when = datetime.datetime.fromtimestamp(created, datetime.UTC)
    ours = sign(KEY, request, status, content_type, body, content_language=language, created=when)
    assert ours == library_signature(KEY, request, status, content_type, language, body, when)
