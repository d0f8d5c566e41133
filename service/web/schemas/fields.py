"""Fields for the game's own values: card codes and money."""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Any, ClassVar

from marshmallow import ValidationError, fields

from ...baccarat.cards import RANKS, SUITS, Card, parse_card

_AMOUNT = re.compile(r"(0|[1-9][0-9]{0,11})(\.[0-9]{1,8})?")
_RATE = re.compile(r"0(\.[0-9]{1,4})?")


class _Documented(fields.Field[Any]):
    """A field whose OpenAPI description (``doc``) is given once, by its class."""

    doc: ClassVar[dict[str, Any]] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata={**self.doc, **kwargs.pop("metadata", {})}, **kwargs)


def _card_codes() -> dict[str, Card]:
    """Every string :func:`parse_card` accepts, with its card: each spelling
    of each rank and suit, in either case."""
    spellings = {
        r + s
        for rank in (*RANKS, "10")
        for suit in SUITS
        for r in (rank, rank.lower())
        for s in (suit, suit.lower())
    }
    codes = {}
    for code in sorted(spellings):
        with contextlib.suppress(ValueError):
            codes[code] = parse_card(code)
    return codes


class CardCode(_Documented):
    """A card code in, a :class:`Card` inside, the canonical code out."""

    #: For compiled schemas (:mod:`.compiled`): every string this field loads,
    #: with what it loads as; and the attribute a card is dumped as.
    load_table: ClassVar[Mapping[str, Card]] = MappingProxyType(_card_codes())
    dump_attribute: ClassVar[str] = "code"

    doc: ClassVar[dict[str, Any]] = {
        "type": "string",
        "pattern": "^(10|[2-9TJQKAtjqka])[SHDCshdc]$",
        "example": "KH",
        "description": "Rank A, 2-9, T (or 10), J, Q, K then suit S, H, D, C; "
        "case-insensitive in, upper case with T for ten out",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Card:
        if not isinstance(value, str):
            raise ValidationError("A card code is a string such as 'KH' or '10s'.")
        try:
            return parse_card(value)
        except ValueError as exc:
            raise ValidationError(str(exc)) from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else value.code


@functools.lru_cache(maxsize=4096)
def _parse_amount(text: str) -> Decimal | str:
    """The exact amount ``text`` writes, or why it is not one. Cached: the
    slips of a table repeat the same few amounts."""
    if not _AMOUNT.fullmatch(text):
        return (
            f"{text!r} is not a plain decimal amount: digits, an optional point and "
            "decimals; no sign, exponent, NaN or Infinity."
        )
    amount = Decimal(text)
    if amount <= 0:
        return "An amount must be greater than zero."
    return amount


class _AmountTable(dict[str, Decimal]):
    """``table[text]``: the amount ``text`` writes, or KeyError when it writes
    none. Amounts read are kept (a few thousand at most): a plain dict lookup
    is cheaper than calling the cached parser."""

    def __missing__(self, text: str) -> Decimal:
        amount = _parse_amount(text)
        if isinstance(amount, str):
            raise KeyError(text)
        if len(self) >= 4096:
            self.clear()
        self[text] = amount
        return amount


class Amount(_Documented):
    """An exact positive amount: a decimal string (or a JSON number, read as
    a decimal, never a float). Exponents, NaN, Infinity, negative and zero
    amounts are refused, never rounded; the table's minor unit is checked by
    the engine, which knows the rules in force."""

    doc: ClassVar[dict[str, Any]] = {
        "type": "string",
        "pattern": r"^(0|[1-9][0-9]{0,11})(\.[0-9]{1,8})?$",
        "example": "25.00",
        "description": "Decimal string, at most the table's minor-unit digits "
        "after the point (2 by default); positive",
    }
    #: For compiled schemas (:mod:`.compiled`): string amounts and what they load as.
    load_table: ClassVar[Mapping[str, Decimal]] = _AmountTable()

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Decimal:
        if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
            raise ValidationError("An amount is a decimal string such as '25.00'.")
        amount = _parse_amount(value if type(value) is str else str(value))
        if isinstance(amount, str):
            raise ValidationError(amount)
        return amount

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else str(value)


class Rate(_Documented):
    """A commission rate between 0 and 0.25 as a decimal string, e.g. ``"0.05"``."""

    doc: ClassVar[dict[str, Any]] = {"type": "string", "pattern": r"^0(\.[0-9]{1,4})?$", "example": "0.05"}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Decimal:
        text = str(value) if isinstance(value, str | Decimal) else ""
        if not _RATE.fullmatch(text) or Decimal(text) > Decimal("0.25"):
            raise ValidationError("A commission is a decimal string from '0' to '0.25', e.g. '0.05'.")
        return Decimal(text)
