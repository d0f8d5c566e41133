"""POST /v1/rounds' request: the plain path gives exactly what the schema
loads, and size limits are checked before contents."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from service.contract.schemas.fields import MAX_INVALID_ITEMS
from service.contract.schemas.roads import RoadsRequestSchema
from service.contract.schemas.rounds import RoundRequestSchema, plain_round
from service.contract.schemas.settlements import SettlementRequestSchema
from tests.contract.schemas.test_slips import bet, junk, loaded

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


def test_an_object_of_very_many_keys_is_one_error():
    with pytest.raises(ValidationError) as refused:
        RoundRequestSchema().load({f"k{i}": 1 for i in range(100_000)})
    assert list(refused.value.messages) == ["_schema"]
    assert refused.value.messages["_schema"][0].startswith("An object of 100000 keys")
