"""The simulation against the exact math: it agrees on the service's shoes,
and it sees a pay table whose stated odds are not the ones dealt."""

from __future__ import annotations

import pytest
from scipy import stats

from service.baccarat.odds.simulation import tally_shoes
from service.baccarat.tables.rules import TABLES, resolve_rules
from service.certification.agreement import _pooled, bet_results, shoes_for
from service.certification.exact import game_math
from service.certification.verdicts import judge


def test_shoes_for_about_n_rounds():
    rules = TABLES["standard"].rules
    shoes = shoes_for(8_100, rules)
    assert shoes == 101
    assert abs(tally_shoes(rules, "a", 0, shoes).rounds - 8_100) < 200
    assert shoes_for(1, rules) == 2


def test_small_cells_are_pooled():
    assert _pooled([10, 1, 2], [9.0, 1.5, 2.5]) == ([13], [13.0])
    assert _pooled([10, 4, 2, 1], [9.0, 3.0, 2.5, 0.5]) == ([10, 7], [9.0, 6.0])


def test_the_simulation_agrees_with_the_math_and_not_with_another_table_s():
    rules = TABLES["standard"].rules
    tally = tally_shoes(rules, "agree", 0, 300)
    returned, fitted = bet_results(tally, rules, game_math(rules))
    assert all(test["passed"] for test in judge(returned) + judge(fitted))
    assert {test.name for test in returned} == {str(bet) for bet in rules.bet_types}
    # The standard error comes from the shoes themselves: Student's t, shoes - 1 degrees of freedom.
    assert {test.df for test in returned} == {299.0}
    banker = next(test for test in returned if test.name == "banker")
    assert banker.p_value == pytest.approx(2 * stats.t.sf(abs(banker.statistic), 299))
    # The same rounds against the math of a 9:1 tie: the tie's return does not agree.
    nine = game_math(resolve_rules("standard", {"tie_pays": 9}))
    returned, _ = bet_results(tally, rules, nine)
    tie = next(test for test in judge(returned) if test["name"] == "tie")
    assert not tie["passed"]


def _one_shoe_dealt(copies: int):
    """``copies`` of one shoe, dealt as a run deals them: every shoe gives the same return."""
    import numpy as np

    from service.baccarat.counting import batch
    from service.baccarat.odds.simulation import Stakes, tally

    rules = TABLES["standard"].rules
    shoes = np.repeat(batch.seeded_shoes("one-shoe", 0, 1, 8), copies, axis=0)
    dealt = batch.deal(shoes, cut_card=rules.cut_card)
    return rules, tally(dealt, Stakes.of(rules), rules=rules, seed="copies", shuffle="service", first=0)


def test_a_return_with_no_spread_is_judged_exactly_not_passed():
    # 25 copies of one shoe: each bet's standard error is 0, and no bet's
    # observed return is its exact value, so every return fails (p-value 0).
    rules, tally = _one_shoe_dealt(25)
    returned, _ = bet_results(tally, rules, game_math(rules))
    assert {test.detail["standard_error"] for test in returned} == {0.0}
    assert {test.p_value for test in returned} == {0.0}
    assert all(abs(test.statistic) == float("inf") for test in returned)
    assert not any(test["passed"] for test in judge(returned))


def test_a_return_with_no_spread_at_its_exact_value_passes():
    from fractions import Fraction

    from service.certification.agreement import _exact_t

    assert _exact_t(Fraction(-1, 2), Fraction(-1, 2)) == (0.0, 1.0)
    assert _exact_t(Fraction(-1, 2), Fraction(-1, 3)) == (float("-inf"), 0.0)
    assert _exact_t(Fraction(1, 2), Fraction(1, 3)) == (float("inf"), 0.0)
