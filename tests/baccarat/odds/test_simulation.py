"""Dealing seeded shoes and measuring each bet's return: which shoes are
dealt, that every bet's observed return is its pays over the rounds dealt,
and the confidence interval around it.

That the observed returns agree with the exact odds (thousands of shoes),
and the ``baccarat simulate`` command, are tested in tests/test_simulate.py.
"""

import math
import pickle
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.bets.types import BetType
from service.baccarat.odds import simulation
from service.baccarat.odds.simulation import BetReturn, Stakes, Tally, batches, returns, simulate, tally_shoes
from service.baccarat.rulebook.coup import Outcome, deal
from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.shoes.shuffle import SeedInputs, seeded_shoe, shuffled_shoe
from service.baccarat.tables.payouts import pay_table
from service.baccarat.tables.rules import PUNTO_BANCO, TABLES, Dealing, resolve_rules

#: tie_9 dealt from whole shoes by its rules: player, banker and tie only; tie pays 9:1.
TIE_9 = resolve_rules("tie_9", {"dealing": Dealing.SHOE})
#: tie_9 as the preset deals: the cards reshuffled after each hand.
EACH_HAND = TABLES["tie_9"].rules
SEED = "simulation-unit"
SHOES = 3


def outcomes_of_the_shoes_dealt(seed: str, shoes: int) -> Counter[Outcome]:
    """Shoe 0 is the plain seed's shoe; shoe ``i`` has nonce ``i``."""
    decks = [seeded_shoe(TIE_9.decks, seed)[0]]
    decks += [shuffled_shoe(TIE_9.decks, SeedInputs(seed, "", nonce)) for nonce in range(1, shoes)]
    return Counter(r.coup.outcome for deck in decks for r in deal_shoe(deck, cut_card=TIE_9.cut_card).rounds)


def test_every_offered_bet_is_measured_over_every_round_of_every_shoe():
    simulation = simulate(TIE_9, SEED, SHOES)
    outcomes = outcomes_of_the_shoes_dealt(SEED, SHOES)
    assert (simulation.seed, simulation.shoes) == (SEED, SHOES)
    assert simulation.rounds == outcomes.total()
    assert [r.bet for r in simulation.returns] == list(TIE_9.bet_types)
    assert all(r.rounds == simulation.rounds for r in simulation.returns)


def test_each_observed_return_is_the_bets_pays_over_the_rounds_dealt():
    returns = {r.bet: r.observed for r in simulate(TIE_9, SEED, SHOES).returns}
    counts = outcomes_of_the_shoes_dealt(SEED, SHOES)
    player, banker, tie = counts[Outcome.PLAYER], counts[Outcome.BANKER], counts[Outcome.TIE]
    rounds = counts.total()
    # A tie pushes the player and banker bets; banker wins pay 0.95:1 (1 unit is 100, so exact).
    assert returns[BetType.PLAYER] == pytest.approx((player - banker) / rounds)
    assert returns[BetType.BANKER] == pytest.approx((0.95 * banker - player) / rounds)
    assert returns[BetType.TIE] == pytest.approx((9 * tie - player - banker) / rounds)


def test_the_same_seed_deals_the_same_figures_and_another_seed_others():
    assert simulate(TIE_9, SEED, 2) == simulate(TIE_9, SEED, 2)
    assert simulate(TIE_9, SEED, 2) != simulate(TIE_9, SEED + "-other", 2)


def test_progress_is_reported_after_each_batch_with_the_shoes_it_dealt(monkeypatch):
    monkeypatch.setattr(simulation, "BATCH", 2)
    done: list[int] = []
    simulate(TIE_9, SEED, 5, progress=done.append)
    assert done == [2, 2, 1]


