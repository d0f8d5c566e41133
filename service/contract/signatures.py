"""Signed answers: HTTP Message Signatures (RFC 9421) with Ed25519, and their keys.

An answer that deals or settles carries a signature, label ``baccarat``, over
:data:`COVERED`: the answer's status, ``content-type`` and ``content-digest``
(RFC 9530, sha-256 of the answer's bytes), and the request's method, target
URI and content digest (the ``req`` parameter). So a stored answer is bound
to the request that produced it: a third party holding the published key
(:func:`jwks`) can check that neither was changed by a byte. The signature
parameters are ``created``, ``keyid`` (the key's RFC 7638 JWK thumbprint) and
``alg``. docs/audit.md says what a platform stores and how to verify.

Signatures are verified by the ``http-message-signatures`` library
(maintained, typed, tested against the RFC's own examples); the Ed25519 keys
are ``cryptography``'s. An answer's signature base, seven fixed lines, is
written here and held byte for byte to the library's signer by the tests
(:meth:`SigningKey.sign_digest` says why). What is here: the keys, the
signing, the message views the library reads, and the verdict on a stored
exchange.

>>> key = SigningKey.generate()
>>> exchange = Exchange(
...     request=StoredRequest("POST", "http://127.0.0.1:8000/v1/rounds", b'{"cards":[]}'),
...     response=StoredResponse(200, {"Content-Type": "application/json"}, b'{"outcome":"tie"}'),
... )
>>> signed = exchange.with_headers(key.sign(exchange.request, 200, "application/json", b'{"outcome":"tie"}'))
>>> verify(signed, (key.public,)).verified
True
>>> verify(signed.with_body(b'{"outcome":"banker"}'), (key.public,)).reason
'the answer is not the one signed: its Content-Digest does not match its bytes'
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from http_message_signatures import (
    ContentDigest,
    HTTPMessageSignaturesException,
    HTTPMessageVerifier,
    HTTPSignatureKeyResolver,
    algorithms,
)

#: The label of the service's signature in ``Signature-Input`` and ``Signature``.
LABEL = "baccarat"
#: What the signature covers, in this order (RFC 9421 component identifiers).
COVERED = (
    "@status",
    "content-type",
    "content-digest",
    '"@method";req',
    '"@target-uri";req',
    '"content-digest";req',
)
#: The covered components as the inner list of ``Signature-Input`` writes them.
_COVERED_LIST = "(" + " ".join(c if c.startswith('"') else f'"{c}"' for c in COVERED) + ")"
#: The headers an answer's signature adds, and a stored exchange must keep.
SIGNATURE_HEADERS = ("Content-Digest", "Signature-Input", "Signature")


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def raw_public(key: Ed25519PublicKey) -> bytes:
    """The key's 32 bytes."""
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def thumbprint(key: Ed25519PublicKey) -> str:
    """The key's id: its RFC 7638 JWK thumbprint (sha-256 over the required
    members in lexicographic order, without whitespace), base64url."""
    members = f'{{"crv":"Ed25519","kty":"OKP","x":"{_b64url(raw_public(key))}"}}'
    return _b64url(hashlib.sha256(members.encode("ascii")).digest())


@dataclass(frozen=True, slots=True)
class PublicKey:
    """A verification key as the JWKS publishes it."""

    key: Ed25519PublicKey
    #: Made by a service started without a configured key: gone when it stops.
    ephemeral: bool = False
    kid: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kid", thumbprint(self.key))

    def jwk(self) -> dict[str, Any]:
        """The key as an RFC 8037 JWK (``OKP``/``Ed25519``), with ``ephemeral`` when it is."""
        jwk: dict[str, Any] = {
            "kty": "OKP",
            "crv": "Ed25519",
            "x": _b64url(raw_public(self.key)),
            "kid": self.kid,
            "use": "sig",
            "alg": "EdDSA",
        }
        if self.ephemeral:
            jwk["ephemeral"] = True
        return jwk


def jwks(keys: Iterable[PublicKey]) -> dict[str, Any]:
    """The JWK Set of ``keys`` (RFC 7517), the signing key first."""
    return {"keys": [key.jwk() for key in keys]}


def public_keys(document: Any) -> tuple[PublicKey, ...]:
    """The Ed25519 keys of a JWK Set (its other keys are not ours: refused).

    >>> key = SigningKey.generate().public
    >>> public_keys(jwks([key]))[0].kid == key.kid
    True
    >>> public_keys({"keys": [{"kty": "RSA"}]})
    Traceback (most recent call last):
    ...
    ValueError: key 0 is not an Ed25519 key (kty OKP, crv Ed25519)
    """
    if not isinstance(document, Mapping) or not isinstance(document.get("keys"), list):
        raise ValueError('not a JWK Set: an object with a "keys" list is expected')
    found = []
    for index, jwk in enumerate(document["keys"]):
        if not isinstance(jwk, Mapping) or jwk.get("kty") != "OKP" or jwk.get("crv") != "Ed25519":
            raise ValueError(f"key {index} is not an Ed25519 key (kty OKP, crv Ed25519)")
        try:
            raw = _unb64url(str(jwk.get("x", "")))
            key = Ed25519PublicKey.from_public_bytes(raw)
        except ValueError:
            raise ValueError(f"key {index}: x is not a base64url Ed25519 public key") from None
        found.append(PublicKey(key, ephemeral=jwk.get("ephemeral") is True))
    return tuple(found)


