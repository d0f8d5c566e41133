"""Card codes and point values."""

import pytest

from service.baccarat.rulebook.cards import DECK, check_composition, hand_total, parse_card, shoe
from service.baccarat.rulebook.errors import CardError
from tests.conftest import cards


@pytest.mark.parametrize(
    ("code", "canonical", "points"),
    [
        ("AS", "AS", 1),
        ("as", "AS", 1),
        ("2h", "2H", 2),
        ("9D", "9D", 9),
        ("TC", "TC", 0),
        ("10c", "TC", 0),
        ("10C", "TC", 0),
        ("tc", "TC", 0),
        ("jS", "JS", 0),
        ("Qh", "QH", 0),
        ("KD", "KD", 0),
    ],
)
def test_card_codes_are_read_case_insensitively_and_written_canonically(code, canonical, points):
    card = parse_card(code)
    assert (card.code, card.points) == (canonical, points)


@pytest.mark.parametrize("code", ["", "1S", "11S", "KX", "K", "S", "AS ", " AS", "10", "ZZ", "AAS", "0S"])
def test_bad_card_codes_are_refused(code):
    with pytest.raises(ValueError, match="is not a card code"):
        parse_card(code)


@pytest.mark.parametrize(
    ("hand", "total"),
    [
        ("4S 3H", 7),
        ("QS 5H", 5),
        ("KS JH", 0),
        ("2S TH 4D", 6),
        ("KS 5H 6D", 1),
        ("8S 4H 7D", 9),
        ("6S 7H", 3),
        ("4S 6H", 0),
        ("8S 9H", 7),
    ],
)
def test_hand_total_is_the_last_digit_of_the_sum(hand, total):
    assert hand_total(cards(hand)) == total


@pytest.mark.parametrize("decks", range(1, 9))
def test_a_shoe_holds_52_cards_per_deck_each_card_once_per_deck(decks):
    full = shoe(decks)
    assert len(full) == 52 * decks
    assert {full.count(card) for card in DECK} == {decks}


@pytest.mark.parametrize("decks", [0, 9])
def test_shoes_hold_one_to_eight_decks(decks):
    with pytest.raises(ValueError, match="1 to 8 decks"):
        shoe(decks)


def test_a_card_more_often_than_the_shoe_holds_is_refused_at_its_position():
    sequence = cards("AS " * 9)
    with pytest.raises(CardError) as caught:
        check_composition(sequence, 8)
    assert [p.path for p in caught.value.problems] == [("cards", 8)]
    check_composition(sequence[:8], 8)  # eight aces of spades fit in eight decks
    with pytest.raises(CardError):
        check_composition(cards("KH KH"), 1)
