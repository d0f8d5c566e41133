"""The parts of every answer that shows a round: hands, reasons, the seed,
settled bets and slips, the engine, the place in a shoe, and a multiplier
table's multiplier cards and multiplied bets (POST /v1/rounds, /v1/settlements,
/v1/rounds/live, /v1/shoes)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, post_dump, validate

from ...baccarat.rulebook.tableau import Reason
from ...provenance.build import engine
from ..language import current
from ..scope import named_table, scope
from .base import AnswerSchema
from .fields import CardCode
from .rules import RulesSchema
from .values import value_of


class HandSchema(AnswerSchema):
    cards = fields.List(CardCode(), required=True)
    total = fields.Integer(required=True, metadata={"description": "Final total, 0-9"})
    natural = fields.Boolean(required=True, metadata={"description": "Two cards totalling 8 or 9"})
    pair = fields.Boolean(required=True, metadata={"description": "First two cards share a rank"})
    perfect_pair = fields.Boolean(
        required=True, metadata={"description": "First two cards share rank and suit"}
    )


class ReasonValuesSchema(AnswerSchema):
    """The values a reason was decided from: those its rule reads."""

    player_total = fields.Integer(metadata={"description": "The Player's total the rule read"})
    banker_total = fields.Integer(metadata={"description": "The Banker's total the rule read"})
    player_third = fields.Integer(
        metadata={"description": "The point value of the Player's third card, when the rule read it"}
    )


class Sentence(fields.Field[str]):
    """One of the engine's English sentences, written in the answer's language."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else current().say(value)


class ReasonText(fields.Field[Reason]):
    """A rule's sentence, written in the answer's language (``Content-Language``)."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else current().reason(value)


class ReasonSchema(AnswerSchema):
    """Why: a rule's code, the values it was decided from and its sentence,
    read from the ``reason`` of the object dumped (a draw, a stand, a round)."""

    code = value_of("ReasonCode", attribute="reason.code", required=True)
    values = fields.Nested(ReasonValuesSchema, attribute="reason.values", required=True)
    reason = ReasonText(
        required=True,
        metadata={
            "type": "string",
            "description": "The code's sentence filled with the values, in the answer's language "
            "(`Content-Language`); docs/integration.md shows how to write your own from the code",
            "example": "Player's two-card total is 3: the Player draws on 0-5",
        },
    )


class _OfHand(AnswerSchema):
    hand = value_of("Side", required=True)


class StandSchema(ReasonSchema, _OfHand):
    """A hand that stood, and the rule (``hand`` comes first: the fields of the later base come first)."""


class DrawSchema(StandSchema):
    card = CardCode(required=True, metadata={"description": "The card drawn"})


class SeedSchema(AnswerSchema):
    seed = fields.String(required=True, metadata={"description": "The server seed (a plain seed is one)"})
    server_seed = fields.String(attribute="inputs.server_seed", required=True)
    client_seed = fields.String(attribute="inputs.client_seed", required=True)
    nonce = fields.Integer(attribute="inputs.nonce", required=True)
    server_seed_hash = fields.String(
        attribute="inputs.server_seed_hash",
        required=True,
        metadata={"description": "SHA-256 of the server seed: the commitment published before play"},
    )
    generated = fields.Boolean(
        required=True,
        metadata={"description": "True when the service drew the seed (no cards or seed were sent)"},
    )
    algorithm = fields.String(required=True, metadata={"example": "hmac-sha256-fisher-yates/v1"})
    shoe_hash = fields.String(
        required=True,
        metadata={"description": "SHA-256 of the whole shuffled shoe's card codes joined by commas"},
    )


def line_sentence(attribute: str) -> Sentence:
    """A settled bet's ``reason``: the sentence of the pay line that settled it."""
    return Sentence(
        attribute=attribute,
        required=True,
        metadata={
            "type": "string",
            "description": "The line's sentence in the answer's language (GET /v1/paytables lists each "
            "pay table's lines)",
            "example": "Banker wins with a total of 6",
        },
    )


