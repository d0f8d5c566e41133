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
(``stats.norm``, ``stats.chi2``; ``igamc(k/2, x/2)`` is ``chi2.sf(x, k)``).
The sequences are then judged as SP 800-22 section 4.2 judges them: per
test, the proportion of sequences with p >= 0.01 must lie within
``0.99 ± 3 sqrt(0.99 · 0.01 / m)`` for ``m`` sequences, and the p-values
must be uniform (a chi-square over ten bins, its p-value at least 0.0001).

No maintained package on PyPI runs SP 800-22: those there (nist80022,
sp80022suite, sts-pylib, coinflip) last released in 2019-2021, so the
tests are written here from the publication, on numpy and scipy.stats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import log, sqrt
from typing import Any

import numpy as np
from scipy import stats

from ..baccarat.odds.simulation import merge_ranges
from ..baccarat.shoes.shuffle import SeedInputs, byte_blocks

#: HMAC blocks per sequence (32 bytes each): 13,312 bits.
BLOCKS = 52
#: Level of each test on one sequence, as SP 800-22 recommends.
LEVEL = 0.01
#: SP 800-22's level for the uniformity of a test's p-values.
UNIFORMITY_LEVEL = 0.0001
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


def frequency(bits: Bits) -> np.ndarray:
    """2.1: the balance of ones and zeros."""
    n = bits.shape[1]
    return _two_sided((2 * bits - 1).sum(axis=1) / sqrt(n))


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


def _pattern_counts(bits: Bits, m: int) -> np.ndarray:
    """Overlapping ``m``-bit patterns of each sequence, read circularly (2.11, 2.12)."""
    if m == 0:
        return np.zeros((len(bits), 1))
    n = bits.shape[1]
    wrapped = np.concatenate([bits, bits[:, : m - 1]], axis=1)
    codes = np.zeros((len(bits), n), dtype=np.int64)
    for offset in range(m):
        codes = codes * 2 + wrapped[:, offset : offset + n]
    shifted = codes + (np.arange(len(bits)) * 2**m)[:, None]
    return np.bincount(shifted.ravel(), minlength=len(bits) * 2**m).reshape(len(bits), 2**m)


def approximate_entropy(bits: Bits, m: int = 5) -> np.ndarray:
    """2.12: the frequencies of overlapping patterns of ``m`` and ``m + 1`` bits."""
    n = bits.shape[1]

    def phi(size: int) -> np.ndarray:
        share = _pattern_counts(bits, size) / n
        logs = np.log(np.where(share > 0, share, 1))
        return np.asarray((share * logs).sum(axis=1))

    chi = 2 * n * (log(2) - (phi(m) - phi(m + 1)))
    return np.asarray(stats.chi2.sf(chi, 2**m))


def serial(bits: Bits, m: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """2.11: the uniformity of overlapping ``m``-bit patterns (two p-values)."""
    n = bits.shape[1]

    def psi(size: int) -> np.ndarray:
        if size <= 0:
            return np.zeros(len(bits))
        return np.asarray((2**size / n) * (_pattern_counts(bits, size) ** 2).sum(axis=1) - n)

    first = psi(m) - psi(m - 1)
    second = psi(m) - 2 * psi(m - 1) + psi(m - 2)
    return np.asarray(stats.chi2.sf(first, 2 ** (m - 1))), np.asarray(stats.chi2.sf(second, 2 ** (m - 2)))


def spectral(bits: Bits) -> np.ndarray:
    """2.6: peaks of the discrete Fourier transform above the 95% threshold."""
    n = bits.shape[1]
    moduli = np.abs(np.fft.fft(2 * bits - 1, axis=1))[:, : n // 2]
    threshold = sqrt(log(1 / 0.05) * n)
    below = (moduli < threshold).sum(axis=1)
    expected = 0.95 * n / 2
    return _two_sided((below - expected) / sqrt(n * 0.95 * 0.05 / 4))


#: Every test run, by name: its section of SP 800-22 and its p-values per sequence.
TESTS: dict[str, tuple[str, Callable[[Bits], np.ndarray]]] = {
    "frequency": ("2.1", frequency),
    "block_frequency": ("2.2, M = 128", block_frequency),
    "runs": ("2.3", runs),
    "longest_run": ("2.4, M = 128", longest_run),
    "spectral": ("2.6", spectral),
    "serial_1": ("2.11, m = 5, first p-value", lambda bits: serial(bits)[0]),
    "serial_2": ("2.11, m = 5, second p-value", lambda bits: serial(bits)[1]),
    "approximate_entropy": ("2.12, m = 5", approximate_entropy),
    "cumulative_sums_forward": ("2.13, forward", cumulative_sums),
    "cumulative_sums_backward": ("2.13, backward", lambda bits: cumulative_sums(bits, backward=True)),
}


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


def tally_bits(seed: str, first: int, count: int) -> BitTally:
    """Every test on the streams of shoes ``first .. first + count - 1``."""
    bits = sequences(seed, first, count)
    return BitTally(seed, ((first, first + count),), {name: test(bits) for name, (_, test) in TESTS.items()})


def judge_bits(tally: BitTally) -> list[dict[str, Any]]:
    """SP 800-22's two criteria per test over the sequences (section 4.2)."""
    m = tally.sequences
    low = (1 - LEVEL) - 3 * sqrt(LEVEL * (1 - LEVEL) / m)
    judged = []
    for name, (section, _) in TESTS.items():
        values = tally.p_values[name]
        proportion = float((values >= LEVEL).mean())
        bins = np.histogram(values, bins=10, range=(0.0, 1.0))[0]
        uniformity = float(stats.chisquare(bins).pvalue)
        judged.append(
            {
                "name": name,
                "section": f"NIST SP 800-22 rev. 1a, {section}",
                "sequences": m,
                "bits_per_sequence": 256 * BLOCKS,
                "proportion_passing": proportion,
                "proportion_minimum": low,
                "uniformity_p_value": uniformity,
                "uniformity_minimum": UNIFORMITY_LEVEL,
                "p_value_bins": bins.astype(int).tolist(),
                "passed": bool(proportion >= low and uniformity >= UNIFORMITY_LEVEL),
            }
        )
    return judged
