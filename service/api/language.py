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
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..contract.language import ENGLISH, Language, Languages, speaking
from ..server.middleware import StartResponse, WSGIApp

#: The longest ``Accept-Language`` read: a browser sends a few dozen
#: characters, and a longer one is read no further (servers bound headers
#: at 8 KiB anyway).
MAX_HEADER = 1024


def negotiate(header: str | None, languages: Languages) -> Language:
    """The language of the answer to a request sending ``Accept-Language: header``.

    >>> languages = Languages({"en": Language.english()})
    >>> negotiate("fr-CH, fr;q=0.9, *;q=0.5", languages).tag
    'en'
    """
    if not header:
        return languages[ENGLISH]
    accepted = parse_accept_header(header[:MAX_HEADER], LanguageAccept)
    return languages.best(tag for tag, quality in accepted if quality > 0 and tag != "*")


_REPLACED = ("content-language", "vary")


class Speaking:
    """Answer each request in the language it negotiates."""

    def __init__(self, app: WSGIApp, languages: Languages) -> None:
        self.app = app
        self.languages = languages

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        language = negotiate(environ.get("HTTP_ACCEPT_LANGUAGE"), self.languages)

        def start_in_language(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            vary = [value for name, value in headers if name.lower() == "vary"]
            headers = [
                (name, value) for name, value in headers if name.lower() not in ("content-language", "vary")
            ]
            headers.append(("Content-Language", language.tag))
            headers.append(("Vary", ", ".join([*vary, "Accept-Language"])))
            return start_response(status, headers, *exc_info)

        with speaking(language):
            return self.app(environ, start_in_language)
