"""Whole shoes: request and response bodies of POST /v1/shoes."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from ...baccarat.multipliers.rule import VIRTUAL_DECK
from ...baccarat.multipliers.shoes import RoundMultiplierCards
from ...baccarat.play.shoe import RoundBets, ShoeReport
from ...baccarat.requests import ShoeRequest
from ...baccarat.rulebook.errors import ProblemCode
from ...baccarat.tables.rules import check_whole_shoe
from .base import AnswerSchema, RequestSchema
from .fields import BoundedList, CardCode
from .live import ShoeRoundInProgressSchema, cards_and_hands, dealt_cards
from .messages import FieldCode, Message
from .roads import RoadsSchema
from .round_answers import (
    DealtAtSchema,
    HandSchema,
    MultipliedSlipSchema,
    PositionsSchema,
    SeedSchema,
    SlipOutSchema,
    engine_field,
    multiplier_algorithm_field,
    multiplier_cards_out_field,
)
from .round_inputs import MultiplierCardSchema
from .rules import RoundRulesOverrideSchema, RulesSchema, table_field, table_rules
from .seeds import SEED_SOURCES, SeedInputSchema, seed_inputs
from .settlements import TotalsSchema
from .slips import MAX_BETS_PER_SLIP, MAX_CARDS, MAX_ROUNDS, bets_field
from .values import value_of


class RoundBetsSchema(RequestSchema):
    round = fields.Integer(
        strict=True, required=True, validate=validate.Range(1, MAX_ROUNDS), metadata={"example": 3}
    )
    bets = bets_field(required=True, validate=validate.Length(1, MAX_BETS_PER_SLIP))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> RoundBets:
        return RoundBets(data["round"], tuple(data["bets"]))


class RoundMultiplierCardsSchema(RequestSchema):
    round = fields.Integer(
        strict=True, required=True, validate=validate.Range(1, MAX_ROUNDS), metadata={"example": 2}
    )
    cards = BoundedList(
        fields.Nested(MultiplierCardSchema),
        required=True,
        validate=validate.Length(max=VIRTUAL_DECK),
        metadata={
            "description": "The multiplier cards the studio drew for the round, as POST /v1/rounds "
            "takes `multiplier_cards`",
            "example": [{"card": "8H", "multiplier": 8}],
        },
    )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> RoundMultiplierCards:
        return RoundMultiplierCards(data["round"], tuple(data["cards"]))


class ShoeRequestSchema(SeedInputSchema):
    """Seed inputs (or a physical shoe's cards), the table, which rounds to
    answer, and optional bets."""

    cards = dealt_cards(
        "A physical shoe: the cards dealt from it so far, in the order they left it, the burn "
        "included (the first card turned, then as many burned as it counts, tens and faces "
        "10). Instead of seed inputs. A card may be tagged with its hand, as in POST "
        "/v1/rounds/live; the round the cards stop in is answered as `round_in_progress`.",
        validate=validate.Length(1, MAX_CARDS),
    )
    cut_card_position = fields.Integer(
        strict=True,
        validate=validate.Range(0, MAX_CARDS),
        metadata={
            "description": "With `cards`, once the cut card has come out: the position (0 = the "
            "first card out) of the first card behind it. The round that deals that card is "
            "finished, one more is dealt, and the shoe ends.",
            "example": 400,
        },
    )

    table = table_field("The table whose rules apply")
    rules = fields.Nested(
        RoundRulesOverrideSchema,
        load_default=dict,
        metadata={
            "description": "Overrides of the table's rules; `decks` and `cut_card` shape the shoe. With "
            "`multipliers` each round of a seeded shoe draws the multiplier cards POST /v1/rounds draws "
            "for the same seed inputs and `round` (docs/multipliers.md)"
        },
    )
    from_round = fields.Integer(
        strict=True,
        load_default=1,
        validate=validate.Range(1, MAX_ROUNDS),
        metadata={"description": "First round to answer (default 1)"},
    )
    to_round = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_ROUNDS),
        metadata={"description": "Last round to answer (default and at most: the shoe's last round)"},
    )
    include_shoe = fields.Boolean(
        load_default=False,
        metadata={"description": "Also return the whole shoe in dealing order as `shoe` (default false)"},
    )
    bets = bets_field(
        "One bet slip settled on every round answered (not with `bets_by_round`)",
        load_default=list,
        validate=validate.Length(max=MAX_BETS_PER_SLIP),
    )
    bets_by_round = BoundedList(
        fields.Nested(RoundBetsSchema),
        load_default=list,
        validate=validate.Length(max=MAX_ROUNDS),
        metadata={
            "description": "A bet slip for each listed round (each round once, within the rounds "
            "answered; not with `bets`)"
        },
    )
    multiplier_cards_by_round = BoundedList(
        fields.Nested(RoundMultiplierCardsSchema),
        load_default=list,
        validate=validate.Length(max=MAX_ROUNDS),
        metadata={
            "description": "With `cards`, at a multiplier table (`rules.multipliers`): the multiplier "
            "cards the studio drew for each complete round answered (each round once; the round in "
            "progress may be listed too, and is checked). A seeded shoe draws its own "
            "(docs/multipliers.md)"
        },
    )

    @validates_schema
    def slice_and_bets_fit(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Cards or seed inputs; a non-empty slice; one form of bets; each round's slip once."""
        for source in SEED_SOURCES:
            if "cards" in data and source in data:
                raise ValidationError(Message.of(FieldCode.CARDS_AND_SEED, source=source), source)
        if "cut_card_position" in data and "cards" not in data:
            raise ValidationError(Message.of(FieldCode.CUT_CARD_POSITION_WITHOUT_CARDS), "cut_card_position")
        from_round = data["from_round"]
        if data.get("to_round", from_round) < from_round:
            message = Message.of(ProblemCode.TO_ROUND_BEFORE_FROM_ROUND, from_round=from_round)
            raise ValidationError(message, "to_round")
        if data["bets"] and data["bets_by_round"]:
            raise ValidationError(Message.of(FieldCode.BETS_AND_BETS_BY_ROUND), "bets_by_round")
        for name in ("bets_by_round", "multiplier_cards_by_round"):
            seen: set[int] = set()
            for index, entry in enumerate(data[name]):
                if entry.round in seen:
                    twice = Message.of(FieldCode.ROUND_TWICE, round=entry.round)
                    raise ValidationError({name: {index: {"round": [twice]}}})
                seen.add(entry.round)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> ShoeRequest:
        dealt = data.get("cards")
        cards, hands = (None, ()) if dealt is None else cards_and_hands(dealt)
        rules = table_rules(data["table"], data["rules"])
        check_whole_shoe(rules, ("rules", "dealing") if "dealing" in data["rules"] else ("table",))
        return ShoeRequest(
            rules=rules,
            seed=seed_inputs(data),
            commitment=data.get("server_seed_hash"),
            cards=cards,
            hands=hands,
            cut_card_position=data.get("cut_card_position"),
            report=ShoeReport(
                from_round=data["from_round"],
                to_round=data.get("to_round"),
                include_shoe=data["include_shoe"],
                bets=tuple(data["bets"]),
                bets_by_round=tuple(data["bets_by_round"]),
            ),
            multiplier_cards_by_round=tuple(data["multiplier_cards_by_round"]),
        )


# --- responses ----------------------------------------------------------------


class ShoeRoundSchema(AnswerSchema):
    number = fields.Integer(attribute="round.number", required=True, metadata={"description": "From 1"})
    player = fields.Nested(HandSchema, attribute="round.coup.player", required=True)
    banker = fields.Nested(HandSchema, attribute="round.coup.banker", required=True)
    outcome = value_of("Outcome", attribute="round.coup.outcome", required=True)
    natural = fields.Boolean(
        attribute="round.coup.natural", required=True, metadata={"description": "Either hand is a natural"}
    )
    positions = fields.Nested(
        PositionsSchema,
        attribute="round.positions",
        required=True,
        metadata={"description": "Shoe positions (0 = top) of each hand's cards, in the order dealt"},
    )
    cards_used = fields.Integer(attribute="round.coup.cards_used", required=True)
    cut_card_out = fields.Boolean(
        attribute="round.cut_card_out", required=True, metadata={"description": "The cut card came out in it"}
    )
    last = fields.Boolean(attribute="round.last", required=True, metadata={"description": "The shoe's last"})
    settlement = fields.Nested(SlipOutSchema, metadata={"description": "When bets apply to this round"})
    multiplier_cards = multiplier_cards_out_field("the round's multiplier cards")
    multiplier_settlement = fields.Nested(
        MultipliedSlipSchema,
        attribute="multiplied",
        metadata={
            "description": "At a multiplier table, when bets apply to this round (instead of `settlement`)"
        },
    )

    OMIT_IF_NONE = frozenset({"settlement", "multiplier_cards", "multiplier_settlement"})


class CardCountsSchema(AnswerSchema):
    total = fields.Integer(required=True)
    burned = fields.Integer(required=True)
    dealt = fields.Integer(required=True, metadata={"description": "Dealt in the shoe's complete rounds"})
    in_progress = fields.Integer(
        required=True, metadata={"description": "Dealt in a physical shoe's round in progress"}
    )
    left_behind = fields.Integer(required=True, metadata={"description": "After the last round"})


class ShoeResponseSchema(DealtAtSchema):
    rounds = fields.List(
        fields.Nested(ShoeRoundSchema), required=True, metadata={"description": "The rounds asked for"}
    )
    round_count = fields.Integer(required=True, metadata={"description": "Rounds in the whole shoe"})
    round_in_progress = fields.Nested(
        ShoeRoundInProgressSchema,
        attribute="in_progress",
        metadata={"description": "A physical shoe's round the cards stop in, and the card it needs next"},
    )
    burned = fields.List(
        CardCode(),
        required=True,
        metadata={"description": "The turned card, then the cards burned (so far, for a physical shoe)"},
    )
    burn_remaining = fields.Integer(
        metadata={"description": "A physical shoe still at its burn: the cards still to burn"},
    )
    cut_card_position = fields.Integer(
        metadata={
            "description": "Position (0 = top) of the first card behind the cut card; left out "
            "while a physical shoe's cut card has not come out"
        },
    )
    card_counts = fields.Nested(
        CardCountsSchema,
        required=True,
        metadata={"description": "total = burned + dealt + in_progress + left_behind"},
    )
    shoe_hash = fields.String(
        required=True,
        metadata={
            "description": "SHA-256 of the shoe's card codes joined by commas: the whole seeded "
            "shoe, or the physical shoe's cards as sent"
        },
    )
    algorithm = fields.String(attribute="seed.algorithm", metadata={"description": "Seeded shoes"})
    multiplier_algorithm = multiplier_algorithm_field(
        "multiplier_algorithm",
        "A seeded shoe at a multiplier table: the derivation of each round's multiplier cards from the "
        "seed inputs and the round's number (docs/multipliers.md)",
    )
    seed = fields.Nested(SeedSchema, metadata={"description": "Seeded shoes: the seed inputs"})
    shoe = fields.List(
        CardCode(),
        metadata={"description": "With include_shoe: the whole shoe (or the cards sent), top first"},
    )
    roads = fields.Nested(
        RoadsSchema,
        required=True,
        metadata={
            "description": "Bead Plate, Big Road and the derived roads of the shoe from its first round "
            "through the last round answered (see POST /v1/roads)"
        },
    )
    totals = fields.Nested(TotalsSchema, metadata={"description": "When bets were sent: over all slips"})
    rules = fields.Nested(RulesSchema, required=True)
    engine = engine_field()

    OMIT_IF_NONE = frozenset(
        {
            "round_in_progress",
            "burn_remaining",
            "cut_card_position",
            "algorithm",
            "multiplier_algorithm",
            "seed",
            "shoe",
            "totals",
        }
    )
