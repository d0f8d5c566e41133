"""Odds: the shoe a request describes, and the exact odds answered for it.

Every probability is exact: a count of ordered six-card sequences over
``sequences``. It is written as a decimal string rounded half-even to 18
significant digits, and each bet's figures also as exact fractions ``"p/q"``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from marshmallow import ValidationError, fields, post_load, pre_dump, validate, validates_schema

from ...baccarat.bets.paytable import NO_LINE
from ...baccarat.multipliers.odds import BetReturn
from ...baccarat.odds.exact import EVENTS, BetOdds, decimal_text, fraction_text
from ...baccarat.requests import OddsRequest
from ...baccarat.rulebook.cards import MAX_DECKS, RANKS
from ...baccarat.rulebook.errors import ProblemCode
from ...baccarat.shoes.composition import MIN_CARDS
from .base import AnswerSchema, RequestSchema
from .fields import BoundedList, CardCode
from .messages import Message
from .round_answers import SeedSchema, Sentence, engine_field
from .rules import BET_TYPES, RoundRulesOverrideSchema, RulesSchema, table_field, table_rules
from .seeds import SEED_SOURCES, SeedInputSchema, seed_inputs
from .slips import MAX_CARDS, MAX_ROUNDS
from .values import COMPONENT, value_of

SOURCES = ("removed", "counts", *SEED_SOURCES)


class DecimalText(fields.Field[Fraction]):
    """An exact fraction out as a decimal string (18 significant digits, half-even)."""

    doc: ClassVar[dict[str, Any]] = {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$"}

    def __init__(self, description: str, example: str | None = None, *, allow_none: bool = False) -> None:
        metadata = {**self.doc, "description": description}
        if example is not None:
            metadata["example"] = example
        super().__init__(required=True, allow_none=allow_none, metadata=metadata)

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else decimal_text(value)


class FractionText(fields.Field[Fraction]):
    """An exact fraction out as ``"p/q"`` in lowest terms."""

    doc: ClassVar[dict[str, Any]] = {"type": "string", "pattern": r"^-?[0-9]+/[0-9]+$"}

    def __init__(self, description: str, example: str) -> None:
        super().__init__(required=True, metadata={**self.doc, "description": description, "example": example})

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str:
        return fraction_text(value)


RankCountsSchema = RequestSchema.from_dict(
    {
        rank: fields.Integer(strict=True, required=True, validate=validate.Range(0, 4 * MAX_DECKS))
        for rank in RANKS
    },
    name="RankCountsSchema",
)

#: The ``RankCounts`` component: what :class:`RankCounts` loads and dumps,
#: described as a map from rank to count (which it is on the wire), since a
#: generated Python client would name properties ``2`` to ``9`` ``field_2``...
#: beside ``a``, ``t``, ``j``.
RANK_COUNTS = {
    "type": "object",
    "description": f"Cards per rank, every rank given: keys {', '.join(RANKS)}; at most 4 per deck of "
    "each. Each rank's cards are taken as spread over the four suits as evenly as possible (30 aces: "
    "8, 8, 7, 7), which only the perfect pair depends on; send `removed` instead when the suits are "
    "known.",
    "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 4 * MAX_DECKS},
    "minProperties": len(RANKS),
    "maxProperties": len(RANKS),
    "example": dict.fromkeys(RANKS, 4 * MAX_DECKS),
}


class RankCounts(fields.Field[dict[str, int]]):
    """Cards per rank: loaded by :data:`RankCountsSchema` (each rank an
    integer field, so an error points at its rank), documented by
    :data:`RANK_COUNTS`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata={COMPONENT: "RankCounts", **kwargs.pop("metadata", {})}, **kwargs)
        self.schema = RankCountsSchema()

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> dict[str, int]:
        counts: dict[str, int] = self.schema.load(value)
        return counts

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> dict[str, int] | None:
        return None if value is None else dict(value)


