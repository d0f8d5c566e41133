"""Is the service's shuffle random enough? Counts over many shoes, and the
tests a laboratory runs on them.

Shoe ``i`` of a run is the service's seeded shoe of (seed, client seed
``""``, nonce ``i``), as ``POST /v1/shoes`` shuffles it (the numpy form of
:func:`service.baccarat.shoes.shuffle.shuffled_shoe`, held to it card for card
by tests/baccarat/counting/test_batch.py). Shoes are independent; the positions of
one shoe are not (its cards are drawn without replacement), so every test
either counts one thing per shoe or is calibrated for a whole permutation:

* **cards by position**: the table of how often each of the 52 cards lay
  at each position (416 x 52 for 8 decks), Pearson's chi-square for
  independence (``scipy.stats.chi2_contingency``). Every shoe is a
  permutation with both margins fixed, which makes the statistic's mean
  ``df N / (N - 1)`` for N cards (Haldane); it is scaled by ``(N - 1) / N``;
* **the first card** (52 cards) and **the burn** (2 to 11 cards burned, by
  the first card's pip): one of each per shoe, chi-square goodness of fit
  against the exact probabilities (``scipy.stats.chisquare``);
* **adjacent pairs**: the ranks of each card and the next, a 13 x 13 table
  over every position, against the exact expectation (``n (n - [a = b])
  / N`` per position for ``n`` cards of a rank); each shoe's table has
  fixed margins, so the chi-square has ``(13 - 1)²`` degrees of freedom;
* **serial correlation**, **runs** and **distance between equal ranks**:
  one figure per shoe (the sum of products of adjacent cards' points; the
  runs of ten-value and other cards; the sum of squared distances between
  consecutive cards of one rank), whose exact mean over a random order is
  known, tested by the shoes' mean (``scipy.stats.ttest_1samp``);
* **structure at range**, one figure per shoe with its exact mean over a
  random order, tested as above (``ttest_1samp``, two-sided; below
  :data:`.small_runs.FIGURES_BELOW` shoes every per-shoe figure's t is read
  against fair runs of as many shoes, :mod:`.small_runs`, not Student's t):

  - **the make-up of the shoe's parts**: the shoe cut into halves, and
    into eighths, the 13 ranks by part counted and Pearson's X² of that
    table taken per shoe; for a random order the table is the multivariate
    hypergeometric's, and X² has the exact mean ``(13 - 1)(P - 1) N / (N -
    1)`` for P parts (Haldane). A batch shuffler (4-deck halves shuffled
    apart and stacked; a shoe whose second half is its first reversed)
    gives halves of exactly the same make-up: X² of 0 every shoe, too
    little variance, which the two-sided test fails; clumped cards give
    too much;
  - **equal ranks at range**: for each lag L of :data:`LAGS`, the pairs of
    cards L apart of the same rank, ``C_L``, whose exact mean
    ``(N - L)(n - 1)/(N - 1)`` and variance (:func:`equal_rank_variance`:
    pairs that share a card, and pairs that do not) are known; the figure
    is ``Σ_L (C_L - mean)² / variance``, of exact mean the number of lags;
  - **the reflected pairs**: cards ``i`` and ``N - 1 - i``, the pairs of
    one rank among them (a reversed half makes every one such a pair);
* **repeated shoes**: each shoe's order hashed (the first 8 bytes of
  BLAKE2b of its card indices), and the number of shoes whose order an
  earlier shoe already had. A true shuffle of 416 cards has 416!/(8!)^52
  (about 10^671) orders equally likely, so among N shoes a repeat is
  expected ``C(N, 2) / 10^671`` times: never. A repeat's p-value is
  bounded by ``C(N, 2) (1/orders + 2^-64)`` (a true repeat, or two orders
  whose hashes collide); none gives 1. It sees a shuffle that draws from a
  small seed space (a 32-bit seed: a repeat among about 77,000 shoes is
  as likely as not) whose shoes are each as random as the service's.

A :class:`ShuffleTally` is integers counted by shoe number: tallies of
other shoes add up, so the work splits over workers as the simulation's.

Why one module of this length: the shuffle's tests are one family, judged
together (:mod:`.verdicts`); each is a short function over the same counts,
and together they show in one read what the family looks at and what it
cannot see (docs/certification.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, exp, lgamma, log

import numpy as np
from scipy import stats

from ..baccarat.counting import batch
from ..baccarat.odds.simulation import merge_ranges
from ..baccarat.rulebook.cards import DECK
from . import small_runs
from .verdicts import Result, goodness_of_fit

Array = batch.Array
#: ``(seed, first, count, decks) -> shoes``: shoes ``first .. first + count - 1`` as card indices.
Shuffler = Callable[[str, int, int, int], Array]
#: Shoes counted together.
BATCH = 1_000
RANKS = batch.RANKS
POINTS = batch.POINTS
#: Per-shoe figures, by name.
PER_SHOE = (
    "adjacent_products",
    "runs",
    "rank_distances",
    "order_hash",
    "halves_make_up",
    "eighths_make_up",
    "equal_ranks_at_range",
    "reflected_pairs",
)
#: The parts a shoe is cut into for the make-up tests, by figure.
PARTS = {"halves_make_up": 2, "eighths_make_up": 8}
#: The lags at which equal ranks are counted: a few cards apart, a deck, half and a quarter
#: of an 8-deck shoe (lags beyond a shoe's cards are left out).
LAGS = (2, 3, 4, 5, 6, 7, 8, 13, 26, 52, 104, 208)


def service_shoes(seed: str, first: int, count: int, decks: int) -> Array:
    """The service's seeded shoes ``first .. first + count - 1`` of ``seed``."""
    return batch.seeded_shoes(seed, first, count, decks)


