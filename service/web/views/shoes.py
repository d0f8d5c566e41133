"""POST /v1/shoes and POST /v1/seeds: whole seeded shoes and provable fairness."""

from ...baccarat.requests import ShoeRequest, play_whole_shoe
from ...baccarat.shoe_play import PlayedShoe
from ...baccarat.shuffle import SeedInputs, new_seed
from ..schemas.seeds import NewSeedRequestSchema, NewSeedSchema
from ..schemas.shoes import ShoeRequestSchema, ShoeResponseSchema
from . import BODY, KEYED, Blueprint

blp = Blueprint("shoes", __name__, url_prefix="/v1", description="Whole seeded shoes and provably fair seeds")


@blp.post("/shoes")
@blp.operation("dealShoe", *KEYED, *BODY)
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
def post_shoe(request: ShoeRequest) -> PlayedShoe:
    """Deal a whole shoe from seed inputs: burn, cut card, every round.

    The first card is turned and that many more burned (tens and faces count
    10); rounds are dealt until the cut card comes out, that round is
    finished and one more is dealt. `from_round`/`to_round` answer a slice,
    identical to the same rounds of the whole listing. docs/fairness.md
    states the shuffle and the procedure precisely enough to re-derive them.
    """
    return play_whole_shoe(request)


@blp.post("/seeds")
@blp.operation("newSeed", *KEYED, *BODY)
@blp.arguments(NewSeedRequestSchema(), example={})
@blp.response(200, NewSeedSchema, headers={"Cache-Control": {"schema": {"type": "string"}}})
def post_seed(body: dict[str, object]) -> tuple[SeedInputs, dict[str, str]]:
    """Draw a fresh server seed (256 bits from the OS CSPRNG) with its commitment.

    Publish `server_seed_hash` before play and keep `server_seed` secret
    until the seed is retired; the service keeps neither.
    """
    return SeedInputs(new_seed()), {"Cache-Control": "no-store"}
