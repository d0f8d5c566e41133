"""Dealing seeded shoes and measuring each bet's return: which shoes are
dealt, that every bet's observed return is its pays over the rounds dealt,
and the confidence interval around it.

That the observed returns agree with the exact odds (thousands of shoes),
and the ``baccarat simulate`` command, are tested in tests/test_simulate.py.
"""

import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat import simulation
from service.baccarat.bets import BetType
from service.baccarat.coup import Outcome
from service.baccarat.play import seeded_shoe
from service.baccarat.shoe_deal import deal_shoe
from service.baccarat.shuffle import SeedInputs, shuffled_shoe
from service.baccarat.simulation import BetReturn, simulate, tally_shoes
from service.baccarat.tables import TABLES

TIE_9 = TABLES["tie_9"].rules  # player, banker and tie only; tie pays 9:1
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
    """Shoes are split by number, so one run or many give the same counts."""
    monkeypatch.setattr(simulation, "BATCH", 3)
    whole = tally_shoes(TIE_9, SEED, 0, 12, shuffle=shuffle)
    parts = [
        tally_shoes(TIE_9, SEED, first, count, shuffle=shuffle) for first, count in ((0, 5), (5, 1), (6, 6))
    ]
    assert parts[0] + parts[1] + parts[2] == whole
    assert whole.shoes == 12
    assert sum(whole.by_signature) == whole.rounds


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
