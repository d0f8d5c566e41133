"""The compiled schemas say exactly what marshmallow says.

Dumps must be equal; a compiled load either gives up or returns exactly what
marshmallow's load returns, and on valid requests it does not give up.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields, validate

from service.baccarat.cards import parse_card
from service.baccarat.odds import shoe_odds
from service.baccarat.payouts import table_presets
from service.baccarat.play import play_and_settle, play_and_settle_slips
from service.baccarat.shoe_play import play_shoe
from service.baccarat.tables import resolve_rules
from service.web.schemas.compiled import FALLBACK, FastSchema
from service.web.schemas.fields import Amount, CardCode
from service.web.schemas.odds import OddsResponseSchema
from service.web.schemas.reference import TablesSchema
from service.web.schemas.rounds import (
    RoundRequestSchema,
    RoundResponseSchema,
    SettlementRequestSchema,
    SettlementResponseSchema,
)
from service.web.schemas.shoes import ShoeResponseSchema
from tests import strategies


@contextlib.contextmanager
def plain_marshmallow() -> Iterator[None]:
    """Every FastSchema behaves as a plain marshmallow Schema inside."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FastSchema, "load", Schema.load)
        patch.setattr(FastSchema, "dump", Schema.dump)
        yield


def reference_load(schema: Schema, data: Any) -> Any:
    with plain_marshmallow():
        try:
            return schema.load(data)
        except ValidationError:
            return FALLBACK


def reference_dump(schema: Schema, obj: Any) -> Any:
    with plain_marshmallow():
        return schema.dump(obj)


STANDARD = resolve_rules("standard")


@settings(max_examples=150)
@given(strategies.shoe_sequence(), strategies.bets, st.booleans())
def test_round_dump_equals_marshmallow(sequence, bets, seeded):
    played = (
        play_and_settle(STANDARD, bets, seed="s")
        if seeded
        else play_and_settle(STANDARD, bets, cards=sequence)
    )
    schema = RoundResponseSchema()
    assert schema.fast_dump(played) == reference_dump(schema, played)


@settings(max_examples=50)
@given(strategies.shoe_sequence(), st.lists(strategies.bets.filter(bool), min_size=1, max_size=4))
def test_settlement_dump_equals_marshmallow(sequence, slips):
    played = play_and_settle_slips(
        STANDARD, [(f"s{i}", bets) for i, bets in enumerate(slips)], cards=sequence
    )
    schema = SettlementResponseSchema()
    assert schema.fast_dump(played) == reference_dump(schema, played)


def test_tables_dump_equals_marshmallow():
    schema, tables = TablesSchema(), table_presets()
    assert schema.fast_dump(tables) == reference_dump(schema, tables)


# Bodies: mostly well-formed pieces, sometimes something wrong anywhere.
junk = st.none() | st.booleans() | st.integers(-3, 300) | st.text(max_size=6) | st.just([]) | st.just({})
card = st.sampled_from(["9S", "kh", "10d", "TS", "XX", "1S", "As"]) | junk
amount = (
    st.sampled_from(["25.00", "5", "0.5", "10.005", "1e3", "-1", "0", "NaN", " 5"])
    | st.builds(Decimal, st.sampled_from(["1.10", "3", "2E+1"]))
    | junk
)
bet = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(["player", "banker", "tie", "dragon"]) | junk, "amount": amount},
        optional={"id": st.text(max_size=3) | junk, "extra": junk},
    )
    | junk
)
round_body = (
    st.fixed_dictionaries(
        {},
        optional={
            "cards": st.lists(card, max_size=7) | junk,
            "seed": st.text(max_size=4) | junk,
            "table": st.sampled_from(["standard", "tie_9", "nowhere"]) | junk,
            "rules": st.fixed_dictionaries(
                {},
                optional={"decks": st.integers(0, 9) | junk, "tie_pays": st.sampled_from([8, 9, 7]) | junk},
            )
            | junk,
            "bets": st.lists(bet, max_size=3) | junk,
            "surprise": junk,
        },
    )
    | junk
)


@settings(max_examples=400)
@given(round_body)
def test_round_load_is_marshmallow_or_gives_up(body):
    schema = RoundRequestSchema()
    fast = schema.fast_load(body)
    if fast is not FALLBACK:
        assert fast == reference_load(schema, body)


