"""POST /v1/roads: the scoreboards of a sequence of results."""

from typing import Any

from flask.sansio.blueprints import BlueprintSetupState

from ...baccarat.roads import Roads, roads
from ..schemas.roads import RESULT_FORMS, RoadsRequestSchema, RoadsSchema
from . import Blueprint

blp = Blueprint("roads", __name__, url_prefix="/v1", description="Scoreboards from a sequence of results")


@blp.record_once
def document_result_forms(state: BlueprintSetupState) -> None:
    """A result may be a name or an object: the object forms become components
    that the request schema's ``oneOf`` refers to."""
    spec = state.app.extensions["baccarat.api"].spec
    for name, schema in RESULT_FORMS.items():
        spec.components.schema(name, schema=schema)


@blp.post("/roads")
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
def post_roads(body: dict[str, Any]) -> Roads:
    """Bead Plate, Big Road, Big Eye Boy, Small Road and Cockroach Pig, and the ask road.

    Grids are six rows high; column 0 is the leftmost, row 0 the top. The
    derived roads are computed on the Big Road's streak lengths (docs/roads.md).
    """
    return roads(body["results"])
