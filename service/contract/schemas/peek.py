"""Peek Baccarat rounds: request and answer bodies of POST /v1/rounds/peek."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, post_load, validate, validates, validates_schema

from ...baccarat.bets.types import BetType
from ...baccarat.peek.round import Choice, PeekRound, PeekView, Position
from ...baccarat.requests import PeekRequest
from ..answers import round_answer
from ..scope import scope
from .base import AnswerSchema, PlainDump
from .fields import CardCode
from .messages import FieldCode, Message
from .round_answers import DealtAtSchema, engine_field
from .round_inputs import RoundInputSchema, card_source
from .rounds import RoundResponseSchema
from .rules import RoundRulesOverrideSchema, RulesSchema, table_field, table_rules
from .slips import MAX_BETS_PER_SLIP, bets_field
from .values import value_of


class PeekRequestSchema(RoundInputSchema):
    bets = bets_field(
        "The bet slip: the Player and Banker bets pay a 20% fee on top of the stake; Tie and pairs none",
        load_default=list,
        validate=validate.Length(max=MAX_BETS_PER_SLIP),
    )
    shown = fields.List(
        value_of("PeekPosition"),
        validate=validate.Length(1, 4),
        metadata={
            "description": "Which of the first four cards are shown (1 to 4; a repeat counts once): "
            "required with `cards` (the studio decides); with seed inputs, by default drawn from "
            "them, independent of the cards (docs/bets.md, Peek Baccarat)",
            "example": ["player_first", "banker_second"],
        },
    )
    decision = fields.Dict(
        keys=value_of("BetType"),
        values=value_of("PeekChoice"),
        metadata={
            "description": "Send it with the second call: per Player or Banker bet on the slip, keep, "
            "double or triple (up to the table maximum); a bet not named is kept. Without it the "
            "answer shows the cards shown and what may be decided",
            "example": {"banker": "double"},
        },
    )

    table = table_field(
        "The table whose rules apply: not a multiplier game's (`lightning`, `golden_wealth`, "
        "`prosperity_tree`), whose bets its rule pays: `peek`, or a plain table",
        example="peek",
        peek=True,
    )

    rules = fields.Nested(
        RoundRulesOverrideSchema,
        load_default=dict,
        metadata={
            "description": "Overrides of the table's rules, as a round takes them; at `peek`, none of "
            "the Player and Banker pays (`variant`, `commission`, `multipliers`, their `pay_tables`: "
            "`peek_pays_fixed`), and at another table no multiplier game"
        },
    )

    @validates_schema(skip_on_field_errors=False)
    def no_multiplier_rule(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A multiplier rule is another game: at Peek Baccarat's table the
        rules' one check refuses it as it refuses it for the table's sheet,
        and at another table it is not a setting peek takes."""
        table = scope().tables.get(data.get("table", ""))
        if "multipliers" in data.get("rules", {}) and not (table is not None and table.peek):
            raise ValidationError({"rules": {"multipliers": [Message.of(FieldCode.UNKNOWN_FIELD)]}})

    @validates("table")
    def not_a_multiplier_game(self, table: str, **kwargs: Any) -> None:
        """Peek is played by the tableau and the table's pay tables: a
        multiplier table's bets are paid by its rule, another game."""
        tables = scope().tables
        if tables[table].rules.multipliers is not None:
            plain = ", ".join(name for name, preset in tables.items() if preset.rules.multipliers is None)
            raise ValidationError(Message.of(FieldCode.NOT_ONE_OF, choices=plain))

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> PeekRequest:
        shown = data.get("shown")
        decision = data.get("decision")
        return PeekRequest(
            rules=table_rules(data["table"], data["rules"], peek=True),
            source=card_source(data),
            bets=tuple(data["bets"]),
            shown=None if shown is None else tuple(p for p in Position if p in shown),
            decision=None if decision is None else {BetType(k): Choice(v) for k, v in decision.items()},
        )