@dataclass(frozen=True)
class ShuffleTally:
    """What was counted over shoes ``ranges`` of ``seed``."""

    seed: str
    decks: int
    ranges: tuple[tuple[int, int], ...]
    #: Shoes by position (row) and card index (column, :data:`.cards.DECK` order).
    positions: Array
    #: Adjacent cards by rank of the first (row) and of the next (column).
    pairs: Array
    #: Per-shoe figures in shoe order, by name (:data:`PER_SHOE`).
    per_shoe: dict[str, Array]

    @property
    def shoes(self) -> int:
        return sum(end - first for first, end in self.ranges)

    def __add__(self, other: ShuffleTally) -> ShuffleTally:
        if (self.seed, self.decks) != (other.seed, other.decks):
            raise ValueError("cannot add tallies of other shoes")
        mine, theirs = self, other
        if theirs.ranges and mine.ranges and theirs.ranges[0][0] < mine.ranges[0][0]:
            mine, theirs = theirs, mine
        if mine.ranges and theirs.ranges and theirs.ranges[0][0] < mine.ranges[-1][1]:
            raise ValueError("tallies must be of shoes that do not overlap, added in shoe order")
        ranges = merge_ranges(mine.ranges + theirs.ranges)
        return ShuffleTally(
            self.seed,
            self.decks,
            ranges,
            mine.positions + theirs.positions,
            mine.pairs + theirs.pairs,
            {name: np.concatenate([mine.per_shoe[name], theirs.per_shoe[name]]) for name in PER_SHOE},
        )

    @classmethod
    def merge(cls, parts: Sequence[ShuffleTally]) -> ShuffleTally:
        """The tallies of pieces of shoes in one step (adding them one by one
        would copy the per-shoe figures once per piece: quadratic in the pieces)."""
        if not parts:
            raise ValueError("merge at least one tally")
        if any((part.seed, part.decks) != (parts[0].seed, parts[0].decks) for part in parts):
            raise ValueError("cannot add tallies of other shoes")
        ordered = sorted(parts, key=lambda part: part.ranges[0][0] if part.ranges else -1)
        return ShuffleTally(
            parts[0].seed,
            parts[0].decks,
            merge_ranges(tuple(r for part in ordered for r in part.ranges)),
            np.sum([part.positions for part in ordered], axis=0),
            np.sum([part.pairs for part in ordered], axis=0),
            {name: np.concatenate([part.per_shoe[name] for part in ordered]) for name in PER_SHOE},
        )

    def same_counts(self, other: ShuffleTally) -> bool:
        """Whether two tallies hold the same counts (to compare runs split differently)."""
        return (
            self.ranges == other.ranges
            and np.array_equal(self.positions, other.positions)
            and np.array_equal(self.pairs, other.pairs)
            and all(np.array_equal(self.per_shoe[name], other.per_shoe[name]) for name in PER_SHOE)
        )


