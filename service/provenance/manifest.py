"""The manifest of the engine's critical files and its digest, recomputable by hand.

The critical files are every file under ``service/baccarat/`` as installed,
but Python's bytecode caches (``__pycache__`` folders, which the interpreter
writes and rewrites itself). The manifest is what ``sha256sum`` prints for
them, sorted by path: one line per file, its SHA-256 in hex, two spaces,
its path from the folder that holds ``service`` (``service/baccarat/...``,
``/`` between parts). The digest is the SHA-256 of the manifest's bytes
(UTF-8). So, in the folder that holds the installed ``service`` package::

    find service/baccarat -type f ! -path '*/__pycache__/*' -print0 \\
      | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum

prints the digest (tests/provenance/test_manifest.py runs it).

This module imports nothing but the standard library, and nothing of the
service: setup.py loads it from its file to record the digest a build
claims (:data:`CLAIM`), before the package is installed.

>>> entries = (("service/baccarat/a.py", "0" * 64),)
>>> Manifest(entries).text == "0" * 64 + "  service/baccarat/a.py\\n"
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from typing import Any

#: The critical files' folder, from the folder that holds ``service``.
CRITICAL = ("service", "baccarat")
#: Folders that are not part of the build: the interpreter's bytecode caches.
NOT_SHIPPED = frozenset({"__pycache__"})
#: The file in ``service/provenance/`` where a build records the digest it claims (setup.py).
CLAIM = "build.json"


@dataclass(frozen=True, slots=True)
class Manifest:
    """The critical files: each path (``service/baccarat/...``) with its SHA-256, sorted by path."""

    entries: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        """The manifest as ``sha256sum`` prints it: ``<sha256>  <path>`` per line."""
        return "".join(f"{sha256}  {path}\n" for path, sha256 in self.entries)

    @property
    def digest(self) -> str:
        """The SHA-256 (hex) of :attr:`text`: the build's digest."""
        return hashlib.sha256(self.text.encode()).hexdigest()


def critical_files(folder: Traversable, path: str) -> Iterator[tuple[str, bytes]]:
    """Every file under ``folder`` (whose path is ``path``) and its bytes, caches left out."""
    for item in folder.iterdir():
        if item.is_dir():
            if item.name not in NOT_SHIPPED:
                yield from critical_files(item, f"{path}/{item.name}")
        elif item.is_file():
            yield f"{path}/{item.name}", item.read_bytes()


def manifest(service: Traversable) -> Manifest:
    """The manifest of the critical files of the ``service`` package at ``service``
    (``importlib.resources.files("service")``, or the built package's folder).
    Paths are sorted by their characters, as ``LC_ALL=C sort`` sorts their UTF-8 bytes."""
    found = critical_files(service.joinpath(CRITICAL[1]), "/".join(CRITICAL))
    return Manifest(tuple(sorted((path, hashlib.sha256(data).hexdigest()) for path, data in found)))


def claim_text(name: str, version: str, digest: str) -> str:
    """The claim a build records (:data:`CLAIM`): its name, version and digest, as JSON."""
    return json.dumps({"name": name, "version": version, "digest": digest}, indent=1) + "\n"


def read_claim(text: str) -> dict[str, Any]:
    """A claim's JSON, with a 64-hex ``digest``; ValueError for anything else.

    >>> read_claim('{"digest": "x"}')
    Traceback (most recent call last):
    ...
    ValueError: the recorded claim's digest is not 64 hex digits
    """
    claim = json.loads(text)
    digest = claim.get("digest") if isinstance(claim, dict) else None
    if not is_digest(digest):
        raise ValueError("the recorded claim's digest is not 64 hex digits")
    return dict(claim)


def is_digest(value: object) -> bool:
    """Whether ``value`` is a digest as written here: 64 lowercase hex digits.

    >>> is_digest("ab" * 32), is_digest("AB" * 32), is_digest("ab")
    (True, False, False)
    """
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)
