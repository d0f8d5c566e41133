"""Replay of a stored exchange: does its signature hold, and does this engine
give the same answer? (POST /v1/replays, docs/audit.md.)

The stored request is run through the app itself, in process, exactly as a
caller's would be (its checks, its API key, its answer's bytes), but not
through the WSGI layers around it: a replay is not counted as a round in the
metrics, and the answer it gives is compared, not signed. Only the requests
that deal or settle are replayed; a new seed is random by design.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from flask import request
from werkzeug.test import EnvironBuilder, run_wsgi_app

from ..contract.answers import ENGINE
from ..contract.schemas.audit import MAX_DIFFERENCES
from ..contract.signatures import Exchange, Verdict, verify
from .services import services

#: The operations a replay runs again (each deterministic).
REPLAYABLE = frozenset({"/v1/rounds", "/v1/rounds/live", "/v1/settlements", "/v1/shoes"})


@dataclass(frozen=True, slots=True)
class Difference:
    pointer: str
    stored: str | None
    replayed: str | None


@dataclass(frozen=True, slots=True)
class Replayed:
    replayed: bool
    identical: bool | None
    reason: str
    status: int | None = None
    signed_by: Any = None
    engine: Any = field(default_factory=lambda: ENGINE)
    differences: tuple[Difference, ...] = ()
    more_differences: int = 0


@dataclass(frozen=True, slots=True)
class Replay:
    signature: Verdict
    replay: Replayed


def _pointer(path: tuple[str, ...]) -> str:
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in path)


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def differences(stored: Any, replayed: Any, path: tuple[str, ...] = ()) -> Iterator[Difference]:
    """Where two JSON values differ, as JSON Pointers, in document order.

    >>> [d.pointer for d in differences({"a": [1, 2], "b": 1}, {"a": [1, 3], "c": 1})]
    ['/a/1', '/b', '/c']
    """
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in [*stored, *(key for key in replayed if key not in stored)]:
            if key not in replayed:
                yield Difference(_pointer((*path, key)), _text(stored[key]), None)
            elif key not in stored:
                yield Difference(_pointer((*path, key)), None, _text(replayed[key]))
            else:
                yield from differences(stored[key], replayed[key], (*path, key))
    elif isinstance(stored, list) and isinstance(replayed, list):
        for index in range(max(len(stored), len(replayed))):
            where = (*path, str(index))
            if index >= len(replayed):
                yield Difference(_pointer(where), _text(stored[index]), None)
            elif index >= len(stored):
                yield Difference(_pointer(where), None, _text(replayed[index]))
            else:
                yield from differences(stored[index], replayed[index], where)
    elif stored != replayed or type(stored) is not type(replayed):
        yield Difference(_pointer(path), _text(stored), _text(replayed))


#: The deepest stored answer compared field by field: the service's own are a
#: few levels deep, and a deeper one (or one too deep to parse) is compared as
#: bytes only, so that neither parsing nor comparing it can exhaust the stack.
MAX_DEPTH = 32


def _depth(value: Any) -> int:
    """How deeply ``value`` nests lists and objects (0 for a scalar), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _json(body: bytes) -> Any:
    """The JSON of an answer's body, or None when it is not JSON or nests too deeply."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return value if _depth(value) <= MAX_DEPTH else None


def _run(exchange: Exchange) -> tuple[int, bytes]:
    """The stored request through the app, with this request's credentials."""
    url = urlsplit(exchange.request.url)
    headers = [("Content-Type", "application/json")]
    if "Authorization" in request.headers:
        headers.append(("Authorization", request.headers["Authorization"]))
    environ = EnvironBuilder(
        path=url.path,
        query_string=url.query,
        method=exchange.request.method,
        data=exchange.request.body,
        headers=headers,
    ).get_environ()
    chunks, status, _ = run_wsgi_app(services().replay_app, environ, buffered=True)
    return int(status.split(" ", 1)[0]), b"".join(chunks)


def replay(exchange: Exchange) -> Replay:
    """The verdict on ``exchange``: its signature against the published keys,
    and its request replayed under this engine."""
    signature = verify(exchange, services().signing.published)
    stored = _json(exchange.response.body)
    signed_by = stored.get("engine") if isinstance(stored, dict) else None
    url = urlsplit(exchange.request.url)
    if exchange.request.method != "POST" or url.path not in REPLAYABLE:
        reason = (
            f"{exchange.request.method} {url.path} is not replayed: only the requests that deal or "
            f"settle are ({', '.join(sorted(REPLAYABLE))}); a new seed is random by design"
        )
        return Replay(signature, Replayed(False, None, reason, signed_by=signed_by))
    status, body = _run(exchange)
    if status == exchange.response.status and body == exchange.response.body:
        reason = "the replay gave the same status and the same bytes"
        return Replay(signature, Replayed(True, True, reason, status, signed_by))
    found = differences(stored, _json(body)) if status == exchange.response.status else iter(())
    listed: list[Difference] = []
    for difference in found:
        if len(listed) == MAX_DIFFERENCES:
            break
        listed.append(difference)
    more = sum(1 for _ in found)
    reason = (
        f"the replay answered {status}, the stored answer {exchange.response.status}"
        if status != exchange.response.status
        else "the replay's answer differs from the stored one"
        + ("" if listed else " in its bytes only (the same JSON, written otherwise)")
    )
    return Replay(signature, Replayed(True, False, reason, status, signed_by, ENGINE, tuple(listed), more))
