"""The NIST SP 800-22 tests that need 10⁶ bits, on the shuffle's stream.

A shoe's shuffle reads 13,312 bits (:mod:`.bit_tests`), too few for the
rank, universal, linear complexity, template and random excursions tests.
Sequence ``j`` here is the streams of :data:`SHOES_PER_SEQUENCE`
consecutive shoes, ``76 j`` to ``76 j + 75``, each the first
:data:`.bit_tests.BLOCKS` HMAC-SHA256 blocks its shuffle reads, joined in
shoe order (1,011,712 bits) and cut at :data:`BITS` = 10⁶: the same bits
the short tests read, read as one long sequence. A run testing fewer than
76 shoes has no such sequence, and the report says so.

Each test is the publication's (SP 800-22 rev. 1a), with the parameters it
recommends for 10⁶ bits:

* **rank** (2.5): 976 matrices of 32 x 32 bits, ranks 32, 31 and below
  against 0.2888, 0.5776 and 0.1336 (chi-square, 2 degrees of freedom);
* **universal** (2.9): Maurer's test, L = 7, Q = 1,280, K = 141,577 blocks;
* **linear complexity** (2.10): M = 500, 2,000 blocks, Berlekamp-Massey on
  every block at once (numpy, one column of the 2,000 a step), K = 6;
* **non-overlapping template** (2.7): the template ``000000001`` (m = 9),
  in N = 8 blocks; one template, not the publication's 148, whose p-values
  would add 147 tests to the report's family for no new kind of defect;
* **overlapping template** (2.8): ``111111111``, M = 1,032, K = 5, with
  the corrected class probabilities of the publication's section 3.8;
* **random excursions** (2.14): the cycles of the walk, visits to the
  states ±1 to ±4 (eight p-values), on sequences with at least 500 cycles;
  the publication's chi-square of each state's class counts, its p-value
  read not through the chi-square of 5 degrees of freedom (whose rare
  classes, expected near 5 times at 500 cycles, put a true source below
  0.01 up to 1.4% of the time) but by Monte Carlo from the counts' null
  given the number of cycles J, multinomial(J, π_k(x)):
  :func:`excursion_p_value`;
* **random excursions variant** (2.15): visits to the states ±1 to ±9
  (eighteen p-values), on the same sequences; the publication's |ξ - J|,
  its p-value exact under the visits' null given J (:func:`variant_p_value`)
  rather than the normal's.

Every p-value is judged as the short tests' are (:func:`.bit_tests.second_level`):
the number of sequences below 0.01 against a binomial of rate 0.01. Their
statistics are integer counts read through asymptotic distributions, so
their p-values are not uniform even for a true source, and no uniformity
test is run on them; docs/certification.md gives each one's rate below
0.01 on ``os.urandom`` and, for the random excursions, on numpy's
generator with the p-values above. A random excursions p-value is read only from the
sequences that have 500 cycles (the publication's rule); the others are
counted as not applicable.

Why one module of this length: it is the one stage of the bit-stream check
that reads 10⁶ bits, its seven tests side by side with the publication's
parameters, sharing the sequences they are cut from; each test is a short
function, and split apart they would each repeat the sequence's making.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import ceil, sqrt
from typing import Any

import numpy as np
from scipy import stats

from ..baccarat.odds.simulation import merge_ranges
from .bit_tests import BLOCKS, LEVEL, Bits, sequences

#: Bits of a sequence.
BITS = 1_000_000
#: Shoes whose streams make one sequence (76 x 13,312 bits >= 10^6).
SHOES_PER_SEQUENCE = ceil(BITS / (256 * BLOCKS))
#: 2.5: probabilities of a 32 x 32 matrix's rank being 32, 31, and 30 or less.
RANK_PROBABILITIES = np.array([0.2888, 0.5776, 0.1336])
#: 2.9: the expected value and variance of f_n for L = 7.
UNIVERSAL_MEAN, UNIVERSAL_VARIANCE = 6.1962507, 3.125
#: 2.10: class probabilities of T for K = 6.
LINEAR_PROBABILITIES = np.array([0.010417, 0.03125, 0.125, 0.5, 0.25, 0.0625, 0.020833])
#: 2.8 (corrected values of section 3.8): classes 0 .. 5 for m = 9, M = 1,032.
OVERLAPPING_PROBABILITIES = np.array([0.364091, 0.185659, 0.139381, 0.100571, 0.070432, 0.139865])
#: 2.14: states, and the probability that a cycle visits state x exactly k times (k = 0 .. 5+).
EXCURSION_STATES = (-4, -3, -2, -1, 1, 2, 3, 4)
VARIANT_STATES = tuple(x for x in range(-9, 10) if x)
#: 2.14: the fewest cycles a sequence needs for the random excursions tests.
MIN_CYCLES = 500
#: 2.14: null draws of each state's Monte Carlo p-value (:func:`excursion_p_value`).
EXCURSION_DRAWS = 9_999


def excursion_probabilities(x: int) -> np.ndarray:
    """2.14's π_k(x), k = 0 .. 4 and 5 or more.

    >>> [round(float(p), 6) for p in excursion_probabilities(1)]
    [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.03125]
    """
    a = 1 / (2 * abs(x))
    first = [1 - a] + [a * a * (1 - a) ** (k - 1) for k in range(1, 5)]
    return np.array([*first, 1 - sum(first)])


def long_sequences(seed: str, first: int, count: int) -> Bits:
    """Sequences ``first .. first + count - 1`` (a row each, :data:`BITS` bits)."""
    rows = [
        sequences(seed, SHOES_PER_SEQUENCE * index, SHOES_PER_SEQUENCE).ravel()[:BITS]
        for index in range(first, first + count)
    ]
    return np.stack(rows).astype(np.uint8)


def rank(bits: Bits, size: int = 32) -> np.ndarray:
    """2.5: the ranks over GF(2) of the ``size`` x ``size`` matrices of each sequence."""
    rows, n = bits.shape
    matrices = n // (size * size)
    cells = bits[:, : matrices * size * size].reshape(rows * matrices, size, size)
    ranks = gf2_ranks(cells).reshape(rows, matrices)
    counts = np.stack([(ranks == size).sum(1), (ranks == size - 1).sum(1), (ranks < size - 1).sum(1)], axis=1)
    expected = matrices * RANK_PROBABILITIES
    chi = ((counts - expected) ** 2 / expected).sum(axis=1)
    return np.asarray(np.exp(-chi / 2))


def gf2_ranks(cells: np.ndarray) -> np.ndarray:
    """The rank over GF(2) of each square matrix of 0/1 ``cells`` (Gaussian elimination, all at once)."""
    work: np.ndarray = np.array(cells, dtype=bool)
    count, size, _ = work.shape
    ranks = np.zeros(count, dtype=np.int64)
    row = np.zeros(count, dtype=np.int64)
    every = np.arange(count)
    for column in range(size):
        below = np.asarray(work[:, :, column] & (np.arange(size)[None, :] >= row[:, None]))
        has = np.asarray(below.any(axis=1))
        pivot = np.argmax(below, axis=1)
        # Swap the pivot row into place, then clear the column in every other row.
        target = np.minimum(row, size - 1)
        pivot_rows = work[every, pivot].copy()
        work[every, pivot] = np.where(has[:, None], work[every, target], work[every, pivot])
        work[every, target] = np.where(has[:, None], pivot_rows, work[every, target])
        clear = work[:, :, column] & has[:, None]
        clear[every, target] = False
        work ^= clear[:, :, None] & pivot_rows[:, None, :]
        ranks += has
        row += has
    return ranks


def universal_statistic(bits: Bits, block: int = 7, initial: int = 1_280) -> np.ndarray:
    """2.9's f_n: the mean log2 distance from each test block to the last block of its value."""
    rows, n = bits.shape
    total = n // block
    weights = 1 << np.arange(block - 1, -1, -1)
    values = (bits[:, : total * block].reshape(rows, total, block) * weights).sum(axis=2)
    # The previous occurrence of each block's value: sort by (value, position) and look one back.
    order = np.lexsort((np.broadcast_to(np.arange(total), values.shape), values), axis=1)
    ranked = np.take_along_axis(values, order, axis=1)
    same = np.zeros_like(ranked, dtype=bool)
    same[:, 1:] = ranked[:, 1:] == ranked[:, :-1]
    previous = np.where(same, np.concatenate([np.zeros((rows, 1), np.int64), order[:, :-1]], axis=1), -1)
    last = np.empty_like(previous)
    np.put_along_axis(last, order, previous, axis=1)
    positions = np.arange(1, total + 1)
    # A value not seen before is as far as the start (the publication's table of zeros).
    distance = positions - np.where(last >= 0, last + 1, 0)
    return np.asarray(np.log2(distance[:, initial:]).sum(axis=1) / (total - initial))


