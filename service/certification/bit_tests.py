"""The shuffle's bit stream through the NIST SP 800-22 tests that fit it.

Sequence ``i`` is the first :data:`BLOCKS` blocks of the HMAC-SHA256
stream the shuffle of shoe ``i`` reads (docs/fairness.md, step 1: server
seed, client seed ``""``, nonce ``i``): 13,312 bits, more than the 13,280
an 8-deck shuffle's 415 words take. Each sequence goes through the tests
of SP 800-22 rev. 1a whose minimum length it meets, with the parameters
the publication recommends for that length:

frequency (monobit), frequency within a block (M = 128), runs, longest run
of ones in a block (M = 128), cumulative sums (forward and backward),
approximate entropy (m = 5), serial (m = 5, both p-values) and the
discrete Fourier transform (spectral) test.

Not run, because a shuffle's stream is shorter than they need: the rank
test (38 matrices of 32 x 32 bits), the universal test (387,840 bits), linear
complexity (10⁶ bits), the template tests and the random excursions.

Each statistic is the publication's; its p-value is scipy's distribution
(``stats.norm``, ``stats.chi2``; ``igamc(k/2, x/2)`` is ``chi2.sf(x, k)``),
with two corrections, because the publication's figures fail a true random
source once thousands of sequences are judged together:

* the **spectral test**'s count of peaks has variance
  ``(n/2) (p q - (q ln q)²)`` with ``q = 0.05``, ``p = 0.95`` (Iwasaki
  2018, from Parseval's theorem: the moduli's squares sum to a constant,
  which takes ``(q ln q)²`` off each coefficient's binomial variance), not
  the publication's ``n p q / 4`` (Hamano 2005; Okada and Umeno 2017): at
  13,312 bits 166.8 against 158.1, measured 166.6 over 100,000 sequences;
* the **frequency** and **spectral** tests' statistics are integers, so
  their p-values take a few values only and are not uniform: in the kit
  they are **randomised** p-values, ``P(T more extreme than t) + U P(T =
  t)`` with ``U`` uniform on 0-1 (exact for the frequency test, from the
  binomial distribution; for the spectral test the count plus ``U - 1/2``
  against the normal of variance ``σ² + 1/12``), which are uniform when the
  stream is random. ``U`` is read from SHA-256 of the test's name, the
  nonce and the seed (:func:`uniforms`), so a run gives the same p-values
  wherever it runs.

The sequences are then judged as SP 800-22 section 4.2 judges them, as
p-values that a report-wide Holm procedure judges together
(:mod:`.verdicts`): per test, the number of sequences with p < 0.01
against a binomial of rate 0.01 (one-sided: too many failing); and, for
the two tests whose p-values are uniform (randomised), their uniformity (a
chi-square over ten bins). The other tests' p-values come from integer
counts through an asymptotic distribution: they are not uniform, so a
uniformity test over thousands of them would fail a perfect source, and it
is not run on them; their proportion passing is judged.

No maintained package on PyPI runs SP 800-22: those there (nist80022,
sp80022suite, sts-pylib, coinflip) last released in 2019-2021, so the
tests are written here from the publication, on numpy and scipy.stats.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from math import log, sqrt
from typing import Any

import numpy as np
from scipy import stats

from ..baccarat.odds.simulation import merge_ranges
from ..baccarat.shoes.shuffle import SeedInputs, byte_blocks
from .verdicts import Result, goodness_of_fit

#: HMAC blocks per sequence (32 bytes each): 13,312 bits.
BLOCKS = 52
#: Level of each test on one sequence, as SP 800-22 recommends.
LEVEL = 0.01
#: Share of the spectral test's moduli below its threshold, and above it.
SPECTRAL_BELOW = 0.95
Bits = np.ndarray


def sequences(seed: str, first: int, count: int) -> Bits:
    """The bits of the streams of shoes ``first .. first + count - 1`` (a row each)."""
    rows = []
    for nonce in range(first, first + count):
        stream = byte_blocks(SeedInputs(seed, "", nonce))
        rows.append(b"".join(next(stream) for _ in range(BLOCKS)))
    data = np.frombuffer(b"".join(rows), dtype=np.uint8).reshape(count, 32 * BLOCKS)
    return np.unpackbits(data, axis=1).astype(np.int64)


def _two_sided(z: np.ndarray) -> np.ndarray:
    """``erfc(|z| / sqrt 2)``: SP 800-22's p-value of a standard normal statistic."""
    return np.asarray(2 * stats.norm.sf(np.abs(z)))


