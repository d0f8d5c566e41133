"""The Makefile as a newcomer meets it: ``make help`` says the values its
targets use, and ``make install`` says what it does before its long steps.

``make install`` itself takes a minute; its recipe is read with ``make -n``
(each command printed, none run) for a virtual environment that does not
exist yet.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.servers import ROOT


def make(*arguments: str) -> list[str]:
    result = subprocess.run(
        ["make", "--no-print-directory", *arguments], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_make_help_prints_the_port_run_serves_on():
    lines = make("help", "PORT=18777")
    (run,) = [line for line in lines if line.split()[0] == "run"]
    assert "http://127.0.0.1:18777" in run
    assert not [line for line in lines if "$(" in line]


def said(line: str) -> str | None:
    """What an ``echo`` in a recipe says, or None for another command."""
    command = line.rpartition("|| ")[2] if line.startswith("test ") else line
    return command.removeprefix("echo ").strip('"') if command.startswith("echo ") else None


def test_make_install_says_what_it_does_before_each_long_step(tmp_path: Path):
    venv = tmp_path / "venv"
    lines = make("-n", "install", f"VENV={venv}")
    long_steps = [index for index, line in enumerate(lines) if " -m venv " in line or " -m pip " in line]
    assert long_steps, lines
    for index in long_steps:
        # Said just before, or one more step of the same said work (pip after pip).
        assert index > 0
        assert said(lines[index - 1]) or index - 1 in long_steps, f"nothing said before {lines[index]!r}"
    messages = " ".join(message for line in lines if (message := said(line)))
    assert str(venv) in messages
    assert "minute" in messages  # what it costs
    assert said(lines[-1]), "and what is done when it ends"


def test_the_quick_check_is_named_beside_make_test_and_runs_no_server():
    """``make quick`` is the development loop the README names beside ``make test``:
    lint and types first, then the tests that start no server and run no slow statistics."""
    lines = make("-n", "quick")
    assert any("ruff check" in line for line in lines)
    assert any("mypy" in line for line in lines)
    (tests,) = [line for line in lines if "pytest" in line]
    assert '-m "not server and not slow"' in tests
    assert "tests/baccarat" in tests
    readme = (ROOT / "README.md").read_text()
    assert "make quick" in readme.split("## Two commands", 1)[1].split("##", 1)[0]


def test_make_test_runs_on_every_core_then_the_tests_that_run_alone():
    """``make test`` spreads the suite over the cores (pytest-xdist), then runs the
    tests that measure against a reference alone, and fails if either pass fails."""
    recipe = " ".join(make("-n", "test", "PYTEST_ARGS=")).partition("shared=0")[2]
    shared, _, alone = recipe.partition("|| shared=")
    assert "-m pytest -n auto" in shared
    assert '-m "not alone"' in shared
    assert "-m pytest -p no:xdist -m alone" in alone
    assert "exit $status" in alone


def test_each_test_that_runs_alone_exists():
    from tests.conftest import ALONE

    for module in ALONE:
        assert (ROOT / module).is_file(), module
        assert "def test_" in (ROOT / module).read_text(), module


def test_each_worker_of_a_run_is_handed_ports_no_other_worker_is(monkeypatch):
    """Two pytest-xdist workers never race for one port (tests/servers.py::free_port),
    whatever parity the kernel prefers for a bind to port 0."""
    from tests.servers import free_port

    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    handed = {}
    for worker in ("gw0", "gw1"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        handed[worker] = {free_port() for _ in range(50)}
    assert handed["gw0"].isdisjoint(handed["gw1"])
    assert {port // 2 % 2 for port in handed["gw0"]} == {0}
    assert {port // 2 % 2 for port in handed["gw1"]} == {1}
