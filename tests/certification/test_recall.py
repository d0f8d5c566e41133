"""Recalled rounds are the rounds of the whole shoe, chosen from the seed."""

from __future__ import annotations

from itertools import pairwise

from service.baccarat.rulebook.coup import deal
from service.baccarat.shoes.deal import shoe_round
from service.baccarat.shoes.shuffle import SeedInputs, shuffled_shoe
from service.baccarat.tables.rules import TABLES, Dealing, resolve_rules
from service.certification.recall import BETWEEN, chosen, last_games, recall


def test_the_first_and_last_shoes_and_some_between_are_chosen_from_the_seed():
    picks = chosen("s", 40)
    assert len(picks) == BETWEEN + 2
    assert picks[0] == 0
    assert picks[-1] == 39
    assert chosen("s", 40) == picks != chosen("t", 40)


def test_each_recalled_round_is_that_round_of_its_shoe():
    rules = resolve_rules("tie_9", {"dealing": Dealing.SHOE})
    for entry in recall("s", 40, rules, "tie_9", {"dealing": "shoe"}):
        cards = shuffled_shoe(rules.decks, SeedInputs("s", "", entry["shoe"]))
        played = shoe_round(cards, entry["round"], cut_card=rules.cut_card)
        assert [card.code for card in played.coup.player.cards] == entry["player"]
        assert entry["outcome"] == str(played.coup.outcome)
        assert entry["agrees_with_simulator"]
        assert entry["command"].startswith("baccarat round --table tie_9 --server-seed s --client-seed ''")
        assert entry["request"]["body"]["round"] == entry["round"]


def test_at_a_table_that_reshuffles_after_each_hand_each_recalled_game_is_its_shoe_s_one_round(client):
    """Each shoe deals one hand from its top, no burn: recalled, and asked again
    of POST /v1/rounds without a round number (the table refuses one)."""
    rules = TABLES["tie_9"].rules
    games = recall("s", 40, rules, "tie_9", {}) + last_games("s", 40, rules, "tie_9", {})
    assert [game["shoe"] for game in games[-10:]] == list(range(39, 29, -1))
    for entry in games:
        assert (entry["round"], entry["rounds_in_shoe"]) == (1, 1)
        coup = deal(shuffled_shoe(rules.decks, SeedInputs("s", "", entry["shoe"])))
        assert [card.code for card in coup.player.cards] == entry["player"]
        assert [card.code for card in coup.banker.cards] == entry["banker"]
        assert entry["agrees_with_simulator"]
        assert "round" not in entry["request"]["body"]
        assert "--round" not in entry["command"]
        again = client.post(entry["request"]["path"], json=entry["request"]["body"])
        assert again.status_code == 200, again.get_json()
        assert (again.get_json()["player"]["cards"], again.get_json()["banker"]["cards"]) == (
            entry["player"],
            entry["banker"],
        )


def test_the_last_game_and_the_nine_before_it_reach_back_into_the_shoe_before():
    rules = TABLES["standard"].rules
    games = last_games("s", 40, rules, "standard", {})
    assert [game["games_ago"] for game in games] == list(range(10))
    last = games[0]
    assert (last["shoe"], last["round"]) == (39, last["rounds_in_shoe"])
    # Each game is the one before the game after it, in its shoe or at the end of the shoe before.
    for later, earlier in pairwise(games):
        if later["round"] > 1:
            assert (earlier["shoe"], earlier["round"]) == (later["shoe"], later["round"] - 1)
        else:
            assert (earlier["shoe"], earlier["round"]) == (later["shoe"] - 1, earlier["rounds_in_shoe"])
    assert all(game["agrees_with_simulator"] for game in games)
    # One-deck shoes deal fewer than ten rounds: the ten reach into the shoe before.
    one_deck = resolve_rules("standard", {"decks": 1})
    short = last_games("s", 3, one_deck, "standard", {"decks": 1})
    assert len(short) == 10
    assert {game["shoe"] for game in short} >= {1, 2}
