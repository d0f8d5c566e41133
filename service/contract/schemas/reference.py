"""Reference data: the tableau and the table presets."""

from marshmallow import fields

from .base import AnswerSchema
from .rules import RulesSchema
from .values import value_of


class PlayerRuleSchema(AnswerSchema):
    total = fields.Integer(required=True)
    action = value_of("Action", required=True)
    reason = fields.String(required=True)


class BankerRuleSchema(AnswerSchema):
    total = fields.Integer(required=True, metadata={"description": "Banker's two-card total"})
    when_player_stood = value_of("Action", required=True)
    draws_when_player_third_is = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Point values of the Player's third card on which the Banker draws"},
    )
    stands_when_player_third_is = fields.List(fields.Integer(), required=True)


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
    notes = fields.List(fields.String(), required=True)


class PayLineSchema(AnswerSchema):
    """One line of a pay table; the first line that applies decides, and a bet no line covers loses."""

    when = fields.String(required=True, metadata={"example": "Player wins by 9 points without a natural"})
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
    description = fields.String(attribute="pay_table.description", required=True)
    min = fields.String(required=True, metadata={"description": "Smallest single bet", "example": "1.00"})
    max = fields.String(
        required=True, metadata={"description": "Largest total on this bet per slip", "example": "10.00"}
    )
    pays = fields.List(fields.Nested(PayLineSchema), attribute="pay_table.lines", required=True)


class TableSchema(AnswerSchema):
    name = value_of("TablePreset", required=True)
    description = fields.String(required=True)
    chips = fields.List(
        fields.String(), required=True, metadata={"description": "Chip denominations, for table UIs"}
    )
    rules = fields.Nested(RulesSchema, required=True)
    dealing = value_of("Dealing", required=True)
    bets = fields.List(
        fields.Nested(OfferedBetSchema),
        required=True,
        metadata={"description": "The bets the table offers (the keys of `rules.limits`), with their pays"},
    )


class TablesResponseSchema(AnswerSchema):
    """The table presets. (Not ``Tables``: a generated Python client names its
    instance of a model after it, which the ``tables`` list would shadow.)"""

    default = value_of("TablePreset", required=True)
    tables = fields.List(fields.Nested(TableSchema), required=True)
