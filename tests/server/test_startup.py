"""A start that cannot succeed stops in one line: gunicorn started as
``make run`` starts it (the project's gunicorn.conf.py, no metrics directory
given, so it would make a temporary one), with a port another process holds,
a key file it cannot read or a bad variable. Each must exit non-zero, soon
(no retry loop), with exactly one line on stderr naming the variable and its
value, and leave nothing in the temporary directory.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from service import __version__
from service.provenance.manifest import CLAIM, claim_text, manifest
from service.server import config
from service.server.startup import PREFIX
from tests.servers import ROOT, free_port, gunicorn, worker_pids

pytestmark = pytest.mark.server

#: The variables a test sets; the rest of the environment is the caller's, without these.
SET_HERE = {
    "HOST",
    "PORT",
    "METRICS_PORT",
    "WEB_CONCURRENCY",
    "PROMETHEUS_MULTIPROC_DIR",
    "TMPDIR",
    *(variable.name for variable in config.VARIABLES),
}
#: Seconds a refusal may take: loading gunicorn.conf.py, never gunicorn's five retries of a bind.
REFUSED_WITHIN = 60


def start(
    tmp_path: Path, where: Path = ROOT, **variables: str
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """Run ``make run``'s command with ``variables`` over free loopback ports
    (in the folder ``where``, the project's by default); its result and the
    temporary directory it was given."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    environment = {name: value for name, value in os.environ.items() if name not in SET_HERE}
    environment.update(
        HOST="127.0.0.1",
        PORT=str(free_port()),
        METRICS_PORT=str(free_port()),
        WEB_CONCURRENCY="1",
        TMPDIR=str(temporary),
    )
    environment.update(variables)
    gunicorn = Path(sys.executable).parent / "gunicorn"
    result = subprocess.run(
        [str(gunicorn), "-c", "gunicorn.conf.py", "service.app:create_app()"],
        cwd=where,
        env=environment,
        capture_output=True,
        text=True,
        timeout=REFUSED_WITHIN,
    )
    return result, temporary


def assert_refused(result: subprocess.CompletedProcess[str], temporary: Path, *named: str) -> None:
    __tracebackhide__ = True
    assert result.returncode != 0, result.stdout[-2000:]
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    (line,) = lines
    assert line.startswith(PREFIX), line
    for text in named:
        assert text in line, f"{text!r} is not in {line!r}"
    assert list(temporary.iterdir()) == [], "left behind"


@contextlib.contextmanager
def held_port() -> Iterator[int]:
    """A loopback port this test listens on, as another program would."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield holder.getsockname()[1]


@pytest.mark.parametrize("variable", ["PORT", "METRICS_PORT"])
def test_a_port_in_use(tmp_path, variable):
    with held_port() as port:
        result, temporary = start(tmp_path, **{variable: str(port)})
    assert_refused(result, temporary, f"{variable}='{port}'", "already in use")


def test_the_same_port_for_the_api_and_the_metrics(tmp_path):
    port = str(free_port())
    result, temporary = start(tmp_path, PORT=port, METRICS_PORT=port)
    assert_refused(result, temporary, f"METRICS_PORT='{port}'", "PORT")


def test_an_address_not_of_this_machine(tmp_path):
    # TEST-NET-1 (RFC 5737): never an address of this machine.
    result, temporary = start(tmp_path, HOST="192.0.2.1")
    assert_refused(result, temporary, "HOST='192.0.2.1'")


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("PORT", "eighty"),
        ("METRICS_PORT", "70000"),
        ("WEB_CONCURRENCY", "0"),
        ("BACCARAT_LOG_LEVEL", "loud"),
        ("BACCARAT_API_KEYS", " , "),
        ("BACCARAT_MAX_BODY_BYTES", "-1"),
        ("OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"),
    ],
)
def test_a_bad_variable(tmp_path, variable, value):
    result, temporary = start(tmp_path, **{variable: value})
    assert_refused(result, temporary, f"{variable}={value!r}")


@pytest.mark.parametrize("variable", ["BACCARAT_SIGNING_KEY_FILE", "BACCARAT_PUBLISHED_KEYS_FILE"])
@pytest.mark.parametrize("kind", ["missing", "a directory"])
def test_an_unreadable_key_file(tmp_path, variable, kind):
    path = tmp_path / "keys"
    if kind == "a directory":
        path.mkdir()
    result, temporary = start(tmp_path, **{variable: str(path)})
    assert_refused(result, temporary, f"{variable}={str(path)!r}", "cannot read it")


def test_a_key_file_that_is_not_a_key(tmp_path):
    path = tmp_path / "key.pem"
    path.write_text("not a key\n")
    result, temporary = start(tmp_path, BACCARAT_SIGNING_KEY_FILE=str(path))
    assert_refused(result, temporary, f"BACCARAT_SIGNING_KEY_FILE={str(path)!r}")


@pytest.mark.parametrize(
    ("table", "field"),
    [
        ({"description": "x", "rules": {"commission": "0"}}, "/tables/house: returns more than it costs"),
        ({"description": "x", "currency": "KRX"}, "/tables/house/currency:"),
        ({"description": "x", "colour": "red"}, "/tables/house/colour:"),
    ],
)
def test_a_tables_file_with_a_bad_table(tmp_path, table, field):
    """gunicorn's master reads the tables file before any worker starts: a
    bad table is one line naming it and its field (docs/operations/tables.md)."""
    path = tmp_path / "tables.json"
    path.write_text(json.dumps({"tables": {"house": table}}))
    result, temporary = start(tmp_path, BACCARAT_TABLES_FILE=str(path), BACCARAT_APPROVED_TABLES_ONLY="true")
    assert_refused(result, temporary, f"BACCARAT_TABLES_FILE={str(path)!r}", field)


def test_engine_files_changed_after_the_build(tmp_path):
    """A built package records the digest of its engine's files; one byte of
    one of them changed afterwards, and it never serves (docs/build-digest.md)."""
    app = tmp_path / "app"
    shutil.copytree(ROOT / "service", app / "service", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "gunicorn.conf.py", app)
    claimed = manifest(app / "service").digest
    (app / "service" / "provenance" / CLAIM).write_text(claim_text("baccarat-service", __version__, claimed))
    settlement = app / "service" / "baccarat" / "tables" / "settlement.py"
    settlement.write_text(settlement.read_text().replace("\n\n", "\n\n\n", 1))
    result, temporary = start(tmp_path, where=app, PYTHONPATH=str(app))
    assert_refused(result, temporary, claimed, manifest(app / "service").digest, "service/baccarat")


def test_reading_gunicorn_conf_leaves_prometheus_client_unloaded():
    """prometheus_client picks its multiprocess mode when it is imported, and
    the master sets PROMETHEUS_MULTIPROC_DIR in on_starting: the settings, and
    the checks made before that, must not import it."""
    code = "import runpy, sys; runpy.run_path('gunicorn.conf.py'); print('prometheus_client' in sys.modules)"
    environment = {name: value for name, value in os.environ.items() if name not in SET_HERE}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip() == "False", result.stderr


def test_the_temporary_metrics_directory_is_removed_after_a_reload(tmp_path):
    """SIGHUP makes gunicorn read gunicorn.conf.py again (new workers, the
    file's module state anew): the directory made at start still goes at exit."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    environment = {"PROMETHEUS_MULTIPROC_DIR": None, "TMPDIR": str(temporary)}
    with gunicorn(workers=1, env=environment) as server:
        (made,) = temporary.iterdir()
        before = worker_pids(server.process.pid)
        os.kill(server.process.pid, signal.SIGHUP)
        deadline = time.monotonic() + REFUSED_WITHIN
        while not (worker_pids(server.process.pid) - before) or ask(server.url) != 200:
            assert time.monotonic() < deadline, "no new worker after SIGHUP"
            time.sleep(0.1)
        assert made.is_dir()
    assert server.process.returncode == 0
    assert list(temporary.iterdir()) == [], "left behind"


def ask(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url + "/readyz", timeout=1) as response:
            return int(response.status)
    except OSError:
        return None


#: Makes the metrics directory as gunicorn's master does, forks a child that
#: exits as a gunicorn worker does (sys.exit), then fails as a start can fail
#: after the directory is made (gunicorn exits from a failed bind without its
#: on_exit hook).
FAILS_AFTER_MAKING = """
import os, sys
from service.server.startup import temporary_metrics_dir
made = temporary_metrics_dir()
child = os.fork()
if child == 0:
    sys.exit(0)
os.waitpid(child, 0)
assert os.path.isdir(made), "removed by the child's exit"
print(made, flush=True)
sys.exit(1)
"""


def test_the_temporary_metrics_directory_goes_however_the_master_exits(tmp_path):
    environment = {name: value for name, value in os.environ.items() if name not in SET_HERE}
    environment["TMPDIR"] = str(tmp_path)
    result = subprocess.run(
        [sys.executable, "-c", FAILS_AFTER_MAKING],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr
    made = Path(result.stdout.strip())
    assert made.parent == tmp_path
    assert not made.exists()
