"""The verdict on a stored exchange: does its signature hold against the published keys?

Signatures are verified by the ``http-message-signatures`` library
(maintained, typed, tested against the RFC's own examples), which reads
the message views below; the keys are those of a JWK Set (:mod:`.keys`).

>>> from .exchange import Exchange, StoredRequest, StoredResponse
>>> from .keys import SigningKey
>>> from .signing import sign
>>> key = SigningKey.generate()
>>> exchange = Exchange(
...     request=StoredRequest("POST", "http://127.0.0.1:8000/v1/rounds", b'{"cards":[]}'),
...     response=StoredResponse(200, {"Content-Type": "application/json"}, b'{"outcome":"tie"}'),
... )
>>> signed = exchange.with_headers(sign(key, exchange.request, 200, "application/json", b'{"outcome":"tie"}'))
>>> verify(signed, (key.public,)).verified
True
>>> verify(signed.with_body(b'{"outcome":"banker"}'), (key.public,)).reason
'the answer is not the one signed: its Content-Digest does not match its bytes'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from http_message_signatures import (
    ContentDigest,
    HTTPMessageSignaturesException,
    HTTPMessageVerifier,
    HTTPSignatureKeyResolver,
    algorithms,
)

from ...baccarat.rulebook.errors import N_, Sentence
from .exchange import Exchange
from .keys import PublicKey
from .signing import REQUIRED, content_digest


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a stored exchange's signature holds, by which key, made when."""

    verified: bool
    #: Why, as a sentence its answer writes in the answer's language
    #: (a :class:`~service.baccarat.rulebook.errors.Sentence`: its template and values).
    reason: str
    keyid: str | None = None
    created: int | None = None
    #: The key that signed it was an ephemeral one (not for audits).
    ephemeral: bool = False


# --- the message views http-message-signatures reads -----------------------------


class _Headers(dict[str, str]):
    """Header fields, one line each (the library asks for ``items()`` in order)."""


@dataclass
class _Request:
    method: str
    url: str
    headers: _Headers


@dataclass
class _Response:
    status_code: int
    headers: _Headers
    request: _Request


class _Keys(HTTPSignatureKeyResolver):
    """The published keys, by keyid, for the library's verifier."""

    def __init__(self, public: Mapping[str, PublicKey]) -> None:
        self.public = public

    def resolve_private_key(self, key_id: str) -> Ed25519PrivateKey:
        raise HTTPMessageSignaturesException("a verifier holds no private key")

    def resolve_public_key(self, key_id: str) -> Ed25519PublicKey | None:
        found = self.public.get(key_id)
        return None if found is None else found.key


def _header(headers: Mapping[str, str], name: str) -> str | None:
    wanted = name.lower()
    return next((value for key, value in headers.items() if key.lower() == wanted), None)


def _keyid(signature_input: str) -> str | None:
    """The ``keyid`` the signature names (read only to say which key; the
    library checks everything)."""
    for part in signature_input.split(";"):
        name, _, value = part.partition("=")
        if name.strip() == "keyid":
            return value.strip().strip('"')
    return None


def verify(exchange: Exchange, keys: Iterable[PublicKey]) -> Verdict:
    """The verdict on a stored exchange, checked against ``keys`` (the JWKS)."""
    by_kid = {key.kid: key for key in keys}
    headers = exchange.response.headers
    signature_input = _header(headers, "Signature-Input")
    if signature_input is None or _header(headers, "Signature") is None:
        return Verdict(False, Sentence.of(N_("the answer carries no Signature-Input and Signature headers")))
    kid = _keyid(signature_input)
    if kid is None:
        return Verdict(False, Sentence.of(N_("the signature names no key")))
    key = by_kid.get(kid)
    if key is None:
        reason = Sentence.of(N_("the key {keyid} it names is not in the published keys"), keyid=kid)
        return Verdict(False, reason, keyid=kid)
    digest = _header(headers, "Content-Digest")
    if digest is None:
        return Verdict(False, Sentence.of(N_("the answer carries no Content-Digest")), keyid=kid)
    try:
        ContentDigest.verify(digest, exchange.response.body)
    except HTTPMessageSignaturesException:
        reason = Sentence.of(
            N_("the answer is not the one signed: its Content-Digest does not match its bytes")
        )
        return Verdict(False, reason, keyid=kid)
    request = exchange.request
    request_digest = content_digest(hashlib.sha256(request.body).digest())
    answer = _Response(
        exchange.response.status,
        _Headers(headers),
        _Request(request.method, request.url, _Headers({"Content-Digest": request_digest})),
    )
    verifier = HTTPMessageVerifier(signature_algorithm=algorithms.ED25519, key_resolver=_Keys(by_kid))
    try:
        [result] = verifier.verify(
            answer,
            max_age=None,  # a stored answer is checked years later
            expect_tag=None,
            require_components=REQUIRED,
            body=exchange.response.body,
        )
    except (HTTPMessageSignaturesException, ValueError):
        # The library's own message is English and names its internals: the
        # verdict says what failed in the answer's language, and no more.
        reason = Sentence.of(
            N_(
                "the signature by key {keyid} does not hold: the request, or the answer's status "
                "or a covered header, is not what was signed"
            ),
            keyid=kid,
        )
        return Verdict(False, reason, keyid=kid)
    created = result.parameters.get("created")
    signed = N_("signed by key {keyid} (an ephemeral key)") if key.ephemeral else N_("signed by key {keyid}")
    return Verdict(
        True,
        Sentence.of(signed, keyid=kid),
        keyid=kid,
        created=created if isinstance(created, int) else None,
        ephemeral=key.ephemeral,
    )
