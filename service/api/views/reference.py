"""GET /v1/rules and GET /v1/tables: the game as data."""

from typing import Any

from ...baccarat.odds.exact import CatalogueOdds
from ...baccarat.requests import PayTablesRequest, pay_tables_with_odds
from ...baccarat.rulebook.tableau import tableau
from ...baccarat.tables.payouts import table_presets
from ...contract.schemas.paytables import PayTablesQuerySchema, PayTablesResponseSchema
from ...contract.schemas.reference import TableauSchema, TablesResponseSchema
from ...contract.scope import scope
from ..policy import KEYED
from . import Blueprint

blp = Blueprint("reference", __name__, url_prefix="/v1", description="The rules and tables as data")


@blp.get("/rules")
@blp.operation("getRules", policy=KEYED)
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
@blp.operation("getTables", policy=KEYED)
@blp.response(200, TablesResponseSchema)
def get_tables() -> dict[str, Any]:
    """The caller's tables: their rules, and the bets each offers with their limits and pay tables.

    The deployment's catalogue (docs/operations/tables.md), as the caller's
    API key sees it: a key that names an operator lists that operator's
    tables alone. Without a catalogue of its own, the built-in presets:

    Presets: `standard` (5% commission; pairs, perfect pair, dragon bonus,
    big and small), `tie_9` (tie 9:1), `no_commission` (banker 6 pays 1:2;
    pairs and super 6), `ez` (EZ Baccarat; dragon 7 and panda 8),
    `tiger` (banker 6 pays 1:2; lucky 6, big tiger, small tiger, tiger tie),
    `peek` (Peek Baccarat's table, played by POST /v1/rounds/peek alone and
    listed with its `peek` terms: a 20% fee on player and banker, a raise
    to 2 or 3 times the stake), and the multiplier games `lightning` (tie 5:1, pairs 9:1, times the
    multipliers; a 20% fee), `golden_wealth` and `prosperity_tree`: each is
    the rules `{"multipliers": NAME}` at the standard table, the same rules
    and id, and its `rules.multipliers` says what each bet pays, the fee
    and the cap (docs/multipliers.md).
    Each offered bet names its pay table (`pay_table`, as in
    `rules.pay_tables`); `dealing` says whether the table deals from a shoe
    or reshuffles after each hand.
    """
    return table_presets(scope().tables)


@blp.get("/paytables")
@blp.operation("getPayTables", policy=KEYED)
@blp.arguments(PayTablesQuerySchema, location="query")
@blp.response(200, PayTablesResponseSchema)
def get_pay_tables(request: PayTablesRequest) -> CatalogueOdds:
    """The catalogue: every named pay table, with its source and exact house edge.

    Each bet type's pay tables, its standard one first, under stable ids that
    a table's `rules.pay_tables` chooses from: each with its lines in words
    and their pays, the public source that prints it (and the house edge the
    source prints, where it prints one), and its exact house edge and hit
    frequency computed by the odds engine for a full shoe of `decks` decks
    (8 by default). docs/bets.md says where a computed edge and its source
    disagree, and why.
    """
    return pay_tables_with_odds(request)
