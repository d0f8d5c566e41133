"""A round dealt live, one card at a time: what comes next, and misdeals.

The rulebook's promise: at every card, the round in progress says exactly
what :func:`deal` does with the whole round; a complete round is that round.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.rulebook.cards import Card, parse_card
from service.baccarat.rulebook.coup import Coup, Side, deal
from service.baccarat.rulebook.errors import Misdeal
from service.baccarat.rulebook.live import (
    MAX_ROUND_CARDS,
    Place,
    RoundInProgress,
    RoundOver,
    deal_live,
    deal_one_round,
    what_comes_next,
)
from service.baccarat.shoes.deal import Positions, ShoeRound
from tests.conftest import cards
from tests.strategies import card

#: A card of each point value, 0-9 (tens for 0).
BY_POINTS = [parse_card(code) for code in ("TS", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S")]


def tableau_cells() -> list[list[Card]]:
    """One six-card sequence for each cell of the tableau: every two-card
    total of each hand (naturals included) with every third card of the
    Player and the Banker. A round uses the first 4, 5 or 6 of them."""
    return [
        [BY_POINTS[p], BY_POINTS[b], BY_POINTS[0], BY_POINTS[0], BY_POINTS[p3], BY_POINTS[b3]]
        for p, b, p3, b3 in itertools.product(range(10), repeat=4)
    ]


CELLS = tableau_cells()


def hand_of_each_card(coup: Coup) -> list[Side]:
    """The hand each card of a dealt round went to, in dealing order."""
    positions = ShoeRound(1, 0, coup, cut_card_out=False, last=False).positions
    return [Side.PLAYER if i in positions.player else Side.BANKER for i in range(coup.cards_used)]


def test_the_cells_cover_rounds_of_four_five_and_six_cards():
    used = {deal(sequence).cards_used for sequence in CELLS}
    assert used == {4, 5, 6}


def test_every_prefix_of_every_cell_agrees_with_the_whole_round():
    for sequence in CELLS:
        coup = deal(sequence)
        hands = hand_of_each_card(coup)
        for dealt in range(coup.cards_used):
            so_far = deal_live(sequence[:dealt])
            assert isinstance(so_far, RoundInProgress), (sequence, dealt)
            assert so_far.next.position == dealt
            assert so_far.next.hand == hands[dealt]
            assert so_far.cards_dealt == dealt
            assert so_far.player.cards == coup.player.cards[: len(so_far.player.cards)]
            assert so_far.banker.cards == coup.banker.cards[: len(so_far.banker.cards)]
        assert deal_one_round(sequence[: coup.cards_used]) == coup


def test_a_card_after_any_complete_round_is_a_misdeal_at_that_card():
    for sequence in CELLS:
        used = deal(sequence).cards_used
        extra = [*sequence[:used], parse_card("KD")]
        with pytest.raises(Misdeal) as caught:
            deal_one_round(extra)
        assert [p.path for p in caught.value.problems] == [("cards", used)]
        assert "after the round was over" in caught.value.problems[0].detail


def test_correct_tags_deal_the_same_round_and_each_wrong_tag_is_a_misdeal_at_its_card():
    for sequence in CELLS[::7]:
        coup = deal(sequence)
        hands = hand_of_each_card(coup)
        assert deal_one_round(sequence[: coup.cards_used], hands) == coup
        for position, right in enumerate(hands):
            wrong = Side.BANKER if right is Side.PLAYER else Side.PLAYER
            tags: list[Side | None] = [None] * coup.cards_used
            tags[position] = wrong
            with pytest.raises(Misdeal) as caught:
                deal_one_round(sequence[: coup.cards_used], tags)
            (problem,) = caught.value.problems
            assert problem.path == ("cards", position)
            assert f"should have gone to the {right.title()}" in problem.detail


@given(st.lists(card, min_size=MAX_ROUND_CARDS, max_size=MAX_ROUND_CARDS))
def test_any_cards_dealt_live_give_the_round_deal_gives(sequence):
    coup = deal(sequence)
    for dealt in range(coup.cards_used):
        so_far = deal_live(sequence[:dealt], hand_of_each_card(coup)[:dealt])
        assert isinstance(so_far, RoundInProgress)
        assert so_far.next.hand == hand_of_each_card(coup)[dealt]
    assert deal_live(sequence) == coup  # cards after the round are not read


@pytest.mark.parametrize(
    ("sent", "place", "reason"),
    [
        ("", Place.PLAYER_FIRST, "The first four cards are dealt Player, Banker, Player, Banker"),
        ("9S", Place.BANKER_FIRST, "The first four cards are dealt Player, Banker, Player, Banker"),
        ("9S KH", Place.PLAYER_SECOND, "The first four cards are dealt Player, Banker, Player, Banker"),
        ("9S KH 2D", Place.BANKER_SECOND, "The first four cards are dealt Player, Banker, Player, Banker"),
        ("9S KH 2D 7C", Place.PLAYER_THIRD, "Player's two-card total is 1: the Player draws on 0-5"),
        ("7S KH KD 3C", Place.BANKER_THIRD, "Player stood and Banker's total is 3: the Banker draws on 0-5"),
        (
            "2S KH 2D 4C 5H",
            Place.BANKER_THIRD,
            "Banker's total is 4 and the Player's third card counts 5: on 4 the Banker draws when "
            "it counts 2-7",
        ),
        (
            "AS KH AD 3C 9H",
            Place.BANKER_THIRD,
            "Banker's total is 3 and the Player's third card counts 9: on 3 the Banker draws when it "
            "counts 0-7 or 9",
        ),
    ],
)
def test_what_comes_next_names_the_place_and_the_rule(sent, place, reason):
    so_far = deal_live(cards(sent))
    assert isinstance(so_far, RoundInProgress)
    assert (so_far.next.place, so_far.next.hand, so_far.next.reason) == (place, place.hand, reason)


@pytest.mark.parametrize(
    ("sent", "reason"),
    [
        ("9S KH 2D 7C 5H", "Banker's total is 7: the Banker always stands on 7"),
        ("8S KH KD 3C", "Player has a natural 8: nobody draws"),
        ("2S 9H 3D KC", "Banker has a natural 9: nobody draws"),
        (
            "7S KH KD 6C",
            "Player's two-card total is 7: the Player stands on 6-7; Player stood and "
            "Banker's total is 6: the Banker stands on 6-7",
        ),
        ("2S 4H 3D AC 5H 6D", "Both hands have drawn their third card: nobody draws a fourth"),
        (
            "6S 4H KD AC 2H",
            "Player's two-card total is 6: the Player stands on 6-7; Player stood and "
            "Banker's total is 5: the Banker draws on 0-5",
        ),
        (
            "2S 4H 3D 2C 8H",
            "Banker's total is 6 and the Player's third card counts 8: on 6 the Banker "
            "draws only when it counts 6-7",
        ),
    ],
)
def test_a_finished_round_says_why_nobody_draws(sent, reason):
    dealt = cards(sent)
    over = what_comes_next(dealt)
    assert isinstance(over, RoundOver)
    assert "; ".join(over.reasons) == reason
    with pytest.raises(Misdeal) as caught:
        deal_one_round([*dealt, parse_card("QS")])
    assert caught.value.problems[0].detail == f"dealt after the round was over: {reason}"


def test_a_third_card_to_a_banker_that_stands_is_a_misdeal_saying_the_round_was_over():
    with pytest.raises(Misdeal) as caught:
        deal_one_round(cards("7S KH KD 6C 5H"), [None, None, None, None, Side.BANKER])
    assert caught.value.slug == "misdeal"
    assert caught.value.problems[0].path == ("cards", 4)
    assert "Banker's total is 6: the Banker stands on 6-7" in caught.value.problems[0].detail


def test_a_card_to_the_player_out_of_turn_names_the_hand_that_should_have_had_it():
    with pytest.raises(Misdeal) as caught:
        deal_one_round(cards("9S KH"), [Side.PLAYER, Side.PLAYER])
    assert caught.value.problems[0].detail == (
        "placed with the Player; it should have gone to the Banker as the Banker's first card: "
        "The first four cards are dealt Player, Banker, Player, Banker"
    )


def test_a_round_in_progress_holds_no_natural_and_the_totals_so_far():
    so_far = deal_live(cards("2S 4H 3D AC 5H"))
    assert isinstance(so_far, RoundInProgress)
    assert (so_far.player.total, so_far.banker.total) == (0, 5)
    assert not so_far.player.natural
    assert not so_far.banker.natural
    assert [c.code for c in so_far.player.cards] == ["2S", "3D", "5H"]


def test_positions_of_a_round_match_the_places_dealt_live():
    coup = deal(cards("2S 4H 3D AC 5H 6D"))
    assert ShoeRound(1, 0, coup, False, False).positions == Positions((0, 2, 4), (1, 3, 5))
    assert hand_of_each_card(coup) == [Side.PLAYER, Side.BANKER] * 3
