"""POST /v1/roads: the scoreboards of a sequence of results, as JSON or as a picture."""

from flask import Response

from ...baccarat.shoes.roads import Result, Roads, roads
from ...contract.schemas.roads import RoadsRequestSchema, RoadsSchema
from ..negotiation import PICTURE, VARY, VARY_DOC, picture, prefers_picture
from ..policy import KEYED
from . import BODY, Blueprint

#: The 200 answer, in either content type.
ANSWER = "The roads as JSON, or drawn as one SVG document when `Accept` prefers `image/svg+xml`"

blp = Blueprint("roads", __name__, url_prefix="/v1", description="Scoreboards from a sequence of results")


@blp.post("/roads")
@blp.operation("drawRoads", *BODY, policy=KEYED)
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
@blp.response(200, RoadsSchema, description=ANSWER, headers=VARY_DOC)
@blp.alt_response(200, description=ANSWER, **PICTURE)
def post_roads(results: tuple[Result, ...]) -> Response | tuple[Roads, dict[str, str]]:
    """Bead Plate, Big Road, Big Eye Boy, Small Road and Cockroach Pig, and the ask road.

    Grids are six rows high; column 0 is the leftmost, row 0 the top. The
    derived roads are computed on the Big Road's streak lengths (docs/roads.md).

    The answer is JSON unless `Accept` prefers `image/svg+xml`: then it is
    the five roads drawn as one SVG document by the casino conventions, each
    mark carrying its cell's values as `data-*` attributes. No `Accept`,
    `*/*`, an equal preference and an `Accept` that names neither answer
    JSON (never a 406), and a bad request is the same problem document
    either way. Both answers carry `Vary: Accept`.
    """
    board = roads(results)
    return picture(board) if prefers_picture() else (board, VARY)
