"""P-values for runs of few shoes, by Monte Carlo from fair shoes.

A run's returns and its shuffle's per-shoe figures are judged by a mean
over shoes read through Student's t, and its line counts by a chi-square;
both are sound for many shoes and not for few. At 25 shoes a pair bet's
net per shoe is far from normal (a few wins paying 11 or 25 to 1), and an
X² or a sum of squares per shoe is skewed: their t-statistics fall beyond
Student's quantile at Holm's first threshold several times too often
(docs/certification.md, "Calibration"). A run of fewer than
:data:`MONTE_CARLO_BELOW` shoes (its returns and line counts) or
:data:`FIGURES_BELOW` shoes tested (the shuffle's per-shoe figures) is
therefore judged against the statistic's own distribution over fair runs
of the same number of shoes:

* **the pool**: :data:`POOL_SHOES` fair shoes, uniformly random orders of
  the table's decks (numpy's generator seeded from :data:`POOL_SEED`:
  :func:`service.baccarat.odds.simulation.shoes_of`, ``"numpy"``), never
  the shuffle under test, dealt under the run's rules; each shoe's rounds,
  each bet's net and line counts, and each shuffle figure are kept;
* **the null**: :data:`SAMPLES` runs of the run's number of shoes drawn
  from the pool with replacement (numpy, seeded by SHA-256 of the test,
  the shoes and the rules' id), each run's statistic computed as the
  report computes it, centred on the pool's own mean (the bootstrap-t:
  the pool's mean stands for the exact one, and differs from it by a
  fraction of a standard error that a 25-shoe run cannot see);
* **the p-value**: ``(1 + null runs at least as far) / (1 + SAMPLES)``.

The same run always gives the same p-value (everything is seeded), and a
laboratory recomputes it from this module. The null's statistics are
sorted once per test and number of shoes and kept for the process.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..baccarat.counting import batch
from ..baccarat.odds.simulation import Stakes, shoes_of
from ..baccarat.tables.rules import Rules

#: Runs of fewer shoes than this judge their returns and line counts by Monte Carlo; from it on,
#: Student's t and the chi-square.
MONTE_CARLO_BELOW = 200
#: Runs of fewer shoes than this judge the shuffle's per-shoe figures by Monte Carlo: an X² or a
#: sum of squares a shoe is more skewed than a bet's net, and its mean's t nears Student's later.
FIGURES_BELOW = 1_000
#: Fair shoes the null runs are drawn from.
POOL_SHOES = 50_000
#: The seed of the pool's shoes.
POOL_SEED = "certification-null-pool"
#: Null runs per p-value: the smallest p-value is 1 / (1 + SAMPLES), 10^-5.
SAMPLES = 99_999
#: Shoes gathered at once while drawing null runs (bounds the memory: about 30 MB).
GATHER = 50_000

Figures = Callable[[np.ndarray], np.ndarray]


def applies(shoes: int) -> bool:
    """Whether a run of ``shoes`` shoes judges its returns and line counts by Monte Carlo."""
    return shoes < MONTE_CARLO_BELOW


def applies_to_figures(shoes: int) -> bool:
    """Whether a run of ``shoes`` shoes tested judges the shuffle's per-shoe figures by Monte Carlo."""
    return shoes < FIGURES_BELOW


def p_value(null: np.ndarray, observed: float) -> float:
    """``(1 + null runs at least as far as observed) / (1 + SAMPLES)``; ``null`` sorted."""
    far = null.size - int(np.searchsorted(null, abs(observed) * (1 - 1e-12), side="left"))
    return (1 + far) / (1 + null.size)


def _generator(*parts: object) -> np.random.Generator:
    text = ":".join(str(part) for part in parts).encode()
    return np.random.default_rng(int.from_bytes(hashlib.sha256(text).digest(), "big"))


