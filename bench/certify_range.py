"""``python -m bench.certify_range``: the shuffle tests that see structure at
range (:mod:`service.certification.shuffle_tests`: the make-up of halves and
eighths, equal ranks at lags 2 to 208, the reflected pairs), and the first
card's and the burn's Monte Carlo p-values: their false-failure rates on
fair shoes at the smallest and a larger run, and their power on the
gallery's predictable shoes.

* **False failures.** ``RUNS_SMALL`` runs of 25 shoes and ``RUNS_LARGE``
  runs of 1,000 shoes, each shoe a uniformly random order of 8 decks
  (numpy's ``Generator.permuted``: the null hypothesis itself), each run's
  tests computed as the report computes them; per test, how many runs fall
  below 0.01 and below Holm's first threshold of a standard table's report
  (0.01 / K, K its tests), with 95% Clopper-Pearson intervals. The per-shoe
  figures are computed alone (the other tests' counts are not needed), by
  the same functions the report calls.
* **The Monte Carlo p-values** (first card, burn) at 25 shoes, on
  ``RUNS_MONTE_CARLO`` runs: their rate below 0.01 and 0.001, beside the
  chi-square distribution's p-values of the same runs (what the report
  used before).
* **Power.** ``TRIALS`` runs of 25 shoes of ``reversed_half`` and
  ``stacked_halves`` (:mod:`service.certification.gallery`), every shuffle
  test as the report runs it, a run failing when a test falls below
  0.01 / K; and which tests failed.

``BENCH_RUNS_SMALL`` (default 100,000), ``BENCH_RUNS_LARGE`` (2,000),
``BENCH_RUNS_MONTE_CARLO`` (1,000) and ``BENCH_TRIALS`` (100) in the
environment set the runs.
"""

from __future__ import annotations

import os
import time
from collections import Counter

import numpy as np
from scipy import stats

from service.baccarat.counting import batch
from service.certification import million_bits, shuffle_tests
from service.certification.gallery import GALLERY
from service.certification.verdicts import ALPHA, goodness_of_fit

RUNS_SMALL = int(os.environ.get("BENCH_RUNS_SMALL", "100000"))
RUNS_LARGE = int(os.environ.get("BENCH_RUNS_LARGE", "2000"))
RUNS_MONTE_CARLO = int(os.environ.get("BENCH_RUNS_MONTE_CARLO", "1000"))
TRIALS = int(os.environ.get("BENCH_TRIALS", "100"))
#: The figures of the tests at range, by test name.
AT_RANGE = ("halves_make_up", "eighths_make_up", "equal_ranks_at_range", "reflected_pairs")
#: Shoes generated at once.
CHUNK = 5_000


def family_size() -> int:
    """K: the statistical tests of a standard table's report at its default
    1,000 shoes tested: those of a run of 25 (:mod:`bench.certify_power`'s
    figure) and the tests of 10^6 bits, which need 76 shoes tested."""
    from bench.certify_power import family_size as size

    return size() + len(million_bits.TESTS)


def _interval(count: int, runs: int) -> str:
    low, high = stats.binomtest(count, runs).proportion_ci(0.95, method="exact")
    return f"{count}/{runs:,} = {count / runs:.3%} (95% interval {low:.3%} to {high:.3%})"


def figures(ranks: np.ndarray) -> dict[str, np.ndarray]:
    """The per-shoe figures of the tests at range, as :func:`.shuffle_tests.count` makes them."""
    return {
        **{name: shuffle_tests.make_up(ranks, parts) for name, parts in shuffle_tests.PARTS.items()},
        "equal_ranks_at_range": shuffle_tests.equal_ranks_at_range(ranks),
        "reflected_pairs": shuffle_tests.reflected_pairs(ranks),
    }


