"""The minimal answers of POST /v1/rounds and POST /v1/settlements, which a
caller asks for with ``Prefer: return=minimal`` (RFC 7240; docs/integration.md):
the round's cards, totals and outcome, and each bet's amounts, as codes and
decimal strings. No sentence (so the same bytes in every language), no
echoed rules (their ``rules_id`` names them: GET /v1/rules), no draws and
stands (the hands' cards say them), and at a multiplier table no counted and
lit cards per bet (its ``multiplier`` says what they made).

Each answer says ``minimal: true``; its signature covers it like the full
answer's, and a replay writes the same form again. The operation's answer
schema (:class:`RoundAnswerSchema`, :class:`SettlementAnswerSchema`) dumps
either form: the full one for the engine's round, the minimal one for a
:class:`~service.contract.answers.Minimal`; the OpenAPI document gives it
as a ``oneOf`` of the two (service/api/views/rounds.py). As the full
answers, each is written by a plain function held equal to the schema's
own dump (tests/contract/test_answers.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from marshmallow import Schema, fields

from ..answers import Minimal, minimal_round_answer, minimal_settlement_answer
from .base import AnswerSchema, PlainDump
from .fields import CardCode
from .round_answers import (
    DealtAtSchema,
    RoundPlaceSchema,
    SeedSchema,
    engine_field,
    multiplier_algorithm_field,
    multiplier_cards_out_field,
)
from .rounds import RoundResponseSchema
from .settlements import SettlementResponseSchema, TableSlips, TotalsSchema
from .values import value_of


class MinimalHandSchema(AnswerSchema):
    cards = fields.List(CardCode(), required=True)
    total = fields.Integer(required=True, metadata={"description": "Final total, 0-9"})


class MinimalBetSchema(AnswerSchema):
    """A settled bet: its amounts and the pay line's code."""

    id = fields.String(attribute="bet.id", metadata={"description": "Echoed when sent"})
    type = value_of("BetType", attribute="bet.type", required=True)
    amount = fields.String(attribute="terms.amount", required=True)
    result = value_of("BetResult", attribute="terms.result", required=True)
    win = fields.String(attribute="terms.win", required=True)
    commission = fields.String(attribute="terms.commission", required=True)
    returned = fields.String(attribute="terms.returned", required=True)
    code = value_of("PayLineCode", attribute="terms.line.code", required=True)

    OMIT_IF_NONE = frozenset({"id"})


class MinimalMultipliedBetSchema(AnswerSchema):
    """A bet settled at a multiplier table: its amounts, the multiplier its
    lit cards made, and the pay line's code."""

    id = fields.String(attribute="bet.id", metadata={"description": "Echoed when sent"})
    type = value_of("BetType", attribute="bet.type", required=True)
    amount = fields.String(attribute="terms.stake", required=True)
    result = value_of("BetResult", attribute="terms.result", required=True)
    fee = fields.String(attribute="terms.fee", required=True)
    multiplier = fields.Integer(attribute="terms.multiplier", required=True)
    win = fields.String(attribute="terms.win", required=True)
    commission = fields.String(attribute="terms.commission", required=True)
    capped = fields.String(attribute="terms.capped", required=True)
    fee_kept = fields.String(attribute="terms.fee_kept", required=True)
    returned = fields.String(attribute="terms.returned", required=True)
    code = value_of("PayLineCode", attribute="terms.line.code", required=True)

    OMIT_IF_NONE = frozenset({"id"})


class MinimalSlipSchema(AnswerSchema):
    bets = fields.List(fields.Nested(MinimalBetSchema), required=True)
    staked = fields.String(required=True)
    returned = fields.String(required=True)
    net = fields.String(required=True, metadata={"description": "returned - staked"})


class MinimalMultipliedSlipSchema(AnswerSchema):
    bets = fields.List(fields.Nested(MinimalMultipliedBetSchema), required=True)
    staked = fields.String(required=True)
    fees = fields.String(required=True)
    returned = fields.String(required=True)
    capped = fields.String(required=True)
    net = fields.String(required=True, metadata={"description": "returned - staked - fees"})


class MinimalSlipWithIdSchema(MinimalSlipSchema):
    id = fields.String(required=True)


