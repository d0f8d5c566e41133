"""Pieces by shoe number, the same results whoever computes them, and a
cluster that cannot be reached or loses its workers named as such."""

from __future__ import annotations

import socket
import socketserver
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import HTTPServer, SimpleHTTPRequestHandler

import pytest
from distributed import Client, LocalCluster

from service.baccarat.odds.simulation import tally_shoes
from service.baccarat.tables.rules import TABLES
from service.certification import workers
from service.certification.workers import (
    ClusterFailed,
    DaskWorkers,
    InProcess,
    address_problem,
    pieces,
    probe,
)


def test_pieces_cover_the_shoes_once_in_order():
    assert pieces(5, 7, 3) == [(5, 3), (8, 3), (11, 1)]
    assert pieces(0, 0, 10) == []


def test_in_process_results_come_in_piece_order_and_report_progress():
    seen: list[int] = []
    rules = TABLES["standard"].rules
    parts = InProcess().map(partial(tally_shoes, rules, "w"), pieces(0, 12, 5), seen.append)
    assert seen == [5, 5, 2]
    assert sum(parts) == tally_shoes(rules, "w", 0, 12)
    # A Dask cluster's workers run the same function on the same pieces:
    # tests/certification/test_certify.py runs the command on two of them.


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        ("tcp://127.0.0.1:8786", None),
        ("127.0.0.1:8786", None),
        ("tls://scheduler.example:8786", None),
        ("tcp://host", "missing port number in address 'host'"),
        ("http://host:80", "a scheduler's address starts tcp:// or tls://, not http://"),
        ("tcp://:8786", "no host in 'tcp://:8786'"),
        ("::::", "invalid address '::::'; maybe: ipv6 needs brackets like [::1]"),
    ],
)
def test_a_malformed_address_is_found_before_any_connection(address, problem):
    assert address_problem(address) == problem


class _Junk(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        self.request.sendall(b"\xff" * 64)  # a frame count and lengths of exabytes


@contextmanager
def _serving(server: socketserver.TCPServer) -> Iterator[str]:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_what_is_not_a_scheduler_is_named_within_the_timeout():
    http = HTTPServer(("127.0.0.1", 0), SimpleHTTPRequestHandler)
    with (
        _serving(http) as address,
        pytest.raises(ClusterFailed, match=f"^no Dask scheduler answered at {address}"),
    ):
        probe(address, timeout=1)
    junk = socketserver.TCPServer(("127.0.0.1", 0), _Junk)
    with _serving(junk) as address, pytest.raises(ClusterFailed, match=address):
        probe(address, timeout=1)
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        closed = f"tcp://127.0.0.1:{free.getsockname()[1]}"
    with pytest.raises(ClusterFailed, match=closed):
        probe(closed, timeout=1)


def test_a_scheduler_answers_the_probe_and_a_run_without_workers_fails(monkeypatch):
    monkeypatch.setattr(workers, "WORKERLESS_SECONDS", 1.0)
    monkeypatch.setattr(workers, "POLL_SECONDS", 0.2)
    with (
        LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        assert probe(cluster.scheduler_address)["type"] == "Scheduler"
        cluster_workers = DaskWorkers(client, "no workers")
        with pytest.raises(ClusterFailed, match="the cluster has had no worker for 1 s"):
            cluster_workers.map(partial(tally_shoes, TABLES["standard"].rules, "w"), pieces(0, 4, 2), print)


def _slow(first: int, count: int) -> int:
    time.sleep(0.2)
    return first


def test_a_scheduler_gone_during_the_run_is_a_cluster_failure():
    cluster = LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None
    )
    client = Client(cluster)
    try:
        threading.Timer(1.0, cluster.close).start()
        with pytest.raises(ClusterFailed, match=r"^the Dask scheduler is gone") as failed:
            DaskWorkers(client, "one worker").map(_slow, pieces(0, 200, 1), lambda _: None)
        # One line that says what happened: not Dask's count of futures cancelled.
        assert "\n" not in str(failed.value)
        assert "Futures" not in str(failed.value)
    finally:
        client.close(timeout=5)
        cluster.close()


def test_a_worker_gone_during_the_run_is_named_and_its_pieces_computed_again(monkeypatch):
    monkeypatch.setattr(workers, "POLL_SECONDS", 0.1)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, protocol="tcp", dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        client.wait_for_workers(2)
        cluster_workers = DaskWorkers(client, "two workers")
        threading.Timer(0.6, cluster.scale, (1,)).start()
        assert cluster_workers.map(_slow, pieces(0, 20, 1), lambda _: None) == list(range(20))
    assert len(cluster_workers.lost) == 1
    assert cluster_workers.lost[0].startswith("tcp://127.0.0.1:")
