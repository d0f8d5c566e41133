"""Rules: the overrides a request may send, and the resolved rules returned."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, ClassVar

from marshmallow import (
    Schema,
    ValidationError,
    fields,
    post_load,
    pre_dump,
    pre_load,
    validate,
    validates_schema,
)

from ...baccarat.bets.money import ZERO, Rounding
from ...baccarat.bets.types import BetType, Variant
from ...baccarat.multipliers.presets import PRESETS as MULTIPLIER_PRESETS
from ...baccarat.multipliers.problems import operator_rule
from ...baccarat.multipliers.rule import (
    MOST_MULTIPLIER,
    MULTIPLIED_BETS,
    VIRTUAL_DECK,
    Counted,
    Fee,
    MultipliedPay,
)
from ...baccarat.shoes.deal import MAX_CUT_CARD, MIN_CUT_CARD
from ...baccarat.tables.rules import DEFAULT_TABLE, BetLimits, Dealing, Rules, resolve_rules
from ..scope import at_table, scope
from .base import AnswerSchema, RequestSchema
from .fields import Amount, BoundedDict, BoundedList, Flag, Rate
from .messages import FieldCode, Message
from .values import value_of

BET_TYPES = [str(t) for t in BetType]


def table_field(description: str, *, example: str | None = None, peek: bool = False) -> fields.Field[Any]:
    """A request's ``table``: the name of one of the caller's tables (GET
    /v1/tables), the catalogue's default table by default (``standard``,
    among the built-in presets). The ``peek`` table is Peek Baccarat's alone
    (``peek`` true): another operation answers it ``not_one_of`` the tables
    it plays. A table of another operator's is no table to the caller: it is
    answered as a name no table has."""
    if not peek:
        description += "; not `peek`, which POST /v1/rounds/peek plays"
    field = value_of(
        "TablePreset",
        load_default=_default_table,
        description=f"{description}; the deployment's default table by default (`{DEFAULT_TABLE}` "
        "among the built-in presets)",
        example=example,
        documented_default=DEFAULT_TABLE,
    )
    field.validators = [_one_of_the_callers(peek)]
    return field


def _default_table() -> str:
    return scope().tables.default


def _one_of_the_callers(peek: bool) -> Callable[[str], None]:
    """A validator: the name is one of the caller's tables (and, unless
    ``peek``, one the plain game plays), else ``not_one_of`` naming those."""

    def check(table: str) -> None:
        tables = scope().tables
        if table in tables and (peek or tables.plain_play(table)):
            return
        choices = ", ".join(name for name in tables if peek or tables.plain_play(name))
        raise ValidationError(Message.of(FieldCode.NOT_ONE_OF, choices=choices))

    return check


def table_rules(table: str, overrides: Mapping[str, Any] | None = None, *, peek: bool = False) -> Rules:
    """The rules of the caller's table ``table`` (checked by its field) with
    ``overrides``: what every request schema plays, settles, prices or
    describes by (:func:`~service.baccarat.tables.rules.resolve_rules`, at the
    caller's catalogue; ``peek``: played as Peek Baccarat). The table is
    noted as the one the request named."""
    at_table(table)
    return resolve_rules(table, overrides, tables=scope().tables, peek=peek)


class LimitsSchema(RequestSchema):
    min = Amount(required=True, metadata={"description": "Smallest single bet"})
    max = Amount(required=True, metadata={"description": "Largest total on this bet type per slip"})

    @validates_schema
    def min_not_over_max(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["min"] > data["max"]:
            raise ValidationError(Message.of(FieldCode.MIN_OVER_MAX), "min")

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> BetLimits:
        return BetLimits(**data)


class RulesOverrideSchema(RequestSchema):
    """Settings a request may change on its table; the rest stay as the table has them.
    Where only approved tables are played, none: the object is refused whole."""

    @pre_load
    def approved_tables_only(self, data: Any, **kwargs: Any) -> Any:
        if scope().approved:
            raise ValidationError(Message.of(FieldCode.APPROVED_TABLES_ONLY))
        return data

    variant = value_of("Variant", example="ez")
    decks = fields.Integer(
        strict=True, validate=validate.Range(1, 8), metadata={"description": "Decks in the shoe (1-8)"}
    )
    commission = Rate(metadata={"description": "Commission on banker wins (0 to 0.25)"})
    tie_pays = value_of("TiePays", description="The tie's pay: a shorthand for `pay_tables.tie`")
    super_6_pays = value_of("Super6Pays", description="Super 6's pay: a shorthand for `pay_tables.super_6`")
    payout_rounding = value_of("PayoutRounding", description="Every preset rounds `down`")
    minor_unit = fields.Integer(
        strict=True,
        validate=validate.Range(0, 4),
        metadata={"description": "Decimal places of the currency (2 for cents)"},
    )
    cut_card = fields.Integer(
        strict=True,
        validate=validate.Range(MIN_CUT_CARD, MAX_CUT_CARD),
        metadata={
            "description": f"Whole shoes: cards left behind the cut card ({MIN_CUT_CARD}-{MAX_CUT_CARD}, "
            "and at most half the shoe); 16 by default"
        },
    )
    dealing = value_of(
        "Dealing",
        description="How the table deals, the preset's by default (`reshuffle_each_hand` at `tie_9`): "
        "at a table that reshuffles after each hand, no operation deals a whole shoe (POST /v1/shoes) "
        "or a shoe's round (`round`): each round is a seeded round without `round`, or cards sent",
    )
    limits = BoundedDict(
        max_keys=len(BET_TYPES),
        keys=fields.String(validate=validate.OneOf(BET_TYPES)),
        values=fields.Nested(LimitsSchema),
        metadata={
            "description": "Per bet type limits, merged into the table's; giving limits to a bet "
            "type the table does not offer offers it"
        },
    )
    pay_tables = BoundedDict(
        max_keys=len(BET_TYPES),
        keys=fields.String(validate=validate.OneOf(BET_TYPES)),
        values=value_of("PayTableId", checked=False),
        metadata={
            "description": "The pay table of each bet named, by id (GET /v1/paytables), merged into "
            "the table's: one of that bet's, for a bet the table offers. The banker's, the tie's and "
            "Super 6's set `variant`, `tie_pays` and `super_6_pays`, and must agree with them when "
            "those are sent too",
            "example": {"player_pair": "player_pair_12_to_1", "big": "big_0_53_to_1"},
        },
    )

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if "payout_rounding" in data:
            data["payout_rounding"] = Rounding(data["payout_rounding"])
        if "variant" in data:
            data["variant"] = Variant(data["variant"])
        if "dealing" in data:
            data["dealing"] = Dealing(data["dealing"])
        if "limits" in data:
            data["limits"] = {BetType(k): v for k, v in data["limits"].items()}
        if "pay_tables" in data:
            data["pay_tables"] = {BetType(k): v for k, v in data["pay_tables"].items()}
        return data


#: A plain decimal, as a rule's pays, shares, rates and cap are written; the
#: engine checks its range, so a negative or zero one is answered by its code.
_DECIMAL = re.compile(r"-?[0-9]{1,12}(\.[0-9]{1,12})?")


class RuleNumber(fields.Field[Decimal]):
    """A decimal string of a multiplier rule (``"0.2"``), or a plain JSON number read as one."""

    doc: ClassVar[dict[str, Any]] = {"type": "string", "pattern": f"^{_DECIMAL.pattern}$", "example": "0.2"}

    def __init__(self, description: str, **kwargs: Any) -> None:
        super().__init__(metadata={**self.doc, "description": description}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Decimal:
        plain = isinstance(value, str | int | Decimal) and not isinstance(value, bool)
        text = str(value) if plain else ""
        if not _DECIMAL.fullmatch(text):
            raise ValidationError(Message.of(FieldCode.NOT_A_PLAIN_AMOUNT, amount=text[:24]))
        return Decimal(text)


def _weights(most: int, description: str, example: dict[str, int]) -> fields.Field[Any]:
    """Whole numbers (as keys) with their weights; the engine checks both."""
    return BoundedDict(
        max_keys=most,
        keys=fields.String(
            validate=validate.Regexp(r"^[0-9]{1,4}$", error=Message.of(FieldCode.NOT_AN_INTEGER))
        ),
        values=fields.Integer(strict=True),
        required=True,
        metadata={"description": description, "example": example},
    )


class MultipliedPaySchema(RequestSchema):
    """What one bet of an operator's multiplier rule wins."""

    pays = RuleNumber("The base pay, to 1: more than 0, at most 10000", required=True)
    counted = value_of("Counted", required=True, example="all_cards")
    stake_kept = RuleNumber("The share of the stake a win keeps (the Banker's 0.05); 0 by default")

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> MultipliedPay:
        return MultipliedPay(
            pays=data["pays"], counted=Counted(data["counted"]), stake_kept=data.get("stake_kept", ZERO)
        )


class FeeSchema(RequestSchema):
    """The fee charged on top of each stake on the bets named."""

    rate = RuleNumber("Per unit staked: 0 to 1 (0.2 is 20%)", required=True)
    bets = BoundedList(
        value_of("BetType"),
        validate=validate.Length(max=len(MULTIPLIED_BETS)),
        required=True,
        metadata={"description": "The bets the fee is charged on: bets the rule pays"},
    )
    returned_on_push = Flag(metadata={"description": "Whether a push returns the fee; false by default"})

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Fee:
        bets = tuple(BetType(bet) for bet in data["bets"])
        return Fee(rate=data["rate"], bets=bets, returned_on_push=data.get("returned_on_push", False))


class MultiplierRuleSpecSchema(RequestSchema):
    """An operator's own multiplier rule (docs/multipliers.md): how many
    multiplier cards are drawn, each multiplier's weight, each bet's base
    pay, the fee and a cap. The engine checks it whole: each field that
    does not hold is a problem at its pointer."""

    cards = _weights(
        VIRTUAL_DECK,
        "Each count of multiplier cards with its weight (one count: always that many), 1 to 52",
        {"3": 1, "4": 1},
    )
    multipliers = _weights(
        MOST_MULTIPLIER,
        f"Each multiplier (2 to {MOST_MULTIPLIER}) with its weight; weights total at most 2^32",
        {"2": 10, "5": 3, "10": 1},
    )
    pays = BoundedDict(
        max_keys=len(BetType),
        keys=fields.String(validate=validate.OneOf([str(bet) for bet in BetType])),
        values=fields.Nested(MultipliedPaySchema),
        required=True,
        metadata={"description": "Each bet the rule pays, with its base pay and the cards that count"},
    )
    fee = fields.Nested(FeeSchema, metadata={"description": "The fee on each stake; none by default"})
    cap = RuleNumber("The most one slip wins on one round; none by default", allow_none=True)

    @post_load
    def make(self, data: dict[str, Any], **kwargs: Any) -> Any:
        return operator_rule(
            cards={int(count): weight for count, weight in data["cards"].items()},
            multipliers={int(value): weight for value, weight in data["multipliers"].items()},
            pays={BetType(bet): pay for bet, pay in data["pays"].items()},
            fee=data.get("fee", Fee(rate=ZERO, bets=())),
            cap=data.get("cap"),
        )


class MultiplierRuleField(fields.Field[Any]):
    """``rules.multipliers``: a preset's id, or an operator's own rule."""

    doc: ClassVar[dict[str, Any]] = {
        "oneOf": [
            {"$ref": "#/components/schemas/MultiplierPreset"},
            {"$ref": "#/components/schemas/MultiplierRuleSpec"},
        ],
        "description": "Play the round as this multiplier game (docs/multipliers.md): a preset's id, "
        "or an operator's own rule. Its multiplier cards are drawn from the round's seed inputs, or "
        "sent as `multiplier_cards` with `cards` (a physical shoe's as `multiplier_cards_by_round`), "
        "and its bets are paid by the rule, fee included. "
        "The table then offers only the bets the rule pays. A rule is played only at rules that pay "
        "its bets as the standard table does: another variant, commission, tie pay or pay table for "
        "one of them is refused (`multipliers_with_other_pays`). Amounts are exact up to the largest "
        'the bounds allow (docs/multipliers.md, "Amounts"). None by default',
        "example": "lightning",
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata=self.doc, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, Mapping):
            return MultiplierRuleSpecSchema().load(value)
        if isinstance(value, str) and value in MULTIPLIER_PRESETS:
            return MULTIPLIER_PRESETS[value].rule
        raise ValidationError(Message.of(FieldCode.NOT_ONE_OF, choices=", ".join(MULTIPLIER_PRESETS)))


#: Components that ``oneOf`` lists refer to by name: an operator's multiplier rule.
MULTIPLIER_FORMS: Mapping[str, type[Schema]] = {"MultiplierRuleSpec": MultiplierRuleSpecSchema}


class RoundRulesOverrideSchema(RulesOverrideSchema):
    """The settings a round may change on its table: those of every request,
    and a multiplier game."""

    multipliers = MultiplierRuleField()


class LimitsOutSchema(AnswerSchema):
    min = fields.String(required=True, metadata={"example": "1.00"})
    max = fields.String(required=True, metadata={"example": "200.00"})


class MultipliedPayOutSchema(AnswerSchema):
    pays = fields.String(required=True, metadata={"description": "The base pay, to 1", "example": "5"})
    counted = value_of("Counted", required=True, example="all_cards")
    stake_kept = fields.String(
        required=True, metadata={"description": "The share of the stake a win keeps", "example": "0.05"}
    )


class FeeOutSchema(AnswerSchema):
    rate = fields.String(required=True, metadata={"description": "Per unit staked", "example": "0.2"})
    bets = fields.List(value_of("BetType"), required=True)
    returned_on_push = fields.Boolean(required=True)


class MultiplierRuleOutSchema(AnswerSchema):
    """A multiplier game's rule, in canonical form (weights divided by their
    greatest common divisor; docs/multipliers.md)."""

    id = fields.String(
        required=True,
        metadata={"description": "First 16 hex digits of the SHA-256 of the rule's canonical JSON"},
    )
    cards = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "Each count of multiplier cards with its weight", "example": {"5": 1}},
    )
    multipliers = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "Each multiplier with its weight", "example": {"2": 15, "3": 1}},
    )
    pays = fields.Dict(keys=fields.String(), values=fields.Nested(MultipliedPayOutSchema), required=True)
    fee = fields.Nested(FeeOutSchema, required=True)
    cap = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "The most one slip wins on one round, or null", "example": "500000"},
    )


