"""Dealing many seeded shoes and measuring what each bet returned: a check
on the exact odds by another road, tallied exactly.

Shoe ``i`` (``i = 0, 1, ...``) is shuffled from the server seed with an
empty client seed and nonce ``i`` (so shoe 0 is the shoe of the plain seed),
and dealt whole as :mod:`.shoe_deal` deals it: burn, rounds, cut card, one
more round. On every round one unit is staked on every bet the table offers.
The shoes are dealt many at a time by :mod:`.batch`, each round kept as its
signature (all that a pay table reads), so what a run found is a
:class:`Tally` of integers: rounds per signature, from which every line of
every pay table is counted, and per bet the moments of each shoe's net that
the confidence interval needs. A return is a :class:`~fractions.Fraction`,
never a sum of floats.

A tally covers shoes by number, whoever dealt them: :func:`tally_shoes`
deals shoes ``first .. first + count - 1``, and tallies add up (``a + b``),
so a run split across processes or machines gives the same counts as one
run in one process, however it is split.

Rounds of one shoe are not independent (they share its cards), shoes are:
the confidence interval treats each shoe as one observation of (net,
rounds) and uses the ratio estimator's standard error with a normal
quantile. Averaged over whole shoes a bet's return is not exactly its
return on a full shoe (where the cut card falls depends on the cards dealt
before it), but the difference is far below what a simulation can see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, sqrt
from statistics import NormalDist
from typing import Literal

import numpy as np

from . import batch
from .bets import BetType
from .odds import settling_lines
from .payouts import pay_table
from .round_counts import SIGNATURES
from .tables import Rules

#: Shoes dealt together: large enough that numpy's work dominates, small
#: enough to keep a batch's arrays to a few megabytes.
BATCH = 1_000
#: Shoes per numpy generator stream: shoe ``i`` is always in block ``i // BLOCK``.
BLOCK = 1_000
Shuffle = Literal["service", "numpy"]
#: The most shoes one call deals (10⁶ shoes are about 80 million rounds).
MAX_SHOES = 1_000_000


@dataclass(frozen=True, slots=True)
class Stakes:
    """What one unit on each offered bet nets on a round of each signature,
    in units of ``1 / denominator`` of the stake (exact integers)."""

    bets: tuple[BetType, ...]
    denominator: int
    #: Net per bet (row) and signature index (column).
    nets: batch.Array

    @classmethod
    def of(cls, rules: Rules) -> Stakes:
        settled = [settling_lines(pay_table(bet, rules)) for bet in rules.bet_types]
        denominator = lcm(*(net.denominator for _, nets in settled for net in nets))
        by_signature = np.stack(
            [
                np.array([int(net * denominator) for net in nets], dtype=np.int64)[lines]
                for lines, nets in settled
            ]
        )
        return cls(rules.bet_types, denominator, by_signature)


@dataclass(frozen=True)
class Tally:
    """What a run of shoes found, in integers; tallies of disjoint shoes add up."""

    shoes: int
    rounds: int
    #: Rounds per signature index (:attr:`.round_counts.Signature.index`).
    by_signature: tuple[int, ...]
    #: Over the shoes, the sum of each shoe's rounds squared.
    rounds_squared: int
    #: Per offered bet: the sum over shoes of each shoe's net (in stake units
    #: of ``1 / Stakes.denominator``), of its square, and of it times the shoe's rounds.
    net: tuple[int, ...]
    net_squared: tuple[int, ...]
    net_by_rounds: tuple[int, ...]

    def __add__(self, other: Tally) -> Tally:
        def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(x + y for x, y in zip(a, b, strict=True))

        return Tally(
            self.shoes + other.shoes,
            self.rounds + other.rounds,
            add(self.by_signature, other.by_signature),
            self.rounds_squared + other.rounds_squared,
            add(self.net, other.net),
            add(self.net_squared, other.net_squared),
            add(self.net_by_rounds, other.net_by_rounds),
        )


def _sum(values: batch.Array) -> int:
    # Each batch's sums stay far inside int64 (a few thousand shoes); the run's are Python ints.
    return int(values.sum())


def tally(dealt: batch.Dealt, stakes: Stakes) -> Tally:
    """The tally of dealt shoes."""
    signatures = np.where(dealt.signatures >= 0, dealt.signatures, 0)
    dealt_mask = dealt.signatures >= 0
    per_shoe = [np.where(dealt_mask, nets[signatures], 0).sum(axis=1) for nets in stakes.nets]
    rounds = dealt.rounds
    return Tally(
        shoes=len(rounds),
        rounds=_sum(rounds),
        by_signature=tuple(dealt.signature_counts().tolist()),
        rounds_squared=_sum(rounds * rounds),
        net=tuple(_sum(net) for net in per_shoe),
        net_squared=tuple(_sum(net * net) for net in per_shoe),
        net_by_rounds=tuple(_sum(net * rounds) for net in per_shoe),
    )


def shoes_of(seed: str, first: int, count: int, decks: int, shuffle: Shuffle = "service") -> batch.Array:
    """Shoes ``first .. first + count - 1`` of ``seed``: the service's seeded
    shuffle, or numpy's generator seeded from ``seed`` and the shoe's block."""
    if shuffle == "service":
        return batch.seeded_shoes(seed, first, count, decks)
    blocks = []
    for block in range(first // BLOCK, (first + count - 1) // BLOCK + 1):
        entropy = int.from_bytes(seed.encode(), "big")
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=(block,))))
        blocks.append(batch.numpy_shoes(rng, BLOCK, decks))
    start = first - (first // BLOCK) * BLOCK
    return np.concatenate(blocks)[start : start + count]


def tally_shoes(
    rules: Rules,
    seed: str,
    first: int,
    count: int,
    *,
    shuffle: Shuffle = "service",
    progress: Callable[[int], object] | None = None,
) -> Tally:
    """Deal shoes ``first .. first + count - 1`` of ``seed`` under ``rules``
    and tally them; ``progress(shoes)`` after each batch with the shoes it dealt."""
    stakes = Stakes.of(rules)
    total = _empty(stakes)
    for start in range(first, first + count, BATCH):
        size = min(BATCH, first + count - start)
        shoes = shoes_of(seed, start, size, rules.decks, shuffle)
        total += tally(batch.deal(shoes, cut_card=rules.cut_card), stakes)
        if progress is not None:
            progress(size)
    return total


def _empty(stakes: Stakes) -> Tally:
    zeros = (0,) * len(stakes.bets)
    return Tally(0, 0, (0,) * SIGNATURES, 0, zeros, zeros, zeros)


@dataclass(frozen=True, slots=True)
class BetReturn:
    """What one bet returned over the simulation, per unit staked."""

    bet: BetType
    rounds: int
    #: Net won (negative: lost) per unit staked, over every round: exact.
    observed: Fraction
    #: Standard error of :attr:`observed` (shoes as independent clusters).
    standard_error: float

    def interval(self, confidence: float) -> tuple[float, float]:
        """The two-sided confidence interval at ``confidence`` (e.g. 0.95)."""
        z = NormalDist().inv_cdf(0.5 + confidence / 2)
        observed = float(self.observed)
        return observed - z * self.standard_error, observed + z * self.standard_error


@dataclass(frozen=True, slots=True)
class Simulation:
    """Every offered bet's return over ``shoes`` seeded shoes."""

    seed: str
    shoes: int
    rounds: int
    returns: tuple[BetReturn, ...]
    tally: Tally


