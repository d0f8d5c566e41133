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
from marshmallow import Schema, ValidationError

from service.baccarat.cards import parse_card
from service.baccarat.odds import shoe_odds
from service.baccarat.payouts import table_presets
from service.baccarat.play import play_and_settle, play_and_settle_slips
from service.baccarat.shoe_play import play_shoe
from service.baccarat.tables import resolve_rules
from service.web.schemas.compiled import FALLBACK, FastSchema
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
