"""POST /v1/shoes (as JSON, or the picture of its roads), POST /v1/seeds, and seed inputs and
round numbers on POST /v1/rounds."""

import hashlib
import json
from decimal import Decimal

import pytest

from tests.api.test_errors import assert_problem
from tests.contract.test_road_pictures import as_json, read_picture

SERVER_SEED = "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"
FAIR = {"server_seed": SERVER_SEED, "client_seed": "lucky-7", "nonce": 1}
ROUND_KEYS = ("player", "banker", "outcome", "natural", "cards_used")
#: A physical shoe's cards so far: a burn of 4, two rounds, the third in progress.
PHYSICAL = [
    "3S",
    "QH",
    "7D",
    "5C",
    "9S",
    "KH",
    "2D",
    "7C",
    "5H",
    "2S",
    "KH",
    "3D",
    "4C",
    "5H",
    "6D",
    "2C",
    "AD",
]


def shoe(client, **body):
    response = client.post("/v1/shoes", json=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def problem(client, path, body):
    # Sent as written by the standard library, which can write a lone surrogate.
    response = client.post(path, data=json.dumps(body), content_type="application/json")
    assert response.status_code == 422, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    return response.get_json()


def pointers(body):
    return [error["pointer"] for error in body["errors"]]


@pytest.mark.parametrize("decks", [8, 6, 1])
def test_a_whole_shoe_accounts_for_every_card(client, decks):
    body = shoe(client, **FAIR, include_shoe=True, rules={"decks": decks})
    cards = body["shoe"]
    assert len(cards) == 52 * decks
    assert (
        hashlib.sha256(",".join(cards).encode()).hexdigest() == body["shoe_hash"] == body["seed"]["shoe_hash"]
    )
    assert body["burned"] == cards[: len(body["burned"])]
    counts = body["card_counts"]
    assert counts["total"] == counts["burned"] + counts["dealt"] + counts["left_behind"] == len(cards)
    assert counts["burned"] == len(body["burned"])
    assert [r["number"] for r in body["rounds"]] == list(range(1, body["round_count"] + 1))
    assert body["cut_card_position"] == len(cards) - body["rules"]["cut_card"]
    laid = []
    for played in body["rounds"]:
        for hand in ("player", "banker"):
            assert [cards[p] for p in played["positions"][hand]] == played[hand]["cards"]
            laid += played["positions"][hand]
    assert sorted(laid) == list(range(counts["burned"], counts["burned"] + counts["dealt"]))
    assert [r["cut_card_out"] for r in body["rounds"]].count(True) == 1
    assert body["rounds"][-2]["cut_card_out"]
    assert body["rounds"][-1]["last"]


def test_the_answer_carries_the_seed_data(client):
    body = shoe(client, **FAIR)
    assert body["algorithm"] == "hmac-sha256-fisher-yates/v1"
    seed = body["seed"]
    assert (seed["server_seed"], seed["client_seed"], seed["nonce"]) == (SERVER_SEED, "lucky-7", 1)
    assert seed["server_seed_hash"] == hashlib.sha256(SERVER_SEED.encode()).hexdigest()
    assert seed["generated"] is False
    assert "shoe" not in body
    assert "totals" not in body


def test_same_inputs_same_shoe_and_each_input_changes_it(client):
    base = shoe(client, **FAIR)
    assert shoe(client, **FAIR) == base
    for change in ({"client_seed": "lucky-8"}, {"nonce": 2}, {"server_seed": "other"}):
        assert shoe(client, **{**FAIR, **change})["shoe_hash"] != base["shoe_hash"]


def test_a_plain_seed_is_the_server_seed_with_empty_client_seed_and_nonce_zero(client):
    plain = shoe(client, seed="table-7/shoe-1")
    fair = shoe(client, server_seed="table-7/shoe-1", client_seed="", nonce=0)
    assert plain == fair


def test_without_seed_inputs_a_fresh_seed_is_drawn_and_replays(client):
    first = shoe(client, to_round=3)
    assert first["seed"]["generated"] is True
    replay = shoe(client, seed=first["seed"]["seed"], to_round=3)
    assert replay["rounds"] == first["rounds"]


@pytest.mark.parametrize(("from_round", "to_round"), [(1, 1), (5, 9), (-2, -1), (10, None), (3, 500)])
def test_a_slice_equals_the_same_rounds_of_the_whole_listing(client, from_round, to_round):
    whole = shoe(client, **FAIR)
    count = whole["round_count"]
    first = from_round if from_round > 0 else count + 1 + from_round
    body = {**FAIR, "from_round": first}
    if to_round is not None:
        body["to_round"] = min(to_round if to_round > 0 else count + 1 + to_round, 104)
    part = shoe(client, **body)
    last = count if to_round is None else min(body["to_round"], count)
    assert part["rounds"] == whole["rounds"][first - 1 : last]
    assert {k: v for k, v in part.items() if k not in ("rounds", "roads")} == {
        k: v for k, v in whole.items() if k not in ("rounds", "roads")
    }
    # The roads are the scoreboard after the last round answered.
    roads = client.post("/v1/roads", json={"results": whole["rounds"][:last]})
    assert roads.status_code == 200
    assert part["roads"] == roads.get_json()


def test_a_round_number_on_rounds_equals_that_round_of_the_shoe(client):
    whole = shoe(client, **FAIR)
    for played in whole["rounds"][:: max(1, whole["round_count"] // 7)] + whole["rounds"][-2:]:
        body = client.post("/v1/rounds", json={**FAIR, "round": played["number"]}).get_json()
        for key in ROUND_KEYS:
            assert body[key] == played[key], key
        assert body["round"] == {k: played[k] for k in ("number", "positions", "cut_card_out", "last")}
        assert body["seed"] == whole["seed"]


def test_without_a_round_number_a_seeded_round_is_dealt_from_the_top_with_no_burn(client):
    top = client.post("/v1/rounds", json=FAIR).get_json()
    cards = shoe(client, **FAIR, include_shoe=True)["shoe"]
    assert top["player"]["cards"][:2] == [cards[0], cards[2]]
    assert top["banker"]["cards"][:2] == [cards[1], cards[3]]
    assert "round" not in top


def test_settlements_take_a_round_number_too(client):
    played = shoe(client, **FAIR, from_round=4, to_round=4)["rounds"][0]
    slips = [{"id": "seat-1", "bets": [{"type": "banker", "amount": "10"}]}]
    body = client.post("/v1/settlements", json={**FAIR, "round": 4, "slips": slips}).get_json()
    assert body["player"] == played["player"]
    assert body["round"]["number"] == 4


def test_bets_are_settled_on_every_round_as_rounds_settles_them(client):
    bets = [{"id": "b", "type": "banker", "amount": "10.00"}, {"type": "tie", "amount": "2"}]
    body = shoe(client, **FAIR, to_round=6, bets=bets)
    bare = shoe(client, **FAIR, to_round=6)
    for played, plain in zip(body["rounds"], bare["rounds"], strict=True):
        alone = client.post("/v1/rounds", json={**FAIR, "round": played["number"], "bets": bets}).get_json()
        assert played["settlement"] == alone["settlement"]
        assert {k: v for k, v in played.items() if k != "settlement"} == plain  # bets never change cards
    totals = body["totals"]
    assert totals["slips"] == 6
    assert totals["bets"] == 12
    assert Decimal(totals["net"]) == sum(Decimal(r["settlement"]["net"]) for r in body["rounds"])
    assert Decimal(totals["staked"]) == 6 * (Decimal("10.00") + Decimal("2"))


def test_bets_by_round_settle_only_the_rounds_listed(client):
    entries = [
        {"round": 2, "bets": [{"type": "player", "amount": "5"}]},
        {"round": 4, "bets": [{"type": "tie", "amount": "1"}]},
    ]
    body = shoe(client, **FAIR, to_round=5, bets_by_round=entries)
    settled = [r["number"] for r in body["rounds"] if "settlement" in r]
    assert settled == [2, 4]
    assert body["rounds"][1]["settlement"]["bets"][0]["type"] == "player"
    assert body["totals"]["slips"] == 2


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        (
            {"to_round": 3, "bets_by_round": [{"round": 4, "bets": [{"type": "tie", "amount": "1"}]}]},
            "/bets_by_round/0/round",
        ),
        (
            {"bets_by_round": [{"round": 2, "bets": [{"type": "tie", "amount": "1"}]}] * 2},
            "/bets_by_round/1/round",
        ),
        (
            {"bets_by_round": [{"round": 2, "bets": [{"type": "tie", "amount": "21"}]}]},
            "/bets_by_round/0/bets/0/amount",
        ),
        ({"bets": [{"type": "banker", "amount": "0.50"}]}, "/bets/0/amount"),
        (
            {
                "bets": [{"type": "tie", "amount": "1"}],
                "bets_by_round": [{"round": 1, "bets": [{"type": "tie", "amount": "1"}]}],
            },
            "/bets_by_round",
        ),
        ({"from_round": 104}, "/from_round"),
        ({"from_round": 5, "to_round": 4}, "/to_round"),
        ({"from_round": 0}, "/from_round"),
        ({"rules": {"cut_card": 13}}, "/rules/cut_card"),
        ({"rules": {"cut_card": 81}}, "/rules/cut_card"),
        ({"rules": {"decks": 1, "cut_card": 27}}, "/rules/cut_card"),
        ({"server_seed_hash": "00" * 32}, "/server_seed_hash"),
        ({"server_seed_hash": "not hex"}, "/server_seed_hash"),
        ({"seed": "also"}, "/server_seed"),
        ({"nonce": -1}, "/nonce"),
        ({"nonce": 2**53}, "/nonce"),
        ({"nonce": "1"}, "/nonce"),
        ({"server_seed": ""}, "/server_seed"),
        ({"client_seed": "x" * 257}, "/client_seed"),
        ({"server_seed": "\ud800"}, "/server_seed"),
    ],
)
def test_bad_shoe_requests_name_the_field(client, body, pointer):
    assert pointer in pointers(problem(client, "/v1/shoes", {**FAIR, **body}))


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"client_seed": "c"}, "/client_seed"),
        ({"nonce": 1}, "/nonce"),
        ({"server_seed_hash": "00" * 32}, "/server_seed_hash"),
        ({"seed": "s", "client_seed": "c"}, "/client_seed"),
        ({"cards": ["9S", "KH", "2D", "7C"], "server_seed": "s"}, "/server_seed"),
        ({"cards": ["9S", "KH", "2D", "7C"], "round": 2}, "/round"),
        ({"seed": "s", "round": 0}, "/round"),
        ({"seed": "s", "round": 200}, "/round"),
        ({"seed": "\udfff"}, "/seed"),
        ({"seed": "s", "server_seed_hash": "ab" * 32}, "/server_seed_hash"),
    ],
)
def test_bad_seed_inputs_on_rounds_name_the_field(client, body, pointer):
    assert pointer in pointers(problem(client, "/v1/rounds", body))


