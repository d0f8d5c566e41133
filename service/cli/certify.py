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
(each failing one is named), 2 for a command line argparse cannot read, 3
for input it refuses before any work (a problem document on stderr), 4 when
the Dask cluster fails (one line on stderr), 5 when the run cannot finish
here (out of memory, or an error of the kit: one line on stderr). The
report is written whole or not at all: each file goes to a temporary name
in the folder first, then is renamed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from tqdm import tqdm

from ..baccarat.rulebook.errors import BaccaratError
from ..baccarat.tables.rules import DEFAULT_TABLE
from ..contract.audit.exchange import Exchange, StoredRequest, StoredResponse, exchange_document
from ..contract.audit.keys import SigningKey, jwks, private_key
from ..contract.audit.signing import sign
from ..contract.problems import TYPE_PREFIX, problem_document
from ..contract.schemas.odds import OddsRequestSchema
from ..contract.schemas.seeds import SeedInputSchema
from ..contract.scope import Scope, within
from ..contract.tables_file import TablesFileError, read_tables_file
from .documents import MISMATCH, OK, BadInput, load, read_json, refuse

if TYPE_CHECKING:
    from ..baccarat.tables.rules import Rules
    from ..certification.given_shoes import GivenShoes
    from ..certification.report import Inputs
    from ..certification.workers import Workers

DESCRIPTION = """\
The evidence a testing laboratory asks for before an RNG baccarat goes live:
the game's exact math per bet and pay-table line (with the GLI-11 check), a
simulation of N rounds from the service's seeded shoes against it, the
shuffle's statistics and its bit stream through NIST SP 800-22 (and
dieharder where it is installed), and rounds to re-deal. Writes DIR/report.json and DIR/report.html."""

EPILOG = """\
A rules file holds {"table": NAME, "rules": {...}} as POST /v1/odds reads it.
A shoes file holds one shoe a line: a JSON array of its card codes from the top.
Shoes are dealt as the table deals: whole (burn, cut card), or at a table that
reshuffles after each hand (tie_9) one round from the top of each, no burn: a
seeded run's N rounds are then N shuffles, and a file's line is one hand's shuffle.

examples:
  baccarat certify --table standard --rounds 1000000 --seed lab-2026-01 --out cert/
  baccarat certify --rules table.json --rounds 200000 --seed s --workers 2 --out cert/
  baccarat certify --rounds 10000000 --seed s --scheduler tcp://dask-scheduler:8786 --out cert/
  baccarat certify --shoes shuffler.jsonl --table standard --out cert/

exit code 0 when every check passes, 1 when one fails, 2 for a command line it
cannot read, 3 for input it refuses (before any work), 4 when the Dask cluster
fails, 5 when the run cannot finish (out of memory, or an error of the kit)."""