def uniforms(seed: str, first: int, count: int, test: str) -> np.ndarray:
    """The ``U`` of the randomised p-values of ``test`` on sequences ``first ..
    first + count - 1``: the first 53 bits of SHA-256 of ``"{test}:{nonce}:{seed}"``
    over 2^53, one per sequence, whoever computes it."""
    draws = [
        int.from_bytes(hashlib.sha256(f"{test}:{nonce}:{seed}".encode()).digest()[:8], "big") >> 11
        for nonce in range(first, first + count)
    ]
    return np.array(draws, dtype=float) / 2.0**53


def frequency(bits: Bits, draws: np.ndarray | None = None) -> np.ndarray:
    """2.1: the balance of ones and zeros; with ``draws`` (uniform on 0-1, one
    per sequence), the randomised exact p-value of the binomial count of ones."""
    n = bits.shape[1]
    ones = bits.sum(axis=1)
    if draws is None:
        return _two_sided((2 * ones - n) / sqrt(n))
    # |S| = |2 ones - n|: P(|S| > s) + U P(|S| = s), both tails of Binomial(n, 1/2).
    upper = (n + np.abs(2 * ones - n)) // 2
    beyond = 2 * stats.binom.sf(upper, n, 0.5)
    equal = np.where(2 * upper == n, 1, 2) * stats.binom.pmf(upper, n, 0.5)
    return np.asarray(np.clip(beyond + draws * equal, 0.0, 1.0))


def block_frequency(bits: Bits, m: int = 128) -> np.ndarray:
    """2.2: the proportion of ones in each block of ``m`` bits."""
    blocks = bits.shape[1] // m
    share = bits[:, : blocks * m].reshape(len(bits), blocks, m).mean(axis=2)
    chi = 4 * m * ((share - 0.5) ** 2).sum(axis=1)
    return np.asarray(stats.chi2.sf(chi, blocks))


def runs(bits: Bits) -> np.ndarray:
    """2.3: the number of runs of equal bits (0 when the frequency prerequisite fails)."""
    n = bits.shape[1]
    ones = bits.mean(axis=1)
    observed = 1 + (bits[:, 1:] != bits[:, :-1]).sum(axis=1)
    spread = 2 * sqrt(n) * ones * (1 - ones)
    p = _two_sided((observed - 2 * n * ones * (1 - ones)) / np.where(spread > 0, spread, 1))
    return np.where(np.abs(ones - 0.5) < 2 / sqrt(n), p, 0.0)


#: 2.4 for M = 128: classes of the longest run (<= 4, 5, 6, 7, 8, >= 9) and their probabilities.
_LONGEST = np.array([0.1174, 0.2430, 0.2493, 0.1752, 0.1027, 0.1124])


def longest_run(bits: Bits, m: int = 128) -> np.ndarray:
    """2.4: the longest run of ones in each block of ``m`` bits."""
    blocks = bits.shape[1] // m
    cells = bits[:, : blocks * m].reshape(-1, m)
    longest = np.zeros(len(cells), dtype=np.int64)
    current = np.zeros(len(cells), dtype=np.int64)
    for column in range(m):
        current = (current + 1) * cells[:, column]
        longest = np.maximum(longest, current)
    classes = np.clip(longest, 4, 9) - 4
    counts = np.stack([np.bincount(row, minlength=6) for row in classes.reshape(len(bits), blocks)])
    return np.asarray(stats.chisquare(counts, blocks * _LONGEST, axis=1).pvalue)


