"""POST /v1/rules-sheets and GET /v1/tables/{table}/rules-sheet: a table's
rules sheet (docs/rules-sheet.md).

The request takes what a round takes to fix its rules (``table`` and
``rules``), and what the table shows beside them: its chips, how it deals and
the operator's malfunction clause (each the preset's, or the default, when
not sent). The answer is the sheet as data: each section's code, figures and
sentences (code, values and the sentence in the answer's language, as a
round's reasons), and the Banker's chart.
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, pre_dump, pre_load, validate, validates_schema

from ...baccarat.peek.round import PEEK
from ...baccarat.requests import RulesSheetRequest
from ...baccarat.sheets.sheet import RulesSheet
from ...baccarat.sheets.words import DEFAULT_MALFUNCTION, Malfunction
from ...baccarat.tables.rules import Dealing, Table
from ..language import current
from ..scope import scope
from ..sheets import sheet_data
from .base import AnswerSchema, RequestSchema
from .fields import Amount, BoundedList
from .messages import FieldCode, Message
from .round_answers import DealtAtSchema, engine_field
from .rules import RoundRulesOverrideSchema, RulesSchema, table_field, table_rules
from .values import value_of

#: The most chips a table shows.
MAX_CHIPS = 12


class RulesSheetRequestSchema(RequestSchema):
    """A table's rules, chips, dealing and malfunction clause."""

    table = table_field(
        "The table whose rules the sheet states; at `peek`, Peek Baccarat's (its fee, cards shown, "
        "choices and returns), whose rules take no override of the Player and Banker pays "
        "(`variant`, `commission`, their `pay_tables`) nor a multiplier game",
        example="tie_9",
        peek=True,
    )
    rules = fields.Nested(
        RoundRulesOverrideSchema,
        load_default=dict,
        metadata={"description": "Overrides of the table's rules, as a round takes them"},
    )
    chips = BoundedList(
        Amount(),
        validate=validate.Length(1, MAX_CHIPS),
        metadata={
            "description": f"The chip denominations the table shows (at most {MAX_CHIPS}), each once, "
            "smallest first; "
            "the preset's (1, 5, 10, 25, 100) by default. Each is an amount like every other of the "
            "contract (a bet's `amount`, a limit): a decimal string, or a plain JSON number read as an "
            "exact decimal (never a float); an exponent, a sign, zero or a value that is not a number "
            "is refused at its index",
            "example": ["1", "5", "10", "25", "100"],
        },
    )
    dealing = value_of(
        "Dealing",
        description="How the table deals; the preset's by default. The same as `rules.dealing`, "
        "which every operation that deals takes: send one or the other, or both alike",
    )

    @validates_schema
    def chips_ascending(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A table shows each denomination once, smallest first: a chip not
        above the one before it (a repeat, or out of order) is refused there."""
        chips = data.get("chips", [])
        errors = {
            index: [Message.of(FieldCode.CHIP_NOT_ABOVE_PREVIOUS, previous=str(chips[index - 1]))]
            for index in range(1, len(chips))
            if chips[index] <= chips[index - 1]
        }
        if errors:
            raise ValidationError({"chips": errors})

    @validates_schema
    def dealt_one_way(self, data: dict[str, Any], **kwargs: Any) -> None:
        """``dealing`` and ``rules.dealing`` say the same thing: when both are sent they agree."""
        said = data.get("rules", {}).get("dealing")
        if "dealing" in data and said is not None and Dealing(data["dealing"]) is not said:
            raise ValidationError(Message.of(FieldCode.NOT_ONE_OF, choices=str(said)), "dealing")

    malfunction = value_of(
        "Malfunction",
        description=f"The operator's malfunction clause; the table's, `{DEFAULT_MALFUNCTION}` at "
        "the built-in presets, by default",
        documented_default=str(DEFAULT_MALFUNCTION),
    )

    @pre_load
    def approved_tables_only(self, data: Any, **kwargs: Any) -> Any:
        """Where only approved tables are played, the table's chips, dealing
        and clause are its own: each one sent is refused (``rules`` too, by
        its own schema)."""
        if scope().approved and isinstance(data, dict):
            sent = [key for key in ("chips", "dealing", "malfunction") if key in data]
            if sent:
                raise ValidationError({key: [Message.of(FieldCode.APPROVED_TABLES_ONLY)] for key in sent})
        return data

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> RulesSheetRequest:
        return sheet_request(
            data["table"],
            data["rules"],
            chips=data.get("chips"),
            dealing=data.get("dealing"),
            malfunction=Malfunction(data["malfunction"]) if "malfunction" in data else None,
        )


def sheet_request(
    name: str,
    overrides: dict[str, Any] | None = None,
    *,
    chips: list[Any] | None = None,
    dealing: str | None = None,
    malfunction: Malfunction | None = None,
) -> RulesSheetRequest:
    """The sheet of the preset ``name`` with checked ``overrides``, and the
    preset's chips unless given: at Peek Baccarat's table, by the peek's
    conditions. ``dealing`` is the rules' own (`rules.dealing`, which every
    operation that deals holds to), sent here as well for the sheet.
    GET /v1/tables/{table}/rules-sheet asks it for a preset as it is,
    whatever the request schema takes."""
    table = scope().tables[name]
    if dealing is not None:
        overrides = {**(overrides or {}), "dealing": Dealing(dealing)}
    rules = table_rules(name, overrides)
    return RulesSheetRequest(
        rules=rules,
        chips=tuple(table.chips if chips is None else chips),
        dealing=rules.dealing,
        malfunction=malfunction if malfunction is not None else _clause(table),
        peek=PEEK if table.peek else None,
    )


def _clause(table: Table) -> Malfunction:
    """The malfunction clause a table states: its own, else the default."""
    return DEFAULT_MALFUNCTION if table.malfunction is None else Malfunction(table.malfunction)


class SheetSentenceSchema(AnswerSchema):
    """One sentence of the sheet: its code, the values it is filled with, and the sentence."""

    code = value_of("SheetSentenceCode", required=True)
    values = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={
            "description": "The figures the sentence is filled with, each a string: numbers, "
            "amounts and figures as shown (`0.95:1`, `0-5`, `98.94%`), and the game's words by their code "
            "(a bet type, a pay line code, a malfunction clause)"
        },
    )
    sentence = fields.String(
        required=True,
        metadata={"description": "The code's sentence filled with the values, in the answer's language"},
    )


class SheetSectionSchema(AnswerSchema):
    """A section of the sheet."""

    code = value_of("SheetSectionCode", required=True)
    title = fields.String(required=True, metadata={"description": "Its title, in the answer's language"})
    values = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={
            "description": "The figures the section states, for a program, each a string (a list "
            "joined by `, `): a bet's `bet`, `pay_table` (at a multiplier table, for a bet its rule pays, "
            "the rule's id as `rule` instead), "
            "`min`, `max`, `rtp` (per cent, two decimals), `largest_win`, where they are more than a minor "
            "unit `stake_multiple` (the stakes a bet with a fee takes: its fee is never rounded) and "
            "`stake_step` (the stakes paid exactly what its lines state), and, for a bet that returns more "
            "than it costs, `warning` (`return_over_cost`, as POST /v1/odds warns) (at the peek table a fee "
            "bet's `fee`, `rtp_kept` and `tripled` too); the peek's `fee`, `fee_bets`, `shown`, "
            "`shown_weights`, `choices`, `strategy` and each fee bet's `rtp_<bet>` and `rtp_kept_<bet>`; "
            "the return's `method`; "
            "the limits' `chips`; the shoe's `decks`, `dealing` and `cut_card`; the rules' `rules_id`"
        },
    )
    sentences = fields.List(fields.Nested(SheetSentenceSchema), required=True)


class ChartRowSchema(AnswerSchema):
    banker_total = fields.Integer(required=True, metadata={"description": "The Banker's two-card total"})
    player_stood = value_of("Action", required=True, description="The Banker's action when the Player stood")
    player_drew = fields.List(
        value_of("Action"),
        required=True,
        metadata={"description": "The Banker's action for each point value 0-9 of the Player's third card"},
    )


class ChartSchema(AnswerSchema):
    """The Banker's third-card chart, from the tableau rounds are dealt by."""

    player_third = fields.List(fields.Integer(), required=True, metadata={"description": "The columns: 0-9"})
    rows = fields.List(fields.Nested(ChartRowSchema), required=True)


class RulesSheetSchema(DealtAtSchema):
    """A table's rules sheet."""

    id = fields.String(
        required=True,
        metadata={
            "description": "First 16 hex digits of the SHA-256 of what the sheet states: the rules id, "
            "the chips, the dealing, the malfunction clause and the engine's version",
            "example": "868289b461ded6cc",
        },
    )
    title = fields.String(
        required=True, metadata={"description": "The sheet's title, in the answer's language"}
    )
    rules = fields.Nested(
        RulesSchema, required=True, metadata={"description": "The rules it states, with their id"}
    )
    chips = fields.List(fields.String(), required=True, metadata={"description": "Chip denominations"})
    dealing = value_of("Dealing", required=True)
    malfunction = value_of("Malfunction", required=True)
    sections = fields.List(fields.Nested(SheetSectionSchema), required=True)
    chart = fields.Nested(ChartSchema, required=True)
    engine = engine_field()

    @pre_dump
    def written(self, sheet: RulesSheet, **kwargs: Any) -> dict[str, Any]:
        """The sheet's data, its sentences in the answer's language."""
        return sheet_data(sheet, current())
