"""The language of each answer: ``Accept-Language`` negotiated (RFC 9110,
section 12.5.4) against the seven the service speaks
(:mod:`service.contract.language`).

:class:`Speaking` is the WSGI layer just inside the signing layer: it
chooses the language before Flask sees the request, writes everything the
app writes for it (answers, problems) in that language, and says which on
the answer (``Content-Language``, with ``Vary: Accept-Language`` for
caches), where the signature covers it (docs/audit.md). The caller's
preferences go by q-value, then by their order; ``q=0`` refuses a
language; a tag the service does not speak falls through to the next one,
and English answers when none is left.

The header is read whole, up to :data:`MAX_HEADER`: gunicorn's own limit on
a header line, so that under gunicorn every header that arrives is read to
its end; a longer one (which only another server would pass on) is refused
with a 431 problem rather than read in part, where a tag cut in the middle
could change the choice. The contract document and its page
(:data:`ENGLISH_ONLY`) are written in English whatever is asked, and say so;
an answer that names its own language keeps it (none does today: the roads'
picture is written in the language asked, as JSON answers are).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from apispec import APISpec, BasePlugin
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..baccarat.rulebook.errors import N_, Sentence
from ..contract.jsonio import dumps
from ..contract.language import ENGLISH, TAGS, Language, Languages, speaking
from ..contract.problems import PROBLEM_JSON, problem_document
from ..server.middleware import StartResponse, WSGIApp

#: gunicorn's limit on a header line (``limit_request_field_size``), which it
#: refuses past with a 431 problem (service/server/worker.py). It counts the
#: whole line: the field's name, ``: `` and the line's end (CRLF) too.
HEADER_LINE = 8190
#: The longest ``Accept-Language`` value read, in characters: what a header
#: line of :data:`HEADER_LINE` leaves for it, so that the contract's
#: ``maxLength`` promises no value gunicorn refuses.
MAX_HEADER = HEADER_LINE - len("Accept-Language: \r\n")
#: The paths whose answers are English documents in every language asked:
#: the OpenAPI document and the page that shows it.
ENGLISH_ONLY = frozenset({"/openapi.yaml", "/openapi.json", "/docs"})


def negotiate(header: str | None, languages: Languages) -> Language:
    """The language of the answer to a request sending ``Accept-Language: header``
    (read whole: :class:`Speaking` refuses one over :data:`MAX_HEADER`).

    >>> languages = Languages({"en": Language.english()})
    >>> negotiate("fr-CH, fr;q=0.9, *;q=0.5", languages).tag
    'en'
    """
    if not header:
        return languages[ENGLISH]
    return languages.best(preferred(header))


def preferred(header: str | None) -> list[str]:
    """The tags an ``Accept-Language`` asks for, most wanted first.

    >>> preferred("fr-CH, fr;q=0.9, *;q=0.5, de;q=0")
    ['fr-CH', 'fr']
    """
    if not header:
        return []
    accepted = parse_accept_header(header, LanguageAccept)
    return [tag for tag, quality in accepted if quality > 0 and tag != "*"]


class Speaking:
    """Answer each request in the language it negotiates."""

    def __init__(self, app: WSGIApp, languages: Languages) -> None:
        self.app = app
        self.languages = languages

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        header = environ.get("HTTP_ACCEPT_LANGUAGE")
        if header is not None and len(header) > MAX_HEADER:
            return self.too_long(environ, len(header), start_response)
        english_only = environ.get("PATH_INFO") in ENGLISH_ONLY
        language = self.languages[ENGLISH] if english_only else negotiate(header, self.languages)

        def start_in_language(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            vary = [value for name, value in headers if name.lower() == "vary"]
            # An answer the app writes in English whatever is asked (a roads
            # picture) says so itself, and keeps its word.
            said = next((value for name, value in headers if name.lower() == "content-language"), None)
            headers = [
                (name, value) for name, value in headers if name.lower() not in ("content-language", "vary")
            ]
            headers.append(("Content-Language", said or language.tag))
            varies = vary if english_only else [*vary, "Accept-Language"]
            if varies:
                headers.append(("Vary", ", ".join(varies)))
            return start_response(status, headers, *exc_info)

        with speaking(language):
            return self.app(environ, start_in_language)

    def too_long(
        self, environ: dict[str, Any], length: int, start_response: StartResponse
    ) -> Iterable[bytes]:
        """The 431 problem of an ``Accept-Language`` over :data:`MAX_HEADER`,
        in English: the header that would choose another language is the one refused."""
        with speaking(self.languages[ENGLISH]):
            detail = Sentence.of(
                N_("The Accept-Language header is {length} characters long, over the {limit} read"),
                length=length,
                limit=MAX_HEADER,
            )
            problem = problem_document(
                431, N_("Request Header Fields Too Large"), detail, instance=environ.get("PATH_INFO")
            )
        body = dumps(problem)
        start_response(
            "431 Request Header Fields Too Large",
            [
                ("Content-Type", PROBLEM_JSON),
                ("Content-Length", str(len(body))),
                ("Content-Language", ENGLISH),
                ("Vary", "Accept-Language"),
            ],
        )
        return [body]


#: The request headers every operation honours, as components of the
#: OpenAPI document: the language asked for, and the caller's trace context
#: (W3C Trace Context, continued when traces are on: service/server/tracing.py).
PARAMETERS: dict[str, dict[str, Any]] = {
    "AcceptLanguage": {
        "name": "Accept-Language",
        "in": "header",
        "required": False,
        "description": "The languages the answer's sentences may be written in, by preference "
        "(RFC 9110: q-values, then order): one of `en`, `zh-Hans`, `zh-Hant`, `ko`, `ja`, `th`, "
        "`vi`, Chinese by script (`zh-TW` is `zh-Hant`), any other tag by its language; English "
        f"when none is spoken. Read whole, up to {MAX_HEADER:,} characters (gunicorn's header line of "
        f"{HEADER_LINE:,} bytes, less the name, `: ` and the line's end; a longer one is a 431 problem). "
        'The OpenAPI document is English whatever is asked (docs/integration.md, "Reasons in '
        'your own words")',
        "schema": {"type": "string", "maxLength": MAX_HEADER, "example": "th-TH, en;q=0.5"},
    },
    "Traceparent": {
        "name": "traceparent",
        "in": "header",
        "required": False,
        "description": "W3C Trace Context: the caller's span, `00-<trace id, 32 hex digits>-<span id, "
        "16 hex digits>-<flags>`. With traces on, the answer's span is its child in the same "
        "trace; a malformed one starts a trace of its own, never an error (docs/integration.md, "
        '"Joining the traces")',
        "schema": {"type": "string", "example": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
    },
    "Tracestate": {
        "name": "tracestate",
        "in": "header",
        "required": False,
        "description": "W3C Trace Context: the vendors' trace state, kept as sent with `traceparent`",
        "schema": {"type": "string", "example": "vendor=value"},
    },
}
#: The answer headers every answer carries.
HEADERS: dict[str, dict[str, Any]] = {
    "ContentLanguage": {
        "description": "The language every sentence of the answer is written in: the one "
        "`Accept-Language` chose (`en` when none; a roads picture's titles, labels and text "
        "alternatives too), and `en` for the OpenAPI document, whose words are English. Signed "
        "answers cover it (docs/audit.md)",
        "schema": {"type": "string", "enum": list(TAGS)},
    },
    "VaryLanguage": {
        "description": "`Accept-Language` (after `Accept` where the answer is JSON or a picture by "
        "`Accept`): caches keep one answer per language",
        "schema": {"type": "string", "example": "Accept-Language"},
    },
}


class LanguageHeaders(BasePlugin):
    """apispec plugin: every operation declares the request headers it honours
    (:data:`PARAMETERS`) and every answer the headers :class:`Speaking` writes
    (:data:`HEADERS`: ``Content-Language``, and ``Vary`` but on the English-only
    paths), so that a generated client sends and reads them by name."""

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        for name, parameter in PARAMETERS.items():
            spec.components.parameter(name, "header", parameter)
        for name, header in HEADERS.items():
            spec.components.header(name, header)

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for operation in (operations or {}).values():
            operation.setdefault("parameters", []).extend(PARAMETERS)
            # An Accept-Language over MAX_HEADER, on any operation: the
            # shared problem response flask-smorest registers for the status.
            operation.setdefault("responses", {}).setdefault("431", "REQUEST_HEADER_FIELDS_TOO_LARGE")
            for response in operation.get("responses", {}).values():
                if isinstance(response, dict):
                    response["headers"] = answer_headers(response.get("headers", {}), path in ENGLISH_ONLY)

    def response_helper(self, response: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """The shared responses (the problems) carry the headers too."""
        return {"headers": answer_headers(response.get("headers", {}), english_only=False)}


def answer_headers(headers: dict[str, Any], english_only: bool) -> dict[str, Any]:
    """``headers`` with ``Content-Language``, and ``Vary`` unless the answer is
    English whatever is asked (a ``Vary`` documented already is kept: it names
    ``Accept-Language`` too)."""
    added: dict[str, Any] = {"Content-Language": "ContentLanguage"}
    if not english_only:
        added["Vary"] = headers.get("Vary", "VaryLanguage")
    return {**headers, **added}
