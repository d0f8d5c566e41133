"""Where a served request's time goes: a sampling profile of one worker under load.

The service runs under the project's gunicorn.conf.py with one worker; wrk
loads it (the signed round of :mod:`bench.rounds` at 8 connections, then
the 10,000-slip settlement on one connection; and the signed ceiling of
:mod:`bench.baseline` the same way as the round, for comparison) while
py-spy samples that worker (``py-spy record --format raw``: collapsed
stacks, the process never stopped). Each sample's innermost Python frame
says which layer the worker was in, by its file (:data:`LAYERS`, first
match): code in C (orjson, Ed25519, the hash) counts in the Python
function that called it (the signed ceiling's view, which is mostly its
digests and signature, counts as signing). The summary is each layer's
share of the samples, busiest first, and the share of samples inside a few
wrappers of interest (:data:`INSIDE`), inclusive of what they call, each
also as µs per answer. Shares are what to read: a sample is taken whenever
the worker is not idle, waiting for a CPU included, so the µs rise with
the load of a 2-core machine shared with wrk and other work.

First, :func:`workers`: a worker's wall time from its fork to its first
answer, and its resident memory then, for the service and for the empty
app under the same gunicorn.conf.py (docs/adr/0013).

``PYTHONPATH=. .venv/bin/python -m bench.profile`` (py-spy, from the
``dev`` extras, needs to be allowed to read another process's memory:
root, or ``kernel.yama.ptrace_scope = 0``). ``--keep DIR`` keeps the
collapsed stacks, which flame graph tools read.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from tests.servers import Server, gunicorn

from .bodies import ROUND, SLIPS
from .loadgen import Load, http_load

#: Samples a second.
RATE = 250
#: A sample's layer by the file of its innermost frame: the first pattern
#: (a piece of the path) that the file holds.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("gunicorn and gevent", ("gunicorn/", "gevent/", "greenlet")),
    ("logs", ("service/server/logs.py", "logging/", "pythonjsonlogger/")),
    (
        "signing",
        (
            "service/contract/audit/",
            "service/server/signing.py",
            "cryptography/",
            "hashlib",
            "bench/baseline.py",
        ),
    ),
    ("metrics", ("service/server/metrics.py", "prometheus_client/")),
    (
        "the service's WSGI layers and traces",
        (
            "service/server/middleware.py",
            "service/server/tracing.py",
            "service/api/language.py",
            "opentelemetry/",
        ),
    ),
    ("flask-smorest and webargs", ("flask_smorest/", "webargs/", "service/api/views/__init__.py")),
    ("werkzeug and Flask", ("werkzeug/", "flask/", "service/app.py", "service/api/")),
    ("JSON", ("orjson", "json/", "service/contract/jsonio.py")),
    ("schemas and answers", ("marshmallow/", "service/contract/")),
    ("engine", ("service/baccarat/",)),
)
OTHER = "other (the standard library, the interpreter)"
#: Functions whose inclusive share is reported: (what, a piece of the frame).
INSIDE = (
    ("flask-smorest's and webargs' wrappers around the view", "flask_smorest/"),
    ("the JSON access log", "service/server/logs.py"),
    ("Ed25519 and the digests (sign_answer)", "sign_answer"),
    ("the view, the engine and the round counted", "service/api/views/rounds.py"),
)


def layer_of(frame: str) -> str:
    """The layer of a py-spy frame ``function (file:line)``.

    >>> layer_of("dumps (service/contract/jsonio.py:40)")
    'JSON'
    >>> layer_of("handle (gevent/pywsgi.py:12)")
    'gunicorn and gevent'
    """
    where = frame.rpartition("(")[2]
    for name, pieces in LAYERS:
        if any(piece in where for piece in pieces):
            return name
    return OTHER


def stacks(collapsed: str) -> Iterator[tuple[list[str], int]]:
    """Each stack of py-spy's raw output (outermost frame first) with its samples."""
    for line in collapsed.splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            yield stack.split(";"), int(count)


def summary(collapsed: str) -> tuple[int, dict[str, int], dict[str, int]]:
    """Samples in all, by layer (innermost frame), and inside each of :data:`INSIDE`."""
    total, by_layer, inside = 0, collections.Counter[str](), collections.Counter[str]()
    for frames, count in stacks(collapsed):
        total += count
        by_layer[layer_of(frames[-1])] += count
        for what, piece in INSIDE:
            if any(piece in frame for frame in frames):
                inside[what] += count
    return total, dict(by_layer), dict(inside)