class SettledBetSchema(AnswerSchema):
    id = fields.String(attribute="bet.id", metadata={"description": "Echoed when sent"})
    type = value_of("BetType", attribute="bet.type", required=True)
    amount = fields.String(required=True)
    result = value_of("BetResult", required=True)
    win = fields.String(required=True, metadata={"description": "Profit; 0 unless the bet won"})
    commission = fields.String(required=True, metadata={"description": "Kept by the house from the win"})
    returned = fields.String(
        required=True,
        metadata={"description": "Paid back: stake + win on a win, the stake on a push, 0 on a loss"},
    )
    code = value_of("PayLineCode", attribute="terms.line.code", required=True)
    reason = line_sentence("terms.line.when")

    OMIT_IF_NONE = frozenset({"id"})


class SlipOutSchema(AnswerSchema):
    bets = fields.List(fields.Nested(SettledBetSchema), required=True)
    staked = fields.String(required=True)
    returned = fields.String(required=True)
    net = fields.String(required=True, metadata={"description": "returned - staked"})


class EngineSchema(AnswerSchema):
    """The engine that wrote an answer: the build a lab certifies (docs/build-digest.md)."""

    name = fields.String(required=True, metadata={"example": "baccarat-service"})
    version = fields.String(required=True, metadata={"example": "1.0.0"})
    digest = fields.String(
        required=True,
        validate=validate.Regexp(r"^[0-9a-f]{64}$"),
        metadata={
            "description": "The SHA-256 (hex) of the manifest of the engine's critical files as "
            "installed (every file of service/baccarat): the build, as `baccarat verify-build` and "
            "the release's published digest name it (docs/build-digest.md)",
            "example": "4d1f0c6e9a3b7f2e8c5d0a1b6e3f9c7d2a8b5e1f4c0d7a3b9e6f2c8d5a1b4e7f",
        },
    )


