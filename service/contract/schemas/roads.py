"""Roads: the request (a sequence of results) and the five roads with the ask road."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validate

from ...baccarat.rulebook.coup import Outcome
from ...baccarat.shoes.roads import ROWS, Result
from .base import AnswerSchema, RequestSchema
from .fields import BoundedList, Flag
from .messages import FieldCode, Message
from .values import value_of

MAX_RESULTS = 1_000
OUTCOMES = [str(o) for o in Outcome]


def _outcome() -> fields.Field[Any]:
    return value_of("Outcome", required=True, example="banker")


class RoadResultSchema(RequestSchema):
    """A result with its markers; absent markers are false."""

    outcome = _outcome()
    player_pair = Flag(
        load_default=False, metadata={"description": "Player's first two cards pair (default false)"}
    )
    banker_pair = Flag(
        load_default=False, metadata={"description": "Banker's first two cards pair (default false)"}
    )
    natural = Flag(load_default=False, metadata={"description": "Either hand was a natural (default false)"})

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Result:
        return Result(Outcome(data["outcome"]), data["player_pair"], data["banker_pair"], data["natural"])


class RoadHandSchema(RequestSchema):
    """The part of a round's hand the roads read; its other fields are ignored."""

    class Meta:
        unknown = EXCLUDE

    pair = Flag(required=True)
    natural = Flag(required=True)


class RoadRoundSchema(RequestSchema):
    """A round as POST /v1/rounds answers it: only ``outcome`` and each hand's
    ``pair`` and ``natural`` are read; every other field is ignored."""

    class Meta:
        unknown = EXCLUDE

    outcome = _outcome()
    player = fields.Nested(RoadHandSchema, required=True)
    banker = fields.Nested(RoadHandSchema, required=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Result:
        player, banker = data["player"], data["banker"]
        natural = player["natural"] or banker["natural"]
        return Result(Outcome(data["outcome"]), player["pair"], banker["pair"], natural)


#: The object forms of a result, documented as components by the roads
#: blueprint; the request's ``oneOf`` lists them in this order, the round
#: first, so that a generated client tries the richer shape before the bare
#: result (whose fields a round would not have).
RESULT_FORMS: Mapping[str, type[Schema]] = {"RoadRound": RoadRoundSchema, "RoadResult": RoadResultSchema}


class ResultItem(fields.Field[Result]):
    """One result in any of its three forms: a name, an object with markers, or a round."""

    doc: ClassVar[dict[str, Any]] = {
        "oneOf": [
            *({"$ref": f"#/components/schemas/{name}"} for name in ("Outcome", *RESULT_FORMS)),
        ],
        "description": "`banker`, `player` or `tie`; or `{outcome, player_pair, banker_pair, natural}`; "
        "or a round as POST /v1/rounds answers it (an object with `player` and `banker` hands)",
        "example": "banker",
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata=self.doc, **kwargs)
        self.as_result, self.as_round = RoadResultSchema(), RoadRoundSchema()

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Result:
        if isinstance(value, str):
            if value not in OUTCOMES:
                message = Message.of(FieldCode.NOT_AN_OUTCOME, outcomes=tuple(OUTCOMES), result=value)
                raise ValidationError(message)
            return Result(Outcome(value))
        if isinstance(value, dict):
            schema = self.as_round if "player" in value or "banker" in value else self.as_result
            result: Result = schema.load(value)
            return result
        raise ValidationError(Message.of(FieldCode.NOT_A_RESULT))


class RoadsRequestSchema(RequestSchema):
    results = BoundedList(
        ResultItem(),
        required=True,
        validate=validate.Length(max=MAX_RESULTS),
        metadata={
            "description": f"The results in the order they were played, oldest first; at most {MAX_RESULTS}"
        },
    )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> tuple[Result, ...]:
        return tuple(data["results"])


# --- responses ----------------------------------------------------------------


class _CellSchema(AnswerSchema):
    column = fields.Integer(required=True, metadata={"description": "0 is the leftmost column"})
    row = fields.Integer(required=True, metadata={"description": f"0 is the top row, {ROWS - 1} the bottom"})
    index = fields.Integer(required=True, metadata={"description": "Position of the result in `results`"})


class _MarkedCellSchema(_CellSchema):
    outcome = value_of("Outcome", required=True)
    player_pair = fields.Boolean(required=True)
    banker_pair = fields.Boolean(required=True)
    natural = fields.Boolean(required=True)


class BeadCellSchema(_MarkedCellSchema):
    pass


class BigRoadCellSchema(_MarkedCellSchema):
    ties = fields.Integer(
        required=True,
        metadata={
            "description": "Ties played after this result (before the first result: on the first cell)"
        },
    )


class StreakSchema(AnswerSchema):
    outcome = value_of("Side", required=True, description="Who won the streak's rounds")
    length = fields.Integer(required=True, metadata={"description": "Wins in a row"})
    column = fields.Integer(required=True, metadata={"description": "Drawn column where the streak starts"})


class MarkCellSchema(_CellSchema):
    colour = value_of("Colour", required=True)


class _GridSchema(AnswerSchema):
    columns = fields.Integer(required=True, metadata={"description": "Width of the drawn grid"})
    rows = fields.Integer(required=True, metadata={"description": "Height of the drawn grid (always 6)"})


class BeadPlateSchema(_GridSchema):
    cells = fields.List(fields.Nested(BeadCellSchema), required=True)


class BigRoadSchema(_GridSchema):
    cells = fields.List(fields.Nested(BigRoadCellSchema), required=True)
    streaks = fields.List(
        fields.Nested(StreakSchema),
        required=True,
        metadata={"description": "The logical columns the derived roads are computed on"},
    )


class DerivedRoadSchema(_GridSchema):
    marks = fields.List(value_of("Colour"), required=True, metadata={"description": "In order"})
    cells = fields.List(fields.Nested(MarkCellSchema), required=True)


def _ask_mark() -> fields.Field[Any]:
    return value_of("Mark", required=True, allow_none=True)


class AskMarksSchema(AnswerSchema):
    big_eye_boy = _ask_mark()
    small_road = _ask_mark()
    cockroach_pig = _ask_mark()


class AskSchema(AnswerSchema):
    banker = fields.Nested(AskMarksSchema, required=True, metadata={"description": "If Banker won next"})
    player = fields.Nested(AskMarksSchema, required=True, metadata={"description": "If Player won next"})


class RoadsSchema(AnswerSchema):
    bead_plate = fields.Nested(BeadPlateSchema, required=True)
    big_road = fields.Nested(BigRoadSchema, required=True)
    big_eye_boy = fields.Nested(DerivedRoadSchema, required=True)
    small_road = fields.Nested(DerivedRoadSchema, required=True)
    cockroach_pig = fields.Nested(DerivedRoadSchema, required=True)
    ask = fields.Nested(
        AskSchema,
        required=True,
        metadata={"description": "The mark each derived road would add (null: none)"},
    )
