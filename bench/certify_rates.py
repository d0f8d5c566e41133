"""``python -m bench.certify_rates``: how often the certification kit fails
a fair game, against the 1% it states.

The kit is run on ``SEEDS`` seeds at a small size (the fewest shoes
``certify`` accepts, with the default 1,000 shoes tested) and a larger one,
in process; every run deals the service's own fair shoes, so every failing
run is a false failure. Each size prints the runs that failed, the observed
rate with its 95% interval (Clopper-Pearson, ``scipy.stats.binomtest``) and
the family-wise rate the report states, with the checks that failed. Then
the bit stream's first-level tests on ``os.urandom`` (a true source): each
test's rate below 0.01 over ``URANDOM_SEQUENCES`` sequences, beside 0.01,
and the same sequences judged as a run judges them; then the tests that
need 10⁶ bits, on ``LONG_SEQUENCES`` sequences of ``os.urandom`` of 10⁶
bits each.

Then the smallest runs: fair ``--shoes`` files of 25 shoes (``given``),
seeded runs of 25 shoes (``smallest``), each Monte Carlo null's tail
against Student's (``tails``), and each test's own rate on fair 25-shoe
runs (``tests``); and the random excursions tests alone on sequences of
numpy's generator (``excursions``, not in the full run: about 12 minutes
of CPU). ``python -m bench.certify_rates <part>`` runs one part alone.

``BENCH_SEEDS``, ``BENCH_URANDOM_SEQUENCES``, ``BENCH_LONG_SEQUENCES``, ``BENCH_GIVEN_RUNS``
(``BENCH_GIVEN_FIRST``), ``BENCH_SMALL_RUNS`` and ``BENCH_EXCURSION_SEQUENCES``
(``BENCH_EXCURSION_FIRST``) in the environment shorten or lengthen it (``make bench``
runs it as set here).
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import stats

from service.baccarat.counting import batch
from service.baccarat.tables.rules import TABLES
from service.certification import bit_tests, million_bits
from service.certification.report import MIN_SHOES, Inputs, certify
from service.certification.verdicts import ALPHA, judge
from service.certification.workers import InProcess

#: Seeds per size.
SEEDS = int(os.environ.get("BENCH_SEEDS", "200"))
#: Rounds of the two sizes: the fewest shoes certify accepts (25 at 8 decks), and about 1,250 shoes.
SIZES = (2_000, 100_000)
#: Sequences of os.urandom through the bit stream's tests.
URANDOM_SEQUENCES = int(os.environ.get("BENCH_URANDOM_SEQUENCES", "100000"))
BATCH = 2_000
#: Sequences of 10^6 bits of os.urandom through the tests that need them (about 1 s each).
LONG_SEQUENCES = int(os.environ.get("BENCH_LONG_SEQUENCES", "2000"))
#: Fair --shoes files of the fewest shoes accepted.
GIVEN_RUNS = int(os.environ.get("BENCH_GIVEN_RUNS", "400"))
#: The first of those files' seeds (``given-rates-<first>``): runs split over processes.
GIVEN_FIRST = int(os.environ.get("BENCH_GIVEN_FIRST", "0"))
#: Sequences of 10^6 bits through the random excursions tests alone, and the first one's number.
EXCURSION_SEQUENCES = int(os.environ.get("BENCH_EXCURSION_SEQUENCES", "10000"))
EXCURSION_FIRST = int(os.environ.get("BENCH_EXCURSION_FIRST", "0"))
#: Sequences of a bad source through the same tests, and how often its bits repeat the last.
EXCURSION_BAD_SEQUENCES = int(os.environ.get("BENCH_EXCURSION_BAD_SEQUENCES", "200"))
EXCURSION_BAD_REPEAT = float(os.environ.get("BENCH_EXCURSION_BAD_REPEAT", "0.55"))
#: Fair runs of the fewest shoes through each test, for its own rate.
SMALL_RUNS = int(os.environ.get("BENCH_SMALL_RUNS", "20000"))


def _interval(failed: int, runs: int) -> str:
    low, high = stats.binomtest(failed, runs).proportion_ci(0.95, method="exact")
    return f"{failed / runs:.2%} (95% interval {low:.2%} to {high:.2%})"


def _rates() -> list[str]:
    rules = TABLES["standard"].rules
    lines = []
    for rounds in SIZES:
        reports = [
            certify(Inputs(rules, "standard", {}, f"rates-{rounds}-{index}", rounds), InProcess())
            for index in range(SEEDS)
        ]
        inputs = reports[-1]["inputs"]
        dealt = f"{inputs['shoes']:,} shoes, {inputs['shuffle_shoes']:,} tested"
        what = f"{rounds:,} rounds ({dealt}), {SEEDS} seeds"
        lines += _rate_lines(what, reports)
    return lines


def given_rates(runs: int = GIVEN_RUNS, first: int = GIVEN_FIRST) -> list[str]:
    """``runs`` fair ``--shoes`` files of the fewest shoes accepted (25): the
    service's shoes of seeds ``given-rates-<first>`` on, certified as a file's."""
    from service.certification.given_shoes import GivenShoes

    rules = TABLES["standard"].rules

    def run(index: int) -> dict[str, Any]:
        shoes = batch.seeded_shoes(f"given-rates-{index}", 0, MIN_SHOES, rules.decks).astype(np.uint8)
        given = GivenShoes(shoes, f"{index:064x}")
        return certify(Inputs(rules, "standard", {}, "", 0, given=given), InProcess())

    return _rate_lines(
        f"--shoes files of {MIN_SHOES} fair shoes, {runs} files (seeds given-rates-{first} to "
        f"-{first + runs - 1})",
        [run(i) for i in range(first, first + runs)],
    )


def _rate_lines(what: str, reports: list[dict[str, Any]]) -> list[str]:
    """How many of ``reports`` failed, with the interval of that rate, the rate the
    reports state, and the checks that failed, most often first."""
    failed = [report for report in reports if not report["passed"]]
    checks = Counter(
        f"{check['check']}: {name}"
        for report in failed
        for check in report["checks"]
        for name in check["failures"]
    )
    family = reports[-1]["family_wise"]
    lines = [
        f"{what}: {len(failed)} failed, false-failure rate {_interval(len(failed), len(reports))}; "
        f"stated at most {family['alpha']:.0%} (Holm over {family['tests']} tests)"
    ]
    if checks:
        lines.append(f"  failing: {', '.join(f'{name} x{n}' for name, n in checks.most_common())}")
    first_step = Counter(
        f"{family}: {test['name']}"
        for report in reports
        for family, tests in _judged(report).items()
        for test in tests
        if test["p_value"] < family_alpha(report)
    )
    lines.append(
        "  below Holm's first threshold (0.01 / tests): "
        + (", ".join(f"{name} x{n}" for name, n in first_step.most_common()) or "none")
    )
    return lines


def family_alpha(report: dict[str, Any]) -> float:
    """Holm's first threshold of ``report``: alpha over its tests."""
    return float(report["family_wise"]["alpha"]) / int(report["family_wise"]["tests"])