def universal(bits: Bits, block: int = 7, initial: int = 1_280) -> np.ndarray:
    """2.9: Maurer's universal test (L = 7, Q = 1,280: the publication's for 10⁶ bits)."""
    tested = bits.shape[1] // block - initial
    c = 0.7 - 0.8 / block + (4 + 32 / block) * tested ** (-3 / block) / 15
    sigma = c * sqrt(UNIVERSAL_VARIANCE / tested)
    z = (universal_statistic(bits, block, initial) - UNIVERSAL_MEAN) / sigma
    return np.asarray(2 * stats.norm.sf(np.abs(z)))


def linear_complexities(blocks: np.ndarray) -> np.ndarray:
    """Berlekamp-Massey on each row of 0/1 ``blocks``: the length of its
    shortest LFSR. Every row at once, its polynomials packed 64 bits a word:
    bit ``i`` of ``c`` is the connection polynomial's coefficient of x^i, bit
    ``i`` of ``window`` the ``i``-th bit back from the current one.

    >>> int(linear_complexities(np.array([[1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1]]))[0])
    4
    """
    count, size = blocks.shape
    words = (size + 1 + 63) // 64
    c = np.zeros((count, words), np.uint64)
    b = np.zeros((count, words), np.uint64)
    window = np.zeros((count, words), np.uint64)
    c[:, 0] = b[:, 0] = 1
    length = np.zeros(count, np.int64)
    last = np.full(count, -1, np.int64)
    places = np.arange(words)
    one, top = np.uint64(1), np.uint64(63)
    for n in range(size):
        carry = np.concatenate([np.zeros((count, 1), np.uint64), window[:, :-1] >> top], axis=1)
        window = (window << one) | carry
        window[:, 0] |= blocks[:, n].astype(np.uint64)
        moving = (np.bitwise_count(c & window).sum(axis=1) & 1).astype(bool)
        if not moving.any():
            continue
        shift = n - last
        whole, part = (shift // 64)[:, None], (shift % 64).astype(np.uint64)[:, None]
        low = np.where(places >= whole, np.take_along_axis(b, np.clip(places - whole, 0, None), axis=1), 0)
        lower = np.where(
            places >= whole + 1, np.take_along_axis(b, np.clip(places - whole - 1, 0, None), axis=1), 0
        ).astype(np.uint64)
        spill = np.where(part > 0, lower >> ((np.uint64(64) - part) % np.uint64(64)), 0).astype(np.uint64)
        shifted = (low.astype(np.uint64) << part) | spill
        grows = moving & (2 * length <= n)
        previous = c
        c = np.where(moving[:, None], c ^ shifted, c)
        b = np.where(grows[:, None], previous, b)
        length = np.where(grows, n + 1 - length, length)
        last = np.where(grows, n, last)
    return length


def linear_complexity(bits: Bits, size: int = 500) -> np.ndarray:
    """2.10: the linear complexity of each block of ``size`` bits, in K = 6 classes."""
    rows, n = bits.shape
    count = n // size
    found = linear_complexities(bits[:, : count * size].reshape(rows * count, size)).reshape(rows, count)
    mean = size / 2 + (9 + (-1) ** (size + 1)) / 36 - (size / 3 + 2 / 9) / 2**size
    t = (-1) ** size * (found - mean) + 2 / 9
    edges = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])
    classes = np.searchsorted(edges, t, side="right")
    counts = np.stack([np.bincount(row, minlength=7) for row in classes])
    return np.asarray(stats.chisquare(counts, count * LINEAR_PROBABILITIES, axis=1).pvalue)


