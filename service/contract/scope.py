"""Whose request this is: the tables its caller may name, whether it may
send rules of its own, and the table it named.

The API sets a request's scope before its body is read
(service/api/access.py) and clears it when the answer is written; the
request schemas read it to check a ``table`` and refuse ``rules`` at a
deployment of approved tables, and the answers read it to name the
operator and the table in their signed body. A context variable, as
marshmallow's own context is: each request (each thread) has its own.
Outside a request (the command line, a test) the scope is the built-in
presets, open, with no operator.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass

from ..baccarat.tables.catalogue import BUILT_IN, Catalogue
from ..baccarat.tables.rules import Table


@dataclass(frozen=True, slots=True, kw_only=True)
class Scope:
    """The tables a caller may name, and what it may send with them."""

    #: The caller's tables: the deployment's catalogue as its operator sees it.
    tables: Catalogue = BUILT_IN
    #: Approved tables only: a request names a table and sends no rules of its own.
    approved: bool = False
    #: The operator the caller's key names, if any.
    operator: str | None = None


OPEN = Scope()
_SCOPE: ContextVar[Scope] = ContextVar("baccarat_scope", default=OPEN)
#: The table the request being answered named (or took by default), for its answer.
_NAMED: ContextVar[str | None] = ContextVar("baccarat_table", default=None)
#: Whether a request's scope has been entered (:func:`within`, :func:`enter`).
_ENTERED: ContextVar[bool] = ContextVar("baccarat_entered", default=False)


def scope() -> Scope:
    """The scope of the request being answered (:data:`OPEN` outside one)."""
    return _SCOPE.get()


@contextmanager
def within(current: Scope) -> Iterator[Scope]:
    """Answer within ``current``: for the block, :func:`scope` is it."""
    entered = enter(current)
    try:
        yield current
    finally:
        leave(entered)


Entered = tuple[Token[Scope], Token[str | None], Token[bool]]


def enter(current: Scope) -> Entered:
    """Begin answering within ``current`` (a request hook's half of
    :func:`within`); :func:`leave` with what this returns ends it."""
    return _SCOPE.set(current), _NAMED.set(None), _ENTERED.set(True)


def leave(entered: Entered) -> None:
    """End what :func:`enter` began."""
    token, named, was = entered
    _ENTERED.reset(was)
    _NAMED.reset(named)
    _SCOPE.reset(token)


def at_table(name: str) -> Table:
    """The caller's table ``name`` (one its schema has checked), noted as
    the table the request being answered named (outside a request, where
    nothing is answered, it is not noted)."""
    table = scope().tables[name]
    if _ENTERED.get():
        _NAMED.set(name)
    return table


def named_table() -> str | None:
    """The table the request being answered named, once its body is read."""
    return _NAMED.get()


def dealt_at() -> dict[str, str]:
    """What an answer says of where it was dealt: the table the request named
    and the operator whose key asked (each left out when there is none), in
    the body its signature covers."""
    at = {}
    named, operator = _NAMED.get(), _SCOPE.get().operator
    if named is not None:
        at["table"] = named
    if operator is not None:
        at["operator"] = operator
    return at