def private_key(pem: bytes) -> Ed25519PrivateKey:
    """An Ed25519 private key from PEM (PKCS #8, unencrypted), or ValueError saying why not."""
    try:
        key = serialization.load_pem_private_key(pem, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm) as error:
        raise ValueError(f"not an unencrypted PEM private key ({error})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"a {type(key).__name__.removeprefix('_')} key, not an Ed25519 key")
    return key


def private_pem(key: Ed25519PrivateKey) -> str:
    """The key as unencrypted PKCS #8 PEM, the form :func:`private_key` reads."""
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode("ascii")


@dataclass(frozen=True, slots=True)
class StoredRequest:
    """A request as a platform keeps it: method, the URL it called, the body's bytes."""

    method: str
    url: str
    body: bytes


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """An answer as a platform keeps it: status, headers (the signature's among them), bytes."""

    status: int
    headers: Mapping[str, str]
    body: bytes


@dataclass(frozen=True, slots=True)
class Exchange:
    """A stored request and the answer it got."""

    request: StoredRequest
    response: StoredResponse

    def with_headers(self, headers: Mapping[str, str]) -> Exchange:
        """The exchange with these answer headers added (or replaced)."""
        merged = {**self.response.headers, **headers}
        return replace(self, response=replace(self.response, headers=merged))

    def with_body(self, body: bytes) -> Exchange:
        """The exchange with another answer body (a tampered copy, say)."""
        return replace(self, response=replace(self.response, body=body))


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


def content_digest(sha256: bytes) -> str:
    """The RFC 9530 ``Content-Digest`` value of a sha-256 digest."""
    return f"sha-256=:{base64.b64encode(sha256).decode('ascii')}:"


def _request_view(method: str, url: str, sha256: bytes) -> _Request:
    return _Request(method, url, _Headers({"Content-Digest": content_digest(sha256)}))


class _Keys(HTTPSignatureKeyResolver):
    """The published keys, by keyid, for the library's verifier."""

    def __init__(self, public: Mapping[str, PublicKey]) -> None:
        self.public = public

    def resolve_private_key(self, key_id: str) -> Ed25519PrivateKey:
        raise HTTPMessageSignaturesException("a verifier holds no private key")

    def resolve_public_key(self, key_id: str) -> Ed25519PublicKey | None:
        found = self.public.get(key_id)
        return None if found is None else found.key


@dataclass(frozen=True, slots=True)
class SigningKey:
    """The service's signing key, and the verification keys it publishes with it."""

    private: Ed25519PrivateKey
    ephemeral: bool = False
    #: Earlier keys still in force, published so that answers they signed verify.
    earlier: tuple[PublicKey, ...] = ()
    public: PublicKey = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "public", PublicKey(self.private.public_key(), ephemeral=self.ephemeral))

    @classmethod
    def generate(cls) -> SigningKey:
        """A new ephemeral key (a service started without one configured)."""
        return cls(Ed25519PrivateKey.generate(), ephemeral=True)

    @property
    def published(self) -> tuple[PublicKey, ...]:
        """Every key the JWKS lists: this one first, then the earlier ones (each once)."""
        seen = {self.public.kid}
        return (self.public, *(key for key in self.earlier if key.kid not in seen))

    def sign(
        self,
        request: StoredRequest,
        status: int,
        content_type: str,
        body: bytes,
        *,
        created: datetime.datetime | None = None,
    ) -> dict[str, str]:
        """The headers that sign this answer to this request: ``Content-Digest``,
        ``Signature-Input`` and ``Signature``."""
        digest = hashlib.sha256(request.body).digest()
        return self.sign_digest(request, digest, status, content_type, body, created=created)

    def sign_digest(
        self,
        request: StoredRequest,
        request_sha256: bytes,
        status: int,
        content_type: str,
        body: bytes,
        *,
        created: datetime.datetime | None = None,
    ) -> dict[str, str]:
        """As :meth:`sign`, for a request of which only the sha-256 of its
        body is known (``request.body`` is not read).

        The signature base of :data:`COVERED` is written here (RFC 9421,
        section 2.5): its components are fixed, so it is seven lines. The
        library's signer serialises each structured field anew in pure Python,
        which made signing nearly half of a round's time (docs/performance.md).
        tests/contract/test_signatures.py holds these headers byte for byte to
        what the library's signer makes, and the library verifies them
        (:func:`verify`).
        """
        when = int((created or datetime.datetime.now(datetime.UTC)).timestamp())
        digest = content_digest(hashlib.sha256(body).digest())
        params = f'{_COVERED_LIST};created={when};keyid="{self.public.kid}";alg="ed25519"'
        base = "\n".join(
            (
                f'"@status": {status}',
                f'"content-type": {content_type.strip()}',
                f'"content-digest": {digest}',
                f'"@method";req: {request.method}',
                f'"@target-uri";req: {request.url}',
                # The request's digest is the service's own, of the bytes it read: a
                # caller's Content-Digest header, if any, is neither trusted nor needed.
                f'"content-digest";req: {content_digest(request_sha256)}',
                f'"@signature-params": {params}',
            )
        )
        signature = base64.b64encode(self.private.sign(base.encode("ascii"))).decode("ascii")
        return {
            "Content-Digest": digest,
            "Signature-Input": f"{LABEL}={params}",
            "Signature": f"{LABEL}=:{signature}:",
        }