def _windows(bits: Bits, size: int) -> np.ndarray:
    """Each sequence's overlapping ``size``-bit windows as integers (no wrap)."""
    n = bits.shape[1]
    codes = np.zeros((len(bits), n - size + 1), np.int64)
    for offset in range(size):
        codes = (codes << 1) | bits[:, offset : n - size + 1 + offset]
    return codes


def non_overlapping_template(bits: Bits, template: str = "000000001", blocks: int = 8) -> np.ndarray:
    """2.7: occurrences of an aperiodic ``template`` in each of ``blocks`` blocks,
    the window moved past each match."""
    m, rows = len(template), len(bits)
    size = bits.shape[1] // blocks
    target = int(template, 2)
    counts = np.zeros((rows, blocks))
    for block in range(blocks):
        hits = _windows(bits[:, block * size : (block + 1) * size], m) == target
        # An aperiodic template cannot overlap itself: its hits are already m apart.
        counts[:, block] = hits.sum(axis=1)
    mean = (size - m + 1) / 2**m
    variance = size * (1 / 2**m - (2 * m - 1) / 2 ** (2 * m))
    chi = ((counts - mean) ** 2 / variance).sum(axis=1)
    return np.asarray(stats.chi2.sf(chi, blocks))


def overlapping_template(bits: Bits, m: int = 9, size: int = 1_032) -> np.ndarray:
    """2.8: overlapping runs of ``m`` ones in blocks of ``size`` bits, in six classes."""
    rows, n = bits.shape
    count = n // size
    cells = bits[:, : count * size].reshape(rows * count, size)
    hits = (_windows(cells, m) == (1 << m) - 1).sum(axis=1).reshape(rows, count)
    counts = np.stack([np.bincount(row, minlength=6) for row in np.minimum(hits, 5)])
    expected = count * OVERLAPPING_PROBABILITIES
    # The publication's six probabilities sum to 0.999999: its chi-square, not scipy's (which checks sums).
    return np.asarray(stats.chi2.sf(((counts - expected) ** 2 / expected).sum(axis=1), 5))


