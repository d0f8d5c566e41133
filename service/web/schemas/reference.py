"""Reference data: the tableau and the table presets."""

from marshmallow import Schema, fields

from .rules import RulesSchema


class PlayerRuleSchema(Schema):
    total = fields.Integer(required=True)
    action = fields.String(required=True, metadata={"enum": ["draw", "stand"]})
    reason = fields.String(required=True)


class BankerRuleSchema(Schema):
    total = fields.Integer(required=True, metadata={"description": "Banker's two-card total"})
    when_player_stood = fields.String(required=True, metadata={"enum": ["draw", "stand"]})
    draws_when_player_third_is = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Point values of the Player's third card on which the Banker draws"},
    )
    stands_when_player_third_is = fields.List(fields.Integer(), required=True)


class TableauSchema(Schema):
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


class TableSchema(Schema):
    name = fields.String(required=True)
    description = fields.String(required=True)
    chips = fields.List(
        fields.String(), required=True, metadata={"description": "Chip denominations, for table UIs"}
    )
    rules = fields.Nested(RulesSchema, required=True)


class TablesSchema(Schema):
    default = fields.String(required=True)
    tables = fields.List(fields.Nested(TableSchema), required=True)
