"""Request loading: the plain checks of bets and slips give exactly what
their schemas load, and size limits are checked before contents."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError

from service.contract.jsonio import Exponent
from service.contract.schemas.fields import MAX_INVALID_ITEMS
from service.contract.schemas.roads import RoadsRequestSchema
from service.contract.schemas.rounds import (
    BetSchema,
    RoundRequestSchema,
    SettlementRequestSchema,
    SlipSchema,
    plain_bet,
    plain_round,
    plain_slip,
)

# Mostly well-formed pieces, sometimes something wrong anywhere.
junk = st.none() | st.booleans() | st.integers(-3, 300) | st.text(max_size=6) | st.just([]) | st.just({})
amount = (
    st.sampled_from(["25.00", "5", "0.5", "10.005", "1e3", "-1", "0", "NaN", " 5", "0012", "1" * 13])
    | st.builds(Decimal, st.sampled_from(["1.10", "3"]))
    | st.builds(Exponent, st.sampled_from(["2.5E+1", "1e1"]))
    | junk
)
reference = st.text(max_size=3) | st.just("x" * 65) | st.just("\ud800") | junk
bet = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(["player", "banker", "tie", "super_6", "dragon"]) | junk, "amount": amount},
        optional={"id": reference, "extra": junk},
    )
    | junk
)
slip = (
    st.fixed_dictionaries(
        {"id": reference, "bets": st.lists(bet, max_size=3) | junk}, optional={"seat": junk}
    )
    | junk
)


card = st.sampled_from(["9S", "kh", "10d", "TS", "XX", "1S", "As", "KH" * 3]) | junk
round_body = (
    st.fixed_dictionaries(
        {},
        optional={
            "cards": st.lists(card, max_size=7) | junk,
            "bets": st.lists(bet, max_size=3) | junk,
            "table": st.sampled_from(["standard", "tie_9", "ez", "nowhere"]) | junk,
            "seed": st.text(max_size=4) | junk,
            "rules": st.just({"tie_pays": 9}) | junk,
        },
    )
    | junk
)


def loaded(schema, value):
    """What marshmallow itself loads (``Schema.load``, not a plain path), or None."""
    try:
        return Schema.load(schema, value)
    except ValidationError:
        return None


@settings(max_examples=500)
@given(bet)
def test_a_plain_bet_is_what_the_schema_loads(value):
    bet = plain_bet(value)
    if bet is not None:
        assert bet == loaded(BetSchema(), value)


@settings(max_examples=300)
@given(slip)
def test_a_plain_slip_is_what_the_schema_loads(value):
    slip = plain_slip(value)
    if slip is not None:
        assert slip == loaded(SlipSchema(), value)


@settings(max_examples=500)
@given(round_body)
def test_a_plain_round_is_what_the_schema_loads(value):
    request = plain_round(value)
    if request is not None:
        assert request == loaded(RoundRequestSchema(), value)


def test_the_common_round_takes_the_plain_path():
    body = {"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "25.00"}]}
    assert plain_round(body) is not None
    assert loaded(RoundRequestSchema(), body) == plain_round(body)


@given(
    st.sampled_from(["player", "banker", "tie"]),
    st.integers(1, 20000),
    st.text("ab1-", min_size=1, max_size=9),
)
def test_valid_bets_take_the_plain_path(kind, cents, bet_id):
    value = {"id": bet_id, "type": kind, "amount": str(Decimal(cents).scaleb(-2))}
    assert plain_bet(value) == BetSchema().load(value)
    assert plain_slip({"id": "s", "bets": [value]}) is not None


@pytest.mark.parametrize(
    ("schema", "body", "pointer"),
    [
        (RoundRequestSchema, {"bets": [{}] * 200_000}, "bets"),
        (RoundRequestSchema, {"cards": [1] * 200_000}, "cards"),
        (SettlementRequestSchema, {"cards": ["9S"], "slips": [1] * 200_000}, "slips"),
        (RoadsRequestSchema, {"results": [{}] * 200_000}, "results"),
    ],
)
def test_an_overlong_list_is_refused_before_its_items(schema, body, pointer):
    with pytest.raises(ValidationError) as refused:
        schema().load(body)
    # One error for the list: no item was looked at.
    assert refused.value.messages == {pointer: [refused.value.messages[pointer][0]]}
    assert "ength" in refused.value.messages[pointer][0]


def test_validation_stops_after_so_many_bad_items():
    with pytest.raises(ValidationError) as refused:
        RoundRequestSchema().load({"cards": [1] * 400})
    errors = refused.value.messages["cards"]
    assert len([key for key in errors if isinstance(key, int)]) == MAX_INVALID_ITEMS
    assert "were not checked" in errors["_schema"][0]


def test_a_settlement_holds_at_most_so_many_bets_in_all():
    slip = {"id": "s", "bets": [{"type": "player", "amount": "1"}] * 50}
    with pytest.raises(ValidationError) as refused:
        SettlementRequestSchema().load({"cards": ["9S"], "slips": [slip] * 601})
    assert "at most 30,000" in str(refused.value.messages["slips"])


def test_an_object_of_very_many_keys_is_one_error():
    with pytest.raises(ValidationError) as refused:
        RoundRequestSchema().load({f"k{i}": 1 for i in range(100_000)})
    assert list(refused.value.messages) == ["_schema"]
    assert refused.value.messages["_schema"][0].startswith("An object of 100000 keys")
