"""POST /v1/settlements: many slips settled on one round, the request and the answer."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from ...baccarat.requests import SettlementRequest
from ..answers import settlement_answer
from .base import AnswerSchema, PlainDump
from .fields import BoundedList
from .messages import FieldCode, Message
from .round_answers import (
    MultipliedSlipSchema,
    RoundOutSchema,
    SlipOutSchema,
    multiplier_algorithm_field,
    multiplier_cards_out_field,
)
from .round_inputs import STUDIO_MULTIPLIER_CARDS, RoundInputSchema, card_source, multiplier_cards_field
from .rules import RoundRulesOverrideSchema, table_rules
from .slips import (
    MAX_SLIPS,
    MAX_TABLE_BETS,
    SlipSchema,
    slip_reader,
)


class SettlementRequestSchema(RoundInputSchema):
    slips = BoundedList(
        fields.Nested(SlipSchema),
        reader=slip_reader,
        required=True,
        validate=validate.Length(1, MAX_SLIPS),
        metadata={"description": f"Up to {MAX_SLIPS:,} bet slips, {MAX_TABLE_BETS:,} bets in all"},
    )
    rules = fields.Nested(RoundRulesOverrideSchema, load_default=dict)
    multiplier_cards = multiplier_cards_field(STUDIO_MULTIPLIER_CARDS)

    @validates_schema
    def not_too_many_bets(self, data: dict[str, Any], **kwargs: Any) -> None:
        bets = sum(len(slip.bets) for slip in data.get("slips", ()))
        if bets > MAX_TABLE_BETS:
            message = Message.of(FieldCode.TOO_MANY_BETS, bets=bets, most=MAX_TABLE_BETS)
            raise ValidationError(message, "slips")

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> SettlementRequest:
        rules = table_rules(data["table"], data["rules"])
        return SettlementRequest(rules=rules, source=card_source(data), slips=tuple(data["slips"]))


class SlipWithIdSchema(SlipOutSchema):
    id = fields.String(required=True)


class TotalsSchema(AnswerSchema):
    slips = fields.Integer(required=True)
    bets = fields.Integer(required=True)
    staked = fields.String(required=True)
    returned = fields.String(required=True)
    net = fields.String(
        required=True, metadata={"description": "Returned less staked (at a multiplier table, less fees too)"}
    )
    fees = fields.String(
        metadata={"description": "At a multiplier table (`rules.multipliers`): the fees the slips paid"}
    )
    capped = fields.String(
        metadata={"description": "At a multiplier table: what the cap took off the slips' wins"}
    )

    OMIT_IF_NONE = frozenset({"fees", "capped"})


class TableSlips(fields.List[Any]):
    """A settlement answer's slips of one kind of table: ``slips`` at a
    plain table, ``multiplier_slips`` at a multiplier table (``rules.multipliers``);
    null, so left out, at the other, as a round's ``settlement`` and
    ``multiplier_settlement`` are."""

    def __init__(self, slip: type[AnswerSchema], *, multiplied: bool, **kwargs: Any) -> None:
        super().__init__(fields.Nested(slip), **kwargs)
        self.multiplied = multiplied

    def serialize(self, attr: str, obj: Any, accessor: Any = None, **kwargs: Any) -> Any:
        if (obj.rules.multipliers is not None) is not self.multiplied:
            return None
        return super().serialize(attr, obj, accessor, **kwargs)


class MultipliedSlipWithIdSchema(MultipliedSlipSchema):
    id = fields.String(required=True)


class SettlementResponseSchema(RoundOutSchema, PlainDump):
    slips = TableSlips(
        SlipWithIdSchema,
        multiplied=False,
        metadata={"description": "At a plain table: each slip settled, in the order sent"},
    )
    multiplier_cards = multiplier_cards_out_field("the round's multiplier cards")
    multiplier_algorithm = multiplier_algorithm_field("multiplier_cards.algorithm")
    multiplier_slips = TableSlips(
        MultipliedSlipWithIdSchema,
        multiplied=True,
        attribute="multiplied_slips",
        metadata={
            "description": "At a multiplier table (`rules.multipliers`), instead of `slips`: each slip "
            "settled by the rule, in the order sent, the cap applied to each slip on its own"
        },
    )
    totals = fields.Nested(TotalsSchema, required=True)

    OMIT_IF_NONE = RoundOutSchema.OMIT_IF_NONE | {
        "slips",
        "multiplier_cards",
        "multiplier_algorithm",
        "multiplier_slips",
    }

    plain = staticmethod(settlement_answer)
