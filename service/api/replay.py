"""Replay of a stored exchange: does its signature hold, and does this engine
give the same answer? (POST /v1/replays, docs/audit.md.)

The stored request is played in the language its answer was written in
(its signed ``Content-Language``), as its operation plays it (its policy's
:class:`~.policy.Replayable`): its body read by the service's JSON rules,
loaded by the operation's own request schema with its limits, played by the
same service function and dumped by the same answer schema; a request that
breaks a rule gets the same problem document a caller would. Not through
the view or the app's request machinery: so a replay is never counted as a
round in the metrics, and the answer it gives is compared, not signed. Only
the operations that deal or settle are replayed; a new seed is random by
design.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from ..baccarat.play.round import PlayedRound
from ..baccarat.rulebook.errors import N_, BaccaratError, Sentence
from ..contract.answers import MINIMAL, Minimal
from ..contract.audit.exchange import Exchange
from ..contract.audit.verification import Verdict, verify
from ..contract.jsonio import dumps
from ..contract.language import ENGLISH, Language, current, speaking
from ..contract.problems import clean, domain_problem, invalid_request
from ..contract.recorded import TableNow, replay_scope
from ..contract.schemas.audit import MAX_DIFFERENCES
from ..contract.scope import scope, within
from ..provenance.build import engine
from .errors import http_problem
from .policy import Replayable
from .services import services
from .views import json_body


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
    engine: Any = field(default_factory=engine)
    differences: tuple[Difference, ...] = ()
    more_differences: int = 0
    table: ReplayedTable | None = None
    same_build: bool | None = None


@dataclass(frozen=True, slots=True)
class ReplayedTable:
    """The table a stored answer names, and what the catalogue holds under it now."""

    name: str
    now: TableNow


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


def text_differences(stored: bytes, replayed: bytes) -> Iterator[Difference]:
    """Where two text answers (a rules sheet's HTML or Markdown page) differ,
    line by line: each line that is not the same at ``/lines/N`` (N from 0),
    its text as a JSON string, or null where one answer has no such line.

    >>> [(d.pointer, d.stored, d.replayed) for d in text_differences(b"a\\nRTP 98%\\n", b"a\\nRTP 99%\\n")]
    [('/lines/1', '"RTP 98%"', '"RTP 99%"')]
    """
    old = stored.decode("utf-8", "replace").splitlines()
    new = replayed.decode("utf-8", "replace").splitlines()
    for index in range(max(len(old), len(new))):
        before = old[index] if index < len(old) else None
        after = new[index] if index < len(new) else None
        if before != after:
            yield Difference(
                _pointer(("lines", str(index))),
                None if before is None else _text(before),
                None if after is None else _text(after),
            )


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


def play(
    operation: Replayable,
    body: bytes,
    path: str,
    minimal: bool = False,
    media: str | None = None,
) -> tuple[int, bytes]:
    """The stored request's status and answer, as the operation at ``path``
    answers a caller's body: read, loaded, played and dumped the view's way
    (in the minimal form when ``minimal``: service/api/preference.py; or
    written as the page ``media`` names, when the stored answer is one of the
    operation's pages), or the problem its view would answer (webargs keys a
    body's schema errors by ``json``, as the 422 of
    :meth:`~.errors.ProblemApi.handle_http_exception` reads them)."""
    try:
        played = operation.play(operation.request.load(json_body(body)))
        page = operation.pages.get(media or "")
        if page is not None:
            return 200, page(played, current()).encode()
        answer = operation.answer.dump(
            Minimal(played) if minimal and isinstance(played, PlayedRound) else played
        )
    except ValidationError as error:
        problem = invalid_request({"json": error.messages})
    except BaccaratError as error:
        problem = domain_problem(error)
    except HTTPException as error:
        problem, _ = http_problem(error)
    else:
        return 200, dumps(answer)
    problem.setdefault("instance", clean(path))
    return problem["status"], dumps(problem)


def stored_media_type(headers: Mapping[str, str]) -> str | None:
    """The media type of a stored answer (``text/html``), without its parameters.

    >>> stored_media_type({"content-type": "text/html; charset=utf-8"})
    'text/html'
    """
    named = {name.lower(): value for name, value in headers.items()}
    media = named.get("content-type")
    return None if media is None else media.partition(";")[0].strip().lower()


def stored_language(headers: Mapping[str, str]) -> Language:
    """The language a stored answer's signature vouches for: its
    ``Content-Language`` when the signature covers it; English when the
    signature does not (an answer signed before answers were written in
    other languages, which is English, docs/audit.md), whatever header was
    stored beside it. An answer with no signature is taken at its header's
    word (English when it has none): nothing vouches for it either way,
    and the verdict says it is not verified."""
    named = {name.lower(): value for name, value in headers.items()}
    tag = named.get("content-language", ENGLISH).strip()
    signature_input = named.get("signature-input")
    if signature_input is not None and not covers_language(signature_input):
        tag = ENGLISH
    languages = services().languages
    return languages.get(tag) or languages.best([tag])


def covers_language(signature_input: str) -> bool:
    """Whether the service's signature in ``signature_input`` covers ``content-language``.

    >>> covers_language('baccarat=("@status" "content-type" "content-language");created=1')
    True
    >>> covers_language('baccarat=("@status" "content-type" "content-digest");created=1')
    False
    """
    covered, _, _ = signature_input.partition(")")
    return '"content-language"' in covered


def same_build(signed_by: Any) -> bool | None:
    """Whether the engine a stored answer names (its ``engine``) is this build:
    its digest is this engine's; None when it names no digest (an answer
    written before answers named one, or not the service's)."""
    digest = signed_by.get("digest") if isinstance(signed_by, dict) else None
    return None if digest is None else digest == engine()["digest"]


def replay(exchange: Exchange) -> Replay:
    """The verdict on ``exchange``: its signature against the published keys,
    and its request replayed under this engine."""
    signature = verify(exchange, services().signing.published)
    stored = _json(exchange.response.body)
    signed_by = stored.get("engine") if isinstance(stored, dict) else None
    same = same_build(signed_by)
    path = urlsplit(exchange.request.url).path
    operations = services().operations
    operation = operations.replayable(exchange.request.method, path)
    if operation is None:
        reason = Sentence.of(
            N_(
                "{method} {path} is not replayed: only the POST requests that deal or settle are "
                "({routes}); a new seed is random by design"
            ),
            method=exchange.request.method,
            path=clean(path),
            routes=tuple(operations.replayed_routes()),
        )
        return Replay(signature, Replayed(False, None, reason, signed_by=signed_by, same_build=same))
    # The stored answer's form, as its signed body and its media type name it:
    # a minimal answer (``Prefer: return=minimal``) is replayed in the minimal
    # form, a page (a rules sheet's HTML or Markdown) as that page.
    minimal = isinstance(stored, dict) and stored.get(MINIMAL) is True
    media = stored_media_type(exchange.response.headers)
    # By the rules the answer recorded, at the table it names, whatever the catalogue holds now.
    recorded = replay_scope(scope(), stored)
    dealt_at = scope() if recorded is None else recorded[0]
    table = None if recorded is None else ReplayedTable(recorded[1], recorded[2])
    with speaking(stored_language(exchange.response.headers)), within(dealt_at):
        status, body = play(operation, exchange.request.body, path, minimal, media)
    if status == exchange.response.status and body == exchange.response.body:
        reason = Sentence.of(N_("the replay gave the same status and the same bytes"))
        return Replay(
            signature, Replayed(True, True, reason, status, signed_by, table=table, same_build=same)
        )
    if status != exchange.response.status:
        found: Iterator[Difference] = iter(())
    elif operation.pages.get(media or "") is not None:
        # A page is text: its differences are its lines, not "the same JSON".
        found = text_differences(exchange.response.body, body)
    else:
        found = differences(stored, _json(body))
    listed: list[Difference] = []
    for difference in found:
        if len(listed) == MAX_DIFFERENCES:
            break
        listed.append(difference)
    more = sum(1 for _ in found)
    if status != exchange.response.status:
        reason = Sentence.of(
            N_("the replay answered {status}, the stored answer {stored}"),
            status=status,
            stored=exchange.response.status,
        )
    elif listed:
        reason = Sentence.of(N_("the replay's answer differs from the stored one"))
    else:
        reason = Sentence.of(
            N_(
                "the replay's answer differs from the stored one in its bytes only "
                "(the same JSON, written otherwise)"
            )
        )
    replayed = Replayed(True, False, reason, status, signed_by, engine(), tuple(listed), more, table, same)
    return Replay(signature, replayed)
