"""Bets and slips in requests: the plain checks give exactly what their schemas load."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError

from service.contract.jsonio import Exponent
from service.contract.schemas.slips import BetSchema, SlipSchema, plain_bet, plain_slip, slip_reader

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


@settings(max_examples=200)
@given(st.lists(slip, max_size=6))
def test_one_reader_reads_each_of_a_request_s_slips_as_the_schema_does(values):
    # The reader keeps the bets it has read: a slip read after others that
    # sent the same bets, valid or not, still loads as the schema loads it.
    read = slip_reader()
    for value in values:
        slip = read(value)
        assert slip == plain_slip(value)
        if slip is not None:
            assert slip == loaded(SlipSchema(), value)


@given(
    st.sampled_from(["player", "banker", "tie"]),
    st.integers(1, 20000),
    st.text("ab1-", min_size=1, max_size=9),
)
def test_valid_bets_take_the_plain_path(kind, cents, bet_id):
    value = {"id": bet_id, "type": kind, "amount": str(Decimal(cents).scaleb(-2))}
    assert plain_bet(value) == BetSchema().load(value)
    assert plain_slip({"id": "s", "bets": [value]}) is not None
