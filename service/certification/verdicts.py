"""A statistical test's result, and how a report's tests are judged at 99% together.

Each test gives a p-value: the chance, were the shuffle fair (or the
simulation dealt by the exact odds), of a statistic at least as far from
what is expected as the one seen. Every statistical test of a report (the
returns, the line counts, the shuffle's tests and the bit stream's
second-level tests) is judged in one family at 99% (Holm's step-down
procedure, :func:`holm`): the ``i``-th smallest of ``K`` p-values fails
when it and every smaller one lie below ``0.01 / (K - i + 1)``. Whatever
the tests' dependence, a fair game fails some test of the report at most
once in 100 runs, provided each test's p-value is valid (no more often
below ``a`` than ``a``), which docs/certification.md measures. Beside the
verdicts, :func:`p_value_summary` gives what a laboratory reads of many
p-values together: how many fall below 0.01 and how many would by chance
(``0.01 k``), and whether they are spread uniformly over 0-1 as they are
when nothing is wrong (a second-level Kolmogorov-Smirnov test,
``scipy.stats.kstest``).

>>> judge([Result("a", "", "", 1.0, 0.5), Result("b", "", "", 9.0, 0.001)])[1]["passed"]
False
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

#: The level a report's tests are judged at together: 99%.
ALPHA = 0.01
#: A chi-square's cells expected fewer times than this: its p-value is found by Monte Carlo.
MIN_EXPECTED = 5.0
#: Samples of a Monte Carlo p-value (the smallest it gives is 1 / (1 + this): 10^-5), drawn in batches.
MONTE_CARLO = 99_999
MONTE_CARLO_BATCH = 11_111
#: The families a report may judge, as its statement names them.
FAMILY_NAMES = {
    "returns": "returns",
    "line_counts": "line counts",
    "shuffle": "shuffle",
    "bit_stream": "bit stream",
}


def family_wise(families: Sequence[str], alpha: float = ALPHA) -> str:
    """How a report judges ``families`` (those with a test) together.

    >>> family_wise(["returns", "shuffle"])[:87]
    "Holm's step-down procedure over every statistical test of the report (returns, shuffle)"
    """
    names = ", ".join(FAMILY_NAMES.get(name, name) for name in families)
    return (
        f"Holm's step-down procedure over every statistical test of the report ({names}): the i-th "
        "smallest of K p-values fails when it and every smaller one lie below alpha / (K - i + 1), so "
        f"a fair game fails some test at most {alpha:.0%} of the runs, whatever the tests' dependence"
    )


@dataclass(frozen=True, slots=True)
class Result:
    """One test: what it tests, how, its statistic and p-value."""

    name: str
    what: str
    method: str
    statistic: float
    p_value: float
    df: float | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)


def holm(p_values: Sequence[float], alpha: float = ALPHA) -> list[tuple[float, bool]]:
    """Each p-value's threshold under Holm's procedure and whether it passes.

    >>> holm([0.004, 0.04, 0.003])
    [(0.005, False), (0.01, True), (0.0033333333333333335, False)]
    """
    order = sorted(range(len(p_values)), key=lambda index: p_values[index])
    verdicts: list[tuple[float, bool]] = [(alpha, True)] * len(p_values)
    rejecting = True
    for rank, index in enumerate(order):
        threshold = alpha / (len(p_values) - rank)
        rejecting = rejecting and p_values[index] < threshold
        verdicts[index] = (threshold, not rejecting)
    return verdicts


def judge_families(
    families: Mapping[str, Sequence[Result]], alpha: float = ALPHA
) -> dict[str, list[dict[str, Any]]]:
    """Each family's results as the report writes them, judged together (:func:`holm`)."""
    every = [result for results in families.values() for result in results]
    verdicts = iter(holm([result.p_value for result in every], alpha))
    judged: dict[str, list[dict[str, Any]]] = {}
    for name, results in families.items():
        judged[name] = []
        for result in results:
            threshold, passed = next(verdicts)
            judged[name].append(
                {
                    "name": result.name,
                    "what": result.what,
                    "method": result.method,
                    "statistic": result.statistic,
                    "df": result.df,
                    "p_value": result.p_value,
                    "threshold": threshold,
                    "passed": passed,
                    **({"detail": dict(result.detail)} if result.detail else {}),
                }
            )
    return judged


def judge(results: Sequence[Result], alpha: float = ALPHA) -> list[dict[str, Any]]:
    """``results`` as the report writes them, judged as one family."""
    return judge_families({"": results}, alpha)[""]


def goodness_of_fit(observed: np.ndarray, probabilities: np.ndarray, name: str) -> tuple[float, float, str]:
    """Pearson's chi-square of ``observed`` counts against ``probabilities``,
    its p-value and how it was found: from the chi-square distribution when
    every cell is expected at least :data:`MIN_EXPECTED` times, else by
    Monte Carlo (:data:`MONTE_CARLO` multinomial samples of the same total
    drawn from a generator seeded by ``name`` and the counts, so the same
    counts give the same p-value wherever and however they were made;
    ``(1 + samples at least as far) / (1 + samples)``, valid at any count)."""
    total = int(observed.sum())
    expected = total * probabilities
    statistic = float(((observed - expected) ** 2 / expected).sum())
    if expected.min() >= MIN_EXPECTED:
        p_value = float(stats.chi2.sf(statistic, len(observed) - 1))
        return statistic, p_value, "chi-square goodness of fit (scipy.stats.chisquare)"
    counts = np.asarray(observed, dtype=np.int64).tobytes()
    entropy = int.from_bytes(hashlib.sha256(name.encode() + b":" + counts).digest(), "big")
    rng = np.random.default_rng(entropy)
    as_far = 0
    for _ in range(MONTE_CARLO // MONTE_CARLO_BATCH):
        samples = rng.multinomial(total, probabilities, size=MONTE_CARLO_BATCH)
        figures = ((samples - expected) ** 2 / expected).sum(axis=1)
        as_far += int((figures >= statistic * (1 - 1e-12)).sum())
    return (
        statistic,
        (1 + as_far) / (1 + MONTE_CARLO),
        f"chi-square goodness of fit; a cell expected fewer than {MIN_EXPECTED:g} times, so its "
        f"p-value is by Monte Carlo: {MONTE_CARLO:,} multinomial samples of the same total "
        "(numpy, seeded by SHA-256 of the test and its counts), (1 + samples as far) / (1 + samples)",
    )


def p_value_summary(p_values: Sequence[float] | np.ndarray, alpha: float = ALPHA) -> dict[str, Any]:
    """How many of ``p_values`` fall below ``alpha``, how many would by
    chance, and the second-level test of their uniformity."""
    values = np.asarray(p_values, dtype=float)
    below = int((values < alpha).sum())
    summary: dict[str, Any] = {
        "count": int(values.size),
        "alpha": alpha,
        "below_alpha": below,
        "expected_below_alpha": alpha * values.size,
    }
    if values.size >= 2:
        chance = stats.binomtest(below, values.size, alpha, alternative="greater")
        uniform = stats.kstest(values, "uniform")
        summary["below_alpha_p_value"] = float(chance.pvalue)
        summary["uniformity"] = {
            "method": "Kolmogorov-Smirnov test of the p-values against the uniform distribution "
            "on 0-1 (scipy.stats.kstest)",
            "statistic": float(uniform.statistic),
            "p_value": float(uniform.pvalue),
        }
    return summary
