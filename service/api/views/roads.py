"""POST /v1/roads: the scoreboards of a sequence of results."""

from ...baccarat.roads import Result, Roads, roads
from ...contract.schemas.roads import RoadsRequestSchema, RoadsSchema
from . import BODY, KEYED, Blueprint

blp = Blueprint("roads", __name__, url_prefix="/v1", description="Scoreboards from a sequence of results")


@blp.post("/roads")
@blp.operation("drawRoads", *KEYED, *BODY)
@blp.arguments(
    RoadsRequestSchema,
    example={
        "results": [
            "tie",
            "banker",
            {"outcome": "banker", "player_pair": True},
            "player",
            {"outcome": "banker", "natural": True},
        ]
    },
)
@blp.response(200, RoadsSchema)
def post_roads(results: tuple[Result, ...]) -> Roads:
    """Bead Plate, Big Road, Big Eye Boy, Small Road and Cockroach Pig, and the ask road.

    Grids are six rows high; column 0 is the leftmost, row 0 the top. The
    derived roads are computed on the Big Road's streak lengths (docs/roads.md).
    """
    return roads(results)
