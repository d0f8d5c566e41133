"""Dealing many seeded shoes and measuring what each bet returned: a check
on the exact odds by another road, tallied exactly.

Shoe ``i`` (``i = 0, 1, ...``) is shuffled from the server seed with an
empty client seed and nonce ``i`` (so shoe 0 is the shoe of the plain seed),
and dealt as the table deals (:func:`deal_as_table`): whole as :mod:`.shoes.deal`
deals it (burn, rounds, cut card, one more round), or, at a table that
reshuffles after each hand, its one round from the top without burn, as
``POST /v1/rounds`` deals a seeded round there. On every round one unit is
staked on every bet the table offers.
The shoes are dealt many at a time by :mod:`.counting.batch`, each round kept as its
signature (all that a pay table reads), so what a run found is a
:class:`Tally` of integers: rounds per signature, from which every line of
every pay table is counted, and per bet the moments of each shoe's net that
the confidence interval needs. A return is a :class:`~fractions.Fraction`,
never a sum of floats.

A tally covers shoes by number, whoever dealt them: :func:`tally_shoes`
deals shoes ``first .. first + count - 1``, and tallies add up (``a + b``,
or ``sum(parts)``), so a run split across processes or machines gives the
same counts as one run in one process, however it is split. A tally is a
small picklable value of ints that says what it counted (the rules' id, how
the table deals, which the id leaves out, the seed, the shuffle, the ranges
of shoe numbers): adding tallies of other rules or dealing, another seed or
shuffle, or of a shoe counted twice is refused.

Rounds of one shoe are not independent (they share its cards), shoes are:
the confidence interval treats each shoe as one observation of (net,
rounds) and uses the ratio estimator's standard error with a normal
quantile. Averaged over whole shoes a bet's return is not exactly its
return on a full shoe (where the cut card falls depends on the cards dealt
before it), but the difference is far below what a simulation can see. At a
table that reshuffles after each hand it is exactly that return: each round
is the first of a full shoe, no card burned, and a shoe is one round.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, sqrt
from statistics import NormalDist
from typing import Literal

import numpy as np

from ..bets.types import BetType
from ..counting import batch
from ..counting.round_counts import SIGNATURES
from ..tables.payouts import pay_table
from ..tables.rules import Dealing, Rules
from .exact import settling_lines

#: Shoes dealt together: large enough that numpy's work dominates, small
#: enough to keep a batch's arrays to a few megabytes. Batches start at
#: multiples of it, so each one falls in one numpy :data:`BLOCK`.
BATCH = 1_000
#: Shoes per numpy generator stream: shoe ``i`` is always in block ``i // BLOCK``.
BLOCK = 1_000
Shuffle = Literal["service", "numpy"]
SHUFFLES: tuple[Shuffle, ...] = ("service", "numpy")
#: The most shoes one ``simulate`` call deals (10⁶ shoes are about 80
#: million rounds); larger runs are split with :func:`tally_shoes`.
MAX_SHOES = 1_000_000
#: Per-shoe sums of a batch are kept in int64 while their squares summed
#: over the batch stay below this; past it they are summed as Python ints.
_INT64_SAFE = 2**62


@dataclass(frozen=True, slots=True)
class Stakes:
    """What one unit on each offered bet nets on a round of each signature,
    in units of ``1 / denominator`` of the stake (exact integers)."""

    bets: tuple[BetType, ...]
    denominator: int
    #: Per bet: the line of its pay table that settles each signature
    #: (:func:`.odds.exact.settling_lines`; the number of lines: none, a loss).
    lines: tuple[batch.Array, ...]
    #: Per bet: what a unit staked nets on each line, the loss last (exact).
    pays: tuple[tuple[Fraction, ...], ...]
    #: Net per bet (row) and signature index (column), in ``1 / denominator``.
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
        lines = tuple(np.asarray(line_of, dtype=np.int64) for line_of, _ in settled)
        return cls(rules.bet_types, denominator, lines, tuple(nets for _, nets in settled), by_signature)


def merge_ranges(ranges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Half-open ranges of shoe numbers in order, touching ones joined; a
    shoe in two of them is refused."""
    merged: list[tuple[int, int]] = []
    for first, end in sorted(ranges):
        if merged and first < merged[-1][1]:
            raise ValueError(f"shoes {first} to {min(end, merged[-1][1]) - 1} are counted twice")
        if merged and first == merged[-1][1]:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((first, end))
    return tuple(merged)


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


