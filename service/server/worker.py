"""The gunicorn worker: gevent, taking turns, answering gunicorn's own errors as problems.

Why gevent: a sync worker serves one connection at a time, so two idle or
trickling clients stall a two-worker pod until gunicorn's timeout, and
health probes queue behind them (docs/performance.md, "Slow and hostile clients").
gunicorn's gevent worker reads requests and writes answers cooperatively,
so a slow connection holds only its own greenlet; the app's CPU work stays
bounded per request by the request limits.

Why turns: gunicorn's keep-alive loop reads a connection's next request as
soon as it has answered the last, and gevent switches greenlets only when a
socket would block. A client that sends its next request before the worker
has finished logging the last one always finds it waiting, so its greenlet
is served again and again while the other connections' requests wait, for
hundreds of milliseconds. :func:`take_turns`, gunicorn's ``post_request``
hook, waits after each answer until the event loop has run everything else
that is ready, so every connection is served in turn
(docs/adr/0007-fair-turns-and-liveness-from-the-master.md).

Why a subclass: a request that gunicorn refuses before the app runs (a
header line too long, more than 100 headers, a bad chunk, Content-Length
with Transfer-Encoding) gets gunicorn's small HTML page. :class:`Worker`
overrides gunicorn's public ``handle_error`` to answer with the same
``application/problem+json`` document and ``X-Request-ID`` as every other
error of the service. docs/adr/0002-gunicorn-error-answers.md records it.
"""

from __future__ import annotations

import logging
import ssl
from typing import Any

import gevent
from gunicorn.http import errors
from gunicorn.workers.ggevent import GeventWorker

from ..contract.jsonio import dumps
from ..contract.problems import INTERNAL_ERROR_DETAIL, MAX_TEXT, PROBLEM_JSON, problem_document
from .middleware import HEADER, accept_or_generate

log = logging.getLogger("gunicorn.error")

#: What gunicorn answers to each error it raises while reading a request
#: (``gunicorn.workers.base.Worker.handle_error``), in the order it checks
#: them: a response header the app made is the app's fault, hence first.
#: tests/server/test_worker.py holds this table to gunicorn's own answers.
REFUSALS: tuple[tuple[tuple[type[BaseException], ...], int, str], ...] = (
    ((errors.InvalidResponseHeader, errors.InvalidResponseHeaderName), 500, "Internal Server Error"),
    ((errors.UnsupportedTransferCoding,), 501, "Not Implemented"),
    ((errors.ConfigurationProblem,), 500, "Internal Server Error"),
    ((errors.LimitRequestLine,), 414, "URI Too Long"),
    ((errors.ExpectationFailed,), 417, "Expectation Failed"),
    ((errors.LimitRequestHeaders,), 431, "Request Header Fields Too Large"),
    ((errors.ForbiddenProxyRequest, ssl.SSLError), 403, "Forbidden"),
    (
        (
            errors.InvalidRequestLine,
            errors.InvalidRequestMethod,
            errors.InvalidHTTPVersion,
            errors.InvalidHeader,
            errors.InvalidHeaderName,
            errors.InvalidProxyLine,
            errors.InvalidSchemeHeaders,
            errors.ObsoleteFolding,
            errors.InvalidH2CPreface,
            errors.InvalidChunkSize,
            errors.ChunkMissingTerminator,
            errors.InvalidChunkExtension,
        ),
        400,
        "Bad Request",
    ),
)


def refusal(error: BaseException) -> tuple[int, str, str]:
    """Status, title and detail of the answer to ``error``, raised by gunicorn
    while reading a request, or by anything else while answering it: the
    status gunicorn itself would give; anything it does not name is a 500."""
    for kinds, status, title in REFUSALS:
        if isinstance(error, kinds):
            return status, title, str(error) if status < 500 else INTERNAL_ERROR_DETAIL
    return 500, "Internal Server Error", INTERNAL_ERROR_DETAIL


def problem_bytes(status: int, title: str, detail: str, request_id: str) -> bytes:
    """A whole HTTP/1.1 answer carrying a problem; the connection closes after it."""
    body = dumps(problem_document(status, title, detail))
    head = (
        f"HTTP/1.1 {status} {title}\r\nConnection: close\r\nContent-Type: {PROBLEM_JSON}\r\n"
        f"Content-Length: {len(body)}\r\n{HEADER}: {request_id}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class Worker(GeventWorker):
    """gunicorn's gevent worker, answering its own errors as problems."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        status, title, detail = refusal(exc)
        if status >= 500:
            log.exception("Error handling request", exc_info=exc)
        else:
            log.warning("Invalid request from %s: %s", (addr or ("",))[0], exc)
        received = None
        if req is not None:
            received = next((value for name, value in req.headers if name == "X-REQUEST-ID"), None)
        try:
            client.sendall(problem_bytes(status, title, detail[:MAX_TEXT], accept_or_generate(received)))
        except OSError:
            log.debug("Failed to send error message.")


def take_turns(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    """gunicorn's ``post_request`` hook: once an answer is written, let every
    other connection whose request is ready be served before this one reads
    its next request.

    ``gevent.idle()`` returns when the event loop has nothing else of the same
    priority pending: the loop first polls the sockets and runs each greenlet
    they woke. (``gevent.sleep(0)`` is not enough: it runs only the greenlets
    already scheduled, before the loop polls again.) Under any other worker
    class (the sync reference of the benchmarks) there is nothing to wait for.
    """
    if isinstance(worker, GeventWorker):
        gevent.idle()
