"""POST /v1/odds: exact odds and house edges for a shoe."""

from typing import Any

from ...baccarat.odds import Odds, shoe_odds
from ...baccarat.tables import resolve_rules
from ..schemas.odds import OddsRequestSchema, OddsResponseSchema
from . import Blueprint

blp = Blueprint("odds", __name__, url_prefix="/v1", description="Exact odds and house edges for a shoe")


@blp.post("/odds")
@blp.arguments(
    OddsRequestSchema(),
    example={"table": "ez", "rules": {"decks": 8}, "removed": ["9S", "KH", "2D", "7C", "5H", "7D"]},
)
@blp.response(200, OddsResponseSchema)
def post_odds(body: dict[str, Any]) -> Odds:
    """Exact probabilities and the house edge of every bet the table offers.

    The shoe is the full shoe of `rules.decks` decks, that shoe less the
    cards `removed`, a shoe given by `counts` per rank, or a seeded shoe
    just before round `round`. Every ordered sequence of cards the shoe can
    deal is counted, with integers: each probability is exact, written as a
    decimal string (18 significant digits) and, for the bets, as a fraction.
    """
    rules = resolve_rules(body["table"], body["rules"])
    return shoe_odds(
        rules,
        removed=body.get("removed"),
        counts=body.get("counts"),
        seed=body.get("seed"),
        round_number=body.get("round"),
        commitment=body.get("server_seed_hash"),
    )
