"""``baccarat round``: deal one round from cards or a seed, and settle an optional slip.

The options build the body of ``POST /v1/rounds`` and the answer is that
endpoint's, from the same engine: cards in dealing order (``--cards``), or a
shoe shuffled from seed inputs (``--seed``, or ``--server-seed`` with
``--client-seed`` and ``--nonce``), or with neither a freshly drawn seed.
With ``--live`` the cards are those dealt so far, and the answer is ``POST
/v1/rounds/live``'s: what comes next, until the round is complete.
``--multipliers`` plays a multiplier game (docs/multipliers.md), whose
multiplier cards a studio gives with ``--multiplier-cards`` when it gives
the cards. With ``--peek`` the round is a Peek Baccarat round (``POST /v1/rounds/peek``):
the cards shown, or with ``--decision`` the round settled.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..baccarat.multipliers.presets import PRESETS as MULTIPLIER_PRESETS
from ..baccarat.play.round import PlayedRound
from ..baccarat.requests import play_live_round, play_peek_round, play_round
from ..baccarat.tables.rules import DEFAULT_TABLE, TABLES
from ..contract.schemas.live import LiveRoundInProgressSchema, LiveRoundRequestSchema
from ..contract.schemas.peek import PeekAnswerSchema, PeekRequestSchema
from ..contract.schemas.rounds import RoundRequestSchema, RoundResponseSchema
from .documents import OK, load, parse_json_option, read_json, refuse, write_json

DESCRIPTION = """\
Deal one round and settle an optional bet slip on it, as POST /v1/rounds does:
from cards in dealing order, from a shoe shuffled from seed inputs, or (with
neither) from a freshly drawn seed that the answer returns. Prints the answer."""

EPILOG = """\
A bets file holds a JSON list of bets, or an object with "bets":
  [{"id": "b1", "type": "banker", "amount": "25.00"}, {"type": "tie", "amount": "5"}]

