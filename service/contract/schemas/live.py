"""Rounds dealt live, card by card: request and response bodies of POST
/v1/rounds/live, and the round in progress of a physical shoe."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, post_load, validate

from ...baccarat.play.round import PlayedRound
from ...baccarat.requests import LiveRoundRequest
from ...baccarat.rulebook.cards import Card
from ...baccarat.rulebook.coup import Side
from ..answers import live_round_answer
from .base import AnswerSchema, PlainDump, PlainFirst, RequestSchema
from .fields import BoundedList, CardCode, plain_card
from .messages import FieldCode, Message
from .round_answers import DealtAtSchema, ReasonSchema, engine_field
from .round_inputs import multiplier_cards_field, plain_table_round
from .rounds import RoundResponseSchema
from .rules import RoundRulesOverrideSchema, RulesSchema, table_field, table_rules
from .slips import MAX_BETS_PER_SLIP, MAX_CARDS, bets_field
from .values import value_of

#: A card and the hand it was placed with (``None``: not said).
DealtCard = tuple[Card, Side | None]


class TaggedCardSchema(RequestSchema):
    """A card with the hand the dealer placed it with, as a scanner at the
    table reports it."""

    card = CardCode(required=True)
    hand = value_of("Side", required=True, description="The hand the card was placed with", example="banker")

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> DealtCard:
        return data["card"], Side(data["hand"])


def plain_dealt_card(value: Any) -> DealtCard | None:
    """A plain card code, as :class:`DealtCardField` loads it; None for anything else."""
    card = plain_card(value)
    return None if card is None else (card, None)


class DealtCardField(fields.Field[DealtCard]):
    """A card code, or a card tagged with its hand."""

    doc: ClassVar[dict[str, Any]] = {
        "oneOf": [
            {"type": "string", "pattern": CardCode.doc["pattern"]},
            {"$ref": "#/components/schemas/TaggedCard"},
        ],
        "description": "A card code (`9S`), or `{card, hand}` when the scanner knows the hand "
        "the card was placed with: then a card placed with the wrong hand is a `misdeal`",
        "example": "9S",
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata=self.doc, **kwargs)
        self.code, self.tagged = CardCode(), TaggedCardSchema()

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> DealtCard:
        if isinstance(value, dict):
            tagged: DealtCard = self.tagged.load(value)
            return tagged
        if isinstance(value, str):
            return self.code.deserialize(value), None
        raise ValidationError(Message.of(FieldCode.NOT_A_DEALT_CARD))


def dealt_cards(description: str, **kwargs: Any) -> BoundedList:
    return BoundedList(
        DealtCardField(),
        plain=plain_dealt_card,
        metadata={"description": description, "example": ["9S", "KH", {"card": "2D", "hand": "player"}]},
        **kwargs,
    )


def cards_and_hands(dealt: list[DealtCard]) -> tuple[tuple[Card, ...], tuple[Side | None, ...]]:
    """The cards dealt, and the hand each was placed with, or no hands when
    no card is tagged with one."""
    cards = tuple(card for card, _ in dealt)
    hands = tuple(hand for _, hand in dealt)
    return cards, hands if any(hands) else ()


def live_round_request(
    table: str,
    overrides: Mapping[str, Any],
    dealt: list[DealtCard],
    bets: list[Any],
    multiplier_cards: list[tuple[Card, int]] | None = None,
) -> LiveRoundRequest:
    cards, hands = cards_and_hands(dealt)
    return LiveRoundRequest(
        rules=table_rules(table, overrides),
        cards=cards,
        hands=hands,
        bets=tuple(bets),
        multiplier_cards=None if multiplier_cards is None else tuple(multiplier_cards),
    )


def plain_live_round(value: Any) -> LiveRoundRequest | None:
    """What ``LiveRoundRequestSchema().load(value)`` gives for card codes and
    bets at a table preset, when plainly valid; None for anything else."""
    plain = plain_table_round(value, plain_dealt_card, min_cards=0)
    if plain is None:
        return None
    table, cards, bets = plain
    return live_round_request(table, {}, cards, bets)


LIVE_CARDS_DESCRIPTION = (
    "The cards dealt so far, in the order they left the shoe (0 to 6 of them): Player, "
    "Banker, Player, Banker, then third cards as the tableau calls for them. A card after "
    "the round is over, or placed with a hand that must not receive it, is a `misdeal`."
)


class LiveRoundRequestSchema(PlainFirst):
    cards = dealt_cards(LIVE_CARDS_DESCRIPTION, load_default=list, validate=validate.Length(max=MAX_CARDS))
    table = table_field("Table preset (GET /v1/tables)", example="standard")
    rules = fields.Nested(RoundRulesOverrideSchema, load_default=dict)
    bets = bets_field(
        "An optional bet slip: checked against the table at once, settled once the round is complete",
        load_default=list,
        validate=validate.Length(max=MAX_BETS_PER_SLIP),
    )
    multiplier_cards = multiplier_cards_field(
        "At a multiplier table (`rules.multipliers`), with every call: the multiplier cards the "
        "studio drew after bets closed, before the deal, each card once, as many as the game draws; "
        "checked while the round goes on, and the complete round is settled by them (docs/multipliers.md)"
    )
    plain = staticmethod(plain_live_round)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> LiveRoundRequest:
        return live_round_request(
            data["table"], data["rules"], data["cards"], data["bets"], data.get("multiplier_cards")
        )


# --- responses ----------------------------------------------------------------


class HandSoFarSchema(AnswerSchema):
    cards = fields.List(CardCode(), required=True)
    total = fields.Integer(required=True, metadata={"description": "Total so far, 0-9"})
    natural = fields.Boolean(
        required=True,
        metadata={"description": "Always false while the round goes on: a natural ends the round"},
    )


class _NextPlace(AnswerSchema):
    hand = value_of("Side", required=True, description="The hand it goes to")
    place = value_of(
        "Place", required=True, description="Which card of the round it is", example="player_third"
    )
    position = fields.Integer(
        required=True, metadata={"description": "Its index in `cards` once it is dealt (from 0)"}
    )


class NextCardSchema(ReasonSchema, _NextPlace):
    """The card needed next, and the rule that calls for it (where it goes
    comes first: the fields of the later base come first)."""


class RoundSoFarSchema(AnswerSchema):
    """A round in progress, as a shoe's answer holds it."""

    player = fields.Nested(HandSoFarSchema, attribute="round.player", required=True)
    banker = fields.Nested(HandSoFarSchema, attribute="round.banker", required=True)
    cards_dealt = fields.Integer(attribute="round.cards_dealt", required=True)
    next = fields.Nested(
        NextCardSchema,
        attribute="round.next",
        required=True,
        metadata={"description": "The card needed next"},
    )


