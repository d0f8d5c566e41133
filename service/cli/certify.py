"""``baccarat certify``: the certification kit's evidence for a table, in a folder.

Writes ``report.json`` (every figure with its method, docs/certification.md)
and ``report.html`` (the same as one page with its plots); with a signing
key (``--signing-key``, or the service's ``BACCARAT_SIGNING_KEY_FILE``) also
``report.exchange.json``, the report signed as the service signs its
answers (docs/audit.md), and ``jwks.json``, the key that checks it:
``baccarat verify-answer DIR/report.exchange.json --jwks DIR/jwks.json``.
The work runs on a Dask ``LocalCluster`` of ``--workers`` processes, or on
the workers of the scheduler at ``--scheduler``; a progress bar goes to
stderr on a terminal. Exit 0 when every check passes, 1 when one fails
(each failing one is named).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from ..baccarat.tables.rules import DEFAULT_TABLE, TABLES
from ..contract.audit.exchange import Exchange, StoredRequest, StoredResponse, exchange_document
from ..contract.audit.keys import SigningKey, jwks, private_key
from ..contract.audit.signing import sign
from ..contract.schemas.odds import OddsRequestSchema
from .documents import MISMATCH, OK, load, read_json, refuse

if TYPE_CHECKING:
    from ..certification.report import Inputs
    from ..certification.workers import Workers

DESCRIPTION = """\
The evidence a testing laboratory asks for before an RNG baccarat goes live:
the game's exact math per bet and pay-table line (with the GLI-11 check), a
simulation of N rounds from the service's seeded shoes against it, the
shuffle's statistics and its bit stream through NIST SP 800-22, and rounds
to re-deal. Writes DIR/report.json and DIR/report.html."""

EPILOG = """\
A rules file holds {"table": NAME, "rules": {...}} as POST /v1/odds reads it.

examples:
  baccarat certify --table standard --rounds 1000000 --seed lab-2026-01 --out cert/
  baccarat certify --rules table.json --rounds 200000 --seed s --workers 2 --out cert/
  baccarat certify --rounds 10000000 --seed s --scheduler tcp://dask-scheduler:8786 --out cert/

