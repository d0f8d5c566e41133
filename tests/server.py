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
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextlib.contextmanager
def gunicorn(workers: int = 1, env: dict[str, str] | None = None, timeout: float = 30) -> Iterator[Server]:
    port = free_port()
    environment = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": str(workers),
        **(env or {}),
    }
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "-c",
        str(ROOT / "gunicorn.conf.py"),
        "service.app:create_app()",
    ]
    process = subprocess.Popen(
        command, cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    server = Server(process, port)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(server.url + "/readyz", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.1)
        yield server
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(process.pid, signal.SIGKILL)
                process.wait()
