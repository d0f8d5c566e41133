"""POST /v1/shoes and POST /v1/seeds: whole seeded shoes and provable fairness."""

from flask import Response

from ...baccarat.play.shoe import PlayedShoe
from ...baccarat.requests import ShoeRequest, play_whole_shoe
from ...baccarat.shoes.shuffle import SeedInputs, new_seed
from ...contract.road_pictures import SHOE_TITLE
from ...contract.schemas.seeds import NewSeedRequestSchema, NewSeedSchema
from ...contract.schemas.shoes import ShoeRequestSchema, ShoeResponseSchema
from ..negotiation import PICTURE, VARY, VARY_DOC, picture, prefers_picture
from ..policy import Replayable, signed
from . import BODY, Blueprint

#: The 200 answer of POST /v1/shoes, in either content type.
SHOE_ANSWER = "The shoe as JSON, or the picture of its roads when `Accept` prefers `image/svg+xml`"

#: A whole shoe, as the view deals it and a replay deals it again.
SHOE = Replayable(ShoeRequestSchema(), play_whole_shoe, ShoeResponseSchema())

#: The examples of POST /v1/shoes in the OpenAPI document, each answered by a test
#: (tests/api/views/test_shoes_multipliers.py).
SHOE_EXAMPLES = {
    "provably_fair": {
        "summary": "Rounds 1-3 of a provably fair shoe, a banker bet settled on each",
        "value": {
            "server_seed": "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
            "client_seed": "lucky-7",
            "nonce": 1,
            "from_round": 1,
            "to_round": 3,
            "bets": [{"type": "banker", "amount": "10.00"}],
        },
    },
    "lightning": {
        "summary": "Rounds 1-3 of a seeded Lightning shoe: each round's multiplier cards are POST "
        "/v1/rounds' for the same seed and round; a banker bet settled on each, fee included",
        "value": {
            "seed": "table-7/lightning-1",
            "rules": {"multipliers": "lightning"},
            "to_round": 3,
            "bets": [{"type": "banker", "amount": "10.00"}],
        },
    },
    "physical": {
        "summary": "A physical shoe's cards so far: a burn of 4, two rounds, the third in progress",
        "value": {
            "cards": [
                *("3S", "QH", "7D", "5C"),  # the burn: a 3 turned, 3 more burned
                *("9S", "KH", "2D", "7C", "5H"),  # round 1
                *("2S", "KH", "3D", "4C", "5H", "6D"),  # round 2
                *("2C", "AD"),  # round 3, in progress
            ],
            "bets_by_round": [{"round": 2, "bets": [{"type": "banker", "amount": "10"}]}],
        },
    },
    "physical_lightning": {
        "summary": "The same physical shoe at a Lightning table: the studio's multiplier cards of "
        "each complete round",
        "value": {
            "cards": [
                *("3S", "QH", "7D", "5C"),
                *("9S", "KH", "2D", "7C", "5H"),
                *("2S", "KH", "3D", "4C", "5H", "6D"),
                *("2C", "AD"),
            ],
            "rules": {"multipliers": "lightning"},
            "multiplier_cards_by_round": [
                {"round": 1, "cards": [{"card": "KH", "multiplier": 8}]},
                {"round": 2, "cards": [{"card": "2S", "multiplier": 3}, {"card": "6D", "multiplier": 2}]},
            ],
            "bets_by_round": [{"round": 2, "bets": [{"type": "banker", "amount": "10"}]}],
        },
    },
}

blp = Blueprint("shoes", __name__, url_prefix="/v1", description="Whole seeded shoes and provably fair seeds")


@blp.post("/shoes")
@blp.operation("dealShoe", *BODY, policy=signed(SHOE))
@blp.arguments(SHOE.request, examples=SHOE_EXAMPLES)
@blp.response(200, SHOE.answer, description=SHOE_ANSWER, headers=VARY_DOC)
@blp.alt_response(200, description=SHOE_ANSWER, **PICTURE)
def post_shoe(request: ShoeRequest) -> Response | tuple[PlayedShoe, dict[str, str]]:
    """Deal a whole shoe from seed inputs, or a physical shoe from its cards.

    The first card is turned and that many more burned (tens and faces count
    10); rounds are dealt until the cut card comes out, that round is
    finished and one more is dealt. `from_round`/`to_round` answer a slice,
    identical to the same rounds of the whole listing. docs/fairness.md
    states the shuffle and the procedure precisely enough to re-derive them.
    With `cards` (a physical shoe, burn included) and, once it came out,
    `cut_card_position`, the rounds are those cards' and the round they stop
    in is `round_in_progress` (docs/live.md).

    At a multiplier table (`rules.multipliers`) each round of a seeded shoe
    shows the multiplier cards POST /v1/rounds draws for the same seed
    inputs and `round`, and its slip is settled by the rule; a physical
    shoe sends the studio's as `multiplier_cards_by_round`. The cards and
    the roads are the plain shoe's (docs/multipliers.md).

    With `Accept` preferring `image/svg+xml`, the answer is the picture of
    the shoe's `roads` (as POST /v1/roads draws them) instead of JSON; the
    request is read, checked and dealt the same way. JSON stays the default
    (never a 406), and both answers carry `Vary: Accept, Accept-Language`.
    """
    played = SHOE.play(request)
    return picture(played.roads, title=SHOE_TITLE) if prefers_picture() else (played, VARY)


@blp.post("/seeds")
@blp.operation("newSeed", *BODY, policy=signed())
@blp.arguments(NewSeedRequestSchema(), example={})
@blp.response(200, NewSeedSchema, headers={"Cache-Control": {"schema": {"type": "string"}}})
def post_seed(body: dict[str, object]) -> tuple[SeedInputs, dict[str, str]]:
    """Draw a fresh server seed (256 bits from the OS CSPRNG) with its commitment.

    Publish `server_seed_hash` before play and keep `server_seed` secret
    until the seed is retired; the service keeps neither.
    """
    return SeedInputs(new_seed()), {"Cache-Control": "no-store"}
