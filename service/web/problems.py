"""One error shape for the whole service: RFC 9457 ``application/problem+json``.

Every error answer has ``type``, ``title``, ``status``, ``detail``,
``instance`` (the request path) and, when inputs are at fault, ``errors``: a
list of ``{"pointer": "/bets/0/amount", "detail": "..."}`` where ``pointer``
is a JSON Pointer (RFC 6901) into the request body. Two handlers produce it:
one for HTTP errors (including request validation, which flask-smorest raises
as a 422), one for the rules engine's domain errors.
"""

from __future__ import annotations

import http
import logging
from collections.abc import Iterator, Mapping
from typing import Any

from flask import Response, current_app, request
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException, InternalServerError

from ..baccarat.errors import BaccaratError, Path
from .encoding import dumps
from .schemas.problems import ProblemSchema

PROBLEM_JSON = "application/problem+json"
TYPE_PREFIX = "urn:baccarat:problem:"
log = logging.getLogger(__name__)


def pointer(path: Path) -> str:
    """A JSON Pointer for ``path``: ``("bets", 0, "amount")`` is ``/bets/0/amount``."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)


def problem_document(
    status: int,
    title: str,
    detail: str,
    *,
    type: str = "about:blank",
    errors: list[dict[str, str]] | None = None,
    instance: str | None = None,
) -> dict[str, Any]:
    """The problem body as a dict (also used outside Flask, by the body limit)."""
    body: dict[str, Any] = {"type": type, "title": title, "status": status, "detail": detail}
    if instance is not None:
        body["instance"] = instance
    if errors:
        body["errors"] = errors
    return body


def problem_response(body: dict[str, Any], headers: Mapping[str, str] | None = None) -> Response:
    """A Flask response carrying a problem document."""
    body.setdefault("instance", request.path)
    response = current_app.response_class(dumps(body), status=body["status"], mimetype=PROBLEM_JSON)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def validation_errors(messages: Any, path: Path = ()) -> Iterator[dict[str, str]]:
    """Flatten marshmallow's nested error messages into pointer/detail pairs.

    ``{"json": {"bets": {0: {"amount": ["Not a valid amount."]}}}}`` gives
    ``{"pointer": "/bets/0/amount", "detail": "Not a valid amount."}``; the
    location key (``json``) and ``_schema`` (the object itself) add nothing
    to the pointer.
    """
    if isinstance(messages, Mapping):
        for key, value in messages.items():
            skip = key == "_schema" or (not path and key in ("json", "query", "headers"))
            yield from validation_errors(value, path if skip else (*path, key))
    elif isinstance(messages, list | tuple):
        for message in messages:
            yield from validation_errors(message, path)
    else:
        yield {"pointer": pointer(path), "detail": str(messages)}


def handle_http_exception(error: HTTPException) -> Response:
    """Any HTTP error, including the 422 that request validation raises."""
    status = error.code or 500
    if status >= 500:
        # Never a stack trace to the caller; the log keeps it.
        if isinstance(error, InternalServerError) and error.original_exception is not None:
            log.error("unhandled error", exc_info=error.original_exception)
        detail = "The service failed to answer this request; it has been logged."
    else:
        detail = error.description or ""
    data = getattr(error, "data", None) or {}
    errors = list(validation_errors(data["messages"])) if "messages" in data else None
    if status == 422 and errors:
        detail = "The request body does not match the schema: see errors"
        body = problem_document(
            status, "Invalid request", detail, type=TYPE_PREFIX + "invalid-request", errors=errors
        )
    else:
        body = problem_document(status, error.name, detail, errors=errors)
    headers = dict(data.get("headers") or {})
    if status == 405 and error.response is None:
        headers.update(error.get_headers())  # keeps the Allow header
        headers.pop("Content-Type", None)
    return problem_response(body, headers)


def handle_domain_error(error: BaccaratError) -> Response:
    """A request that is valid JSON but breaks the rules of the game: 422."""
    errors = [{"pointer": pointer(p.path), "detail": p.detail} for p in error.problems]
    return problem_response(
        problem_document(422, error.title, error.detail, type=TYPE_PREFIX + error.slug, errors=errors)
    )


class ProblemApi(Api):
    """flask-smorest's Api, answering and documenting errors as problems."""

    def _register_error_handlers(self) -> None:
        self._app.register_error_handler(HTTPException, handle_http_exception)
        self._app.register_error_handler(BaccaratError, handle_domain_error)

    def _register_responses(self) -> None:
        for status in (400, 401, 404, 405, 413, 415, 422, 500):
            phrase = http.HTTPStatus(status)
            response: dict[str, Any] = {"description": phrase.phrase, "schema": ProblemSchema}
            prepare_response(response, self.spec, PROBLEM_JSON)
            self.spec.components.response(phrase.name, response, lazy=True)
        response = {"description": "Any error, as application/problem+json", "schema": ProblemSchema}
        prepare_response(response, self.spec, PROBLEM_JSON)
        self.spec.components.response("DEFAULT_ERROR", response, lazy=True)