def excursion_counts(bits: Bits, fewest: int = MIN_CYCLES) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """2.14 and 2.15's counts on each sequence: its cycles J (0 for a
    sequence of fewer than ``fewest``), for each of :data:`EXCURSION_STATES`
    the number of cycles visiting it k = 0 .. 4 and 5 or more times, and for
    each of :data:`VARIANT_STATES` its visits in all."""
    found = np.zeros(len(bits), np.int64)
    classes = np.zeros((len(bits), len(EXCURSION_STATES), 6), np.int64)
    visits = np.zeros((len(bits), len(VARIANT_STATES)), np.int64)
    reach = max(VARIANT_STATES)
    columns = np.array([x + reach for x in EXCURSION_STATES])
    for index, row in enumerate(bits):
        walk = np.cumsum(2 * row.astype(np.int64) - 1)
        zero = walk == 0
        # Cycle c runs from the c-th zero of the walk 0, S_1 .. S_n, 0 to the next: S_t's cycle is
        # the zeros before it; the last cycle, if the walk does not end at 0, is closed by the 0 after.
        cycle = np.concatenate([[0], np.cumsum(zero[:-1])])
        cycles = int(zero.sum()) + int(walk[-1] != 0)
        if cycles < fewest:
            continue
        found[index] = cycles
        # One pass: each step at a state -9 .. 9 (not 0) counted by its cycle and state.
        near = np.flatnonzero((np.abs(walk) <= reach) & ~zero)
        per_cycle = np.bincount(
            cycle[near] * (2 * reach + 1) + walk[near] + reach, minlength=cycles * (2 * reach + 1)
        ).reshape(cycles, 2 * reach + 1)
        visits[index] = per_cycle.sum(axis=0)[[x + reach for x in VARIANT_STATES]]
        capped = np.minimum(per_cycle[:, columns], 5)
        for column in range(len(EXCURSION_STATES)):
            classes[index, column] = np.bincount(capped[:, column], minlength=6)
    return found, classes, visits


