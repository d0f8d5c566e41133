"""Graceful shutdown: SIGTERM to the gunicorn master while requests are in
flight. Each of them completes with 200, then the server exits cleanly.

This is what Kubernetes does to a pod (after the preStop sleep): the requests
a pod holds when it is told to stop are answered, not dropped. The requests
are held inside the workers until the master has logged the signal, then
released, so the test depends on no sleep of a chosen length. How long the
stop takes is no assertion here (a loaded machine slows it): nothing may be
cut off by gunicorn's graceful_timeout (no worker killed, exit code 0), and
make bench reports the time from SIGTERM to exit (bench/load.py).
"""

import http.client
import json
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service.app import create_app
from tests.servers import gunicorn

pytestmark = pytest.mark.server

IN_FLIGHT = 3
#: The longest a request is held waiting for the test to release it (it is
#: released as soon as the master has been told to stop; this only ends a hung test).
HOLD_LIMIT_SECONDS = 60
RELEASE = "released"
ROUND = {"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "25.00"}]}


def slow_app():
    """The real app behind a layer that, for requests carrying ``X-Hold``,
    drops a marker file (the request is now inside a worker) and holds the
    request until the test drops the file ``released`` beside the markers."""
    app = create_app()
    markers = Path(os.environ["SHUTDOWN_MARKERS"])

    def held(environ, start_response):
        if environ.get("HTTP_X_HOLD") is not None:
            (markers / environ["HTTP_X_REQUEST_ID"]).touch()
            deadline = time.monotonic() + HOLD_LIMIT_SECONDS
            while not (markers / RELEASE).exists() and time.monotonic() < deadline:
                time.sleep(0.02)
        return app(environ, start_response)

    return held


def post_round(port, number):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2 * HOLD_LIMIT_SECONDS)
    try:
        headers = {
            "Content-Type": "application/json",
            "X-Hold": "until released",
            "X-Request-ID": f"held-{number}",
        }
        connection.request("POST", "/v1/rounds", body=json.dumps(ROUND), headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def wait_for(predicate, timeout):
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.02)


@dataclass(frozen=True)
class Stopped:
    """What a stop with requests in flight gave."""

    #: Each held request's status and JSON body.
    results: list[tuple[int, Any]]
    exit_code: int
    #: From SIGTERM to the master's exit (make bench reports it).
    seconds: float
    #: The server's log messages.
    messages: list[str]


def stop_with_requests_in_flight(directory: Path, in_flight: int = IN_FLIGHT) -> Stopped:
    """Start the held app under as many workers as requests (a gevent
    worker may still take several of them), send ``in_flight`` requests,
    SIGTERM the master once they are all inside a worker, release them once
    the master has taken the signal, and wait for the exit."""
    markers, log = directory / "markers", directory / "gunicorn.log"
    markers.mkdir()
    env = {"SHUTDOWN_MARKERS": str(markers)}
    with (
        gunicorn(workers=in_flight, env=env, log=log, app="tests.test_shutdown:slow_app()") as server,
        ThreadPoolExecutor(in_flight) as pool,
    ):
        answers = [pool.submit(post_round, server.port, number) for number in range(in_flight)]
        wait_for(lambda: len(list(markers.iterdir())) == in_flight, timeout=HOLD_LIMIT_SECONDS)
        assert not any(answer.done() for answer in answers), "the requests must still be in flight"
        signalled = time.monotonic()
        os.kill(server.process.pid, signal.SIGTERM)
        wait_for(lambda: "Handling signal: term" in log.read_text(), timeout=HOLD_LIMIT_SECONDS)
        (markers / RELEASE).touch()  # the requests go on only once the master is stopping
        results = [answer.result(timeout=HOLD_LIMIT_SECONDS) for answer in answers]
        exit_code = server.process.wait(timeout=HOLD_LIMIT_SECONDS)
        seconds = time.monotonic() - signalled
    messages = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    return Stopped(results, exit_code, seconds, messages)


def test_sigterm_lets_requests_in_flight_complete(tmp_path):
    stopped = stop_with_requests_in_flight(tmp_path)

    assert [status for status, _ in stopped.results] == [200] * IN_FLIGHT
    assert all(
        body["outcome"] == "banker" and body["settlement"]["net"] == "23.75" for _, body in stopped.results
    )
    assert stopped.exit_code == 0
    assert "Handling signal: term" in stopped.messages
    assert "Shutting down: Master" in stopped.messages
    # Nothing was cut off by graceful_timeout: no worker killed, none timed out.
    assert not [m for m in stopped.messages if "SIGKILL" in m or "TIMEOUT" in m]
