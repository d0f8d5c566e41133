"""Playing a round from what a request brings: cards, seed inputs, a round
number of a seeded shoe, or nothing; then settling a slip or a table's slips.

How the cards deal is tested in test_coup.py and test_shoe_deal.py, how bets
settle in test_settlement.py, and a round dealt live in test_live.py.
"""

from decimal import Decimal

import pytest
from hypothesis import given

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.play.round import (
    PlayedRound,
    RoundSoFar,
    SlipTotals,
    play_and_settle,
    play_and_settle_slips,
    play_live,
)
from service.baccarat.rulebook.coup import deal
from service.baccarat.rulebook.errors import BetError, CardError, SeedError
from service.baccarat.shoes.deal import shoe_round
from service.baccarat.shoes.shuffle import ALGORITHM, SeedInputs, seeded_shoe, shoe_hash, shuffled_shoe
from service.baccarat.tables.rules import TABLES, resolve_rules
from tests import strategies
from tests.conftest import cards

STANDARD = TABLES["standard"].rules
DESIGN_ROUND = cards("9S KH 2D 7C 5H")  # 6 v 7: the Banker wins
SEED = SeedInputs("play-seed", "client", 4)


def bet(kind: str, amount: str) -> Bet:
    return Bet(type=BetType(kind), amount=Decimal(amount))


def test_a_plain_seed_is_the_server_seed_with_no_client_seed_and_nonce_zero():
    shoe, record = seeded_shoe(8, "table-3")
    assert shoe == shuffled_shoe(8, SeedInputs("table-3", "", 0))
    assert (record.seed, record.generated, record.algorithm) == ("table-3", False, ALGORITHM)
    assert record.shoe_hash == shoe_hash(shoe)


def test_no_seed_draws_a_fresh_one_that_replays_the_same_shoe():
    shoe, record = seeded_shoe(8, None)
    assert record.generated
    assert len(record.seed) == 64
    assert seeded_shoe(8, record.inputs)[0] == shoe


def test_cards_deal_their_round_and_keep_the_cards_it_did_not_use():
    played = play_and_settle(STANDARD, [], cards=[*DESIGN_ROUND, *cards("AS 2S")])
    assert played.coup == deal(DESIGN_ROUND)
    assert played.unused_cards == tuple(cards("AS 2S"))
    assert (played.seed, played.shoe_round, played.settlement) == (None, None, None)


def test_a_seed_without_a_round_number_deals_from_the_top_with_no_burn():
    played = play_and_settle(STANDARD, [], seed=SEED)
    assert played.coup == deal(seeded_shoe(8, SEED)[0])
    assert played.seed is not None
    assert played.seed.inputs == SEED
    assert played.shoe_round is None


@pytest.mark.parametrize("number", [1, 2, 40])
def test_a_round_number_is_that_round_of_the_whole_seeded_shoe(number):
    played = play_and_settle(STANDARD, [], seed=SEED, round_number=number)
    expected = shoe_round(seeded_shoe(8, SEED)[0], number, cut_card=STANDARD.cut_card)
    assert played.shoe_round == expected
    assert played.coup == expected.coup


@pytest.mark.parametrize(
    ("kwargs", "error", "paths"),
    [
        ({"cards": DESIGN_ROUND, "seed": SEED}, SeedError, []),
        ({"cards": DESIGN_ROUND, "round_number": 2}, SeedError, [("round",)]),
        ({"seed": SEED, "commitment": "0" * 64}, SeedError, [("server_seed_hash",)]),
        ({"cards": cards("9S KH 2D 7C 9S")}, CardError, [("cards", 4)]),  # one deck holds one 9S
    ],
)
def test_a_round_asked_for_inconsistently_is_refused(kwargs, error, paths):
    rules = resolve_rules("standard", {"decks": 1, "cut_card": 14})
    with pytest.raises(error) as caught:
        play_and_settle(rules, [], **kwargs)
    assert [p.path for p in caught.value.problems] == paths


def test_the_commitment_shown_before_play_is_accepted_in_either_case():
    played = play_and_settle(STANDARD, [], seed=SEED, commitment=SEED.server_seed_hash.upper())
    assert played.seed is not None
    assert not played.seed.generated


def test_a_slip_is_settled_on_the_round_and_no_slip_settles_nothing():
    played = play_and_settle(STANDARD, [bet("banker", "25.00")], cards=DESIGN_ROUND)
    assert played.settlement is not None
    assert (str(played.settlement.returned), str(played.settlement.net)) == ("48.75", "23.75")
    assert play_and_settle(STANDARD, [], cards=DESIGN_ROUND).settlement is None


def test_a_tables_slips_are_settled_in_order_and_summed():
    slips = [("a", [bet("banker", "25.00")]), ("b", [bet("player", "10"), bet("tie", "5")])]
    played = play_and_settle_slips(STANDARD, slips, cards=DESIGN_ROUND)
    assert [slip.id for slip in played.slips] == ["a", "b"]
    assert played.totals == SlipTotals(
        slips=2, bets=3, staked=Decimal("40.00"), returned=Decimal("48.75"), net=Decimal("8.75")
    )


def test_no_slips_sum_to_zero_in_the_minor_unit():
    totals = SlipTotals.of([], STANDARD)
    assert (totals.slips, totals.bets, str(totals.staked), str(totals.net)) == (0, 0, "0.00", "0.00")


def test_a_round_dealt_live_is_so_far_until_its_last_card():
    so_far = play_live(STANDARD, DESIGN_ROUND[:4], bets=[bet("banker", "25")])
    assert isinstance(so_far, RoundSoFar)
    assert so_far.round.next.position == 4
    done = play_live(STANDARD, DESIGN_ROUND, bets=[bet("banker", "25")])
    assert done == play_and_settle(STANDARD, [bet("banker", "25")], cards=DESIGN_ROUND)


def test_a_live_slip_is_checked_before_the_round_is_complete():
    with pytest.raises(BetError) as caught:
        play_live(STANDARD, DESIGN_ROUND[:2], bets=[bet("tie", "25")])  # over the tie maximum
    assert [p.path for p in caught.value.problems] == [("bets", 0, "amount")]


@given(strategies.shoe_sequence(), strategies.bets)
def test_the_dealt_cards_never_depend_on_the_bets(sequence, bets):
    played: PlayedRound = play_and_settle(STANDARD, bets, cards=sequence)
    assert played.coup == play_and_settle(STANDARD, [], cards=sequence).coup
    assert played.unused_cards == tuple(sequence[played.coup.cards_used :])


@given(strategies.shoe_sequence(), strategies.bets)
def test_a_complete_live_round_is_the_same_answer_as_the_round_played_whole(sequence, bets):
    used = sequence[: deal(sequence).cards_used]
    assert play_live(STANDARD, used, bets=bets) == play_and_settle(STANDARD, bets, cards=used)
