"""``baccarat verify-answer``: check a stored exchange's signature against the published keys.

The exchange is the JSON a platform stores per signed answer (docs/audit.md):
the request's ``method``, ``url`` and ``body``, and the answer's ``status``,
``headers`` and ``body``, the bodies as their exact text. The keys are a JWK
Set, from a file or from the service's ``/.well-known/jwks.json``. Nothing is
replayed (POST /v1/replays does that); this checks the signature, offline.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from typing import Any

from ..contract.schemas.audit import ReplayRequestSchema, VerdictSchema
from ..contract.signatures import public_keys, verify
from .documents import MISMATCH, OK, load, read_json, refuse, write_json

DESCRIPTION = """\
Check that a stored answer was signed by the service, unaltered, for the
stored request: the signature (RFC 9421, Ed25519) over the answer's status,
Content-Type and Content-Digest and the request's method, URL and digest.
The verdict is printed as JSON; the exit code is 0 when the signature holds."""

EPILOG = """\
examples:
  baccarat verify-answer exchange.json --jwks jwks.json
  baccarat verify-answer exchange.json --jwks http://127.0.0.1:8000/.well-known/jwks.json

exit code 0 when the signature holds, 1 when it does not, 3 for bad input."""

#: The largest JWK Set read from a URL (a few keys are a few hundred bytes).
MAX_JWKS_BYTES = 1024 * 1024


def add_parser(subparsers: Any) -> None:
    """``baccarat verify-answer``."""
    parser = subparsers.add_parser(
        "verify-answer",
        help="check a stored answer's signature against the published keys",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("exchange", metavar="EXCHANGE", help="the stored exchange as JSON (- for stdin)")
    parser.add_argument(
        "--jwks", required=True, metavar="FILE|URL", help="the JWK Set: a file, or an http(s) URL"
    )


def jwks_document(source: str) -> Any:
    """The JWK Set at ``source``: an http(s) URL, or a file."""
    if not source.startswith(("http://", "https://")):
        return read_json(source, "JWK Set")
    try:
        with urllib.request.urlopen(source, timeout=30) as answer:  # noqa: S310 (http(s) only, checked above)
            return json.loads(answer.read(MAX_JWKS_BYTES + 1))
    except (OSError, ValueError) as error:
        refuse("Unreadable JWK Set", f"{source}: {error}")


def run(args: argparse.Namespace) -> int:
    """Print the verdict; 0 when the signature holds."""
    exchange = load(ReplayRequestSchema(), read_json(args.exchange, "stored exchange"))
    try:
        keys = public_keys(jwks_document(args.jwks))
    except ValueError as error:
        refuse("Not a JWK Set of Ed25519 keys", f"{args.jwks}: {error}")
    verdict = verify(exchange, keys)
    write_json(VerdictSchema().dump(verdict))
    if not verdict.verified:
        print(f"not verified: {verdict.reason}", file=sys.stderr)
    return OK if verdict.verified else MISMATCH