class OddsRequestSchema(SeedInputSchema):
    """The table's rules and the shoe: full, less the cards removed, by counts, or seeded."""

    table = table_field(
        "The table whose rules apply: the answer covers every bet it offers", example="standard"
    )
    rules = fields.Nested(
        RoundRulesOverrideSchema,
        load_default=dict,
        metadata={
            "description": "Overrides of the table's rules; `decks` is the shoe's size (default 8); "
            "`multipliers` answers the multiplier game's exact returns too"
        },
    )
    removed = BoundedList(
        CardCode(),
        validate=validate.Length(max=MAX_CARDS),
        metadata={
            "description": "Cards already out of the shoe (dealt or burned), in any order: the odds "
            f"are for the shoe of `rules.decks` decks less these. At least {MIN_CARDS} cards must "
            "stay, the most a round can use.",
            "example": ["9S", "KH", "2D", "7C", "5H"],
        },
    )
    counts = RankCounts(metadata={"description": "The shoe by rank instead"})
    round = fields.Integer(
        strict=True,
        validate=validate.Range(1, MAX_ROUNDS),
        metadata={
            "description": "With seed inputs: the odds just before this round of the whole seeded "
            "shoe (burn and earlier rounds out, as POST /v1/shoes deals it); default 1. At a table "
            "that reshuffles after each hand (`dealing` `reshuffle_each_hand`) no round is sent "
            "(`dealt_each_hand`): seed inputs price the one round POST /v1/rounds deals from them, "
            "the fresh shuffle's top with no burn (the whole shoe, position 0)",
            "example": 40,
        },
    )

    @validates_schema
    def one_shoe(self, data: dict[str, Any], **kwargs: Any) -> None:
        given = [name for name in SOURCES if name in data]
        if len(given) > 1:
            raise ValidationError(Message.of(ProblemCode.SHOE_DESCRIBED_TWICE, given=tuple(given)), given[-1])
        if "round" in data and not any(name in data for name in SEED_SOURCES):
            raise ValidationError(Message.of(ProblemCode.ROUND_NEEDS_SEED), "round")

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> OddsRequest:
        removed = data.get("removed")
        return OddsRequest(
            rules=table_rules(data["table"], data["rules"]),
            removed=None if removed is None else tuple(removed),
            counts=data.get("counts"),
            seed=seed_inputs(data),
            round_number=data.get("round"),
            commitment=data.get("server_seed_hash"),
        )


# --- responses ----------------------------------------------------------------


class OddsShoeSchema(AnswerSchema):
    """The shoe analysed."""

    source = value_of("ShoeSource", required=True)
    decks = fields.Integer(required=True)
    cards = fields.Integer(required=True, metadata={"description": "Cards in the shoe", "example": 416})
    ranks = RankCounts(required=True, metadata={"description": "The shoe by rank"})
    round = fields.Integer(
        attribute="place.round", metadata={"description": "Seeded shoes: the round the odds are for"}
    )
    position = fields.Integer(
        attribute="place.position",
        metadata={"description": "Seeded shoes: shoe position (0 = top) of that round's first card"},
    )
    seed = fields.Nested(SeedSchema, attribute="place.seed", metadata={"description": "Seeded shoes only"})

    OMIT_IF_NONE = frozenset({"round", "position", "seed"})


ProbabilitiesSchema = AnswerSchema.from_dict(
    {event.name: DecimalText(event.description) for event in EVENTS},
    name="ProbabilitiesSchema",
)
EventCountsSchema = AnswerSchema.from_dict(
    {
        event.name: fields.Integer(required=True, metadata={"description": event.description})
        for event in EVENTS
    },
    name="EventCountsSchema",
)


class LineOddsSchema(AnswerSchema):
    """A line of the bet's pay table (the first that applies decides), or the loss when none does."""

    when = Sentence(
        required=True,
        metadata={
            "type": "string",
            "description": "When the line holds, in the answer's language",
            "example": "Banker wins",
        },
    )
    code = value_of(
        "PayLineCode",
        required=True,
        description="The line's code: the code a bet this line settles carries",
        example="banker_wins",
    )
    result = value_of("BetResult", required=True)
    net = DecimalText("What one unit staked nets on this line: the odds less commission, 0, or -1", "0.95")
    probability = DecimalText("Probability that this line decides the bet", "0.458597422632762973")


class BetFractionsSchema(AnswerSchema):
    """The bet's figures as exact fractions."""

    win = FractionText("Probability of a win", "8954111587648/19524993263685")
    push = FractionText("Probability of a push", "619306544887/6508331087895")
    lose = FractionText("Probability of a loss", "8712962041376/19524993263685")
    expected_value = FractionText("Expected net per unit staked", "-114753351728/10847218479825")
    house_edge = FractionText("Expected loss per unit staked", "114753351728/10847218479825")