def count(shoes: Array, *, seed: str, decks: int, first: int) -> ShuffleTally:
    """The tally of ``shoes`` (one a row), numbered from ``first``."""
    shoes = np.asarray(shoes, dtype=np.int64)
    number, size = shoes.shape
    positions = np.zeros((size, 52), dtype=np.int64)
    np.add.at(positions, (np.broadcast_to(np.arange(size), shoes.shape), shoes), 1)
    ranks = RANKS[shoes]
    pairs = np.bincount((ranks[:, :-1] * 13 + ranks[:, 1:]).ravel(), minlength=169).reshape(13, 13)
    return ShuffleTally(
        seed,
        decks,
        ((first, first + number),) if number else (),
        positions,
        pairs.astype(np.int64),
        {**per_shoe_figures(shoes), "order_hash": order_hashes(shoes)},
    )


def per_shoe_figures(shoes: Array) -> dict[str, np.ndarray]:
    """Each shoe's figures tested by their mean (:data:`PER_SHOE` but the order's hash)."""
    shoes = np.asarray(shoes, dtype=np.int64)
    number, size = shoes.shape
    ranks, points = RANKS[shoes], POINTS[shoes]
    tens = points == 0
    distances = np.zeros(number, dtype=np.int64)
    for rank in range(13):
        where = np.nonzero(ranks == rank)[1].reshape(number, size // 13)
        distances += (np.diff(where, axis=1) ** 2).sum(axis=1)
    return {
        "adjacent_products": (points[:, :-1] * points[:, 1:]).sum(axis=1),
        "runs": 1 + (tens[:, :-1] != tens[:, 1:]).sum(axis=1),
        "rank_distances": distances,
        **{name: make_up(ranks, parts) for name, parts in PARTS.items()},
        "equal_ranks_at_range": equal_ranks_at_range(ranks),
        "reflected_pairs": reflected_pairs(ranks),
    }


def make_up(ranks: Array, parts: int) -> np.ndarray:
    """Each shoe's Pearson X² of its 13 ranks by ``parts`` near-equal parts."""
    number, size = ranks.shape
    bounds = np.linspace(0, size, parts + 1).round().astype(np.int64)
    by_rank = np.zeros((number, size + 1, 13), dtype=np.int16)
    np.cumsum(ranks[:, :, None] == np.arange(13), axis=1, dtype=np.int16, out=by_rank[:, 1:])
    observed = np.diff(by_rank[:, bounds, :], axis=1).astype(float)
    expected = np.diff(bounds)[:, None] * (size // 13) / size
    return np.asarray(((observed - expected) ** 2 / expected).sum(axis=(1, 2)))


def lags(size: int) -> tuple[int, ...]:
    """The lags of :data:`LAGS` a shoe of ``size`` cards has pairs at."""
    return tuple(lag for lag in LAGS if lag < size)


def equal_rank_mean(size: int, lag: int) -> Fraction:
    """The exact mean of the pairs of one rank ``lag`` apart in a random order of ``size`` cards."""
    return Fraction((size - lag) * (size // 13 - 1), size - 1)


def equal_rank_variance(size: int, lag: int) -> Fraction:
    """The exact variance of the pairs of one rank ``lag`` apart in a random
    order of ``size`` cards (13 ranks of ``n`` cards): the count is a sum of
    ``size - lag`` indicators, each one with chance ``(n - 1)/(size - 1)``;
    two of them share a card (``(i, i + lag)`` and ``(i + lag, i + 2 lag)``)
    or hold four distinct places, and each kind has its exact joint chance."""
    n, pairs = size // 13, size - lag
    one = Fraction(n - 1, size - 1)
    shared = Fraction((n - 1) * (n - 2), (size - 1) * (size - 2))
    apart = Fraction(
        13 * n * (n - 1) * (n - 2) * (n - 3) + 13 * 12 * (n * (n - 1)) ** 2,
        size * (size - 1) * (size - 2) * (size - 3),
    )
    sharing = max(size - 2 * lag, 0)
    both = pairs * (pairs - 1) // 2
    return pairs * one * (1 - one) + 2 * (
        sharing * (shared - one * one) + (both - sharing) * (apart - one * one)
    )


def equal_ranks_at_range(ranks: Array) -> np.ndarray:
    """Each shoe's ``Σ_L (C_L - mean)² / variance`` over the lags of :data:`LAGS`."""
    size = ranks.shape[1]
    figure = np.zeros(ranks.shape[0])
    for lag in lags(size):
        equal = (ranks[:, :-lag] == ranks[:, lag:]).sum(axis=1)
        mean, variance = equal_rank_mean(size, lag), equal_rank_variance(size, lag)
        figure += (equal - float(mean)) ** 2 / float(variance)
    return figure


def reflected_pairs(ranks: Array) -> np.ndarray:
    """Each shoe's pairs of cards ``i`` and ``N - 1 - i`` of one rank."""
    half = ranks.shape[1] // 2
    return np.asarray((ranks[:, :half] == ranks[:, ::-1][:, :half]).sum(axis=1))


def order_hashes(shoes: Array) -> Array:
    """Each shoe's order as 64 bits: the first 8 bytes of BLAKE2b of its card indices."""
    rows = np.ascontiguousarray(shoes, dtype=np.uint8)
    digests = b"".join(hashlib.blake2b(row.tobytes(), digest_size=8).digest() for row in rows)
    return np.frombuffer(digests, dtype=">i8").astype(np.int64)


def log_orders(decks: int) -> float:
    """The natural log of the number of distinct orders of a shoe of ``decks`` decks.

    >>> round(log_orders(8) / log(10))
    671
    """
    return lgamma(52 * decks + 1) - 52 * lgamma(decks + 1)


def repeated_shoes(tally: ShuffleTally) -> Result:
    """Shoes whose order an earlier shoe of the run already had."""
    hashes = tally.per_shoe["order_hash"]
    repeats = int(hashes.size - np.unique(hashes).size)
    pairs = comb(int(hashes.size), 2)
    expected = pairs * exp(-log_orders(tally.decks))
    bound = min(1.0, pairs * (exp(-log_orders(tally.decks)) + 2.0**-64))
    return Result(
        "repeated_shoes",
        "no shoe's order repeats another's (a small seed space repeats shoes)",
        "shoes whose order (BLAKE2b, 8 bytes) an earlier shoe had; for a true shuffle a repeat's "
        "chance is at most C(N, 2) (1/orders + 2^-64), the p-value of any repeat, 1 with none",
        float(repeats),
        1.0 if repeats == 0 else bound,
        None,
        {"repeats": repeats, "expected": expected, "log10_orders": log_orders(tally.decks) / log(10)},
    )


def tally_shuffles(
    seed: str, first: int, number: int, decks: int, *, shuffler: Shuffler = service_shoes
) -> ShuffleTally:
    """Shuffle shoes ``first .. first + number - 1`` of ``seed`` and count them."""
    total: ShuffleTally | None = None
    for start in range(first, first + number, BATCH):
        size = min(BATCH, first + number - start)
        part = count(shuffler(seed, start, size, decks), seed=seed, decks=decks, first=start)
        total = part if total is None else total + part
    if total is None:
        raise ValueError("count at least one shoe")
    return total


# --- exact expectations for a random order of the shoe's cards -------------------------


def _rank_distance_mean(decks: int) -> Fraction:
    """The exact mean of a shoe's sum of squared distances between
    consecutive cards of one rank: 13 ranks, ``n - 1`` distances each, a
    distance ``g`` with probability ``C(N - g, n - 1) / C(N, n)`` (the
    spacings of ``n`` places drawn from ``N``)."""
    size, n = 52 * decks, 4 * decks
    total = comb(size, n)
    square = sum(Fraction(g * g * comb(size - g, n - 1), total) for g in range(1, size - n + 2))
    return Fraction(13 * (n - 1)) * square


def expected_per_shoe(decks: int) -> dict[str, Fraction]:
    """The exact mean of each per-shoe figure over a random order."""
    size = 52 * decks
    points = [card.points for card in DECK] * decks
    first, second = sum(points), sum(p * p for p in points)
    tens = sum(1 for p in points if p == 0)
    return {
        "adjacent_products": Fraction(first * first - second, size),
        "runs": 1 + Fraction(2 * tens * (size - tens), size),
        "rank_distances": _rank_distance_mean(decks),
        # Haldane: a table with both margins fixed has E[X²] = (r - 1)(c - 1) N / (N - 1).
        **{name: Fraction(12 * (parts - 1) * size, size - 1) for name, parts in PARTS.items()},
        "equal_ranks_at_range": Fraction(len(lags(size))),
        "reflected_pairs": equal_rank_mean(size, size - size // 2),
    }


def _pip_probabilities() -> np.ndarray:
    """The burn's first card's pip 1-10: each of 1-9 one card in 13, 10 four in 13."""
    return np.array([1 / 13] * 9 + [4 / 13])


def shuffle_results(tally: ShuffleTally) -> list[Result]:
    """The tests of the shuffle on ``tally`` (module docstring), in order."""
    shoes, decks = tally.shoes, tally.decks
    size = 52 * decks
    results = []
    table = stats.chi2_contingency(tally.positions, correction=False)
    scaled = float(table.statistic) * (size - 1) / size
    results.append(
        Result(
            "cards_by_position",
            f"each of the 52 cards equally likely at each of the {size} positions",
            "Pearson chi-square for independence of the position-by-card table "
            "(scipy.stats.chi2_contingency), scaled by (N-1)/N for permutations",
            scaled,
            float(stats.chi2.sf(scaled, table.dof)),
            float(table.dof),
            {"shoes": shoes, "expected_per_cell": shoes / 52},
        )
    )
    first = tally.positions[0]
    statistic, p_value, how = goodness_of_fit(first, np.full(52, 1 / 52), "first_card")
    results.append(
        Result(
            "first_card",
            "each of the 52 cards equally likely first (the card turned for the burn)",
            how,
            statistic,
            p_value,
            51.0,
        )
    )
    pips = np.bincount(batch.PIPS[:52] - 1, weights=first, minlength=10).astype(np.int64)
    statistic, p_value, how = goodness_of_fit(pips, _pip_probabilities(), "burn")
    results.append(
        Result(
            "burn",
            "the number of cards burned (1 + the first card's pip, 2 to 11) as the cards give it",
            how,
            statistic,
            p_value,
            9.0,
            {"burned": {str(pip + 1): int(c) for pip, c in enumerate(pips)}},
        )
    )
    n = 4 * decks
    expected = np.full((13, 13), n * n, dtype=float)
    np.fill_diagonal(expected, n * (n - 1))
    expected *= shoes / size
    fit = stats.chisquare(tally.pairs.ravel(), expected.ravel(), ddof=168 - 144)
    results.append(
        Result(
            "adjacent_pairs",
            "the rank of each card and the next independent, as in a random order",
            "chi-square against the exact expectation, 144 degrees of freedom for a table with "
            "fixed margins (scipy.stats.chisquare)",
            float(fit.statistic),
            float(fit.pvalue),
            144.0,
            {"adjacent_equal_ranks": int(np.trace(tally.pairs)), "expected": float(np.trace(expected))},
        )
    )
    means = expected_per_shoe(decks)
    described = {
        "adjacent_products": (
            "serial_correlation",
            "no correlation between a card's points and the next card's",
            "each shoe's sum of products of adjacent cards' points",
        ),
        "runs": (
            "runs",
            "runs of ten-value cards and of other cards as long as in a random order",
            "each shoe's number of runs of ten-value and other cards",
        ),
        "rank_distances": (
            "rank_distances",
            "cards of one rank as far apart as in a random order",
            "each shoe's sum of squared distances between consecutive cards of one rank",
        ),
        "halves_make_up": (
            "halves_make_up",
            "each half of the shoe made up of the ranks as a random cut of a random order makes it up",
            "each shoe's Pearson X² of its 13 ranks by its two halves (too little spread, as a batch "
            "shuffler's halves of the same make-up give, fails as too much does)",
        ),
        "eighths_make_up": (
            "eighths_make_up",
            "each eighth of the shoe made up of the ranks as in a random order",
            "each shoe's Pearson X² of its 13 ranks by its eight near-equal parts",
        ),
        "equal_ranks_at_range": (
            "equal_ranks_at_range",
            f"cards of one rank as often {', '.join(map(str, lags(size)))} places apart as in a random order",
            "each shoe's sum over those lags of (pairs of one rank at the lag - its exact mean)² over "
            "its exact variance",
        ),
        "reflected_pairs": (
            "reflected_pairs",
            "card i and card N - 1 - i of one rank as often as in a random order (a reversed half)",
            "each shoe's pairs of one rank among cards i and N - 1 - i",
        ),
    }
    by_monte_carlo = small_runs.applies_to_figures(shoes)
    for name, (test, what, figure) in described.items():
        values = tally.per_shoe[name].astype(float)
        mean = float(means[name])
        statistic, p_value = _t_test(values, mean)
        if by_monte_carlo and np.isfinite(statistic):
            p_value = small_runs.p_value(
                small_runs.figure_null(name, decks, shoes, per_shoe_figures), statistic
            )
        results.append(
            Result(
                test,
                what,
                f"{figure}, its mean over the shoes against its exact mean "
                + (_MONTE_CARLO if by_monte_carlo else "(one-sample t-test, scipy.stats.ttest_1samp)"),
                statistic,
                p_value,
                float(shoes - 1),
                {"observed_mean": float(values.mean()), "exact_mean": mean},
            )
        )
    results.append(repeated_shoes(tally))
    return results


_MONTE_CARLO = (
    f"(one-sample t-statistic; fewer than {small_runs.FIGURES_BELOW:,} shoes, so its p-value is by "
    f"Monte Carlo: the t of {small_runs.SAMPLES:,} runs of as many shoes drawn from "
    f"{small_runs.POOL_SHOES:,} fair shoes, (1 + runs as far) / (1 + runs), "
    "service.certification.small_runs)"
)


def _t_test(values: np.ndarray, mean: float) -> tuple[float, float]:
    """The one-sample t-test of ``values`` against ``mean``. Every shoe giving
    the same figure (a shuffle that barely moves the cards) has no spread to
    divide by: its p-value is 0 unless the figure is the exact mean itself."""
    if np.ptp(values) == 0:
        same = bool(np.isclose(values[0], mean, rtol=0, atol=1e-9))
        return (0.0, 1.0) if same else (float(np.copysign(np.inf, values[0] - mean)), 0.0)
    ttest = stats.ttest_1samp(values, mean)
    return float(ttest.statistic), float(ttest.pvalue)
