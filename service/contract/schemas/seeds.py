"""Seed inputs (plain or provably fair) as a request sends them, and fresh server seeds.

A request brings either a plain ``seed`` or a ``server_seed`` with an
optional ``client_seed`` and ``nonce``; a plain seed is the server seed with
an empty client seed and nonce 0 (``docs/fairness.md``). Either may carry the
commitment shown earlier, ``server_seed_hash``, which the engine checks.
:func:`seed_inputs` gathers the loaded fields into :class:`SeedInputs`.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from ...baccarat.shoes.shuffle import ALGORITHM, SeedInputs
from .base import AnswerSchema, RequestSchema
from .fields import Text
from .messages import FieldCode, Message

#: Largest nonce: every integer up to it is exact in any JSON reader (2**53 - 1).
MAX_NONCE = 2**53 - 1
SEED_SOURCES = ("seed", "server_seed")


class SeedInputSchema(RequestSchema):
    """The fields that say how a shoe is shuffled."""

    seed = Text(
        validate=validate.Length(1, 256),
        metadata={
            "description": "A plain seed: the server seed, with an empty client seed and nonce 0 "
            "(docs/fairness.md). Without any seed input a fresh 256-bit seed is drawn and returned.",
            "example": "table-7/shoe-1",
        },
    )
    server_seed = Text(
        validate=validate.Length(1, 256),
        metadata={
            "description": "Provably fair: the secret server seed, whose SHA-256 was published "
            "beforehand as `server_seed_hash` (POST /v1/seeds makes one)",
            "example": "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
        },
    )
    client_seed = Text(
        validate=validate.Length(0, 256),
        metadata={"description": "Provably fair: the player's seed (default empty)", "example": "lucky-7"},
    )
    nonce = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_NONCE),
        metadata={"description": "Provably fair: the shoe's counter under one seed pair (default 0)"},
    )
    server_seed_hash = fields.String(
        validate=validate.Regexp(r"^[0-9a-fA-F]{64}$", error=Message.awaiting(FieldCode.NOT_A_SHA256)),
        metadata={
            "description": "The commitment shown before play: the service checks it is the "
            "SHA-256 of `server_seed` (or `seed`) and refuses the request if not",
            "example": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        },
    )

    @validates_schema
    def seed_inputs_fit(self, data: dict[str, Any], **kwargs: Any) -> None:
        """One seed source at most; client seed and nonce go with a server seed."""
        errors: dict[str, Message] = {}
        if "seed" in data and "server_seed" in data:
            errors["server_seed"] = Message.of(FieldCode.SEED_AND_SERVER_SEED)
        if "server_seed" not in data:
            for name in ("client_seed", "nonce"):
                if name in data:
                    errors[name] = Message.of(FieldCode.WITHOUT_SERVER_SEED, name=name)
            if "server_seed_hash" in data and "seed" not in data:
                errors["server_seed_hash"] = Message.of(FieldCode.COMMITMENT_WITHOUT_SEED)
        if errors:
            raise ValidationError(errors)


def seed_inputs(data: dict[str, Any]) -> SeedInputs | None:
    """The seed inputs a request loaded by :class:`SeedInputSchema` gives, if any."""
    if "server_seed" in data:
        return SeedInputs(data["server_seed"], data.get("client_seed", ""), data.get("nonce", 0))
    if "seed" in data:
        return SeedInputs(data["seed"])
    return None


class NewSeedSchema(AnswerSchema):
    """A fresh server seed and the commitment to publish before play."""

    server_seed = fields.String(
        required=True,
        metadata={
            "description": "256 bits from the operating system's CSPRNG, as 64 hex digits: keep secret"
        },
    )
    server_seed_hash = fields.String(
        required=True,
        metadata={"description": "SHA-256 of the server seed (UTF-8), as hex: publish before play"},
    )
    algorithm = fields.String(
        required=True, dump_default=ALGORITHM, metadata={"example": "hmac-sha256-fisher-yates/v1"}
    )


class NewSeedRequestSchema(RequestSchema):
    """No settings yet: send an empty object."""
