"""Every curl command in README.md and in every page of docs/ (its folders
included: the documentation site's pages) works as written against the live server.

Each command is taken from its ``sh`` block exactly as written (continuation
lines and multi-line quoted bodies included), only ``127.0.0.1:8000`` is
pointed at the test server (in the commands that follow a curl too), and
bash runs it with the real curl. curl is
wrapped only to also write the answer's headers to a file, so the status and
content type can be checked; the command line itself is untouched. A ``json``
block right after the command's block is its documented answer: the status
must be the documented one (2xx unless the answer is a problem) and every
value shown must be in the real answer ("..." abridges: a list ending in
"..." shows its first items, and "..." inside a string stands for any text).
A block that starts the service with variables (``BACCARAT_API_KEYS=...
make run``, or a tables file in approved mode) runs against a server started
with those variables.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
import yaml

from service.app import create_app

from . import tools
from .servers import gunicorn

pytestmark = pytest.mark.server

DOCUMENTS = [tools.ROOT / "README.md", *sorted((tools.ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^[ \t]*```([\w-]*)\n(.*?)^[ \t]*```", re.MULTILINE | re.DOTALL)  # also in list items
HEADING = re.compile(r"^#", re.MULTILINE)
DOCUMENTED_HOST = "http://127.0.0.1:8000"
#: Where the documents say gunicorn's master serves the metrics.
DOCUMENTED_METRICS = "http://127.0.0.1:9100"
START = re.compile(r"^((?:[A-Z_]+=\S+ )+)make run$", re.MULTILINE)
ABRIDGED = "..."
#: The command line as a reader runs it after the two commands (README, "Two commands").
CLI = ".venv/bin/baccarat "
FOLLOW_UPS = (CLI, "node verifier/")


@dataclass(frozen=True)
class Example:
    """One curl command, where it is written, and what the text says it answers."""

    where: str
    command: str
    answer: Any = None
    #: The variables the block starts the service with (none: the open server).
    start: tuple[tuple[str, str], ...] = ()
    #: Commands after it in its block that use what it saved (``baccarat verify``, the verifier).
    then: tuple[str, ...] = ()

    @property
    def method(self) -> str:
        words = shlex.split(self.command, comments=True)
        if "-X" in words:
            return words[words.index("-X") + 1]
        return "POST" if {"-d", "--data", "--data-binary"} & set(words) else "GET"

    @property
    def path(self) -> str:
        hosts = "|".join(map(re.escape, (DOCUMENTED_HOST, DOCUMENTED_METRICS)))
        found = re.search(f"(?:{hosts})" + r"(/[^\s'\"?]*)", self.command)
        assert found, f"{self.where}: no {DOCUMENTED_HOST} URL"
        return found.group(1)

    @property
    def expected_status(self) -> int | None:
        """The documented problem's status, or None for a success."""
        problem = self.answer
        if isinstance(problem, dict) and isinstance(problem.get("status"), int) and "type" in problem:
            return int(problem["status"])
        return None


def shell_commands(block: str) -> Iterator[tuple[int, str]]:
    """The commands of a shell block (line offset, text), continuation lines joined."""
    current: list[str] = []
    start = 0
    for number, line in enumerate(block.splitlines()):
        if not current:
            start = number
        current.append(line)
        text = "\n".join(current)
        if text.rstrip().endswith("\\"):
            continue
        try:
            shlex.split(text, comments=True)
        except ValueError:  # a quote still open: a multi-line body
            continue
        if text.strip():
            yield start, text.strip()
        current = []