# --- responses ----------------------------------------------------------------


class ShownCardSchema(AnswerSchema):
    position = value_of("PeekPosition", required=True)
    card = CardCode(required=True)


class PeekBetSchema(AnswerSchema):
    id = fields.String(attribute="bet.id", metadata={"description": "Echoed when sent"})
    type = value_of("BetType", attribute="bet.type", required=True)
    amount = fields.String(
        attribute="bet.amount", required=True, metadata={"description": "The initial stake"}
    )
    fee = fields.String(
        required=True, metadata={"description": "Paid on top of the stake, kept whatever the result"}
    )

    OMIT_IF_NONE = frozenset({"id"})


class OpenBetSchema(PeekBetSchema):
    choices = fields.List(
        value_of("PeekChoice"),
        required=True,
        metadata={
            "description": "What the table maximum allows for a Player or Banker bet (none for the others)"
        },
    )


class RaisedBetSchema(PeekBetSchema):
    choice = value_of("PeekChoice", required=True)
    staked = fields.String(
        required=True, metadata={"description": "The stake as raised, settled in `settlement`"}
    )


class PeekViewSchema(DealtAtSchema):
    """The first answer: only the cards shown, never the hidden ones."""

    complete = fields.Boolean(
        required=True,
        dump_default=False,
        metadata={"enum": [False], "description": "False: send the same request with a `decision`"},
    )
    shown = fields.List(fields.Nested(ShownCardSchema), required=True)
    hidden = fields.List(
        value_of("PeekPosition"), required=True, metadata={"description": "Positions not shown"}
    )
    bets = fields.List(fields.Nested(OpenBetSchema), attribute="fees", required=True)
    cost = fields.String(required=True, metadata={"description": "Every stake and fee"})
    rules = fields.Nested(RulesSchema, required=True)
    engine = engine_field()


class PeekTermsSchema(AnswerSchema):
    shown = fields.List(
        value_of("PeekPosition"), required=True, metadata={"description": "The positions shown"}
    )
    bets = fields.List(fields.Nested(RaisedBetSchema), required=True)
    fee = fields.String(required=True, metadata={"description": "Every fee, kept"})
    cost = fields.String(required=True, metadata={"description": "Every stake as raised, and every fee"})
    returned = fields.String(required=True)
    net = fields.String(required=True, metadata={"description": "returned - cost"})


def _terms(done: PeekRound) -> dict[str, Any]:
    terms: dict[str, Any] = PeekTermsSchema().dump(done)
    return terms


class PeekRoundSchema(RoundResponseSchema):
    """The second answer: the round as POST /v1/rounds answers it, settled
    on the bets as raised, and the peek's terms (fees kept)."""

    peek = fields.Nested(PeekTermsSchema, required=True)

    @staticmethod
    def plain(obj: Any) -> dict[str, Any]:
        return {**round_answer(obj.played), "peek": _terms(obj)}

    def marshmallow_dump(self, obj: Any) -> dict[str, Any]:
        return {**RoundResponseSchema().marshmallow_dump(obj.played), "peek": _terms(obj)}


class PeekAnswerSchema(PlainDump):
    """The answer of POST /v1/rounds/peek: :class:`PeekViewSchema` without a
    decision, :class:`PeekRoundSchema` with one (a ``oneOf`` in the OpenAPI
    document, service/api/views/rounds.py)."""

    @staticmethod
    def plain(obj: Any) -> dict[str, Any]:
        if isinstance(obj, PeekView):
            view: dict[str, Any] = PeekViewSchema().dump(obj)
            return view
        return PeekRoundSchema.plain(obj)

    def marshmallow_dump(self, obj: Any) -> dict[str, Any]:
        return type(self).plain(obj)


#: Components the answer's ``oneOf`` refers to by name.
PEEK_FORMS: Mapping[str, type[Schema]] = {"PeekView": PeekViewSchema, "PeekRound": PeekRoundSchema}