@settings(max_examples=200)
@given(
    st.fixed_dictionaries(
        {
            "cards": st.just(["9S", "KH", "2D", "7C", "5H"]),
            "slips": st.lists(
                st.fixed_dictionaries(
                    {"id": st.text(max_size=3) | junk, "bets": st.lists(bet, max_size=3) | junk}
                )
                | junk,
                max_size=3,
            ),
        }
    )
)
def test_settlement_load_is_marshmallow_or_gives_up(body):
    schema = SettlementRequestSchema()
    fast = schema.fast_load(body)
    if fast is not FALLBACK:
        assert fast == reference_load(schema, body)


@given(strategies.shoe_sequence(), strategies.bets)
def test_valid_requests_take_the_compiled_path(sequence, bets):
    body = {
        "cards": [c.code for c in sequence],
        "bets": [
            {"type": str(b.type), "amount": str(b.amount), **({"id": b.id} if b.id else {})} for b in bets
        ],
    }
    fast = RoundRequestSchema().fast_load(body)
    assert fast is not FALLBACK
    assert fast == reference_load(RoundRequestSchema(), body)


@settings(max_examples=10, deadline=None)
@given(st.text(min_size=1, max_size=8), st.integers(1, 8), st.integers(1, 90))
def test_shoe_and_roads_dump_equals_marshmallow(seed, decks, to_round):
    played = play_shoe(resolve_rules("standard", {"decks": decks}), seed=seed, to_round=to_round)
    schema = ShoeResponseSchema()
    assert schema.fast_dump(played) == reference_dump(schema, played)


@pytest.mark.parametrize(
    ("table", "source"),
    [
        ("standard", {}),
        ("ez", {"removed": [parse_card(c) for c in ("9S", "KH", "2D")]}),
        ("no_commission", {"seed": "s"}),
    ],
)
def test_odds_dump_equals_marshmallow(table, source):
    odds = shoe_odds(resolve_rules(table), **source)
    schema = OddsResponseSchema()
    assert schema.fast_dump(odds) == reference_dump(schema, odds)


# --- the compiler's fast paths, on schemas made to reach each of them ---------


def test_card_table_loads_as_parse_card():
    table = CardCode.load_table
    spellings = {r + s for r in [*"A23456789TJQKatjqk", "10", "1", "11", "0"] for s in "SHDCshdcX"}
    for code in spellings | {"", "K", "KHH", " KH", "10 S"}:
        try:
            expected = parse_card(code)
        except ValueError:
            assert code not in table
        else:
            assert table[code] is expected


@given(st.text(max_size=4))
def test_card_table_refuses_what_parse_card_refuses(code):
    try:
        expected = parse_card(code)
    except ValueError:
        assert code not in CardCode.load_table
    else:
        assert CardCode.load_table[code] is expected


@given(
    st.sampled_from(["25.00", "5", "0.5", "10.005", "1e3", "-1", "0", "0.00", "NaN", " 5", "01", "1."])
    | st.from_regex(r"[0-9.]{1,14}", fullmatch=True)
    | st.text(max_size=5)
)
def test_amount_table_loads_as_the_field(text):
    try:
        expected = Amount()._deserialize(text, None, None)
    except ValidationError:
        with pytest.raises(KeyError):
            Amount.load_table[text]
    else:
        loaded = Amount.load_table[text]
        assert loaded == expected
        assert str(loaded) == str(expected)


class InnerSchema(FastSchema):
    name = fields.String()
    size = fields.Integer(dump_default=7)


