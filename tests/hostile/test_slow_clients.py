"""Slow clients cannot starve the service.

64 connections are held open at once, of four kinds: idle connections that
send nothing; slowloris clients that send a header byte every half second;
clients that declare a 1,000-byte body and trickle it; and clients that ask
again and again for a large answer (a whole shoe) and never read it. While
they hang on, the probes a kubelet and a platform send (GET /livez, GET
/readyz, a valid POST /v1/rounds) must each be answered 200, for 20 rounds
of probes over several seconds. A starved server answers none of them while
the slow clients hang on (each holds a sync worker for gunicorn's 30 s
timeout); how fast the answers come is measured by ``make bench``
(bench/hostile.py), not asserted here, since a loaded machine slows any
answer.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest

from tests.servers import Server

from .helpers import LOOPBACK, ROUND, AnswerError, call, request_bytes

pytestmark = pytest.mark.server

PER_KIND = 16  # x 4 kinds = 64 slow connections
TICK = 0.5  # seconds between two bytes of a slow client
PROBE_ROUNDS = 20
PROBE_PAUSE = 0.3
#: Only so that a starved server ends the test: far less than the 30 s a slow
#: client holds a starved worker, far more than any answer of a served probe.
PROBE_TIMEOUT = 10.0
LARGE_ANSWER = request_bytes("POST", "/v1/shoes", json.dumps({"seed": "s", "include_shoe": True}).encode())
#: Pipelined requests a never-reading client sends at once (each answer is about 60 KB).
PIPELINED = 8


def _open(port: int, rcvbuf: int | None = None) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        # A small receive window: the server's writes block soon, as they do
        # for a client on a slow link that stops reading.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(5)
    sock.connect((LOOPBACK, port))
    return sock


def _send_some(sock: socket.socket, data: bytes) -> None:
    """Send what the socket takes now; a slow client never waits on the
    server, and a server that closed on it is within its rights."""
    with contextlib.suppress(OSError):
        sock.setblocking(False)
        sock.send(data)


class SlowClients:
    """The 64 slow connections, and one thread that feeds the trickling ones."""

    def __init__(self, port: int) -> None:
        self.idle: list[socket.socket] = []
        self.slowloris: list[socket.socket] = []
        self.trickle: list[socket.socket] = []
        self.unread: list[socket.socket] = []
        self.stop = threading.Event()
        try:
            for _ in range(PER_KIND):
                self.idle.append(_open(port))
                sock = _open(port)
                sock.sendall(f"GET /livez HTTP/1.1\r\nHost: {LOOPBACK}\r\nX-Slow: ".encode())
                self.slowloris.append(sock)
                sock = _open(port)
                sock.sendall(
                    f"POST /v1/rounds HTTP/1.1\r\nHost: {LOOPBACK}\r\nContent-Type: application/json\r\n"
                    "Content-Length: 1000\r\n\r\n{".encode()
                )
                self.trickle.append(sock)
                sock = _open(port, rcvbuf=4096)
                _send_some(sock, LARGE_ANSWER * PIPELINED)
                self.unread.append(sock)
        except BaseException:
            self.close()
            raise
        self.feeder = threading.Thread(target=self._feed, name="slow-clients", daemon=True)
        self.feeder.start()

    def _feed(self) -> None:
        while not self.stop.wait(TICK):
            for sock in self.slowloris:
                _send_some(sock, b"a")
            for sock in self.trickle:
                _send_some(sock, b" ")
            for sock in self.unread:
                _send_some(sock, LARGE_ANSWER)

    def close(self) -> None:
        self.stop.set()
        if hasattr(self, "feeder"):
            self.feeder.join(timeout=5)
        for sock in (*self.idle, *self.slowloris, *self.trickle, *self.unread):
            sock.close()


@pytest.fixture
def slow_clients(server: Server) -> Iterator[SlowClients]:
    clients = SlowClients(server.port)
    try:
        time.sleep(1)  # let the server accept them all before the first probe
        yield clients
    finally:
        clients.close()


PROBES = (
    ("GET", "/livez", None),
    ("GET", "/readyz", None),
    ("POST", "/v1/rounds", ROUND),
)


def probe(server: Server, method: str, path: str, body: object) -> str | None:
    """None when the probe was answered 200, else what went wrong."""
    try:
        answer = call(server.port, method, path, body, timeout=PROBE_TIMEOUT)
    except (OSError, AnswerError) as error:
        return f"{method} {path}: {error!r}"
    if answer.status != 200:
        return f"{method} {path}: {answer.status} after {answer.elapsed:.2f} s"
    return None


def test_probes_are_answered_while_64_slow_clients_hang_on(server: Server, slow_clients: SlowClients) -> None:
    assert slow_clients.feeder.is_alive()
    for number in range(PROBE_ROUNDS):
        for method, path, body in PROBES:
            failure = probe(server, method, path, body)
            # Stop at the first failure: a starved server would make every
            # later probe wait out its timeout too.
            assert failure is None, f"probe round {number + 1} of {PROBE_ROUNDS}: {failure}"
        time.sleep(PROBE_PAUSE)
    assert slow_clients.feeder.is_alive(), "the slow clients kept trickling throughout"