def _cusum_p(z: np.ndarray, n: int) -> np.ndarray:
    out = np.empty(len(z))
    root = sqrt(n)
    # The sums' bounds are truncated toward zero, as in the publication's reference code.
    for index, peak in enumerate(z.tolist()):
        ks = np.arange(int((-n / peak + 1) / 4), int((n / peak - 1) / 4) + 1)
        first = (
            stats.norm.cdf((4 * ks + 1) * peak / root) - stats.norm.cdf((4 * ks - 1) * peak / root)
        ).sum()
        ks = np.arange(int((-n / peak - 3) / 4), int((n / peak - 1) / 4) + 1)
        second = (
            stats.norm.cdf((4 * ks + 3) * peak / root) - stats.norm.cdf((4 * ks + 1) * peak / root)
        ).sum()
        out[index] = 1 - first + second
    return np.clip(out, 0.0, 1.0)


def cumulative_sums(bits: Bits, backward: bool = False) -> np.ndarray:
    """2.13: the largest excursion of the walk of ±1 steps (forward, or backward)."""
    steps = 2 * bits - 1
    if backward:
        steps = steps[:, ::-1]
    peak = np.abs(np.cumsum(steps, axis=1)).max(axis=1).astype(float)
    return _cusum_p(peak, bits.shape[1])


def pattern_counts(bits: Bits, longest: int) -> dict[int, np.ndarray]:
    """Overlapping patterns of each sequence, read circularly (2.11, 2.12), of
    every length ``0 .. longest``: the longest counted, each shorter one the
    longer one's counts summed over its last bit (the same, read circularly)."""
    n, rows = bits.shape[1], len(bits)
    wrapped = np.concatenate([bits, bits[:, : longest - 1]], axis=1).astype(np.uint8)
    codes = np.zeros((rows, n), dtype=np.uint8 if longest <= 8 else np.int64)
    for offset in range(longest):
        codes <<= 1
        codes |= wrapped[:, offset : offset + n]
    shifted = codes.astype(np.int64) + (np.arange(rows, dtype=np.int64) * 2**longest)[:, None]
    counts = {longest: np.bincount(shifted.ravel(), minlength=rows * 2**longest).reshape(rows, -1)}
    for size in range(longest - 1, -1, -1):
        counts[size] = counts[size + 1].reshape(rows, 2**size, 2).sum(axis=2)
    return counts


def approximate_entropy(bits: Bits, m: int = 5, counts: dict[int, np.ndarray] | None = None) -> np.ndarray:
    """2.12: the frequencies of overlapping patterns of ``m`` and ``m + 1`` bits
    (``counts``: :func:`pattern_counts` of ``bits``, if already counted)."""
    n = bits.shape[1]
    counts = counts if counts is not None else pattern_counts(bits, m + 1)

    def phi(size: int) -> np.ndarray:
        share = counts[size] / n
        logs = np.log(np.where(share > 0, share, 1))
        return np.asarray((share * logs).sum(axis=1))

    chi = 2 * n * (log(2) - (phi(m) - phi(m + 1)))
    return np.asarray(stats.chi2.sf(chi, 2**m))


