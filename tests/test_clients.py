"""Typed clients, generated from openapi.yaml as an integrator generates them
(docs/clients.md), call every operation of the live gunicorn server: once
with the service open, once with an API key.

* Python: openapi-python-client (pinned in pyproject.toml) writes the client
  into a temporary directory without a warning; it and
  clients/python/call_every_operation.py pass ``mypy --strict``, and every
  answer the program gets parses as its model and ``to_dict()`` gives back
  the JSON sent; a 422 and a 401 parse as problems.
* TypeScript: openapi-typescript (default options) writes ``schema.d.ts``;
  clients/typescript/call_every_operation.mts, which sends the request
  bodies of the README and its guides (docs/guides/) through openapi-fetch,
  compiles under ``tsc --strict`` and runs.

Generated code stays in the temporary directory. The TypeScript half needs
Node.js and ``npm ci`` (tests/tools.py: skipped without them, unless every
tool is required).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from . import tools
from .servers import Server, gunicorn
from .test_readme import examples

pytestmark = pytest.mark.server

BIN = Path(sys.executable).parent
OPENAPI = tools.ROOT / "openapi.yaml"
#: Each released contract, as docs/contract/openapi-<version>.yaml.
RELEASED = tools.ROOT / "docs" / "contract"
CLIENTS = tools.ROOT / "clients"
API_KEY = "k-clients-5e0c7a93b1f4d268"


def run(
    command: list[str | os.PathLike[str]], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{command}:\n{result.stdout}\n{result.stderr}"
    return result


#: The README and the guides its examples moved to.
TOUR = [tools.ROOT / "README.md", *sorted((tools.ROOT / "docs" / "guides").glob("*.md"))]


def readme_bodies() -> Iterator[tuple[str, object]]:
    """The path and JSON body of each curl command of the README and its guides
    that sends one to the service as ``make run`` starts it (not one started
    with its own tables or keys)."""
    for example in (example for document in TOUR for example in examples(document) if not example.start):
        words = shlex.split(example.command, comments=True)
        if "-d" in words:
            yield example.path, json.loads(words[words.index("-d") + 1])


def operation_ids() -> set[str]:
    spec = yaml.safe_load(OPENAPI.read_text())
    return {operation["operationId"] for item in spec["paths"].values() for operation in item.values()}


@pytest.fixture(scope="module", params=["open", "keyed"])
def server(request: pytest.FixtureRequest) -> Iterator[tuple[Server, str | None]]:
    key = API_KEY if request.param == "keyed" else None
    with gunicorn(env={"BACCARAT_API_KEYS": key}) as live:
        yield live, key


def last_released() -> Path:
    """The contract of the last release (docs/reference/versioning.md keeps each one)."""
    kept = sorted(RELEASED.glob("openapi-*.yaml"), key=lambda path: release(path.stem))
    assert kept, f"no released contract in {RELEASED}"
    return kept[-1]


def release(stem: str) -> tuple[int, ...]:
    """``openapi-1.10.0`` as (1, 10, 0), which sorts releases in order."""
    return tuple(int(part) for part in stem.removeprefix("openapi-").split("."))


@pytest.fixture(scope="module", params=["today", "released"])
def python_client(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory holding the generated package ``baccarat_client``: generated from
    today's openapi.yaml, or from the last released contract, as an integrator who has
    not regenerated since would hold it. Both read every answer of today's service,
    those carrying values the open sets gained since included (the program checks one)."""
    contract = OPENAPI if request.param == "today" else last_released()
    where = tmp_path_factory.mktemp("python-client")
    result = run(
        [
            BIN / "openapi-python-client",
            "generate",
            f"--path={contract}",
            "--meta=none",
            f"--output-path={where / 'baccarat_client'}",
            f"--config={CLIENTS / 'python' / 'openapi-python-client.yaml'}",
        ],
        env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},  # its ruff
    )
    assert "Warning" not in result.stdout + result.stderr, result.stdout + result.stderr
    return where


def test_the_python_client_passes_mypy_strict(python_client: Path):
    run(
        [
            BIN / "mypy",
            f"--config-file={CLIENTS / 'python' / 'mypy.ini'}",
            f"--cache-dir={python_client / '.mypy_cache'}",
            python_client / "baccarat_client",
            CLIENTS / "python" / "call_every_operation.py",
        ],
        env={**os.environ, "MYPYPATH": str(python_client)},
    )


def test_the_python_client_calls_every_operation(python_client: Path, server: tuple[Server, str | None]):
    live, key = server
    program = [
        sys.executable,
        CLIENTS / "python" / "call_every_operation.py",
        live.url,
        *([key] if key else []),
    ]
    result = run(program, env={**os.environ, "PYTHONPATH": str(python_client)})
    assert set(json.loads(result.stdout)) == operation_ids()


@pytest.fixture(scope="module")
def typescript_client(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """Node.js and the compiled program, beside its generated ``schema.d.ts``."""
    node, openapi_typescript = tools.npm_package("openapi-typescript", "bin/cli.js")
    _, tsc = tools.npm_package("typescript", "bin/tsc")
    where = tmp_path_factory.mktemp("typescript-client")
    for name in ("call_every_operation.mts", "tsconfig.json"):
        shutil.copy(CLIENTS / "typescript" / name, where / name)
    (where / "node_modules").symlink_to(tools.ROOT / "node_modules")
    run([node, openapi_typescript, OPENAPI, "--output", where / "schema.d.ts"])
    run([node, tsc, "--project", where])
    return node, where / "out" / "call_every_operation.mjs"


def test_the_typescript_client_calls_every_operation(
    typescript_client: tuple[str, Path], server: tuple[Server, str | None]
):
    node, program = typescript_client
    live, key = server
    result = run([node, program, live.url, *([key] if key else [])])
    report = json.loads(result.stdout)
    assert set(report["operations"]) == operation_ids()
    sent = {json.dumps(body, sort_keys=True) for body in report["bodies"]}
    bodies = list(readme_bodies())
    assert len(bodies) >= 10
    for path, body in bodies:
        assert json.dumps(body, sort_keys=True) in sent, f"{path}: the documented body was not sent: {body}"
