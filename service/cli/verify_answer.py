"""``baccarat verify-answer``: check a stored exchange's signature against the published keys.

The exchange is the JSON a platform stores per signed answer (docs/audit.md):
the request's ``method``, ``url`` and ``body``, and the answer's ``status``,
``headers`` and ``body``, the bodies as their exact text. Or it is what curl
saved: the URL and ``--data`` it sent, the headers it wrote with ``-D`` and
the answer it printed; ``--save`` then writes the stored exchange. The keys
are a JWK Set, from a file or from the service's ``/.well-known/jwks.json``.
Nothing is replayed (POST /v1/replays does that); this checks the signature.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from typing import Any

from ..contract.audit.exchange import dumps_exchange
from ..contract.audit.keys import public_keys
from ..contract.audit.verification import verify
from ..contract.schemas.audit import ReplayRequestSchema, VerdictSchema
from .documents import MISMATCH, OK, load, read_json, refuse, write_json

DESCRIPTION = """\
Check that a stored answer was signed by the service, unaltered, for the
stored request: the signature (RFC 9421, Ed25519) over the answer's status,
Content-Type, Content-Language (the language its words are written in; an
answer signed before it was covered is checked without it) and
Content-Digest, and the request's method, URL and digest.
The verdict is printed as JSON; the exit code is 0 when the signature holds."""

EPILOG = """\
examples:
  baccarat verify-answer exchange.json --jwks jwks.json
  baccarat verify-answer exchange.json --jwks http://127.0.0.1:8000/.well-known/jwks.json
  curl -s -D answer.headers http://127.0.0.1:8000/v1/rounds -H 'Content-Type: application/json' \\
    -d '{"seed": "abc"}' > answer.json
  baccarat verify-answer --url http://127.0.0.1:8000/v1/rounds --data '{"seed": "abc"}' \\
    --answer-headers answer.headers --answer answer.json --jwks jwks.json --save exchange.json

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
    parser.add_argument(
        "exchange", metavar="EXCHANGE", nargs="?", help="the stored exchange as JSON (- for stdin)"
    )
    parser.add_argument(
        "--jwks", required=True, metavar="FILE|URL", help="the JWK Set: a file, or an http(s) URL"
    )
    curl = parser.add_argument_group("instead of EXCHANGE, what curl sent and saved")
    curl.add_argument("--url", help="the URL the request was sent to")
    curl.add_argument("--method", default="POST", help="the request's method (default POST)")
    curl.add_argument("--data", metavar="BODY", help="the request's body, exactly as sent")
    curl.add_argument("--answer-headers", metavar="FILE", help="the answer's headers, as curl -D wrote them")
    curl.add_argument("--answer", metavar="FILE", help="the answer's body, as curl wrote it")
    parser.add_argument("--save", metavar="FILE", help="also write the stored exchange (JSON) to FILE")


def read_text(source: str, what: str) -> str:
    """The exact text of the file ``source``."""
    try:
        with open(source, encoding="utf-8", newline="") as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        refuse(f"Cannot read the {what}", f"{source}: {error}")


def curl_headers(text: str, source: str) -> tuple[int, dict[str, str]]:
    """The status and headers of the last answer in a file written by ``curl -D``
    (an interim ``100 Continue`` comes first); a repeated header's values are
    joined with commas, as HTTP allows."""
    blocks = [block for block in text.replace("\r\n", "\n").split("\n\n") if block.strip()]
    lines = blocks[-1].strip().split("\n") if blocks else []
    status = lines[0].split() if lines else []
    if len(status) < 2 or not status[0].startswith("HTTP/") or not status[1].isdigit():
        refuse("Not a header file written by curl -D", f"{source}: no HTTP status line")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon:
            refuse("Not a header file written by curl -D", f"{source}: {line[:80]!r} is not a header")
        name, value = name.strip(), value.strip()
        same = next((known for known in headers if known.lower() == name.lower()), name)
        headers[same] = f"{headers[same]}, {value}" if same in headers else value
    return int(status[1]), headers


def exchange_from_curl(args: argparse.Namespace) -> dict[str, Any]:
    """The stored exchange's JSON form from the request curl sent and the files it wrote."""
    needed = {
        "--url": args.url,
        "--data": args.data,
        "--answer-headers": args.answer_headers,
        "--answer": args.answer,
    }
    absent = [option for option, value in needed.items() if value is None]
    if absent:
        refuse(
            "Nothing to verify", f"give EXCHANGE, or all of {', '.join(needed)} (missing {', '.join(absent)})"
        )
    status, headers = curl_headers(read_text(args.answer_headers, "answer's headers"), args.answer_headers)
    return {
        "request": {"method": args.method, "url": args.url, "body": args.data},
        "response": {"status": status, "headers": headers, "body": read_text(args.answer, "answer")},
    }


def jwks_document(source: str) -> Any:
    """The JWK Set at ``source``: an http(s) URL, or a file."""
    if not source.startswith(("http://", "https://")):
        return read_json(source, "JWK Set")
    try:
        with urllib.request.urlopen(source, timeout=30) as answer:  # http(s) only, checked above
            return json.loads(answer.read(MAX_JWKS_BYTES + 1))
    except (OSError, ValueError) as error:
        refuse("Unreadable JWK Set", f"{source}: {error}")


def run(args: argparse.Namespace) -> int:
    """Print the verdict; 0 when the signature holds."""
    given = [option for option in ("url", "data", "answer_headers", "answer") if getattr(args, option)]
    if args.exchange is not None and given:
        refuse("Two exchanges", f"give EXCHANGE or --{given[0].replace('_', '-')} and the rest, not both")
    if args.exchange is not None:
        document = read_json(args.exchange, "stored exchange")
    else:
        document = exchange_from_curl(args)
    exchange = load(ReplayRequestSchema(), document)
    try:
        keys = public_keys(jwks_document(args.jwks))
    except ValueError as error:
        refuse("Not a JWK Set of Ed25519 keys", f"{args.jwks}: {error}")
    verdict = verify(exchange, keys)
    if args.save is not None:
        with open(args.save, "w", encoding="utf-8") as file:
            file.write(dumps_exchange(exchange) + "\n")
    write_json(VerdictSchema().dump(verdict))
    if not verdict.verified:
        print(f"not verified: {verdict.reason}", file=sys.stderr)
    return OK if verdict.verified else MISMATCH
