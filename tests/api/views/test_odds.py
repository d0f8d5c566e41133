"""POST /v1/odds: each way to describe the shoe, the answer's shape, and every refusal."""

from fractions import Fraction

import pytest

from service.baccarat.odds.exact import EVENTS, analyse, decimal_text
from service.baccarat.rulebook.cards import RANKS, parse_card
from service.baccarat.shoes.composition import after_removing, before_round, full_shoe
from service.baccarat.shoes.shuffle import SeedInputs
from service.baccarat.tables.rules import TABLES
from tests.api.test_errors import assert_problem

FULL_RANKS = dict.fromkeys(RANKS, 32)
SERVER_SEED = "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"


def post_odds(client, body):
    return client.post("/v1/odds", json=body)


def test_an_empty_request_answers_for_the_full_standard_shoe(client):
    response = post_odds(client, {})
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert list(body) == ["rules", "shoe", "sequences", "probabilities", "counts", "bets", "engine"]
    assert body["shoe"] == {"source": "full", "decks": 8, "cards": 416, "ranks": FULL_RANKS}
    assert body["sequences"] == 4_998_398_275_503_360
    assert (body["counts"]["banker"], body["counts"]["player"], body["counts"]["tie"]) == (
        2_292_252_566_437_888,
        2_230_518_282_592_256,
        475_627_426_473_216,
    )
    assert body["probabilities"]["banker"] == "0.458597422632762973"
    assert list(body["probabilities"]) == [event.name for event in EVENTS]
    assert list(body["bets"]) == [str(bet) for bet in TABLES["standard"].rules.bet_types]


def test_each_bet_has_its_figures_its_fractions_and_its_pay_lines(client):
    banker = post_odds(client, {}).get_json()["bets"]["banker"]
    exact = {name: Fraction(text) for name, text in banker["exact"].items()}
    assert exact["win"] + exact["push"] + exact["lose"] == 1
    assert exact["house_edge"] == -exact["expected_value"]
    for name in ("win", "push", "lose", "expected_value", "house_edge"):
        assert banker[name] == decimal_text(exact[name])
    assert [(line["when"], line["result"], line["net"]) for line in banker["lines"]] == [
        ("Banker wins", "win", "0.95"),
        ("a tie", "push", "0"),
        ("no line of its pay table holds", "lose", "-1"),
    ]
    assert round(exact["house_edge"] * 100, 4) == Fraction("1.0579")


@pytest.mark.parametrize(
    ("table", "bet", "printed"),
    [
        ("standard", "player", "1.2351"),
        ("tie_9", "tie", "4.8440"),
        ("no_commission", "banker", "1.4581"),
        ("ez", "banker", "1.0183"),
        ("ez", "dragon_7", "7.61"),
        ("no_commission", "super_6", "29.98"),
    ],
)
def test_house_edges_are_those_of_design(client, table, bet, printed):
    answer = post_odds(client, {"table": table}).get_json()
    edge = Fraction(answer["bets"][bet]["exact"]["house_edge"]) * 100
    assert round(edge, len(printed.split(".")[1])) == Fraction(printed)
    assert list(answer["bets"]) == [str(b) for b in TABLES[table].rules.bet_types]


def test_six_decks_by_the_rules(client):
    body = post_odds(client, {"rules": {"decks": 6}}).get_json()
    assert (body["shoe"]["decks"], body["shoe"]["cards"], body["rules"]["decks"]) == (6, 312, 6)
    assert round(Fraction(body["counts"]["banker"], body["sequences"]), 6) == Fraction("0.458653")


def test_removed_cards_are_taken_out_of_the_shoe(client):
    removed = ["9S", "KH", "2d", "7C", "5H", "10h"]
    body = post_odds(client, {"table": "ez", "removed": removed}).get_json()
    assert body["shoe"]["source"] == "removed"
    assert body["shoe"]["cards"] == 410
    assert (body["shoe"]["ranks"]["T"], body["shoe"]["ranks"]["9"]) == (31, 31)
    expected = analyse(after_removing(8, [parse_card(c) for c in removed]), TABLES["ez"].rules)
    assert body["probabilities"]["banker"] == decimal_text(expected.probabilities["banker"])
    assert (
        body["bets"]["dragon_7"]["exact"]["house_edge"]
        != post_odds(client, {"table": "ez"}).get_json()["bets"]["dragon_7"]["exact"]["house_edge"]
    )