def examples(document: Path) -> Iterator[Example]:
    text = document.read_text(encoding="utf-8")
    blocks = list(FENCE.finditer(text))
    for index, block in enumerate(blocks):
        if block.group(1) not in ("sh", "bash", "shell"):
            continue
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        answer = None
        if (
            following
            and following.group(1) == "json"
            and not HEADING.search(text, block.end(), following.start())
        ):
            answer = json.loads(textwrap.dedent(following.group(2)))
        started = START.search(block.group(2))
        start = tuple(tuple(word.split("=", 1)) for word in started.group(1).split()) if started else ()
        first_line = text.count("\n", 0, block.start(2)) + 1
        commands = list(shell_commands(textwrap.dedent(block.group(2))))
        curls = [index for index, (_, command) in enumerate(commands) if command.startswith("curl ")]
        for position, index in enumerate(curls):
            end = curls[position + 1] if position + 1 < len(curls) else len(commands)
            yield Example(
                where=f"{document.relative_to(tools.ROOT)}:{first_line + commands[index][0]}",
                command=commands[index][1],
                answer=answer if position == len(curls) - 1 else None,
                start=start,  # type: ignore[arg-type]
                then=tuple(c for _, c in commands[index + 1 : end] if c.startswith(FOLLOW_UPS)),
            )


EXAMPLES = [example for document in DOCUMENTS for example in examples(document)]


def matches(documented: Any, actual: Any, where: str = "") -> list[str]:
    """Where ``actual`` differs from what the documentation shows (empty when it agrees)."""
    if isinstance(documented, dict):
        if not isinstance(actual, dict):
            return [f"{where or '/'}: documented an object, got {actual!r}"]
        return [
            difference
            for key, value in documented.items()
            if key != ABRIDGED
            for difference in (
                matches(value, actual[key], f"{where}/{key}")
                if key in actual
                else [f"{where}/{key}: missing"]
            )
        ]
    if isinstance(documented, list):
        if not isinstance(actual, list):
            return [f"{where}: documented a list, got {actual!r}"]
        shown = documented[:-1] if documented and documented[-1] == ABRIDGED else documented
        if len(shown) != len(documented) and len(actual) < len(shown):
            return [f"{where}: documented at least {len(shown)} items, got {len(actual)}"]
        if len(shown) == len(documented) and len(actual) != len(shown):
            return [f"{where}: documented {len(shown)} items, got {len(actual)}"]
        return [d for i, value in enumerate(shown) for d in matches(value, actual[i], f"{where}/{i}")]
    if isinstance(documented, str) and ABRIDGED in documented and isinstance(actual, str):
        prefix = documented.removesuffix(ABRIDGED)
        if re.fullmatch(r"[0-9a-f]+", prefix) and re.fullmatch(r"[0-9a-f]{64}", actual):
            return []  # an abridged hex digest or seed: random or long, shown only by its start
        pattern = ".*".join(re.escape(part) for part in documented.split(ABRIDGED))
        return (
            [] if re.fullmatch(pattern, actual, re.DOTALL) else [f"{where}: {actual!r} is not {documented!r}"]
        )
    if documented != actual or type(documented) is not type(actual):
        return [f"{where}: documented {documented!r}, got {actual!r}"]
    return []


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[tuple[tuple[str, str], ...], Any]]:
    """An open server, and one for each set of variables the documents start the service with."""
    starts = {example.start for example in EXAMPLES if example.start}
    with gunicorn(workers=2) as open_server:
        running: dict[tuple[tuple[str, str], ...], Any] = {(): open_server}
        stack = [gunicorn(workers=1, env=dict(start)) for start in starts]
        try:
            for start, context in zip(starts, stack, strict=True):
                running[start] = context.__enter__()
            yield running
        finally:
            for context in stack:
                context.__exit__(None, None, None)


def shell(command: str, workdir: Path) -> subprocess.CompletedProcess[str]:
    """``command`` run by bash in ``workdir``, with the wrapped curl, and this
    environment's virtualenv as ``.venv`` there (a fresh clone's, after
    ``make``): ``baccarat`` is not on the PATH, as it is not for a reader."""
    venv = workdir / ".venv"
    if not venv.exists():
        venv.symlink_to(Path(sys.executable).parent.parent)
    path = f"{workdir / 'bin'}:/usr/local/bin:/usr/bin:/bin"
    environment = {"PATH": path, "CURL_HEADERS": str(workdir / "headers"), "HOME": str(workdir)}
    return subprocess.run(
        ["bash", "-c", command], cwd=workdir, env=environment, capture_output=True, text=True, timeout=120
    )


