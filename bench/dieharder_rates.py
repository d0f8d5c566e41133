"""``python -m bench.dieharder_rates``: the dieharder stage's false failures
on the service's own streams, and its power on a known-bad one.

The certification kit's dieharder stage (service/certification/dieharder.py)
judges each test by dieharder's own verdict on one p-value: FAILED beyond
10⁻⁶, which the kit argues adds at most 2.2 x 10⁻⁵ to a fair run's
false-failure rate, if the p-values are uniform on a fair stream at the
sizes the stage runs them. This measures that premise rather than assume
it: the stage is run, as ``certify`` runs it (:func:`run_dieharder`), on
the streams of ``RUNS`` seeds (``dieharder-rates-0``, ``-1``, ...), each the
5,672 shoes whose stream holds one p-value of every test (the most the
stage reads), all of them the service's own fair shuffle: every FAILED is a
false failure. It prints

* the runs the stage failed, with a 95% interval (Clopper-Pearson), beside
  the stated bound;
* per test, its p-values' Kolmogorov-Smirnov distance from the uniform
  distribution and that test's p-value, and its WEAK count beside the 1%
  a fair stream gives (``diehard_runs`` and ``diehard_craps`` print two
  p-values a run);
* all p-values together, the same way;

then the stage's power on ``BAD_RUNS`` streams whose bits are ones at
0.505 (``numpy`` streams of different seeds): the runs it failed, with
their interval.

``BENCH_DIEHARDER_RUNS`` and ``BENCH_DIEHARDER_BAD_RUNS`` shorten or
lengthen it; ``BENCH_WORKERS`` sets the processes (2 by default). Needs
dieharder (Debian's ``dieharder``), like the stage.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
from scipy import stats

from service.certification.dieharder import (
    SHOE_BYTES,
    TESTS,
    WEAK_BEYOND,
    executable,
    run_dieharder,
    shoes_needed,
)

RUNS = int(os.environ.get("BENCH_DIEHARDER_RUNS", "1000"))
BAD_RUNS = int(os.environ.get("BENCH_DIEHARDER_BAD_RUNS", "50"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
#: The shoes whose stream holds one p-value of every test of the selection.
SHOES = max(shoes_needed(test) for test in TESTS)
#: The bound the stage states for a fair run: eleven p-values, each FAILED at 2 x 10⁻⁶.
STATED_BOUND = 2.2e-5
#: The known-bad stream's chance of a one.
BIAS = 0.505


#: How a stream is made from a seed and a count of shoes (the stage's own, by default).
Stream = Callable[[str, int], bytes]


def biased(seed: str, shoes: int) -> bytes:
    """``shoes`` shoes' worth of bits that are ones at :data:`BIAS`, not 0.5."""
    rng = np.random.default_rng(int(seed.rpartition("-")[2]))
    parts, left = [], shoes * SHOE_BYTES
    while left:
        size = min(left, 1 << 20)
        parts.append(np.packbits(rng.random(size * 8) < BIAS).tobytes())
        left -= size
    return b"".join(parts)


def _section(seed: str, make_stream: Stream | None = None) -> dict[str, Any]:
    return run_dieharder(seed, SHOES, make_stream)


def _sections(
    seeds: list[str], make_stream: Callable[[str, int], bytes] | None = None
) -> list[dict[str, Any]]:
    with ProcessPoolExecutor(WORKERS) as pool:
        return list(pool.map(_section, seeds, [make_stream] * len(seeds)))


def _interval(failed: int, runs: int) -> str:
    low, high = stats.binomtest(failed, runs).proportion_ci(0.95, method="exact")
    return f"{failed} of {runs} runs ({failed / runs:.2%}, 95% interval {low:.2%} to {high:.2%})"


def _uniform(p_values: list[float]) -> str:
    result = stats.kstest(p_values, "uniform")
    weak = sum(p < WEAK_BEYOND or p > 1 - WEAK_BEYOND for p in p_values)
    return (
        f"{len(p_values)} p-values, Kolmogorov-Smirnov distance from uniform {result.statistic:.3f} "
        f"(p = {result.pvalue:.3f}); WEAK {weak} against {len(p_values) * 2 * WEAK_BEYOND:.1f} expected"
    )


def fair() -> list[str]:
    sections = _sections([f"dieharder-rates-{index}" for index in range(RUNS)])
    not_run = Counter(test["name"] for section in sections for test in section["tests"] if "not_run" in test)
    if not_run:
        raise RuntimeError(f"tests not run: {dict(not_run)}")
    failed = sum(not section["passed"] for section in sections)
    by_test: dict[str, list[float]] = {test.name: [] for test in TESTS}
    for section in sections:
        for test in section["tests"]:
            by_test[test["name"]] += test["p_values"]
    lines = [
        f"dieharder {sections[0]['version']}, the stage as certify runs it, on the streams of {RUNS} "
        f"seeds of the service's shuffle ({SHOES:,} shoes, {SHOES * SHOE_BYTES / 1e6:.1f} MB each):",
        f"  runs failed (a FAILED): {_interval(failed, RUNS)}; the stage states at most {STATED_BOUND:.0e}",
    ]
    lines += [f"  {name}: {_uniform(values)}" for name, values in by_test.items()]
    lines.append(f"  all tests: {_uniform([p for values in by_test.values() for p in values])}")
    return lines


def power() -> list[str]:
    sections = _sections([f"biased-{index}" for index in range(BAD_RUNS)], biased)
    failed = sum(not section["passed"] for section in sections)
    tests = Counter(name for section in sections for name in section["failed"])
    return [
        f"the same stage on {BAD_RUNS} streams of bits that are ones at {BIAS}: failed "
        f"{_interval(failed, BAD_RUNS)}; FAILED by test: {dict(tests.most_common())}"
    ]


def run() -> list[str]:
    if executable() is None:
        return ["dieharder is not installed: nothing measured (Debian: apt-get install dieharder)"]
    return fair() + power()


if __name__ == "__main__":
    print("\n".join(run()))
