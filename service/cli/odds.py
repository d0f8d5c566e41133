"""``baccarat odds``: the exact odds of the next round and every bet's house edge.

The options build the body of ``POST /v1/odds`` and the analysis is that
endpoint's, from the same engine; it is printed as a table to read, or with
``--json`` as the endpoint's answer.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..baccarat.odds.exact import Odds, decimal_text
from ..baccarat.requests import odds_of
from ..baccarat.tables.rules import DEFAULT_TABLE, TABLES
from ..contract.schemas.odds import OddsRequestSchema, OddsResponseSchema
from .documents import OK, load, write_json
from .round import cards

DESCRIPTION = """\
Exact probabilities of the next round (outcomes and what the side bets pay
on) and the house edge of every bet the table offers, counted over every
ordered sequence of cards the shoe can deal, as POST /v1/odds answers."""

EPILOG = """\
examples:
  baccarat odds
  baccarat odds --decks 6 --table ez
  baccarat odds --removed 9S KH 2D 7C 5H 7D
  baccarat odds --json --table no_commission"""


def add_parser(subparsers: Any) -> None:
    """``baccarat odds``."""
    parser = subparsers.add_parser(
        "odds",
        help="exact odds and house edges for a shoe (POST /v1/odds)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--decks", type=int, metavar="N", help="decks in the shoe, 1-8 (default: the table's)"
    )
    parser.add_argument(
        "--table",
        choices=list(TABLES),
        default=DEFAULT_TABLE,
        help="table preset: its bets are analysed (default: %(default)s)",
    )
    parser.add_argument(
        "--removed",
        nargs="+",
        metavar="CARD",
        help="cards already out of the shoe, in any order (e.g. 9S KH 2D, or comma-separated)",
    )
    parser.add_argument("--json", action="store_true", help="print POST /v1/odds's JSON answer instead")


def request(args: argparse.Namespace) -> dict[str, Any]:
    """The ``POST /v1/odds`` body the options describe."""
    body: dict[str, Any] = {"table": args.table}
    if args.decks is not None:
        body["rules"] = {"decks": args.decks}
    if args.removed is not None:
        body["removed"] = cards(args.removed)
    return body


def table(odds: Odds, name: str) -> str:
    """The analysis as text: the shoe, each event's probability, each bet's figures."""
    shoe = odds.shoe
    removed = f", {52 * shoe.decks - shoe.cards} removed" if shoe.cards != 52 * shoe.decks else ""
    lines = [
        f"Next round, {shoe.decks}-deck shoe of {shoe.cards} cards{removed}, table "
        f"{name} (rules {odds.rules.id}): {odds.sequences:,} ordered six-card sequences",
        "",
        f"{'event':<30} {'probability':<24} sequences",
    ]
    for name, probability in odds.probabilities.items():
        lines.append(f"{name:<30} {decimal_text(probability):<24} {odds.counts[name]:,}")
    lines += [
        "",
        f"{'bet':<20} {'win':>22} {'push':>22} {'lose':>22} {'house edge':>13}",
    ]
    for bet, figures in odds.bets.items():
        columns = (decimal_text(figures.win), decimal_text(figures.push), decimal_text(figures.lose))
        lines.append(
            f"{bet:<20} {columns[0]:>22} {columns[1]:>22} {columns[2]:>22} "
            f"{decimal_text(figures.house_edge * 100, 6) + '%':>13}"
        )
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Analyse the shoe, print the answer."""
    body = request(args)
    odds = odds_of(load(OddsRequestSchema(), body))
    if args.json:
        write_json(OddsResponseSchema().dump(odds))
    else:
        sys.stdout.write(table(odds, body.get("table", DEFAULT_TABLE)))
    return OK
