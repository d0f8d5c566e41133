"""The signing key and the verification keys a JWK Set publishes (RFC 7517, RFC 8037).

A key's id is its RFC 7638 JWK thumbprint, the ``keyid`` its signatures
name. Keys are ``cryptography``'s Ed25519 keys.

>>> key = SigningKey.generate()
>>> public_keys(jwks(key.published))[0].kid == key.public.kid
True
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey


def b64url(data: bytes) -> str:
    """``data`` as unpadded base64url (RFC 7515, appendix C)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def raw_public(key: Ed25519PublicKey) -> bytes:
    """The key's 32 bytes."""
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def thumbprint(key: Ed25519PublicKey) -> str:
    """The key's id: its RFC 7638 JWK thumbprint (sha-256 over the required
    members in lexicographic order, without whitespace), base64url."""
    members = f'{{"crv":"Ed25519","kty":"OKP","x":"{b64url(raw_public(key))}"}}'
    return b64url(hashlib.sha256(members.encode("ascii")).digest())


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
            "x": b64url(raw_public(self.key)),
            "kid": self.kid,
            "use": "sig",
            "alg": "EdDSA",
        }
        if self.ephemeral:
            jwk["ephemeral"] = True
        return jwk


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


def jwks(keys: Iterable[PublicKey]) -> dict[str, Any]:
    """The JWK Set of ``keys`` (RFC 7517), the signing key first."""
    return {"keys": [key.jwk() for key in keys]}


def public_keys(document: Any) -> tuple[PublicKey, ...]:
    """The Ed25519 keys of a JWK Set (its other keys are not ours: refused).

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
