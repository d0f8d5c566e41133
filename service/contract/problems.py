"""One error shape for the whole service: RFC 9457 ``application/problem+json``.

Every error answer has ``type``, ``title``, ``status``, ``detail``,
``instance`` (the request path) and, when inputs are at fault, ``errors``: a
list of ``{"pointer": "/bets/0/amount", "code": ..., "values": ..., "detail":
"..."}`` where ``pointer`` is a JSON Pointer (RFC 6901) into the request
body, ``code`` says what is wrong from a closed set (``ErrorCode``: the
engine's problem codes and the schemas' field codes,
:mod:`.schemas.messages`), ``values`` holds the values its sentence is
made from (left out when there are none), and ``detail`` is that sentence.

Titles and details are written in the language of the answer
(:func:`.language.current`: the caller's, negotiated by the web layer;
English elsewhere), from the ``problems`` catalogue. Only words change:
type, status, pointers, codes and values are the same in every language.
Each is read from the language when the document is built, so a replay
in the stored answer's language writes the same bytes.

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
from decimal import Decimal
from typing import Any, Protocol

from ..baccarat.rulebook.errors import N_, BaccaratError, Path, Sentence, joined
from ..baccarat.rulebook.tableau import Reason
from .language import Language, current
from .schemas.messages import ERROR_TEMPLATES, ErrorCode, FieldCode, Message

PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:baccarat:problem:"
MAX_FIELD_ERRORS = 50
MAX_TEXT = 500
#: The detail of every 500: what failed stays in the log, never in the answer.
INTERNAL_ERROR_DETAIL = N_("The service failed to answer this request; it has been logged.")
#: The words a value of a problem may be written with: the hands and the
#: places of a round's cards (their ``words``; tests/contract/test_problems.py
#: holds this list equal to the engine's).
WORDS = (
    N_("Player"),
    N_("Banker"),
    N_("the Player's first card"),
    N_("the Banker's first card"),
    N_("the Player's second card"),
    N_("the Banker's second card"),
    N_("the Player's third card"),
    N_("the Banker's third card"),
)


class Coded(Protocol):
    """A field error: a code and the values its sentence is made from (a
    :class:`~..baccarat.errors.Problem`, or a :class:`.schemas.messages.Message`)."""

    @property
    def code(self) -> ErrorCode: ...

    @property
    def values(self) -> Mapping[str, Any]: ...


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


def _word(value: Any, language: Language) -> Any:
    """``value`` as a sentence in ``language`` is filled with it: a rule's
    reason, a sentence, and a hand or place in the language's words, several
    values as a list, a number or a code as itself."""
    if isinstance(value, Reason):
        return language.reason(value)
    if isinstance(value, Sentence):
        return said(value.template, value.values, language)
    words = getattr(value, "words", None)
    if isinstance(words, str):
        return language.translations.gettext(words)
    if isinstance(value, tuple):
        return joined(value, [str(_word(item, language)) for item in value])
    return value


def said(template: str, values: Mapping[str, Any], language: Language) -> str:
    """``template`` in ``language``, filled with ``values``.

    >>> said("round {round} is past the shoe's last round, {rounds}", {"round": 70, "rounds": 61},
    ...      Language.english())
    "round 70 is past the shoe's last round, 61"
    """
    return language.say(template, **{name: _word(value, language) for name, value in values.items()})


def written(text: str, language: Language | None = None) -> str:
    """A title or detail in ``language`` (the current one by default): a
    :class:`~..baccarat.errors.Sentence` is its template's translation
    filled with its values, any other text its translation, if the
    ``problems`` catalogue has one."""
    language = language or current()
    if isinstance(text, Sentence):
        return said(text.template, text.values, language)
    return language.translations.gettext(text)


def _json(value: Any) -> Any:
    """A problem's value as its ``values`` write it: numbers as numbers,
    amounts and codes as strings, a rule's reason as its code and values."""
    if isinstance(value, Reason):
        return {"code": str(value.code), "values": dict(value.values)}
    if isinstance(value, int | Decimal):
        return value if isinstance(value, int) else str(value)
    if isinstance(value, str):
        return clean(str(value))
    if isinstance(value, tuple):
        return [_json(item) for item in value]
    raise TypeError(f"a problem's value is a number, a text, a reason or a list of them, not {value!r}")


