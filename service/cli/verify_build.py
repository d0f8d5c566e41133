"""``baccarat verify-build``: is the installed engine the build a lab certified?

The engine's critical files (every file of ``service/baccarat/`` as
installed) are hashed into a manifest and its digest
(service/provenance/manifest.py, docs/build-digest.md), and the digest is
compared with the one a release published (``--digest``), or with the one
the build recorded when it was built. Offline: nothing is asked of a
running service, whose answers and JWKS name the digest it computed at start.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..provenance.build import NotTheBuild, claimed, engine, installed
from ..provenance.manifest import is_digest
from .documents import MISMATCH, OK, write_json

DESCRIPTION = """\
Hash the installed engine's critical files (every file of service/baccarat,
bytecode caches aside) and compare their digest with a release's published
digest (--digest), or else with the digest the build recorded when it was
built. Prints the digest and the manifest as JSON (--manifest: the manifest
as sha256sum prints it, whose sha256sum is the digest)."""

EPILOG = """\
examples:
  baccarat verify-build
  baccarat verify-build --digest 4d1f0c6e9a3b...  (64 hex digits: the release's published digest)
  baccarat verify-build --manifest | sha256sum

exit code 0 when the digest is the one expected, 1 when it is not (or when
no digest is given and the build recorded none: a source tree), with one
line on stderr saying why."""


def digest(text: str) -> str:
    """A digest given on the command line: 64 hex digits (either case)."""
    if not is_digest(text.lower()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a SHA-256 digest (64 hex digits)")
    return text.lower()


def add_parser(subparsers: Any) -> None:
    """``baccarat verify-build``."""
    parser = subparsers.add_parser(
        "verify-build",
        help="check the installed engine's files against a published digest (exit 1 when they differ)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--digest",
        type=digest,
        metavar="HEX",
        help="the digest the release published (default: the one the build recorded)",
    )
    parser.add_argument(
        "--manifest", action="store_true", help="print the manifest as sha256sum prints it, not JSON"
    )


def run(args: argparse.Namespace) -> int:
    """Print the digest and the manifest; 0 when the digest is the one expected."""
    manifest = installed()
    recorded: str | None = None
    unreadable: str | None = None
    try:
        recorded = claimed()
    except NotTheBuild as error:
        unreadable = str(error)
    expected = args.digest if args.digest is not None else recorded
    if args.manifest:
        sys.stdout.write(manifest.text)
    else:
        write_json(
            {
                "engine": engine(),
                "recorded": recorded,
                "expected": expected,
                "verified": expected == manifest.digest,
                "files": [{"path": path, "sha256": sha256} for path, sha256 in manifest.entries],
            }
        )
    if expected is None:
        reason = unreadable or "the build records no digest (a source tree or an editable install)"
        print(f"not verified: {reason}: give the release's with --digest", file=sys.stderr)
        return MISMATCH
    if expected != manifest.digest:
        whose = "the published" if args.digest is not None else "the build's recorded"
        print(
            f"not verified: the engine's files have the digest {manifest.digest}, not {whose} {expected}",
            file=sys.stderr,
        )
        return MISMATCH
    return OK
