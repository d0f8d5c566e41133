"""POST /v1/rounds and POST /v1/settlements."""

from typing import Any

from ...baccarat.peek.round import PeekRound, PeekView
from ...baccarat.play.round import PlayedRound, RoundSoFar
from ...baccarat.requests import (
    LiveRoundRequest,
    PeekRequest,
    RoundRequest,
    SettlementRequest,
    play_live_round,
    play_peek_round,
    play_round,
    settle_table,
)
from ...contract.schemas.live import LiveRoundAnswerSchema, LiveRoundRequestSchema
from ...contract.schemas.minimal import RoundAnswerSchema, SettlementAnswerSchema
from ...contract.schemas.peek import PeekAnswerSchema, PeekRequestSchema
from ...contract.schemas.rounds import RoundRequestSchema
from ...contract.schemas.settlements import SettlementRequestSchema
from ...contract.scope import named_table
from ...server.tracing import note, step
from ..policy import Replayable, signed
from ..preference import ANSWER_HEADERS, PREFER, preferred
from ..services import services
from . import BODY, Blueprint

blp = Blueprint("rounds", __name__, url_prefix="/v1", description="Deal and settle rounds")

#: The operations that deal and settle, as their views run them and a replay runs them again.
ROUND = Replayable(RoundRequestSchema(), play_round, RoundAnswerSchema())
LIVE_ROUND = Replayable(LiveRoundRequestSchema(), play_live_round, LiveRoundAnswerSchema())
SETTLEMENT = Replayable(SettlementRequestSchema(), settle_table, SettlementAnswerSchema())
PEEK_ROUND = Replayable(PeekRequestSchema(), play_peek_round, PeekAnswerSchema())


def counted(played: PlayedRound | RoundSoFar) -> PlayedRound | RoundSoFar:
    """``played``, counted in the metrics if the round is complete: once per
    request that plays it (a replay plays the operation, not the view); and
    its outcome noted on the request's trace, when it is traced."""
    if isinstance(played, PlayedRound):
        services().metrics.count_round(played, named_table())
        note(outcome=str(played.coup.outcome))
    return played


def in_either_form(full: str, minimal: str) -> dict[str, Any]:
    """The documented 200 of an operation that answers ``Prefer: return=minimal``
    (:mod:`..preference`): the full answer's component or the minimal one's."""
    forms = [{"$ref": f"#/components/schemas/{full}"}, {"$ref": f"#/components/schemas/{minimal}"}]
    return {
        "parameters": [PREFER],
        "responses": {
            "200": {
                "description": f"The answer: `{full}`, or with `Prefer: return=minimal` `{minimal}`",
                "content": {"application/json": {"schema": {"oneOf": forms}}},
                "headers": ANSWER_HEADERS,
            }
        },
    }


ROUND_EXAMPLES = {
    "banker_and_tie": {
        "summary": "Cards from a shoe; a banker bet wins 23.75 after commission, a tie bet loses",
        "value": {
            "cards": ["9S", "KH", "2D", "7C", "5H"],
            "table": "standard",
            "bets": [{"id": "b1", "type": "banker", "amount": "25.00"}, {"type": "tie", "amount": "5"}],
        },
    },
    "standard_side_bets": {
        "summary": "Standard table: player pair (though a third card is drawn), either pair, "
        "Dragon Bonus by 8 points, big and small",
        "value": {
            "cards": ["2S", "KH", "2D", "KC", "4H", "TC"],
            "bets": [
                {"type": "player", "amount": "10"},
                {"type": "player_pair", "amount": "5"},
                {"type": "either_pair", "amount": "5"},
                {"type": "dragon_bonus_player", "amount": "5"},
                {"type": "big", "amount": "10"},
                {"type": "small", "amount": "5"},
            ],
        },
    },
    "no_commission": {
        "summary": "No-commission table: the banker wins with 6 and pays 1:2; Super 6 pays 12:1; "
        "the banker pair wins, the player pair loses",
        "value": {
            "cards": ["2S", "3H", "3D", "3C", "KH"],
            "table": "no_commission",
            "bets": [
                {"type": "banker", "amount": "20"},
                {"type": "super_6", "amount": "5"},
                {"type": "banker_pair", "amount": "5"},
                {"type": "player_pair", "amount": "5"},
            ],
        },
    },
    "ez": {
        "summary": "EZ Baccarat: a three-card banker 7 pushes the banker bet; Dragon 7 pays 40:1",
        "value": {
            "cards": ["2S", "AH", "4D", "AC", "5D"],
            "table": "ez",
            "bets": [
                {"type": "banker", "amount": "25"},
                {"type": "dragon_7", "amount": "5"},
                {"type": "panda_8", "amount": "5"},
            ],
        },
    },
    "lightning": {
        "summary": "Lightning: the studio's lightning card 8H x8 is in the Banker's winning natural: "
        "10.00 on the Banker costs 12.00 with the fee and 89.50 comes back",
        "value": {
            "cards": ["2S", "8H", "5D", "KC"],
            "rules": {"multipliers": "lightning"},
            "multiplier_cards": [{"card": "8H", "multiplier": 8}],
            "bets": [{"type": "banker", "amount": "10.00"}, {"type": "tie", "amount": "5.00"}],
        },
    },
    "seeded": {
        "summary": "The top round of a shoe shuffled from a plain seed (replayable)",
        "value": {"seed": "table-7/shoe-1", "bets": [{"type": "player", "amount": "10"}]},
    },
    "provably_fair_round": {
        "summary": "Round 3 of a provably fair shoe (burn and cut card included), checked "
        "against the commitment shown before play",
        "value": {
            "server_seed": "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
            "server_seed_hash": "cea08e41cb29d1d45ca46e3a177b6eb97e0a41f61222aecff9f45c446016a967",
            "client_seed": "lucky-7",
            "nonce": 1,
            "round": 3,
        },
    },
}


