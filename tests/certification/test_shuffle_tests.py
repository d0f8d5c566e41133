"""The shuffle's statistics: the service's shuffle passes them at 99%, a
shuffle biased now and then fails, and the counts split by shoe number
add up to one run's."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from service.baccarat.counting import batch
from service.baccarat.rulebook.cards import shoe
from service.baccarat.shoes.shuffle import SeedInputs, shuffled_shoe
from service.certification import shuffle_tests
from service.certification.shuffle_tests import (
    ShuffleTally,
    _t_test,
    count,
    expected_per_shoe,
    service_shoes,
    shuffle_results,
    tally_shuffles,
)
from service.certification.verdicts import goodness_of_fit, judge

SEED = "certification"
#: Enough 8-deck shoes for about six of each card at each position.
SHOES = 320


def biased_shoes(seed: str, first: int, count: int, decks: int) -> batch.Array:
    """The service's shoes, but in every fourth shoe the first card swaps
    places with the first ace of spades: the kind of slip a dealer's or a
    programmer's "fix" makes now and then."""
    shoes = service_shoes(seed, first, count, decks).copy()
    for row in range(count):
        if (first + row) % 4 == 0:
            ace = int(np.argmax(shoes[row] == 0))
            shoes[row, [0, ace]] = shoes[row, [ace, 0]]
    return shoes


@pytest.fixture(scope="module")
def fair():
    return tally_shuffles(SEED, 0, SHOES, 8)


def test_the_service_s_shuffle_passes_every_test_at_99_percent(fair):
    judged = judge(shuffle_results(fair))
    assert [test["name"] for test in judged] == [
        "cards_by_position",
        "first_card",
        "burn",
        "adjacent_pairs",
        "serial_correlation",
        "runs",
        "rank_distances",
        "halves_make_up",
        "eighths_make_up",
        "equal_ranks_at_range",
        "reflected_pairs",
        "repeated_shoes",
    ]
    assert all(test["passed"] for test in judged), judged


def test_a_shuffle_that_swaps_two_positions_now_and_then_fails_the_position_test():
    biased = tally_shuffles(SEED, 0, SHOES, 8, shuffler=biased_shoes)
    verdicts = {test["name"]: test for test in judge(shuffle_results(biased))}
    assert not verdicts["cards_by_position"]["passed"]
    assert not verdicts["first_card"]["passed"]
    assert verdicts["cards_by_position"]["p_value"] < 1e-6


def test_the_shoes_counted_are_the_service_s_shoes():
    inputs = SeedInputs(SEED, "", 3)
    counted = count(service_shoes(SEED, 3, 1, 1), seed=SEED, decks=1, first=3)
    cards = shuffled_shoe(1, inputs)
    fresh = {card: index for index, card in enumerate(shoe(1))}
    expected = np.zeros((52, 52), dtype=np.int64)
    for position, card in enumerate(cards):
        expected[position, fresh[card]] += 1
    assert np.array_equal(counted.positions, expected)


def test_tallies_split_by_shoe_number_add_up_to_one_run(fair):
    parts = [tally_shuffles(SEED, 0, 100, 8), tally_shuffles(SEED, 100, SHOES - 100, 8)]
    assert (parts[1] + parts[0]).same_counts(fair)
    with pytest.raises(ValueError, match="overlap"):
        _ = parts[0] + parts[0]


@pytest.mark.parametrize("decks", [1, 2])
def test_the_exact_means_are_those_of_every_order_of_a_small_shoe(decks):
    # Over many numpy shuffles the per-shoe means come within a few standard errors.
    rng = np.random.default_rng(7)
    tally = count(batch.numpy_shoes(rng, 4000, decks), seed="numpy", decks=decks, first=0)
    for name, mean in expected_per_shoe(decks).items():
        values = tally.per_shoe[name].astype(float)
        error = values.std(ddof=1) / np.sqrt(len(values))
        assert abs(values.mean() - float(mean)) < 4 * error, name
    assert isinstance(expected_per_shoe(1)["runs"], Fraction)


