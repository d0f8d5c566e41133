"""Rounds and settlements: request and response bodies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from ...baccarat.bets.types import Bet, BetType
from ...baccarat.games.multipliers.rule import MOST_MULTIPLIER, VIRTUAL_DECK
from ...baccarat.requests import CardSource, RoundRequest, SettlementRequest, Slip
from ...baccarat.rulebook.cards import MAX_DECKS, Card
from ...baccarat.rulebook.errors import ProblemCode
from ...baccarat.rulebook.tableau import Reason
from ...baccarat.tables.rules import DEFAULT_TABLE, TABLES, resolve_rules
from ..answers import ENGINE, round_answer, settlement_answer
from ..language import current
from .base import AnswerSchema, PlainDump, PlainFirst, RequestSchema
from .fields import Amount, BoundedList, CardCode, Text, is_utf8, parse_amount, plain_card
from .messages import FieldCode, Message
from .rules import RoundRulesOverrideSchema, RulesOverrideSchema, RulesSchema, table_field
from .seeds import SEED_SOURCES, SeedInputSchema, seed_inputs
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
SLIP_KEYS = frozenset({"id", "bets"})
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


def all_plain(items: list[Any], plain: Callable[[Any], Any]) -> list[Any] | None:
    """Each item read by ``plain``, or None when one is not plainly valid."""
    loaded = []
    for item in items:
        value = plain(item)
        if value is None:
            return None
        loaded.append(value)
    return loaded


def plain_table_round(
    value: Any, card: Callable[[Any], Any], *, min_cards: int
) -> tuple[str, list[Any], list[Bet]] | None:
    """The table, cards (each read by ``card``) and bets of a body that sends
    only those, when it is plainly valid; None for anything else."""
    if type(value) is not dict or not value.keys() <= PLAIN_ROUND_KEYS:
        return None
    codes, sent, table = value.get("cards", []), value.get("bets", []), value.get("table", DEFAULT_TABLE)
    if type(codes) is not list or not min_cards <= len(codes) <= MAX_CARDS or type(sent) is not list:
        return None
    if len(sent) > MAX_BETS_PER_SLIP or type(table) is not str or table not in TABLES:
        return None
    cards, bets = all_plain(codes, card), all_plain(sent, plain_bet)
    if cards is None or bets is None:
        return None
    return table, cards, bets


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
    return RoundRequest(rules=resolve_rules(table), source=CardSource(cards=tuple(cards)), bets=tuple(bets))


STUDIO_MULTIPLIER_CARDS = (
    "With `cards`, at a multiplier table (`rules.multipliers`): the multiplier cards the studio "
    "drew, each card once, as many as the game draws. A seeded round draws its own from the seed "
    "inputs (docs/multipliers.md)"
)


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
        rules = resolve_rules(data["table"], data["rules"])
        return RoundRequest(rules=rules, source=card_source(data), bets=tuple(data["bets"]))


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
    if type(value) is not dict or not value.keys() <= SLIP_KEYS or not _reference(value.get("id")):
        return None
    sent = value.get("bets")
    if type(sent) is not list or not 0 < len(sent) <= MAX_BETS_PER_SLIP:
        return None
    bets = all_plain(sent, plain_bet)
    return None if bets is None else Slip(value["id"], tuple(bets))


class SettlementRequestSchema(RoundInputSchema):
    slips = BoundedList(
        fields.Nested(SlipSchema),
        plain=plain_slip,
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
        rules = resolve_rules(data["table"], data["rules"])
        return SettlementRequest(rules=rules, source=card_source(data), slips=tuple(data["slips"]))


# --- responses ----------------------------------------------------------------


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


class SlipWithIdSchema(SlipOutSchema):
    id = fields.String(required=True)


class EngineSchema(AnswerSchema):
    name = fields.String(required=True)
    version = fields.String(required=True)


#: What every answer's ``engine`` says: this service, at this version.


def engine_field() -> fields.Nested:
    """An answer's ``engine``: always :data:`ENGINE`."""
    return fields.Nested(EngineSchema, required=True, dump_default=ENGINE)


class PositionsSchema(AnswerSchema):
    player = fields.List(fields.Integer(), required=True, metadata={"description": "Player's cards"})
    banker = fields.List(fields.Integer(), required=True, metadata={"description": "Banker's cards"})


class RoundPlaceSchema(AnswerSchema):
    """Where a round lies in its whole shoe (positions count from 0, the top)."""

    number = fields.Integer(required=True, metadata={"description": "1 = the first round after the burn"})
    positions = fields.Nested(PositionsSchema, required=True)
    cut_card_out = fields.Boolean(required=True, metadata={"description": "The cut card came out in it"})
    last = fields.Boolean(required=True, metadata={"description": "The shoe's last round"})


class RoundOutSchema(AnswerSchema):
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
