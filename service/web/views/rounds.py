"""POST /v1/rounds and POST /v1/settlements."""

from typing import Any

from ...baccarat.play import PlayedRound, play_and_settle, play_and_settle_slips
from ...baccarat.tables import resolve_rules
from ..metrics import count_round
from ..schemas.rounds import (
    RoundRequestSchema,
    RoundResponseSchema,
    SettlementRequestSchema,
    SettlementResponseSchema,
)
from . import Blueprint

blp = Blueprint("rounds", __name__, url_prefix="/v1", description="Deal and settle rounds")


def round_source(body: dict[str, Any]) -> dict[str, Any]:
    """Where the round's cards come from, as :func:`play` takes it."""
    return {
        "cards": body.get("cards"),
        "seed": body.get("seed"),
        "round_number": body.get("round"),
        "commitment": body.get("server_seed_hash"),
    }


@blp.post("/rounds")
@blp.arguments(
    RoundRequestSchema(),
    example={
        "cards": ["9S", "KH", "2D", "7C", "5H"],
        "table": "standard",
        "bets": [{"id": "b1", "type": "banker", "amount": "25.00"}, {"type": "tie", "amount": "5"}],
    },
)
@blp.response(200, RoundResponseSchema)
def post_round(body: dict[str, Any]) -> PlayedRound:
    """Deal one round and settle an optional bet slip on it.

    The cards come from `cards` (dealing order), from the top of a shoe
    shuffled by `seed` (or `server_seed`, `client_seed`, `nonce`), or, with
    neither, from a freshly drawn seed that the answer returns. With `round`,
    the round is that round of the whole shoe (burn and cut card included).
    Money is exact: amounts are decimal strings.
    """
    rules = resolve_rules(body["table"], body["rules"])
    return count_round(play_and_settle(rules, body["bets"], **round_source(body)))


@blp.post("/settlements")
@blp.arguments(
    SettlementRequestSchema(),
    example={
        "cards": ["9S", "KH", "2D", "7C", "5H"],
        "slips": [
            {"id": "seat-1", "bets": [{"type": "banker", "amount": "25.00"}]},
            {"id": "seat-2", "bets": [{"type": "player", "amount": "10"}, {"type": "tie", "amount": "2.50"}]},
        ],
    },
)
@blp.response(200, SettlementResponseSchema)
def post_settlements(body: dict[str, Any]) -> PlayedRound:
    """Settle many bet slips (a live table's players) against one round.

    If any bet on any slip breaks the table's rules, nothing is settled and
    the 422 names every offending bet.
    """
    rules = resolve_rules(body["table"], body["rules"])
    slips = [(slip["id"], slip["bets"]) for slip in body["slips"]]
    return count_round(play_and_settle_slips(rules, slips, **round_source(body)))
