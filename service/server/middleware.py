"""The WSGI layers around the Flask app, outermost first:

1. :class:`RequestId` chooses the request's id, keeps it for the logs and
   echoes it in ``X-Request-ID`` on every answer;
2. :class:`RequestMetrics` times and counts every answer by route;
3. :class:`BodyLimit` reads the body, refusing one over the limit with 413.

So even the answers given before Flask sees a request (a 413) carry an id
and are counted. :func:`wrap` stacks them. No Flask here: gunicorn's master
loads this module too, for the request id its log lines carry
(:mod:`.logs`) and the worker's own error answers (:mod:`.worker`).
"""

from __future__ import annotations

import contextvars
import io
import re
import secrets
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from ..contract.jsonio import dumps
from ..contract.problems import PROBLEM_JSON, problem_document

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

# --- 1. request ids -----------------------------------------------------------------

HEADER = "X-Request-ID"
#: Where the id is kept in the WSGI environ (gunicorn's access log reads it there).
ENVIRON_KEY = "baccarat.request_id"
#: A caller's id is kept only in this form: safe to log and to echo.
VALID_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")

#: The one global a request touches: a context variable, so each thread or
#: greenlet sees its own request's id (the log filter reads it).
_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def current_request_id() -> str | None:
    """The id of the request being handled here, or None outside requests."""
    return _current.get()


def accept_or_generate(received: str | None) -> str:
    """The caller's id if it is valid, otherwise a new random one.

    >>> accept_or_generate("checkout-7f3a.2")
    'checkout-7f3a.2'
    >>> accept_or_generate("two words") == "two words"
    False
    """
    if received is not None and VALID_ID.fullmatch(received):
        return received
    return secrets.token_hex(16)


class RequestId:
    """Choose the request id, expose it while the app makes the answer,
    and echo it on the answer (replacing any the application set). Every
    answer of this service is made in full by the app call."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        request_id = accept_or_generate(environ.get("HTTP_X_REQUEST_ID"))
        environ[ENVIRON_KEY] = request_id
        token = _current.set(request_id)

        def start_with_id(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            headers = [(name, value) for name, value in headers if name.lower() != "x-request-id"]
            headers.append((HEADER, request_id))
            return start_response(status, headers, *exc_info)

        try:
            return self.app(environ, start_with_id)
        finally:
            _current.reset(token)


# --- 2. metrics ------------------------------------------------------------------


class Recorder(Protocol):
    def observe_request(self, endpoint: str, method: str, status: str, seconds: float) -> None: ...


class RequestMetrics:
    """Count and time every answer by route template (``endpoint_of``),
    method and status; the time ends when the answer is ready to send."""

    def __init__(
        self, app: WSGIApp, recorder: Recorder, endpoint_of: Callable[[dict[str, Any]], str]
    ) -> None:
        self.app = app
        self.recorder = recorder
        self.endpoint_of = endpoint_of

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        status = ["500"]

        def start_and_note(code: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            status[0] = code[:3]
            return start_response(code, headers, *exc_info)

        try:
            return self.app(environ, start_and_note)
        finally:
            self.recorder.observe_request(
                self.endpoint_of(environ),
                environ.get("REQUEST_METHOD", ""),
                status[0],
                time.perf_counter() - started,
            )


# --- 3. the body limit -----------------------------------------------------------


class BodyLimit:
    """Refuse a body of more than ``max_bytes`` with 413, before the app runs.

    With ``Content-Length`` the check costs nothing. A chunked body has no
    length, and a plain limit could cut it short instead of refusing it, so
    it is read here, up to ``max_bytes + 1`` bytes, and refused as a whole
    past the limit: a truncated slip is never settled. The app then sees an
    ordinary body with a ``Content-Length``.
    """

    def __init__(self, app: WSGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if not chunked:
            length = environ.get("CONTENT_LENGTH") or "0"
            if not length.isdigit():
                return refuse(environ, start_response, 400, "Bad Request", "Content-Length is not a number")
            if int(length) > self.max_bytes:
                return self.too_large(environ, start_response)
            return self.app(environ, start_response)
        body = read_at_most(environ["wsgi.input"], self.max_bytes + 1)
        if len(body) > self.max_bytes:
            return self.too_large(environ, start_response)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)

    def too_large(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        detail = f"The body is larger than {self.max_bytes} bytes"
        return refuse(environ, start_response, 413, "Content Too Large", detail)


def read_at_most(stream: Any, limit: int) -> bytes:
    """Up to ``limit`` bytes of ``stream``."""
    parts, size = [], 0
    while size < limit and (part := stream.read(min(65536, limit - size))):
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def refuse(
    environ: dict[str, Any], start_response: StartResponse, status: int, title: str, detail: str
) -> Iterator[bytes]:
    """Answer with a problem and close the connection (the rest of the body is not read)."""
    body = dumps(problem_document(status, title, detail, instance=environ.get("PATH_INFO", "/")))
    headers = [("Content-Type", PROBLEM_JSON), ("Content-Length", str(len(body))), ("Connection", "close")]
    start_response(f"{status} {title}", headers)
    return iter([body])


def wrap(
    app: WSGIApp,
    *,
    max_body_bytes: int,
    recorder: Recorder,
    endpoint_of: Callable[[dict[str, Any]], str],
    around: Callable[[WSGIApp], WSGIApp] | None = None,
) -> WSGIApp:
    """The Flask app inside the layers above, in their order; ``around``, when
    given (traces: :mod:`.tracing`), puts its own layers just inside the
    request id, so that the request's span holds every other layer's work."""
    inner = RequestMetrics(BodyLimit(app, max_body_bytes), recorder, endpoint_of)
    return RequestId(inner if around is None else around(inner))
