"""The table a stored answer was dealt at, by the rules the answer recorded.

A signed answer names its table and records its resolved rules (with their
id). A replay plays the stored request by those rules, whatever the
deployment's catalogue holds under that name now: a table changed or
removed since is said (:class:`TableNow`), not a failed replay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from enum import StrEnum
from typing import Any

from marshmallow import ValidationError

from ..baccarat.rulebook.errors import BaccaratError
from ..baccarat.tables.catalogue import Catalogue
from ..baccarat.tables.rules import PEEK_FEE_BETS, PEEK_FIXED, TABLES, Rules, Table, resolve_rules
from .schemas.rules import RoundRulesOverrideSchema
from .scope import OPEN, Scope, within

#: The resolved rules' keys that are not settings a request may send.
NOT_SETTINGS = ("id",)


class TableNow(StrEnum):
    """What the catalogue holds now under a stored answer's table."""

    SAME_RULES = "same_rules"
    OTHER_RULES = "other_rules"
    NOT_IN_CATALOGUE = "not_in_catalogue"


def recorded_rules(recorded: Any, peek: bool) -> Rules | None:
    """The rules an answer recorded (its ``rules``), rebuilt and checked as
    every table's are, if they rebuild to the id it recorded; else None."""
    if not isinstance(recorded, Mapping) or not isinstance(recorded.get("id"), str):
        return None
    settings = {key: value for key, value in recorded.items() if key not in NOT_SETTINGS}
    if peek:
        # Peek Baccarat's table pays Player and Banker as the standard table does: the
        # rules say so, and its one check refuses them as settings (the id holds them).
        settings = {key: value for key, value in settings.items() if key not in PEEK_FIXED}
        tables = settings.get("pay_tables", {})
        settings["pay_tables"] = {bet: id for bet, id in tables.items() if bet not in map(str, PEEK_FEE_BETS)}
    rule = settings.get("multipliers")
    if isinstance(rule, Mapping):
        settings["multipliers"] = {k: v for k, v in rule.items() if k != "id" and v is not None}
    blank = Table(name="recorded", description="", rules=Rules(limits={}), peek=peek)
    try:
        # Read as settings, not as a caller's request: approved tables only refuses a request's.
        with within(OPEN):
            overrides = RoundRulesOverrideSchema().load(settings)
        rules = resolve_rules("recorded", overrides, tables={"recorded": blank})
    except (ValidationError, BaccaratError):
        return None
    return rules if rules.id == recorded["id"] else None


def replay_scope(current: Scope, stored: Any) -> tuple[Scope, str, TableNow] | None:
    """The scope a stored answer's request is replayed in: the replaying
    caller's, with the table the answer names holding the rules it recorded;
    the table's name, and what the catalogue holds under it now. None when
    the answer names no table or its rules do not rebuild (it is replayed as
    the catalogue stands)."""
    if not isinstance(stored, Mapping) or not isinstance(stored.get("table"), str):
        return None
    name = stored["table"]
    now = current.tables.get(name)
    peek = now.peek if now is not None else (name in TABLES and TABLES[name].peek)
    rules = recorded_rules(stored.get("rules"), peek)
    if rules is None:
        return None
    if now is None:
        said = TableNow.NOT_IN_CATALOGUE
        table = Table(name=name, description="", rules=rules, peek=peek)
    else:
        said = TableNow.SAME_RULES if now.rules.id == rules.id else TableNow.OTHER_RULES
        table = replace(now, rules=rules)
    tables = Catalogue(tables={**current.tables, name: table}, default=current.tables.default)
    return replace(current, tables=tables), name, said