def field_error(path: Path, error: Coded, language: Language) -> dict[str, Any]:
    """One ``errors`` entry: where, the code, its values and its sentence."""
    if error.code not in ERROR_TEMPLATES:
        raise TypeError(f"a field error whose code is not an ErrorCode: {error!r}")
    entry: dict[str, Any] = {"pointer": clean(pointer(path)), "code": str(error.code)}
    if error.values:
        entry["values"] = {name: _json(value) for name, value in error.values.items()}
    entry["detail"] = clean(said(ERROR_TEMPLATES[error.code], error.values, language))
    return entry


def field_errors(errors: Iterable[tuple[Path, Coded]]) -> list[dict[str, Any]]:
    """``errors`` as a problem lists them: at most :data:`MAX_FIELD_ERRORS`,
    then one entry at the body's root saying how many more there were."""
    language = current()
    listed: list[dict[str, Any]] = []
    more = 0
    for path, error in errors:
        if len(listed) < MAX_FIELD_ERRORS:
            listed.append(field_error(path, error, language))
        else:
            more += 1
    if more:
        listed.append(field_error((), Message.of(FieldCode.MORE_ERRORS, count=more), language))
    return listed


def validation_errors(messages: Any, path: Path = ()) -> Iterator[tuple[Path, Message]]:
    """Flatten marshmallow's nested error messages into (path, message) pairs.

    >>> amount = Message.of(FieldCode.AMOUNT_NOT_POSITIVE)
    >>> list(validation_errors({"json": {"bets": {0: {"amount": [amount]}}}}))
    [(('bets', 0, 'amount'), 'An amount must be greater than zero.')]

    The location key (``json``) and ``_schema`` (the object itself) add
    nothing to the path. Every message is a :class:`.schemas.messages.Message`,
    with a code: TypeError for one without.
    """
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            skip = key == "_schema" or (not path and key == "json")
            yield from validation_errors(value, path if skip else (*path, key))
    elif isinstance(messages, list | tuple):
        for message in messages:
            yield from validation_errors(message, path)
    elif isinstance(messages, Message):
        yield path, messages
    else:
        raise TypeError(f"a field error without a code: {messages!r} at {pointer(path) or '/'}")


def problem_document(
    status: int,
    title: str,
    detail: str,
    *,
    type: str = "about:blank",
    errors: list[dict[str, Any]] | None = None,
    instance: str | None = None,
) -> dict[str, Any]:
    """The problem body as a dict, its ``title`` and ``detail`` (English)
    written in the current language (:func:`written`)."""
    language = current()
    body: dict[str, Any] = {
        "type": type,
        "title": written(title, language),
        "status": status,
        "detail": clean(written(detail, language)),
    }
    if instance is not None:
        body["instance"] = clean(instance)
    if errors:
        body["errors"] = errors
    return body


def invalid_request(messages: Any) -> dict[str, Any]:
    """The 422 for a body or query that does not match its schema
    (marshmallow's ``messages``, keyed by location)."""
    query = isinstance(messages, Mapping) and "query" in messages
    return problem_document(
        422,
        N_("Invalid request"),
        N_("The query does not match the schema: see errors")
        if query
        else N_("The request body does not match the schema: see errors"),
        type=TYPE_PREFIX + "invalid-request",
        errors=field_errors(validation_errors(messages)),
    )


def domain_problem(error: BaccaratError) -> dict[str, Any]:
    """The 422 for a request that is valid JSON but breaks the rules of the game."""
    return problem_document(
        422,
        error.title,
        error.detail,
        type=TYPE_PREFIX + error.slug,
        errors=field_errors((problem.path, problem) for problem in error.problems),
    )
