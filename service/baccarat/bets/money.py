"""Money: ``Decimal`` only, never binary floating point.

Every amount is a whole number of minor units (cents when ``minor_unit`` is
2). Stakes that are not are refused, never rounded. Wins that are not (a 5%
commission on 1.10, a 0.54:1 payout) are rounded to the minor unit by the
table's ``payout_rounding``: by default ``down``, in the house's favour.

Sums and differences of amounts are exact: :func:`total` and
:func:`difference` work them out in :data:`MONEY_DIGITS` significant
digits, not Decimal's default 28, and an amount that would need more
raises rather than round. The bounds of the rules keep every amount far
inside: a stake below 10**12 (12 integer digits), a multiplier win of at
most 10,000 times 1000**6 per unit staked (10**22), 30,000 bets in one
settlement and 104 rounds in one shoe make at most about 10**45, 46
integer digits and 4 decimals (docs/multipliers.md, "Amounts").

>>> to_minor_unit(Decimal("1.045"), 2, Rounding.DOWN)
Decimal('1.04')
>>> format_amount(Decimal("25"), 2)
'25.00'
"""

from __future__ import annotations

import decimal
from collections.abc import Callable, Iterable
from decimal import Decimal
from enum import StrEnum

ZERO = Decimal(0)

#: Significant digits sums of money are worked out in: room for the largest
#: amount the rules allow (the module's docstring), with a margin.
MONEY_DIGITS = 60
#: Exact arithmetic on amounts: a result that would be rounded raises.
_EXACT = decimal.Context(
    prec=MONEY_DIGITS,
    traps=[decimal.Inexact, decimal.InvalidOperation, decimal.Overflow, decimal.DivisionByZero],
)
_add, _subtract = _EXACT.add, _EXACT.subtract


class Rounding(StrEnum):
    """How a payout with more digits than the minor unit is rounded."""

    DOWN = "down"  # towards zero: the house keeps the fraction (default)
    HALF_UP = "half_up"
    HALF_EVEN = "half_even"
    UP = "up"  # away from zero: the player gets the fraction


_DECIMAL_ROUNDING = {
    Rounding.DOWN: decimal.ROUND_DOWN,
    Rounding.HALF_UP: decimal.ROUND_HALF_UP,
    Rounding.HALF_EVEN: decimal.ROUND_HALF_EVEN,
    Rounding.UP: decimal.ROUND_UP,
}
_QUANTA = {digits: Decimal(1).scaleb(-digits) for digits in range(0, 5)}


def to_minor_unit(amount: Decimal, minor_unit: int, rounding: Rounding) -> Decimal:
    """``amount`` rounded to ``minor_unit`` decimal places by ``rounding``."""
    return amount.quantize(_QUANTA[minor_unit], rounding=_DECIMAL_ROUNDING[rounding])


def _rounder(minor_unit: int, rounding: Rounding) -> Callable[[Decimal], Decimal]:
    quantum, mode = _QUANTA[minor_unit], _DECIMAL_ROUNDING[rounding]

    def round_(amount: Decimal) -> Decimal:
        return amount.quantize(quantum, mode)

    return round_


#: Every unit and rounding's rounder, made once.
_ROUNDERS = {(digits, rounding): _rounder(digits, rounding) for digits in _QUANTA for rounding in Rounding}


def rounder(minor_unit: int, rounding: Rounding) -> Callable[[Decimal], Decimal]:
    """:func:`to_minor_unit` with the unit and rounding fixed, for code that
    rounds many amounts the same way."""
    return _ROUNDERS[minor_unit, rounding]


#: Quantizes as Decimal's default context does, in as many digits as the sums.
_WIDE = decimal.Context(prec=MONEY_DIGITS, traps=[decimal.InvalidOperation, decimal.Overflow])


def format_amount(amount: Decimal, minor_unit: int) -> str:
    """An exact amount as a string with exactly ``minor_unit`` decimals."""
    return str(_WIDE.quantize(amount, _QUANTA[minor_unit]))


def total(amounts: Iterable[Decimal], start: Decimal = ZERO) -> Decimal:
    """The exact sum of ``amounts`` (from ``start``), however large.

    >>> total([Decimal("899999999999999999999999999999.99"), Decimal("0.01")])
    Decimal('900000000000000000000000000000.00')
    """
    result = start
    for amount in amounts:
        result = _add(result, amount)
    return result


def difference(amount: Decimal, *less: Decimal) -> Decimal:
    """``amount`` less each of ``less``, exactly, however large.

    >>> difference(Decimal("10000000000000000000000000000000.00"), Decimal("0.01"))
    Decimal('9999999999999999999999999999999.99')
    """
    for other in less:
        amount = _subtract(amount, other)
    return amount


def decimal_places(amount: Decimal) -> int:
    """How many digits ``amount`` has after the point, as written."""
    exponent = amount.as_tuple().exponent
    assert isinstance(exponent, int), "only finite amounts reach the engine"
    return max(0, -exponent)