def worker_pid(server: Server) -> int:
    """The one worker of ``server``'s master."""
    children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children").read_text().split()
    if len(children) != 1:
        raise RuntimeError(f"expected one worker, found {children}")
    return int(children[0])


def record(pid: int, seconds: float, output: Path, load: threading.Thread) -> str:
    """Sample ``pid`` for ``seconds`` while ``load`` runs; the collapsed stacks."""
    # The dev extras install py-spy beside the interpreter running the bench,
    # which need not be on PATH (a virtual environment not activated).
    spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
    if spy is None:
        raise RuntimeError("py-spy is not installed: pip install -e '.[dev]'")
    load.start()
    subprocess.run(
        [
            *(spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", str(RATE)),
            *("--format", "raw", "--nonblocking", "--output", str(output)),
        ],
        check=True,
        capture_output=True,
        timeout=seconds + 60,
    )
    load.join()
    return output.read_text()


def profile(
    name: str,
    path: str,
    body: bytes,
    connections: int,
    seconds: float,
    keep: Path | None,
    app: str = "service.app:create_app()",
) -> list[str]:
    with gunicorn(workers=1, app=app) as server, tempfile.TemporaryDirectory() as tmp:
        http_load(server.url, path, body, seconds=1, connections=connections)  # warm the worker
        pid = worker_pid(server)
        loads: list[Load] = []
        load = threading.Thread(
            target=lambda: loads.append(
                http_load(server.url, path, body, seconds=seconds + 1, connections=connections)
            )
        )
        output = (keep or Path(tmp)) / f"{path.strip('/').replace('/', '-')}.txt"
        collapsed = record(pid, seconds, output, load)
    total, by_layer, inside = summary(collapsed)
    # The worker's busy time per request: its samples (RATE a second) over
    # the requests answered while it was sampled, at the load's rate.
    per_request = total / RATE / (loads[0].requests_per_second * seconds) * 1e6
    lines = [
        f"{name}: {total} samples of one worker over {seconds:g}s, {connections} connection(s), "
        f"{loads[0].requests_per_second:,.0f} req/s: {per_request:,.0f} µs busy a request"
    ]
    lines += [
        f"  {count / total:6.1%} {count / total * per_request:9,.0f} µs  {layer}"
        for layer, count in sorted(by_layer.items(), key=lambda kv: -kv[1])
    ]
    lines += [
        f"  {count / total:6.1%} {count / total * per_request:9,.0f} µs  inside {what}"
        for what, count in inside.items()
    ]
    return lines


def worker_start(app: str) -> tuple[float, float]:
    """Seconds from a worker's fork to its first answer, and its resident
    memory then (MiB): the one worker of ``app`` is stopped, and the master
    forks the next, whose first answer is the first answer after that."""
    with gunicorn(workers=1, app=app) as server:
        old = worker_pid(server)
        os.kill(old, signal.SIGTERM)
        while True:  # the replacement appears within milliseconds of its fork
            children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children").read_text()
            if children.split() and int(children.split()[0]) != old:
                forked = time.monotonic()
                break
            time.sleep(0.001)
        new = int(children.split()[0])
        with urllib.request.urlopen(server.url + "/readyz", timeout=30) as answer:
            answer.read()
        ready = time.monotonic() - forked
        status = Path(f"/proc/{new}/status").read_text()
        rss = int(status.split("VmRSS:")[1].split()[0]) / 1024
    return ready, rss


def workers() -> list[str]:
    ours, theirs = worker_start("service.app:create_app()"), worker_start("bench.baseline:create_app()")
    return [
        f"a worker from fork to first answer: the service's {ours[0]:.2f} s, {ours[1]:.0f} MiB RSS; "
        f"the empty app's {theirs[0]:.2f} s, {theirs[1]:.0f} MiB (goal: the service's <= 1 s, <= 100 MiB)"
    ]


def run(seconds: float = 8, keep: Path | None = None) -> list[str]:
    rounds, slips = json.dumps(ROUND).encode(), json.dumps(SLIPS).encode()
    return [
        *workers(),
        *profile("POST /v1/rounds (signed)", "/v1/rounds", rounds, 8, seconds, keep),
        *profile("the signed ceiling", "/signed", rounds, 8, seconds, keep, "bench.baseline:create_app()"),
        *profile("POST /v1/settlements (10,000 slips)", "/v1/settlements", slips, 1, seconds, keep),
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--keep", type=Path, help="keep the collapsed stacks in this directory")
    arguments = parser.parse_args()
    print("\n".join(run(arguments.seconds, arguments.keep)))