class _Incomplete(AnswerSchema):
    complete = fields.Boolean(
        required=True,
        dump_default=False,
        metadata={"enum": [False], "description": "False: the round needs the `next` card"},
    )


class LiveRoundInProgressSchema(RoundSoFarSchema, _Incomplete, DealtAtSchema):
    """The answer of POST /v1/rounds/live while the round needs more cards
    (``complete`` comes first: the fields of the later base come first)."""

    rules = fields.Nested(RulesSchema, required=True)
    engine = engine_field()


class LiveRoundAnswerSchema(PlainDump):
    """The answer of POST /v1/rounds/live: the round so far
    (:class:`LiveRoundInProgressSchema`) while it needs cards, then the
    complete round (:class:`.rounds.RoundResponseSchema`). The OpenAPI
    document gives it as a ``oneOf`` of the two (service/api/views/rounds.py)."""

    plain = staticmethod(live_round_answer)

    def marshmallow_dump(self, obj: Any) -> dict[str, Any]:
        if isinstance(obj, PlayedRound):
            return RoundResponseSchema().marshmallow_dump(obj)
        dumped: dict[str, Any] = LiveRoundInProgressSchema().dump(obj)
        return dumped


class _Numbered(AnswerSchema):
    number = fields.Integer(required=True, metadata={"description": "The round's number in the shoe"})


class ShoeRoundInProgressSchema(RoundSoFarSchema, _Numbered):
    """A physical shoe's round whose cards ran out: its number and what comes next."""


#: Components that ``oneOf`` lists refer to by name: the object form of a
#: dealt card (:class:`DealtCardField`) and the answer of a round in progress
#: (POST /v1/rounds/live answers it or a complete round).
LIVE_FORMS: Mapping[str, type[Schema]] = {
    "TaggedCard": TaggedCardSchema,
    "LiveRoundInProgress": LiveRoundInProgressSchema,
}