def _judged(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The report's judged tests by family (the bit stream's second-level ones as its check names them)."""
    simulation, shuffle = report["simulation"], report["shuffle"]
    return {
        "returns": simulation["returns"],
        "line_counts": simulation["line_counts"],
        "shuffle": shuffle["tests"],
    }


def smallest_seeded_rates(runs: int = GIVEN_RUNS) -> list[str]:
    """``runs`` seeded runs of the fewest shoes accepted, dealt and tested
    (``--rounds 2000 --shuffle-shoes 25``: 25 bit-stream sequences too)."""
    rules = TABLES["standard"].rules
    reports = [
        certify(Inputs(rules, "standard", {}, f"smallest-{index}", 2_000, MIN_SHOES), InProcess())
        for index in range(runs)
    ]
    dealt = reports[-1]["inputs"]["shoes"]
    return _rate_lines(
        f"--rounds 2000 --shuffle-shoes {MIN_SHOES} ({dealt} shoes dealt), {runs} seeds", reports
    )


def student_tails(family: int = 34) -> list[str]:
    """Each Monte Carlo null's share beyond Student's quantile at 0.01 / ``family``,
    over that level, at 25 and 199 shoes (and 999 for the shuffle's figures): how far Student's t is from the
    fair runs' own tail where the report reads it."""
    from service.certification import shuffle_tests, small_runs

    rules = TABLES["standard"].rules
    level = ALPHA / family
    lines = [f"Monte Carlo nulls' share beyond Student's quantile at {ALPHA}/{family}, over that level"]
    for shoes in (MIN_SHOES, small_runs.MONTE_CARLO_BELOW - 1, small_runs.FIGURES_BELOW - 1):
        quantile = stats.t.isf(level / 2, shoes - 1)
        shares = {
            **{
                f"returns: {bet}": small_runs.return_null(rules, index, shoes)
                for index, bet in enumerate(rules.bet_types)
                if small_runs.applies(shoes)
            },
            **{
                f"shuffle: {name}": small_runs.figure_null(
                    name, rules.decks, shoes, shuffle_tests.per_shoe_figures
                )
                for name in shuffle_tests.PER_SHOE
                if name != "order_hash"
            },
        }
        lines.append(
            f"  {shoes} shoes: "
            + ", ".join(f"{name} {(null >= quantile).mean() / level:.2f}x" for name, null in shares.items())
        )
    return lines


def small_run_tests(runs: int = SMALL_RUNS, shoes: int = MIN_SHOES, family: int = 34) -> list[str]:
    """Each test's rate below 0.01 and below Holm's first threshold (0.01 /
    ``family``: a ``--shoes`` report's 34 tests) over ``runs`` fair runs of
    ``shoes`` shoes (uniformly random orders, numpy's generator seeded from
    ``small-run-tests``: not the pool the Monte Carlo p-values are drawn
    from), the p-values computed as a report computes them. The first card's
    and the burn's multinomial Monte Carlo p-values are left out (valid by
    construction, and 0.2 s each)."""
    from scipy.stats import chi2, chi2_contingency

    from service.baccarat.odds.simulation import Stakes, shoes_of, tally
    from service.certification import shuffle_tests, small_runs
    from service.certification.agreement import bet_results
    from service.certification.exact import game_math

    rules = TABLES["standard"].rules
    math, stakes = game_math(rules), Stakes.of(rules)
    means = shuffle_tests.expected_per_shoe(rules.decks)
    figures = [name for name in shuffle_tests.PER_SHOE if name != "order_hash"]
    found: dict[str, list[float]] = {}
    per_batch = max(1, 1_000 // shoes)
    for start in range(0, runs, per_batch):
        count = min(per_batch, runs - start)
        dealt_shoes = shoes_of("small-run-tests", start * shoes, count * shoes, rules.decks, "numpy")
        dealt = batch.deal(dealt_shoes, cut_card=rules.cut_card)
        for run in range(count):
            part = slice(run * shoes, (run + 1) * shoes)
            one = batch.Dealt(
                dealt.rounds[part], dealt.signatures[part], dealt.starts[part], dealt.cards_used[part]
            )
            counted = tally(one, stakes, rules=rules, seed="small", shuffle="numpy", first=0)
            returned, fitted = bet_results(counted, rules, math)
            for result in returned:
                found.setdefault(f"returns: {result.name}", []).append(result.p_value)
            for result in fitted:
                found.setdefault(f"line_counts: {result.name}", []).append(result.p_value)
            shuffled = shuffle_tests.count(dealt_shoes[part], seed="small", decks=rules.decks, first=0)
            for name in figures:
                values = shuffled.per_shoe[name].astype(float)
                statistic, p = shuffle_tests._t_test(values, float(means[name]))
                if small_runs.applies_to_figures(shoes) and np.isfinite(statistic):
                    p = small_runs.p_value(
                        small_runs.figure_null(name, rules.decks, shoes, shuffle_tests.per_shoe_figures),
                        statistic,
                    )
                found.setdefault(f"shuffle: {name}", []).append(p)
            table = chi2_contingency(shuffled.positions, correction=False)
            size = 52 * rules.decks
            scaled = float(table.statistic) * (size - 1) / size
            found.setdefault("shuffle: cards_by_position", []).append(float(chi2.sf(scaled, table.dof)))
    first_step = ALPHA / family
    lines = [
        f"{runs:,} fair runs of {shoes} shoes (numpy, seed small-run-tests): each test's rate below "
        f"{ALPHA} and below Holm's first threshold {ALPHA}/{family} = {first_step:.2e}"
    ]
    any_below = np.zeros(runs, dtype=bool)
    for name, values in found.items():
        array = np.asarray(values)
        any_below |= array < first_step
        below = int((array < first_step).sum())
        lines.append(
            f"  {name:40} {_interval(int((array < ALPHA).sum()), runs)}; "
            f"{_interval(below, runs)} ({below / runs / first_step:.2f}x)"
        )
    lines.append(f"  {'any of them':40} below {first_step:.2e}: {_interval(int(any_below.sum()), runs)}")
    return lines


def _urandom() -> list[str]:
    found: dict[str, list[np.ndarray]] = {name: [] for name in bit_tests.TESTS}
    for first in range(0, URANDOM_SEQUENCES, BATCH):
        count = min(BATCH, URANDOM_SEQUENCES - first)
        data = np.frombuffer(os.urandom(count * 32 * bit_tests.BLOCKS), dtype=np.uint8)
        bits = np.unpackbits(data.reshape(count, -1), axis=1).astype(np.int64)
        for name, values in bit_tests.p_values(bits, "urandom", first).items():
            found[name].append(values)
    p_values = {name: np.concatenate(parts) for name, parts in found.items()}
    bits_each = 256 * bit_tests.BLOCKS
    lines = [
        f"os.urandom, {URANDOM_SEQUENCES:,} sequences of {bits_each:,} bits: each test's rate below {ALPHA}"
    ]
    for name, values in p_values.items():
        below = int((values < ALPHA).sum())
        lines.append(f"  {name:26} {_interval(below, values.size)}")
    tally = bit_tests.BitTally("urandom", ((0, URANDOM_SEQUENCES),), p_values)
    judged = judge(bit_tests.second_level(bit_tests.judge_bits(tally)))
    failing = [test["name"] for test in judged if not test["passed"]]
    lines.append(
        f"  judged as a run judges them ({len(judged)} second-level tests, Holm at 99%): "
        + ("pass" if not failing else f"FAIL {', '.join(failing)}")
    )
    return lines


def _urandom_long(sequences: int = LONG_SEQUENCES, batch: int = 4) -> list[str]:
    parts = []
    for first in range(0, sequences, batch):
        count = min(batch, sequences - first)
        data = np.frombuffer(os.urandom(count * million_bits.BITS // 8), dtype=np.uint8)
        bits = np.unpackbits(data.reshape(count, -1), axis=1)
        parts.append(million_bits.LongTally(((first, first + count),), million_bits.p_values(bits)))
    tally = million_bits.merge(parts)
    lines = [f"os.urandom, {sequences:,} sequences of 10^6 bits: each test's rate below {ALPHA}"]
    for name, values in tally.p_values.items():
        applicable = values[~np.isnan(values)]
        below = int((applicable < ALPHA).sum())
        lines.append(f"  {name:30} {_interval(below, applicable.size)}")
    judged = judge(bit_tests.second_level([t for t in million_bits.judge_long(tally) if t["sequences"]]))
    failing = [test["name"] for test in judged if not test["passed"]]
    lines.append(
        f"  judged as a run judges them ({len(judged)} second-level tests, Holm at 99%): "
        + ("pass" if not failing else f"FAIL {', '.join(failing)}")
    )
    return lines


def excursion_rates(sequences: int = EXCURSION_SEQUENCES, first: int = EXCURSION_FIRST) -> list[str]:
    """The random excursions tests (SP 800-22 2.14, 2.15) alone on ``sequences``
    sequences of 10^6 bits of numpy's generator (PCG64, sequence i seeded from
    ``excursions`` and i, from ``first``): each state's rate below 0.01 over
    the applicable sequences (at least 500 cycles), with the kit's p-values
    (:func:`.million_bits.excursions`) and, on the same sequences, as the
    publication reads the same counts (the chi-square of 5 degrees of
    freedom, the normal); then the two readings' power on a bad source."""
    m, kit, variant, read, variant_read = _both_readings(range(first, first + sequences), _fair_bits)
    lines = [
        f"random excursions, {sequences:,} sequences of 10^6 bits of numpy (PCG64, sequences {first} to "
        f"{first + sequences - 1}), {m:,} applicable: each state's rate below {ALPHA}, the kit's p-value "
        "(Monte Carlo, exact) | the publication's reading (chi-square, normal)"
    ]
    for column, x in enumerate(million_bits.EXCURSION_STATES):
        lines.append(
            f"  random_excursions_{x:+d}          {_interval(int((kit[:, column] < ALPHA).sum()), m)} | "
            f"{_interval(int((read[:, column] < ALPHA).sum()), m)}"
        )
    for column, x in enumerate(million_bits.VARIANT_STATES):
        lines.append(
            f"  random_excursions_variant_{x:+d}  {_interval(int((variant[:, column] < ALPHA).sum()), m)} | "
            f"{_interval(int((variant_read[:, column] < ALPHA).sum()), m)}"
        )
    for what, found, total in (("eight states", kit, read), ("variant's eighteen", variant, variant_read)):
        lines.append(
            f"  {what} pooled (states of a sequence not independent): "
            f"{_interval(int((found < ALPHA).sum()), found.size)} | "
            f"{_interval(int((total < ALPHA).sum()), total.size)}"
        )
    lines.append("  kit:" + long_run_excursions(kit, m / sequences)[1:])
    lines.append("  publication's reading:" + long_run_excursions(read, m / sequences)[1:])
    return [*lines, *excursion_power()]


def _both_readings(
    indices: range, bits: Callable[[int], np.ndarray]
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The sequences with at least 500 cycles among ``indices`` (their number),
    and their p-values read by the kit (random excursions, variant) and as the
    publication reads the same counts."""
    cycles, classes, visits = _excursion_counts(indices, bits)
    applicable = cycles > 0
    counts = cycles[applicable], classes[applicable], visits[applicable]
    return int(applicable.sum()), *_excursion_p_values(*counts), *_publication_p_values(*counts)


def excursion_power(
    sequences: int = EXCURSION_BAD_SEQUENCES, repeat: float = EXCURSION_BAD_REPEAT
) -> list[str]:
    """The two readings on a bad source: bits that repeat the one before with
    chance ``repeat`` (a Markov chain, each bit 1 half of the time), sequence
    i seeded from ``excursions-bad`` and i: the share of the applicable
    sequences below 0.01, by state, and the sequences any state or variant
    state puts below 0.01."""
    m, kit, variant, read, variant_read = _both_readings(
        range(sequences), lambda index: _sticky_bits(index, repeat)
    )
    lines = [
        f"a bad source (each bit repeats the last with chance {repeat}), {sequences} sequences, {m} "
        f"applicable: each state's share below {ALPHA}, the kit's | the publication's reading"
    ]
    for column, x in enumerate(million_bits.EXCURSION_STATES):
        lines.append(
            f"  random_excursions_{x:+d}  {int((kit[:, column] < ALPHA).sum())} | "
            f"{int((read[:, column] < ALPHA).sum())}"
        )
    lines.append(
        f"  any state: {int((kit < ALPHA).any(axis=1).sum())} | {int((read < ALPHA).any(axis=1).sum())}; "
        f"any variant state: {int((variant < ALPHA).any(axis=1).sum())} | "
        f"{int((variant_read < ALPHA).any(axis=1).sum())}"
    )
    return lines


def _fair_bits(index: int) -> np.ndarray:
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([index], spawn_key=(2_14,))))
    return np.unpackbits(rng.integers(0, 256, million_bits.BITS // 8, dtype=np.uint8))


def _sticky_bits(index: int, repeat: float) -> np.ndarray:
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([index], spawn_key=(2_14, 1))))
    flips = rng.random(million_bits.BITS) >= repeat
    flips[0] = rng.random() < 0.5
    return (np.cumsum(flips) & 1).astype(np.uint8)


def _excursion_counts(
    indices: range, bits_of: Callable[[int], np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    found = [million_bits.excursion_counts(bits_of(index)[None, :]) for index in indices]
    return tuple(np.concatenate([part[i] for part in found]) for i in range(3))  # type: ignore[return-value]


def _excursion_p_values(
    cycles: np.ndarray, classes: np.ndarray, visits: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The kit's p-values of each sequence's counts, in order of cycles (each null is drawn once a number)."""
    first = np.zeros((len(cycles), len(million_bits.EXCURSION_STATES)))
    second = np.zeros((len(cycles), len(million_bits.VARIANT_STATES)))
    for index in np.argsort(cycles, kind="stable"):
        for column, x in enumerate(million_bits.EXCURSION_STATES):
            first[index, column] = million_bits.excursion_p_value(classes[index, column], x)
        for column, x in enumerate(million_bits.VARIANT_STATES):
            visited = int(visits[index, column])
            second[index, column] = million_bits.variant_p_value(visited, int(cycles[index]), x)
    return first, second


def _publication_p_values(
    cycles: np.ndarray, classes: np.ndarray, visits: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The same counts as SP 800-22 reads them: the chi-square of 5 degrees of freedom, and the normal."""
    first = np.stack(
        [
            stats.chi2.sf(million_bits.excursion_statistic(classes[:, c], x), 5)
            for c, x in enumerate(million_bits.EXCURSION_STATES)
        ],
        axis=1,
    )
    second = np.stack(
        [
            2 * stats.norm.sf(np.abs(visits[:, c] - cycles) / np.sqrt(cycles * (4 * abs(x) - 2)))
            for c, x in enumerate(million_bits.VARIANT_STATES)
        ],
        axis=1,
    )
    return first, second


def long_run_excursions(found: np.ndarray, share: float, sequences: int = 1_315, tests: int = 77) -> str:
    """What rates like those of ``found`` (applicable sequences by state, ``share``
    of all) mean
    for a long run's ``sequences`` sequences of 10^6 bits (the stage's most):
    the chance that one of the eight states' proportion tests falls below
    Holm's first threshold (0.01 / ``tests``) on a fair stream, at the
    measured rates and at a true 1%."""
    applicable = round(sequences * share)
    level = ALPHA / tests
    fails = int(stats.binom.isf(level, applicable, ALPHA)) + 1
    while stats.binom.sf(fails - 1, applicable, ALPHA) >= level:
        fails += 1
    measured = [float((found[:, column] < ALPHA).mean()) for column in range(found.shape[1])]
    at_measured = 1 - np.prod([stats.binom.cdf(fails - 1, applicable, rate) for rate in measured])
    at_one = 1 - stats.binom.cdf(fails - 1, applicable, ALPHA) ** found.shape[1]
    return (
        f"  a long run's {applicable} applicable sequences: {fails} below {ALPHA} fail a state at "
        f"{ALPHA}/{tests}; the eight states fail a fair stream in {at_measured:.2%} of runs at the "
        f"measured rates (independent states), {at_one:.3%} at a true 1%"
    )


def run() -> list[str]:
    return [
        f"certify on fair shoes, fewest shoes accepted {MIN_SHOES}",
        *_rates(),
        *given_rates(),
        *smallest_seeded_rates(),
        *student_tails(),
        *small_run_tests(),
        *_urandom(),
        *_urandom_long(),
    ]


if __name__ == "__main__":
    # ``python -m bench.certify_rates given`` and ``... smallest``: one kind of run alone.
    only = {
        "given": given_rates,
        "smallest": smallest_seeded_rates,
        "tests": small_run_tests,
        "excursions": excursion_rates,
        "tails": student_tails,
    }
    for line in only[sys.argv[1]]() if sys.argv[1:2] and sys.argv[1] in only else run():
        print(line, flush=True)
