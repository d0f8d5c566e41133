"""``baccarat``: the service's engine on the command line, offline.

Each command is a module with ``add_parser(subparsers) -> None`` (it adds its
sub-parser) and ``run(args) -> int`` (it does the work and returns the exit
code); :data:`COMMANDS` lists them in the order ``--help`` shows them. The
commands call the same engine and validate with the same schemas as the
HTTP service: an input refused here is refused there, with the same problem.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from .. import __version__
from ..baccarat.rulebook.errors import BaccaratError
from ..contract.scope import OPEN, within
from . import certify as certify
from . import odds as odds
from . import paytables as paytables
from . import round as round
from . import settle as settle
from . import simulate as simulate
from . import tables as tables
from . import verify as verify
from . import verify_answer as verify_answer
from . import verify_build as verify_build
from .documents import BAD_INPUT, EXIT_CODES, BadInput, domain_problem, write_json

COMMANDS: tuple[ModuleType, ...] = (
    round,
    settle,
    verify,
    verify_answer,
    verify_build,
    tables,
    paytables,
    odds,
    simulate,
    certify,
)

DESCRIPTION = """\
Deal and settle baccarat (Punto Banco) rounds offline, with the same engine
and the same validation as the HTTP service. Answers are the service's JSON."""

EXAMPLES = """\
examples:
  baccarat round --cards 9S KH 2D 7C 5H --bets slip.json
  baccarat round --seed table-7/shoe-1
  baccarat settle table.json
  curl -s http://127.0.0.1:8000/v1/rounds -H 'Content-Type: application/json' \\
    -d '{"seed": "abc"}' > answer.json && baccarat verify answer.json
  baccarat verify-answer exchange.json --jwks http://127.0.0.1:8000/.well-known/jwks.json
  baccarat verify-build --digest 4d1f0c6e...  (the release's published digest)
  baccarat tables --text
  baccarat odds --removed 9S KH 2D 7C 5H
  baccarat simulate --shoes 1000 --seed table-7"""


def build_parser() -> argparse.ArgumentParser:
    """The ``baccarat`` parser, one sub-parser per module of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="baccarat",
        description=DESCRIPTION,
        epilog=f"{EXAMPLES}\n\n{EXIT_CODES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for command in COMMANDS:
        before = set(subparsers.choices)
        command.add_parser(subparsers)
        for name in set(subparsers.choices) - before:
            subparsers.choices[name].set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit code (see ``baccarat --help``)."""
    args = build_parser().parse_args(argv)
    try:
        # A command answers as the open service does: at the built-in presets,
        # naming the table a request named, and no operator.
        with within(OPEN):
            return int(args.run(args))
    except BadInput as exc:
        write_json(exc.problem, sys.stderr)
    except BaccaratError as exc:
        write_json(domain_problem(exc), sys.stderr)
    return BAD_INPUT