@dataclass(frozen=True)
class Tally:
    """What a run of shoes found, in integers; tallies of other shoes of the
    same run add up (``a + b``, ``sum(tallies)``)."""

    #: What was counted: the rules' :attr:`~.tables.rules.Rules.id`, how the
    #: table deals (:class:`~.tables.rules.Dealing`, which the id leaves out),
    #: the seed and the shuffle.
    rules_id: str
    dealing: str
    seed: str
    shuffle: Shuffle
    #: The shoe numbers counted, as half-open ranges ``(first, end)`` in order.
    ranges: tuple[tuple[int, int], ...]
    rounds: int
    #: Rounds per signature index (:attr:`.counting.round_counts.Signature.index`).
    by_signature: tuple[int, ...]
    #: Over the shoes, the sum of each shoe's rounds squared.
    rounds_squared: int
    #: Per offered bet: the sum over shoes of each shoe's net (in stake units
    #: of ``1 / Stakes.denominator``), of its square, and of it times the shoe's rounds.
    net: tuple[int, ...]
    net_squared: tuple[int, ...]
    net_by_rounds: tuple[int, ...]

    @property
    def shoes(self) -> int:
        """How many shoes were counted."""
        return sum(end - first for first, end in self.ranges)

    @classmethod
    def empty(cls, rules: Rules, seed: str, shuffle: Shuffle = "service") -> Tally:
        """No shoe counted yet."""
        zeros = (0,) * len(rules.bet_types)
        return cls(
            rules.id, str(rules.dealing), seed, shuffle, (), 0, (0,) * SIGNATURES, 0, zeros, zeros, zeros
        )

    def __add__(self, other: Tally) -> Tally:
        mine = (self.rules_id, self.dealing, self.seed, self.shuffle)
        theirs = (other.rules_id, other.dealing, other.seed, other.shuffle)
        if mine != theirs:
            raise ValueError(
                f"cannot add tallies of other runs: (rules id, dealing, seed, shuffle) {mine} and {theirs}"
            )
        return Tally(
            self.rules_id,
            self.dealing,
            self.seed,
            self.shuffle,
            merge_ranges(self.ranges + other.ranges),
            self.rounds + other.rounds,
            _add(self.by_signature, other.by_signature),
            self.rounds_squared + other.rounds_squared,
            _add(self.net, other.net),
            _add(self.net_squared, other.net_squared),
            _add(self.net_by_rounds, other.net_by_rounds),
        )

    def __radd__(self, other: object) -> Tally:
        """``0 + tally`` is the tally, so that ``sum(tallies)`` needs no start."""
        if other == 0:
            return self
        return NotImplemented

    def line_counts(self, rules: Rules) -> dict[BetType, tuple[int, ...]]:
        """Per offered bet, the rounds settled by each line of its pay table,
        the rounds no line covered (lost) last."""
        self._check(rules)
        stakes = Stakes.of(rules)
        counts = np.array(self.by_signature, dtype=object)
        return {
            bet: tuple(int(counts[lines == line].sum()) for line in range(len(stakes.pays[index])))
            for index, (bet, lines) in enumerate(zip(stakes.bets, stakes.lines, strict=True))
        }

    def _check(self, rules: Rules) -> None:
        if (rules.id, str(rules.dealing)) != (self.rules_id, self.dealing):
            raise ValueError(
                f"this tally was counted under rules {self.rules_id} dealt {self.dealing}, "
                f"not {rules.id} dealt {rules.dealing}"
            )


def deal_as_table(shoes: batch.Array, rules: Rules) -> batch.Dealt:
    """Each shoe (row) of ``shoes`` dealt as the table deals: whole (burn, cut
    card), or at a table that reshuffles after each hand its one round from
    the top, no burn (each shuffle the hand's own)."""
    if rules.dealing is Dealing.RESHUFFLE_EACH_HAND:
        return batch.deal_tops(shoes)
    return batch.deal(shoes, cut_card=rules.cut_card)


def _sum(values: batch.Array) -> int:
    return int(values.sum())


def tally(
    dealt: batch.Dealt, stakes: Stakes, *, rules: Rules, seed: str, shuffle: Shuffle, first: int
) -> Tally:
    """The tally of dealt shoes, numbered from ``first``."""
    dealt_mask = dealt.signatures >= 0
    signatures = np.where(dealt_mask, dealt.signatures, 0)
    per_shoe = [np.where(dealt_mask, nets[signatures], 0).sum(axis=1) for nets in stakes.nets]
    rounds = dealt.rounds
    shoes = len(rounds)
    peak = max((int(np.abs(net).max()) for net in per_shoe), default=0)
    if peak * peak * shoes >= _INT64_SAFE:  # no catalogue pay comes near; a guard, not a path
        per_shoe = [net.astype(object) for net in per_shoe]
    return Tally(
        rules_id=rules.id,
        dealing=str(rules.dealing),
        seed=seed,
        shuffle=shuffle,
        ranges=((first, first + shoes),) if shoes else (),
        rounds=_sum(rounds),
        by_signature=tuple(dealt.signature_counts().tolist()),
        rounds_squared=_sum(rounds * rounds),
        net=tuple(_sum(net) for net in per_shoe),
        net_squared=tuple(_sum(net * net) for net in per_shoe),
        net_by_rounds=tuple(_sum(net * rounds) for net in per_shoe),
    )


