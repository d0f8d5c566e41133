"""The toolchain configured in pyproject.toml (ruff, lint and format, and
mypy), and modules small enough to read."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
BIN = Path(sys.executable).parent


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "service", "tests", "bench", "clients"],
        ["ruff", "format", "--check", "service", "tests", "bench", "clients"],
        ["mypy"],
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_tool_passes(command):
    result = subprocess.run([str(BIN / command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


#: The length past which a module says in its docstring why it is one module.
LONG_MODULE = 420


@pytest.mark.parametrize(
    "path", sorted((ROOT / "service").rglob("*.py")), ids=lambda path: str(path.relative_to(ROOT))
)
def test_a_long_module_says_why_it_is_one(path):
    """Small modules, a room per job: a module of more than about 400 lines
    gives its reason in its docstring, or is split."""
    if len(path.read_text().splitlines()) <= LONG_MODULE:
        return
    docstring = ast.get_docstring(ast.parse(path.read_text())) or ""
    assert "Why one module of this length:" in docstring, f"{path.name} is long and does not say why"
