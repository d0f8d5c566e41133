"""Rules: the overrides a request may send, and the resolved rules returned."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, pre_dump, validate, validates_schema

from ...baccarat.money import Rounding
from ...baccarat.tables import BetLimits, BetType, Rules
from .fields import Amount, Rate

BET_TYPES = [str(t) for t in BetType]


class LimitsSchema(Schema):
    min = Amount(required=True, metadata={"description": "Smallest single bet"})
    max = Amount(required=True, metadata={"description": "Largest total on this bet type per slip"})

    @validates_schema
    def min_not_over_max(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["min"] > data["max"]:
            raise ValidationError("min must not be greater than max", "min")

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> BetLimits:
        return BetLimits(**data)


class RulesOverrideSchema(Schema):
    """Settings a request may change on its table; the rest stay as the table has them."""

    decks = fields.Integer(
        strict=True, validate=validate.Range(1, 8), metadata={"description": "Decks in the shoe (1-8)"}
    )
    commission = Rate(metadata={"description": "Commission on banker wins (0 to 0.25)"})
    tie_pays = fields.Integer(
        strict=True, validate=validate.OneOf([8, 9]), metadata={"description": "Tie pays 8:1 or 9:1"}
    )
    payout_rounding = fields.String(
        validate=validate.OneOf([str(r) for r in Rounding]),
        metadata={
            "description": "How a payout with more digits than the minor unit is "
            "rounded: `down` (the house's favour, default), `half_up`, "
            "`half_even` or `up`"
        },
    )
    minor_unit = fields.Integer(
        strict=True,
        validate=validate.Range(0, 4),
        metadata={"description": "Decimal places of the currency (2 for cents)"},
    )
    limits = fields.Dict(
        keys=fields.String(validate=validate.OneOf(BET_TYPES)),
        values=fields.Nested(LimitsSchema),
        metadata={"description": "Per bet type limits, merged into the table's"},
    )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if "payout_rounding" in data:
            data["payout_rounding"] = Rounding(data["payout_rounding"])
        if "limits" in data:
            data["limits"] = {BetType(k): v for k, v in data["limits"].items()}
        return data


class LimitsOutSchema(Schema):
    min = fields.String(required=True, metadata={"example": "1.00"})
    max = fields.String(required=True, metadata={"example": "200.00"})


class RulesSchema(Schema):
    """The rules in force, resolved from the table and the request's overrides."""

    id = fields.String(
        required=True,
        metadata={
            "description": "First 16 hex digits of the SHA-256 of these rules in canonical "
            "JSON: equal ids mean equal rules",
            "example": "3f2a9c0d51b7e486",
        },
    )
    decks = fields.Integer(required=True)
    commission = fields.String(required=True, metadata={"example": "0.05"})
    tie_pays = fields.Integer(required=True)
    payout_rounding = fields.String(required=True)
    minor_unit = fields.Integer(required=True)
    limits = fields.Dict(keys=fields.String(), values=fields.Nested(LimitsOutSchema), required=True)

    @pre_dump
    def canonical(self, rules: Rules, **kwargs: Any) -> dict[str, Any]:
        return {**rules.as_dict(), "id": rules.id}
