"""``baccarat tables``: the table presets with their rules, bets, limits and pays.

The JSON is ``GET /v1/tables``'s answer; ``--text`` prints a summary to read.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..baccarat.tables.payouts import table_presets
from ..contract.schemas.reference import TablesResponseSchema
from .documents import OK, write_json

DESCRIPTION = """\
The table presets a round can name with --table (or "table" in a request):
their rules, the bets each offers with limits and pay tables, and chips.
Prints GET /v1/tables's JSON, or a summary with --text."""


def add_parser(subparsers: Any) -> None:
    """``baccarat tables``."""
    parser = subparsers.add_parser(
        "tables", help="list the table presets (GET /v1/tables)", description=DESCRIPTION
    )
    parser.add_argument("--text", action="store_true", help="a summary to read instead of JSON")


def presets() -> dict[str, Any]:
    """The presets as ``GET /v1/tables`` dumps them."""
    return dict(TablesResponseSchema().dump(table_presets()))


def summary(document: dict[str, Any]) -> str:
    """One paragraph per table: its name, description and each bet's limits."""
    lines = []
    for table in document["tables"]:
        default = " (default)" if table["name"] == document["default"] else ""
        lines.append(f"{table['name']}{default}: {table['description']}")
        limits = table["rules"]["limits"]
        lines.extend(f"  {bet:<20} {lim['min']:>8} - {lim['max']}" for bet, lim in limits.items())
        lines.append("")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Print the presets."""
    document = presets()
    if args.text:
        sys.stdout.write(summary(document))
    else:
        write_json(document)
    return OK
