"""Rules: the overrides a request may send, and the resolved rules returned."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, pre_dump, validate, validates_schema

from ...baccarat.bets import BetType, Variant
from ...baccarat.money import Rounding
from ...baccarat.multiplier_presets import PRESETS as MULTIPLIER_PRESETS
from ...baccarat.shoe_deal import MAX_CUT_CARD, MIN_CUT_CARD
from ...baccarat.tables import DEFAULT_TABLE, BetLimits, Rules
from .base import AnswerSchema, RequestSchema
from .fields import Amount, BoundedDict, Rate
from .messages import FieldCode, Message
from .values import value_of

BET_TYPES = [str(t) for t in BetType]


def table_field(description: str, *, example: str | None = None) -> fields.Field[Any]:
    """A request's ``table``: the name of a preset (GET /v1/tables), ``standard`` by default."""
    return value_of(
        "TablePreset",
        load_default=DEFAULT_TABLE,
        description=f"{description}; `{DEFAULT_TABLE}` by default",
        example=example,
    )


class LimitsSchema(RequestSchema):
    min = Amount(required=True, metadata={"description": "Smallest single bet"})
    max = Amount(required=True, metadata={"description": "Largest total on this bet type per slip"})

    @validates_schema
    def min_not_over_max(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["min"] > data["max"]:
            raise ValidationError(Message.of(FieldCode.MIN_OVER_MAX), "min")

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> BetLimits:
        return BetLimits(**data)


class RulesOverrideSchema(RequestSchema):
    """Settings a request may change on its table; the rest stay as the table has them."""

    variant = value_of("Variant", example="ez")
    decks = fields.Integer(
        strict=True, validate=validate.Range(1, 8), metadata={"description": "Decks in the shoe (1-8)"}
    )
    commission = Rate(metadata={"description": "Commission on banker wins (0 to 0.25)"})
    tie_pays = value_of("TiePays", description="The tie's pay: a shorthand for `pay_tables.tie`")
    super_6_pays = value_of("Super6Pays", description="Super 6's pay: a shorthand for `pay_tables.super_6`")
    payout_rounding = value_of("PayoutRounding", description="Every preset rounds `down`")
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
    pay_tables = BoundedDict(
        max_keys=len(BET_TYPES),
        keys=fields.String(validate=validate.OneOf(BET_TYPES)),
        values=value_of("PayTableId", checked=False),
        metadata={
            "description": "The pay table of each bet named, by id (GET /v1/paytables), merged into "
            "the table's: one of that bet's, for a bet the table offers. The banker's, the tie's and "
            "Super 6's set `variant`, `tie_pays` and `super_6_pays`, and must agree with them when "
            "those are sent too",
            "example": {"player_pair": "player_pair_12_to_1", "big": "big_0_53_to_1"},
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
        if "pay_tables" in data:
            data["pay_tables"] = {BetType(k): v for k, v in data["pay_tables"].items()}
        return data


class RoundRulesOverrideSchema(RulesOverrideSchema):
    """The settings a round may change on its table: those of every request,
    and a multiplier game."""

    multipliers = value_of(
        "MultiplierPreset",
        description="Play the round as this multiplier game (docs/multipliers.md): its multiplier "
        "cards are drawn from the round's seed inputs, or sent as `multiplier_cards` with `cards`, "
        "and its bets are paid by the game's rule, fee included. The table then offers only the "
        "bets the game pays. None by default",
        example="lightning",
    )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        data = RulesOverrideSchema.make(self, data, **kwargs)
        if "multipliers" in data:
            data["multipliers"] = MULTIPLIER_PRESETS[data["multipliers"]].rule
        return data


class LimitsOutSchema(AnswerSchema):
    min = fields.String(required=True, metadata={"example": "1.00"})
    max = fields.String(required=True, metadata={"example": "200.00"})


class MultipliedPayOutSchema(AnswerSchema):
    pays = fields.String(required=True, metadata={"description": "The base pay, to 1", "example": "5"})
    counted = value_of("Counted", required=True, example="all_cards")
    stake_kept = fields.String(
        required=True, metadata={"description": "The share of the stake a win keeps", "example": "0.05"}
    )


class FeeOutSchema(AnswerSchema):
    rate = fields.String(required=True, metadata={"description": "Per unit staked", "example": "0.2"})
    bets = fields.List(value_of("BetType"), required=True)
    returned_on_push = fields.Boolean(required=True)


class MultiplierRuleOutSchema(AnswerSchema):
    """A multiplier game's rule, in canonical form (weights divided by their
    greatest common divisor; docs/multipliers.md)."""

    id = fields.String(
        required=True,
        metadata={"description": "First 16 hex digits of the SHA-256 of the rule's canonical JSON"},
    )
    cards = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "Each count of multiplier cards with its weight", "example": {"5": 1}},
    )
    multipliers = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "Each multiplier with its weight", "example": {"2": 15, "3": 1}},
    )
    pays = fields.Dict(keys=fields.String(), values=fields.Nested(MultipliedPayOutSchema), required=True)
    fee = fields.Nested(FeeOutSchema, required=True)
    cap = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The most one slip wins on one round, or null", "example": "500000"},
    )


class RulesSchema(AnswerSchema):
    """The rules in force, resolved from the table and the request's overrides."""

    id = fields.String(
        required=True,
        metadata={
            "description": "First 16 hex digits of the SHA-256 of these rules in canonical "
            "JSON, which names a bet's pay table only where it is not the bet's standard one (so "
            "ids made before pay tables could be chosen still stand): equal ids mean equal rules",
            "example": "3f2a9c0d51b7e486",
        },
    )
    variant = value_of("Variant", required=True)
    decks = fields.Integer(required=True)
    commission = fields.String(required=True, metadata={"example": "0.05"})
    tie_pays = value_of("TiePays", required=True)
    super_6_pays = value_of("Super6Pays", required=True)
    payout_rounding = value_of("PayoutRounding", required=True)
    minor_unit = fields.Integer(required=True)
    cut_card = fields.Integer(required=True, metadata={"description": "Cards left behind the cut card"})
    limits = fields.Dict(keys=fields.String(), values=fields.Nested(LimitsOutSchema), required=True)
    pay_tables = fields.Dict(
        keys=fields.String(),
        values=value_of("PayTableId"),
        required=True,
        metadata={
            "description": "Each offered bet's pay table, by id (GET /v1/paytables): what every bet "
            "on these rules is paid by",
            "example": {"player": "player_1_to_1", "banker": "banker_commission", "tie": "tie_8_to_1"},
        },
    )
    multipliers = fields.Nested(
        MultiplierRuleOutSchema,
        metadata={"description": "A multiplier game's rule: its rounds' bets are paid by it"},
    )

    OMIT_IF_NONE = frozenset({"multipliers"})

    @pre_dump
    def canonical(self, rules: Rules, **kwargs: Any) -> dict[str, Any]:
        return {**rules.canonical, "id": rules.id}
