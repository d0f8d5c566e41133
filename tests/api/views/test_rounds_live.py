"""POST /v1/rounds/live and physical shoes on POST /v1/shoes, through HTTP.

A round dealt card by card answers the round so far until it is complete,
then exactly what POST /v1/rounds answers; a physical shoe cut from a
seeded one answers the seeded shoe's burn, rounds and roads.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from prometheus_client import generate_latest

from service.app import create_app
from service.baccarat.rulebook.coup import deal
from service.baccarat.tables.rules import resolve_rules
from tests import strategies

#: One app for the many requests of the property tests (the app keeps no
#: state between requests).
CLIENT = create_app({"TESTING": True}).test_client()
STANDARD = resolve_rules("standard")
BANKER_25 = [{"type": "banker", "amount": "25.00"}]


def codes(cards):
    return [c.code for c in cards]


@settings(max_examples=100)
@given(
    strategies.shoe_sequence(min_size=6, max_size=6), strategies.bets, st.sampled_from(["standard", "tie_9"])
)
def test_every_card_of_a_round_answers_what_comes_next_then_the_round(sequence, bets, table):
    used = deal(sequence).cards_used
    slip = [{"type": str(b.type), "amount": str(b.amount)} for b in bets]
    body = {"cards": codes(sequence[:used]), "bets": slip, "table": table}
    whole = CLIENT.post("/v1/rounds", json=body)
    for dealt in range(used):
        answer = CLIENT.post("/v1/rounds/live", json={**body, "cards": body["cards"][:dealt]})
        if whole.status_code == 422:  # a slip this table refuses: refused before any card
            assert answer.status_code == 422
            assert answer.get_json()["errors"] == whole.get_json()["errors"]
            continue
        assert answer.status_code == 200
        so_far = answer.get_json()
        assert so_far["complete"] is False
        assert so_far["next"]["position"] == dealt
        assert "settlement" not in so_far
    live = CLIENT.post("/v1/rounds/live", json=body)
    assert live.status_code == whole.status_code
    if whole.status_code == 200:
        assert live.get_data() == whole.get_data()
        assert live.get_json()["complete"] is True
    else:
        assert live.get_json()["errors"] == whole.get_json()["errors"]


@pytest.mark.parametrize(
    ("cards", "pointer", "kind", "words"),
    [
        (["9S", "KH", "2D", "7C", "5H", "3D"], "/cards/5", "misdeal", "dealt after the round was over"),
        (["8S", "KH", "KD", "3C", "5H", "6H", "7H"], "/cards/4", "misdeal", "natural 8: nobody draws"),
        (
            [{"card": "7S", "hand": "player"}, "KH", "KD", "6C", {"card": "5H", "hand": "banker"}],
            "/cards/4",
            "misdeal",
            "the Banker stands on 6-7",
        ),
        (["9S", {"card": "KH", "hand": "player"}], "/cards/1", "misdeal", "should have gone to the Banker"),
        (["9S", {"card": "KH", "hand": "dealer"}], "/cards/1/hand", "invalid-request", "player, banker"),
        (["9S", "K♥"], "/cards/1", "invalid-request", "is not a card code"),
        (["9S", {"card": "KX", "hand": "banker"}], "/cards/1/card", "invalid-request", "is not a card code"),
        (["9S", 7], "/cards/1", "invalid-request", "a card code such as"),
    ],
)
def test_bad_cards_are_a_422_at_the_offending_card(client, cards, pointer, kind, words):
    answer = client.post("/v1/rounds/live", json={"cards": cards, "bets": BANKER_25})
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    problem = answer.get_json()
    assert problem["type"] == f"urn:baccarat:problem:{kind}"
    (error,) = problem["errors"]
    assert error["pointer"] == pointer
    assert words in error["detail"]


def test_a_bad_slip_is_refused_before_the_cards_come_out(client):
    answer = client.post(
        "/v1/rounds/live", json={"table": "ez", "bets": [{"type": "tie", "amount": "0.001"}]}
    )
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["pointer"] == "/bets/0/amount"


def test_a_round_in_progress_is_not_counted_as_played(client, app):
    client.post("/v1/rounds/live", json={"cards": ["9S", "KH"]})
    scraped = generate_latest(app.services.metrics.registry).decode().splitlines()
    rounds = [line for line in scraped if line.startswith("baccarat_rounds_total{")]
    assert len(rounds) == 3  # one series per outcome, made when the app was built
    assert all(line.endswith(" 0.0") for line in rounds)


# --- physical shoes ---------------------------------------------------------


@pytest.fixture(scope="module")
def seeded():
    client = CLIENT
    answer = client.post("/v1/shoes", json={"seed": "table-7/shoe-1", "include_shoe": True}).get_json()
    return client, answer


@pytest.mark.parametrize("cut_after", [1, 2, 40, 41, 42, 43, 80])
def test_a_physical_shoe_answers_the_seeded_shoes_rounds_burn_and_roads(seeded, cut_after):
    client, whole = seeded
    rounds = whole["rounds"][:cut_after]
    sent = rounds[-1]["positions"]["player"][0] + rounds[-1]["cards_used"]
    body = {"cards": whole["shoe"][:sent]}
    if sent >= whole["cut_card_position"]:
        body["cut_card_position"] = whole["cut_card_position"]
    physical = client.post("/v1/shoes", json=body).get_json()
    assert physical["rounds"] == rounds
    assert physical["burned"] == whole["burned"]
    assert physical["round_count"] == cut_after
    assert "seed" not in physical
    assert "round_in_progress" not in physical
    cut_slice = client.post("/v1/shoes", json={"seed": "table-7/shoe-1", "to_round": cut_after}).get_json()
    assert physical["roads"] == cut_slice["roads"]


def test_a_physical_shoe_answers_its_round_in_progress_and_its_burn(seeded):
    client, whole = seeded
    start = whole["rounds"][2]["positions"]["player"][0]
    physical = client.post("/v1/shoes", json={"cards": whole["shoe"][: start + 3]}).get_json()
    assert physical["round_in_progress"]["number"] == 3
    assert physical["round_in_progress"]["next"]["position"] == start + 3
    assert physical["card_counts"]["in_progress"] == 3
    assert "cut_card_position" not in physical
    burning = client.post("/v1/shoes", json={"cards": whole["shoe"][:1]}).get_json()
    assert burning["burn_remaining"] == len(whole["burned"]) - 1
    assert burning["rounds"] == []


def test_a_physical_shoe_settles_its_complete_rounds_and_only_checks_the_next(seeded):
    client, whole = seeded
    start = whole["rounds"][1]["positions"]["player"][0]
    body = {
        "cards": whole["shoe"][: start + 2],
        "bets_by_round": [{"round": 1, "bets": BANKER_25}, {"round": 2, "bets": BANKER_25}],
    }
    physical = client.post("/v1/shoes", json=body).get_json()
    assert "settlement" in physical["rounds"][0]
    assert physical["totals"]["bets"] == 1
    body["bets_by_round"].append({"round": 3, "bets": BANKER_25})
    answer = client.post("/v1/shoes", json=body)
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["pointer"] == "/bets_by_round/2/round"


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"cards": ["9S"], "seed": "x"}, "/seed"),
        ({"seed": "x", "cut_card_position": 400}, "/cut_card_position"),
        ({"cards": []}, "/cards"),
        ({"cards": ["9S"] * 9}, "/cards/8"),
        ({"cards": ["9S"], "cut_card_position": 400}, "/cut_card_position"),
    ],
)
def test_bad_physical_shoes_are_a_422_naming_the_field(client, body, pointer):
    answer = client.post("/v1/shoes", json=body)
    assert answer.status_code == 422
    assert answer.get_json()["errors"][0]["pointer"] == pointer