def excursion_statistic(counts: np.ndarray, x: int) -> np.ndarray:
    """2.14's chi-square of each row of class ``counts`` (k = 0 .. 5+) of state ``x``."""
    expected = counts.sum(axis=-1, keepdims=True) * excursion_probabilities(x)
    return np.asarray(((counts - expected) ** 2 / expected).sum(axis=-1))


@lru_cache(maxsize=32)
def excursion_null(distance: int, cycles: int) -> np.ndarray:
    """The sorted chi-squares of :data:`EXCURSION_DRAWS` class counts drawn
    from the null of 2.14 for ``cycles`` cycles at a state ``distance`` from
    0: multinomial(J, π_k(x)), each cycle's visits independent of the
    others'. numpy's generator, seeded by the two numbers: the same cycles
    always meet the same draws."""
    rng = np.random.default_rng([214, distance, cycles])
    drawn = rng.multinomial(cycles, excursion_probabilities(distance), size=EXCURSION_DRAWS)
    return np.sort(excursion_statistic(drawn, distance))


def excursion_p_value(counts: np.ndarray, x: int) -> float:
    """2.14's p-value of one state's class ``counts``, by Monte Carlo: the
    share of its null's draws (:func:`excursion_null`) with a chi-square as
    large, counting the observed one, ``(1 + far) / (1 + draws)``. Read
    through the chi-square of 5 degrees of freedom, as the publication
    reads it, the rare classes' few expected cycles (near 5 at 500 cycles)
    make the statistic fall below 0.01 too often on a true source."""
    null = excursion_null(abs(x), int(counts.sum()))
    observed = float(excursion_statistic(np.asarray(counts), x))
    far = null.size - int(np.searchsorted(null, observed * (1 - 1e-12), side="left"))
    return (1 + far) / (1 + null.size)


@lru_cache(maxsize=64)
def visit_distribution(distance: int, cycles: int) -> np.ndarray:
    """2.15's null, exactly: the distribution of the visits to a state
    ``distance`` from 0 in ``cycles`` cycles, each cycle's visits
    independent, none with chance 1 - a and k >= 1 with chance
    a^2 (1 - a)^(k - 1), a = 1 / (2|x|) (2.14's π_k(x)). Its generating
    function G(s) = 1 - a + a^2 s / (1 - (1 - a) s) raised to the J-th power,
    read back by an inverse FFT on enough points that the tail past them
    (more than 40 standard deviations) does not count."""
    a = 1 / (2 * distance)
    spread = sqrt(cycles * (4 * distance - 2))
    size = 1 << ceil(np.log2(cycles + 40 * spread + 64))
    s = np.exp(-2j * np.pi * np.arange(size) / size)
    generating = 1 - a + a * a * s / (1 - (1 - a) * s)
    return np.asarray(np.clip(np.fft.ifft(generating**cycles).real, 0, None))


def variant_p_value(visits: int, cycles: int, x: int) -> float:
    """2.15's p-value of ``visits`` to state ``x`` in ``cycles`` cycles:
    the chance, under :func:`visit_distribution`, of visits at least as far
    from J as these (the publication's |ξ - J|, two-sided), exactly rather
    than through the normal, which the skewed sum of visits misses in its
    tails."""
    distribution = visit_distribution(abs(x), cycles)
    far = np.abs(np.arange(distribution.size) - cycles) >= abs(visits - cycles)
    return min(1.0, float(distribution[far].sum()))


def excursions(bits: Bits, fewest: int = MIN_CYCLES) -> tuple[np.ndarray, np.ndarray]:
    """2.14 and 2.15 on each sequence: the eight p-values of the random
    excursions test (:func:`excursion_p_value`) and the eighteen of its
    variant (:func:`variant_p_value`); NaN for a sequence of fewer than
    ``fewest`` cycles: :data:`MIN_CYCLES`, as the publication asks."""
    cycles, classes, visits = excursion_counts(bits, fewest)
    first = np.full((len(bits), len(EXCURSION_STATES)), np.nan)
    second = np.full((len(bits), len(VARIANT_STATES)), np.nan)
    for index in np.flatnonzero(cycles):
        for column, x in enumerate(EXCURSION_STATES):
            first[index, column] = excursion_p_value(classes[index, column], x)
        for column, x in enumerate(VARIANT_STATES):
            second[index, column] = variant_p_value(int(visits[index, column]), int(cycles[index]), x)
    return first, second


