"""Configuration that fails closed, metrics on their own port, secrets kept out of the log.

* BACCARAT_API_KEYS set but holding no usable key ("", ",", " , ") or a key
  too short to resist guessing (under 16 characters) stops gunicorn at
  start, naming the variable: a typo in a Secret must not open the API.
  Unset, the API is open; set, a request without a key is a 401.
* A signing key (BACCARAT_SIGNING_KEY_FILE) that is missing, unreadable or
  not Ed25519, or published keys (BACCARAT_PUBLISHED_KEYS_FILE) that are not
  a JWK Set of Ed25519 keys, stop gunicorn at start, naming the variable: a
  service must not answer unsigned, or signed by a key nobody can check.
* Prometheus metrics are served by the gunicorn master on METRICS_PORT, not
  on the API's port, where /metrics is a 404.
* A key sent in the query string (a client's mistake) never reaches the
  access log.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ec import SECP256R1, generate_private_key

from tests.servers import ROOT, Server, free_port, gunicorn

from .helpers import (
    ROUND,
    WORKERS,
    AnswerError,
    assert_problem,
    call,
    metric_total,
    scrape,
    workers,
)

pytestmark = pytest.mark.server

#: How long a refused configuration may take to stop gunicorn: only so that a
#: gunicorn that neither stops nor serves ends the test (it stops in a few
#: seconds; waiting ends as soon as it stops, or answers).
REFUSAL_SECONDS = 60
#: How long a count or a log line may take to appear: only so that a missing
#: one ends the test (workers write their counts at least once a second).
APPEAR_SECONDS = 30
KEY = "0123456789abcdef0123"
SECRET = "secret-value-123"


@pytest.fixture(scope="module")
def server(server_log: Path) -> Iterator[Server]:
    """This module's server runs without BACCARAT_API_KEYS, whatever the
    environment of the test run holds."""
    with gunicorn(workers=WORKERS, env={"BACCARAT_API_KEYS": None}, log=server_log) as running:
        workers(running)
        yield running


def answers_ready(port: int) -> bool:
    try:
        return call(port, "GET", "/readyz", timeout=0.5).status == 200
    except (OSError, AnswerError):
        return False


def start_expecting_refusal(
    tmp_path: Path, keys: str | None = None, env: dict[str, str] | None = None
) -> tuple[int | None, str]:
    """Start gunicorn as tests/servers.py does, but directly, to see it exit:
    (its exit code, or None if it was still running after REFUSAL_SECONDS or
    answered /readyz; its output)."""
    port, metrics_port = free_port(), free_port()
    (tmp_path / "metrics").mkdir()
    environment = {
        **os.environ,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "METRICS_PORT": str(metrics_port),
        "WEB_CONCURRENCY": str(WORKERS),
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
        **({} if keys is None else {"BACCARAT_API_KEYS": keys}),
        **(env or {}),
    }
    if keys is None:
        environment.pop("BACCARAT_API_KEYS", None)
    command = [str(Path(sys.executable).parent / "gunicorn"), "-c", str(ROOT / "gunicorn.conf.py")]
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [*command, "service.app:create_app()"],
            cwd=ROOT,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + REFUSAL_SECONDS
            # A server that answers has accepted the keys: no need to wait out the deadline.
            while process.poll() is None and time.monotonic() < deadline and not answers_ready(port):
                time.sleep(0.1)
            code = process.poll()
        finally:
            if process.poll() is None:
                process.terminate()  # SIGTERM to this gunicorn master, by its pid
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
    return code, log.read_text(errors="replace")


@pytest.mark.parametrize("keys", ["", ",", " , ", "short"], ids=["empty", "comma", "blank-list", "short"])
def test_unusable_api_keys_stop_gunicorn_at_start(tmp_path: Path, keys: str) -> None:
    code, output = start_expecting_refusal(tmp_path, keys)
    assert code is not None, f"BACCARAT_API_KEYS={keys!r}: gunicorn ran (and served) instead of refusing"
    assert code != 0, output[-2000:]
    assert "BACCARAT_API_KEYS" in output, output[-2000:]


def bad_key_files(tmp_path: Path) -> dict[str, dict[str, str]]:
    rsa = tmp_path / "rsa.pem"
    rsa.write_bytes(
        generate_private_key(SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    # A directory cannot be read as a file, even by root (who reads a file of mode 0).
    unreadable = tmp_path / "a-directory.pem"
    unreadable.mkdir()
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a key")
    jwks = tmp_path / "rsa-jwks.json"
    jwks.write_text('{"keys": [{"kty": "RSA", "n": "x", "e": "AQAB"}]}')
    return {
        "missing": {"BACCARAT_SIGNING_KEY_FILE": str(tmp_path / "missing.pem")},
        "not-ed25519": {"BACCARAT_SIGNING_KEY_FILE": str(rsa)},
        "not-pem": {"BACCARAT_SIGNING_KEY_FILE": str(garbage)},
        "unreadable": {"BACCARAT_SIGNING_KEY_FILE": str(unreadable)},
        "published-not-ed25519": {"BACCARAT_PUBLISHED_KEYS_FILE": str(jwks)},
        "published-missing": {"BACCARAT_PUBLISHED_KEYS_FILE": str(tmp_path / "missing.json")},
    }


@pytest.mark.parametrize(
    "case",
    ["missing", "not-ed25519", "not-pem", "unreadable", "published-not-ed25519", "published-missing"],
)
def test_a_bad_signing_key_stops_gunicorn_at_start(tmp_path: Path, case: str) -> None:
    env = bad_key_files(tmp_path)[case]
    code, output = start_expecting_refusal(tmp_path, env=env)
    (variable,) = env
    assert code is not None, f"{case}: gunicorn ran (and served) instead of refusing"
    assert code != 0, output[-2000:]
    assert variable in output, output[-2000:]


def test_without_the_variable_the_api_is_open(server: Server) -> None:
    assert call(server.port, "POST", "/v1/rounds", ROUND).status == 200


def test_with_a_key_a_request_without_one_is_401(tmp_path: Path) -> None:
    with gunicorn(workers=WORKERS, env={"BACCARAT_API_KEYS": KEY}, log=tmp_path / "gunicorn.log") as keyed:
        refused = call(keyed.port, "POST", "/v1/rounds", ROUND)
        accepted = call(keyed.port, "POST", "/v1/rounds", ROUND, {"Authorization": f"Bearer {KEY}"})
    assert_problem(refused, 401)
    assert accepted.status == 200, str(accepted)


def test_metrics_are_served_on_their_own_port(server: Server) -> None:
    assert call(server.port, "POST", "/v1/rounds", ROUND).status == 200
    deadline = time.monotonic() + APPEAR_SECONDS
    while True:
        text = scrape(server)
        if metric_total(text, "baccarat_rounds_total") >= 1:
            break
        assert time.monotonic() < deadline, f"no round counted:\n{text[:2000]}"
        time.sleep(0.2)
    assert metric_total(text, "baccarat_http_request_duration_seconds_count") >= 1
    answer = call(server.metrics_port, "GET", "/metrics")
    assert answer.headers.get("content-type", "").startswith("text/plain"), str(answer)


def test_metrics_are_not_on_the_api_port(server: Server) -> None:
    assert_problem(call(server.port, "GET", "/metrics"), 404)


def test_a_key_in_the_query_string_is_not_logged(server: Server, server_log: Path) -> None:
    call(server.port, "GET", f"/v1/rules?api_key={SECRET}")
    deadline = time.monotonic() + APPEAR_SECONDS
    while True:  # the access line is written after the answer is sent
        lines = [json.loads(line) for line in server_log.read_text().splitlines() if line.startswith("{")]
        if any(line.get("path") == "/v1/rules" for line in lines):
            break
        assert time.monotonic() < deadline, "no access log line for /v1/rules"
        time.sleep(0.1)
    leaks = [line for line in server_log.read_text().splitlines() if SECRET in line]
    assert not leaks, leaks[:3]