@pytest.mark.parametrize("shuffle", ["service", "numpy"])
def test_tallies_of_shoes_split_anyhow_add_up_to_the_whole_run(monkeypatch, shuffle):
    """Shoes are split by number, so one run or many give the same counts,
    across batches and numpy's blocks alike."""
    monkeypatch.setattr(simulation, "BATCH", 3)
    monkeypatch.setattr(simulation, "BLOCK", 4)
    whole = tally_shoes(TIE_9, SEED, 0, 12, shuffle=shuffle)
    parts = [
        tally_shoes(TIE_9, SEED, first, count, shuffle=shuffle) for first, count in ((6, 6), (0, 5), (5, 1))
    ]
    assert parts[0] + parts[1] + parts[2] == whole
    assert sum(parts) == whole
    assert whole.shoes == 12
    assert whole.ranges == ((0, 12),)
    assert sum(whole.by_signature) == whole.rounds


def test_numpy_shuffled_shoes_are_the_same_whatever_the_block_a_call_starts_in(monkeypatch):
    monkeypatch.setattr(simulation, "BLOCK", 4)
    whole = simulation.shoes_of(SEED, 0, 11, 1, "numpy")
    assert (simulation.shoes_of(SEED, 3, 6, 1, "numpy") == whole[3:9]).all()
    assert not (whole[0] == whole[4]).all()  # each block has its own stream


