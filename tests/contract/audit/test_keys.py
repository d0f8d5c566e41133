"""The keys: their ids, the JWK Set that publishes them, and their PEM form."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from service.contract.audit.keys import (
    PublicKey,
    SigningKey,
    jwks,
    private_key,
    private_pem,
    public_keys,
    thumbprint,
)
from service.contract.audit.verification import verify

from .fixtures import KEY, SIGNED


def test_after_a_rotation_the_earlier_key_still_verifies_what_it_signed():
    rotated = SigningKey(SigningKey.generate().private, earlier=(PublicKey(KEY.private.public_key()),))
    assert [key.kid for key in rotated.published] == [rotated.public.kid, KEY.public.kid]
    assert verify(SIGNED, public_keys(jwks(rotated.published))).verified


def test_a_key_published_twice_is_listed_once():
    again = SigningKey(KEY.private, earlier=(KEY.public, KEY.public))
    assert [key.kid for key in again.published] == [KEY.public.kid]


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
