"""What a shoe holds: the four ways to build a composition, and what it says
of itself (per card, per suit, per rank, per point value).

The odds worked out from compositions, and more refusals (cards removed too
often, too few cards left, impossible rank counts, a round past a seeded
shoe's end), are tested in test_odds.py.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.rulebook.cards import DECK, RANKS, parse_card
from service.baccarat.rulebook.errors import CardError, SeedError
from service.baccarat.shoes.composition import (
    MIN_CARDS,
    Composition,
    after_removing,
    before_round,
    from_rank_counts,
    full_shoe,
)
from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.shoes.shuffle import SeedInputs, seeded_shoe
from tests import strategies

SEED = SeedInputs("composition-seed", "client", 7)


def test_a_round_needs_at_most_six_cards():
    assert MIN_CARDS == 6


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_a_fresh_shoe_holds_each_card_once_per_deck(decks):
    shoe = full_shoe(decks)
    assert shoe.decks == decks
    assert shoe.total == 52 * decks
    assert {shoe.count(card) for card in DECK} == {decks}
    assert shoe.by_rank == dict.fromkeys(RANKS, 4 * decks)
    assert shoe.by_value == (16 * decks, *[4 * decks] * 9)  # tens and faces count 0


@pytest.mark.parametrize(
    "build", [full_shoe, lambda decks: after_removing(decks, []), lambda d: from_rank_counts(d, {})]
)
@pytest.mark.parametrize("decks", [0, 9])
def test_a_shoe_holds_one_to_eight_decks(build, decks):
    with pytest.raises(ValueError, match="1 to 8 decks"):
        build(decks)


@given(removed=strategies.shoe_sequence(min_size=0, max_size=40))
def test_every_view_of_a_shoe_counts_the_same_cards(removed):
    shoe = after_removing(8, removed)
    taken = Counter(removed)
    assert shoe.total == 416 - len(removed)
    assert all(shoe.count(card) == 8 - taken[card] for card in DECK)
    assert sum(shoe.by_rank.values()) == sum(shoe.by_value) == shoe.total
    for rank in RANKS:
        assert sum(shoe.suits_of(rank)) == shoe.by_rank[rank]
    assert shoe.by_value[0] == sum(shoe.by_rank[rank] for rank in "TJQK")


@given(st.sampled_from(RANKS), st.integers(0, 32))
def test_a_ranks_count_is_spread_over_the_suits_as_evenly_as_possible(rank, count):
    shoe = from_rank_counts(8, dict.fromkeys(RANKS, 32) | {rank: count})
    suits = shoe.suits_of(rank)
    assert sum(suits) == count
    assert max(suits) - min(suits) <= 1
    assert list(suits) == sorted(suits, reverse=True)  # the extra cards go to S, then H, then D


def test_rank_counts_must_name_every_rank():
    with pytest.raises(CardError) as caught:
        from_rank_counts(8, {rank: 32 for rank in RANKS if rank not in ("7", "K")})
    assert [p.path for p in caught.value.problems] == [("counts", "7"), ("counts", "K")]
    assert all("missing" in p.detail for p in caught.value.problems)


def test_a_refusal_names_the_field_the_caller_gave():
    with pytest.raises(CardError) as caught:
        after_removing(1, [parse_card("AS"), parse_card("AS")], field="dealt")
    assert caught.value.problems[0].path == ("dealt", 1)


def test_a_composition_built_by_hand_says_what_it_holds():
    held = Counter([parse_card("AS"), parse_card("AS"), parse_card("KD")])
    shoe = Composition(8, tuple(held[card] for card in DECK))
    assert (shoe.total, shoe.count(parse_card("AS")), shoe.suits_of("A")) == (3, 2, (2, 0, 0, 0))
    assert shoe.by_value[:2] == (1, 2)


def test_before_the_first_round_only_the_burn_is_gone():
    seeded = before_round(8, SEED, 1)
    burned = deal_shoe(seeded_shoe(8, SEED)[0]).burned
    assert seeded.composition == after_removing(8, burned)
    assert seeded.place.position == len(burned)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 60))
def test_before_a_round_the_shoe_holds_every_card_from_its_start(number):
    shoe, _ = seeded_shoe(8, SEED)
    seeded = before_round(8, SEED, number)
    assert seeded.place.round == number
    assert seeded.composition == after_removing(8, shoe[: seeded.place.position])


def test_a_seeded_shoe_records_the_seed_it_came_from():
    place = before_round(6, "plain seed", 2).place
    assert place.seed.inputs == SeedInputs("plain seed")  # empty client seed, nonce 0
    assert not place.seed.generated
    assert place.seed.shoe_hash == seeded_shoe(6, "plain seed")[1].shoe_hash


def test_a_seeded_shoe_is_checked_against_its_commitment():
    before_round(8, SEED, 3, commitment=SEED.server_seed_hash.upper())  # either case
    with pytest.raises(SeedError) as caught:
        before_round(8, SEED, 3, commitment="0" * 64)
    assert caught.value.problems[0].path == ("server_seed_hash",)