def test_a_figure_every_shoe_shares_fails_unless_it_is_the_exact_mean():
    assert _t_test(np.full(30, 7.0), 7.0) == (0.0, 1.0)
    assert _t_test(np.full(30, 7.0), 6.5) == (float("inf"), 0.0)
    assert _t_test(np.array([1.0, 2.0, 3.0]), 2.0) == (0.0, 1.0)


def test_pieces_merge_in_one_step_to_what_adding_them_gives():
    parts = [tally_shuffles("m", first, 5, 1) for first in (10, 0, 5)]
    merged = ShuffleTally.merge(parts)
    assert merged.ranges == ((0, 15),)
    assert merged.same_counts(parts[1] + parts[2] + parts[0])
    assert merged.same_counts(tally_shuffles("m", 0, 15, 1))


def test_no_shoe_of_the_service_repeats_and_a_repeated_one_fails():
    shoes = service_shoes("repeats", 0, 60, 8)
    fair = shuffle_tests.repeated_shoes(shuffle_tests.count(shoes, seed="r", decks=8, first=0))
    assert (fair.statistic, fair.p_value) == (0.0, 1.0)
    repeated = shoes.copy()
    repeated[41] = repeated[7]
    found = shuffle_tests.repeated_shoes(shuffle_tests.count(repeated, seed="r", decks=8, first=0))
    assert found.detail["repeats"] == 1
    # C(60, 2) pairs, each a chance of 2^-64 of a colliding hash, 10^-671 of a true repeat.
    assert found.p_value == pytest.approx(1770 * 2.0**-64)
    assert found.detail["log10_orders"] == pytest.approx(671.1, abs=0.05)


def test_order_hashes_tell_orders_apart():
    shoes = service_shoes("hashes", 0, 50, 1)
    hashes = shuffle_tests.order_hashes(shoes)
    assert len(set(hashes.tolist())) == 50
    swapped = shoes[:1].copy()
    swapped[0, [0, 1]] = swapped[0, [1, 0]]
    assert shuffle_tests.order_hashes(swapped)[0] != hashes[0] or swapped[0, 0] == swapped[0, 1]


def test_a_sparse_goodness_of_fit_is_judged_by_monte_carlo_the_same_everywhere():
    # Two cells of a fair coin, 8 tosses, 7 heads: X² = 4.5, and exactly
    # P(X² >= 4.5) = P(|heads - 4| >= 3) = 2 (1 + 8) / 256 (the chi-square's 0.034 is half that).
    statistic, p_value, how = goodness_of_fit(np.array([7, 1]), np.array([0.5, 0.5]), "coin")
    assert statistic == pytest.approx(4.5)
    assert p_value == pytest.approx(2 * 9 / 256, abs=0.004)
    assert "Monte Carlo" in how
    assert goodness_of_fit(np.array([7, 1]), np.array([0.5, 0.5]), "coin")[1] == p_value
    # Every cell expected 5 times or more: the chi-square distribution's p-value.
    statistic, p_value, how = goodness_of_fit(np.array([30, 20]), np.array([0.5, 0.5]), "c")
    assert p_value == pytest.approx(stats.chi2.sf(2.0, 1))
    assert "Monte Carlo" not in how


def test_at_25_shoes_the_first_card_and_the_burn_are_judged_by_monte_carlo():
    tally = tally_shuffles(SEED, 0, 25, 8)
    results = {result.name: result for result in shuffle_results(tally)}
    for name in ("first_card", "burn"):
        assert "Monte Carlo" in results[name].method
        assert 1 / 100_000 <= results[name].p_value <= 1


@pytest.mark.parametrize("lag", [1, 3, 26, 52])
def test_the_exact_variance_of_equal_ranks_at_a_lag(lag):
    # Over 20,000 numpy shuffles of a 2-deck shoe, the count's variance within a few percent.
    rng = np.random.default_rng(lag)
    ranks = shuffle_tests.RANKS[batch.numpy_shoes(rng, 20_000, 2)]
    equal = (ranks[:, :-lag] == ranks[:, lag:]).sum(axis=1)
    assert equal.mean() == pytest.approx(float(shuffle_tests.equal_rank_mean(104, lag)), rel=0.02)
    assert equal.var() == pytest.approx(float(shuffle_tests.equal_rank_variance(104, lag)), rel=0.05)
