"""Tools for the hostile-client tests: raw HTTP over sockets, /proc readers, bodies of a given size.

Requests go over plain sockets, not http.client or urllib, because the
attacks are malformed or half-sent requests that a client library refuses to
write, and because the answers to check include the ones gunicorn itself
writes before the application sees anything.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.servers import Server, worker_pids

LOOPBACK = "127.0.0.1"
WORKERS = 2
MIB = 1024 * 1024
#: BACCARAT_MAX_BODY_BYTES' default.
MAX_BODY_BYTES = 4 * MIB
#: "Just under the limit": the largest body the service must read and answer
#: itself, rather than refuse by its declared length.
NEAR_LIMIT = MAX_BODY_BYTES - 64
PROBLEM_JSON = "application/problem+json"
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,128}$")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
CARDS = ["9S", "KH", "2D", "7C", "5H"]
#: The bound of a wait that only stops a hung test (a worker booting, a
#: replaced worker going): seconds on an idle machine, far more on a loaded one.
HANG_SECONDS = 60.0
ROUND = {"cards": CARDS, "bets": [{"type": "banker", "amount": "25.00"}]}


# --- raw HTTP -------------------------------------------------------------------


@dataclass
class Answer:
    """An HTTP answer as it came off the wire."""

    status: int
    reason: str
    #: Header names in lower case; a repeated header keeps its last value.
    headers: dict[str, str]
    body: bytes
    #: Seconds from the first byte sent to the last byte read.
    elapsed: float

    def json(self) -> Any:
        """The body as JSON, strictly: UTF-8 that encodes no surrogate (json.loads
        alone would let an encoded lone surrogate through)."""
        return json.loads(self.body.decode("utf-8"))

    def __str__(self) -> str:
        preview = self.body[:300].decode("utf-8", "replace")
        content_type = self.headers.get("content-type")
        return f"{self.status} {self.reason} {content_type} ({len(self.body)} bytes) {preview}"


class AnswerError(AssertionError):
    """No complete HTTP answer: the server closed, reset or stayed silent."""


def request_bytes(
    method: str,
    path: str,
    body: bytes = b"",
    headers: Mapping[str, str] | None = None,
    content_type: str | None = "application/json",
) -> bytes:
    """A whole HTTP/1.1 request, one per connection (``Connection: close``),
    so that an answer ends where the server says it does."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {LOOPBACK}", "Connection: close"]
    if content_type is not None and (body or method == "POST"):
        lines.append(f"Content-Type: {content_type}")
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    lines.extend(f"{name}: {value}" for name, value in (headers or {}).items())
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class _Reader:
    """Buffered reads from a socket with a deadline for the whole answer."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self.sock, self.deadline, self.buffer = sock, deadline, bytearray()

    def _fill(self) -> bool:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise AnswerError("no complete answer before the deadline")
        self.sock.settimeout(left)
        try:
            data = self.sock.recv(1 << 20)
        except TimeoutError:
            raise AnswerError("no complete answer before the deadline") from None
        except ConnectionResetError:
            data = b""
        self.buffer += data
        return bool(data)

    def line(self) -> bytes:
        while (end := self.buffer.find(b"\r\n")) < 0:
            if not self._fill():
                raise AnswerError(f"connection closed mid-line after {bytes(self.buffer[:200])!r}")
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 2]
        return line

    def exactly(self, size: int) -> bytes:
        while len(self.buffer) < size:
            if not self._fill():
                raise AnswerError(f"connection closed after {len(self.buffer)} of {size} body bytes")
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        return data

    def rest(self) -> bytes:
        while self._fill():
            pass
        data = bytes(self.buffer)
        self.buffer.clear()
        return data


def read_answer(sock: socket.socket, deadline: float, started: float) -> Answer:
    """Read one answer: status line, headers, then a body delimited by
    Content-Length, by chunks, or by the end of the connection."""
    reader = _Reader(sock, deadline)
    status_line = reader.line().decode("latin-1")
    version, _, rest = status_line.partition(" ")
    if not version.startswith("HTTP/1."):
        raise AnswerError(f"not an HTTP answer: {status_line!r}")
    code, _, reason = rest.partition(" ")
    headers = {}
    while line := reader.line():
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if "chunked" in headers.get("transfer-encoding", "").lower():
        parts = []
        while size := int(reader.line().split(b";")[0], 16):
            parts.append(reader.exactly(size))
            reader.line()
        while reader.line():  # trailers
            pass
        body = b"".join(parts)
    elif "content-length" in headers:
        body = reader.exactly(int(headers["content-length"]))
    else:
        body = reader.rest()
    return Answer(int(code), reason, headers, body, time.monotonic() - started)


def connect(port: int, timeout: float = 5.0) -> socket.socket:
    return socket.create_connection((LOOPBACK, port), timeout=timeout)


def exchange(port: int, raw: bytes, timeout: float = 10.0) -> Answer:
    """Send ``raw`` on a new connection and read the answer, within ``timeout`` seconds."""
    started = time.monotonic()
    deadline = started + timeout
    with connect(port, timeout) as sock:
        try:
            sock.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            # The server answered before reading everything (a refused
            # header, say) and closed: its answer may still be readable.
            pass
        except TimeoutError:
            raise AnswerError(f"the server did not read the request within {timeout} s") from None
        return read_answer(sock, deadline, started)


def call(
    port: int,
    method: str,
    path: str,
    body: bytes | str | object = None,
    headers: Mapping[str, str] | None = None,
    timeout: float = 10.0,
    content_type: str | None = "application/json",
) -> Answer:
    """One request; ``body`` as bytes or text is sent verbatim, anything else as JSON."""
    if body is None:
        data = b""
    elif isinstance(body, bytes):
        data = body
    elif isinstance(body, str):
        data = body.encode()
    else:
        data = json.dumps(body).encode()
    return exchange(port, request_bytes(method, path, data, headers, content_type), timeout)


def assert_problem(answer: Answer, *statuses: int) -> dict[str, Any]:
    """``answer`` is an RFC 9457 problem with one of ``statuses`` (any 4xx when
    none is given), carrying a well-formed X-Request-ID; returns its body."""
    if statuses:
        assert answer.status in statuses, str(answer)
    else:
        assert 400 <= answer.status < 500, str(answer)
    content_type = answer.headers.get("content-type", "").split(";")[0].strip()
    assert content_type == PROBLEM_JSON, str(answer)
    request_id = answer.headers.get("x-request-id")
    assert request_id is not None, f"no X-Request-ID on {answer}"
    assert REQUEST_ID.fullmatch(request_id), f"X-Request-ID {request_id[:200]!r}"
    problem = answer.json()
    assert isinstance(problem, dict), str(answer)
    for key in ("type", "title", "status", "detail"):
        assert key in problem, f"no {key!r} in {answer}"
    assert problem["status"] == answer.status, str(answer)
    return problem


def pointers(problem: Mapping[str, Any]) -> list[str]:
    return [error.get("pointer", "") for error in problem.get("errors", [])]


# --- the workers, from /proc --------------------------------------------------


def workers(server: Server, count: int = WORKERS, timeout: float = HANG_SECONDS) -> set[int]:
    """The master's worker pids, once at least ``count`` are up (a replaced
    worker takes a moment to appear)."""
    deadline = time.monotonic() + timeout
    while len(pids := worker_pids(server.process.pid)) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"only {len(pids)} workers after {timeout} s")
        time.sleep(0.05)
    return pids


def cpu_seconds(pids: Iterable[int]) -> float:
    """User plus system CPU time, in seconds, summed over ``pids`` (fields 14
    and 15 of /proc/<pid>/stat; the name field may hold spaces, so fields
    are counted after its closing parenthesis). A process gone counts 0."""
    ticks = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / CLOCK_TICKS


def memory_mib(pid: int, key: str) -> float:
    """``VmHWM`` (peak resident memory) or ``VmRSS`` (current) of ``pid``, in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no {key} in /proc/{pid}/status")


