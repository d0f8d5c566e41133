"""A deployment's tables file: its catalogue, read and checked once, at start.

The file (``BACCARAT_TABLES_FILE``; docs/operations/tables.md) is JSON, and
each table in it is written as a request names a table: a built-in preset
(``table``, ``standard`` by default) and the ``rules`` that change it, the
very object a request's ``rules`` may be. It is read by this service's JSON
rules (a key twice is refused) and checked by the same schema and the same
rules check every operation uses, so a table the file holds plays, settles
and describes itself exactly as those rules sent in a request do. Beside
its rules a table has its description, chips, currency (ISO 4217, which
sets the minor unit), the languages its sheet is written in and its
malfunction clause; and the file may say which operator plays at which
tables, and which table a request that names none takes.

Each table's returns are computed here, once: a table with a bet that
returns more than it costs is refused, as are an unknown key, a bad value
or a currency the rules contradict. Any problem is a :class:`TablesFileError`
whose message is one line naming the table and the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from babel.numbers import get_currency_precision, list_currencies
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ..baccarat.peek.round import PEEK
from ..baccarat.rulebook.errors import BaccaratError
from ..baccarat.sheets.returns import Returns, bet_returns
from ..baccarat.sheets.sheet import check_chips
from ..baccarat.sheets.words import Malfunction
from ..baccarat.tables.catalogue import Catalogue
from ..baccarat.tables.rules import DEFAULT_TABLE, TABLES, Table, resolve_rules
from .jsonio import InvalidJSON, loads
from .language import TAGS
from .problems import pointer
from .schemas.fields import Amount, BoundedDict, BoundedList
from .schemas.rules import RoundRulesOverrideSchema
from .schemas.sheets import MAX_CHIPS
from .schemas.values import value_of

#: A table's or an operator's name: what a request and a metric label carry.
NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
#: The most tables (and operators) a file may hold: the metrics' table label
#: is bounded by the catalogue.
MAX_TABLES = 200
#: A tables file is configuration, not data: anything longer is not one.
MAX_FILE_BYTES = 1024 * 1024
#: Every ISO 4217 code Babel knows (CLDR's), read once.
CURRENCIES = frozenset(list_currencies())


class TablesFileError(ValueError):
    """The tables file cannot be served; the message is one line."""


def _name(kind: str) -> fields.String:
    return fields.String(
        validate=validate.Regexp(NAME, error=f"a {kind} name is 1 to 40 lower-case letters, digits and _"),
    )


class TableEntrySchema(Schema):
    """One table of the file. (Not a request schema: these messages go to
    an operator's log in English, not to a caller in its language.)"""

    table = value_of("TablePreset", load_default=DEFAULT_TABLE)
    description = fields.String(required=True, validate=validate.Length(1, 500))
    rules = fields.Nested(RoundRulesOverrideSchema, load_default=dict)
    chips = BoundedList(Amount(), validate=validate.Length(1, MAX_CHIPS))
    currency = fields.String(
        validate=validate.OneOf(sorted(CURRENCIES), error="{input!r} is not an ISO 4217 currency code")
    )
    languages = BoundedList(fields.String(validate=validate.OneOf(list(TAGS))), validate=validate.Length(1))
    malfunction = value_of("Malfunction")

    @validates_schema
    def minor_unit_of_the_currency(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A currency sets the minor unit; rules that say another are refused."""
        unit = data.get("rules", {}).get("minor_unit")
        if "currency" in data and unit is not None and unit != get_currency_precision(data["currency"]):
            places = get_currency_precision(data["currency"])
            message = f"{data['currency']} has {places} decimal places, not {unit}: the currency sets it"
            raise ValidationError({"rules": {"minor_unit": [message]}})

    @validates_schema
    def chips_ascending(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Each denomination once, smallest first, as a rules sheet's request takes them."""
        chips = data.get("chips", [])
        for index in range(1, len(chips)):
            if chips[index] <= chips[index - 1]:
                message = f"the chips are listed once each, smallest first: not more than {chips[index - 1]}"
                raise ValidationError({"chips": {index: [message]}})


class OperatorSchema(Schema):
    tables = BoundedList(_name("table"), validate=validate.Length(1, MAX_TABLES), required=True)


class TablesFileSchema(Schema):
    tables = BoundedDict(
        max_keys=MAX_TABLES,
        keys=_name("table"),
        values=fields.Nested(TableEntrySchema),
        required=True,
        validate=validate.Length(min=1),
    )
    default = _name("table")
    operators = BoundedDict(max_keys=MAX_TABLES, keys=_name("operator"), values=fields.Nested(OperatorSchema))


@dataclass(frozen=True, slots=True)
class LoadedCatalogue:
    """The catalogue a file holds, and each table's exact returns (for the start's log)."""

    catalogue: Catalogue
    returns: Mapping[str, Returns]


def read_tables_file(path: str) -> LoadedCatalogue:
    """The catalogue of the tables file at ``path``, checked whole."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise TablesFileError(f"cannot read it ({error.strerror})") from None
    if len(data) > MAX_FILE_BYTES:
        raise TablesFileError(f"longer than {MAX_FILE_BYTES} bytes: not a tables file")
    try:
        document = loads(data)
    except InvalidJSON as error:
        raise TablesFileError(str(error.reason)) from None
    return catalogue_of(document)


def catalogue_of(document: Any) -> LoadedCatalogue:
    """The catalogue ``document`` (a tables file's JSON) describes, checked
    whole: the first problem found, as one line naming where it is."""
    try:
        loaded = TablesFileSchema().load(document)
    except ValidationError as error:
        path, message = _first(error.messages, ())
        raise TablesFileError(f"{_where(path)}: {message}") from None
    tables: dict[str, Table] = {}
    returns: dict[str, Returns] = {}
    for name, entry in loaded["tables"].items():
        tables[name] = table = _table(name, entry)
        returns[name] = bet_returns(table.rules, PEEK if table.peek else None)
        over = [f"{bet} ({figures.rtp}%)" for bet, figures in returns[name].bets.items() if figures.over_cost]
        if over:
            raise TablesFileError(
                f"{_where(('tables', name))}: returns more than it costs on {', '.join(over)}: "
                "a table the house loses at is not served"
            )
    operators = {name: tuple(operator["tables"]) for name, operator in loaded.get("operators", {}).items()}
    for operator, names in operators.items():
        for index, name in enumerate(names):
            if name not in tables:
                raise TablesFileError(
                    f"{_where(('operators', operator, 'tables', index))}: {name!r} is not a table of the file"
                )
    default = loaded.get("default", next(iter(tables)))
    if default not in tables:
        raise TablesFileError(f"/default: {default!r} is not a table of the file")
    return LoadedCatalogue(Catalogue(tables=tables, default=default, operators=operators), returns)


def _table(name: str, entry: dict[str, Any]) -> Table:
    """The table ``entry`` describes: its preset's, with its rules checked as a request's are."""
    preset = TABLES[entry["table"]]
    overrides = dict(entry["rules"])
    if "currency" in entry:
        overrides["minor_unit"] = get_currency_precision(entry["currency"])
    try:
        rules = resolve_rules(entry["table"], overrides)
    except BaccaratError as error:
        problem = error.problems[0] if error.problems else None
        path = problem.path if problem else ()
        if path == ("rules", "minor_unit") and "minor_unit" not in entry["rules"]:
            path = ("currency",)  # the currency set it
        where = ("tables", name, *path)
        detail = problem.detail if problem else error.detail
        raise TablesFileError(f"{_where(where)}: {detail}") from None
    chips = tuple(entry.get("chips", preset.chips))
    try:
        check_chips(chips, rules.minor_unit)
    except BaccaratError as error:
        raise TablesFileError(f"{_where(('tables', name, 'chips'))}: {error.detail}") from None
    return replace(
        preset,
        name=name,
        description=entry["description"],
        rules=rules,
        chips=tuple(Decimal(chip) for chip in chips),
        currency=entry.get("currency"),
        languages=tuple(entry.get("languages", ())),
        malfunction=str(Malfunction(entry["malfunction"])) if "malfunction" in entry else None,
    )


def _first(messages: Any, path: tuple[Any, ...]) -> tuple[tuple[Any, ...], str]:
    """The first of marshmallow's nested messages, with where it is."""
    if isinstance(messages, Mapping):
        key, value = next(iter(messages.items()))
        # A map's errors are under "key" (its key's) and "value" (its value's).
        return _first(value, path if key in ("_schema", "key", "value") else (*path, key))
    if isinstance(messages, list | tuple):
        return _first(messages[0], path)
    return path, str(messages)


def _where(path: tuple[Any, ...]) -> str:
    return pointer(path) or "/"