def false_failures(shoes: int, runs: int, threshold: float, seed: int) -> list[str]:
    """Each test at range's rate below 0.01 and below ``threshold`` over ``runs`` fair runs of ``shoes``."""
    rng = np.random.default_rng(seed)
    means = {name: float(mean) for name, mean in shuffle_tests.expected_per_shoe(8).items()}
    below = {name: Counter[str]() for name in AT_RANGE}
    any_below = 0
    per_chunk = max(1, CHUNK // shoes)
    done = 0
    while done < runs:
        count = min(per_chunk, runs - done)
        ranks = shuffle_tests.RANKS[batch.numpy_shoes(rng, count * shoes, 8)]
        found = figures(ranks)
        smallest = np.ones(count)
        for name in AT_RANGE:
            values = found[name].reshape(count, shoes).astype(float)
            p_values = np.array([shuffle_tests._t_test(row, means[name])[1] for row in values])
            below[name]["0.01"] += int((p_values < ALPHA).sum())
            below[name]["holm"] += int((p_values < threshold).sum())
            smallest = np.minimum(smallest, p_values)
        any_below += int((smallest < threshold).sum())
        done += count
    lines = [f"  {runs:,} fair runs of {shoes:,} shoes (numpy permutations of 8 decks):"]
    for name in AT_RANGE:
        lines.append(
            f"    {name:22} below 0.01: {_interval(below[name]['0.01'], runs)}; "
            f"below {threshold:.2g}: {_interval(below[name]['holm'], runs)}"
        )
    lines.append(f"    any of the four below {threshold:.2g}: {_interval(any_below, runs)}")
    return lines


def monte_carlo(runs: int, seed: int) -> list[str]:
    """The first card's and the burn's p-values at 25 shoes: Monte Carlo against the chi-square's."""
    rng = np.random.default_rng(seed)
    below: Counter[str] = Counter()
    for run in range(runs):
        tally = shuffle_tests.count(batch.numpy_shoes(rng, 25, 8), seed=f"mc-{run}", decks=8, first=0)
        first = tally.positions[0]
        pips = np.bincount(batch.PIPS[:52] - 1, weights=first, minlength=10).astype(np.int64)
        for name, observed, chances in (
            ("first_card", first, np.full(52, 1 / 52)),
            ("burn", pips, np.array([1 / 13] * 9 + [4 / 13])),
        ):
            statistic, p_value, _ = goodness_of_fit(observed, chances, f"{name}:mc-{run}")
            asymptotic = float(stats.chi2.sf(statistic, len(observed) - 1))
            for level in (0.01, 0.001):
                below[f"{name} monte carlo {level}"] += p_value < level
                below[f"{name} chi-square {level}"] += asymptotic < level
    lines = [f"  {runs:,} fair runs of 25 shoes, the first card and the burn:"]
    for name in ("first_card", "burn"):
        for way in ("monte carlo", "chi-square"):
            lines.append(
                f"    {name:10} {way:11} below 0.01: {_interval(below[f'{name} {way} 0.01'], runs)}; "
                f"below 0.001: {_interval(below[f'{name} {way} 0.001'], runs)}"
            )
    return lines


def power(threshold: float, trials: int) -> list[str]:
    """Runs of 25 shoes of the gallery's predictable shoes that the shuffle tests fail."""
    lines = []
    for name in ("reversed_half", "stacked_halves"):
        failed, tests = 0, Counter[str]()
        for trial in range(trials):
            tally = shuffle_tests.tally_shuffles(f"power-{trial}", 0, 25, 8, shuffler=GALLERY[name])
            failing = [r.name for r in shuffle_tests.shuffle_results(tally) if r.p_value < threshold]
            failed += bool(failing)
            tests.update(failing)
        named = ", ".join(f"{test} {count}" for test, count in tests.most_common())
        lines.append(f"  {name:14} fails {failed}/{trials} runs at 25 shoes ({named})")
    return lines


def run() -> list[str]:
    started = time.perf_counter()
    k = family_size()
    threshold = ALPHA / k
    lines = [f"a standard table's report judges {k} tests: Holm's first threshold {threshold:.3g}"]
    lines += false_failures(25, RUNS_SMALL, threshold, 1)
    lines += false_failures(1_000, RUNS_LARGE, threshold, 2)
    lines += monte_carlo(RUNS_MONTE_CARLO, 3)
    lines += power(threshold, TRIALS)
    lines.append(f"({time.perf_counter() - started:.0f} s)")
    return lines


if __name__ == "__main__":
    for line in run():
        print(line, flush=True)