exit code 0 when every check passes, 1 when one fails, 3 for bad input."""

#: The stored request a signed report is bound to (docs/certification.md).
#: A URL with a host (RFC 9421 signs an absolute URL) that names no server: .invalid (RFC 2606).
SIGNED_URL = "https://baccarat.invalid/certify"


def add_parser(subparsers: Any) -> None:
    """``baccarat certify``."""
    parser = subparsers.add_parser(
        "certify",
        help="the certification evidence for a table: exact math, simulation, shuffle tests",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--table", choices=list(TABLES), help=f"table preset (default: {DEFAULT_TABLE})")
    which.add_argument(
        "--rules", metavar="FILE", help="a rules file: a table and its overrides (- for stdin)"
    )
    parser.add_argument("--rounds", type=int, required=True, metavar="N", help="rounds to simulate (about)")
    parser.add_argument("--seed", required=True, metavar="TEXT", help="server seed of the shoes")
    parser.add_argument(
        "--shuffle-shoes",
        type=int,
        metavar="N",
        help="shoes the shuffle tests count (default: the simulation's, at least 1,000)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        metavar="W",
        help="local worker processes (default: cores)",
    )
    parser.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler, e.g. tcp://host:8786")
    parser.add_argument(
        "--in-process", action="store_true", help="no Dask: every piece in this process (for small runs)"
    )
    parser.add_argument("--out", required=True, metavar="DIR", help="the folder the report is written to")
    parser.add_argument(
        "--signing-key",
        metavar="FILE",
        help="an Ed25519 private key (PEM) to sign report.json with (default: $BACCARAT_SIGNING_KEY_FILE)",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: when stderr is a terminal)",
    )


def _inputs(args: argparse.Namespace) -> Inputs:
    from ..certification.report import Inputs

    body: dict[str, Any] = {"table": args.table or DEFAULT_TABLE}
    if args.rules is not None:
        body = read_json(args.rules, "rules file")
        if not isinstance(body, dict) or set(body) - {"table", "rules"}:
            refuse("Bad rules file", 'a rules file holds {"table": NAME, "rules": {...}} and nothing else')
    request = load(OddsRequestSchema(), body)
    if not 1 <= args.rounds <= 10**10:
        refuse("Bad --rounds", f"--rounds must be 1 to 10^10, not {args.rounds}", status=422)
    if args.workers < 1:
        refuse("Bad --workers", f"--workers must be 1 or more, not {args.workers}", status=422)
    if args.shuffle_shoes is not None and args.shuffle_shoes < 10:
        refuse("Bad --shuffle-shoes", "--shuffle-shoes must be 10 or more", status=422)
    return Inputs(
        request.rules,
        body.get("table", DEFAULT_TABLE),
        dict(body.get("rules", {})),
        args.seed,
        args.rounds,
        args.shuffle_shoes,
    )


def _signing_key(args: argparse.Namespace) -> SigningKey | None:
    path = args.signing_key or os.environ.get("BACCARAT_SIGNING_KEY_FILE") or None
    if path is None:
        return None
    try:
        return SigningKey(private_key(Path(path).read_bytes()))
    except (OSError, ValueError) as error:
        refuse("Cannot read the signing key", f"{path}: {error}")


def signed_exchange(key: SigningKey, inputs: dict[str, Any], body: bytes) -> Exchange:
    """``report.json`` as a stored exchange signed as the service signs an
    answer: the request is the run's inputs (POST to :data:`SIGNED_URL`)."""
    request = StoredRequest("POST", SIGNED_URL, json.dumps(inputs, sort_keys=True).encode())
    exchange = Exchange(request, StoredResponse(200, {"Content-Type": "application/json"}, body))
    return exchange.with_headers(sign(key, request, 200, "application/json", body))


def _run(inputs: Inputs, workers: Workers, show: bool) -> dict[str, Any]:
    from ..certification.report import certify

    with tqdm(total=inputs.work, unit="shoe", file=sys.stderr, disable=not show) as bar:
        return certify(inputs, workers, bar.update)


def run(args: argparse.Namespace) -> int:
    """Certify, write the report, say what passed."""
    # Loaded here, not with the command line: scipy, matplotlib and Dask take
    # a second to import, which no other command should wait for.
    from ..certification.page import page
    from ..certification.report import report_bytes
    from ..certification.workers import InProcess, dask_workers

    inputs = _inputs(args)
    key = _signing_key(args)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    if args.in_process:
        report = _run(inputs, InProcess(), show)
    else:
        with dask_workers(args.scheduler, args.workers) as workers:
            report = _run(inputs, workers, show)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    body = report_bytes(report)
    (out / "report.json").write_bytes(body)
    (out / "report.html").write_text(page(report), encoding="utf-8")
    written = ["report.json", "report.html"]
    if key is not None:
        exchange = signed_exchange(key, report["inputs"], body)
        (out / "report.exchange.json").write_text(json.dumps(exchange_document(exchange), indent=2) + "\n")
        (out / "jwks.json").write_text(json.dumps(jwks(key.published), indent=2) + "\n")
        written += ["report.exchange.json", "jwks.json"]
    digest = hashlib.sha256(body).hexdigest()
    lines = [f"{out}: {', '.join(written)} (report.json sha256 {digest})"]
    for check in report["checks"]:
        failing = f": {', '.join(check['failures'])}" if check["failures"] else ""
        lines.append(
            f"  {'pass' if check['passed'] else 'FAIL'}  {check['check']} ({check['what']}){failing}"
        )
    run_info = report["run"]
    lines.append(
        f"{report['simulation']['rounds']:,} rounds in {run_info['seconds']} s on {run_info['workers']}"
    )
    sys.stdout.write("\n".join(lines) + "\n")
    return OK if report["passed"] else MISMATCH
