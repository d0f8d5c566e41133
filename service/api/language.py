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
(:data:`ENGLISH_ONLY`) are written in English whatever is asked, and say so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..baccarat.rulebook.errors import N_, Sentence
from ..contract.jsonio import dumps
from ..contract.language import ENGLISH, Language, Languages, speaking
from ..contract.problems import PROBLEM_JSON, problem_document
from ..server.middleware import StartResponse, WSGIApp

#: The longest ``Accept-Language`` read, in characters: gunicorn's limit on
#: a header line (``limit_request_field_size``, 8,190 bytes with its name),
#: which it refuses past with a 431 problem (service/server/worker.py).
MAX_HEADER = 8190
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
    accepted = parse_accept_header(header, LanguageAccept)
    return languages.best(tag for tag, quality in accepted if quality > 0 and tag != "*")


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
            headers = [
                (name, value) for name, value in headers if name.lower() not in ("content-language", "vary")
            ]
            headers.append(("Content-Language", language.tag))
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
            ],
        )
        return [body]
