"""What a request that plays a round brings: cards or seed inputs, the
studio's multiplier cards, and the plain path that reads a round of cards and bets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from ...baccarat.bets.types import Bet
from ...baccarat.multipliers.rule import MOST_MULTIPLIER, VIRTUAL_DECK
from ...baccarat.requests import CardSource
from ...baccarat.rulebook.cards import Card
from ...baccarat.rulebook.errors import ProblemCode
from ..scope import scope
from .base import RequestSchema
from .fields import BoundedList, CardCode, plain_card
from .messages import FieldCode, Message
from .rules import RulesOverrideSchema, table_field
from .seeds import SEED_SOURCES, SeedInputSchema, seed_inputs
from .slips import MAX_BETS_PER_SLIP, MAX_CARDS, all_plain, plain_bet


class RoundInputSchema(SeedInputSchema):
    """Where the cards come from (cards, or the seed inputs of
    :class:`SeedInputSchema`), and the table's rules."""

    cards = BoundedList(
        CardCode(),
        plain=plain_card,
        validate=validate.Length(1, MAX_CARDS),
        metadata={
            "description": "Cards in dealing order: Player, Banker, Player, Banker, then "
            "the Player's third card if drawn, then the Banker's. Extra "
            "cards are returned as `unused_cards`.",
            "example": ["9S", "KH", "2D", "7C", "5H"],
        },
    )
    round = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_CARDS),
        metadata={
            "description": "With seed inputs: deal this round (1 = the first after the burn) of the "
            "whole shoe, with burn and cut card, as POST /v1/shoes does. Without it a seeded "
            "round is dealt from the top of the freshly shuffled shoe, with no burn.",
            "example": 3,
        },
    )
    table = table_field("The table whose rules apply", example="ez")
    rules = fields.Nested(RulesOverrideSchema, load_default=dict)

    @validates_schema
    def cards_or_seed(self, data: dict[str, Any], **kwargs: Any) -> None:
        for source in SEED_SOURCES:
            if "cards" in data and source in data:
                raise ValidationError(Message.of(FieldCode.CARDS_AND_SEED, source=source), source)
        if "cards" in data and "round" in data:
            raise ValidationError(Message.of(ProblemCode.ROUND_WITH_CARDS), "round")


def card_source(data: dict[str, Any]) -> CardSource:
    """Where the cards of a request loaded by :class:`RoundInputSchema` come from."""
    cards, lit = data.get("cards"), data.get("multiplier_cards")
    return CardSource(
        cards=None if cards is None else tuple(cards),
        seed=seed_inputs(data),
        round_number=data.get("round"),
        commitment=data.get("server_seed_hash"),
        multiplier_cards=None if lit is None else tuple(lit),
    )


class MultiplierCardSchema(RequestSchema):
    """A multiplier card a studio drew: a card of the virtual 52-card deck and its multiplier."""

    card = CardCode(required=True, metadata={"example": "8H"})
    multiplier = fields.Integer(
        strict=True, required=True, validate=validate.Range(2, MOST_MULTIPLIER), metadata={"example": 8}
    )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> tuple[Card, int]:
        return data["card"], data["multiplier"]


def multiplier_cards_field(description: str) -> BoundedList:
    """A request's ``multiplier_cards``: the studio's, at a multiplier table."""
    return BoundedList(
        fields.Nested(MultiplierCardSchema),
        validate=validate.Length(max=VIRTUAL_DECK),
        metadata={"description": description, "example": [{"card": "8H", "multiplier": 8}]},
    )


#: The keys of the request :func:`plain_round` reads.
PLAIN_ROUND_KEYS = frozenset({"cards", "bets", "table"})


def plain_table_round(
    value: Any, card: Callable[[Any], Any], *, min_cards: int
) -> tuple[str, list[Any], list[Bet]] | None:
    """The table, cards (each read by ``card``) and bets of a body that sends
    only those, when it is plainly valid; None for anything else."""
    if type(value) is not dict or not value.keys() <= PLAIN_ROUND_KEYS:
        return None
    tables = scope().tables
    codes, sent, table = value.get("cards", []), value.get("bets", []), value.get("table", tables.default)
    if type(codes) is not list or not min_cards <= len(codes) <= MAX_CARDS or type(sent) is not list:
        return None
    if len(sent) > MAX_BETS_PER_SLIP or type(table) is not str or not tables.plain_play(table):
        return None
    cards, bets = all_plain(codes, card), all_plain(sent, plain_bet)
    if cards is None or bets is None:
        return None
    return table, cards, bets


STUDIO_MULTIPLIER_CARDS = (
    "With `cards`, at a multiplier table (`rules.multipliers`): the multiplier cards the studio "
    "drew, each card once, as many as the game draws. A seeded round draws its own from the seed "
    "inputs (docs/multipliers.md)"
)