def test_a_run_split_over_processes_is_the_run_in_one():
    """A tally is pickled to and from worker processes and added up there."""
    pieces = [(0, 2), (2, 1), (3, 2)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        parts = list(pool.map(tally_shoes, [TIE_9] * 3, [SEED] * 3, *zip(*pieces, strict=True)))
    assert sum(parts) == tally_shoes(TIE_9, SEED, 0, 5)
    assert pickle.loads(pickle.dumps(parts[0])) == parts[0]


@pytest.mark.parametrize(
    ("first", "count", "size", "pieces"),
    [
        (0, 5, 2, [(0, 2), (2, 2), (4, 1)]),
        (3, 4, 5, [(3, 2), (5, 2)]),
        (7, 0, 5, []),
        (10, 3, 10, [(10, 3)]),
    ],
)
def test_batches_are_cut_at_multiples_of_their_size(first, count, size, pieces):
    assert batches(first, count, size) == pieces


def test_a_shoe_counted_twice_is_refused():
    with pytest.raises(ValueError, match="shoes 3 to 4 are counted twice"):
        tally_shoes(TIE_9, SEED, 0, 5) + tally_shoes(TIE_9, SEED, 3, 3)


@pytest.mark.parametrize(
    ("other", "why"),
    [
        (lambda: tally_shoes(TIE_9, SEED + "-other", 2, 1), "other runs"),
        (lambda: tally_shoes(TIE_9, SEED, 2, 1, shuffle="numpy"), "other runs"),
        (lambda: tally_shoes(TABLES["standard"].rules, SEED, 2, 1), "other runs"),
        (lambda: tally_shoes(EACH_HAND, SEED, 2, 1), "other runs"),
    ],
    ids=["seed", "shuffle", "rules", "dealing"],
)
def test_tallies_of_other_runs_are_not_added(other, why):
    with pytest.raises(ValueError, match=why):
        tally_shoes(TIE_9, SEED, 0, 2) + other()


def test_a_tally_is_read_only_under_its_own_rules():
    found = tally_shoes(TIE_9, SEED, 0, 2)
    with pytest.raises(ValueError, match="counted under rules"):
        returns(found, TABLES["standard"].rules)
    with pytest.raises(ValueError, match="counted under rules"):
        returns(found, EACH_HAND)  # the same id: the dealing is not hashed


def test_at_a_table_that_reshuffles_after_each_hand_each_shoe_deals_one_round_from_its_top():
    """Each shoe is one hand: the top of its own shuffle, no burn, the round
    POST /v1/rounds deals from the same seed inputs at that table."""
    shoes = 40
    found = tally_shoes(EACH_HAND, SEED, 0, shoes)
    assert (found.shoes, found.rounds, found.rounds_squared) == (shoes, shoes, shoes)
    decks = [seeded_shoe(EACH_HAND.decks, SEED)[0]]
    decks += [shuffled_shoe(EACH_HAND.decks, SeedInputs(SEED, "", nonce)) for nonce in range(1, shoes)]
    outcomes = Counter(deal(deck).outcome for deck in decks)
    returned = {r.bet: r.observed for r in returns(found, EACH_HAND)}
    player, banker, tie = outcomes[Outcome.PLAYER], outcomes[Outcome.BANKER], outcomes[Outcome.TIE]
    assert returned[BetType.PLAYER] == Fraction(player - banker, shoes)
    assert returned[BetType.BANKER] == (Fraction(95, 100) * banker - player) / shoes
    assert returned[BetType.TIE] == Fraction(9 * tie - player - banker, shoes)
    for shuffle in ("service", "numpy"):
        split = tally_shoes(EACH_HAND, SEED, 0, 25, shuffle=shuffle) + tally_shoes(
            EACH_HAND, SEED, 25, 15, shuffle=shuffle
        )
        assert split == tally_shoes(EACH_HAND, SEED, 0, shoes, shuffle=shuffle)


@pytest.mark.parametrize("table", list(TABLES))
def test_each_return_is_its_line_counts_times_their_pays_and_the_shoes_nets_sum(table):
    """Two exact roads to a bet's return: rounds per pay-table line times the
    line's pay, and the per-shoe nets summed in units of the smallest pay fraction."""
    rules = TABLES[table].rules
    found = simulate(rules, SEED, 3)
    stakes = Stakes.of(rules)
    for index, measured in enumerate(found.returns):
        assert sum(measured.lines) == found.rounds
        assert len(measured.lines) == len(pay_table(measured.bet, rules).lines) + 1
        assert measured.observed == Fraction(found.tally.net[index], found.rounds * stakes.denominator)
        paid = sum(count * pay for count, pay in zip(measured.lines, stakes.pays[index], strict=True))
        assert measured.observed == paid / found.rounds


def test_an_empty_tally_adds_nothing():
    found = tally_shoes(TIE_9, SEED, 0, 2)
    assert Tally.empty(TIE_9, SEED) + found == found
    assert tally_shoes(TIE_9, SEED, 4, 0) == Tally.empty(TIE_9, SEED)


def test_each_return_is_an_exact_fraction_of_the_tally():
    found = simulate(TIE_9, SEED, SHOES)
    assert all(isinstance(r.observed, Fraction) for r in found.returns)
    assert found.tally.rounds == found.rounds


@pytest.mark.parametrize("shoes", [0, 1])
def test_an_interval_needs_at_least_two_shoes(shoes):
    with pytest.raises(ValueError, match="at least 2 shoes"):
        simulate(TIE_9, SEED, shoes)


def test_every_return_has_a_standard_error_from_the_spread_between_shoes():
    for measured in simulate(TIE_9, SEED, SHOES).returns:
        assert 0 < measured.standard_error < 1
        assert -1 <= measured.observed <= 9  # no bet loses more than its stake


@pytest.mark.parametrize(("confidence", "z"), [(0.95, 1.959964), (0.99, 2.575829), (0.6827, 1.0)])
def test_the_interval_is_a_normal_quantile_of_standard_errors_either_side(confidence, z):
    low, high = BetReturn(BetType.BANKER, 1000, Fraction("-0.0106"), 0.002).interval(confidence)
    assert low == pytest.approx(-0.0106 - z * 0.002, abs=1e-6)
    assert high == pytest.approx(-0.0106 + z * 0.002, abs=1e-6)


@given(
    st.floats(-1, 1),
    st.floats(0.0001, 0.5),
    st.floats(0.5, 0.99),
    st.floats(0.001, 0.009),
)
def test_a_higher_confidence_gives_a_wider_interval_around_the_same_return(observed, error, lower, step):
    measured = BetReturn(BetType.TIE, 100, Fraction(observed), error)
    narrow, wide = measured.interval(lower), measured.interval(lower + step)
    assert wide[0] < narrow[0] <= observed <= narrow[1] < wide[1]
    assert math.isclose(observed - narrow[0], narrow[1] - observed, rel_tol=1e-9)


@pytest.mark.parametrize("table", PUNTO_BANCO)
def test_rules_sent_to_a_worker_are_the_same_rules(table):
    rules = TABLES[table].rules
    copied = pickle.loads(pickle.dumps(rules))
    assert (copied, copied.id, copied.chosen) == (rules, rules.id, rules.chosen)