def shoes_of(seed: str, first: int, count: int, decks: int, shuffle: Shuffle = "service") -> batch.Array:
    """Shoes ``first .. first + count - 1`` of ``seed``: the service's seeded
    shuffle, or numpy's generator seeded from the SHA-256 of ``seed`` and the shoe's block
    (every shoe of a block is shuffled, whichever of them are asked for)."""
    if shuffle == "service":
        return batch.seeded_shoes(seed, first, count, decks)
    blocks = []
    entropy = int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big")  # every seed its own stream
    for block in range(first // BLOCK, (first + count - 1) // BLOCK + 1):
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=(block,))))
        blocks.append(batch.numpy_shoes(rng, BLOCK, decks))
    start = first - (first // BLOCK) * BLOCK
    return np.concatenate(blocks)[start : start + count]


def batches(first: int, count: int, size: int | None = None) -> list[tuple[int, int]]:
    """Shoes ``first .. first + count - 1`` as ``(first, count)`` pieces of
    at most ``size`` (:data:`BATCH`) shoes, cut at multiples of ``size``:
    how :func:`tally_shoes` deals them, and a way to hand them to workers.

    >>> batches(1_500, 2_700)
    [(1500, 500), (2000, 1000), (3000, 1000), (4000, 200)]
    """
    size = BATCH if size is None else size
    pieces, start, end = [], first, first + count
    while start < end:
        stop = min(end, (start // size + 1) * size)
        pieces.append((start, stop - start))
        start = stop
    return pieces


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
    as the table deals them (:func:`deal_as_table`) and tally them; ``progress(shoes)``
    after each batch with the shoes it dealt. Shoe ``i`` is the same shoe whichever call deals it."""
    if first < 0 or count < 0:
        raise ValueError("shoe numbers start at 0, and a count is never negative")
    stakes = Stakes.of(rules)
    total = Tally.empty(rules, seed, shuffle)
    for start, size in batches(first, count):
        shoes = shoes_of(seed, start, size, rules.decks, shuffle)
        total += tally(
            deal_as_table(shoes, rules), stakes, rules=rules, seed=seed, shuffle=shuffle, first=start
        )
        if progress is not None:
            progress(size)
    return total


@dataclass(frozen=True, slots=True)
class BetReturn:
    """What one bet returned over the simulation, per unit staked."""

    bet: BetType
    rounds: int
    #: Net won (negative: lost) per unit staked, over every round: exact.
    observed: Fraction
    #: Standard error of :attr:`observed` (shoes as independent clusters).
    standard_error: float
    #: Rounds settled by each line of the bet's pay table, the rounds it lost last.
    lines: tuple[int, ...] = ()

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
    """Each offered bet's return, from a tally of at least 2 shoes under ``rules``.

    The return is the rounds of each pay-table line times what the line pays,
    exactly, over the rounds; its standard error comes from the spread of
    the shoes' nets about it (the ratio estimator)."""
    if tally.shoes < 2:
        raise ValueError("a confidence interval needs at least 2 shoes")
    counts = tally.line_counts(rules)
    stakes = Stakes.of(rules)
    shoes, rounds, unit = tally.shoes, tally.rounds, stakes.denominator
    measured = []
    for index, bet in enumerate(stakes.bets):
        lines = counts[bet]
        observed = sum(
            (count * pay for count, pay in zip(lines, stakes.pays[index], strict=True)), Fraction(0)
        )
        observed /= rounds
        # Σ (net_s - observed · rounds_s)², each shoe's net in stake units, exactly.
        spread = (
            Fraction(tally.net_squared[index], unit * unit)
            - 2 * observed * Fraction(tally.net_by_rounds[index], unit)
            + observed * observed * tally.rounds_squared
        )
        error = sqrt(shoes / (shoes - 1) * float(spread)) / rounds
        measured.append(BetReturn(bet, rounds, observed, error, lines))
    return tuple(measured)


def simulate(
    rules: Rules,
    seed: str,
    shoes: int,
    *,
    shuffle: Shuffle = "service",
    progress: Callable[[int], object] | None = None,
) -> Simulation:
    """Deal shoes ``0 .. shoes - 1`` of ``seed`` under ``rules`` and settle
    one unit on every offered bet each round; ``progress(shoes)`` after each batch."""
    if shoes < 2:
        raise ValueError("a confidence interval needs at least 2 shoes")
    found = tally_shoes(rules, seed, 0, shoes, shuffle=shuffle, progress=progress)
    return Simulation(seed, shoes, found.rounds, returns(found, rules), found)
