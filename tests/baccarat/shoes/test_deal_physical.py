"""A physical shoe from the cards dealt from it so far.

The rulebook's promise: a physical shoe's cards, cut from a seeded shoe at
any card, deal exactly the seeded shoe's burn and rounds up to that card,
and the round the cards stop in is what dealing it live says.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.play.shoe import RoundBets, ShoeReport, play_physical_shoe, play_shoe
from service.baccarat.rulebook.cards import Card, shoe
from service.baccarat.rulebook.coup import Side
from service.baccarat.rulebook.errors import CardError, Misdeal, ShoeError
from service.baccarat.rulebook.live import RoundInProgress, deal_live
from service.baccarat.shoes.deal import DealtShoe, deal_physical_shoe, deal_shoe
from service.baccarat.shoes.roads import Result, roads
from service.baccarat.tables.rules import resolve_rules
from tests.baccarat.shoes.test_deal import seeded_shoes
from tests.conftest import cards


def cut_from(seeded: list[Card], cut_card: int, sent: int) -> tuple[DealtShoe, DealtShoe]:
    """The seeded shoe dealt whole, and its first ``sent`` cards dealt as a
    physical shoe (the cut card's position sent once it has come out)."""
    whole = deal_shoe(seeded, cut_card=cut_card)
    assert whole.cut_card_position is not None
    out = whole.cut_card_position if sent >= whole.cut_card_position else None
    decks = len(seeded) // 52
    return whole, deal_physical_shoe(seeded[:sent], decks=decks, cut_card_position=out)


@settings(max_examples=60, deadline=None)
@given(seeded_shoes(), st.data())
def test_a_physical_shoe_cut_from_a_seeded_one_deals_its_burn_and_rounds(shoe_and_cut, data):
    seeded, cut_card = shoe_and_cut
    last_end = deal_shoe(seeded, cut_card=cut_card).rounds[-1].end
    sent = data.draw(st.integers(1, last_end), label="cards sent")
    whole, physical = cut_from(seeded, cut_card, sent)

    complete = [r for r in whole.rounds if r.end <= sent]
    assert physical.rounds == tuple(complete)
    assert physical.burned == whole.burned[:sent]
    assert physical.burn_remaining == max(whole.burn_count - sent, 0)
    assert physical.complete == (sent == last_end)
    start = complete[-1].end if complete else whole.burn_count
    if start < sent:
        so_far = deal_live(seeded[:sent], start=start)
        assert isinstance(so_far, RoundInProgress)
        assert physical.in_progress == so_far
        assert physical.in_progress_count == sent - start
    else:
        assert physical.in_progress is None
    assert len(physical.burned) + physical.dealt_count + physical.in_progress_count == sent
    assert physical.left_behind_count == 0


@settings(max_examples=20, deadline=None)
@given(seeded_shoes(), st.data())
def test_the_played_physical_shoe_has_the_seeded_shoes_roads_and_settlement(shoe_and_cut, data):
    seeded, cut_card = shoe_and_cut
    decks = len(seeded) // 52
    rules = resolve_rules("standard", {"decks": decks, "cut_card": cut_card})
    whole = deal_shoe(seeded, cut_card=cut_card)
    upto = data.draw(st.integers(1, len(whole.rounds)), label="rounds complete")
    sent = whole.rounds[upto - 1].end
    out = whole.cut_card_position if sent >= (whole.cut_card_position or 0) else None
    bets = (RoundBets(upto, ()),)
    physical = play_physical_shoe(
        rules, seeded[:sent], cut_card_position=out, report=ShoeReport(bets_by_round=bets)
    )
    assert [r.round for r in physical.rounds] == list(whole.rounds[:upto])
    assert physical.roads == roads(Result.of(r.coup) for r in whole.rounds[:upto])
    assert physical.seed is None
    assert physical.round_count == upto


def test_a_seeded_played_shoe_is_unchanged_by_the_physical_path():
    rules = resolve_rules()
    seeded = play_shoe(rules, seed="table-7/shoe-1")
    cards_sent = seeded.dealt.cards[: seeded.dealt.rounds[-1].end]
    physical = play_physical_shoe(rules, cards_sent, cut_card_position=seeded.cut_card_position)
    assert [r.round for r in physical.rounds] == [r.round for r in seeded.rounds]
    assert physical.roads == seeded.roads
    assert physical.burned == seeded.burned


def test_a_shoe_at_its_burn_says_how_many_cards_remain_to_burn():
    dealt = deal_physical_shoe(cards("KS 2H 3D"), decks=8)  # a king burns 10 more
    assert dealt.burn_remaining == 8
    assert dealt.rounds == ()
    assert dealt.in_progress is None


def test_a_card_after_the_last_round_is_a_misdeal():
    seeded = list(deal_shoe(shoe(8)).cards)
    whole = deal_shoe(seeded)
    end = whole.rounds[-1].end
    with pytest.raises(Misdeal) as caught:
        deal_physical_shoe(seeded[: end + 1], decks=8, cut_card_position=whole.cut_card_position)
    assert caught.value.problems[0].path == ("cards", end)
    assert f"round {len(whole.rounds)}" in caught.value.problems[0].detail


def test_a_burned_card_placed_with_a_hand_is_a_misdeal():
    with pytest.raises(Misdeal) as caught:
        deal_physical_shoe(cards("2S 3H 4D"), [None, Side.PLAYER], decks=8)
    assert caught.value.problems[0].path == ("cards", 1)


def test_tagged_cards_in_a_shoe_are_checked_round_by_round():
    sent = cards("AS 2H 9S KH 2D 7C 5H")  # burn AS 2H, then a round: the fifth card is the Player's
    tags = [None, None, Side.PLAYER, Side.BANKER, Side.PLAYER, Side.BANKER, Side.BANKER]
    with pytest.raises(Misdeal) as caught:
        deal_physical_shoe(sent, tags, decks=8)
    assert caught.value.problems[0].path == ("cards", 6)


@pytest.mark.parametrize(
    ("position", "sent", "words"),
    [(300, 416, "must be 336 to 402"), (403, 416, "must be 336 to 402"), (400, 350, "not among the 350")],
)
def test_the_cut_card_position_must_fit_the_shoe_and_the_cards_sent(position, sent, words):
    with pytest.raises(ShoeError) as caught:
        deal_physical_shoe(shoe(8)[:sent], decks=8, cut_card_position=position)
    assert caught.value.problems[0].path == ("cut_card_position",)
    assert words in caught.value.problems[0].detail


def test_more_copies_of_a_card_than_the_decks_hold_name_the_card():
    with pytest.raises(CardError) as caught:
        play_physical_shoe(resolve_rules("standard", {"decks": 1}), cards("9S 9S"))
    assert caught.value.problems[0].path == ("cards", 1)
    assert "9S" in caught.value.problems[0].detail