class RulesSchema(AnswerSchema):
    """The rules in force, resolved from the table and the request's overrides."""

    id = fields.String(
        required=True,
        metadata={
            "description": "First 16 hex digits of the SHA-256 of these rules in canonical "
            "JSON, which names a bet's pay table only where it is not the bet's standard one (so "
            "ids made before pay tables could be chosen still stand): equal ids mean equal rules",
            "example": "3f2a9c0d51b7e486",
        },
    )
    variant = value_of("Variant", required=True)
    decks = fields.Integer(required=True)
    commission = fields.String(required=True, metadata={"example": "0.05"})
    tie_pays = value_of("TiePays", required=True)
    super_6_pays = value_of("Super6Pays", required=True)
    payout_rounding = value_of("PayoutRounding", required=True)
    minor_unit = fields.Integer(required=True)
    cut_card = fields.Integer(required=True, metadata={"description": "Cards left behind the cut card"})
    dealing = value_of(
        "Dealing",
        description="At a table that reshuffles after each hand, `reshuffle_each_hand`; "
        "absent at one that deals whole shoes. Not part of the id, which says how rounds are settled",
    )
    limits = fields.Dict(keys=fields.String(), values=fields.Nested(LimitsOutSchema), required=True)
    pay_tables = fields.Dict(
        keys=fields.String(),
        values=value_of("PayTableId"),
        required=True,
        metadata={
            "description": "Each offered bet's pay table, by id (GET /v1/paytables): what every bet "
            "on these rules is paid by",
            "example": {"player": "player_1_to_1", "banker": "banker_commission", "tie": "tie_8_to_1"},
        },
    )
    multipliers = fields.Nested(
        MultiplierRuleOutSchema,
        metadata={"description": "A multiplier game's rule: its rounds' bets are paid by it"},
    )

    OMIT_IF_NONE = frozenset({"multipliers", "dealing"})

    @pre_dump
    def canonical(self, rules: Rules, **kwargs: Any) -> dict[str, Any]:
        return {**rules.canonical, "id": rules.id}
