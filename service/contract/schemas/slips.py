"""Bets and slips in requests: their fields, their bounds, and their plain path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import fields, post_load, validate

from ...baccarat.bets.types import Bet, BetType
from ...baccarat.requests import Slip
from ...baccarat.rulebook.cards import MAX_DECKS
from .base import RequestSchema
from .fields import Amount, BoundedList, Text, is_utf8, parse_amount
from .values import value_of

MAX_CARDS = 52 * MAX_DECKS


#: No shoe holds more rounds than a quarter of its cards (each round takes 4 or more).
MAX_ROUNDS = MAX_CARDS // 4


MAX_BETS_PER_SLIP = 50


#: A table's slips: what one request settles. The largest such request
#: (docs/performance.md, "Limits") fits the body limit, takes well under a
#: second, and four at once fit the pod's memory.
MAX_SLIPS = 10_000


MAX_TABLE_BETS = 30_000


#: The longest ``id`` a bet or a slip may carry.
MAX_REFERENCE = 64


BET_KEYS = frozenset({"id", "type", "amount"})


_BET_TYPES = {str(bet_type): bet_type for bet_type in BetType}


class BetSchema(RequestSchema):
    id = Text(
        validate=validate.Length(1, MAX_REFERENCE),
        metadata={"description": "Your reference, echoed back", "example": "b1"},
    )
    type = value_of(
        "BetType",
        required=True,
        description="A bet the table does not offer (its `rules.limits` has no such key) is a 422 naming it",
        example="dragon_bonus_player",
    )
    amount = Amount(required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Bet:
        return Bet(type=BetType(data["type"]), amount=data["amount"], id=data.get("id"))


def _reference(value: Any) -> bool:
    """What :class:`BetSchema` and :class:`SlipSchema` accept as an ``id``."""
    return type(value) is str and 0 < len(value) <= MAX_REFERENCE and is_utf8(value)


def plain_bet(value: Any) -> Bet | None:
    """The bet ``value`` sends when it is plainly valid: exactly what
    ``BetSchema().load(value)`` gives. None for anything else, which
    :class:`BetSchema` then loads and explains. A table's slips hold
    thousands of bets: the common case is checked here in plain code
    (tests/contract/schemas/test_rounds.py holds the two equal;
    docs/adr/0003-plain-paths-for-hot-requests-and-answers.md)."""
    if type(value) is not dict or not value.keys() <= BET_KEYS:
        return None
    kind, text = value.get("type"), value.get("amount")
    if type(kind) is not str or kind not in _BET_TYPES or type(text) is not str:
        return None
    amount = parse_amount(text)
    if isinstance(amount, str) or ("id" in value and not _reference(value["id"])):
        return None
    return Bet(type=_BET_TYPES[kind], amount=amount, id=value.get("id"))


def bets_field(description: str | None = None, **kwargs: Any) -> BoundedList:
    """A bet slip: a list of bets, each read by :func:`plain_bet` when it can be."""
    metadata = {} if description is None else {"description": description}
    return BoundedList(fields.Nested(BetSchema), plain=plain_bet, metadata=metadata, **kwargs)


def all_plain(items: list[Any], plain: Callable[[Any], Any]) -> list[Any] | None:
    """Each item read by ``plain``, or None when one is not plainly valid."""
    loaded = []
    for item in items:
        value = plain(item)
        if value is None:
            return None
        loaded.append(value)
    return loaded


class SlipSchema(RequestSchema):
    id = Text(
        required=True,
        validate=validate.Length(1, MAX_REFERENCE),
        metadata={"description": "Your slip reference", "example": "seat-3"},
    )
    bets = bets_field(required=True, validate=validate.Length(1, MAX_BETS_PER_SLIP))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Slip:
        return Slip(data["id"], tuple(data["bets"]))


def plain_slip(value: Any) -> Slip | None:
    """What ``SlipSchema().load(value)`` gives when ``value`` is plainly
    valid, else None (as :func:`plain_bet`)."""
    return slip_reader()(value)


def slip_reader() -> Callable[[Any], Slip | None]:
    """:func:`plain_slip` for the slips of one request, made afresh for each.

    A table's slips repeat a few bets (a type and an amount, as written, with
    no ``id``): the reader reads each such bet once, keeps it, and gives the
    same frozen :class:`Bet` to every slip that sends it again. What it keeps
    is the request's own and goes with it."""
    known: dict[tuple[str, str], Bet] = {}
    reference = _reference

    def read(value: Any) -> Slip | None:
        if type(value) is not dict:
            return None
        # With its "id" and "bets" there, a slip of two keys has no other.
        slip_id, sent = value.get("id"), value.get("bets")
        if len(value) != 2 or type(sent) is not list or not reference(slip_id):
            return None
        if not 0 < len(sent) <= MAX_BETS_PER_SLIP:
            return None
        bets = []
        for item in sent:
            if type(item) is not dict:
                return None
            kind, text = item.get("type"), item.get("amount")
            if type(kind) is not str or type(text) is not str:
                return None
            bet = known.get((kind, text))
            if bet is None:
                bet = plain_bet({"type": kind, "amount": text})
                if bet is None:
                    return None
                known[kind, text] = bet
            # Its keys are "type" and "amount", and "id" when there is a third.
            size = len(item)
            if size != 2:
                bet_id = item.get("id")
                if size != 3 or not reference(bet_id):
                    return None
                bet = Bet(type=bet.type, amount=bet.amount, id=bet_id)
            bets.append(bet)
        return Slip(slip_id, tuple(bets))

    return read
