"""Playing a whole seeded shoe: the rounds a report asks for, the slips
settled on them, and what the answer says of the shoe.

How a shoe is dealt (burn, cut card, last round) is tested in
test_shoe_deal.py; a physical shoe from its cards so far in
test_physical_shoe.py.
"""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.multipliers.cards import draw_multiplier_cards
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.settlement import settle_multiplier_slip
from service.baccarat.play.round import SlipTotals
from service.baccarat.play.shoe import CardCounts, RoundBets, ShoeReport, play_shoe
from service.baccarat.rulebook.errors import BetError, SeedError, ShoeError
from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.shoes.roads import Result, roads
from service.baccarat.shoes.shuffle import SeedInputs, seeded_shoe
from service.baccarat.tables.rules import TABLES, resolve_rules
from service.baccarat.tables.settlement import settle_slip

STANDARD = TABLES["standard"].rules
SEED = SeedInputs("shoe-play-seed", "client", 11)
WHOLE = play_shoe(STANDARD, seed=SEED)
LAST = WHOLE.round_count
BANKER_10 = (Bet(type=BetType.BANKER, amount=Decimal(10)),)
TIE_5 = (Bet(type=BetType.TIE, amount=Decimal(5)),)


def test_the_whole_shoe_is_reported_by_default_with_no_slips():
    assert WHOLE.dealt == deal_shoe(seeded_shoe(8, SEED)[0], cut_card=STANDARD.cut_card)
    assert [r.round for r in WHOLE.rounds] == list(WHOLE.dealt.rounds)
    assert all(r.settlement is None for r in WHOLE.rounds)
    assert WHOLE.totals is None


@settings(max_examples=30, deadline=None)
@given(st.integers(1, LAST), st.integers(0, 20))
def test_a_slice_is_the_same_rounds_of_the_whole_listing_settled_alike(start, extra):
    sliced = play_shoe(
        STANDARD, seed=SEED, report=ShoeReport(from_round=start, to_round=start + extra, bets=BANKER_10)
    )
    chosen = WHOLE.dealt.rounds[start - 1 : start + extra]
    assert sliced.dealt == WHOLE.dealt  # the whole shoe is always dealt
    assert [r.round for r in sliced.rounds] == list(chosen)
    assert [r.settlement for r in sliced.rounds] == [settle_slip(BANKER_10, r.coup, STANDARD) for r in chosen]
    assert sliced.roads == roads(Result.of(r.coup) for r in WHOLE.dealt.rounds[: chosen[-1].number])


def test_a_flat_bettors_slip_is_summed_over_every_round_reported():
    played = play_shoe(STANDARD, seed=SEED, report=ShoeReport(to_round=10, bets=BANKER_10))
    slips = [r.settlement for r in played.rounds]
    assert played.totals == SlipTotals.of([s for s in slips if s is not None], STANDARD)
    assert played.totals is not None
    assert (played.totals.slips, played.totals.staked) == (10, Decimal("100.00"))


def test_slips_by_round_are_settled_on_their_rounds_only():
    by_round = (RoundBets(3, BANKER_10), RoundBets(5, TIE_5))
    played = play_shoe(
        STANDARD, seed=SEED, report=ShoeReport(from_round=2, to_round=6, bets_by_round=by_round)
    )
    settled = {r.round.number: r.settlement for r in played.rounds if r.settlement is not None}
    assert sorted(settled) == [3, 5]
    assert settled[5] == settle_slip(TIE_5, WHOLE.dealt.rounds[4].coup, STANDARD)


@pytest.mark.parametrize(
    ("kwargs", "error", "paths"),
    [
        ({"from_round": LAST + 1}, ShoeError, [("from_round",)]),
        ({"from_round": 5, "to_round": 4}, ShoeError, [("to_round",)]),
        ({"bets": (Bet(type=BetType.TIE, amount=Decimal(21)),)}, BetError, [("bets", 0, "amount")]),
        (
            {"to_round": 4, "bets_by_round": (RoundBets(2, BANKER_10), RoundBets(9, BANKER_10))},
            ShoeError,
            [("bets_by_round", 1, "round")],
        ),
        (
            {"bets_by_round": (RoundBets(2, (*BANKER_10, Bet(type=BetType.DRAGON_7, amount=Decimal(1)))),)},
            BetError,
            [("bets_by_round", 0, "bets", 1, "type")],
        ),
    ],
)
def test_a_report_the_shoe_cannot_answer_is_refused_naming_the_input(kwargs, error, paths):
    with pytest.raises(error) as caught:
        play_shoe(STANDARD, seed=SEED, report=ShoeReport(**kwargs))
    assert [p.path for p in caught.value.problems] == paths