def peak_mib(pids: Iterable[int]) -> dict[int, float]:
    return {pid: memory_mib(pid, "VmHWM") for pid in pids}


def reset_peaks(pids: Iterable[int]) -> None:
    """Start each worker's VmHWM again from its current size (writing 5 to
    clear_refs), so a peak belongs to the request measured next, not to
    whatever the worker did earlier."""
    for pid in pids:
        with open(f"/proc/{pid}/clear_refs", "w") as file:
            file.write("5")


def busy_workers(server: Server, window: float = 0.3) -> set[int]:
    """The workers that used CPU during ``window`` seconds (still working on
    a request the test has given up on)."""
    pids = worker_pids(server.process.pid)
    before = {pid: cpu_seconds([pid]) for pid in pids}
    time.sleep(window)
    return {pid for pid in pids if cpu_seconds([pid]) - before[pid] > window / 3}


def settle(server: Server, patience: float = 1.0, fat_mib: float | None = None) -> None:
    """Make sure no worker is still chewing on an earlier request, so the next
    measurement is the next request's alone. A worker still busy after
    ``patience`` seconds (today's code can work on one hostile body until the
    30 s timeout) is killed by its pid, and so is one whose resident memory
    is over ``fat_mib`` (memory a worker once took stays with it, and would
    count against the next request); the master starts fresh ones, and this
    returns once they have loaded the app (a booting worker's CPU must not
    be billed to the next request either)."""
    deadline = time.monotonic() + patience
    while (busy := busy_workers(server)) and time.monotonic() < deadline:
        pass
    if fat_mib is not None:
        busy |= {pid for pid in worker_pids(server.process.pid) if memory_mib(pid, "VmRSS") > fat_mib}
    for pid in busy:
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + HANG_SECONDS
    while busy & worker_pids(server.process.pid):
        if time.monotonic() > deadline:
            raise AssertionError(f"workers {busy} did not go")
        time.sleep(0.05)
    workers(server)
    wait_ready(server)
    if busy:
        idle(server)


