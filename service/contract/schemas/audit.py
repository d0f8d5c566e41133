"""Signed answers: the published keys, a stored exchange, and the replay verdict."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, validate

from ..audit.exchange import Exchange, StoredRequest, StoredResponse
from ..problems import pointer, validation_errors, written
from .base import AnswerSchema, RequestSchema
from .fields import BoundedDict, Text
from .round_answers import EngineSchema, engine_field
from .values import value_of

#: Headers a stored answer may carry (a platform keeps a few; more is not an answer's).
MAX_STORED_HEADERS = 32
#: The longest header value kept (a Signature-Input is about 200 characters).
MAX_HEADER_LENGTH = 4096
#: The most differences a replay lists.
MAX_DIFFERENCES = 20


class JwkSchema(AnswerSchema):
    """An Ed25519 public key (RFC 8037)."""

    OMIT_IF_NONE = frozenset({"ephemeral"})

    kty = fields.String(required=True, metadata={"example": "OKP"})
    crv = fields.String(required=True, metadata={"example": "Ed25519"})
    x = fields.String(required=True, metadata={"description": "The public key's 32 bytes, base64url"})
    kid = fields.String(
        required=True,
        metadata={
            "description": "The key's RFC 7638 JWK thumbprint: the `keyid` of the signatures it verifies",
            "example": "70ywCEjHrBIv5mLDe__6maWU5r8OnkneYZ9VlvMx8t0",
        },
    )
    use = fields.String(required=True, metadata={"example": "sig"})
    alg = fields.String(required=True, metadata={"example": "EdDSA"})
    ephemeral = fields.Boolean(
        metadata={
            "description": "Present and true for a key made by a service started without a configured "
            "key: it is gone when that service stops, so its signatures prove nothing to an auditor"
        }
    )


class JwksSchema(AnswerSchema):
    keys = fields.List(
        fields.Nested(JwkSchema),
        required=True,
        metadata={"description": "The signing key first, then the earlier keys still in force"},
    )
    # RFC 7517 section 5: a JWK Set may hold members of its own, which key readers ignore.
    engine = engine_field(
        "The engine whose answers these keys sign: its name, version and the digest of its "
        "critical files, to compare with the release's published digest (docs/build-digest.md)"
    )


class StoredRequestSchema(RequestSchema):
    method = Text(required=True, validate=validate.Length(1, 16), metadata={"example": "POST"})
    url = Text(
        required=True,
        validate=validate.Length(1, 8192),
        metadata={
            "description": "The URL as the service received it (scheme, host, path and query): "
            "the signature covers it as `@target-uri`",
            "example": "http://127.0.0.1:8000/v1/rounds",
        },
    )
    body = Text(required=True, metadata={"description": "The request body, its exact text"})


class StoredResponseSchema(RequestSchema):
    status = fields.Integer(strict=True, required=True, validate=validate.Range(100, 599))
    headers = BoundedDict(
        max_keys=MAX_STORED_HEADERS,
        keys=Text(validate=validate.Length(1, 256)),
        values=Text(validate=validate.Length(0, MAX_HEADER_LENGTH)),
        required=True,
        metadata={
            "description": "The answer's headers as received; at least Content-Type, Content-Language "
            "(the language the replay writes in), Content-Digest, Signature-Input and Signature "
            "(names in any case)"
        },
    )
    body = Text(required=True, metadata={"description": "The answer's body, its exact text"})


class ReplayRequestSchema(RequestSchema):
    """A stored exchange: the request a platform sent and the signed answer it got."""

    request = fields.Nested(StoredRequestSchema, required=True)
    response = fields.Nested(StoredResponseSchema, required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Exchange:
        request, response = data["request"], data["response"]
        return Exchange(
            StoredRequest(request["method"], request["url"], request["body"].encode()),
            StoredResponse(response["status"], response["headers"], response["body"].encode()),
        )


def stored_exchange(document: Any) -> Exchange:
    """A stored exchange from its JSON form (docs/audit.md), read as
    ``POST /v1/replays`` reads it, limits included; ValueError naming the
    first part that is wrong.

    >>> stored_exchange({"request": {"method": "POST", "url": "http://x/v1/rounds", "body": "{}"},
    ...                  "response": {"status": "200", "headers": {}, "body": ""}})
    Traceback (most recent call last):
    ...
    ValueError: /response/status: Not a valid integer.
    """
    try:
        exchange: Exchange = ReplayRequestSchema().load(document)
    except ValidationError as error:
        where, detail = next(validation_errors(error.messages))
        raise ValueError(f"{pointer(where) or '/'}: {detail}") from None
    return exchange


class Said(fields.Field[str]):
    """A verdict's sentence, written in the answer's language (``Content-Language``)."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else written(value)


