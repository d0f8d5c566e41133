"""One error shape for the whole service: RFC 9457 ``application/problem+json``.

Every error answer has ``type``, ``title``, ``status``, ``detail``,
``instance`` (the request path) and, when inputs are at fault, ``errors``: a
list of ``{"pointer": "/bets/0/amount", "detail": "..."}`` where ``pointer``
is a JSON Pointer (RFC 6901) into the request body.

A hostile body can be wrong in a million places, and its keys and values
can be megabytes long or hold text JSON cannot carry (a lone surrogate).
So at most :data:`MAX_FIELD_ERRORS` field errors are listed, then one more
entry says how many were left out; and any text taken from the request is
cut to :data:`MAX_TEXT` characters, with what UTF-8 cannot encode replaced.

This module builds documents only (no Flask): the web layer answers with
them, and the command line prints them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..baccarat.errors import BaccaratError, Path

PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:baccarat:problem:"
MAX_FIELD_ERRORS = 50
MAX_TEXT = 500
#: The detail of every 500: what failed stays in the log, never in the answer.
INTERNAL_ERROR_DETAIL = "The service failed to answer this request; it has been logged."


def clean(text: str) -> str:
    """``text`` as a problem may quote it: at most :data:`MAX_TEXT`
    characters, and encodable as UTF-8.

    >>> clean("\\ud800x"), len(clean("9" * 10_000))
    ('?x', 501)
    """
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT] + "…"
    return text.encode("utf-8", "replace").decode("utf-8")


def pointer(path: Path) -> str:
    """A JSON Pointer for ``path``: ``("bets", 0, "amount")`` is ``/bets/0/amount``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def field_errors(errors: Iterable[tuple[Path, str]]) -> list[dict[str, str]]:
    """``errors`` as a problem lists them: at most :data:`MAX_FIELD_ERRORS`,
    then one entry at the body's root saying how many more there were."""
    listed: list[dict[str, str]] = []
    more = 0
    for path, detail in errors:
        if len(listed) < MAX_FIELD_ERRORS:
            listed.append({"pointer": clean(pointer(path)), "detail": clean(detail)})
        else:
            more += 1
    if more:
        listed.append({"pointer": "", "detail": f"{more} more error(s) not listed"})
    return listed


def validation_errors(messages: Any, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """Flatten marshmallow's nested error messages into (path, detail) pairs.

    >>> list(validation_errors({"json": {"bets": {0: {"amount": ["Not a valid amount."]}}}}))
    [(('bets', 0, 'amount'), 'Not a valid amount.')]

    The location key (``json``) and ``_schema`` (the object itself) add
    nothing to the path.
    """
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            skip = key == "_schema" or (not path and key == "json")
            yield from validation_errors(value, path if skip else (*path, key))
    elif isinstance(messages, list | tuple):
        for message in messages:
            yield from validation_errors(message, path)
    else:
        yield path, str(messages)


def problem_document(
    status: int,
    title: str,
    detail: str,
    *,
    type: str = "about:blank",
    errors: list[dict[str, str]] | None = None,
    instance: str | None = None,
) -> dict[str, Any]:
    """The problem body as a dict."""
    body: dict[str, Any] = {"type": type, "title": title, "status": status, "detail": detail}
    if instance is not None:
        body["instance"] = clean(instance)
    if errors:
        body["errors"] = errors
    return body


def invalid_request(messages: Any) -> dict[str, Any]:
    """The 422 for a body or query that does not match its schema
    (marshmallow's ``messages``, keyed by location)."""
    part = "query" if isinstance(messages, Mapping) and "query" in messages else "request body"
    return problem_document(
        422,
        "Invalid request",
        f"The {part} does not match the schema: see errors",
        type=TYPE_PREFIX + "invalid-request",
        errors=field_errors(validation_errors(messages)),
    )


def domain_problem(error: BaccaratError) -> dict[str, Any]:
    """The 422 for a request that is valid JSON but breaks the rules of the game."""
    return problem_document(
        422,
        error.title,
        clean(error.detail),
        type=TYPE_PREFIX + error.slug,
        errors=field_errors((problem.path, problem.detail) for problem in error.problems),
    )