def run(example: Example, server: Any, workdir: Path) -> tuple[int, str, str]:
    """Run the command as written; the answer's status, content type and body."""
    curl = tools.curl()
    bin_dir = workdir / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "curl"
    wrapper.write_text(f'#!/bin/sh\nexec {shlex.quote(curl)} --dump-header "$CURL_HEADERS" "$@"\n')
    wrapper.chmod(0o755)
    command = example.command.replace(DOCUMENTED_HOST, server.url)
    result = shell(command.replace(DOCUMENTED_METRICS, server.metrics_url), workdir)
    assert result.returncode == 0, f"{example.where}: curl failed: {result.stderr}"
    words = shlex.split(example.command, comments=True)
    # A command that saves the headers itself (-D FILE) overrides the wrapper's -D: read its file.
    own = next((words[i + 1] for i, word in enumerate(words[:-1]) if word in ("-D", "--dump-header")), None)
    lines = (workdir / (own or "headers")).read_text().splitlines()
    status = int([line for line in lines if line.startswith("HTTP/")][-1].split()[1])
    content_type = next(
        (line.split(":", 1)[1].strip() for line in lines if line.lower().startswith("content-type:")), ""
    )
    redirect = re.search(r">\s*(\S+)\s*$", example.command)
    body = (workdir / redirect.group(1)).read_text() if redirect else result.stdout
    return status, content_type, body


def parse(content_type: str, body: str) -> Any:
    """The body, parsed by its content type."""
    if content_type.startswith(("application/json", "application/problem+json")):
        return json.loads(body)
    if content_type.startswith("application/yaml"):
        document = yaml.safe_load(body)
        assert document["openapi"].startswith("3.")
        return document
    if content_type.startswith("text/plain"):
        assert "# TYPE baccarat_http_request_duration_seconds histogram" in body
        return body
    if content_type.startswith("text/html"):
        assert "<html" in body
        return body
    if content_type.startswith("image/svg+xml"):
        assert ElementTree.fromstring(body).tag == "{http://www.w3.org/2000/svg}svg"
        return body
    raise AssertionError(f"unexpected content type {content_type!r}")


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.where for e in EXAMPLES])
def test_the_curl_example_works_as_written(example, servers, tmp_path):
    status, content_type, body = run(example, servers[example.start], tmp_path)
    expected = example.expected_status
    if expected is None:
        assert 200 <= status < 300, f"{example.where}: {status} {body[:500]}"
    else:
        assert status == expected, f"{example.where}: {status} {body[:500]}"
        assert content_type.startswith("application/problem+json")
    answer = parse(content_type, body)
    if example.answer is not None:
        assert matches(example.answer, answer) == [], f"{example.where}: the documented answer differs"
    for command in example.then:
        if command.startswith("node "):
            tools.executable("node", "apt-get install nodejs")
            if not (tmp_path / "verifier").exists():
                (tmp_path / "verifier").symlink_to(tools.ROOT / "verifier")
        result = shell(command.replace(DOCUMENTED_HOST, servers[example.start].url), tmp_path)
        assert result.returncode == 0, f"{example.where}: `{command}` failed: {result.stdout}{result.stderr}"


def test_the_documents_have_an_example_for_every_endpoint():
    """The README shows a round, a settlement and an error; the docs' pages
    (guides/ and reference/ above all) show every other endpoint."""
    spec = create_app({}).test_client().get("/openapi.json").get_json()
    endpoints = {f"{method.upper()} {path}" for path, ops in spec["paths"].items() for method in ops}
    endpoints |= {"GET /", "GET /openapi.json", "GET /docs", "GET /table"}
    shown = {f"{e.method} {e.path}" for e in EXAMPLES}
    # A path's variable part ({table}) matches any one segment of a curl's path.
    missing = [
        endpoint
        for endpoint in endpoints
        if not any(re.fullmatch(re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(endpoint)), s) for s in shown)
    ]
    assert missing == [], f"no document shows a curl for {sorted(missing)}"


@pytest.mark.parametrize("path", ["/v1/rounds", "/v1/settlements", "/"])
def test_the_readme_shows_a_first_round_a_settlement_and_the_landing(path):
    assert any(e.path == path and e.answer for e in EXAMPLES if e.where.startswith("README.md"))


