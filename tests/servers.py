"""Start the real gunicorn server on a free loopback port, for tests.

The server is stopped by its own process id, whatever the test did.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parents[1]


def free_port() -> int:
    """A loopback port free now, which no other worker of this test run is handed.

    The kernel picks it (at random, so another run on the machine rarely
    meets it), and under pytest-xdist a worker keeps only the ports whose
    remainder by the number of workers is its own: two workers never race
    for one port between finding it free and their servers binding it.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index, count = int(worker.removeprefix("gw")), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    for _ in range(100 * count):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        # Halved first: Linux hands a bind to port 0 odd ports (the even ones are
        # kept for connect), so the port's own remainder would starve a worker.
        if port // 2 % count == index:
            return port
    raise RuntimeError(f"no free port for worker {worker} of {count} in {100 * count} tries")


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    #: Where the gunicorn master serves Prometheus metrics (METRICS_PORT), apart from the API.
    metrics_port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def metrics_url(self) -> str:
        return f"http://127.0.0.1:{self.metrics_port}"


@contextlib.contextmanager
def gunicorn(
    workers: int = 1,
    env: dict[str, str | None] | None = None,
    timeout: float = 60,
    app: str = "service.app:create_app()",
    log: Path | None = None,
    args: tuple[str, ...] = (),
    root: Path = ROOT,
) -> Iterator[Server]:
    """Serve ``app`` under gunicorn with the project's gunicorn.conf.py.

    Its output goes to ``log`` (or nowhere); ``args`` are extra gunicorn
    options; ``root`` is the source tree served, with its own
    gunicorn.conf.py (another checkout: a bench compares a past revision).
    The workers share a fresh metrics directory, as in production, unless
    ``env`` names one (None removes a variable); the master serves the
    metrics on a second free port, ``METRICS_PORT`` (``server.metrics_port``).
    """
    port = free_port()
    metrics_port = free_port()
    while metrics_port == port:  # two free ports, not the same one twice
        metrics_port = free_port()
    metrics_dir = tempfile.TemporaryDirectory(prefix="baccarat-metrics-")
    environment = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "METRICS_PORT": str(metrics_port),
        "WEB_CONCURRENCY": str(workers),
        "PROMETHEUS_MULTIPROC_DIR": metrics_dir.name,
        **(env or {}),
    }
    environment = {name: value for name, value in environment.items() if value is not None}
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "-c",
        str(root / "gunicorn.conf.py"),
        *args,
        app,
    ]
    output = open(log, "ab") if log is not None else subprocess.DEVNULL  # noqa: SIM115
    process = subprocess.Popen(command, cwd=root, env=environment, stdout=output, stderr=subprocess.STDOUT)
    server = Server(process, port, int(environment.get("METRICS_PORT", metrics_port)))
    try:
        with serving(process, server.url, timeout=timeout, name="gunicorn", stop_timeout=30):
            yield server
    finally:
        if output is not subprocess.DEVNULL:
            output.close()
        metrics_dir.cleanup()


@contextlib.contextmanager
def serving(
    process: subprocess.Popen[bytes], url: str, *, timeout: float, name: str, stop_timeout: float
) -> Iterator[None]:
    """Wait until the server ``process`` answers ``url``/readyz, then, when
    done, stop it by its own process id (SIGTERM, then SIGKILL)."""
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(url + "/readyz", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not start") from None
                time.sleep(0.1)
        yield
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=stop_timeout)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()


def worker_pids(master: int) -> set[int]:
    """The process ids of a gunicorn master's workers (its children, from /proc)."""
    pids = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # the process ended while we looked
        if int(fields[1]) == master:
            pids.add(int(stat.parent.name))
    return pids
