"""Money: rounding to the minor unit by the table's rule, formatting, and
counting the digits an amount was written with.

How settlement uses these (commission rounding, stakes refused for too
many decimals) is tested in test_settlement.py.
"""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.bets.money import (
    ZERO,
    Rounding,
    decimal_places,
    format_amount,
    rounder,
    to_minor_unit,
)

amounts = st.decimals(min_value=-10_000, max_value=10_000, places=6, allow_nan=False, allow_infinity=False)
minor_units = st.integers(0, 4)
roundings = st.sampled_from(list(Rounding))


def test_the_rounding_rules_are_named_as_the_rules_document_writes_them():
    assert [str(rule) for rule in Rounding] == ["down", "half_up", "half_even", "up"]
    assert ZERO == 0


@pytest.mark.parametrize(
    ("amount", "minor_unit", "rounding", "rounded"),
    [
        # A 5% commission on 1.10 leaves a win of 1.045.
        ("1.045", 2, Rounding.DOWN, "1.04"),
        ("1.045", 2, Rounding.HALF_UP, "1.05"),
        ("1.045", 2, Rounding.HALF_EVEN, "1.04"),
        ("1.045", 2, Rounding.UP, "1.05"),
        ("1.055", 2, Rounding.HALF_EVEN, "1.06"),
        ("1.041", 2, Rounding.UP, "1.05"),  # up means any fraction goes to the player
        ("1.049", 2, Rounding.DOWN, "1.04"),  # down means any fraction stays with the house
        ("0.5", 0, Rounding.HALF_EVEN, "0"),
        ("0.5", 0, Rounding.HALF_UP, "1"),
        ("12.5", 0, Rounding.DOWN, "12"),
        ("-1.045", 2, Rounding.DOWN, "-1.04"),  # towards zero, not towards minus infinity
        ("-1.045", 2, Rounding.UP, "-1.05"),
        ("3", 2, Rounding.DOWN, "3.00"),
        ("0.12345", 4, Rounding.HALF_UP, "0.1235"),
    ],
)
def test_amounts_round_to_the_minor_unit_by_the_tables_rule(amount, minor_unit, rounding, rounded):
    assert str(to_minor_unit(Decimal(amount), minor_unit, rounding)) == rounded


@given(amounts, minor_units, roundings)
def test_a_rounder_rounds_exactly_as_to_minor_unit(amount, minor_unit, rounding):
    assert str(rounder(minor_unit, rounding)(amount)) == str(to_minor_unit(amount, minor_unit, rounding))


@given(amounts, minor_units, roundings)
def test_a_rounded_amount_has_the_minor_units_digits_and_is_within_one_unit(amount, minor_unit, rounding):
    rounded = to_minor_unit(amount, minor_unit, rounding)
    assert decimal_places(rounded) == minor_unit
    assert abs(rounded - amount) < Decimal(1).scaleb(-minor_unit)


@given(amounts, minor_units)
def test_down_never_pays_more_and_up_never_pays_less(amount, minor_unit):
    assert abs(to_minor_unit(amount, minor_unit, Rounding.DOWN)) <= abs(amount)
    assert abs(to_minor_unit(amount, minor_unit, Rounding.UP)) >= abs(amount)


@given(st.integers(-1_000_000, 1_000_000), minor_units, roundings)
def test_an_amount_already_in_minor_units_is_never_changed(units, minor_unit, rounding):
    amount = Decimal(units).scaleb(-minor_unit)
    assert to_minor_unit(amount, minor_unit, rounding) == amount


@pytest.mark.parametrize(
    ("amount", "minor_unit", "text"),
    [("25", 2, "25.00"), ("1.5", 2, "1.50"), ("200.00", 2, "200.00"), ("7", 0, "7"), ("0.1", 4, "0.1000")],
)
def test_an_amount_is_written_with_exactly_the_minor_units_decimals(amount, minor_unit, text):
    assert format_amount(Decimal(amount), minor_unit) == text


@pytest.mark.parametrize(
    ("written", "places"),
    [("25", 0), ("25.00", 2), ("0.5", 1), ("0.50", 2), ("10.500", 3), ("1E+2", 0), ("0.001", 3)],
)
def test_decimal_places_counts_the_digits_as_written(written, places):
    # 0.5 and 0.50 are equal amounts but not equally written: stakes are checked as written.
    assert decimal_places(Decimal(written)) == places
