"""POST /v1/rounds/peek through HTTP: the two calls of one round, the
misuses answered as 422 problems naming the field, and a replayed answer
identical."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.app import create_app

CLIENT = create_app({"TESTING": True}).test_client()
CARDS = ["9S", "KH", "2D", "7C", "5H"]
FIRST = {"cards": CARDS, "shown": ["banker_first"], "bets": [{"id": "b1", "type": "banker", "amount": "10"}]}


def post(body, path="/v1/rounds/peek"):
    return CLIENT.post(path, json=body)


def test_the_first_call_shows_the_cards_shown_the_fee_and_the_choices():
    answer = post(FIRST)
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["shown"] == [{"position": "banker_first", "card": "KH"}]
    assert body["bets"] == [
        {
            "id": "b1",
            "type": "banker",
            "amount": "10.00",
            "fee": "2.00",
            "choices": ["keep", "double", "triple"],
        }
    ]
    assert body["cost"] == "12.00"
    assert not {"player", "banker", "settlement", "seed"} & body.keys()


@pytest.mark.parametrize(
    ("choice", "staked", "net"),
    [("keep", "10.00", "7.50"), ("double", "20.00", "17.00"), ("triple", "30.00", "26.50")],
)
def test_the_second_call_is_the_round_settled_on_the_decision_with_the_fee_kept(choice, staked, net):
    body = post({**FIRST, "decision": {"banker": choice}}).get_json()
    plain = post({"cards": CARDS, "bets": [{"id": "b1", "type": "banker", "amount": staked}]}, "/v1/rounds")
    assert {k: v for k, v in body.items() if k != "peek"} == plain.get_json()
    assert body["peek"]["fee"] == "2.00"
    assert body["peek"]["net"] == net
    assert body["peek"]["bets"][0]["choice"] == choice


def leaf_strings(value: object) -> set[str]:
    """Every string value inside ``value`` (not its keys)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(leaf_strings(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(leaf_strings(item) for item in value))
    return set()


@settings(max_examples=25, deadline=None)
@given(st.text(min_size=1, max_size=16), st.integers(0, 50), st.sampled_from(["keep", "double", "triple"]))
def test_a_seeded_round_s_two_calls_are_one_round_and_the_first_hides_the_rest(seed, nonce, choice):
    first = {"server_seed": seed, "nonce": nonce, "bets": [{"type": "player", "amount": "5"}]}
    view = post(first).get_json()
    done = post({**first, "decision": {"player": choice}}).get_json()
    dealt = {
        "player_first": done["player"]["cards"][0],
        "banker_first": done["banker"]["cards"][0],
        "player_second": done["player"]["cards"][1],
        "banker_second": done["banker"]["cards"][1],
    }
    assert {s["position"]: s["card"] for s in view["shown"]} == {
        p: dealt[p] for p in dealt if p not in view["hidden"]
    }
    assert done["peek"]["shown"] == [s["position"] for s in view["shown"]]
    shown = {s["card"] for s in view["shown"]}
    hidden = [dealt[p] for p in view["hidden"]] + done["player"]["cards"][2:] + done["banker"]["cards"][2:]
    text = json.dumps(view)
    assert all(f'"{card}"' not in text for card in hidden if card not in shown)
    # The seed is not echoed: no field holds it (a short seed may still be part
    # of a word the view holds anyway: "be" of "number").
    assert not {"seed", "server_seed"} & view.keys()
    assert seed not in leaf_strings(view) or seed in json.dumps(view["rules"])


@pytest.mark.parametrize(
    ("body", "path", "pointer", "code"),
    [
        (
            {**FIRST, "decision": {"tie": "double"}},
            "/v1/rounds/peek",
            "/decision/tie",
            "peek_raise_not_allowed",
        ),
        (
            {**FIRST, "decision": {"player": "double"}},
            "/v1/rounds/peek",
            "/decision/player",
            "peek_bet_not_on_slip",
        ),
        (
            {**FIRST, "bets": [{"type": "banker", "amount": "80"}], "decision": {"banker": "triple"}},
            "/v1/rounds/peek",
            "/decision/banker",
            "peek_raise_over_maximum",
        ),
        ({"cards": CARDS, "decision": {"banker": "double"}}, "/v1/rounds", "/decision", "unknown_field"),
        ({"cards": CARDS}, "/v1/rounds/peek", "/shown", "peek_needs_shown"),
        ({"bets": []}, "/v1/rounds/peek", "/cards", "peek_needs_cards_or_seed"),
    ],
)
def test_each_misuse_is_a_422_problem_naming_its_field(body, path, pointer, code):
    answer = post(body, path)
    assert answer.status_code == 422
    assert answer.content_type == "application/problem+json"
    assert {"pointer": pointer, "code": code} in [
        {"pointer": e["pointer"], "code": e["code"]} for e in answer.get_json()["errors"]
    ]


def test_a_signed_peek_answer_replays_identical():
    body = json.dumps({**FIRST, "decision": {"banker": "double"}})
    answer = CLIENT.post("/v1/rounds/peek", data=body, content_type="application/json")
    exchange = {
        "request": {"method": "POST", "url": "http://localhost/v1/rounds/peek", "body": body},
        "response": {"status": 200, "headers": dict(answer.headers), "body": answer.get_data(as_text=True)},
    }
    replay = CLIENT.post("/v1/replays", json=exchange)
    assert replay.status_code == 200, replay.get_json()
    assert replay.get_json()["replay"]["identical"] is True
