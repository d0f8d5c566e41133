"""POST /v1/odds: exact odds and house edges for a shoe."""

from ...baccarat.odds.exact import Odds
from ...baccarat.requests import OddsRequest, odds_of
from ...contract.schemas.odds import OddsRequestSchema, OddsResponseSchema
from ..policy import KEYED
from . import BODY, Blueprint

blp = Blueprint("odds", __name__, url_prefix="/v1", description="Exact odds and house edges for a shoe")


@blp.post("/odds")
@blp.operation("getOdds", *BODY, policy=KEYED)
@blp.arguments(
    OddsRequestSchema(),
    example={"table": "ez", "rules": {"decks": 8}, "removed": ["9S", "KH", "2D", "7C", "5H", "7D"]},
)
@blp.response(200, OddsResponseSchema)
def post_odds(request: OddsRequest) -> Odds:
    """Exact probabilities and the house edge of every bet the table offers.

    The shoe is the full shoe of `rules.decks` decks, that shoe less the
    cards `removed`, a shoe given by `counts` per rank, or a seeded shoe
    just before round `round`. Every ordered sequence of cards the shoe can
    deal is counted, with integers: each probability is exact, written as a
    decimal string (18 significant digits) and, for the bets, as a fraction.
    """
    return odds_of(request)