class DealtAtSchema(AnswerSchema):
    """Where an answer was dealt: the table its request named and the operator
    whose key asked (:func:`..scope.dealt_at`), in the signed body, so that a
    stored answer says whose round it was and a replay by another operator's
    key does not match it."""

    table = fields.Function(
        lambda _: named_table(),
        metadata={
            "type": "string",
            "description": "The table the request named (or took by default)",
            "example": "standard",
        },
    )
    operator = fields.Function(
        lambda _: scope().operator,
        metadata={
            "type": "string",
            "description": "The operator whose API key asked (docs/operations/tables.md); none for a "
            "key that names no operator",
            "example": "han_river_casino",
        },
    )

    @post_dump
    def named_only(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        for key in ("table", "operator"):
            if data.get(key) is None:
                data.pop(key, None)
        return data


def engine_field(description: str | None = None) -> fields.Nested:
    """An answer's ``engine``: always this build's
    (:func:`~service.provenance.build.engine`, computed at start)."""
    metadata = {} if description is None else {"description": description}
    return fields.Nested(EngineSchema, required=True, dump_default=engine, metadata=metadata)


class PositionsSchema(AnswerSchema):
    player = fields.List(fields.Integer(), required=True, metadata={"description": "Player's cards"})
    banker = fields.List(fields.Integer(), required=True, metadata={"description": "Banker's cards"})


class RoundPlaceSchema(AnswerSchema):
    """Where a round lies in its whole shoe (positions count from 0, the top)."""

    number = fields.Integer(required=True, metadata={"description": "1 = the first round after the burn"})
    positions = fields.Nested(PositionsSchema, required=True)
    cut_card_out = fields.Boolean(required=True, metadata={"description": "The cut card came out in it"})
    last = fields.Boolean(required=True, metadata={"description": "The shoe's last round"})


class RoundOutSchema(DealtAtSchema):
    complete = fields.Boolean(
        required=True,
        dump_default=True,
        metadata={
            "enum": [True],
            "description": "True: the round is dealt to its end (POST /v1/rounds/live answers "
            "`complete: false` while it needs more cards)",
        },
    )
    player = fields.Nested(HandSchema, attribute="coup.player", required=True)
    banker = fields.Nested(HandSchema, attribute="coup.banker", required=True)
    outcome = value_of("Outcome", attribute="coup.outcome", required=True)
    outcome_reason = fields.Nested(
        ReasonSchema,
        attribute="coup",
        required=True,
        metadata={"description": "Why the round ended as it did: the final totals compared"},
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
    round = fields.Nested(
        RoundPlaceSchema,
        attribute="shoe_round",
        metadata={"description": "When a round number was sent: where the round lies in its shoe"},
    )
    engine = engine_field()

    OMIT_IF_NONE = frozenset({"seed", "round", "settlement"})


class MultiplierCardOutSchema(AnswerSchema):
    card = CardCode(required=True, metadata={"example": "8H"})
    multiplier = fields.Integer(required=True, metadata={"example": 8})


def multiplier_cards_out_field(what: str) -> fields.List[Any]:
    """An answer's ``multiplier_cards``: at a multiplier table, ``what``, in the order drawn."""
    return fields.List(
        fields.Nested(MultiplierCardOutSchema),
        attribute="multiplier_cards.cards",
        metadata={"description": f"At a multiplier table: {what}, in the order drawn"},
    )


def multiplier_algorithm_field(attribute: str, description: str | None = None) -> fields.String:
    """An answer's ``multiplier_algorithm``: how the multiplier cards were drawn from the seed inputs."""
    return fields.String(
        attribute=attribute,
        metadata={
            "description": description
            or "At a multiplier table, when the multiplier cards were drawn from the seed "
            "inputs: the derivation (docs/multipliers.md)",
            "example": "hmac-sha256-multiplier-cards/v1",
        },
    )


class MultipliedBetSchema(AnswerSchema):
    """A bet settled at a multiplier table: what counted for it, what was
    lit, the multiplier they formed, what it won and what the fee cost."""

    id = fields.String(attribute="bet.id", metadata={"description": "Echoed when sent"})
    type = value_of("BetType", attribute="bet.type", required=True)
    amount = fields.String(attribute="stake", required=True)
    result = value_of("BetResult", required=True)
    fee = fields.String(required=True, metadata={"description": "Charged on top of the stake"})
    counted = fields.List(
        CardCode(), required=True, metadata={"description": "The round's cards that count for the bet"}
    )
    lit = fields.List(
        fields.Nested(MultiplierCardOutSchema),
        required=True,
        metadata={"description": "The counted cards that are multiplier cards, once per time they count"},
    )
    multiplier = fields.Integer(
        required=True,
        metadata={"description": "The product of the lit cards' multipliers (1 when none is lit)"},
    )
    win = fields.String(required=True, metadata={"description": "Profit after the cap; 0 unless the bet won"})
    commission = fields.String(required=True, metadata={"description": "The share of the stake a win keeps"})
    capped = fields.String(required=True, metadata={"description": "What the cap took off the win"})
    fee_kept = fields.String(required=True, metadata={"description": "The part of the fee the house keeps"})
    returned = fields.String(
        required=True,
        metadata={"description": "Paid back: stake + win on a win, the stake on a push, 0 on a loss"},
    )
    code = value_of(
        "PayLineCode",
        attribute="line.code",
        required=True,
        description="The line of the bet's standard pay table that settled it: a multiplier rule "
        "changes what a win pays, not when a bet wins",
    )
    reason = line_sentence("line.when")

    OMIT_IF_NONE = frozenset({"id"})


class MultipliedSlipSchema(AnswerSchema):
    bets = fields.List(fields.Nested(MultipliedBetSchema), required=True)
    staked = fields.String(required=True)
    fees = fields.String(required=True)
    returned = fields.String(required=True)
    capped = fields.String(required=True, metadata={"description": "What the cap took off the slip's wins"})
    net = fields.String(required=True, metadata={"description": "returned - staked - fees"})