def serial(
    bits: Bits, m: int = 5, counts: dict[int, np.ndarray] | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """2.11: the uniformity of overlapping ``m``-bit patterns (two p-values;
    ``counts``: :func:`pattern_counts` of ``bits``, if already counted)."""
    n = bits.shape[1]
    counts = counts if counts is not None else pattern_counts(bits, m)

    def psi(size: int) -> np.ndarray:
        if size <= 0:
            return np.zeros(len(bits))
        return np.asarray((2**size / n) * (counts[size] ** 2).sum(axis=1) - n)

    first = psi(m) - psi(m - 1)
    second = psi(m) - 2 * psi(m - 1) + psi(m - 2)
    return np.asarray(stats.chi2.sf(first, 2 ** (m - 1))), np.asarray(stats.chi2.sf(second, 2 ** (m - 2)))


def spectral_below(bits: Bits) -> np.ndarray:
    """2.6's ``N1``: the moduli of the first ``n/2`` coefficients of the
    discrete Fourier transform below the threshold ``sqrt(ln(1/0.05) n)``."""
    n = bits.shape[1]
    moduli = np.abs(np.fft.rfft(2.0 * bits - 1, axis=1))[:, : n // 2]
    return np.asarray((moduli < sqrt(log(1 / (1 - SPECTRAL_BELOW)) * n)).sum(axis=1))


def spectral_variance(n: int, *, published: bool = False) -> float:
    """The variance of ``N1`` for ``n`` random bits: Iwasaki's (2018)
    ``(n/2) (p q - (q ln q)²)``, or with ``published`` SP 800-22's ``n p q / 4``.

    >>> round(spectral_variance(13_312), 2), round(spectral_variance(13_312, published=True), 2)
    (166.83, 158.08)
    """
    p, q = SPECTRAL_BELOW, 1 - SPECTRAL_BELOW
    if published:
        return n * p * q / 4
    return n / 2 * (p * q - (q * log(q)) ** 2)


def spectral(bits: Bits, draws: np.ndarray | None = None, *, published: bool = False) -> np.ndarray:
    """2.6: peaks of the discrete Fourier transform above the 95% threshold,
    with Iwasaki's variance (or with ``published`` the publication's); with
    ``draws`` (uniform on 0-1, one per sequence), the randomised p-value of
    the count plus ``U - 1/2``, whose variance is ``1/12`` more."""
    n = bits.shape[1]
    below = spectral_below(bits).astype(float)
    variance = spectral_variance(n, published=published)
    if draws is not None:
        below = below + draws - 0.5
        variance += 1 / 12
    return _two_sided((below - SPECTRAL_BELOW * n / 2) / sqrt(variance))


#: Every test run, by name: its section of SP 800-22 and whether its p-values are randomised.
TESTS: dict[str, tuple[str, bool]] = {
    "frequency": ("2.1", True),
    "block_frequency": ("2.2, M = 128", False),
    "runs": ("2.3", False),
    "longest_run": ("2.4, M = 128", False),
    "spectral": ("2.6, Iwasaki's variance", True),
    "serial_1": ("2.11, m = 5, first p-value", False),
    "serial_2": ("2.11, m = 5, second p-value", False),
    "approximate_entropy": ("2.12, m = 5", False),
    "cumulative_sums_forward": ("2.13, forward", False),
    "cumulative_sums_backward": ("2.13, backward", False),
}


def p_values(bits: Bits, seed: str, first: int) -> dict[str, np.ndarray]:
    """Every test's p-value for each sequence of ``bits`` (sequence ``first`` first)."""
    count = len(bits)

    def draws(test: str) -> np.ndarray:
        return uniforms(seed, first, count, test)

    counts = pattern_counts(bits, 6)
    serial_1, serial_2 = serial(bits, 5, counts)
    found = {
        "frequency": frequency(bits, draws("frequency")),
        "block_frequency": block_frequency(bits),
        "runs": runs(bits),
        "longest_run": longest_run(bits),
        "spectral": spectral(bits, draws("spectral")),
        "serial_1": serial_1,
        "serial_2": serial_2,
        "approximate_entropy": approximate_entropy(bits, 5, counts),
        "cumulative_sums_forward": cumulative_sums(bits),
        "cumulative_sums_backward": cumulative_sums(bits, backward=True),
    }
    return {name: found[name] for name in TESTS}


@dataclass(frozen=True)
class BitTally:
    """Each test's p-value for each sequence, in shoe order."""

    seed: str
    ranges: tuple[tuple[int, int], ...]
    p_values: dict[str, np.ndarray]

    @property
    def sequences(self) -> int:
        return sum(end - first for first, end in self.ranges)

    def __add__(self, other: BitTally) -> BitTally:
        mine, theirs = sorted((self, other), key=lambda tally: tally.ranges[0][0] if tally.ranges else -1)
        if mine.ranges and theirs.ranges and theirs.ranges[0][0] < mine.ranges[-1][1]:
            raise ValueError("tallies must be of sequences that do not overlap")
        merged = {name: np.concatenate([mine.p_values[name], theirs.p_values[name]]) for name in TESTS}
        return BitTally(self.seed, merge_ranges(mine.ranges + theirs.ranges), merged)


def merge(parts: Sequence[BitTally]) -> BitTally:
    """The tallies of pieces of sequences in one step (adding them one by one
    would copy the p-values once per piece: quadratic in the pieces)."""
    if not parts:
        raise ValueError("merge at least one tally")
    ordered = sorted(parts, key=lambda part: part.ranges[0][0] if part.ranges else -1)
    ranges = merge_ranges(tuple(r for part in ordered for r in part.ranges))
    merged = {name: np.concatenate([part.p_values[name] for part in ordered]) for name in TESTS}
    return BitTally(parts[0].seed, ranges, merged)


def tally_bits(seed: str, first: int, count: int) -> BitTally:
    """Every test on the streams of shoes ``first .. first + count - 1``."""
    return BitTally(seed, ((first, first + count),), p_values(sequences(seed, first, count), seed, first))


def judge_bits(tally: BitTally) -> list[dict[str, Any]]:
    """SP 800-22's two criteria per test over the sequences (section 4.2), as
    p-values: the count failing against a binomial of rate 0.01, and (for
    randomised p-values only) their uniformity over ten bins. The verdicts
    are the report's (:func:`.verdicts.judge_families`): see :func:`second_level`."""
    m = tally.sequences
    judged = []
    for name, (section, randomised) in TESTS.items():
        values = tally.p_values[name]
        failing = int((values < LEVEL).sum())
        bins = np.histogram(values, bins=10, range=(0.0, 1.0))[0]
        # Fewer than 50 sequences leave a bin expected fewer than 5 times: a Monte Carlo p-value.
        uniformity = goodness_of_fit(bins, np.full(10, 0.1), f"{name}_uniformity") if randomised else None
        judged.append(
            {
                "name": name,
                "section": f"NIST SP 800-22 rev. 1a, {section}",
                "sequences": m,
                "bits_per_sequence": 256 * BLOCKS,
                "randomised": randomised,
                "proportion_passing": 1 - failing / m,
                "proportion_minimum": (1 - LEVEL) - 3 * sqrt(LEVEL * (1 - LEVEL) / m),
                "proportion_p_value": float(stats.binomtest(failing, m, LEVEL, alternative="greater").pvalue),
                "uniformity_statistic": None if uniformity is None else uniformity[0],
                "uniformity_p_value": None if uniformity is None else uniformity[1],
                "uniformity_method": None if uniformity is None else uniformity[2],
                "p_value_bins": bins.astype(int).tolist(),
            }
        )
    return judged


def second_level(judged: list[dict[str, Any]]) -> list[Result]:
    """The p-values :func:`judge_bits` found, as tests the report judges
    together with its others: ``<test>_proportion`` and ``<test>_uniformity``."""
    results = []
    for test in judged:
        results.append(
            Result(
                f"{test['name']}_proportion",
                f"no more sequences fail {test['name']} at 0.01 than 1 in 100",
                "binomial test of the sequences with p < 0.01 against rate 0.01, one-sided "
                "(scipy.stats.binomtest), SP 800-22 section 4.2.1",
                test["proportion_passing"],
                test["proportion_p_value"],
            )
        )
        if test["uniformity_p_value"] is not None:
            results.append(
                Result(
                    f"{test['name']}_uniformity",
                    f"the randomised p-values of {test['name']} are uniform on 0-1",
                    f"the p-values in ten bins, SP 800-22 section 4.2.2: {test['uniformity_method']}",
                    test["uniformity_statistic"],
                    test["uniformity_p_value"],
                    9.0,
                )
            )
    return results