#: Every p-value, by name: its section of SP 800-22.
TESTS: dict[str, str] = {
    "rank": "2.5, 32 x 32 matrices",
    "universal": "2.9, L = 7, Q = 1,280",
    "linear_complexity": "2.10, M = 500",
    "non_overlapping_template": "2.7, template 000000001, N = 8",
    "overlapping_template": "2.8, m = 9, M = 1,032",
    **{
        f"random_excursions_{x:+d}": f"2.14, state {x:+d}; p-value by {EXCURSION_DRAWS:,} seeded "
        "draws of the class counts' multinomial null given the cycles J"
        for x in EXCURSION_STATES
    },
    **{
        f"random_excursions_variant_{x:+d}": f"2.15, state {x:+d}; p-value exact, the visits' null "
        "given the cycles J"
        for x in VARIANT_STATES
    },
}


def p_values(bits: Bits) -> dict[str, np.ndarray]:
    """Every test's p-value for each sequence of ``bits`` (NaN: not applicable)."""
    first, second = excursions(bits)
    found = {
        "rank": rank(bits),
        "universal": universal(bits),
        "linear_complexity": linear_complexity(bits),
        "non_overlapping_template": non_overlapping_template(bits),
        "overlapping_template": overlapping_template(bits),
        **{f"random_excursions_{x:+d}": first[:, i] for i, x in enumerate(EXCURSION_STATES)},
        **{f"random_excursions_variant_{x:+d}": second[:, i] for i, x in enumerate(VARIANT_STATES)},
    }
    return {name: np.asarray(found[name], dtype=float) for name in TESTS}


@dataclass(frozen=True)
class LongTally:
    """Each test's p-value for each sequence, in sequence order."""

    ranges: tuple[tuple[int, int], ...]
    p_values: dict[str, np.ndarray]

    @property
    def sequences(self) -> int:
        return sum(end - first for first, end in self.ranges)


def tally_long(seed: str, first: int, count: int) -> LongTally:
    """Every test on sequences ``first .. first + count - 1``."""
    return LongTally(((first, first + count),), p_values(long_sequences(seed, first, count)))


def merge(parts: Sequence[LongTally]) -> LongTally:
    """The tallies of pieces of sequences in one step, in sequence order."""
    ordered = sorted(parts, key=lambda part: part.ranges[0][0])
    ranges = merge_ranges(tuple(r for part in ordered for r in part.ranges))
    merged = {name: np.concatenate([part.p_values[name] for part in ordered]) for name in TESTS}
    return LongTally(ranges, merged)


def judge_long(tally: LongTally) -> list[dict[str, Any]]:
    """Per test, as :func:`.bit_tests.judge_bits` judges the short ones: the
    number of sequences below 0.01 against a binomial of rate 0.01; no
    uniformity test (these p-values are not uniform for a true source)."""
    judged = []
    for name, section in TESTS.items():
        values = tally.p_values[name]
        applicable = values[~np.isnan(values)]
        m = int(applicable.size)
        failing = int((applicable < LEVEL).sum())
        judged.append(
            {
                "name": name,
                "section": f"NIST SP 800-22 rev. 1a, {section}",
                "sequences": m,
                "not_applicable": int(values.size - m),
                "bits_per_sequence": BITS,
                "randomised": False,
                "proportion_passing": 1 - failing / m if m else None,
                "proportion_minimum": (1 - LEVEL) - 3 * sqrt(LEVEL * (1 - LEVEL) / m) if m else None,
                "proportion_p_value": float(stats.binomtest(failing, m, LEVEL, alternative="greater").pvalue)
                if m
                else 1.0,
                "uniformity_statistic": None,
                "uniformity_p_value": None,
                "p_value_bins": np.histogram(applicable, bins=10, range=(0.0, 1.0))[0].astype(int).tolist(),
            }
        )
    return judged


def sequences_for(shoes: int) -> int:
    """The 10⁶-bit sequences the streams of ``shoes`` shoes make.

    >>> sequences_for(75), sequences_for(76), sequences_for(1_000)
    (0, 1, 13)
    """
    return shoes // SHOES_PER_SEQUENCE