# --- verifying a stored exchange ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a stored exchange's signature holds, by which key, made when."""

    verified: bool
    reason: str
    keyid: str | None = None
    created: int | None = None
    #: The key that signed it was an ephemeral one (not for audits).
    ephemeral: bool = False


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
        return Verdict(False, "the answer carries no Signature-Input and Signature headers")
    kid = _keyid(signature_input)
    key = by_kid.get(kid or "")
    if key is None:
        return Verdict(False, f"the key {kid!r} it names is not in the published keys", keyid=kid)
    digest = _header(headers, "Content-Digest")
    if digest is None:
        return Verdict(False, "the answer carries no Content-Digest", keyid=kid)
    try:
        ContentDigest.verify(digest, exchange.response.body)
    except HTTPMessageSignaturesException:
        reason = "the answer is not the one signed: its Content-Digest does not match its bytes"
        return Verdict(False, reason, keyid=kid)
    request = exchange.request
    answer = _Response(
        exchange.response.status,
        _Headers(headers),
        _request_view(request.method, request.url, hashlib.sha256(request.body).digest()),
    )
    verifier = HTTPMessageVerifier(signature_algorithm=algorithms.ED25519, key_resolver=_Keys(by_kid))
    try:
        [result] = verifier.verify(
            answer,
            max_age=None,  # a stored answer is checked years later
            expect_tag=None,
            require_components=COVERED,
            body=exchange.response.body,
        )
    except (HTTPMessageSignaturesException, ValueError) as error:
        why = f" ({error})" if str(error) else ""
        reason = (
            f"the signature by key {kid} does not hold: the request, or the answer's status"
            f" or a covered header, is not what was signed{why}"
        )
        return Verdict(False, reason, keyid=kid)
    created = result.parameters.get("created")
    return Verdict(
        True,
        f"signed by key {kid}" + (" (an ephemeral key)" if key.ephemeral else ""),
        keyid=kid,
        created=created if isinstance(created, int) else None,
        ephemeral=key.ephemeral,
    )


def stored_exchange(document: Mapping[str, Any]) -> Exchange:
    """An :class:`Exchange` from its JSON form (docs/audit.md): request
    ``method``, ``url`` and ``body`` (the exact text), response ``status``,
    ``headers`` and ``body``. Raises ValueError naming the part that is wrong."""

    def part(name: str) -> Mapping[str, Any]:
        value = document.get(name)
        if not isinstance(value, Mapping):
            raise ValueError(f"{name}: an object is expected")
        return value

    def text(where: Mapping[str, Any], name: str, path: str) -> str:
        value = where.get(name)
        if not isinstance(value, str):
            raise ValueError(f"{path}/{name}: a string is expected")
        return value

    request, response = part("request"), part("response")
    headers = response.get("headers")
    if not isinstance(headers, Mapping) or not all(isinstance(v, str) for v in headers.values()):
        raise ValueError("response/headers: an object of strings is expected")
    status = response.get("status")
    if not isinstance(status, int) or isinstance(status, bool):
        raise ValueError("response/status: an integer is expected")
    return Exchange(
        StoredRequest(
            text(request, "method", "request"),
            text(request, "url", "request"),
            text(request, "body", "request").encode(),
        ),
        StoredResponse(status, dict(headers), text(response, "body", "response").encode()),
    )


def exchange_document(exchange: Exchange) -> dict[str, Any]:
    """The JSON form :func:`stored_exchange` reads."""
    return {
        "request": {
            "method": exchange.request.method,
            "url": exchange.request.url,
            "body": exchange.request.body.decode(),
        },
        "response": {
            "status": exchange.response.status,
            "headers": dict(exchange.response.headers),
            "body": exchange.response.body.decode(),
        },
    }


def dumps_exchange(exchange: Exchange) -> str:
    """The exchange as JSON text (what a platform might store)."""
    return json.dumps(exchange_document(exchange), ensure_ascii=False)