def said(description: str) -> Said:
    return Said(required=True, metadata={"type": "string", "description": description})


class VerdictSchema(AnswerSchema):
    verified = fields.Boolean(required=True, metadata={"description": "Whether the signature holds"})
    reason = said("Why, in the answer's language")
    keyid = fields.String(allow_none=True, required=True, metadata={"description": "The key it names"})
    created = fields.Integer(
        allow_none=True,
        required=True,
        metadata={"description": "When it was signed (Unix seconds), once verified"},
    )
    ephemeral = fields.Boolean(
        required=True, metadata={"description": "The signing key was an ephemeral one (not for audits)"}
    )


class DifferenceSchema(AnswerSchema):
    pointer = fields.String(
        required=True,
        metadata={
            "description": "JSON Pointer into the answer; into a page (a rules sheet's HTML or "
            "Markdown), `/lines/N`, its line N (from 0)"
        },
    )
    stored = fields.String(
        allow_none=True,
        required=True,
        metadata={
            "description": "The stored value, as JSON text (a page's line as a JSON string; null: absent)"
        },
    )
    replayed = fields.String(
        allow_none=True,
        required=True,
        metadata={"description": "The replayed value, as JSON text (null: absent)"},
    )


class SignedBySchema(EngineSchema):
    """The engine a stored answer names, as it names it."""

    digest = fields.String(
        metadata={
            "description": "The digest of the build that wrote the stored answer; absent when the "
            "answer names none (written before answers named their build)"
        }
    )


class ReplayedSchema(AnswerSchema):
    replayed = fields.Boolean(
        required=True, metadata={"description": "Whether the request could be replayed"}
    )
    identical = fields.Boolean(
        allow_none=True,
        required=True,
        metadata={"description": "Whether replaying gave the same status and the same bytes"},
    )
    reason = said("Why, in the answer's language")
    status = fields.Integer(allow_none=True, required=True, metadata={"description": "The replay's status"})
    signed_by = fields.Nested(
        SignedBySchema,
        allow_none=True,
        required=True,
        metadata={"description": "The engine the stored answer names (the one that answered it)"},
    )
    engine = fields.Nested(
        EngineSchema, required=True, metadata={"description": "The engine that replayed it"}
    )
    same_build = fields.Boolean(
        allow_none=True,
        required=True,
        metadata={
            "description": "Whether the stored answer names this engine's digest: false when it was "
            "written by another build (its critical files differ, whatever its version says), null "
            "when it names no digest"
        },
    )
    differences = fields.List(
        fields.Nested(DifferenceSchema),
        required=True,
        metadata={"description": f"Where the answers differ: the first {MAX_DIFFERENCES}"},
    )
    more_differences = fields.Integer(required=True, metadata={"description": "Differences not listed"})
    table = fields.Nested(
        "ReplayedTableSchema",
        metadata={
            "description": "The table the stored answer names, replayed by the rules the answer "
            "recorded, whatever the deployment's catalogue holds now; and what it holds now"
        },
    )

    OMIT_IF_NONE = frozenset({"table"})


class ReplayedTableSchema(AnswerSchema):
    name = fields.String(required=True, metadata={"description": "The table the stored answer names"})
    now = value_of("TableNow", required=True)


class ReplayVerdictSchema(AnswerSchema):
    signature = fields.Nested(VerdictSchema, required=True)
    replay = fields.Nested(ReplayedSchema, required=True)