def test_the_readme_shows_a_first_round_on_its_first_screen():
    """A reader sees a round and its answer without scrolling (50 lines)."""
    first = next(e for e in EXAMPLES if e.where.startswith("README.md"))
    assert first.path == "/v1/rounds"
    assert first.answer is not None
    assert int(first.where.rsplit(":", 1)[1]) < 30


def test_the_readme_stays_a_landing_page():
    """About 200 lines: what the service is, a first round, the two commands,
    where everything is; every other topic is a page of docs/."""
    assert (tools.ROOT / "README.md").read_text(encoding="utf-8").count("\n") <= 250


def test_the_readme_states_what_make_test_costs():
    """``make test`` is written with its cost beside it, not beside ``make run`` as if alike."""
    text = (tools.ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"^make test\s+#.*\b\d+ minutes", text, re.MULTILINE)


def test_the_readme_shows_an_error_answer():
    assert any(e.expected_status for e in EXAMPLES if e.where.startswith("README.md"))


@pytest.mark.parametrize(
    ("documented", "actual", "agrees"),
    [
        ({"a": 1, "...": "..."}, {"a": 1, "b": 2}, True),
        ({"a": 1}, {"a": 2}, False),
        ({"a": [1, "..."]}, {"a": [1, 2, 3]}, True),
        ({"a": [1, 2]}, {"a": [1, 2, 3]}, False),
        ({"a": "missing: a card (...)"}, {"a": "missing: a card (the Player draws)"}, True),
        ({"a": "missing: a card (...)"}, {"a": "missing: two cards"}, False),
        ({"h": "c973a0e4..."}, {"h": "0" * 64}, True),
        ({"h": "c973a0e4..."}, {"h": "not hex"}, False),
        ({"n": 1}, {"n": True}, False),
        ({"n": 1}, {}, False),
    ],
)
def test_documented_answers_are_compared_as_the_docstring_says(documented, actual, agrees):
    assert (matches(documented, actual) == []) is agrees


@dataclass(frozen=True)
class Session:
    """A command-line session a document shows (a ``console`` block): the
    command after ``$ `` and the output printed below it."""

    where: str
    command: str
    output: str


def sessions(document: Path) -> Iterator[Session]:
    text = document.read_text(encoding="utf-8")
    for block in FENCE.finditer(text):
        if block.group(1) != "console":
            continue
        first_line = text.count("\n", 0, block.start(2)) + 1
        lines = textwrap.dedent(block.group(2)).splitlines()
        starts = [index for index, line in enumerate(lines) if line.startswith("$ ")]
        for position, start in enumerate(starts):
            end = starts[position + 1] if position + 1 < len(starts) else len(lines)
            command = lines[start].removeprefix("$ ")
            if command.startswith(CLI):
                output = "\n".join(lines[start + 1 : end]).strip("\n")
                yield Session(f"{document.relative_to(tools.ROOT)}:{first_line + start}", command, output)


SESSIONS = [session for document in DOCUMENTS for session in sessions(document)]


@pytest.mark.parametrize("session", SESSIONS, ids=[s.where for s in SESSIONS])
def test_the_command_line_session_prints_what_the_document_shows(session, tmp_path):
    """Each ``$ .venv/bin/baccarat ...`` shown runs as written and prints exactly what is shown."""
    result = shell(session.command, tmp_path)
    assert result.returncode == 0, f"{session.where}: {result.stderr}"
    printed = "\n".join(line.rstrip() for line in result.stdout.strip("\n").splitlines())
    assert printed == "\n".join(line.rstrip() for line in session.output.splitlines()), session.where


def test_the_documents_run_the_command_line_as_a_reader_can():
    """After the two commands ``baccarat`` is in ``.venv/bin``, not on the PATH:
    every block that runs it says ``.venv/bin/baccarat``."""
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for block in FENCE.finditer(text):
            if block.group(1) in ("sh", "bash", "shell", "console"):
                for line in textwrap.dedent(block.group(2)).splitlines():
                    bare = re.match(r"^(\$ )?baccarat ", line)
                    assert bare is None, f"{document.name}: {line!r} should run .venv/bin/baccarat"
    assert SESSIONS, "no command-line session found"
