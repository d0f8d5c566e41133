"""The error shape, documented once."""

from marshmallow import Schema, fields


class FieldProblemSchema(Schema):
    pointer = fields.String(
        required=True,
        metadata={
            "description": "JSON Pointer (RFC 6901) to the offending input in the "
            "request body; empty for the body as a whole",
            "example": "/bets/0/amount",
        },
    )
    detail = fields.String(required=True, metadata={"example": "Not a valid amount."})


class ProblemSchema(Schema):
    """RFC 9457 problem details, served as ``application/problem+json``."""

    type = fields.String(
        required=True,
        metadata={
            "description": "`about:blank` for plain HTTP errors, otherwise "
            "`urn:baccarat:problem:<kind>` (see docs/errors.md)",
            "example": "urn:baccarat:problem:missing-card",
        },
    )
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    instance = fields.String(metadata={"description": "The request path"})
    errors = fields.List(
        fields.Nested(FieldProblemSchema),
        metadata={"description": "Each offending input, when inputs are at fault"},
    )
