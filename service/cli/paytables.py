"""``baccarat paytables``: the catalogue of pay tables, with exact house edges.

The JSON is ``GET /v1/paytables``'s answer; ``--markdown`` prints the table
of docs/bets.md's "Pay tables" section, which a test holds to this output.
"""

from __future__ import annotations

import argparse
import sys
from decimal import Decimal
from typing import Any

from ..baccarat.requests import PayTablesRequest, pay_tables_with_odds
from ..baccarat.rulebook.cards import MAX_DECKS, MIN_DECKS
from ..contract.schemas.paytables import PayTablesResponseSchema
from .documents import OK, write_json

DESCRIPTION = """\
Every named pay table a table's rules may choose ("rules": {"pay_tables": ...}),
with its lines, its source, and its house edge and hit frequency computed
exactly for a full shoe. Prints GET /v1/paytables's JSON, or with --markdown
the table docs/bets.md shows."""


def add_parser(subparsers: Any) -> None:
    """``baccarat paytables``."""
    parser = subparsers.add_parser(
        "paytables",
        help="list the pay tables with their house edges (GET /v1/paytables)",
        description=DESCRIPTION,
    )
    parser.add_argument(
        "--decks",
        type=int,
        default=MAX_DECKS,
        choices=range(MIN_DECKS, MAX_DECKS + 1),
        metavar="N",
        help=f"decks in the shoe ({MIN_DECKS}-{MAX_DECKS}, default {MAX_DECKS})",
    )
    parser.add_argument("--markdown", action="store_true", help="the table of docs/bets.md instead of JSON")


def catalogue(decks: int = MAX_DECKS) -> dict[str, Any]:
    """The catalogue as ``GET /v1/paytables`` dumps it."""
    return dict(PayTablesResponseSchema().dump(pay_tables_with_odds(PayTablesRequest(decks=decks))))


def percent(text: str, digits: int = 4) -> str:
    """A probability written as a decimal, as a percentage with ``digits`` decimals."""
    return f"{(Decimal(text) * 100).quantize(Decimal(1).scaleb(-digits))}%"


def markdown(document: dict[str, Any]) -> str:
    """One row per pay table: its id, bet, pays, computed edge and hit
    frequency, and the source with the edge it prints."""
    edge = f"house edge ({document['decks']} decks)"
    rows = [
        f"| pay table | bet | pays | {edge} | hit frequency | published | source |",
        "|---|---|---|---|---|---|---|",
    ]
    for table in document["pay_tables"]:
        source = table["source"]
        published = source.get("house_edge", "none found")
        if "note" in source:
            published += f" ({source['note']})"
        rows.append(
            f"| `{table['id']}` | `{table['bet']}` | {table['pays']} | {percent(table['house_edge'])} | "
            f"{percent(table['hit_frequency'])} | {published} | [{source['title']}]({source['url']}) |"
        )
    return "\n".join(rows) + "\n"


def run(args: argparse.Namespace) -> int:
    """Print the catalogue."""
    document = catalogue(args.decks)
    if args.markdown:
        sys.stdout.write(markdown(document))
    else:
        write_json(document)
    return OK
