"""GET /v1/rules and GET /v1/tables: the game as data."""

from typing import Any

from ...baccarat.payouts import table_presets
from ...baccarat.tableau import tableau
from ...contract.schemas.reference import TableauSchema, TablesResponseSchema
from . import KEYED, Blueprint

blp = Blueprint("reference", __name__, url_prefix="/v1", description="The rules and tables as data")


@blp.get("/rules")
@blp.operation("getRules", *KEYED)
@blp.response(200, TableauSchema)
def get_rules() -> dict[str, object]:
    """The tableau: card points, naturals, and when each hand draws.

    The rules every round follows, as data for a table UI or an audit: the
    points of each rank, the two-card totals that end the round, the
    Player's action by total, and the Banker's by total and by the point
    value of the Player's third card.
    """
    return tableau()


@blp.get("/tables")
@blp.operation("getTables", *KEYED)
@blp.response(200, TablesResponseSchema)
def get_tables() -> dict[str, Any]:
    """Table presets: their rules, and the bets each offers with their limits and pay tables.

    Presets: `standard` (5% commission; pairs, perfect pair, dragon bonus,
    big and small), `tie_9` (tie 9:1), `no_commission` (banker 6 pays 1:2;
    pairs and super 6) and `ez` (EZ Baccarat; dragon 7 and panda 8).
    """
    return table_presets()
