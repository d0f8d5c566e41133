"""``baccarat settle``: settle a table's slips against one round, from a JSON file.

The file is a ``POST /v1/settlements`` body (the round's cards or seed
inputs, the table, and ``slips``; at a multiplier table ``rules.multipliers``
and, with cards, the studio's ``multiplier_cards``); the answer is that
endpoint's. If any bet on any slip breaks the table's rules nothing is
settled, and the problem names every offending bet.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..baccarat.requests import settle_table
from ..contract.schemas.settlements import SettlementRequestSchema, SettlementResponseSchema
from .documents import OK, load, read_json, write_json

DESCRIPTION = """\
Settle many bet slips against one round, as POST /v1/settlements does. FILE
holds that endpoint's request body; the answer is printed."""

EPILOG = """\
example FILE:
  {"cards": ["9S", "KH", "2D", "7C", "5H"],
   "slips": [{"id": "seat-1", "bets": [{"type": "banker", "amount": "25.00"}]},
             {"id": "seat-2", "bets": [{"type": "player", "amount": "10"}]}]}

at a multiplier table, the rule and the studio's multiplier cards (or seed inputs):
  {"cards": ["2S", "8H", "5D", "KC"], "rules": {"multipliers": "lightning"},
   "multiplier_cards": [{"card": "8H", "multiplier": 8}],
   "slips": [{"id": "seat-1", "bets": [{"type": "banker", "amount": "10.00"}]}]}"""


def add_parser(subparsers: Any) -> None:
    """``baccarat settle``."""
    parser = subparsers.add_parser(
        "settle",
        help="settle a table's slips from a JSON file (POST /v1/settlements)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="a POST /v1/settlements body as JSON (- for stdin)")


def run(args: argparse.Namespace) -> int:
    """Settle every slip, print the answer."""
    played = settle_table(load(SettlementRequestSchema(), read_json(args.file, "settlement request")))
    write_json(SettlementResponseSchema().dump(played))
    return OK
