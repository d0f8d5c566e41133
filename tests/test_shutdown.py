"""Graceful shutdown: SIGTERM to the gunicorn master while requests are in
flight. Each of them completes with 200, then the server exits cleanly.

This is what Kubernetes does to a pod (after the preStop sleep): the requests
a pod holds when it is told to stop are answered, not dropped.
"""

import http.client
import json
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from service.app import create_app
from tests.servers import gunicorn

pytestmark = pytest.mark.server

IN_FLIGHT = 3
HOLD_SECONDS = 2.0
ROUND = {"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "25.00"}]}


def slow_app():
    """The real app behind a layer that, for requests carrying
    ``X-Hold: <seconds>``, drops a marker file (the request is now inside a
    worker) and then holds the request that long before serving it."""
    app = create_app()
    markers = Path(os.environ["SHUTDOWN_MARKERS"])

    def held(environ, start_response):
        hold = environ.get("HTTP_X_HOLD")
        if hold is not None:
            (markers / environ["HTTP_X_REQUEST_ID"]).touch()
            time.sleep(float(hold))
        return app(environ, start_response)

    return held


def post_round(port, number):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {
            "Content-Type": "application/json",
            "X-Hold": str(HOLD_SECONDS),
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


def test_sigterm_lets_requests_in_flight_complete(tmp_path):
    markers, log = tmp_path / "markers", tmp_path / "gunicorn.log"
    markers.mkdir()
    env = {"SHUTDOWN_MARKERS": str(markers)}
    with (
        # A sync worker serves one request at a time: one in flight in each worker.
        gunicorn(workers=IN_FLIGHT, env=env, log=log, app="tests.test_shutdown:slow_app()") as server,
        ThreadPoolExecutor(IN_FLIGHT) as pool,
    ):
        answers = [pool.submit(post_round, server.port, number) for number in range(IN_FLIGHT)]
        wait_for(lambda: len(list(markers.iterdir())) == IN_FLIGHT, timeout=20)
        assert not any(answer.done() for answer in answers), "the requests must still be in flight"
        signalled = time.monotonic()
        os.kill(server.process.pid, signal.SIGTERM)
        results = [answer.result(timeout=30) for answer in answers]
        exit_code = server.process.wait(timeout=30)
        stopped_after = time.monotonic() - signalled

    assert [status for status, _ in results] == [200] * IN_FLIGHT
    assert all(body["outcome"] == "banker" and body["settlement"]["net"] == "23.75" for _, body in results)
    assert exit_code == 0
    # Well inside graceful_timeout (20 s): nothing was cut off by a kill.
    assert stopped_after < 15
    messages = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    assert "Handling signal: term" in messages
    assert "Shutting down: Master" in messages
    assert not [m for m in messages if "SIGKILL" in m or "TIMEOUT" in m]