def test_a_to_round_past_the_last_reads_as_the_last():
    played = play_shoe(STANDARD, seed=SEED, report=ShoeReport(from_round=LAST - 1, to_round=LAST + 50))
    assert [r.round.number for r in played.rounds] == [LAST - 1, LAST]


def test_bets_never_change_the_cards():
    betting = play_shoe(STANDARD, seed=SEED, report=ShoeReport(bets=BANKER_10))
    assert betting.dealt == WHOLE.dealt
    assert betting.roads == WHOLE.roads


def test_every_card_of_the_shoe_is_accounted_for():
    counts = WHOLE.card_counts
    assert counts == CardCounts(416, len(WHOLE.burned), WHOLE.dealt.dealt_count, 0, counts.left_behind)
    assert counts.burned + counts.dealt + counts.left_behind == counts.total
    assert WHOLE.burned == WHOLE.dealt.burned
    assert WHOLE.cut_card_position == 416 - STANDARD.cut_card


def test_a_seeded_shoe_says_where_it_came_from_and_nothing_is_in_progress():
    assert WHOLE.seed is not None
    assert WHOLE.seed.inputs == SEED
    assert WHOLE.shoe_hash == seeded_shoe(8, SEED)[1].shoe_hash
    assert (WHOLE.in_progress, WHOLE.burn_remaining) == (None, None)


def test_the_shoes_cards_are_listed_only_when_asked_for():
    assert WHOLE.shoe is None
    listed = play_shoe(STANDARD, seed=SEED, report=ShoeReport(include_shoe=True)).shoe
    assert listed == tuple(seeded_shoe(8, SEED)[0])


def test_a_seeded_shoe_is_checked_against_its_commitment():
    play_shoe(STANDARD, seed=SEED, commitment=SEED.server_seed_hash)
    with pytest.raises(SeedError):
        play_shoe(STANDARD, seed=SEED, commitment="f" * 64)


LIGHTNING = resolve_rules("standard", {"multipliers": PRESETS["lightning"].rule})


def test_a_multiplier_shoe_draws_each_round_s_cards_by_its_number_and_deals_the_plain_shoe():
    rule = PRESETS["lightning"].rule
    played = play_shoe(LIGHTNING, seed=SEED, report=ShoeReport(to_round=12, bets=BANKER_10))
    assert played.dealt == WHOLE.dealt
    assert played.roads == play_shoe(STANDARD, seed=SEED, report=ShoeReport(to_round=12)).roads
    assert played.multiplier_algorithm == "hmac-sha256-multiplier-cards/v1"
    assert WHOLE.multiplier_algorithm is None
    for r in played.rounds:
        lit = draw_multiplier_cards(rule, SEED, round_number=r.round.number)
        assert r.multiplier_cards == lit
        assert r.settlement is None
        assert r.multiplied == settle_multiplier_slip(BANKER_10, r.round.coup, lit, rule)
    slips = [r.multiplied for r in played.rounds if r.multiplied is not None]
    assert played.totals == SlipTotals.of(slips, LIGHTNING)
    assert played.totals is not None
    assert played.totals.fees == Decimal("24.00")


def test_a_multiplier_shoe_checks_each_slip_by_the_rule():
    odd = (Bet(type=BetType.BANKER, amount=Decimal("10.01")),)  # a fee of 2.002
    with pytest.raises(BetError) as caught:
        play_shoe(LIGHTNING, seed=SEED, report=ShoeReport(bets_by_round=(RoundBets(2, odd),)))
    assert [(p.path, str(p.code)) for p in caught.value.problems] == [
        (("bets_by_round", 0, "bets", 0, "amount"), "fee_finer_than_minor_unit")
    ]
