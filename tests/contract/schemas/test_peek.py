"""POST /v1/rounds/peek's schemas: the request loaded into the engine's
PeekRequest, and each answer's plain dump what marshmallow writes."""

from decimal import Decimal

import pytest
from marshmallow import ValidationError

from service.baccarat.bets.types import BetType
from service.baccarat.peek.round import Choice, PeekRound, PeekView, Position
from service.baccarat.requests import play_peek_round
from service.contract.schemas.peek import PeekAnswerSchema, PeekRequestSchema, PeekRoundSchema

CARDS = ["9S", "KH", "2D", "7C", "5H"]
BODY = {
    "cards": CARDS,
    "shown": ["banker_second", "player_first"],
    "bets": [{"type": "banker", "amount": "10"}],
}


def test_the_request_loads_the_positions_in_dealing_order_and_the_decision_by_bet():
    request = PeekRequestSchema().load({**BODY, "decision": {"banker": "triple"}})
    assert request.shown == (Position.PLAYER_FIRST, Position.BANKER_SECOND)
    assert request.decision == {BetType.BANKER: Choice.TRIPLE}
    assert request.bets[0].amount == Decimal("10")


def test_without_a_decision_the_request_has_none_and_a_seed_needs_no_shown():
    request = PeekRequestSchema().load({"seed": "s", "bets": []})
    assert request.decision is None
    assert request.shown is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**BODY, "decision": {"banker": "quadruple"}}, "decision"),
        ({**BODY, "decision": {"nothing": "keep"}}, "decision"),
        ({**BODY, "shown": []}, "shown"),
        ({**BODY, "shown": ["player_third"]}, "shown"),
    ],
)
def test_a_bad_decision_or_position_is_refused_at_its_field(body, field):
    with pytest.raises(ValidationError) as raised:
        PeekRequestSchema().load(body)
    assert field in raised.value.messages


@pytest.mark.parametrize("decision", [None, {"banker": "double"}])
def test_the_plain_dump_is_marshmallows(decision):
    body = BODY if decision is None else {**BODY, "decision": decision}
    played = play_peek_round(PeekRequestSchema().load(body))
    schema = PeekAnswerSchema()
    assert schema.dump(played) == schema.marshmallow_dump(played)
    if isinstance(played, PeekRound):
        assert schema.dump(played) == PeekRoundSchema().marshmallow_dump(played)


def test_the_first_answer_holds_the_cards_shown_and_no_other():
    played = play_peek_round(PeekRequestSchema().load(BODY))
    assert isinstance(played, PeekView)
    answer = PeekAnswerSchema().dump(played)
    assert answer["complete"] is False
    assert answer["shown"] == [
        {"position": "player_first", "card": "9S"},
        {"position": "banker_second", "card": "7C"},
    ]
    assert answer["hidden"] == ["banker_first", "player_second"]
    text = str(answer)
    assert all(code not in text for code in ("KH", "2D", "5H"))
