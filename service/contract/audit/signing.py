"""The signature an answer that deals or settles carries: HTTP Message
Signatures (RFC 9421) with Ed25519, label ``baccarat``.

It covers :data:`COVERED`: the answer's status, ``content-type``,
``content-language`` (the language its words are written in) and
``content-digest`` (RFC 9530, sha-256 of the answer's bytes), and the
request's method, target URI and content digest (the ``req`` parameter). So
a stored answer is bound to the request that produced it, and a third party
holding the published key (:mod:`.keys`) can check that neither was changed
by a byte (:mod:`.verification`). The signature parameters are ``created``,
``keyid`` (the key's thumbprint) and ``alg``.

>>> from .exchange import StoredRequest
>>> key = SigningKey.generate()
>>> headers = sign(key, StoredRequest("POST", "http://127.0.0.1:8000/v1/rounds", b"{}"),
...                200, "application/json", b'{"outcome":"tie"}')
>>> sorted(headers) == sorted(SIGNATURE_HEADERS) and headers["Content-Language"]
'en'
"""

from __future__ import annotations

import base64
import datetime
import hashlib

from .exchange import StoredRequest
from .keys import SigningKey

#: The label of the service's signature in ``Signature-Input`` and ``Signature``.
LABEL = "baccarat"
#: What the signature covers, in this order (RFC 9421 component identifiers).
COVERED = (
    "@status",
    "content-type",
    "content-language",
    "content-digest",
    '"@method";req',
    '"@target-uri";req',
    '"content-digest";req',
)
#: What a signature must cover to be verified: :data:`COVERED` but the
#: language, which answers signed before they were written in seven
#: languages do not cover (they are English).
REQUIRED = tuple(component for component in COVERED if component != "content-language")
#: The covered components as the inner list of ``Signature-Input`` writes them.
_COVERED_LIST = "(" + " ".join(c if c.startswith('"') else f'"{c}"' for c in COVERED) + ")"
#: The headers an answer's signature adds, and a stored exchange must keep.
SIGNATURE_HEADERS = ("Content-Language", "Content-Digest", "Signature-Input", "Signature")


def content_digest(sha256: bytes) -> str:
    """The RFC 9530 ``Content-Digest`` value of a sha-256 digest."""
    return f"sha-256=:{base64.b64encode(sha256).decode('ascii')}:"


def sign(
    key: SigningKey,
    request: StoredRequest,
    status: int,
    content_type: str,
    body: bytes,
    *,
    content_language: str = "en",
    created: datetime.datetime | None = None,
) -> dict[str, str]:
    """The headers that sign this answer to this request: ``Content-Digest``,
    ``Signature-Input`` and ``Signature``, with the ``Content-Language`` they cover."""
    request_sha256 = hashlib.sha256(request.body).digest()
    return {"Content-Language": content_language} | sign_answer(
        key,
        request.method,
        request.url,
        request_sha256,
        status,
        content_type,
        body,
        content_language=content_language,
        created=created,
    )


def sign_answer(
    key: SigningKey,
    method: str,
    uri: str,
    request_sha256: bytes,
    status: int,
    content_type: str,
    body: bytes,
    *,
    content_language: str,
    created: datetime.datetime | None = None,
) -> dict[str, str]:
    """The signature headers of :func:`sign` (the answer has its
    ``Content-Language`` already), for a request of which only the sha-256 of its body
    is known (the service hashes a request's bytes as the app reads them).

    The signature base of :data:`COVERED` is written here (RFC 9421,
    section 2.5): its components are fixed, so it is eight lines. The
    library's signer serialises each structured field anew in pure Python,
    which made signing nearly half of a round's time (docs/performance.md).
    tests/contract/audit/test_signing.py holds these headers byte for byte
    to what the library's signer makes, and the library verifies them
    (:mod:`.verification`).
    """
    when = int((created or datetime.datetime.now(datetime.UTC)).timestamp())
    digest = content_digest(hashlib.sha256(body).digest())
    params = f'{_COVERED_LIST};created={when};keyid="{key.public.kid}";alg="ed25519"'
    base = "\n".join(
        (
            f'"@status": {status}',
            f'"content-type": {content_type.strip()}',
            f'"content-language": {content_language.strip()}',
            f'"content-digest": {digest}',
            f'"@method";req: {method}',
            f'"@target-uri";req: {uri}',
            # The request's digest is the service's own, of the bytes it read: a
            # caller's Content-Digest header, if any, is neither trusted nor needed.
            f'"content-digest";req: {content_digest(request_sha256)}',
            f'"@signature-params": {params}',
        )
    )
    signature = base64.b64encode(key.private.sign(base.encode("ascii"))).decode("ascii")
    return {
        "Content-Digest": digest,
        "Signature-Input": f"{LABEL}={params}",
        "Signature": f"{LABEL}=:{signature}:",
    }
