"""Rounds and settlements: request and response bodies."""

from __future__ import annotations

from typing import Any

from marshmallow import (
    Schema,
    ValidationError,
    fields,
    post_dump,
    post_load,
    validate,
    validates_schema,
)

from ... import __version__
from ...baccarat.cards import MAX_DECKS
from ...baccarat.settlement import Bet
from ...baccarat.tables import DEFAULT_TABLE, TABLES, BetType
from .fields import Amount, CardCode
from .rules import BET_TYPES, RulesOverrideSchema, RulesSchema

MAX_BETS_PER_SLIP = 50
MAX_SLIPS = 20_000


class BetSchema(Schema):
    id = fields.String(
        validate=validate.Length(1, 64),
        metadata={"description": "Your reference, echoed back", "example": "b1"},
    )
    type = fields.String(
        required=True,
        validate=validate.OneOf(BET_TYPES),
        metadata={"description": "What the bet is on", "example": "banker"},
    )
    amount = Amount(required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Bet:
        return Bet(type=BetType(data["type"]), amount=data["amount"], id=data.get("id"))


class RoundInputSchema(Schema):
    """Where the cards come from, and the table's rules."""

    cards = fields.List(
        CardCode(),
        validate=validate.Length(1, 52 * MAX_DECKS),
        metadata={
            "description": "Cards in dealing order: Player, Banker, Player, Banker, then "
            "the Player's third card if drawn, then the Banker's. Extra "
            "cards are returned as `unused_cards`.",
            "example": ["9S", "KH", "2D", "7C", "5H"],
        },
    )
    seed = fields.String(
        validate=validate.Length(1, 256),
        metadata={
            "description": "Deal the first round of a shoe shuffled from this seed "
            "(docs/fairness.md). Without `cards` or `seed`, a fresh "
            "256-bit seed is drawn and returned.",
            "example": "table-7/shoe-1",
        },
    )
    table = fields.String(
        load_default=DEFAULT_TABLE,
        validate=validate.OneOf(list(TABLES)),
        metadata={"description": "Table preset (GET /v1/tables)"},
    )
    rules = fields.Nested(RulesOverrideSchema, load_default=dict)

    @validates_schema
    def cards_or_seed(self, data: dict[str, Any], **kwargs: Any) -> None:
        if "cards" in data and "seed" in data:
            raise ValidationError("send either cards or seed, not both", "seed")


class RoundRequestSchema(RoundInputSchema):
    bets = fields.List(
        fields.Nested(BetSchema),
        load_default=list,
        validate=validate.Length(max=MAX_BETS_PER_SLIP),
        metadata={"description": "An optional bet slip to settle on the round"},
    )


class SlipSchema(Schema):
    id = fields.String(
        required=True,
        validate=validate.Length(1, 64),
        metadata={"description": "Your slip reference", "example": "seat-3"},
    )
    bets = fields.List(
        fields.Nested(BetSchema), required=True, validate=validate.Length(1, MAX_BETS_PER_SLIP)
    )


class SettlementRequestSchema(RoundInputSchema):
    slips = fields.List(
        fields.Nested(SlipSchema),
        required=True,
        validate=validate.Length(1, MAX_SLIPS),
        metadata={"description": f"Up to {MAX_SLIPS} bet slips"},
    )


# --- responses ----------------------------------------------------------------


class HandSchema(Schema):
    cards = fields.List(CardCode(), required=True)
    total = fields.Integer(required=True, metadata={"description": "Final total, 0-9"})
    natural = fields.Boolean(required=True, metadata={"description": "Two cards totalling 8 or 9"})
    pair = fields.Boolean(required=True, metadata={"description": "First two cards share a rank"})
    perfect_pair = fields.Boolean(
        required=True, metadata={"description": "First two cards share rank and suit"}
    )


class StandSchema(Schema):
    hand = fields.String(required=True, metadata={"enum": ["player", "banker"]})
    reason = fields.String(required=True, metadata={"description": "The rule that applied"})


class DrawSchema(StandSchema):
    card = CardCode(required=True, metadata={"description": "The card drawn"})


class SeedSchema(Schema):
    seed = fields.String(required=True)
    generated = fields.Boolean(
        required=True,
        metadata={"description": "True when the service drew the seed (no cards or seed were sent)"},
    )
    algorithm = fields.String(required=True, metadata={"example": "hmac-sha256-fisher-yates/v1"})
    shoe_hash = fields.String(
        required=True,
        metadata={"description": "SHA-256 of the whole shuffled shoe's card codes joined by commas"},
    )


class SettledBetSchema(Schema):
    id = fields.String(attribute="bet.id", metadata={"description": "Echoed when sent"})
    type = fields.String(attribute="bet.type", required=True)
    amount = fields.String(required=True)
    result = fields.String(required=True, metadata={"enum": ["win", "lose", "push"]})
    win = fields.String(required=True, metadata={"description": "Profit; 0 unless the bet won"})
    commission = fields.String(required=True, metadata={"description": "Kept by the house from the win"})
    returned = fields.String(
        required=True,
        metadata={"description": "Paid back: stake + win on a win, the stake on a push, 0 on a loss"},
    )

    @post_dump
    def omit_absent_id(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if data.get("id", ...) is None:
            del data["id"]
        return data


class SlipOutSchema(Schema):
    bets = fields.List(fields.Nested(SettledBetSchema), required=True)
    staked = fields.String(required=True)
    returned = fields.String(required=True)
    net = fields.String(required=True, metadata={"description": "returned - staked"})


class SlipWithIdSchema(SlipOutSchema):
    id = fields.String(required=True)


class EngineSchema(Schema):
    name = fields.String(required=True)
    version = fields.String(required=True)


class RoundOutSchema(Schema):
    player = fields.Nested(HandSchema, attribute="coup.player", required=True)
    banker = fields.Nested(HandSchema, attribute="coup.banker", required=True)
    outcome = fields.String(
        attribute="coup.outcome", required=True, metadata={"enum": ["banker", "player", "tie"]}
    )
    natural = fields.Boolean(
        attribute="coup.natural", required=True, metadata={"description": "Either hand is a natural"}
    )
    draws = fields.List(
        fields.Nested(DrawSchema),
        attribute="coup.draws",
        required=True,
        metadata={"description": "Each third card drawn, with the rule"},
    )
    stands = fields.List(
        fields.Nested(StandSchema),
        attribute="coup.stands",
        required=True,
        metadata={"description": "Each hand that stood, with the rule"},
    )
    cards_used = fields.Integer(attribute="coup.cards_used", required=True)
    unused_cards = fields.List(
        CardCode(), required=True, metadata={"description": "Cards sent beyond those the round used"}
    )
    rules = fields.Nested(RulesSchema, required=True)
    seed = fields.Nested(SeedSchema, metadata={"description": "Seeded rounds only"})
    engine = fields.Nested(
        EngineSchema, required=True, dump_default=lambda: {"name": "baccarat-service", "version": __version__}
    )

    @post_dump
    def omit_absent(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Optional parts (``seed``, ``settlement``) are left out, not null."""
        for key in ("seed", "settlement"):
            if data.get(key, ...) is None:
                del data[key]
        return data


class RoundResponseSchema(RoundOutSchema):
    settlement = fields.Nested(SlipOutSchema, metadata={"description": "When bets were sent"})


class TotalsSchema(Schema):
    slips = fields.Integer(required=True)
    bets = fields.Integer(required=True)
    staked = fields.String(required=True)
    returned = fields.String(required=True)
    net = fields.String(required=True)


class SettlementResponseSchema(RoundOutSchema):
    slips = fields.List(fields.Nested(SlipWithIdSchema), required=True)
    totals = fields.Nested(TotalsSchema, required=True)
