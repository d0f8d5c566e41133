"""The catalogue of pay tables: the query, and each pay table answered with
its lines, its source and its exact house edge and hit frequency."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, post_load, pre_dump, validate

from ...baccarat.bets.paytable import PayTable
from ...baccarat.multipliers.odds import MultiplierReturns
from ...baccarat.multipliers.presets import MultiplierPreset
from ...baccarat.odds.exact import BetOdds, CatalogueOdds
from ...baccarat.requests import PayTablesRequest
from ...baccarat.rulebook.cards import MAX_DECKS, MIN_DECKS
from ..language import current
from ..words import pays
from .base import AnswerSchema, RequestSchema
from .odds import DecimalText, FractionText, MultiplierReturnSchema
from .reference import PayLineSchema, sentence
from .round_answers import Sentence
from .rules import MultiplierRuleOutSchema
from .values import value_of


class PayTablesQuerySchema(RequestSchema):
    decks = fields.Integer(
        strict=False,
        load_default=MAX_DECKS,
        validate=validate.Range(MIN_DECKS, MAX_DECKS),
        metadata={
            "description": f"Decks in the full shoe the odds are for ({MIN_DECKS}-{MAX_DECKS}); 8 by default"
        },
    )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> PayTablesRequest:
        return PayTablesRequest(decks=data["decks"])


class Pays(fields.Field[PayTable]):
    """A pay table's pays in a few words, in the answer's language."""

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else pays(value, current())


class SourceSchema(AnswerSchema):
    """Where the pay table is published."""

    title = fields.String(
        required=True,
        metadata={
            "description": "The document's title as it is published, in its own language: a name, "
            "never translated",
            "example": "Wizard of Odds: Lucky 6",
        },
    )
    url = fields.String(
        required=True, metadata={"example": "https://wizardofodds.com/games/baccarat/side-bets/lucky-6/"}
    )
    house_edge = fields.String(
        metadata={
            "description": "The house edge as the source prints it (for 8 decks unless `note` says "
            "otherwise): shown beside the computed `house_edge`, never in its place; absent where "
            "the source prints none",
            "example": "16.68%",
        }
    )
    note = Sentence(
        metadata={
            "type": "string",
            "description": "What to know of the source, in the answer's language: the deck count it "
            "prints for, or that it prints the bet's odds but not this pay table",
        }
    )

    OMIT_IF_NONE = frozenset({"house_edge", "note"})


class ShorthandSchema(AnswerSchema):
    """The rules setting that also chooses this pay table, and its value."""

    setting = fields.String(required=True, metadata={"example": "tie_pays"})
    value = fields.Raw(required=True, metadata={"description": "An integer or a string", "example": 9})


class PayTableExactSchema(AnswerSchema):
    house_edge = FractionText("Expected loss per unit staked", "143596/1000000")
    hit_frequency = FractionText("Probability that the bet wins", "8954111587648/19524993263685")


class PayTableSchema(AnswerSchema):
    """A pay table of the catalogue, with its exact odds for a full shoe."""

    id = value_of("PayTableId", required=True, example="lucky_6_12_or_20")
    bet = value_of("BetType", required=True, example="lucky_6")
    description = sentence("What the bet is on, in the answer's language (its code is `bet`)")
    pays = Pays(
        required=True,
        metadata={
            "type": "string",
            "description": "Its pays in a few words, in the answer's language (`lines` has each "
            "line's code and pay)",
            "example": "Banker wins with a two-card 6: 12:1; Banker wins with a three-card 6: 20:1",
        },
    )
    lines = fields.List(
        fields.Nested(PayLineSchema),
        required=True,
        metadata={"description": "Its lines: the first that applies decides, and a bet no line covers loses"},
    )
    shorthand = fields.Nested(
        ShorthandSchema,
        metadata={
            "description": "The rules setting that also chooses it (the banker's, the tie's and Super 6's)"
        },
    )
    source = fields.Nested(SourceSchema, required=True)
    house_edge = DecimalText(
        "Expected loss per unit staked, pushes counted as bets that lost nothing: computed exactly by "
        "the odds engine for the full shoe, never copied from the source",
        "0.166836",
    )
    hit_frequency = DecimalText("Probability that the bet wins", "0.0538636")
    exact = fields.Nested(PayTableExactSchema, required=True)

    OMIT_IF_NONE = frozenset({"shorthand"})

    @pre_dump
    def with_odds(self, odds: BetOdds, **kwargs: Any) -> dict[str, Any]:
        table = odds.pay_table
        figures = {"house_edge": odds.house_edge, "hit_frequency": odds.hit_frequency}
        return {
            "id": table.id,
            "bet": table.bet,
            "description": table.description,
            "pays": table,
            "lines": table.lines,
            "shorthand": None
            if table.setting is None
            else dict(zip(("setting", "value"), table.setting, strict=True)),
            "source": table.source,
            **figures,
            "exact": figures,
        }


class MultiplierGameSchema(AnswerSchema):
    """A multiplier game's preset (`rules.multipliers`), its sources, and what
    each of its bets returns for the full shoe, fee and multipliers included."""

    name = value_of("MultiplierPreset", required=True)
    description = sentence("The game in words, in the answer's language: its code is `name`")
    rule = fields.Nested(MultiplierRuleOutSchema, required=True)
    sources = fields.List(fields.Nested(SourceSchema), required=True)
    published = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        required=True,
        metadata={
            "description": "Each bet's return to player as the sources print it, where they print one; "
            "the weights are the operator's, so `returns` is what this preset's example weights give",
            "example": {"player": "98.76%"},
        },
    )
    returns = fields.List(
        fields.Nested(MultiplierReturnSchema),
        required=True,
        metadata={"description": "Each bet's exact return per unit of cost (its stake and its fee)"},
    )

    @pre_dump
    def of_preset(self, game: tuple[MultiplierPreset, MultiplierReturns], **kwargs: Any) -> dict[str, Any]:
        preset, returns = game
        return {
            "name": preset.name,
            "description": preset.description,
            "rule": {"id": preset.rule.id, **preset.rule.canonical},
            "sources": preset.sources,
            "published": {str(bet): text for bet, text in preset.published.items()},
            "returns": returns.returns,
        }


class PayTablesResponseSchema(AnswerSchema):
    """Every pay table of the catalogue, in bet type order, each bet's standard one first."""

    decks = fields.Integer(required=True, metadata={"description": "Decks in the full shoe the odds are for"})
    sequences = fields.Integer(
        required=True,
        metadata={"description": "Ordered six-card sequences the shoe can deal", "example": 4998398275503360},
    )
    pay_tables = fields.List(fields.Nested(PayTableSchema), required=True)
    multiplier_games = fields.List(
        fields.Nested(MultiplierGameSchema),
        required=True,
        metadata={
            "description": "The multiplier games (docs/multipliers.md), each with its bets' exact returns"
        },
    )

    @pre_dump
    def of_catalogue(self, odds: CatalogueOdds, **kwargs: Any) -> dict[str, Any]:
        return {
            "decks": odds.decks,
            "sequences": odds.sequences,
            "pay_tables": odds.tables,
            "multiplier_games": odds.multiplier_games,
        }
