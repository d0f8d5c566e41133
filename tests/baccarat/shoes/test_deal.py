"""Dealing a whole shoe: burn, cut card, the last round, and card accounting."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.rulebook.cards import RANKS, SUITS, Card, shoe
from service.baccarat.rulebook.coup import deal
from service.baccarat.rulebook.errors import ShoeError
from service.baccarat.shoes.deal import (
    DEFAULT_CUT_CARD,
    MAX_CUT_CARD,
    MIN_CUT_CARD,
    check_cut_card,
    deal_shoe,
    shoe_round,
)
from service.baccarat.shoes.shuffle import SeedInputs, shuffled_shoe


@st.composite
def seeded_shoes(draw: st.DrawFn) -> tuple[list[Card], int]:
    """A shuffled shoe of 1-8 decks and an allowed cut card for it."""
    decks = draw(st.integers(1, 8))
    cut_card = draw(st.integers(MIN_CUT_CARD, min(MAX_CUT_CARD, 26 * decks)))
    inputs = SeedInputs(
        draw(st.text(min_size=1, max_size=12)), draw(st.text(max_size=6)), draw(st.integers(0, 99))
    )
    return shuffled_shoe(decks, inputs), cut_card


def with_top(card_code: str) -> list[Card]:
    """A fresh 8-deck shoe with ``card_code`` moved to the top."""
    cards = shoe(8)
    index = next(i for i, card in enumerate(cards) if card.code == card_code)
    cards.insert(0, cards.pop(index))
    return cards


@pytest.mark.parametrize(
    ("turned", "burned"),
    [("AS", 2), ("2H", 3), ("5D", 6), ("9C", 10), ("TS", 11), ("JH", 11), ("QD", 11), ("KC", 11)],
)
def test_the_turned_card_burns_its_pip_value_and_itself(turned, burned):
    dealt = deal_shoe(with_top(turned))
    assert dealt.burn_count == burned
    assert dealt.burned[0].code == turned
    assert dealt.rounds[0].start == burned


@pytest.mark.parametrize(
    ("decks", "cut_card", "allowed"),
    [
        (8, 13, False),
        (8, 14, True),
        (8, 16, True),
        (8, 80, True),
        (8, 81, False),
        (6, 80, True),
        (2, 52, True),
        (2, 53, False),
        (1, 26, True),
        (1, 27, False),
    ],
)
def test_cut_card_limits(decks, cut_card, allowed):
    if allowed:
        check_cut_card(52 * decks, cut_card)
    else:
        with pytest.raises(ShoeError) as error:
            check_cut_card(52 * decks, cut_card)
        assert error.value.problems[0].path == ("rules", "cut_card")


def test_default_cut_card_is_sixteen_from_the_end():
    dealt = deal_shoe(shuffled_shoe(8, SeedInputs("default")))
    assert DEFAULT_CUT_CARD == 16
    assert dealt.cut_card_position == 416 - 16


@given(seeded_shoes())
@settings(max_examples=60, deadline=None)
def test_every_card_is_burned_dealt_in_order_or_left_behind(case):
    cards, cut_card = case
    dealt = deal_shoe(cards, cut_card=cut_card)
    assert dealt.complete
    assert dealt.burn_count + dealt.dealt_count + dealt.left_behind_count == len(cards)
    position = dealt.burn_count
    for number, played in enumerate(dealt.rounds, start=1):
        assert played.number == number
        assert played.start == position  # rounds follow each other with no gap
        laid = sorted(played.positions.player + played.positions.banker)
        assert laid == list(range(played.start, played.end))
        assert [cards[p] for p in played.positions.player] == list(played.coup.player.cards)
        assert [cards[p] for p in played.positions.banker] == list(played.coup.banker.cards)
        assert played.coup == deal(cards, offset=played.start)  # each round follows the tableau
        position = played.end
    assert dealt.left_behind_count == len(cards) - position >= 0


@given(seeded_shoes())
@settings(max_examples=60, deadline=None)
def test_the_cut_card_round_is_finished_and_one_more_is_dealt(case):
    cards, cut_card = case
    dealt = deal_shoe(cards, cut_card=cut_card)
    cut = dealt.cut_card_position
    out = [r for r in dealt.rounds if r.cut_card_out]
    assert len(out) == 1
    assert out[0].start <= cut < out[0].end  # it deals the first card behind the cut card
    assert all(r.end <= cut for r in dealt.rounds[: out[0].number - 1])
    assert out[0].number == len(dealt.rounds) - 1
    assert [r.last for r in dealt.rounds] == [False] * (len(dealt.rounds) - 1) + [True]


def test_a_cut_card_at_the_start_of_a_round_makes_that_round_the_cut_round():
    cards = shuffled_shoe(1, SeedInputs("cut at a round start"))
    starts = [r.start for r in deal_shoe(cards, cut_card=MIN_CUT_CARD).rounds]
    start = next(s for s in starts if MIN_CUT_CARD <= len(cards) - s <= 26)
    dealt = deal_shoe(cards, cut_card=len(cards) - start)
    cut_round = next(r for r in dealt.rounds if r.cut_card_out)
    assert cut_round.start == start == dealt.cut_card_position
    assert dealt.rounds[-1].number == cut_round.number + 1


@given(seeded_shoes(), st.integers(1, 120))
@settings(max_examples=60, deadline=None)
def test_any_round_asked_for_alone_equals_that_round_of_the_whole_shoe(case, number):
    cards, cut_card = case
    whole = deal_shoe(cards, cut_card=cut_card)
    if number <= len(whole.rounds):
        assert shoe_round(cards, number, cut_card=cut_card) == whole.rounds[number - 1]
    else:
        with pytest.raises(ShoeError) as error:
            shoe_round(cards, number, cut_card=cut_card)
        assert error.value.problems[0].path == ("round",)
        assert str(len(whole.rounds)) in error.value.problems[0].detail


def test_dealing_up_to_a_round_stops_there():
    cards = shuffled_shoe(8, SeedInputs("partial"))
    part = deal_shoe(cards, until=5)
    assert not part.complete
    assert part.rounds == deal_shoe(cards).rounds[:5]


@pytest.mark.parametrize(("suit", "rank"), [(SUITS[0], RANKS[0]), (SUITS[-1], RANKS[-1])])
def test_an_unshuffled_shoe_deals_by_the_same_rules(suit, rank):
    # The engine deals any card order: a fresh shoe dealt from either end.
    cards = shoe(6)
    if (suit, rank) != ("S", "A"):
        cards.reverse()
    dealt = deal_shoe(cards)
    assert dealt.burned[0] == Card(rank, suit)
    assert dealt.burn_count + dealt.dealt_count + dealt.left_behind_count == 312
