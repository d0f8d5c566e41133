"""Request ids: one per request, in every log line and echoed in ``X-Request-ID``.

A caller's ``X-Request-ID`` is kept when it matches
``^[A-Za-z0-9._-]{1,128}$`` (a platform's own trace id, safe to log and to
echo); anything else -- too long, empty, spaces, quotes, newlines -- is
replaced by a fresh id, so a header can never forge log lines or smuggle
markup. The id is known to the code through :func:`current_request_id`.

:class:`RequestId` is the outermost WSGI layer, so even answers given before
Flask sees the request (a 413 for an oversized body) carry the id.
"""

from __future__ import annotations

import contextvars
import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

HEADER = "X-Request-ID"
#: Where the id is kept in the WSGI environ (gunicorn's access log reads it there).
ENVIRON_KEY = "baccarat.request_id"
VALID = re.compile(r"[A-Za-z0-9._-]{1,128}")

_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def current_request_id() -> str | None:
    """The id of the request being handled by this thread, or None outside requests."""
    return _current.get()


def accept_or_generate(received: str | None) -> str:
    """The caller's id if it is valid, otherwise a new random one.

    >>> accept_or_generate("checkout-7f3a.2")
    'checkout-7f3a.2'
    >>> accept_or_generate("two words") == "two words"
    False
    """
    if received is not None and VALID.fullmatch(received):
        return received
    return new_request_id()


_prefix: str | None = None
_serial = itertools.count()


def new_request_id() -> str:
    """A fresh id, 32 hex digits: 64 random bits drawn once per process,
    then this process's request count. Unique across processes and
    restarts, and no system call per request (an id need not be secret)."""
    global _prefix
    if _prefix is None:
        _prefix = os.urandom(8).hex()
    return f"{_prefix}{next(_serial):016x}"


def _new_prefix_after_fork() -> None:
    global _prefix
    _prefix = None


_fork_hook_registered = False


def _draw_a_new_prefix_in_forked_children() -> None:
    """Workers forked from a process that already made ids (gunicorn's
    ``preload_app``) must not share its prefix."""
    global _fork_hook_registered
    if not _fork_hook_registered:
        os.register_at_fork(after_in_child=_new_prefix_after_fork)
        _fork_hook_registered = True


class RequestId:
    """WSGI middleware: choose the request id, expose it while the request
    is handled, and echo it on every response."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app
        _draw_a_new_prefix_in_forked_children()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        request_id = accept_or_generate(environ.get("HTTP_X_REQUEST_ID"))
        environ[ENVIRON_KEY] = request_id
        _current.set(request_id)

        def start_with_id(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            headers = _without_id(headers)  # the application's own list, or a new one
            headers.append((HEADER, request_id))
            return start_response(status, headers, *exc_info)

        try:
            body = self.app(environ, start_with_id)
        except BaseException:
            _forget()
            raise
        return _Closing(body, _forget)


def _without_id(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The headers, less any request id the application set itself."""
    for name, _ in headers:
        if len(name) == len(HEADER) and name.lower() == "x-request-id":
            return [(n, v) for n, v in headers if n.lower() != "x-request-id"]
    return headers


def _forget() -> None:
    _current.set(None)


class _Closing:
    """The response body, running ``on_close`` once the server has sent it
    (the id stays current while a streamed body is produced)."""

    def __init__(self, body: Iterable[bytes], on_close: Callable[[], None]) -> None:
        self.body = body
        self.on_close = on_close

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.body)

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            self.on_close()
