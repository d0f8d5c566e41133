"""Thread-safe from the very first request: a freshly started server, hit by
many concurrent first requests on every endpoint at once, answers each with a
2xx or a 4xx problem, never a 5xx and never a dropped connection.

Anything built lazily on a request path (a schema compiled on first use, a
cache filled without a lock) is built by several threads at once only on a
fresh process: a warmed-up server hides the race. So every test here starts a
new server process, waits only for ``/readyz``, then releases all its
requests together through a :class:`threading.Barrier`. A race does not lose
every time, so each server is started several times.

Two threaded servers: gunicorn's gthread worker (command-line options override
gunicorn.conf.py's sync worker) and werkzeug's threaded development server.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.servers import ROOT, free_port, gunicorn, serving

pytestmark = pytest.mark.server

#: Fresh starts per server: a lost race shows on some starts only.
STARTS = 3
#: Each request is sent this many times in the same burst, so that two
#: threads hit the same endpoint's first use together (the same schema, the
#: same cache), not only different endpoints side by side.
COPIES = 2
#: Seconds allowed for one request of the burst; the slowest (exact odds)
#: takes well under one alone.
REQUEST_TIMEOUT = 30

CARDS = ["9S", "KH", "2D", "7C", "5H"]
JSON = "application/json"
PROBLEM = "application/problem+json"


@dataclass(frozen=True)
class Call:
    """One request of the burst and the status it must get."""

    method: str
    path: str
    expected: int
    body: bytes | None = None
    content_type: str | None = None


def post(path: str, body: object, expected: int = 200) -> Call:
    return Call("POST", path, expected, json.dumps(body).encode(), JSON)


def get(path: str) -> Call:
    return Call("GET", path, 200)


#: Every endpoint with a realistic valid request, and invalid requests that
#: exercise the error paths (parser, schema validation, problem rendering),
#: which are lazily built too if anything is. Not /metrics: it is moving off
#: the API port.
CALLS = (
    post("/v1/rounds", {"cards": CARDS, "bets": [{"type": "banker", "amount": "25.00"}]}),
    post("/v1/rounds", {"seed": "table-7/shoe-1"}),
    post(
        "/v1/settlements",
        {"cards": CARDS, "slips": [{"id": "seat-1", "bets": [{"type": "player", "amount": "10"}]}]},
    ),
    post("/v1/shoes", {"seed": "s", "to_round": 3}),
    post("/v1/roads", {"results": ["banker", "tie", "player"]}),
    post("/v1/odds", {"table": "standard", "removed": ["9S", "KH"]}),
    post("/v1/seeds", {}),
    get("/v1/rules"),
    get("/v1/tables"),
    get("/livez"),
    get("/readyz"),
    get("/openapi.json"),
    get("/openapi.yaml"),
    get("/docs"),
    # An exponent is refused, never read as 1000.
    post("/v1/rounds", {"bets": [{"type": "banker", "amount": "1e3"}]}, expected=422),
    Call("POST", "/v1/rounds", 400, b"not json", JSON),
    post("/v1/odds", {"removed": [1]}, expected=422),
)


@dataclass(frozen=True)
class Answer:
    """What a request got: a status and content type, or the error that stopped it."""

    call: Call
    status: int | None = None
    content_type: str | None = None
    body: bytes = b""
    error: str | None = None

    def problem(self) -> str | None:
        """Why this answer is wrong, or None."""
        if self.error is not None:
            return f"no HTTP answer: {self.error}"
        assert self.status is not None
        if self.status >= 500:
            return f"{self.status} (server error): {self.body[:300]!r}"
        if self.status != self.call.expected:
            return f"{self.status}, expected {self.call.expected}: {self.body[:300]!r}"
        if self.status >= 400 and (self.content_type or "").split(";")[0].strip() != PROBLEM:
            return f"{self.status} with Content-Type {self.content_type!r}, expected {PROBLEM}"
        return None


def send(port: int, call: Call, barrier: threading.Barrier) -> Answer:
    """Wait for every other thread, then send ``call``; any failure is an answer too."""
    headers = {"Content-Type": call.content_type} if call.content_type else {}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        barrier.wait(timeout=REQUEST_TIMEOUT)
        connection.request(call.method, call.path, body=call.body, headers=headers)
        response = connection.getresponse()
        return Answer(call, response.status, response.getheader("Content-Type"), response.read())
    except Exception as exc:  # a reset, a timeout, a broken barrier: all are failures to report
        return Answer(call, error=f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()


def burst(port: int) -> list[Answer]:
    """Every call, :data:`COPIES` times, each from its own thread, released together."""
    calls = [call for call in CALLS for _ in range(COPIES)]
    barrier = threading.Barrier(len(calls))
    answers: list[Answer | None] = [None] * len(calls)

    def run(index: int) -> None:
        answers[index] = send(port, calls[index], barrier)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=2 * REQUEST_TIMEOUT)
    return [
        answer if answer is not None else Answer(call, error="the thread did not finish")
        for call, answer in zip(calls, answers, strict=True)
    ]


def check(answers: list[Answer], log: Path) -> None:
    __tracebackhide__ = True  # the failure is the list of answers, not this helper's code
    assert len(answers) >= 16  # enough threads for a race to show
    wrong = [
        f"{answer.call.method} {answer.call.path}: {problem}"
        for answer in answers
        if (problem := answer.problem()) is not None
    ]
    if wrong:
        tail = log.read_text(errors="replace")[-4000:] if log.exists() else "(no log)"
        pytest.fail(
            f"{len(wrong)} of {len(answers)} first requests went wrong:\n"
            + "\n".join(wrong)
            + f"\n\nserver log (tail):\n{tail}"
        )


#: The API open (no keys), whatever the environment running the tests says.
OPEN = {"BACCARAT_API_KEYS": None}


@pytest.mark.parametrize("start", range(STARTS))
def test_gunicorn_gthread_first_requests(tmp_path, start):
    log = tmp_path / "gunicorn.log"
    with gunicorn(workers=1, env=OPEN, log=log, args=("-k", "gthread", "--threads", "8")) as server:
        answers = burst(server.port)
    check(answers, log)


@contextlib.contextmanager
def werkzeug_server(log: Path, timeout: float = 30) -> Iterator[int]:
    """werkzeug's threaded development server on a free loopback port, in a
    new process; yields the port and stops the process by its own id."""
    port = free_port()
    code = (
        "from werkzeug.serving import run_simple; from service.app import create_app; "
        f"run_simple('127.0.0.1', {port}, create_app(), threaded=True)"
    )
    # Open API, and metrics kept in the process (no multiprocess directory).
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in {"BACCARAT_API_KEYS", "PROMETHEUS_MULTIPROC_DIR"}
    }
    with open(log, "ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-c", code], cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT
        )
        url = f"http://127.0.0.1:{port}"
        with serving(process, url, timeout=timeout, name="the werkzeug server", stop_timeout=10):
            yield port


@pytest.mark.parametrize("start", range(STARTS))
def test_werkzeug_threaded_first_requests(tmp_path, start):
    log = tmp_path / "werkzeug.log"
    with werkzeug_server(log) as port:
        answers = burst(port)
    check(answers, log)
