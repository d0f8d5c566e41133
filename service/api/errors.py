"""Every error answered as ``application/problem+json`` (:mod:`.problems`).

Two handlers produce them: flask-smorest's override point for HTTP errors
(:meth:`ProblemApi.handle_http_exception`, which also receives request
validation's 422 and any unexpected exception as a 500), and one for the
rules engine's domain errors. The OpenAPI document declares the same
shape (``ERROR_SCHEMA``) under the same media type (:class:`ProblemMediaType`).

Each is written in the request's language (:mod:`..contract.problems`),
an HTTP error's title and werkzeug's own details (:data:`HTTP_WORDS`) too.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from apispec import BasePlugin
from flask import Response, current_app, request
from flask_smorest import Api
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed

from ..baccarat.rulebook.errors import N_, BaccaratError
from ..contract.jsonio import JSON, dumps
from ..contract.problems import (
    INTERNAL_ERROR_DETAIL,
    PROBLEM_JSON,
    clean,
    domain_problem,
    invalid_request,
    problem_document,
)
from ..contract.schemas.problems import ProblemSchema

log = logging.getLogger(__name__)

#: The titles of the HTTP errors the app answers, and werkzeug's details of
#: those it answers in werkzeug's words (a path or method it has no route
#: for, a 400 of its own), for the ``problems`` catalogue; the app's own
#: details are marked where they are raised.
HTTP_WORDS = (
    N_("Bad Request"),
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_("Unauthorized"),
    N_("Not Found"),
    N_(
        "The requested URL was not found on the server. If you entered the URL manually please check "
        "your spelling and try again."
    ),
    N_("Method Not Allowed"),
    N_("The method is not allowed for the requested URL."),
    N_("Request Entity Too Large"),
    N_("Unsupported Media Type"),
    N_("Internal Server Error"),
)


def problem_response(body: dict[str, Any], headers: Mapping[str, str] | None = None) -> Response:
    """A Flask response carrying a problem document; its ``instance`` is the
    request's path, cut as any text quoted from a request is."""
    body.setdefault("instance", clean(request.path))
    response = current_app.response_class(dumps(body), status=body["status"], mimetype=PROBLEM_JSON)
    response.headers.update(headers or {})
    return response


def rules_problem(error: BaccaratError) -> Response:
    """A request that is valid JSON but breaks the rules of the game: 422."""
    return problem_response(domain_problem(error))


class ProblemApi(Api):
    """flask-smorest's Api, answering and documenting errors as problems."""

    ERROR_SCHEMA = ProblemSchema

    def handle_http_exception(self, error: HTTPException) -> Response:
        """Any HTTP error, including the 422 that request validation raises."""
        return problem_response(*http_problem(error))


def http_problem(error: HTTPException) -> tuple[dict[str, Any], dict[str, str]]:
    """The problem document of an HTTP error, and the headers it goes with."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    if status == 422 and "messages" in data:
        return invalid_request(data["messages"]), {}
    if status >= 500:
        # Never a stack trace to the caller; the log keeps it.
        if isinstance(error, InternalServerError) and error.original_exception is not None:
            log.error("unhandled error", exc_info=error.original_exception)
        detail = INTERNAL_ERROR_DETAIL
    else:
        detail = error.description or ""
    headers = {}
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        # werkzeug lists them in a set's order, which changes from one process
        # to the next: the same request gets the same answer.
        headers["Allow"] = ", ".join(sorted(error.valid_methods))
    return problem_document(status, error.name, detail), headers


class OperationParameters(BasePlugin):
    """apispec plugin: a path's variable parts (``{table}``) are documented
    on each of its operations, not on the path, so that every entry of a
    path item is an operation (as the document's readers and generated
    clients take it)."""

    def path_helper(
        self,
        path: str | None = None,
        operations: dict[Any, Any] | None = None,
        parameters: list[dict[Any, Any]] | None = None,
        **kwargs: Any,
    ) -> str | None:
        if parameters and operations:
            for operation in operations.values():
                operation["parameters"] = [*parameters, *operation.get("parameters", [])]
            parameters.clear()
        return None


class ProblemMediaType(BasePlugin):
    """apispec plugin: the API's shared responses are its errors, so their
    content is declared as ``application/problem+json``."""

    def response_helper(self, response: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        content = response.get("content", {})
        if JSON not in content:
            return None
        return {"content": {PROBLEM_JSON if key == JSON else key: value for key, value in content.items()}}
