"""The fields of the contract, and each plain item reader against the field it stands for.

``BoundedList(..., plain=...)`` tries a plain reader on each item before its
field; so a plain reader must accept exactly what the field loads, to the
same value, and its None must send the item to the field. Here each is held
to marshmallow's field itself (never through a list that would try the
plain reader again), on generated items, both accepting and refusing.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError, fields

from service.baccarat.rulebook.cards import RANKS, SUITS
from service.contract.jsonio import Exponent
from service.contract.schemas.fields import (
    MAX_INVALID_ITEMS,
    Amount,
    BoundedList,
    CardCode,
    Flag,
    is_utf8,
    plain_card,
)
from service.contract.schemas.live import DealtCardField, plain_dealt_card

#: Card codes as a scanner or a person writes them, and near misses.
rank = st.sampled_from([*RANKS, *(r.lower() for r in RANKS), "10", "1", "0", "X", ""])
suit = st.sampled_from([*SUITS, *(s.lower() for s in SUITS), "X", "", "SS"])
code = st.builds(str.__add__, rank, suit)
junk = st.none() | st.booleans() | st.integers(-3, 300) | st.floats(allow_nan=False) | st.text(max_size=6)
item = code | junk | st.just([]) | st.just({}) | st.builds(lambda c: c * 3, code)
tagged = st.fixed_dictionaries(
    {"card": code | junk, "hand": st.sampled_from(["player", "banker", "dealer"]) | junk}
)


def field_loads(field: fields.Field, value):
    """What marshmallow's ``field`` loads from ``value``, or None when it refuses."""
    try:
        return field.deserialize(value)
    except ValidationError:
        return None


@settings(max_examples=600)
@given(item)
def test_plain_card_accepts_exactly_what_card_code_loads(value):
    assert plain_card(value) == field_loads(CardCode(), value)


@settings(max_examples=600)
@given(item | tagged)
def test_plain_dealt_card_is_what_the_dealt_card_field_loads(value):
    plain = plain_dealt_card(value)
    loaded = field_loads(DealtCardField(), value)
    if plain is not None:
        assert plain == loaded
    elif not isinstance(value, dict):
        # A tagged card is the field's alone; anything else the plain reader
        # leaves, the field refuses too.
        assert loaded is None


def test_the_common_card_codes_take_the_plain_path():
    for value in ("9S", "kh", "10d", "TS", "As"):
        assert plain_card(value) is not None
        assert plain_dealt_card(value) == (plain_card(value), None)
    assert plain_dealt_card({"card": "9S", "hand": "player"}) is None


@pytest.mark.parametrize(
    ("value", "amount"),
    [("25.00", Decimal("25.00")), ("5", Decimal("5")), (7, Decimal("7")), (Decimal("1.10"), Decimal("1.10"))],
)
def test_an_amount_is_exact(value, amount):
    loaded = Amount().deserialize(value)
    assert loaded == amount
    assert str(loaded) == str(amount)


@pytest.mark.parametrize(
    "value", ["0", "-1", "1e3", "NaN", "Infinity", " 5", True, 0.1, Exponent("2.5E+1"), None]
)
def test_an_amount_is_never_rounded_or_guessed(value):
    with pytest.raises(ValidationError):
        Amount().deserialize(value)


@pytest.mark.parametrize("value", [1, 0, "true", "yes", None])
def test_a_flag_is_a_json_boolean_only(value):
    with pytest.raises(ValidationError):
        Flag().deserialize(value)


def test_a_bounded_list_stops_after_so_many_bad_items():
    with pytest.raises(ValidationError) as refused:
        BoundedList(CardCode()).deserialize(["XX"] * (MAX_INVALID_ITEMS + 10))
    messages = refused.value.messages
    assert len([key for key in messages if key != "_schema"]) == MAX_INVALID_ITEMS
    assert "_schema" in messages


def test_a_bounded_list_tries_its_plain_reader_first():
    seen = []
    field = BoundedList(CardCode(), plain=lambda value: seen.append(value) or None)
    assert [card.code for card in field.deserialize(["9s", "kh"])] == ["9S", "KH"]
    assert seen == ["9s", "kh"]


@given(
    st.text(alphabet=st.characters() | st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"]), max_size=8)
)
def test_is_utf8_is_whether_utf8_encodes_the_text(text):
    try:
        text.encode()
        encodes = True
    except UnicodeEncodeError:
        encodes = False
    assert is_utf8(text) is encodes

    assert [is_utf8(text) for text in ("seat-3", "座位", "a\ud800", "座\udfff")] == [True, True, False, False]
