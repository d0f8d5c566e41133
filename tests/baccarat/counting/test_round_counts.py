"""Counting every round a shoe can deal, by signature: checked here against
dealing every ordered six of a small shoe's cards, signature by signature.

The module's doctest pins the 8-deck totals of DESIGN §8; test_odds.py
checks the odds worked out from these counts (against a brute force, for
every bet) and that a signature's example round pays as any round with it.
"""

from collections import Counter
from itertools import permutations, product

import numpy as np
import pytest
from hypothesis import given, settings

from service.baccarat.counting.round_counts import (
    NONE,
    PAIR,
    PAIRINGS,
    PERFECT,
    SIGNATURES,
    Signature,
    count_rounds,
    signature_coup,
)
from service.baccarat.rulebook.cards import DECK, Card
from service.baccarat.rulebook.coup import deal
from service.baccarat.shoes.composition import Composition, full_shoe
from tests import strategies
from tests.conftest import cards


def composition_of(held: list[Card]) -> Composition:
    counter = Counter(held)
    return Composition(8, tuple(counter[card] for card in DECK))


def dealt_by_signature(held: list[Card]) -> Counter[Signature]:
    """Deal every ordered six of the physical cards ``held``; count each signature."""
    return Counter(
        Signature.of(deal([held[i] for i in order])) for order in permutations(range(len(held)), 6)
    )


def test_the_pairings_are_in_signature_order():
    assert (PAIRINGS[NONE], PAIRINGS[PAIR], PAIRINGS[PERFECT]) == ("none", "pair", "perfect")


def test_every_signature_has_its_own_index():
    fields = product(range(10), range(10), (False, True), (False, True), range(3), range(3))
    indices = [Signature(*values).index for values in fields]
    assert sorted(indices) == list(range(SIGNATURES)) == list(range(3600))


@pytest.mark.parametrize(
    ("sequence", "signature", "outcome"),
    [
        ("9S KH 2D 7C 5H", Signature(6, 7, True, False, NONE, NONE), "banker"),
        ("4S 7H 4S 7C", Signature(8, 4, False, False, PERFECT, PAIR), "player"),  # natural 8
        ("TS KH JD KC 9S 9H", Signature(9, 9, True, True, NONE, PAIR), "tie"),  # T-J is no pair
        ("QS 2H QH 2C 4S 4D", Signature(4, 8, True, True, PAIR, PAIR), "banker"),
    ],
)
def test_a_rounds_signature_is_what_its_pay_tables_can_see(sequence, signature, outcome):
    coup = deal(cards(sequence))
    assert Signature.of(coup) == signature
    assert signature.outcome == outcome
    assert Signature.of(signature_coup(signature)) == signature


def test_a_signature_no_shoe_deals_has_no_example_round():
    natural_9_then_a_banker_draw = Signature(9, 5, False, True, NONE, NONE)
    with pytest.raises(KeyError):
        signature_coup(natural_9_then_a_banker_draw)


@pytest.mark.parametrize(
    "held",
    [
        "AS 2S 3S 4S 5S 6S",  # six cards: every ordering finishes a round
        "9S 9S 9H KD QD 2C 6H",  # a perfect pair, a pair, two ten-valued ranks
        "TS JS QS KS TH JH",  # all zeros: always a 0-0 tie, after both draw
    ],
)
def test_a_small_shoes_counts_are_those_of_dealing_every_ordering(held):
    shoe = cards(held)
    counted = count_rounds(composition_of(shoe))
    expected = dealt_by_signature(shoe)
    assert {signature: count for signature, count in counted.items() if count} == expected
    assert counted.sequences == sum(expected.values())


@settings(max_examples=15, deadline=None)
@given(strategies.shoe_sequence(min_size=6, max_size=7))
def test_any_small_shoes_counts_are_those_of_dealing_every_ordering(held):
    counted = count_rounds(composition_of(held))
    assert {s: count for s, count in counted.items() if count} == dealt_by_signature(held)


def test_every_signature_a_shoe_can_deal_is_listed_once():
    listed = [signature for signature, _ in count_rounds(full_shoe(8)).items()]
    assert len(listed) == len(set(listed))
    assert all(Signature.of(signature_coup(signature)) == signature for signature in listed)


@pytest.mark.parametrize("decks", [1, 8])
def test_the_counts_are_exact_integers_that_add_up_to_every_ordered_six(decks):
    counted = count_rounds(full_shoe(decks))
    total = 52 * decks
    assert counted.sequences == total * (total - 1) * (total - 2) * (total - 3) * (total - 4) * (total - 5)
    assert counted.by_signature.dtype == np.int64
    assert (counted.by_signature >= 0).all()
    assert sum(count for _, count in counted.items()) == counted.sequences
    assert counted.sequences < 2**53  # exact in any JSON reader too


def test_a_shoe_with_no_two_cards_of_a_rank_deals_no_pairs():
    counted = count_rounds(composition_of(cards("AS 2S 3S 4S 5S 6S 7S")))
    assert all(
        count == 0
        for signature, count in counted.items()
        if signature.player_pairing != NONE or signature.banker_pairing != NONE
    )


def test_more_than_eight_decks_is_refused():
    with pytest.raises(ValueError, match="at most 8 decks"):
        count_rounds(Composition(9, (9,) * 52))