def returns(tally: Tally, rules: Rules) -> tuple[BetReturn, ...]:
    """Each offered bet's return, from a tally of at least 2 shoes."""
    stakes = Stakes.of(rules)
    shoes, rounds, unit = tally.shoes, tally.rounds, stakes.denominator
    measured = []
    for index, bet in enumerate(stakes.bets):
        observed = Fraction(tally.net[index], rounds * unit)
        # Σ (net_s - observed · rounds_s)², each shoe's net in stake units, exactly.
        spread = (
            Fraction(tally.net_squared[index], unit * unit)
            - 2 * observed * Fraction(tally.net_by_rounds[index], unit)
            + observed * observed * tally.rounds_squared
        )
        error = sqrt(shoes / (shoes - 1) * float(spread)) / rounds
        measured.append(BetReturn(bet, rounds, observed, error))
    return tuple(measured)


def simulate(
    rules: Rules,
    seed: str,
    shoes: int,
    *,
    shuffle: Shuffle = "service",
    progress: Callable[[int], object] | None = None,
) -> Simulation:
    """Deal ``shoes`` shoes from ``seed`` under ``rules`` and settle one unit
    on every offered bet each round; ``progress(shoes)`` after each batch."""
    if shoes < 2:
        raise ValueError("a confidence interval needs at least 2 shoes")
    found = tally_shoes(rules, seed, 0, shoes, shuffle=shuffle, progress=progress)
    return Simulation(seed, shoes, found.rounds, returns(found, rules), found)
