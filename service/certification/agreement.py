"""The simulation agrees with the math: seeded shoes dealt as the service
deals them, every offered bet settled on every round, against the exact
figures of :mod:`.exact`.

The shoes are the vectorised simulator's (:func:`service.baccarat.odds.simulation.tally_shoes`):
shoe ``i`` shuffled from (seed, ``""``, nonce ``i``), burn and cut card as
``POST /v1/shoes`` deals them, or at a table that reshuffles after each hand
one round from its top, no burn, as ``POST /v1/rounds`` deals a seeded round
there (each round its own shuffle). Per bet:

* its **observed return** per unit staked (exact, from the rounds of each
  pay-table line times what the line pays), its 99% confidence interval
  and its t-statistic against the exact expected value; the standard error
  treats each shoe as one observation (its rounds share its cards), and is
  itself estimated from the shoes, so the statistic is read against
  Student's t with ``shoes - 1`` degrees of freedom, not the normal: with
  few shoes the normal's tails are far too thin (at 5 shoes a fair game
  failed 20% of the runs judged by it, 1.25% by Student's t, measured over
  400 seeds); below :data:`.small_runs.MONTE_CARLO_BELOW` shoes, where a
  side bet's net per shoe is too far from normal for Student's tail, its
  p-value is by Monte Carlo from fair runs of as many shoes (:mod:`.small_runs`);
* its **line counts** (the rounds each line of its pay table decided, and
  the losses) against the exact probabilities: Pearson's chi-square
  (``scipy.stats.chisquare``), lines expected fewer than 5 times pooled;
  below :data:`.small_runs.MONTE_CARLO_BELOW` shoes by Monte Carlo as well.

Over whole shoes a bet's odds are not exactly a full shoe's (where the cut
card falls depends on the cards), but the difference is far below what a
run can resolve (docs/odds.md). At a table that reshuffles after each hand
they are exactly a full shoe's: every round is a fresh shoe's first, no
card burned, and each shoe one observation of one round.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import ceil, inf
from typing import Any

import numpy as np
from scipy import stats

from ..baccarat.odds.exact import analyse
from ..baccarat.odds.simulation import BetReturn, Tally, returns
from ..baccarat.shoes.composition import full_shoe
from ..baccarat.tables.rules import Dealing, Rules
from . import small_runs
from .exact import GameMath
from .verdicts import Result

#: The confidence of each bet's interval.
CONFIDENCE = 0.99
#: Cells of a chi-square expected fewer times than this are pooled.
MIN_EXPECTED = 5.0


def expected_rounds_per_shoe(rules: Rules) -> Fraction:
    """About how many rounds a shoe deals under ``rules``: the cards before
    the cut card (less the mean burn) over the mean cards of a round, plus
    the round after the cut card; one at a table that reshuffles after each hand."""
    if rules.dealing is Dealing.RESHUFFLE_EACH_HAND:
        return Fraction(1)
    odds = analyse(full_shoe(rules.decks), rules)
    cards = 4 * odds.probabilities["four_cards"] + 5 * odds.probabilities["five_cards"]
    cards += 6 * odds.probabilities["six_cards"]
    burn = 1 + Fraction(45 + 40, 13)  # the turned card and its pip: 1-9, or 10 for four ranks in 13
    return (52 * rules.decks - rules.cut_card - burn) / cards + 1


def shoes_for(rounds: int, rules: Rules) -> int:
    """Shoes (shuffles) to deal for about ``rounds`` rounds (at least 2)."""
    return max(2, ceil(rounds / expected_rounds_per_shoe(rules)))


def _groups(expected: Sequence[float]) -> list[list[int]]:
    """The cells (by index) pooled together: those expected fewer than
    :data:`MIN_EXPECTED` times pooled into one, itself pooled into the
    largest cell while still too small."""
    groups = [[i] for i, e in enumerate(expected) if e >= MIN_EXPECTED]
    rest = [i for i, e in enumerate(expected) if e < MIN_EXPECTED]
    if rest:
        if sum(expected[i] for i in rest) >= MIN_EXPECTED or not groups:
            groups.append(rest)
        else:
            largest = int(np.argmax([expected[group[0]] for group in groups]))
            groups[largest] += rest
    return groups


def _pooled(observed: Sequence[int], expected: Sequence[float]) -> tuple[list[int], list[float]]:
    """The counts and expectations of :func:`_groups`' cells."""
    groups = _groups(expected)
    return (
        [sum(observed[i] for i in group) for group in groups],
        [sum(expected[i] for i in group) for group in groups],
    )