def test_counts_per_rank_describe_the_shoe(client):
    body = post_odds(client, {"counts": FULL_RANKS | {"5": 0, "6": 10}}).get_json()
    assert body["shoe"]["source"] == "counts"
    assert body["shoe"]["ranks"] == FULL_RANKS | {"5": 0, "6": 10}
    assert body["counts"]["banker_wins_by_1"] > 0
    full = post_odds(client, {"counts": FULL_RANKS}).get_json()
    assert full["probabilities"] == post_odds(client, {}).get_json()["probabilities"]


def test_a_seeded_shoe_before_a_round(client):
    fair = {"server_seed": SERVER_SEED, "client_seed": "lucky-7", "nonce": 1}
    body = post_odds(client, {**fair, "round": 40}).get_json()
    seeded = before_round(8, SeedInputs(SERVER_SEED, "lucky-7", 1), 40)
    assert body["shoe"]["source"] == "seed"
    assert (body["shoe"]["round"], body["shoe"]["position"]) == (40, seeded.place.position)
    assert body["shoe"]["cards"] == seeded.composition.total
    assert body["shoe"]["seed"]["shoe_hash"] == seeded.place.seed.shoe_hash
    shoes = client.post("/v1/shoes", json={**fair, "from_round": 40, "to_round": 40}).get_json()
    assert shoes["rounds"][0]["positions"]["player"][0] == body["shoe"]["position"]
    first = post_odds(client, {"seed": "table-7/shoe-1"}).get_json()["shoe"]
    assert first["round"] == 1
    assert first["cards"] == 416 - first["position"]


def test_a_seed_at_a_table_that_reshuffles_after_each_hand_prices_the_round_it_deals(client):
    """tie_9 deals a seeded round from the top of its fresh shuffle, no burn:
    the odds for that seed are the whole shuffled shoe's, from position 0,
    the very shoe (by its hash) whose top cards POST /v1/rounds deals."""
    fair = {"server_seed": SERVER_SEED, "client_seed": "lucky-7", "nonce": 1}
    body = post_odds(client, {"table": "tie_9", **fair}).get_json()
    played = client.post("/v1/rounds", json={"table": "tie_9", **fair}).get_json()
    shoe = client.post("/v1/shoes", json={**fair, "include_shoe": True}).get_json()["shoe"]
    assert (body["shoe"]["round"], body["shoe"]["position"], body["shoe"]["cards"]) == (1, 0, 416)
    assert body["shoe"]["seed"]["shoe_hash"] == played["seed"]["shoe_hash"]
    priced = shoe[body["shoe"]["position"] :]
    dealt = [played["player"]["cards"][0], played["banker"]["cards"][0]]
    dealt += [played["player"]["cards"][1], played["banker"]["cards"][1]]
    assert priced[:4] == dealt
    full = post_odds(client, {"table": "tie_9"}).get_json()
    assert body["probabilities"] == full["probabilities"]
    assert body["bets"] == full["bets"]
    # Dealt from a shoe by its rules, the same seed's round 1 comes after the burn.
    by_shoe = post_odds(client, {"table": "tie_9", "rules": {"dealing": "shoe"}, **fair}).get_json()
    assert by_shoe["shoe"]["position"] > 0


def test_the_full_shoe_is_the_same_however_it_is_asked_for(client):
    answers = [
        post_odds(client, body).get_json()["probabilities"]
        for body in ({}, {"removed": []}, {"counts": FULL_RANKS})
    ]
    assert answers[0] == answers[1] == answers[2]
    assert full_shoe(8).total == 416


