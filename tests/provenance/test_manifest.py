"""The manifest of the engine's critical files and its digest: every byte
counts, the order is the paths' alone, caches stay out, and the recipe the
documentation gives (``find | sort | xargs sha256sum | sha256sum``) gives
the same digest."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib.resources import files
from pathlib import Path

import pytest

from service.provenance.manifest import Manifest, claim_text, is_digest, manifest, read_claim

ENGINE = Path(str(files("service.baccarat")))
#: The command docs/build-digest.md gives, run in the folder that holds ``service``.
RECIPE = (
    "find service/baccarat -type f ! -path '*/__pycache__/*' -print0"
    " | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum"
)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the engine's files (caches aside) in ``tmp_path/service/baccarat``; its ``service``."""
    shutil.copytree(ENGINE, tmp_path / "service" / "baccarat", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "service"


def test_the_manifest_lists_every_engine_file_with_its_sha256(copy):
    listed = manifest(copy)
    paths = [path for path, _ in listed.entries]
    assert "service/baccarat/rulebook/tableau.py" in paths
    assert "service/baccarat/shoes/shuffle.py" in paths
    assert "service/baccarat/multipliers/structure.npz" in paths  # data, not only code
    assert paths == sorted(paths)
    found = {"service/" + str(path.relative_to(copy)) for path in copy.rglob("*") if path.is_file()}
    assert set(paths) == found
    assert all(is_digest(sha256) for _, sha256 in listed.entries)
    assert is_digest(listed.digest)


@pytest.mark.parametrize(
    "changed",
    ["rulebook/tableau.py", "bets/main_bets.py", "shoes/shuffle.py", "multipliers/structure.npz"],
)
def test_one_byte_changed_in_a_critical_file_changes_the_digest(copy, changed):
    before = manifest(copy).digest
    path = copy / "baccarat" / changed
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))
    assert manifest(copy).digest != before


def test_a_file_added_or_removed_changes_the_digest(copy):
    before = manifest(copy).digest
    (copy / "baccarat" / "bets" / "extra.py").write_text("")
    added = manifest(copy).digest
    (copy / "baccarat" / "bets" / "extra.py").unlink()
    (copy / "baccarat" / "bets" / "money.py").unlink()
    assert len({before, added, manifest(copy).digest}) == 3


def test_bytecode_caches_are_not_critical_files(copy):
    before = manifest(copy)
    cache = copy / "baccarat" / "rulebook" / "__pycache__"
    cache.mkdir()
    (cache / "tableau.cpython-311.pyc").write_bytes(b"\x00" * 16)
    assert manifest(copy) == before


def test_the_order_is_the_paths_whatever_order_the_files_were_written_in(tmp_path):
    """Two trees with the same files written in opposite orders have one manifest."""
    names = ["b.py", "a/z.py", "a.py", "a/b/c.npz", "B.py"]
    trees = []
    for order, name in enumerate(["first", "second"]):
        root = tmp_path / name / "service"
        for file in names if order == 0 else reversed(names):
            path = root / "baccarat" / file
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(file)
        trees.append(manifest(root))
    assert trees[0] == trees[1]
    assert [path.removeprefix("service/baccarat/") for path, _ in trees[0].entries] == [
        "B.py",
        "a.py",
        "a/b/c.npz",
        "a/z.py",
        "b.py",
    ]


def test_the_manifest_is_what_sha256sum_prints_and_the_digest_its_sha256():
    entries = (("service/baccarat/a.py", "ab" * 32), ("service/baccarat/b/c.py", "cd" * 32))
    text = f"{'ab' * 32}  service/baccarat/a.py\n{'cd' * 32}  service/baccarat/b/c.py\n"
    assert Manifest(entries).text == text
    digest = subprocess.run(["sha256sum"], input=text, capture_output=True, text=True, check=True).stdout
    assert Manifest(entries).digest == digest.split()[0]


def test_the_documented_recipe_gives_the_digest(copy):
    """docs/build-digest.md: an auditor with coreutils alone gets the same digest."""
    (copy / "baccarat" / "rulebook" / "__pycache__").mkdir()
    (copy / "baccarat" / "rulebook" / "__pycache__" / "x.pyc").write_bytes(b"cache")
    printed = subprocess.run(
        ["bash", "-c", RECIPE], cwd=copy.parent, capture_output=True, text=True, check=True
    ).stdout
    assert printed == f"{manifest(copy).digest}  -\n"


def test_a_claim_is_read_back_as_written():
    digest = "0123456789abcdef" * 4
    claim = read_claim(claim_text("baccarat-service", "1.0.0", digest))
    assert claim == {"name": "baccarat-service", "version": "1.0.0", "digest": digest}
    assert json.loads(claim_text("baccarat-service", "1.0.0", digest))["digest"] == digest


@pytest.mark.parametrize("text", ["", "[]", '{"digest": null}', '{"digest": "' + "A" * 64 + '"}'])
def test_a_claim_without_a_digest_is_refused(text):
    with pytest.raises(ValueError, match=r"Expecting value|not 64 hex digits"):
        read_claim(text)