class BetOddsSchema(AnswerSchema):
    """One bet's odds per unit staked, winnings paid exactly (before rounding to the minor unit)."""

    pay_table = value_of(
        "PayTableId",
        required=True,
        description="The pay table the rules choose for the bet (`rules.pay_tables`); at a multiplier "
        "table, the standard pay table whose lines decide the bet's result, as the multiplier "
        "settlement asks them",
        example="banker_commission",
    )
    win = DecimalText("Probability that the bet wins", "0.458597422632762973")
    push = DecimalText("Probability that the stake comes back", "0.0951559680236401914")
    lose = DecimalText("Probability that the bet loses", "0.446246609343596836")
    expected_value = DecimalText(
        "Expected net per unit staked (negative: the house's edge)", "-0.0105790578424720118"
    )
    house_edge = DecimalText(
        "Expected loss per unit staked, pushes counted as bets that lost nothing",
        "0.0105790578424720118",
    )
    exact = fields.Nested(BetFractionsSchema, required=True)
    lines = fields.List(fields.Nested(LineOddsSchema), required=True)

    @pre_dump
    def with_exact(self, odds: BetOdds, **kwargs: Any) -> dict[str, Any]:
        figures = {
            "win": odds.win,
            "push": odds.push,
            "lose": odds.lose,
            "expected_value": odds.expected_value,
            "house_edge": odds.house_edge,
        }
        # Each line with its pay line's sentence and code, the loss last: the
        # line of a bet no line covers, as a settled bet writes it.
        lines = [
            {
                "when": line.when,
                "code": line.code,
                "result": chances.result,
                "net": chances.net,
                "probability": chances.probability,
            }
            for line, chances in zip((*odds.pay_table.lines, NO_LINE), odds.lines, strict=True)
        ]
        return {"pay_table": odds.pay_table.id, **figures, "exact": figures, "lines": lines}


class MultiplierReturnSchema(AnswerSchema):
    """What one bet of a multiplier game returns, fee and multipliers
    included, computed exactly for the shoe (docs/multipliers.md)."""

    bet = value_of("BetType", required=True)
    rtp = DecimalText("Return to player per unit of cost (the stake and its fee)", "0.987662848")
    house_edge = DecimalText("1 - rtp: what the house keeps per unit of cost", "0.012337152")
    cost = DecimalText("What a unit staked costs: 1 and the fee", "1.2")
    win = DecimalText("Probability that the bet wins", "0.446246609343596836")
    push = DecimalText("Probability that the stake comes back", "0.0951559680236401914")
    multiplier = DecimalText(
        "The multiplier a win expects; null where the shoe can no longer deal the bet a win",
        "1.4",
        allow_none=True,
    )
    exact_rtp = FractionText("rtp as an exact fraction", "61/62")

    @pre_dump
    def figures(self, returns: BetReturn, **kwargs: Any) -> dict[str, Any]:
        return {
            "bet": str(returns.bet),
            "rtp": returns.rtp,
            "house_edge": returns.house_edge,
            "cost": returns.cost,
            "win": returns.win,
            "push": returns.push,
            "multiplier": returns.multiplier,
            "exact_rtp": returns.rtp,
        }


class ReturnWarningSchema(AnswerSchema):
    """A warning about one bet's return under the rules."""

    code = value_of("ReturnWarningCode", required=True)
    bet = value_of("BetType", required=True)
    rtp = DecimalText("The bet's return per unit of cost", "1.17")


class OddsResponseSchema(AnswerSchema):
    """The exact odds of the next round, and of every bet the table offers."""

    rules = fields.Nested(RulesSchema, required=True)
    shoe = fields.Nested(OddsShoeSchema, required=True)
    sequences = fields.Integer(
        required=True,
        metadata={
            "description": "Ordered six-card sequences the shoe can deal, N(N-1)...(N-5): each "
            "probability is a count of them (`counts`) over this",
            "example": 4998398275503360,
        },
    )
    probabilities = fields.Nested(ProbabilitiesSchema, required=True)
    counts = fields.Nested(EventCountsSchema, required=True)
    bets = fields.Dict(
        keys=fields.String(validate=validate.OneOf(BET_TYPES)),
        values=fields.Nested(BetOddsSchema),
        required=True,
        metadata={
            "description": "Every bet the table offers, by bet type (at a multiplier table: by its "
            "base pays alone, as if nothing were lit and no fee charged: each line's `net` is the rule's "
            "base pay less the stake it keeps; `multiplier_returns` has the game's own returns)"
        },
    )
    multiplier_returns = fields.List(
        fields.Nested(MultiplierReturnSchema),
        attribute="multipliers.returns",
        metadata={"description": "At a multiplier table (`rules.multipliers`): each bet's exact return"},
    )
    warnings = fields.List(
        fields.Nested(ReturnWarningSchema),
        metadata={
            "description": "What a program should know before offering the rules (at a multiplier table "
            "empty when nothing, at another absent): "
            "`return_over_cost`, a bet whose exact return exceeds what it costs, so that the house loses "
            "on it in the long run (a commission of 0 at the standard variant, an operator's pay table "
            "or multiplier rule may say so; the rules sheet carries the same warning; `baccarat "
            "certify` refuses to certify a multiplier rule that does)"
        },
    )
    engine = engine_field()

    OMIT_IF_NONE = frozenset({"multiplier_returns", "warnings"})