@pytest.mark.parametrize("path", ["/v1/rounds", "/v1/shoes"])
def test_the_commitment_is_checked_in_either_case(client, path):
    commitment = hashlib.sha256(SERVER_SEED.encode()).hexdigest()
    for sent in (commitment, commitment.upper()):
        response = client.post(path, json={**FAIR, "server_seed_hash": sent})
        assert response.status_code == 200
        assert response.get_json()["seed"]["server_seed_hash"] == commitment
    body = problem(client, path, {**FAIR, "server_seed_hash": hashlib.sha256(b"other").hexdigest()})
    assert body["type"] == "urn:baccarat:problem:invalid-seed"
    assert body["errors"][0]["pointer"] == "/server_seed_hash"
    assert commitment in body["errors"][0]["detail"]


def test_seeds_endpoint_draws_a_fresh_committed_seed(client):
    first = client.post("/v1/seeds", json={})
    assert first.status_code == 200
    assert first.headers["Cache-Control"] == "no-store"
    seed = first.get_json()
    assert len(seed["server_seed"]) == 64
    assert seed["server_seed_hash"] == hashlib.sha256(seed["server_seed"].encode()).hexdigest()
    assert seed["algorithm"] == "hmac-sha256-fisher-yates/v1"
    assert client.post("/v1/seeds", json={}).get_json()["server_seed"] != seed["server_seed"]
    played = shoe(
        client, server_seed=seed["server_seed"], server_seed_hash=seed["server_seed_hash"], client_seed="p"
    )
    assert played["seed"]["server_seed_hash"] == seed["server_seed_hash"]
    assert problem(client, "/v1/seeds", {"bytes": 16})["errors"][0]["pointer"] == "/bytes"


