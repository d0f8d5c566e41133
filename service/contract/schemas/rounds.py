"""POST /v1/rounds: the request and the answer of one round."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, post_load, validate

from ...baccarat.requests import CardSource, RoundRequest
from ..answers import round_answer
from .base import PlainDump, PlainFirst
from .fields import plain_card
from .round_answers import (
    MultipliedSlipSchema,
    RoundOutSchema,
    SlipOutSchema,
    multiplier_algorithm_field,
    multiplier_cards_out_field,
)
from .round_inputs import (
    STUDIO_MULTIPLIER_CARDS,
    RoundInputSchema,
    card_source,
    multiplier_cards_field,
    plain_table_round,
)
from .rules import RoundRulesOverrideSchema, table_rules
from .slips import MAX_BETS_PER_SLIP, bets_field


def plain_round(value: Any) -> RoundRequest | None:
    """What ``RoundRequestSchema().load(value)`` gives for a round of cards
    and bets at a table preset, when it is plainly valid; None for anything
    else (seeds, rule overrides, any error), which the schema loads and
    explains. A table sends this request for every round it deals
    (docs/adr/0003-plain-paths-for-hot-requests-and-answers.md)."""
    plain = plain_table_round(value, plain_card, min_cards=1)
    if plain is None:
        return None
    table, cards, bets = plain
    return RoundRequest(rules=table_rules(table), source=CardSource(cards=tuple(cards)), bets=tuple(bets))


class RoundRequestSchema(RoundInputSchema, PlainFirst):
    bets = bets_field(
        "An optional bet slip to settle on the round",
        load_default=list,
        validate=validate.Length(max=MAX_BETS_PER_SLIP),
    )
    rules = fields.Nested(RoundRulesOverrideSchema, load_default=dict)
    multiplier_cards = multiplier_cards_field(STUDIO_MULTIPLIER_CARDS)
    plain = staticmethod(plain_round)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> RoundRequest:
        rules = table_rules(data["table"], data["rules"])
        return RoundRequest(rules=rules, source=card_source(data), bets=tuple(data["bets"]))


class RoundResponseSchema(RoundOutSchema, PlainDump):
    settlement = fields.Nested(SlipOutSchema, metadata={"description": "When bets were sent"})
    multiplier_cards = multiplier_cards_out_field("the round's multiplier cards")
    multiplier_algorithm = multiplier_algorithm_field("multiplier_cards.algorithm")
    multiplier_settlement = fields.Nested(
        MultipliedSlipSchema,
        attribute="multiplied",
        metadata={"description": "At a multiplier table, when bets were sent (instead of `settlement`)"},
    )

    OMIT_IF_NONE = RoundOutSchema.OMIT_IF_NONE | {
        "multiplier_cards",
        "multiplier_algorithm",
        "multiplier_settlement",
    }

    plain = staticmethod(round_answer)