#: The stored request a signed report is bound to (docs/certification.md).
#: A URL with a host (RFC 9421 signs an absolute URL) that names no server: .invalid (RFC 2606).
SIGNED_URL = "https://baccarat.invalid/certify"
#: Exit code when the Dask cluster cannot be reached or fails during the run.
CLUSTER_FAILED = 4
#: Exit code when the run cannot finish: out of memory, or an error of the kit itself.
RUN_FAILED = 5
#: The files a run writes (the last two only with a signing key).
REPORT_FILES = ("report.json", "report.html", "report.exchange.json", "jwks.json")


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
    which.add_argument(
        "--table",
        metavar="NAME",
        help=f"a table of the catalogue: a built-in preset, or one of --tables (default: {DEFAULT_TABLE}, "
        "or the file's default table)",
    )
    which.add_argument(
        "--rules", metavar="FILE", help="a rules file: a table and its overrides (- for stdin)"
    )
    parser.add_argument(
        "--tables",
        metavar="FILE",
        help="the deployment's tables file (docs/operations/tables.md), whose tables --table names; "
        "BACCARAT_TABLES_FILE by default, as the service reads it",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", metavar="TEXT", help="server seed of the shoes (with --rounds)")
    source.add_argument(
        "--shoes",
        metavar="FILE",
        help="shoes as an RNG or a shuffler produced them: JSON Lines, one shoe's cards from the top a line",
    )
    parser.add_argument("--rounds", type=int, metavar="N", help="rounds to simulate (about), with --seed")
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
    from ..certification.report import MIN_SHOES, Inputs

    table, overrides, rules = _rules(args)
    _check_cluster(args)
    _check_out(Path(args.out))
    given = None
    if args.shoes is not None:
        if args.rounds is not None or args.shuffle_shoes is not None or args.scheduler is not None:
            refuse(
                "Bad arguments",
                "--shoes deals and tests the file's shoes in this process: "
                "no --rounds, --shuffle-shoes or --scheduler",
            )
        given = _given(args.shoes, rules.decks)
    else:
        # The seed as the service reads one (POST /v1/rounds, baccarat round): the same rule, one place.
        load(SeedInputSchema(), {"seed": args.seed})
        if args.rounds is None:
            refuse("Bad arguments", "--seed needs --rounds: how many rounds to deal from it")
        if not 1 <= args.rounds <= 10**10:
            refuse("Bad --rounds", f"--rounds must be 1 to 10^10, not {args.rounds}", status=422)
    if args.workers < 1:
        refuse("Bad --workers", f"--workers must be 1 or more, not {args.workers}", status=422)
    if args.shuffle_shoes is not None and args.shuffle_shoes < MIN_SHOES:
        refuse("Bad --shuffle-shoes", f"--shuffle-shoes must be {MIN_SHOES} or more", status=422)
    inputs = Inputs(
        rules, table, overrides, args.seed or "", args.rounds or 0, args.shuffle_shoes, given=given
    )
    if inputs.shoes < MIN_SHOES:
        dealt = f"--rounds {args.rounds} deals" if given is None else f"{args.shoes} holds"
        shoes = f"{inputs.shoes} shoe{'' if inputs.shoes == 1 else 's'}"
        refuse(
            "Too few shoes to certify",
            f"{dealt} {shoes} at this table; a run needs at least {MIN_SHOES} shoes "
            "(docs/certification.md: below, its verdicts are not calibrated)",
            status=422,
        )
    return inputs


def _rules(args: argparse.Namespace) -> tuple[str, dict[str, Any], Rules]:
    """The table, its overrides and the resolved rules of a run: a game the
    kit has math for, at a table of the deployment's catalogue (the service's
    ``BACCARAT_TABLES_FILE``, or ``--tables``), held as the service holds it:
    where only approved tables are played (``BACCARAT_APPROVED_TABLES_ONLY``),
    a rules file's ``rules`` are refused as a request's are."""
    catalogue = _catalogue(args)
    body: dict[str, Any] = {"table": args.table or catalogue.tables.default}
    if args.rules is not None:
        body = read_json(args.rules, "rules file")
        if isinstance(body, dict) and ("peek" in body or "peek" in (_mapping(body.get("rules")))):
            _no_peek()
        if not isinstance(body, dict) or set(body) - {"table", "rules"}:
            refuse("Bad rules file", 'a rules file holds {"table": NAME, "rules": {...}} and nothing else')
    table = body.get("table", catalogue.tables.default)
    if isinstance(table, str) and table in catalogue.tables and catalogue.tables[table].peek:
        _no_peek()
    with within(catalogue):
        request = load(OddsRequestSchema(), body)
    if request.rules.multipliers is not None:
        refuse(
            "A multiplier game cannot be certified",
            f"the rules name the multiplier rule {request.rules.multipliers.id}: the kit's math, "
            "simulation and fees are the plain game's, so it refuses rather than report another game",
            status=422,
            slug="uncertifiable-game",
        )
    return body.get("table", catalogue.tables.default), dict(body.get("rules", {})), request.rules


def _catalogue(args: argparse.Namespace) -> Scope:
    """The tables the run may name, as the service's configuration gives them."""
    path = args.tables or os.environ.get("BACCARAT_TABLES_FILE")
    approved = os.environ.get("BACCARAT_APPROVED_TABLES_ONLY", "false").strip().lower() == "true"
    if path is None:
        return Scope(approved=approved)
    try:
        loaded = read_tables_file(path)
    except TablesFileError as error:
        refuse("Bad tables file", f"{path}: {error}", status=400, slug="invalid-tables-file")
    return Scope(tables=loaded.catalogue, approved=approved)


def _no_peek() -> NoReturn:
    """Refuse Peek Baccarat: sent as a peek, or as its table."""
    refuse(
        "Peek Baccarat cannot be certified",
        "peek's fee, raises and shown cards are not in the kit's math, which is the plain game's",
        status=422,
        slug="uncertifiable-game",
    )


def _given(path: str, decks: int) -> GivenShoes:
    """The shoes of ``path``, every line checked before any work."""
    from ..certification.given_shoes import MAX_ERRORS, read_shoes

    try:
        with open(path, "rb") as stream:
            given, errors = read_shoes(stream, decks)
    except OSError as error:
        refuse("Cannot read the shoes file", f"{path}: {error}")
    if given is None:
        first = errors[0]
        raise BadInput(
            problem_document(
                422,
                "Bad shoes file",
                f"{path}: {len(errors)} bad line(s) (reading stops at {MAX_ERRORS}); line {first['line']}"
                f"{' field ' + first['pointer'] if first['pointer'] else ''}: {first['detail']}",
                type=TYPE_PREFIX + "bad-shoes-file",
                errors=errors,
            )
        )
    return given


def _check_cluster(args: argparse.Namespace) -> None:
    from ..certification.workers import address_problem

    if args.scheduler is not None:
        problem = address_problem(args.scheduler)
        if problem is not None:
            refuse("Bad --scheduler", f"{args.scheduler!r} is not a Dask scheduler's address: {problem}")


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _check_out(out: Path) -> None:
    """Refuse, before any work, a folder the report could not be written to."""
    if out.exists() and not out.is_dir():
        refuse("Bad --out", f"{out} exists and is not a folder")
    existing = [name for name in REPORT_FILES if (out / name).exists()]
    if existing:
        refuse("Bad --out", f"{out} already holds {', '.join(existing)}: give a new or empty folder")
    parent = out
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        refuse("Bad --out", f"{parent} is a file: no folder can be made in it")
    if not os.access(parent, os.W_OK | os.X_OK):
        refuse("Bad --out", f"cannot write in {parent}")


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


def _write_all(out: Path, files: dict[str, bytes]) -> None:
    """Every file written under a temporary name in ``out``, then each renamed
    to its own: a report is there whole or, if a write fails, not at all."""
    out.mkdir(parents=True, exist_ok=True)
    temporary: dict[str, str] = {}
    try:
        for name, data in files.items():
            handle, path = tempfile.mkstemp(prefix=f".{name}.", dir=out)
            temporary[name] = path
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
        for name, path in temporary.items():
            os.replace(path, out / name)
    except OSError:
        for path in temporary.values():
            Path(path).unlink(missing_ok=True)
        raise


def _run(inputs: Inputs, workers: Workers, show: bool, started: float) -> dict[str, Any]:
    from ..certification.report import certify

    with tqdm(total=inputs.work, unit="shoe", file=sys.stderr, disable=not show) as bar:
        return certify(inputs, workers, bar.update, started=started)


def run(args: argparse.Namespace) -> int:
    """Certify, write the report, say what passed; a run that cannot finish
    here (out of memory, an error of the kit) is one line and exit code
    :data:`RUN_FAILED`, never taken for a failed check (1)."""
    try:
        return _certify(args)
    except (BadInput, BaccaratError):
        raise
    except MemoryError:
        sys.stderr.write("baccarat certify: the run cannot finish: out of memory\n")
    except Exception as error:  # any other failure is the kit's: one line, its own code
        sys.stderr.write(f"baccarat certify: the run cannot finish: {_said(error)}\n")
    return RUN_FAILED


def _said(error: BaseException) -> str:
    """An exception in one line: its class and first line."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _certify(args: argparse.Namespace) -> int:
    # Loaded here, not with the command line: scipy, matplotlib and Dask take
    # a second to import, which no other command should wait for.
    from ..certification.page import page
    from ..certification.report import report_bytes
    from ..certification.workers import ClusterFailed, InProcess, dask_workers

    started = time.perf_counter()
    inputs = _inputs(args)
    key = _signing_key(args)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    # A file's shoes would travel with every piece sent to a worker: they are counted here.
    if args.in_process or inputs.given is not None:
        report = _run(inputs, InProcess(), show, started)
    else:
        try:
            with dask_workers(args.scheduler, args.workers) as workers:
                report = _run(inputs, workers, show, started)
        except ClusterFailed as error:
            sys.stderr.write(f"baccarat certify: the cluster failed: {error}\n")
            return CLUSTER_FAILED
    out = Path(args.out)
    body = report_bytes(report)
    files = {"report.json": body, "report.html": page(report).encode()}
    if key is not None:
        exchange = signed_exchange(key, report["inputs"], body)
        files["report.exchange.json"] = (json.dumps(exchange_document(exchange), indent=2) + "\n").encode()
        files["jwks.json"] = (json.dumps(jwks(key.published), indent=2) + "\n").encode()
    try:
        _write_all(out, files)
    except OSError as error:
        refuse("Cannot write the report", f"{out}: {error}")
    written = list(files)
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
    if run_info["workers_lost"]:
        lost = ", ".join(run_info["workers_lost"])
        lines.append(f"  workers lost during the run (their pieces computed again): {lost}")
    sys.stdout.write("\n".join(lines) + "\n")
    return OK if report["passed"] else MISMATCH
