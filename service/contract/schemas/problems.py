"""The error shape, documented once: a problem, its field errors, and the
values a field error's sentence is made from (every placeholder of every
code's template: tests/contract/test_problems.py holds the two equal)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields

from .round_answers import ReasonValuesSchema
from .values import value_of


def _text(description: str, **kwargs: Any) -> fields.Field[Any]:
    return fields.String(metadata={"description": description}, **kwargs)


def _number(description: str) -> fields.Field[Any]:
    return fields.Integer(metadata={"description": description})


class ProblemReasonSchema(Schema):
    """A rule of the tableau, as a round's answer writes its reason."""

    code = value_of("ReasonCode", required=True)
    values = fields.Nested(ReasonValuesSchema, required=True)


class ProblemValuesSchema(Schema):
    """The values a field error's detail is made from, by the names of its
    template's placeholders (docs/errors.md lists each code's)."""

    allowed = _text("What may count for a bet of a multiplier rule, listed")
    amount = _text("An amount as sent, or a table limit")
    answered = _text("The rounds an answer deals, as `first-last`")
    asked = fields.Raw(metadata={"description": "The value the rules set for `setting` (a number or a text)"})
    bet = value_of("BetType", description="A bet type")
    bets = _number("Bets in the request")
    cap = _text("A multiplier rule's cap, as sent")
    card = _text("A card code, as sent")
    cards = _number("Cards in the shoe")
    choice = value_of("PeekChoice", description="What a peek decision does with a bet")
    choices = _text("The values the field takes, as the detail lists them")
    commission = _text("A commission rate")
    commitment = _text("The commitment sent")
    count = _number("A count of cards, or of errors not listed")
    counts = _text("The counts of multiplier cards a multiplier game draws")
    decks = _number("Decks in the shoe")
    earliest = _number("The earliest position the cut card can come out at")
    end = _text("`min` or `max`")
    equal = _number("The length the field must have")
    fee = _text("The fee on a stake, exactly")
    first = _number("The multiplier card (from 0) that is the same card")
    from_round = _number("The first round asked for")
    given = fields.List(fields.String(), metadata={"description": "The fields sent, of which one is wanted"})
    hand = value_of("Side", description="The hand that draws, or should have had the card")
    hash = _text("SHA-256 of the server seed sent")
    index = _number("The last item checked")
    kept = _text("The share of the stake a win keeps, as sent")
    keys = _number("Keys of the object")
    latest = _number("The latest position the cut card can come out at")
    least = _number("The fewest cards from the end the cut card may lie")
    max = _number("The field's upper bound")
    max_cut = _number("The most cards from the end any cut card lies")
    maximum = _text("The table maximum")
    min = _number("The field's lower bound")
    min_cut = _number("The fewest cards from the end any cut card lies")
    minimum = _text("The table minimum")
    minor_unit = _number("Decimals of the currency's minor unit")
    most = _number("The most the field or the shoe takes")
    multiplied = fields.List(value_of("BetType"), metadata={"description": "The bets a multiplier rule pays"})
    multiplier = _number("A multiplier, as sent")
    multipliers = _text("The multipliers of a multiplier game")
    name = _text("A field's name")
    needed = _number("Cards needed")
    offered = fields.List(value_of("BetType"), metadata={"description": "The bets the table offers"})
    outcomes = fields.List(value_of("Outcome"), metadata={"description": "The outcomes a result may be"})
    paid = _text("The bets a multiplier rule may pay, listed")
    pay_tables = fields.List(
        value_of("PayTableId"), metadata={"description": "The pay tables the rules choose for the bets"}
    )
    pays = _text("A base pay, as sent, or a win's pay to 1")
    place = value_of("Place", description="Where the card goes by the tableau")
    placed = value_of("Side", description="The hand the card was placed with")
    places = _number("Decimals an amount may have")
    position = _number("A position in the cards sent")
    previous = _text("The chip before this one")
    rank = _text("A rank")
    rate = _text("A fee rate, as sent")
    reason = fields.Nested(ProblemReasonSchema, metadata={"description": "The rule of the tableau"})
    reasons = fields.List(
        fields.Nested(ProblemReasonSchema), metadata={"description": "The rules that ended the round"}
    )
    raised = _text("A peek bet's stake once raised")
    result = _text("A result, as sent")
    round = _number("A round number")
    rounds = _number("Rounds in the shoe")
    sent = _number("Cards sent")
    setting = _text(
        "A rules setting (`tie_pays`, `super_6_pays`, `variant`, or one a table fixes: `commission`, "
        "`multipliers`, `pay_tables.banker`)"
    )
    source = _text("The seed input sent with the cards")
    step = _text("The stakes a fee is exact on are multiples of it")
    staked = _text("A bet type's total on the slip before a peek raise")
    table = _text("A pay table id, as sent")
    tables = fields.List(value_of("PayTableId"), metadata={"description": "The bet's pay tables"})
    times = _number("Times the key was given")
    total = _text("A bet type's total on the slip")
    type = value_of("BetType", description="A bet type")
    value = fields.Raw(metadata={"description": "The pay table's value of `setting` (a number or a text)"})
    variant = value_of("Variant", description="The variant of the rules")

    weight = _number("A weight, as sent")


class FieldProblemSchema(Schema):
    pointer = fields.String(
        required=True,
        metadata={
            "description": "JSON Pointer (RFC 6901) to the offending input in the "
            "request body; empty for the body as a whole",
            "example": "/bets/0/amount",
        },
    )
    code = value_of("ErrorCode", required=True, example="amount_under_minimum")
    values = fields.Nested(
        ProblemValuesSchema,
        metadata={
            "description": "The values the detail is made from; left out when it has none",
            "example": {"amount": "0.50", "minimum": "1.00", "type": "tie"},
        },
    )
    detail = fields.String(
        required=True,
        metadata={
            "description": "The code's sentence filled with the values, in the answer's language "
            "(`Content-Language`)",
            "example": "0.50 is under the table minimum of 1.00 for tie bets",
        },
    )


class ProblemSchema(Schema):
    """RFC 9457 problem details, served as ``application/problem+json``."""

    type = fields.String(
        required=True,
        metadata={
            "description": "`about:blank` for plain HTTP errors, otherwise "
            "`urn:baccarat:problem:<kind>` (see docs/errors.md)",
            "example": "urn:baccarat:problem:missing-card",
        },
    )
    title = fields.String(required=True, metadata={"description": "In the answer's language"})
    status = fields.Integer(required=True)
    detail = fields.String(required=True, metadata={"description": "In the answer's language"})
    instance = fields.String(metadata={"description": "The request path"})
    errors = fields.List(
        fields.Nested(FieldProblemSchema),
        metadata={
            "description": "Each offending input, when inputs are at fault: the same pointers, codes "
            "and values in every language"
        },
    )
