"""Worked rounds, pairs, and what happens when the cards run out."""

import pytest
from hypothesis import given

from service.baccarat.rulebook.coup import Coup, Hand, Outcome, deal
from service.baccarat.rulebook.errors import MissingCard
from tests import strategies
from tests.conftest import cards


def test_the_design_example():
    coup = deal(cards("9S KH 2D 7C 5H"))
    assert [c.code for c in coup.player.cards] == ["9S", "2D", "5H"]
    assert [c.code for c in coup.banker.cards] == ["KH", "7C"]
    assert (coup.player.total, coup.banker.total, coup.outcome) == (6, 7, Outcome.BANKER)
    assert [(d.hand, d.card.code) for d in coup.draws if d.card] == [("player", "5H")]
    assert coup.cards_used == 5


@pytest.mark.parametrize(
    ("sequence", "player_pair", "banker_pair", "perfect"),
    [
        ("5S KH 5D 7C 3H 2D", True, False, False),  # player pair, player drew a third card
        ("4S 7H 4S 7C", True, True, True),  # 4S 4S perfect (natural 8); 7H 7C pair
        ("TS KH JD KC 9S 9H", False, True, False),  # T-J is no pair though both count 0
        ("TS TH TD 4C 2S 3D", True, False, False),
        ("QS 2H QH 2C 4S 4D", True, True, False),
    ],
)
def test_pairs_go_by_rank_on_the_first_two_cards_even_after_a_third(
    sequence, player_pair, banker_pair, perfect
):
    coup = deal(cards(sequence))
    assert coup.player.pair is player_pair
    assert coup.banker.pair is banker_pair
    assert (coup.player.perfect_pair or coup.banker.perfect_pair) is perfect


@pytest.mark.parametrize(
    ("sequence", "missing_position", "why"),
    [
        ("", 0, "Player's first card"),
        ("9S KH 2D", 3, "Banker's second card"),
        ("9S KH 2D 7C", 4, "the Player draws a third card"),
        ("KS 2H 7D KC", 4, "the Banker draws a third card"),  # player 7 stands, banker 2 draws
        ("KS 5H 2D KC 6S", 5, "the Banker draws a third card"),
    ],
)
def test_too_few_cards_names_the_missing_card_and_why(sequence, missing_position, why):
    with pytest.raises(MissingCard) as caught:
        deal(cards(sequence))
    [problem] = caught.value.problems
    assert problem.path == ("cards", missing_position)
    assert why in problem.detail


@given(strategies.shoe_sequence())
def test_invariants_of_every_round(sequence):
    coup = deal(sequence)
    assert 0 <= coup.player.total <= 9
    assert 0 <= coup.banker.total <= 9
    assert 4 <= coup.cards_used <= 6
    used = [*coup.player.cards, *coup.banker.cards]
    assert sorted(map(str, used)) == sorted(map(str, sequence[: coup.cards_used]))
    if coup.natural:
        assert coup.cards_used == 4
    # Dealing order: P B P B, then the player's third, then the banker's.
    assert coup.player.cards[:2] == (sequence[0], sequence[2])
    assert coup.banker.cards[:2] == (sequence[1], sequence[3])
    # The same cards always give the same round.
    assert deal(sequence) == coup


@given(strategies.shoe_sequence())
def test_a_round_rebuilt_from_its_hands_and_decisions_has_the_same_facts(sequence):
    coup = deal(sequence)
    rebuilt = Coup.of(Hand.of(coup.player.cards), Hand.of(coup.banker.cards), coup.decisions)
    # A record compares every field: the worked-out facts of the round and its hands too.
    assert rebuilt == coup
