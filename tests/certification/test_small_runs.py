"""Runs of few shoes are judged against fair runs of as many shoes, not
Student's t or the chi-square distribution: at 25 shoes a pair bet's net and
a skewed per-shoe figure have tails Student's t does not (a fair 25-shoe
``--shoes`` file failed 2.0% of 400 runs, against the 1% stated)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from service.baccarat.odds.simulation import tally_shoes
from service.baccarat.tables.rules import TABLES
from service.certification import shuffle_tests, small_runs
from service.certification.agreement import bet_results
from service.certification.exact import game_math
from service.certification.verdicts import ALPHA

#: Holm's first threshold of a --shoes report at the standard table (34 tests).
FIRST_STEP = ALPHA / 34


def _with_t(values: np.ndarray, mean: float, t: float) -> np.ndarray:
    """``values`` moved and scaled so that their one-sample t against ``mean`` is ``t``."""
    spread = values.std(ddof=1)
    scaled = (values - values.mean()) / spread * 2.0
    return scaled + mean + t * 2.0 / np.sqrt(values.size)


@pytest.mark.parametrize("name", ["halves_make_up", "equal_ranks_at_range"])
def test_a_fair_looking_25_shoe_figure_beyond_student_s_quantile_is_not_failed(name):
    # |t| = 4.5 lies beyond Student's quantile at 0.01/34 (4.23, 24 df): read through the t
    # distribution this run alone failed, though fair 25-shoe runs reach it about 5 times as often.
    tally = shuffle_tests.tally_shuffles("small", 0, 25, 8)
    mean = float(shuffle_tests.expected_per_shoe(8)[name])
    moved = _with_t(tally.per_shoe[name].astype(float), mean, 4.5)
    assert stats.ttest_1samp(moved, mean).statistic == pytest.approx(4.5)
    assert 2 * stats.t.sf(4.5, 24) < FIRST_STEP
    tally.per_shoe[name] = moved
    result = next(r for r in shuffle_tests.shuffle_results(tally) if r.name == name)
    assert "Monte Carlo" in result.method
    assert result.p_value > FIRST_STEP
    assert result.p_value == small_runs.p_value(
        small_runs.figure_null(name, 8, 25, shuffle_tests.per_shoe_figures), 4.5
    )


def test_the_fair_runs_tails_are_heavier_than_student_s_at_25_shoes():
    # The null's share beyond Student's quantile at 0.01/34, from 99,999 fair runs: these are
    # the figures whose t-test failed fair 25-shoe runs too often.
    quantile = stats.t.isf(FIRST_STEP / 2, 24)
    for name in ("halves_make_up", "equal_ranks_at_range"):
        assert (
            small_runs.figure_null(name, 8, 25, shuffle_tests.per_shoe_figures) >= quantile
        ).mean() > 2 * FIRST_STEP, name
    rules = TABLES["standard"].rules
    bet = rules.bet_types.index(next(b for b in rules.bet_types if str(b) == "dragon_bonus_banker"))
    assert (small_runs.return_null(rules, bet, 25) >= quantile).mean() > 2 * FIRST_STEP


def test_a_25_shoe_run_s_returns_and_line_counts_are_judged_by_monte_carlo():
    rules = TABLES["standard"].rules
    tally = tally_shoes(rules, "small-run", 0, 25)
    returned, fitted = bet_results(tally, rules, game_math(rules))
    for index, result in enumerate(returned):
        assert "Monte Carlo" in result.method
        null = small_runs.return_null(rules, index, 25)
        assert result.p_value == small_runs.p_value(null, result.statistic)
    assert all("Monte Carlo" in result.method for result in fitted)
    assert all(1 / 100_000 <= result.p_value <= 1 for result in (*returned, *fitted))
    # The same run gives the same p-values (everything is seeded).
    again, _ = bet_results(tally_shoes(rules, "small-run", 0, 25), rules, game_math(rules))
    assert [r.p_value for r in again] == [r.p_value for r in returned]


def test_from_200_shoes_student_s_t_and_the_chi_square_judge():
    rules = TABLES["standard"].rules
    assert small_runs.applies(199)
    assert not small_runs.applies(small_runs.MONTE_CARLO_BELOW)
    # The shuffle's per-shoe figures, more skewed, by Monte Carlo up to 999 shoes tested.
    assert small_runs.applies_to_figures(999)
    assert not small_runs.applies_to_figures(small_runs.FIGURES_BELOW)
    tally = tally_shoes(rules, "small-run", 0, 200)
    returned, fitted = bet_results(tally, rules, game_math(rules))
    assert not any("Monte Carlo" in result.method for result in (*returned, *fitted))


def test_a_monte_carlo_p_value_counts_the_null_runs_as_far():
    null = np.array([0.5, 1.0, 2.0, 3.0])
    assert small_runs.p_value(null, 2.0) == 3 / 5
    assert small_runs.p_value(null, -2.0) == 3 / 5
    assert small_runs.p_value(null, 9.0) == 1 / 5
    assert small_runs.p_value(null, 0.0) == 1.0


def test_fair_runs_of_25_shoes_fall_below_a_level_no_more_often_than_it():
    # 1,600 fair runs (numpy's shuffle, a seed other than the pool's): each figure's Monte Carlo
    # p-value below 0.05 in at most 6.5% of them (a valid p-value: 5%, sd 0.54%; the bound is
    # 2.8 sd away, and with the seed fixed this is one measured outcome, not a draw per run).
    from service.baccarat.odds.simulation import shoes_of

    shoes = shoes_of("small-runs-validity", 0, 1_600 * 25, 8, "numpy")
    figures = shuffle_tests.per_shoe_figures(shoes)
    means = shuffle_tests.expected_per_shoe(8)
    for name, values in figures.items():
        runs = values.astype(float).reshape(1_600, 25)
        t = stats.ttest_1samp(runs, float(means[name]), axis=1).statistic
        null = small_runs.figure_null(name, 8, 25, shuffle_tests.per_shoe_figures)
        rate = np.mean([small_runs.p_value(null, value) < 0.05 for value in t])
        assert 0.035 < rate < 0.065, (name, rate)
