"""How the contract may change (docs/reference/versioning.md), checked.

* Its version is one: ``info.version`` of ``openapi.yaml``, the package's
  ``__version__`` and so every answer's ``engine.version``.
* Every release in CHANGELOG.md keeps its contract in ``docs/contract/``
  (``openapi-<version>.yaml``), and every kept contract is a release there.
* ``openapi.yaml`` has no breaking change against the last released
  contract, as api-smart-diff (package.json) finds them: a removed operation,
  field or value, a new required input, a narrower type... unless its major
  version is a new one, and then every path of the last release is still
  served beside the new ones.

api-smart-diff needs Node.js and ``npm ci`` (tests/tools.py says what a
missing tool does).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from service import __version__
from service.app import create_app

from . import tools

CONTRACTS = tools.ROOT / "docs" / "contract"
CHANGELOG = tools.ROOT / "CHANGELOG.md"
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", re.MULTILINE)
KEPT = re.compile(r"^openapi-(\d+\.\d+\.\d+)\.yaml$")


def version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def current() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((tools.ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    return document


def kept() -> dict[str, Path]:
    """The released contracts, by version."""
    return {match.group(1): path for path in CONTRACTS.iterdir() if (match := KEPT.match(path.name))}


def last_release() -> tuple[str, dict[str, Any]]:
    number = max(kept(), key=version)
    return number, yaml.safe_load(kept()[number].read_text(encoding="utf-8"))


def test_the_contract_has_one_version_everywhere():
    assert current()["info"]["version"] == __version__
    answer = create_app({}).test_client().post("/v1/rounds", json={"cards": ["9S", "KH", "2D", "7C", "5H"]})
    engine = answer.get_json()["engine"]
    assert (engine["name"], engine["version"]) == ("baccarat-service", __version__)


def test_every_release_keeps_its_contract_and_every_kept_contract_is_a_release():
    released = set(RELEASE.findall(CHANGELOG.read_text(encoding="utf-8")))
    assert released, "CHANGELOG.md names no release"
    assert released == set(kept())


def test_the_contract_is_never_older_than_the_last_release():
    number, _ = last_release()
    assert version(current()["info"]["version"]) >= version(number)


def breaking_changes(released: dict[str, Any], now: dict[str, Any], where: Path) -> list[dict[str, Any]]:
    """The breaking changes from ``released`` to ``now``, by api-smart-diff."""
    node, _ = tools.npm_package("api-smart-diff", "package.json")
    (where / "released.json").write_text(json.dumps(released))
    (where / "current.json").write_text(json.dumps(now))
    script = tools.ROOT / "tests" / "breaking_changes.mjs"
    result = subprocess.run(
        [node, script, where / "released.json", where / "current.json"],
        cwd=tools.ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)["breaking"]
    return found


def test_no_breaking_change_since_the_last_release(tmp_path):
    number, released = last_release()
    now = current()
    if version(now["info"]["version"])[0] > version(number)[0]:
        kept_paths = set(released["paths"]) - set(now["paths"])
        assert kept_paths == set(), f"a new major version still serves the paths of {number}"
        return
    found = breaking_changes(released, now, tmp_path)
    described = [f"{'/'.join(map(str, change['path']))}: {change['description']}" for change in found[:20]]
    assert found == [], (
        f"openapi.yaml breaks the contract released as {number} ({len(found)} changes): "
        "see docs/reference/versioning.md\n" + "\n".join(described)
    )


@pytest.mark.parametrize(
    ("change", "breaks"),
    [
        ("remove an operation", True),
        ("require a new input", True),
        ("remove a required answer field", True),
        ("add an optional input", False),
    ],
)
def test_the_diff_tool_tells_breaking_changes_from_compatible_ones(tmp_path, change, breaks):
    """The tool is trusted only as far as it is seen to tell the two apart on this contract."""
    _, released = last_release()
    changed = json.loads(json.dumps(released))
    schemas = changed["components"]["schemas"]
    if change == "remove an operation":
        del changed["paths"]["/v1/rules"]
    elif change == "require a new input":
        schemas["RoundRequest"].setdefault("required", []).append("seed")
    elif change == "remove a required answer field":
        for schema in schemas.values():
            if "engine" in schema.get("required", []):
                schema["required"].remove("engine")
                del schema["properties"]["engine"]
    else:
        schemas["RoundRequest"]["properties"]["note"] = {"type": "string"}
    assert bool(breaking_changes(released, changed, tmp_path)) is breaks
