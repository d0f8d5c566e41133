"""JSON in and out, as the service reads and writes it (no Flask here: the
command line reads its input the same way).

Reading closes the traps of Python's parser: numbers become exact
``Decimal`` values (never floats), NaN and Infinity are refused, a key given
twice in one object is refused rather than silently overwritten, and
nesting too deep for the parser is refused rather than raising
``RecursionError``. A number written with an exponent is kept as an
:class:`Exponent`, so that an amount can refuse it (``2.5E+1`` and ``25``
are equal decimals, but only one is a plain amount).

Writing uses orjson: compact UTF-8 JSON; a ``Decimal`` is written as its
string, as Flask's own encoder does.

Why a body is refused is a :class:`~..baccarat.errors.Sentence`, which the
service writes in the caller's language: the parser's own words
(:data:`PARSER_MESSAGES`) are in the ``problems`` catalogue too.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import orjson

from ..baccarat.rulebook.errors import N_, Sentence

JSON = "application/json"
#: What Python's JSON parser says of a body it cannot read (``JSONDecodeError.msg``).
PARSER_MESSAGES = (
    N_("Expecting value"),
    N_("Expecting property name enclosed in double quotes"),
    N_("Expecting ':' delimiter"),
    N_("Expecting ',' delimiter"),
    N_("Extra data"),
    N_("Unterminated string starting at"),
    N_("Invalid control character at"),
    N_("Invalid \\escape"),
    N_("Invalid \\uXXXX escape"),
)


class InvalidJSON(ValueError):
    """A body that is not JSON the service reads; ``reason`` says why."""

    def __init__(self, reason: Sentence) -> None:
        super().__init__(reason)
        self.reason = reason


class Exponent(Decimal):
    """A JSON number written with an exponent, such as ``1E+3``."""

    __slots__ = ()


def _number(text: str) -> Decimal:
    return Exponent(text) if "e" in text or "E" in text else Decimal(text)


def _no_constants(name: str) -> Any:
    raise ValueError(Sentence.of(N_("{name} is not a number: JSON has no NaN or Infinity"), name=name))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise ValueError(Sentence.of(N_("the key {key} appears twice in one object"), key=repr(twice[:64])))
    return obj


def _integer(text: str) -> int:
    """A JSON integer, or, past the digits Python reads (4,300), a reason in
    the service's own words rather than the interpreter's hint."""
    try:
        return int(text)
    except ValueError:
        raise ValueError(
            Sentence.of(N_("a number of {digits} digits is too long to read"), digits=len(text.lstrip("-")))
        ) from None


def _why(error: ValueError) -> Sentence:
    """What the parser, or this module's hooks, said of a body."""
    if isinstance(error, json.JSONDecodeError):
        return Sentence.of(
            N_("{problem}: line {line} column {column} (char {char})"),
            problem=Sentence.of(error.msg),
            line=error.lineno,
            column=error.colno,
            char=error.pos,
        )
    reason = error.args[0] if error.args else None
    return reason if isinstance(reason, Sentence) else Sentence.of("{reason}", reason=str(error))


def loads(data: bytes | str) -> Any:
    """Parse a request body (UTF-8 bytes, as RFC 8259 requires of JSON
    exchanged between systems, or text). Raises :class:`InvalidJSON` with the
    reason: a UTF-16 or UTF-32 body too, which Python's own reader would take.

    >>> loads(b'{"amount": 2.50, "n": 1}')
    {'amount': Decimal('2.50'), 'n': 1}
    >>> loads('{"a": 1, "a": 2}')
    Traceback (most recent call last):
    ...
    service.contract.jsonio.InvalidJSON: The body is not valid JSON: the key 'a' appears twice in one object
    """
    try:
        # UTF-8, a byte order mark ignored (RFC 8259 allows it); json.loads
        # would detect UTF-16 and UTF-32 too.
        text = data.decode("utf-8-sig") if isinstance(data, bytes | bytearray) else data
        return json.loads(
            text,
            parse_float=_number,
            parse_int=_integer,
            parse_constant=_no_constants,
            object_pairs_hook=_unique_keys,
        )
    except RecursionError:
        raise InvalidJSON(
            Sentence.of(N_("The JSON body is nested too deeply to be a baccarat request"))
        ) from None
    except UnicodeDecodeError:
        raise InvalidJSON(Sentence.of(N_("The body is not UTF-8 encoded JSON"))) from None
    except ValueError as exc:  # json.JSONDecodeError included
        raise InvalidJSON(Sentence.of(N_("The body is not valid JSON: {reason}"), reason=_why(exc))) from None


def _fallback(value: Any) -> str:
    if isinstance(value, Decimal):
        return str(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def dumps(data: Any) -> bytes:
    """``data`` as compact JSON bytes."""
    return orjson.dumps(data, default=_fallback, option=orjson.OPT_NON_STR_KEYS)
