"""gunicorn's master's own port: the workers' metrics, and liveness that no busy worker holds up."""

from __future__ import annotations

import json
import os
import signal
import socket
import urllib.error
import urllib.request

import pytest
from werkzeug.test import Client

from service.server.exposition import operator_app
from tests.hostile.helpers import call
from tests.servers import gunicorn, worker_pids


def metrics(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"# the metrics\n"]


@pytest.fixture
def port_client() -> Client:
    return Client(operator_app(metrics))


def test_livez_answers_ok(port_client: Client) -> None:
    answer = port_client.get("/livez")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "application/json"
    assert json.loads(answer.data) == {"status": "ok"}


def test_metrics_are_the_metrics_app(port_client: Client) -> None:
    answer = port_client.get("/metrics")
    assert (answer.status_code, answer.data) == (200, b"# the metrics\n")


@pytest.mark.parametrize("path", ["/", "/readyz", "/v1/rounds", "/metrics/x"])
def test_anything_else_is_a_404_problem(port_client: Client, path: str) -> None:
    answer = port_client.get(path)
    assert answer.status_code == 404
    assert answer.headers["Content-Type"] == "application/problem+json"
    assert json.loads(answer.data)["status"] == 404


@pytest.mark.server
def test_liveness_answers_while_every_worker_is_frozen() -> None:
    """The kubelet's liveness probe asks the master: with both workers stopped
    mid-flight (as busy as a worker can be), it still answers, while a probe
    on the API's port gets nothing."""
    with gunicorn(workers=2) as server:
        pids = worker_pids(server.process.pid)
        assert len(pids) == 2
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        try:
            answer = call(server.metrics_port, "GET", "/livez")
            assert answer.status == 200, str(answer)
            with pytest.raises((urllib.error.URLError, socket.timeout, TimeoutError)):
                urllib.request.urlopen(server.url + "/readyz", timeout=1)
        finally:
            for pid in pids:
                os.kill(pid, signal.SIGCONT)
        assert call(server.port, "GET", "/readyz").status == 200