def test_the_cut_card_is_a_table_setting(client):
    default = shoe(client, **FAIR)
    deeper = shoe(client, **FAIR, rules={"cut_card": 60})
    assert default["rules"]["cut_card"] == 16
    assert deeper["cut_card_position"] == 416 - 60
    assert deeper["round_count"] < default["round_count"]
    count = deeper["round_count"]
    assert deeper["rounds"][:-2] == default["rounds"][: count - 2]
    flags = ("cut_card_out", "last")
    for early, late in zip(deeper["rounds"][-2:], default["rounds"][count - 2 : count], strict=True):
        assert {k: v for k, v in early.items() if k not in flags} == {
            k: v for k, v in late.items() if k not in flags
        }
    assert deeper["rules"]["id"] != default["rules"]["id"]


# --- the picture of a shoe's roads ---------------------------------------------------------------


@pytest.mark.parametrize("body", [FAIR, {**FAIR, "to_round": 12}, {"cards": PHYSICAL}])
def test_accept_svg_answers_the_picture_of_the_shoe_s_roads(client, body):
    answer = client.post("/v1/shoes", json=body)
    pictured = client.post("/v1/shoes", json=body, headers={"Accept": "image/svg+xml"})
    assert (answer.status_code, pictured.status_code) == (200, 200)
    assert answer.mimetype == "application/json"
    assert pictured.mimetype == "image/svg+xml"
    assert answer.headers["Vary"] == pictured.headers["Vary"] == "Accept, Accept-Language"
    picture = pictured.get_data(as_text=True)
    assert read_picture(picture) == as_json(answer.get_json()["roads"])
    assert '<title id="roads-title">Baccarat roads of the shoe</title>' in picture


def test_a_bad_shoe_request_for_the_picture_is_the_same_problem(client):
    response = client.post("/v1/shoes", json={**FAIR, "nonce": -1}, headers={"Accept": "image/svg+xml"})
    assert_problem(response, 422, pointer="/nonce")