def idle(server: Server, timeout: float = HANG_SECONDS) -> None:
    """Wait until no worker uses CPU (a replaced worker has loaded the app)."""
    deadline = time.monotonic() + timeout
    while busy := busy_workers(server):
        if time.monotonic() > deadline:
            raise AssertionError(f"workers {busy} still busy after {timeout} s")


def wait_ready(server: Server, timeout: float = HANG_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if call(server.port, "GET", "/readyz", timeout=2).status == 200:
                return
        except (OSError, AnswerError):
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"not ready within {timeout} s")
        time.sleep(0.1)


# --- bodies of a given size ------------------------------------------------------


def fill(prefix: str, item: str | Callable[[int], str], suffix: str, size: int = NEAR_LIMIT) -> bytes:
    """``prefix + item,item,...,item + suffix`` with as many items as fit in
    ``size`` bytes; ``item`` is a fixed text or a function of the index (for
    unique keys). Items are ASCII, so characters are bytes."""
    room = size - len(prefix) - len(suffix)
    if isinstance(item, str):
        count = (room + 1) // (len(item) + 1)
        text = prefix + ",".join([item] * count) + suffix
    else:
        parts, used, index = [], 0, 0
        while used + len(piece := item(index)) + 1 <= room + 1:
            parts.append(piece)
            used += len(piece) + 1
            index += 1
        text = prefix + ",".join(parts) + suffix
    data = text.encode("ascii")
    assert size - 4096 < len(data) <= size, f"{len(data)} bytes for a {size}-byte target"
    return data


# --- metrics -------------------------------------------------------------------


def scrape(server: Server, timeout: float = 5.0) -> str:
    """The Prometheus text the master serves on the metrics port."""
    answer = call(server.metrics_port, "GET", "/metrics", timeout=timeout)
    assert answer.status == 200, str(answer)
    return answer.body.decode()


def metric_total(text: str, name: str) -> float:
    """The sum of every sample of ``name`` over all its labels."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name + "{") or line.startswith(name + " "):
            total += float(line.rsplit(" ", 1)[1])
    return total


def settled_metrics(server: Server) -> str:
    """The metrics as the master serves them: each worker writes its counts
    through as it answers, so they include every answer made so far."""
    return scrape(server)


def at_once_while_probing(
    calls: list[Callable[[], Any]], probe: Callable[[], Any], pause: float
) -> tuple[list[Any], list[Any]]:
    """Run ``calls`` together and ``probe`` every ``pause`` seconds until all
    are done (at least once, however fast they are); their results, then
    the probes'."""
    probes = []
    with ThreadPoolExecutor(len(calls)) as pool:
        pending = [pool.submit(call) for call in calls]
        while True:
            probes.append(probe())
            if all(future.done() for future in pending):
                break
            time.sleep(pause)
        return [future.result() for future in pending], probes
