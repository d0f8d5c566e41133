"""Reference data: the tableau and the table presets.

Each rule of the tableau carries the code and the values a round's draw or
stand carries for it (``ReasonCode``), and each line of a pay table the
code a settled bet carries (``PayLineCode``), so that a platform can write
the rules and the pays in its own words from codes alone; every sentence is
written in the answer's language (``Content-Language``).
"""

from typing import Any

from marshmallow import fields, pre_dump

from ...baccarat.bets.types import BetType
from ...baccarat.peek.round import PEEK
from ...baccarat.rulebook.tableau import banker_draws
from ...baccarat.tables.rules import OPERATIONS, Game
from .base import AnswerSchema
from .round_answers import ReasonSchema, Sentence
from .rules import RulesSchema
from .values import value_of


def sentence(description: str, example: str | None = None, **kwargs: Any) -> Sentence:
    """A field holding one of the game's English sentences, written in the
    answer's language (``Content-Language``)."""
    metadata: dict[str, Any] = {"type": "string", "description": description}
    if example is not None:
        metadata["example"] = example
    return Sentence(required=True, metadata=metadata, **kwargs)


class _PlayerTotal(AnswerSchema):
    total = fields.Integer(required=True, metadata={"description": "Player's two-card total"})
    action = value_of("Action", required=True)


class PlayerRuleSchema(ReasonSchema, _PlayerTotal):
    """The Player's action on a two-card total, and the rule, as a round answers it."""


class _Action(AnswerSchema):
    action = value_of("Action", required=True)


class PlayerStoodRuleSchema(ReasonSchema, _Action):
    """The Banker's action when the Player stood, and the rule."""


class _PlayerThird(AnswerSchema):
    player_third = fields.Integer(
        required=True, metadata={"description": "The point value of the Player's third card"}
    )
    action = value_of("Action", required=True)


class PlayerDrewRuleSchema(ReasonSchema, _PlayerThird):
    """The Banker's action when the Player drew a card of this point value, and the rule."""


class BankerRuleSchema(AnswerSchema):
    total = fields.Integer(required=True, metadata={"description": "Banker's two-card total"})
    when_player_stood = value_of("Action", required=True)
    draws_when_player_third_is = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Point values of the Player's third card on which the Banker draws"},
    )
    stands_when_player_third_is = fields.List(fields.Integer(), required=True)
    player_stood = fields.Nested(
        PlayerStoodRuleSchema,
        required=True,
        metadata={"description": "The rule when the Player stood: its code, values and sentence"},
    )
    player_drew = fields.List(
        fields.Nested(PlayerDrewRuleSchema),
        required=True,
        metadata={
            "description": "The rule for each point value 0-9 of the Player's third card: its code, "
            "values and sentence"
        },
    )


class _NaturalTotal(AnswerSchema):
    hand = value_of("Side", required=True)
    total = fields.Integer(required=True, metadata={"description": "The hand's two-card total", "example": 8})


class NaturalRuleSchema(ReasonSchema, _NaturalTotal):
    """A natural of one hand, and the rule, as a round a natural ends answers it."""


class NoteValuesSchema(AnswerSchema):
    """The figures a note states (none but a natural's totals)."""

    naturals = fields.List(
        fields.Integer(),
        metadata={"description": "The two-card totals that are naturals", "example": [8, 9]},
    )


class TableauNoteSchema(AnswerSchema):
    """A note's code and the figures it states."""

    code = value_of("NoteCode", required=True, example="naturals_end_the_round")
    values = fields.Nested(NoteValuesSchema, required=True)


