"""POST /v1/shoes and POST /v1/seeds: whole seeded shoes and provable fairness."""

from typing import Any

from ...baccarat.shoe_play import PlayedShoe, play_shoe
from ...baccarat.shuffle import SeedInputs, new_seed
from ...baccarat.tables import resolve_rules
from ..schemas.seeds import NewSeedRequestSchema, NewSeedSchema
from ..schemas.shoes import ShoeRequestSchema, ShoeResponseSchema
from . import Blueprint

blp = Blueprint("shoes", __name__, url_prefix="/v1", description="Whole seeded shoes and provably fair seeds")


@blp.post("/shoes")
@blp.arguments(
    ShoeRequestSchema(),
    example={
        "server_seed": "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
        "client_seed": "lucky-7",
        "nonce": 1,
        "from_round": 1,
        "to_round": 3,
        "bets": [{"type": "banker", "amount": "10.00"}],
    },
)
@blp.response(200, ShoeResponseSchema)
def post_shoe(body: dict[str, Any]) -> PlayedShoe:
    """Deal a whole shoe from seed inputs: burn, cut card, every round.

    The first card is turned and that many more burned (tens and faces count
    10); rounds are dealt until the cut card comes out, that round is
    finished and one more is dealt. `from_round`/`to_round` answer a slice,
    identical to the same rounds of the whole listing. docs/fairness.md
    states the shuffle and the procedure precisely enough to re-derive them.
    """
    rules = resolve_rules(body["table"], body["rules"])
    return play_shoe(
        rules,
        seed=body.get("seed"),
        commitment=body.get("server_seed_hash"),
        from_round=body["from_round"],
        to_round=body.get("to_round"),
        bets=body["bets"],
        bets_by_round=body["bets_by_round"],
        include_shoe=body["include_shoe"],
    )


@blp.post("/seeds")
@blp.arguments(NewSeedRequestSchema(), example={})
@blp.response(200, NewSeedSchema, headers={"Cache-Control": {"schema": {"type": "string"}}})
def post_seed(body: dict[str, Any]) -> tuple[SeedInputs, dict[str, str]]:
    """Draw a fresh server seed (256 bits from the OS CSPRNG) with its commitment.

    Publish `server_seed_hash` before play and keep `server_seed` secret
    until the seed is retired; the service keeps neither.
    """
    return SeedInputs(new_seed()), {"Cache-Control": "no-store"}
