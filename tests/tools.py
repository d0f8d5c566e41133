"""Outside tools some tests need (Chromium, Node.js and the npm packages of
package.json, curl, wrk, dieharder): find them, or skip clearly.

A missing tool skips its tests with the reason and the way to install it, so
``make test`` passes on a machine without them and ``pytest -ra`` lists what
was left out. With ``BACCARAT_REQUIRE_ALL_TOOLS=1`` (set by ``.ci/run``) a
missing tool is a failure instead, and ``tests/conftest.py`` turns any other
skip into a failure too: CI runs everything or fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REQUIRE_ALL_TOOLS = "BACCARAT_REQUIRE_ALL_TOOLS"
ROOT = Path(__file__).parents[1]


def all_tools_required() -> bool:
    """Whether a missing tool must fail the run (CI) rather than skip."""
    return os.environ.get(REQUIRE_ALL_TOOLS) == "1"


def missing(what: str, install: str) -> None:
    """Skip the calling test (or fixture) because ``what`` is missing, or fail under CI."""
    message = f"{what} is not available"
    if all_tools_required():
        pytest.fail(f"{message}; {REQUIRE_ALL_TOOLS}=1 requires it ({install})", pytrace=False)
    pytest.skip(f"{message}: {install} to run this test")


def executable(name: str, install: str, *candidates: str) -> str:
    """The path of the program ``name`` (on PATH, else the first existing candidate)."""
    found = shutil.which(name) or next((c for c in candidates if Path(c).is_file()), None)
    if found is None:
        missing(name, install)
    assert found is not None
    return found


def chromium() -> str:
    """Headless Chromium, for the browser tests of /docs, /table and the roads pictures."""
    return executable("chromium", "apt-get install chromium", "/usr/bin/chromium")


def newman() -> tuple[str, Path]:
    """Node.js and the newman installed in ``node_modules/`` from ``package-lock.json``."""
    node = executable("node", "apt-get install nodejs npm")
    script = ROOT / "node_modules" / "newman" / "bin" / "newman.js"
    if not script.is_file():
        missing("newman (node_modules/)", "run `npm ci` (make test does it when npm is installed)")
    return node, script


#: The oldest Node.js that runs every npm package of package.json (@redocly/cli's floor).
NODE_MINIMUM = (20, 19)


def npm_package(package: str, script: str) -> tuple[str, Path]:
    """Node.js (at least :data:`NODE_MINIMUM`) and the ``script`` of an npm
    package installed in ``node_modules/`` from ``package-lock.json``."""
    node = executable("node", "apt-get install nodejs npm")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout
    major, minor = (int(part) for part in version.strip().lstrip("v").split(".")[:2])
    if (major, minor) < NODE_MINIMUM:
        missing(
            f"Node.js {'.'.join(map(str, NODE_MINIMUM))} or later (this is {version.strip()})",
            "upgrade Node.js",
        )
    path = ROOT / "node_modules" / package / script
    if not path.is_file():
        missing(f"{package} (node_modules/)", "run `npm ci` (make test does it when npm is installed)")
    return node, path


def curl() -> str:
    """curl, to run the README's examples exactly as written."""
    return executable("curl", "apt-get install curl", "/usr/bin/curl")


def wrk() -> str:
    """wrk, the load generator of the fair-service test (a Python generator's
    own tail would hide the server's)."""
    return executable("wrk", "apt-get install wrk", "/usr/bin/wrk")


def dieharder() -> str:
    """dieharder, the recognised battery the certification kit feeds the
    shuffle's bit stream to where it is installed."""
    return executable("dieharder", "apt-get install dieharder", "/usr/bin/dieharder")