examples:
  baccarat round --cards 9S KH 2D 7C 5H
  baccarat round --cards 9S,KH,2D,7C,5H --bets slip.json --table standard
  baccarat round --live --cards 9S KH 2D 7C        (what comes next: the Player's third card)
  baccarat round --live --cards player:7S banker:KH player:KD banker:3C banker:5H
  baccarat round --seed table-7/shoe-1
  baccarat round --peek --cards 9S KH 2D 7C 5H --shown banker_first --bets slip.json
  baccarat round --peek --cards 9S KH 2D 7C 5H --shown banker_first --bets slip.json --decision banker=triple
  baccarat round --server-seed 8a1f3c0e --client-seed lucky-7 --nonce 1 --round 3
  baccarat round --table tie_9 --rules '{"decks": 6}'
  baccarat round --multipliers lightning --seed table-7/shoe-1 --bets slip.json
  baccarat round --multipliers lightning --cards 2S 8H 5D KC --multiplier-cards 8H:8"""


def add_parser(subparsers: Any) -> None:
    """``baccarat round``."""
    parser = subparsers.add_parser(
        "round",
        help="deal one round from cards or a seed and settle a slip (POST /v1/rounds)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    source = parser.add_argument_group("where the cards come from (one at most; none draws a fresh seed)")
    source.add_argument(
        "--cards",
        nargs="+",
        metavar="CARD",
        help="card codes in dealing order: Player, Banker, Player, Banker, then third cards "
        "(e.g. 9S KH 2D 7C 5H, or comma-separated)",
    )
    source.add_argument(
        "--live",
        action="store_true",
        help="the cards dealt so far, as a scanner reads them (POST /v1/rounds/live): the answer "
        "says what comes next until the round is complete; a card may be tagged with its hand, "
        "as player:9S or banker:KH; no seed",
    )
    source.add_argument("--seed", metavar="TEXT", help="a plain seed: a shoe shuffled from it")
    source.add_argument("--server-seed", metavar="TEXT", help="provably fair: the server seed")
    source.add_argument("--client-seed", metavar="TEXT", help="provably fair: the player's seed")
    source.add_argument("--nonce", type=int, metavar="N", help="provably fair: the shoe's counter")
    source.add_argument(
        "--server-seed-hash", metavar="HEX", help="the commitment shown before play: checked against the seed"
    )
    source.add_argument(
        "--round",
        type=int,
        metavar="N",
        help="with a seed: round N of the whole shoe (burn and cut card), not the shoe's top",
    )
    table = parser.add_argument_group("the table")
    table.add_argument(
        "--table",
        choices=list(TABLES),
        default=DEFAULT_TABLE,
        help="table preset, as GET /v1/tables lists them (default: %(default)s)",
    )
    table.add_argument(
        "--rules",
        metavar="JSON",
        help='overrides of the table\'s rules, e.g. \'{"tie_pays": 9, "decks": 6}\'',
    )
    table.add_argument(
        "--multipliers",
        choices=list(MULTIPLIER_PRESETS),
        help="play the round as this multiplier game (rules.multipliers)",
    )
    table.add_argument(
        "--multiplier-cards",
        nargs="+",
        metavar="CARD:N",
        help="with --cards at a multiplier game: the studio's multiplier cards, each a card and "
        "its multiplier (e.g. 8H:8 KS:2, or comma-separated)",
    )
    parser.add_argument(
        "--bets", metavar="FILE", help="a JSON file of bets to settle on the round (- for stdin)"
    )
    peek = parser.add_argument_group("Peek Baccarat (POST /v1/rounds/peek)")
    peek.add_argument(
        "--peek",
        action="store_true",
        help="a peek round: without --decision the cards shown, each bet's fee and choices; "
        "with it the round settled on the bets as raised",
    )
    peek.add_argument(
        "--shown",
        nargs="+",
        metavar="POSITION",
        help="with --cards: the cards shown (player_first banker_first player_second banker_second)",
    )
    peek.add_argument(
        "--decision",
        nargs="+",
        metavar="BET=CHOICE",
        help="the decision per bet, e.g. banker=triple (keep, double or triple)",
    )


def cards(values: list[str]) -> list[str]:
    """``["9S,KH", "2D"]`` -> ``["9S", "KH", "2D"]``: spaces or commas between cards."""
    return [code for value in values for code in value.replace(",", " ").split()]


def dealt_card(text: str) -> str | dict[str, str]:
    """``"player:9S"`` -> ``{"card": "9S", "hand": "player"}``; a plain code stays as it is."""
    hand, _, code = text.rpartition(":")
    return {"card": code, "hand": hand} if hand else code


def multiplier_card(text: str) -> dict[str, Any]:
    """``"8H:8"`` -> ``{"card": "8H", "multiplier": 8}`` (a multiplier that is
    no number is sent as written, for the schema to refuse)."""
    card, _, multiplier = text.partition(":")
    return {"card": card, "multiplier": int(multiplier) if multiplier.isdigit() else multiplier}


def live_request(args: argparse.Namespace) -> dict[str, Any]:
    """The ``POST /v1/rounds/live`` body the options describe."""
    body = request(args)
    seeded = sorted(body.keys() - {"table", "cards", "rules", "bets"})
    if seeded:
        refuse("A live round is dealt from cards", f"--live takes cards, not {', '.join(seeded)}")
    body["cards"] = [dealt_card(code) for code in body.get("cards", [])]
    return body


def peek_request(args: argparse.Namespace) -> dict[str, Any]:
    """The ``POST /v1/rounds/peek`` body the options describe."""
    body = request(args)
    if args.shown is not None:
        body["shown"] = args.shown
    if args.decision is not None:
        pairs = [text.partition("=") for text in args.decision]
        if any(not sep for _, sep, _ in pairs):
            refuse("A decision is BET=CHOICE", "--decision takes e.g. banker=triple")
        body["decision"] = {bet: choice for bet, _, choice in pairs}
    return body


def request(args: argparse.Namespace) -> dict[str, Any]:
    """The ``POST /v1/rounds`` body the options describe."""
    body: dict[str, Any] = {"table": args.table}
    if args.cards is not None:
        body["cards"] = cards(args.cards)
    options = {
        "seed": args.seed,
        "server_seed": args.server_seed,
        "client_seed": args.client_seed,
        "nonce": args.nonce,
        "server_seed_hash": args.server_seed_hash,
        "round": args.round,
    }
    body.update({name: value for name, value in options.items() if value is not None})
    if args.rules is not None:
        body["rules"] = parse_json_option(args.rules, "--rules value")
    if getattr(args, "multipliers", None) is not None:
        rules = body.setdefault("rules", {})
        if isinstance(rules, dict):
            rules["multipliers"] = args.multipliers
    if getattr(args, "multiplier_cards", None) is not None:
        body["multiplier_cards"] = [multiplier_card(text) for text in cards(args.multiplier_cards)]
    if args.bets is not None:
        bets = read_json(args.bets, "bets file")
        body["bets"] = bets["bets"] if isinstance(bets, dict) and "bets" in bets else bets
    return body


def run(args: argparse.Namespace) -> int:
    """Deal, settle, print the answer."""
    if not args.peek and (args.shown is not None or args.decision is not None):
        refuse("Cards shown and a decision belong to a peek round", "--shown and --decision need --peek")
    if args.peek:
        if args.live:
            refuse("A peek round is not dealt live", "--peek and --live do not go together")
        write_json(PeekAnswerSchema().dump(play_peek_round(load(PeekRequestSchema(), peek_request(args)))))
        return OK
    if args.live:
        live = play_live_round(load(LiveRoundRequestSchema(), live_request(args)))
        schema = RoundResponseSchema() if isinstance(live, PlayedRound) else LiveRoundInProgressSchema()
        write_json(schema.dump(live))
        return OK
    played = play_round(load(RoundRequestSchema(), request(args)))
    write_json(RoundResponseSchema().dump(played))
    return OK
