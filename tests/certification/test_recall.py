"""Recalled rounds are the rounds of the whole shoe, chosen from the seed."""

from __future__ import annotations

from service.baccarat.shoes.deal import shoe_round
from service.baccarat.shoes.shuffle import SeedInputs, shuffled_shoe
from service.baccarat.tables.rules import TABLES
from service.certification.recall import BETWEEN, chosen, recall


def test_the_first_and_last_shoes_and_some_between_are_chosen_from_the_seed():
    picks = chosen("s", 40)
    assert len(picks) == BETWEEN + 2
    assert picks[0] == 0
    assert picks[-1] == 39
    assert chosen("s", 40) == picks != chosen("t", 40)


def test_each_recalled_round_is_that_round_of_its_shoe():
    rules = TABLES["tie_9"].rules
    for entry in recall("s", 40, rules, "tie_9", {}):
        cards = shuffled_shoe(rules.decks, SeedInputs("s", "", entry["shoe"]))
        played = shoe_round(cards, entry["round"], cut_card=rules.cut_card)
        assert [card.code for card in played.coup.player.cards] == entry["player"]
        assert entry["outcome"] == str(played.coup.outcome)
        assert entry["agrees_with_simulator"]
        assert entry["command"].startswith("baccarat round --table tie_9 --server-seed s --client-seed ''")
