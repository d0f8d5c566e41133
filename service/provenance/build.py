"""The running build: the digest of its critical files, the digest it claims, and its engine.

Computed once per process, at start: :func:`service.app.create_app` and
gunicorn's master (``before_fork``, and the one-line refusal in
service/server/startup.py) call :func:`check`, which hashes the installed
files and compares them with the claim the build recorded (setup.py writes
``service/provenance/build.json`` into a built package). Workers forked
from the master inherit what it computed; nothing is hashed on a request.

A source tree or an editable install records no claim: the service serves
with the digest of the files it has, and says once in its log that the
build claims none.

Why :func:`engine` is a cached function rather than a constant: the digest
is read from the installed files, and nothing is read at import time
(a module imported by a build step, a test or ``--help`` reads no file).
The first call computes it; the app factory and the master make that call
at start, and every answer after it gets the same dict, which nothing may
change.
"""

from __future__ import annotations

import logging
from functools import cache
from importlib.resources import files
from typing import Any

from .. import __version__
from .manifest import CLAIM, Manifest, manifest, read_claim

log = logging.getLogger(__name__)

#: The engine's name in every answer's ``engine``.
NAME = "baccarat-service"


class NotTheBuild(Exception):
    """The installed critical files are not those the build claims: one line saying so."""


@cache
def installed() -> Manifest:
    """The manifest of the installed package's critical files (computed once)."""
    return manifest(files("service"))


def claimed() -> str | None:
    """The digest the build recorded, or None in a source tree or an editable install.
    A claim that cannot be read is refused (:class:`NotTheBuild`): a build that
    says nothing readable about itself does not serve."""
    recorded = files("service.provenance").joinpath(CLAIM)
    if not recorded.is_file():
        return None
    try:
        return str(read_claim(recorded.read_text(encoding="utf-8"))["digest"])
    except (ValueError, UnicodeDecodeError) as error:
        raise NotTheBuild(f"service/provenance/{CLAIM} cannot be read: {error}") from None


@cache
def engine() -> dict[str, Any]:
    """Every answer's ``engine``: the name, the version and the digest of the
    installed critical files. Computed on the first call (at start)."""
    return {"name": NAME, "version": __version__, "digest": installed().digest}


@cache
def check() -> None:
    """Compare the installed critical files with the build's claim, once:
    :class:`NotTheBuild` when they differ; a log line when the build claims
    none. The engine's digest is computed by the same call."""
    digest = engine()["digest"]
    claim = claimed()
    if claim is None:
        log.warning(
            "the build records no digest (a source tree or an editable install): serving engine %s,"
            " the digest of the files as they are (baccarat verify-build lists them)",
            digest,
        )
    elif claim != digest:
        raise NotTheBuild(mismatch(digest, claim))


def mismatch(digest: str, expected: str) -> str:
    """One line: the engine's files are not those of ``expected``."""
    return (
        f"the engine's files (service/baccarat) have the digest {digest}, not the build's {expected}:"
        " they were changed after the build (baccarat verify-build lists them)"
    )