class ReadOnly:
    """No __getitem__: read by attribute; ``broken`` raises AttributeError."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)

    @property
    def broken(self) -> Any:
        raise AttributeError("broken")


class OuterSchema(FastSchema):
    title = fields.String(attribute="meta.title")
    inner = fields.Nested(InnerSchema)
    inners = fields.List(fields.Nested(InnerSchema))
    card = CardCode()
    cards = fields.List(CardCode())
    flag = fields.Boolean()
    count = fields.Integer()
    broken = fields.String()
    odd = fields.String(attribute="not an identifier")

    omit_if_none = frozenset({"inner", "count"})


def shaped(values: dict[str, Any]) -> st.SearchStrategy[Any]:
    """``values`` as a dict or as an object read by attribute."""
    return st.sampled_from([values, ReadOnly(**values)])


def objects(fields_: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    return st.fixed_dictionaries({}, optional=fields_).flatmap(shaped)


inner_object = objects(
    {"name": st.none() | st.text(max_size=2) | st.integers(), "size": st.none() | st.integers()}
)
some_card = st.none() | st.sampled_from([parse_card("KH"), parse_card("10s")])
outer_object = objects(
    {
        "meta": st.none() | objects({"title": st.none() | st.text(max_size=2)}),
        "inner": st.none() | inner_object,
        "inners": st.none() | st.lists(st.none() | inner_object, max_size=2),
        "card": some_card,
        "cards": st.none() | st.lists(some_card, max_size=2),
        "flag": st.none() | st.booleans() | st.sampled_from([0, 1, "true", "no"]),
        "count": st.none() | st.integers() | st.sampled_from([2.5, "3"]),
        "not an identifier": st.text(max_size=2),
    }
)


@settings(max_examples=300)
@given(outer_object)
def test_dump_fast_paths_equal_marshmallow(obj):
    schema = OuterSchema()
    expected = reference_dump(schema, obj)
    assert schema.fast_dump(obj) == expected
    assert schema.fast_dump(obj) == expected  # the type is known by now: the fast path


class LoadedSchema(FastSchema):
    code = CardCode(allow_none=True)
    codes = fields.List(CardCode(), validate=validate.Length(equal=2))
    amount = Amount(load_default=lambda: Decimal(1))
    amounts = fields.List(Amount(), validate=validate.Length(max=2))
    count = fields.Integer(validate=validate.Range(0, 5, min_inclusive=False), data_key="n")
    strict = fields.Integer(strict=True, validate=validate.OneOf([1, 2, 3]), required=True)
    kind = fields.String(validate=[validate.OneOf(["a", "b"]), validate.Length(max=1)], load_default="a")
    inner = fields.Nested(InnerSchema, allow_none=True)
    inners = fields.List(fields.Nested(InnerSchema))
    maybe = fields.List(fields.String(allow_none=True))


inner_body = st.fixed_dictionaries({}, optional={"name": st.text(max_size=2) | junk, "size": junk}) | junk
loaded_body = (
    st.fixed_dictionaries(
        {"strict": st.sampled_from([1, 3, 4, True, 2.0]) | junk},
        optional={
            "code": card,
            "codes": st.lists(card, max_size=3) | junk,
            "amount": amount,
            "amounts": st.lists(amount, max_size=3) | junk,
            "n": st.integers(-1, 6) | st.sampled_from(["3", 2.0, True]) | junk,
            "count": junk,
            "kind": st.sampled_from(["a", "b", "c", "ab"]) | junk,
            "inner": inner_body,
            "inners": st.lists(inner_body, max_size=2) | junk,
            "maybe": st.lists(st.none() | st.text(max_size=2) | junk, max_size=2) | junk,
        },
    )
    | junk
)


@settings(max_examples=500)
@given(loaded_body)
def test_load_fast_paths_are_marshmallow_or_give_up(body):
    schema = LoadedSchema()
    fast = schema.fast_load(body)
    if fast is not FALLBACK:
        assert fast == reference_load(schema, body)


def test_load_fast_paths_take_valid_input():
    body = {
        "code": None,
        "codes": ["10s", "KH"],
        "amounts": ["2.50", "3"],
        "n": 5,
        "strict": 2,
        "kind": "b",
        "inner": {"name": "x"},
        "inners": [{}],
        "maybe": [None, "y"],
    }
    schema = LoadedSchema()
    fast = schema.fast_load(body)
    assert fast is not FALLBACK
    assert fast == reference_load(schema, body)
    assert fast["amount"] == Decimal(1)


class TreeSchema(FastSchema):
    name = fields.String()
    children = fields.List(fields.Nested(lambda: TreeSchema()))


def test_a_schema_nested_in_itself_compiles():
    tree = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    schema = TreeSchema()
    assert schema.fast_load(tree) == reference_load(schema, tree) == tree
    assert schema.fast_dump(tree) == reference_dump(schema, tree)