class TableauSchema(AnswerSchema):
    card_points = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"example": {"A": 1, "9": 9, "T": 0, "K": 0}},
    )
    naturals = fields.List(
        fields.Integer(), required=True, metadata={"description": "Two-card totals that end the round"}
    )
    natural_rules = fields.List(
        fields.Nested(NaturalRuleSchema),
        required=True,
        metadata={
            "description": "Each hand's naturals, each with the code, values and sentence of the rule "
            "a round it ends answers with (`player_natural`, `banker_natural`)"
        },
    )
    player = fields.List(
        fields.Nested(PlayerRuleSchema),
        required=True,
        metadata={"description": "Player's action by two-card total 0-7"},
    )
    banker = fields.List(
        fields.Nested(BankerRuleSchema),
        required=True,
        metadata={"description": "Banker's action by two-card total 0-7"},
    )
    notes = fields.List(
        sentence("A note on the rules, in the answer's language"),
        required=True,
        metadata={"description": "The rules in a few sentences, in the answer's language"},
    )
    note_codes = fields.List(
        fields.Nested(TableauNoteSchema),
        required=True,
        metadata={
            "description": "Each note's code and the figures it states, in the order of `notes`: "
            "what a platform writes the notes from in its own words"
        },
    )

    @pre_dump
    def with_reasons(self, tableau: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Each Banker's rule with its reason beside its action, as the
        tableau deals them (the Player's rows carry theirs already)."""
        banker = []
        for row in tableau["banker"]:
            stood, stood_reason = banker_draws(row["total"], None)
            drew = []
            for third in range(10):
                draws, reason = banker_draws(row["total"], third)
                drew.append({"player_third": third, "action": _action(draws), "reason": reason})
            player_stood = {"action": _action(stood), "reason": stood_reason}
            banker.append({**row, "player_stood": player_stood, "player_drew": drew})
        return {**tableau, "banker": banker}


def _action(draws: bool) -> str:
    return "draw" if draws else "stand"


class PayLineSchema(AnswerSchema):
    """One line of a pay table; the first line that applies decides, and a bet no line covers loses."""

    when = sentence(
        "When the line holds, in the answer's language", "Player wins by 9 points without a natural"
    )
    code = value_of(
        "PayLineCode",
        required=True,
        description="The line's code: the code a bet this line settles carries",
        example="player_wins_by_9_points_without_a_natural",
    )
    result = value_of(
        "BetResult",
        attribute="payout.result",
        required=True,
        description="`win` or `push`: a line never loses",
    )
    odds = fields.String(
        attribute="payout.odds",
        required=True,
        metadata={"description": "Profit per unit staked, before commission (0 on a push)", "example": "30"},
    )
    commission = fields.String(
        attribute="payout.commission",
        required=True,
        metadata={"description": "Share of the profit the house keeps", "example": "0"},
    )


class OfferedBetSchema(AnswerSchema):
    """A bet the table offers: what it is on, its limits and its pay table."""

    type = value_of("BetType", required=True, example="dragon_bonus_player")
    pay_table = value_of(
        "PayTableId",
        attribute="pay_table.id",
        required=True,
        description="The pay table it is paid by (GET /v1/paytables)",
        example="dragon_bonus_player_30_10_6_4_2_1",
    )
    description = sentence(
        "What the bet is on, in the answer's language (its code is `type`)", attribute="pay_table.description"
    )
    min = fields.String(required=True, metadata={"description": "Smallest single bet", "example": "1.00"})
    max = fields.String(
        required=True, metadata={"description": "Largest total on this bet per slip", "example": "10.00"}
    )
    pays = fields.List(fields.Nested(PayLineSchema), attribute="pay_table.lines", required=True)


def _figure(description: str, example: str) -> fields.Field[Any]:
    return fields.String(metadata={"description": description, "example": example})


class TableFiguresSchema(AnswerSchema):
    """The figures a preset's description states, beside its code."""

    decks = fields.Integer(required=True, metadata={"example": 8})
    variant = value_of("Variant", required=True)
    banker_pays = fields.String(
        required=True,
        metadata={
            "description": "What a Banker win pays per unit, after commission (a no-commission "
            "Banker win on 6 pays 0.5); at a multiplier game, before the multipliers",
            "example": "0.95",
        },
    )
    commission = fields.String(
        required=True,
        metadata={
            "description": "The share of a winning Banker stake kept (at a multiplier game, its rule's)",
            "example": "0.05",
        },
    )
    tie_pays = fields.String(
        required=True,
        metadata={"description": "What a tie pays per unit, before any multiplier", "example": "8"},
    )
    min = fields.String(
        required=True, metadata={"description": "The main bets' smallest bet", "example": "1.00"}
    )
    max = fields.String(
        required=True, metadata={"description": "The main bets' largest total", "example": "200.00"}
    )
    tie_max = fields.String(
        required=True, metadata={"description": "The tie's largest total", "example": "20.00"}
    )
    side_bets = fields.List(
        value_of("BetType"), required=True, metadata={"description": "The side bets offered, if any"}
    )
    fee = _figure("A multiplier game's or Peek Baccarat's fee per unit staked, on top of the stake", "0.2")
    multiplier_cards = fields.List(
        fields.Integer(),
        metadata={"description": "A multiplier game's counts of multiplier cards", "example": [5]},
    )
    multipliers = fields.List(
        fields.Integer(), metadata={"description": "A multiplier game's multipliers", "example": [2, 3, 5, 8]}
    )
    cap = _figure("A multiplier game's most won by one slip on one round", "500000")


class PeekRuleSchema(AnswerSchema):
    """Peek Baccarat's terms at its table (docs/bets.md, "Peek Baccarat")."""

    fee = fields.String(
        required=True,
        metadata={"description": "The fee per unit staked, on top of the stake, kept", "example": "0.2"},
    )
    fee_bets = fields.List(
        value_of("BetType"),
        required=True,
        metadata={"description": "The bets that pay the fee, and the only ones that may be raised"},
    )
    choices = fields.Dict(
        keys=value_of("PeekChoice"),
        values=fields.Integer(),
        required=True,
        metadata={
            "description": "What each choice multiplies the stake by (no fee on the raise)",
            "example": {"keep": 1, "double": 2, "triple": 3},
        },
    )


#: The terms of Peek Baccarat's table, made once.
PEEK_TERMS = {
    "fee": format(PEEK.fee_rate.normalize(), "f"),
    "fee_bets": [str(bet) for bet in BetType if bet in PEEK.fee_bets],
    "choices": {str(choice): multiple for choice, multiple in PEEK.multiples.items()},
}


class TableSchema(AnswerSchema):
    name = value_of("TablePreset", required=True)
    description = sentence(
        "The preset in words, in the answer's language: written from `description_code` and "
        "`description_values`"
    )
    description_code = value_of(
        "TablePreset",
        required=True,
        description="The description's code, what a platform keys its own words for the preset by: "
        "the preset's name (one value set, `TablePreset`, names the preset and its description)",
        example="standard",
    )
    description_values = fields.Nested(
        TableFiguresSchema,
        required=True,
        metadata={
            "description": "The figures the description states (all of them in `rules`, `bets` and "
            "`dealing` too); a multiplier game's fee, cards, multipliers and cap only at one, and "
            "Peek Baccarat's fee at its table"
        },
    )
    chips = fields.List(
        fields.String(), required=True, metadata={"description": "Chip denominations, for table UIs"}
    )
    rules = fields.Nested(RulesSchema, required=True)
    dealing = value_of("Dealing", required=True)
    game = value_of("Game", required=True)
    operations = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "The operations (by operationId) that take this table: a program routes by "
            "them without knowing the catalogue (`playPeekRound` alone plays `peek`; `dealShoe` is "
            "left out at a table that reshuffles after each hand; a multiplier table's rounds need "
            "their multiplier cards with the cards, or seed inputs)",
            "example": list(OPERATIONS[Game.MULTIPLIERS]),
        },
    )
    bets = fields.List(
        fields.Nested(OfferedBetSchema),
        required=True,
        metadata={"description": "The bets the table offers (the keys of `rules.limits`), with their pays"},
    )
    peek = fields.Nested(
        PeekRuleSchema,
        metadata={
            "description": "At Peek Baccarat's table (`peek`), played by POST /v1/rounds/peek and "
            "refused by every other operation: the fee and the choices"
        },
    )

    currency = fields.String(
        metadata={
            "description": "A catalogued table's currency, an ISO 4217 code whose minor unit "
            "`rules.minor_unit` is; none at a built-in preset",
            "example": "KRW",
        }
    )
    languages = fields.List(
        fields.String(),
        metadata={
            "description": "The languages (tags) a catalogued table's rules sheet is written in; "
            "none: every language the service speaks",
            "example": ["ko", "en"],
        },
    )

    OMIT_IF_NONE = frozenset({"peek", "currency", "languages"})

    @pre_dump
    def with_peek(self, table: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Peek's terms, and its fee among the figures, at its table."""
        if not table["peek"]:
            return {**table, "peek": None}
        figures = {**table["description_values"], "fee": PEEK_TERMS["fee"]}
        return {**table, "peek": PEEK_TERMS, "description_values": figures}


class TablesResponseSchema(AnswerSchema):
    """The table presets. (Not ``Tables``: a generated Python client names its
    instance of a model after it, which the ``tables`` list would shadow.)"""

    default = value_of("TablePreset", required=True)
    tables = fields.List(fields.Nested(TableSchema), required=True)
