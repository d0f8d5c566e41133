"""Fields for the game's own values (card codes, money, text) and for
lists and maps whose size is checked before their contents.

marshmallow validates every item of a list before a ``Length`` validator
on the list runs, and reports every error: a 4 MiB list of bad items would
hold a worker and fill its memory with messages (docs/performance.md,
"Slow and hostile clients"). :class:`BoundedList` and
:class:`BoundedDict` check the size first and stop after
:data:`MAX_INVALID_ITEMS` bad items.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, ClassVar

from marshmallow import ValidationError, fields, validate

from ...baccarat.rulebook.cards import Card, parse_card
from ..jsonio import Exponent
from .messages import FieldCode, Message

#: Bad items of one list (or entries of one map) validated before the rest
#: are left unchecked: enough to show a caller the pattern of their mistake.
MAX_INVALID_ITEMS = 50

AMOUNT_PATTERN = r"^(0|[1-9][0-9]{0,11})(\.[0-9]{1,8})?$"
_AMOUNT = re.compile(AMOUNT_PATTERN)
_RATE = re.compile(r"0(\.[0-9]{1,4})?")


class _Documented(fields.Field[Any]):
    """A field whose OpenAPI description (``doc``) is given once, by its class."""

    doc: ClassVar[dict[str, Any]] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(metadata={**self.doc, **kwargs.pop("metadata", {})}, **kwargs)


class Text(fields.String):
    """A string that UTF-8 can encode: JSON can carry a lone surrogate
    (``"\\ud800"``), but no answer, log line or hash could."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not is_utf8(text):
            raise ValidationError(Message.of(FieldCode.LONE_SURROGATE))
        return text


def is_utf8(text: str) -> bool:
    """Whether UTF-8 can encode ``text`` (no lone surrogates)."""
    if text.isascii():  # a flag CPython keeps on every string: no encoding needed
        return True
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