def _null(name: str, shoes: int, key: str, columns: np.ndarray, statistic: Figures) -> np.ndarray:
    """The sorted statistics of :data:`SAMPLES` runs of ``shoes`` rows of
    ``columns`` drawn with replacement; ``statistic`` maps a batch of runs'
    column sums (one run a row) to their statistics."""
    rng = _generator(name, shoes, key)
    runs = max(1, GATHER // shoes)
    found = []
    for first in range(0, SAMPLES, runs):
        drawn = rng.integers(0, columns.shape[0], size=(min(runs, SAMPLES - first), shoes))
        found.append(statistic(columns[drawn].sum(axis=1)))
    return np.sort(np.abs(np.concatenate(found)))


# --- the shuffle's per-shoe figures ---------------------------------------------------


#: What computes each shoe's figures: the shuffle tests' ``per_shoe_figures``,
#: given by the caller (the shuffle tests import this module, not the other way round).
ShoeFigures = Callable[[np.ndarray], dict[str, np.ndarray]]


@cache
def _figure_pool(decks: int, figures: ShoeFigures) -> dict[str, np.ndarray]:
    parts = [
        figures(shoes_of(POOL_SEED, first, min(5_000, POOL_SHOES - first), decks, "numpy"))
        for first in range(0, POOL_SHOES, 5_000)
    ]
    return {name: np.concatenate([part[name] for part in parts]).astype(float) for name in parts[0]}


@cache
def figure_null(name: str, decks: int, shoes: int, figures: ShoeFigures) -> np.ndarray:
    """The sorted |t| of :data:`SAMPLES` fair runs of ``shoes`` shoes for the
    per-shoe figure ``name``, as ``figures`` computes each shoe's."""
    values = _figure_pool(decks, figures)[name]
    centre = float(values.mean())
    columns = np.stack([values, values * values], axis=1)

    def t(sums: np.ndarray) -> np.ndarray:
        mean = sums[:, 0] / shoes
        variance = np.maximum(sums[:, 1] - shoes * mean * mean, 0) / (shoes - 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            found = (mean - centre) / np.sqrt(variance / shoes)
        return np.where(variance > 0, found, np.where(np.isclose(mean, centre), 0.0, np.inf))

    return _null(f"figure:{name}", shoes, f"decks {decks}", columns, t)


# --- the returns and the line counts ----------------------------------------------------


@dataclass(frozen=True)
class ReturnPool:
    """The pool's shoes dealt under one table's rules."""

    #: Rounds of each shoe.
    rounds: np.ndarray
    #: Per bet (:attr:`Rules.bet_types` order): each shoe's net per unit staked on every round.
    nets: tuple[np.ndarray, ...]
    #: Per bet: each shoe's rounds settled by each line of the bet's pay table, the losses last.
    lines: tuple[np.ndarray, ...]


#: The pools dealt, by the rules' id (rules are not hashable).
_POOLS: dict[str, ReturnPool] = {}


def return_pool(rules: Rules) -> ReturnPool:
    """The pool dealt whole under ``rules``, as the simulator deals a seeded shoe."""
    if rules.id not in _POOLS:
        _POOLS[rules.id] = _deal_pool(rules)
    return _POOLS[rules.id]


def _deal_pool(rules: Rules) -> ReturnPool:
    stakes = Stakes.of(rules)
    rounds: list[np.ndarray] = []
    nets: list[list[np.ndarray]] = [[] for _ in stakes.bets]
    lines: list[list[np.ndarray]] = [[] for _ in stakes.bets]
    for first in range(0, POOL_SHOES, 5_000):
        dealt = batch.deal(
            shoes_of(POOL_SEED, first, min(5_000, POOL_SHOES - first), rules.decks, "numpy"),
            cut_card=rules.cut_card,
        )
        mask = dealt.signatures >= 0
        signatures = np.where(mask, dealt.signatures, 0)
        rounds.append(dealt.rounds.astype(float))
        shoe = np.broadcast_to(np.arange(len(dealt.rounds))[:, None], signatures.shape)
        for index, line_of in enumerate(stakes.lines):
            net = np.where(mask, stakes.nets[index][signatures], 0).sum(axis=1)
            nets[index].append(net / stakes.denominator)
            count = len(stakes.pays[index])
            settled = np.zeros((len(dealt.rounds), count), dtype=np.int64)
            np.add.at(settled, (shoe[mask], line_of[signatures][mask]), 1)
            lines[index].append(settled)
    return ReturnPool(
        np.concatenate(rounds),
        tuple(np.concatenate(parts) for parts in nets),
        tuple(np.concatenate(parts) for parts in lines),
    )


def return_null(rules: Rules, bet: int, shoes: int) -> np.ndarray:
    """The sorted |t| of :data:`SAMPLES` fair runs of ``shoes`` shoes for the return of bet ``bet``
    (its index in :attr:`Rules.bet_types`), t as the report computes it (ratio estimator)."""
    return_pool(rules)
    return _return_null(rules.id, bet, shoes)


@cache
def _return_null(rules_id: str, bet: int, shoes: int) -> np.ndarray:
    pool = _POOLS[rules_id]
    net, rounds = pool.nets[bet], pool.rounds
    centre = float(net.sum() / rounds.sum())
    columns = np.stack([net, rounds, net * net, net * rounds, rounds * rounds], axis=1)

    def t(sums: np.ndarray) -> np.ndarray:
        total, played, squares, cross, played_squared = sums.T
        observed = total / played
        spread = np.maximum(squares - 2 * observed * cross + observed * observed * played_squared, 0)
        error = np.sqrt(shoes / (shoes - 1) * spread) / played
        with np.errstate(divide="ignore", invalid="ignore"):
            found = (observed - centre) / error
        return np.where(error > 0, found, np.where(np.isclose(observed, centre), 0.0, np.inf))

    return _null(f"return:{bet}", shoes, rules_id, columns, t)


@cache
def _line_null(rules_id: str, bet: int, shoes: int, groups: tuple[tuple[int, ...], ...]) -> np.ndarray:
    pool = _POOLS[rules_id]
    settled = pool.lines[bet]
    grouped = np.stack([settled[:, list(group)].sum(axis=1) for group in groups], axis=1).astype(float)
    share = grouped.sum(axis=0) / pool.rounds.sum()
    columns = np.concatenate([grouped, pool.rounds[:, None]], axis=1)

    def chi_square(sums: np.ndarray) -> np.ndarray:
        expected = sums[:, -1:] * share
        return np.asarray((((sums[:, :-1] - expected) ** 2) / expected).sum(axis=1))

    return _null(f"lines:{bet}:{groups}", shoes, rules_id, columns, chi_square)


def line_null(rules: Rules, bet: int, shoes: int, groups: Sequence[Sequence[int]]) -> np.ndarray:
    """The sorted chi-squares of :data:`SAMPLES` fair runs of ``shoes`` shoes for the line
    counts of bet ``bet``, its lines pooled into ``groups`` as the run's were (indices of
    its pay table's lines, the loss last), expected from the pool's own shares."""
    return_pool(rules)
    return _line_null(rules.id, bet, shoes, tuple(tuple(group) for group in groups))