def bet_results(tally: Tally, rules: Rules, math: GameMath) -> tuple[list[Result], list[Result]]:
    """Per offered bet: its return's z-test, and its line counts' chi-square."""
    df = tally.shoes - 1
    t_level = float(stats.t.ppf(0.5 + CONFIDENCE / 2, df))
    by_monte_carlo = small_runs.applies(tally.shoes)
    returned, fitted = [], []
    for index, bet in enumerate(returns(tally, rules)):
        exact = math.bet(str(bet.bet))
        expected_value = exact.expected_value.value
        observed = float(bet.observed)
        error = bet.standard_error
        if error > 0:
            z = (observed - float(expected_value)) / error
            p_value = float(2 * stats.t.sf(abs(z), df))
            if by_monte_carlo:
                p_value = small_runs.p_value(small_runs.return_null(rules, index, tally.shoes), z)
        else:
            z, p_value = _exact_t(bet.observed, expected_value)
        returned.append(
            Result(
                str(bet.bet),
                "the observed return per unit staked is the exact expected value",
                "t-statistic of the observed return against the exact expected value; standard error "
                "over shoes (ratio estimator), two-sided p-value "
                + (
                    _MONTE_CARLO_T
                    if by_monte_carlo
                    else "of Student's t with shoes - 1 degrees of freedom (scipy.stats.t)"
                )
                + "; with no spread over the shoes (standard error 0), "
                "judged exactly: p-value 1 at the exact value, 0 elsewhere",
                z,
                p_value,
                float(df),
                {
                    "rounds": bet.rounds,
                    "observed": {
                        "fraction": f"{bet.observed.numerator}/{bet.observed.denominator}",
                        "decimal": f"{observed:.8f}",
                    },
                    "observed_rtp": f"{1 + observed:.8f}",
                    "exact": float(expected_value),
                    "exact_rtp": float(exact.rtp.value),
                    "standard_error": error,
                    "interval_99": [observed - t_level * error, observed + t_level * error],
                },
            )
        )
        fitted.append(
            _line_fit(bet, exact.lines, exact.loss, (rules, index, tally.shoes) if by_monte_carlo else None)
        )
    return returned, fitted


_MONTE_CARLO_T = (
    f"by Monte Carlo, as the run has fewer than {small_runs.MONTE_CARLO_BELOW} shoes (a bet's net per "
    f"shoe is far from normal there): the t of {small_runs.SAMPLES:,} runs of as many shoes drawn from "
    f"{small_runs.POOL_SHOES:,} fair shoes dealt under the same rules, (1 + runs as far) / (1 + runs) "
    "(service.certification.small_runs)"
)


def _exact_t(observed: Fraction, exact: Fraction) -> tuple[float, float]:
    """The t-statistic and p-value of a return every shoe gave alike
    (standard error 0): nothing to divide by, so it is judged exactly, as
    the shuffle's per-shoe figures are. At the exact value it passes (0, 1);
    anywhere else the statistic is infinite and the p-value 0: 25 copies of
    one shoe, or a bet that never won, are not a pass."""
    if observed == exact:
        return 0.0, 1.0
    return (inf if observed > exact else -inf), 0.0


def _line_fit(
    bet: BetReturn, lines: Sequence[Any], loss: Any, monte_carlo: tuple[Rules, int, int] | None = None
) -> Result:
    """The line counts' chi-square; ``monte_carlo`` (the rules, the bet's
    index and the run's shoes) when the run is judged against fair runs of its size (:mod:`.small_runs`)."""
    probabilities = [line.probability.value for line in (*lines, loss)]
    expected = [float(p * bet.rounds) for p in probabilities]
    possible = [i for i, p in enumerate(probabilities) if p > 0]
    impossible_seen = sum(bet.lines[i] for i, p in enumerate(probabilities) if p == 0)
    groups = [[possible[i] for i in group] for group in _groups([expected[i] for i in possible])]
    observed = [sum(bet.lines[i] for i in group) for group in groups]
    pooled = [sum(expected[i] for i in group) for group in groups]
    detail = {
        "lines": [
            {"when": line.when, "rounds": count, "expected": e}
            for line, count, e in zip((*lines, loss), bet.lines, expected, strict=True)
        ],
        "impossible_lines_seen": impossible_seen,
    }
    if len(observed) < 2:
        return Result(str(bet.bet), "", "", 0.0, 1.0 if not impossible_seen else 0.0, 0.0, detail)
    fit = stats.chisquare(observed, pooled)
    p_value, how = float(fit.pvalue), "(scipy.stats.chisquare)"
    if monte_carlo is not None:
        rules, index, shoes = monte_carlo
        null = small_runs.line_null(rules, index, shoes, groups)
        p_value = small_runs.p_value(null, float(fit.statistic))
        how = (
            f"(scipy.stats.chisquare); fewer than {small_runs.MONTE_CARLO_BELOW} shoes, so its p-value is "
            f"by Monte Carlo: the chi-square of {small_runs.SAMPLES:,} runs of as many shoes drawn from "
            f"{small_runs.POOL_SHOES:,} fair shoes dealt under the same rules, against the pool's own "
            "shares (a shoe's rounds share its cards), (1 + runs as far) / (1 + runs)"
        )
    return Result(
        str(bet.bet),
        "each pay-table line decides the bet as often as its exact probability says",
        "Pearson chi-square of the line counts against the exact probabilities, lines expected "
        f"fewer than {MIN_EXPECTED:g} times pooled {how}",
        float(fit.statistic),
        0.0 if impossible_seen else p_value,
        float(len(observed) - 1),
        detail,
    )


def convergence(cumulative: Sequence[Tally], rules: Rules) -> dict[str, Any]:
    """Each bet's observed return after each piece of shoes, for the plot."""
    points = [tally for tally in cumulative if tally.shoes >= 2]
    by_bet: dict[str, list[float]] = {}
    errors: dict[str, list[float]] = {}
    for tally in points:
        for bet in returns(tally, rules):
            by_bet.setdefault(str(bet.bet), []).append(float(bet.observed))
            errors.setdefault(str(bet.bet), []).append(bet.standard_error)
    return {
        "rounds": [tally.rounds for tally in points],
        "observed": by_bet,
        "standard_error": errors,
    }
