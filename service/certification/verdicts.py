"""A statistical test's result, and how a family of them is judged at 99%.

Each test gives a p-value: the chance, were the shuffle fair (or the
simulation dealt by the exact odds), of a statistic at least as far from
what is expected as the one seen. A family of ``k`` tests is judged at
99% as a whole (Bonferroni): a test fails when its p-value is below
``0.01 / k``, so that a fair game fails some test of the family at most
once in 100 runs. Beside the verdicts, :func:`p_value_summary` gives what
a laboratory reads of many p-values together: how many fall below 0.01
and how many would by chance (``0.01 k``), and whether they are spread
uniformly over 0-1 as they are when nothing is wrong (a second-level
Kolmogorov-Smirnov test, ``scipy.stats.kstest``).

>>> judge([Result("a", "", "", 1.0, 0.5), Result("b", "", "", 9.0, 0.001)])[1]["passed"]
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

#: The level every family is judged at: 99%.
ALPHA = 0.01


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


def judge(results: Sequence[Result], alpha: float = ALPHA) -> list[dict[str, Any]]:
    """Each result as the report writes it, with its verdict within its family."""
    threshold = alpha / max(len(results), 1)
    return [
        {
            "name": result.name,
            "what": result.what,
            "method": result.method,
            "statistic": result.statistic,
            "df": result.df,
            "p_value": result.p_value,
            "threshold": threshold,
            "passed": bool(result.p_value >= threshold),
            **({"detail": dict(result.detail)} if result.detail else {}),
        }
        for result in results
    ]


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