@pytest.mark.parametrize(
    ("body", "pointer", "detail_part"),
    [
        ({"removed": ["AS"] * 9}, "/removed/8", "more than 8 time(s)"),
        ({"rules": {"decks": 1}, "removed": ["AS", "AS"]}, "/removed/1", "1-deck shoe holds only 1"),
        ({"removed": ["XX"]}, "/removed/0", "not a card code"),
        ({"removed": "AS"}, "/removed", "Not a valid list"),
        ({"counts": FULL_RANKS | {"A": 33}}, "/counts/A", "less than or equal to 32"),
        ({"counts": FULL_RANKS | {"A": -1}}, "/counts/A", "greater than or equal to 0"),
        ({"counts": FULL_RANKS | {"A": 1.5}}, "/counts/A", "Not a valid integer"),
        ({"counts": {"A": 4}}, "/counts/K", "Missing data"),
        ({"counts": FULL_RANKS | {"Z": 4}}, "/counts/Z", "Unknown field"),
        ({"rules": {"decks": 6}, "counts": FULL_RANKS}, "/counts/A", "more As than a 6-deck shoe holds (24)"),
        ({"counts": dict.fromkeys(RANKS, 0) | {"9": 5}}, "/counts", "leaves 5 card(s)"),
        ({"removed": ["AS"], "counts": FULL_RANKS}, "/counts", "send one of removed, counts, not several"),
        ({"removed": ["AS"], "seed": "abc"}, "/seed", "send one of removed, seed, not several"),
        ({"round": 3}, "/round", "send seed inputs"),
        ({"seed": "abc", "round": 0}, "/round", "greater than or equal to 1"),
        (
            {"seed": "abc", "round": 100, "rules": {"decks": 1, "cut_card": 14}},
            "/round",
            "past the shoe's last",
        ),
        ({"seed": "abc", "server_seed_hash": "0" * 64}, "/server_seed_hash", "SHA-256 of the server seed"),
        ({"seed": "abc", "rules": {"decks": 1, "cut_card": 40}}, "/rules/cut_card", "14 to 26"),
        ({"table": "baccarat-royale"}, "/table", "Must be one of"),
        ({"rules": {"decks": 9}}, "/rules/decks", "less than or equal to 8"),
        ({"rules": {"variant": "ez", "commission": "0.05"}}, "/rules/commission", "standard variant"),
        ({"bets": []}, "/bets", "Unknown field"),
    ],
)
def test_a_shoe_that_cannot_be_analysed_is_a_422_naming_the_field(client, body, pointer, detail_part):
    assert_problem(post_odds(client, body), 422, pointer, detail_part)


def test_fewer_than_six_cards_left_is_refused_and_six_are_enough(client):
    deck = [rank + suit for suit in "SHDC" for rank in RANKS]
    refused = post_odds(client, {"rules": {"decks": 1}, "removed": deck[:47]})
    body = assert_problem(refused, 422, "/removed", "at least 6 are needed")
    assert body["type"] == "urn:baccarat:problem:invalid-shoe"
    accepted = post_odds(client, {"rules": {"decks": 1}, "removed": deck[:46]})
    assert accepted.status_code == 200
    assert accepted.get_json()["sequences"] == 720


def test_a_body_that_is_not_json_is_a_400(client):
    response = client.post("/v1/odds", data="{", content_type="application/json")
    assert_problem(response, 400)


def test_a_multiplier_shoe_where_a_bet_can_no_longer_win_is_answered(client):
    """One deck of clubs down to 7C..KC deals no pair: 200, the pairs' expected
    multiplier null, as the same shoe at a plain table answers 200."""
    removed = [rank + suit for suit in "SHD" for rank in RANKS] + [rank + "C" for rank in "A23456"]
    for rules in ({"decks": 1}, {"decks": 1, "multipliers": "lightning"}):
        answer = client.post("/v1/odds", json={"rules": rules, "removed": removed})
        assert answer.status_code == 200, answer.get_json()
    pairs = [line for line in answer.get_json()["multiplier_returns"] if line["bet"].endswith("_pair")]
    assert [(line["win"], line["multiplier"], line["rtp"]) for line in pairs] == [("0", None, "0")] * 2


def test_a_multiplier_table_s_bets_are_priced_by_the_rule_s_base_pays(client):
    """Lightning pays a tie 5:1 and pairs 9:1 before multipliers: `bets` is
    priced by those, not by the standard 8:1 and 11:1."""
    bets = client.post("/v1/odds", json={"rules": {"multipliers": "lightning"}}).get_json()["bets"]
    nets = {
        bet: [line["net"] for line in odds["lines"] if line["result"] == "win"] for bet, odds in bets.items()
    }
    assert nets == {
        "player": ["1"],
        "banker": ["0.95"],
        "tie": ["5"],
        "player_pair": ["9"],
        "banker_pair": ["9"],
    }