class MinimalMultipliedSlipWithIdSchema(MinimalMultipliedSlipSchema):
    id = fields.String(required=True)


class MinimalOutSchema(DealtAtSchema):
    """What both minimal answers say of the round."""

    minimal = fields.Boolean(
        required=True,
        dump_default=True,
        metadata={
            "enum": [True],
            "description": "True: the minimal answer, asked for with `Prefer: return=minimal` "
            "(the full answer has no such key)",
        },
    )
    outcome = value_of("Outcome", attribute="coup.outcome", required=True)
    outcome_code = value_of(
        "ReasonCode", attribute="coup.reason.code", required=True, description="Why the round ended as it did"
    )
    player = fields.Nested(MinimalHandSchema, attribute="coup.player", required=True)
    banker = fields.Nested(MinimalHandSchema, attribute="coup.banker", required=True)
    natural = fields.Boolean(attribute="coup.natural", required=True)
    cards_used = fields.Integer(attribute="coup.cards_used", required=True)
    rules_id = fields.String(
        attribute="rules.id",
        required=True,
        metadata={
            "description": "The id of the rules the round was played by (the full answer's `rules.id`)"
        },
    )
    seed = fields.Nested(SeedSchema, metadata={"description": "Seeded rounds only"})
    round = fields.Nested(
        RoundPlaceSchema,
        attribute="shoe_round",
        metadata={"description": "When a round number was sent: where the round lies in its shoe"},
    )
    multiplier_cards = multiplier_cards_out_field("the round's multiplier cards")
    multiplier_algorithm = multiplier_algorithm_field("multiplier_cards.algorithm")

    OMIT_IF_NONE = frozenset({"seed", "round", "multiplier_cards", "multiplier_algorithm"})


class MinimalRoundSchema(MinimalOutSchema, PlainDump):
    settlement = fields.Nested(MinimalSlipSchema, metadata={"description": "When bets were sent"})
    multiplier_settlement = fields.Nested(
        MinimalMultipliedSlipSchema,
        attribute="multiplied",
        metadata={"description": "At a multiplier table, when bets were sent (instead of `settlement`)"},
    )
    engine = engine_field()

    OMIT_IF_NONE = MinimalOutSchema.OMIT_IF_NONE | {"settlement", "multiplier_settlement"}

    plain = staticmethod(minimal_round_answer)


class MinimalSettlementSchema(MinimalOutSchema, PlainDump):
    slips = TableSlips(
        MinimalSlipWithIdSchema,
        multiplied=False,
        metadata={"description": "At a plain table: each slip settled, in the order sent"},
    )
    multiplier_slips = TableSlips(
        MinimalMultipliedSlipWithIdSchema,
        multiplied=True,
        attribute="multiplied_slips",
        metadata={"description": "At a multiplier table, instead of `slips`: each slip settled by the rule"},
    )
    totals = fields.Nested(TotalsSchema, required=True)
    engine = engine_field()

    OMIT_IF_NONE = MinimalOutSchema.OMIT_IF_NONE | {"slips", "multiplier_slips"}

    plain = staticmethod(minimal_settlement_answer)


class AnswerForms(AnswerSchema):
    """An operation's answer in either form: :attr:`full` dumps the engine's
    round, :attr:`minimal` a :class:`~service.contract.answers.Minimal`."""

    full: ClassVar[Schema]
    minimal: ClassVar[Schema]

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        if isinstance(obj, Minimal):
            return self.minimal.dump(obj.played, many=many)
        return self.full.dump(obj, many=many)


class RoundAnswerSchema(AnswerForms):
    """POST /v1/rounds' answer: the full round, or its minimal form."""

    full = RoundResponseSchema()
    minimal = MinimalRoundSchema()


class SettlementAnswerSchema(AnswerForms):
    """POST /v1/settlements' answer: the full settlement, or its minimal form."""

    full = SettlementResponseSchema()
    minimal = MinimalSettlementSchema()


#: The components the two operations' ``oneOf`` names.
MINIMAL_FORMS: Mapping[str, type[Schema]] = {
    "RoundResponse": RoundResponseSchema,
    "RoundMinimal": MinimalRoundSchema,
    "SettlementResponse": SettlementResponseSchema,
    "SettlementMinimal": MinimalSettlementSchema,
}