@blp.post("/rounds")
@blp.operation("playRound", *BODY, policy=signed(ROUND), **in_either_form("RoundResponse", "RoundMinimal"))
@blp.arguments(ROUND.request, examples=ROUND_EXAMPLES)
@blp.response(200, ROUND.answer)
def post_round(request: RoundRequest) -> tuple[Any, int, dict[str, str]]:
    """Deal one round and settle an optional bet slip on it.

    The cards come from `cards` (dealing order), from the top of a shoe
    shuffled by `seed` (or `server_seed`, `client_seed`, `nonce`), or, with
    neither, from a freshly drawn seed that the answer returns. With `round`,
    the round is that round of the whole shoe (burn and cut card included).
    Money is exact: amounts are decimal strings. With
    `Prefer: return=minimal` the answer is the minimal one: codes and amounts.
    """
    return preferred(counted(ROUND.play(request, step=step)))


#: The answer of POST /v1/rounds/live: the round so far, or the complete
#: round (``complete`` tells them apart); both are components.
LIVE_ANSWER = {
    "application/json": {
        "schema": {
            "oneOf": [
                {"$ref": "#/components/schemas/LiveRoundInProgress"},
                {"$ref": "#/components/schemas/RoundResponse"},
            ]
        }
    }
}

LIVE_EXAMPLES = {
    "player_to_draw": {
        "summary": "Four cards dealt: the Player's total is 1, so the Player's third card comes next",
        "value": {"cards": ["9S", "KH", "2D", "7C"], "bets": [{"type": "banker", "amount": "25.00"}]},
    },
    "complete": {
        "summary": "The fifth card ends the round: the answer is POST /v1/rounds' for these cards and bets",
        "value": {"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "25.00"}]},
    },
    "lightning": {
        "summary": "A Lightning table: the studio's multiplier cards, drawn before the deal, go with "
        "every call; three cards dealt, the Banker's second is next",
        "value": {
            "cards": ["2S", "8H", "5D"],
            "rules": {"multipliers": "lightning"},
            "multiplier_cards": [{"card": "8H", "multiplier": 8}],
            "bets": [{"type": "banker", "amount": "10.00"}],
        },
    },
    "tagged": {
        "summary": "Cards tagged with the hand the scanner saw them placed with",
        "value": {
            "cards": [
                {"card": "7S", "hand": "player"},
                {"card": "KH", "hand": "banker"},
                {"card": "KD", "hand": "player"},
                {"card": "3C", "hand": "banker"},
            ]
        },
    },
    "misdeal": {
        "summary": "A misdeal: the Player stood on 7, so the fifth card was the Banker's (422)",
        "value": {
            "cards": [
                {"card": "7S", "hand": "player"},
                {"card": "KH", "hand": "banker"},
                {"card": "KD", "hand": "player"},
                {"card": "3C", "hand": "banker"},
                {"card": "5H", "hand": "player"},
            ]
        },
    },
}


@blp.post("/rounds/live")
@blp.operation(
    "dealLiveRound",
    *BODY,
    policy=signed(LIVE_ROUND),
    responses={"200": {"description": "The round so far, or the complete round", "content": LIVE_ANSWER}},
)
@blp.arguments(LIVE_ROUND.request, examples=LIVE_EXAMPLES)
@blp.response(200, LIVE_ROUND.answer)
def post_live_round(request: LiveRoundRequest) -> PlayedRound | RoundSoFar:
    """Deal a round card by card, as a scanner reads the cards leaving the shoe.

    Send the cards dealt so far (0 to 6). While the round needs more, the
    answer says `complete: false`, each hand so far, and the `next` card:
    the hand it goes to, its place and the tableau's reason. Once the round
    is complete the answer is exactly POST /v1/rounds' for the same cards and
    bets (`complete: true`, settled). Bets are checked against the table at
    once and settled only on the complete round. A card after the round is
    over, or tagged with a hand that must not receive it, is a 422 `misdeal`
    at that card (docs/live.md). At a multiplier table (`rules.multipliers`)
    every call sends the studio's `multiplier_cards`, checked with the bets
    while the round goes on; the complete round is POST /v1/rounds' answer
    for the same cards, multiplier cards and bets (docs/multipliers.md).
    """
    return counted(LIVE_ROUND.play(request, step=step))


PEEK_ANSWER = {
    "application/json": {
        "schema": {
            "oneOf": [{"$ref": "#/components/schemas/PeekView"}, {"$ref": "#/components/schemas/PeekRound"}]
        }
    }
}

PEEK_EXAMPLES = {
    "peek": {
        "summary": "First call: the Banker's first card is shown; the banker bet of 10 costs 12",
        "value": {
            "cards": ["9S", "KH", "2D", "7C", "5H"],
            "shown": ["banker_first"],
            "bets": [{"id": "b1", "type": "banker", "amount": "10"}],
        },
    },
    "triple": {
        "summary": "Second call: the same inputs and the decision; the tripled banker bet wins 28.50, "
        "the fee of 2.00 is kept",
        "value": {
            "cards": ["9S", "KH", "2D", "7C", "5H"],
            "shown": ["banker_first"],
            "bets": [{"id": "b1", "type": "banker", "amount": "10"}],
            "decision": {"banker": "triple"},
        },
    },
    "seeded": {
        "summary": "A seeded peek round: the cards shown are drawn from the seed inputs",
        "value": {"seed": "table-0/shoe-1", "bets": [{"type": "player", "amount": "5"}]},
    },
}


@blp.post("/rounds/peek")
@blp.operation(
    "playPeekRound",
    *BODY,
    policy=signed(PEEK_ROUND),
    responses={"200": {"description": "The cards shown, or the round settled", "content": PEEK_ANSWER}},
)
@blp.arguments(PEEK_ROUND.request, examples=PEEK_EXAMPLES)
@blp.response(200, PEEK_ROUND.answer)
def post_peek_round(request: PeekRequest) -> PeekView | PeekRound:
    """Play a Peek Baccarat round in two calls.

    The first call (no `decision`) answers only the cards `shown` of the
    first four (1 to 4 of them; with seed inputs drawn from them), each
    bet's 20% fee (Player and Banker only) and the `choices` the table
    maximum allows; the hidden cards are never in it. The second call sends
    the same inputs and the `decision` (keep, double or triple per Player or
    Banker bet, no fee on the raise) and gets the round settled as POST
    /v1/rounds answers it, with the `peek` terms: the fees kept, the cost and
    the net (docs/bets.md, docs/integration.md).
    """
    played: PeekView | PeekRound = PEEK_ROUND.play(request, step=step)
    if isinstance(played, PeekRound):
        counted(played.played)
    return played


SETTLEMENT_EXAMPLES = {
    "table": {
        "summary": "Two seats on one round: the banker bet wins 23.75, the player and tie bets lose",
        "value": {
            "cards": ["9S", "KH", "2D", "7C", "5H"],
            "slips": [
                {"id": "seat-1", "bets": [{"type": "banker", "amount": "25.00"}]},
                {
                    "id": "seat-2",
                    "bets": [{"type": "player", "amount": "10"}, {"type": "tie", "amount": "2.50"}],
                },
            ],
        },
    },
    "lightning": {
        "summary": "A Lightning table: the studio's lightning card 8H x8 lights the Banker's natural; "
        "seat-1's 10.00 on the Banker brings back 89.50, every bet pays its 20% fee",
        "value": {
            "cards": ["2S", "8H", "5D", "KC"],
            "rules": {"multipliers": "lightning"},
            "multiplier_cards": [{"card": "8H", "multiplier": 8}],
            "slips": [
                {"id": "seat-1", "bets": [{"type": "banker", "amount": "10.00"}]},
                {
                    "id": "seat-2",
                    "bets": [{"type": "player", "amount": "5.00"}, {"type": "tie", "amount": "5.00"}],
                },
            ],
        },
    },
}


@blp.post("/settlements")
@blp.operation(
    "settleSlips",
    *BODY,
    policy=signed(SETTLEMENT),
    **in_either_form("SettlementResponse", "SettlementMinimal"),
)
@blp.arguments(SETTLEMENT.request, examples=SETTLEMENT_EXAMPLES)
@blp.response(200, SETTLEMENT.answer)
def post_settlements(request: SettlementRequest) -> tuple[Any, int, dict[str, str]]:
    """Settle many bet slips (a live table's players) against one round.

    If any bet on any slip breaks the table's rules, nothing is settled and
    the 422 names every offending bet (`/slips/i/bets/j/...`). At a
    multiplier table (`rules.multipliers`) the round's multiplier cards are
    drawn from the seed inputs as POST /v1/rounds draws them, or sent as
    `multiplier_cards` with `cards`; the answer gives them, and each slip
    settled by the rule in `multiplier_slips` instead of `slips` (its fees,
    and the cap applied to each slip on its own); `totals` then counts the
    `fees` and what was `capped` (docs/multipliers.md). With
    `Prefer: return=minimal` the answer is the minimal one: codes and amounts.
    """
    return preferred(counted(SETTLEMENT.play(request, step=step)))
