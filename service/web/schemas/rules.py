"""Rules: the overrides a request may send, and the resolved rules returned."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, pre_dump, validate, validates_schema

from ...baccarat.money import Rounding
from ...baccarat.shoe_deal import MAX_CUT_CARD, MIN_CUT_CARD
from ...baccarat.tables import (
    DEFAULT_TABLE,
    SUPER_6_PAYS,
    TABLES,
    TIE_PAYS,
    BetLimits,
    BetType,
    Rules,
    Variant,
)
from .base import AnswerSchema, RequestSchema
from .fields import Amount, BoundedDict, Rate

BET_TYPES = [str(t) for t in BetType]
VARIANTS = [str(v) for v in Variant]
VARIANT_DESCRIPTION = (
    "How the banker bet is paid: `standard` (1:1 less `commission`, 0.95:1 at 5%), "
    "`no_commission` (1:1, but a banker win with a total of 6 pays 1:2) or `ez` (EZ Baccarat: "
    "1:1, but a banker win with a three-card 7 pushes). `no_commission` and `ez` take no "
    "commission: their rules say `commission` 0 (docs/bets.md)"
)


def table_field(description: str, *, example: str | None = None) -> fields.String:
    """A request's ``table``: the name of a preset (GET /v1/tables), ``standard`` by default."""
    metadata = {"description": description}
    if example is not None:
        metadata["example"] = example
    return fields.String(load_default=DEFAULT_TABLE, validate=validate.OneOf(list(TABLES)), metadata=metadata)


class LimitsSchema(RequestSchema):
    min = Amount(required=True, metadata={"description": "Smallest single bet"})
    max = Amount(required=True, metadata={"description": "Largest total on this bet type per slip"})

    @validates_schema
    def min_not_over_max(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["min"] > data["max"]:
            raise ValidationError("min must not be greater than max", "min")

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> BetLimits:
        return BetLimits(**data)


class RulesOverrideSchema(RequestSchema):
    """Settings a request may change on its table; the rest stay as the table has them."""

    variant = fields.String(
        validate=validate.OneOf(VARIANTS), metadata={"description": VARIANT_DESCRIPTION, "example": "ez"}
    )
    decks = fields.Integer(
        strict=True, validate=validate.Range(1, 8), metadata={"description": "Decks in the shoe (1-8)"}
    )
    commission = Rate(metadata={"description": "Commission on banker wins (0 to 0.25)"})
    tie_pays = fields.Integer(
        strict=True, validate=validate.OneOf(TIE_PAYS), metadata={"description": "Tie pays 8:1 or 9:1"}
    )
    super_6_pays = fields.Integer(
        strict=True,
        validate=validate.OneOf(SUPER_6_PAYS),
        metadata={"description": "Super 6 pays 12:1 or 15:1 (the other side bets' pays are fixed)"},
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
    cut_card = fields.Integer(
        strict=True,
        validate=validate.Range(MIN_CUT_CARD, MAX_CUT_CARD),
        metadata={
            "description": f"Whole shoes: cards left behind the cut card ({MIN_CUT_CARD}-{MAX_CUT_CARD}, "
            "and at most half the shoe); 16 by default"
        },
    )
    limits = BoundedDict(
        max_keys=len(BET_TYPES),
        keys=fields.String(validate=validate.OneOf(BET_TYPES)),
        values=fields.Nested(LimitsSchema),
        metadata={
            "description": "Per bet type limits, merged into the table's; giving limits to a bet "
            "type the table does not offer offers it"
        },
    )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if "payout_rounding" in data:
            data["payout_rounding"] = Rounding(data["payout_rounding"])
        if "variant" in data:
            data["variant"] = Variant(data["variant"])
        if "limits" in data:
            data["limits"] = {BetType(k): v for k, v in data["limits"].items()}
        return data


class LimitsOutSchema(AnswerSchema):
    min = fields.String(required=True, metadata={"example": "1.00"})
    max = fields.String(required=True, metadata={"example": "200.00"})


class RulesSchema(AnswerSchema):
    """The rules in force, resolved from the table and the request's overrides."""

    id = fields.String(
        required=True,
        metadata={
            "description": "First 16 hex digits of the SHA-256 of these rules in canonical "
            "JSON: equal ids mean equal rules",
            "example": "3f2a9c0d51b7e486",
        },
    )
    variant = fields.String(required=True, metadata={"enum": VARIANTS, "description": VARIANT_DESCRIPTION})
    decks = fields.Integer(required=True)
    commission = fields.String(required=True, metadata={"example": "0.05"})
    tie_pays = fields.Integer(required=True)
    super_6_pays = fields.Integer(required=True, metadata={"description": "Super 6 pays this many to 1"})
    payout_rounding = fields.String(required=True)
    minor_unit = fields.Integer(required=True)
    cut_card = fields.Integer(required=True, metadata={"description": "Cards left behind the cut card"})
    limits = fields.Dict(keys=fields.String(), values=fields.Nested(LimitsOutSchema), required=True)

    @pre_dump
    def canonical(self, rules: Rules, **kwargs: Any) -> dict[str, Any]:
        return {**rules.as_dict(), "id": rules.id}