class CardCode(_Documented):
    """A card code in, a :class:`Card` inside, the canonical code out."""

    doc: ClassVar[dict[str, Any]] = {
        "type": "string",
        "pattern": "^(10|[2-9TJQKAtjqka])[SHDCshdc]$",
        "example": "KH",
        "description": "Rank A, 2-9, T (or 10), J, Q, K then suit S, H, D, C; "
        "case-insensitive in, upper case with T for ten out",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Card:
        if not isinstance(value, str):
            raise ValidationError(Message.of(FieldCode.CARD_NOT_A_STRING))
        read = value[:8]  # no card code is longer: the message quotes what was read
        try:
            return parse_card(read)
        except ValueError:
            raise ValidationError(Message.of(FieldCode.NOT_A_CARD, card=read)) from None

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> str | None:
        return None if value is None else value.code


def plain_card(value: Any) -> Card | None:
    """The card ``value`` names, as :class:`CardCode` loads it; None when it
    names none (then :class:`CardCode` explains)."""
    if type(value) is not str:
        return None
    try:
        return parse_card(value)
    except ValueError:
        return None


def parse_amount(text: str) -> Decimal | Message:
    """The exact amount ``text`` writes, or why it is not one.

    >>> parse_amount("25.00"), parse_amount("0")
    (Decimal('25.00'), 'An amount must be greater than zero.')
    """
    if not _AMOUNT.match(text):
        shown = text if len(text) <= 24 else text[:24] + "…"
        return Message.of(FieldCode.NOT_A_PLAIN_AMOUNT, amount=shown)
    amount = Decimal(text)
    if amount <= 0:
        return Message.of(FieldCode.AMOUNT_NOT_POSITIVE)
    return amount


class Amount(_Documented):
    """An exact positive amount: a decimal string (or a plain JSON number,
    read as a decimal, never a float). Exponents, NaN, Infinity, negative
    and zero amounts are refused, never rounded; the table's minor unit is
    checked by the engine, which knows the rules in force."""

    doc: ClassVar[dict[str, Any]] = {
        "type": "string",
        "pattern": AMOUNT_PATTERN,
        "example": "25.00",
        "description": "Decimal string, at most the table's minor-unit digits "
        "after the point (2 by default); positive",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Decimal:
        if isinstance(value, Exponent):
            raise ValidationError(Message.of(FieldCode.AMOUNT_WITH_EXPONENT))
        if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
            raise ValidationError(Message.of(FieldCode.AMOUNT_NOT_A_STRING))
        amount = parse_amount(value if isinstance(value, str) else str(value))
        if isinstance(amount, str):
            raise ValidationError(amount)
        return amount


class Rate(_Documented):
    """A commission rate between 0 and 0.25 as a decimal string, e.g. ``"0.05"``."""

    doc: ClassVar[dict[str, Any]] = {"type": "string", "pattern": r"^0(\.[0-9]{1,4})?$", "example": "0.05"}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Decimal:
        plain = isinstance(value, str) or (isinstance(value, Decimal) and not isinstance(value, Exponent))
        text = str(value) if plain else ""
        if not _RATE.fullmatch(text) or Decimal(text) > Decimal("0.25"):
            raise ValidationError(Message.of(FieldCode.NOT_A_COMMISSION))
        return Decimal(text)


class Flag(fields.Boolean):
    """A JSON ``true`` or ``false``, nothing else (no ``1``, ``"yes"`` or ``"true"``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise ValidationError(Message.of(FieldCode.NOT_TRUE_OR_FALSE))
        return value


def _check_sizes(field: fields.Field[Any], value: Any) -> None:
    """Run the field's ``Length`` validators on ``value`` now, before its items."""
    for validator in field.validators:
        if isinstance(validator, validate.Length):
            validator(value)


class BoundedList(fields.List):  # type: ignore[type-arg]
    """A list whose ``Length`` is checked before its items are, and whose
    items stop being validated after :data:`MAX_INVALID_ITEMS` bad ones.

    ``plain``, when given, is tried on each item first: it returns exactly
    what the inner field loads for an item that is plainly valid, and None
    for anything else, which the inner field then loads (and explains).
    ``reader``, instead, makes such a function for each list it reads, so
    that what the function keeps of one list's items dies with that list."""

    def __init__(
        self,
        inner: fields.Field[Any],
        *,
        plain: Callable[[Any], Any] | None = None,
        reader: Callable[[], Callable[[Any], Any]] | None = None,
        **kwargs: Any,
    ):
        super().__init__(inner, **kwargs)
        self.plain = plain
        self.reader = reader

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> list[Any]:
        if not isinstance(value, list):
            raise self.make_error("invalid")
        _check_sizes(self, value)
        plain = self.plain if self.reader is None else self.reader()
        result: list[Any] = []
        errors: dict[int | str, Any] = {}
        for index, item in enumerate(value):
            loaded = None if plain is None else plain(item)
            if loaded is not None:
                result.append(loaded)
                continue
            try:
                result.append(self.inner.deserialize(item, **kwargs))
            except ValidationError as error:
                errors[index] = error.messages
                if len(errors) == MAX_INVALID_ITEMS and index + 1 < len(value):
                    # First, so that a problem's 50 entries list it before the items' own.
                    errors = {"_schema": [Message.of(FieldCode.ITEMS_NOT_CHECKED, index=index)], **errors}
                    break
        if errors:
            raise ValidationError(errors)
        return result


class BoundedDict(fields.Dict):
    """A map with at most ``max_keys`` entries, checked before any of them."""

    def __init__(self, *, max_keys: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.max_keys = max_keys

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, Mapping) and len(value) > self.max_keys:
            raise ValidationError(Message.of(FieldCode.TOO_MANY_ENTRIES, most=self.max_keys))
        return super()._deserialize(value, attr, data, **kwargs)  # type: ignore[no-untyped-call]
