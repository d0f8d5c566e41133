"""Exact returns of multiplier bets, for any weights and any shoe: counted, not simulated.

A bet's multiplier depends on its counted cards only through their
*pattern*: how many times each distinct card (rank and suit) is among them,
largest first. A Player hand ``7S 7S 2H`` has the pattern ``(2, 1)``; a
perfect pair ``(2,)``; a tie whose six cards are all different
``(1, 1, 1, 1, 1, 1)``. The multiplier cards are ``K`` distinct cards of the
52, drawn uniformly, ``K`` by its weight, each with a multiplier drawn by
weight, all independent of the cards dealt. So for a pattern of ``r``
distinct cards counted ``m_1, ..., m_r`` times, by expanding
``M = prod(1 + L_i * (v_i ** m_i - 1))`` (``L_i`` is 1 when card ``i`` is lit)::

    E[M | pattern] = sum over s of q_s * e_s(mu(m_1) - 1, ..., mu(m_r) - 1)
    q_s   = sum over K of P(K) * K! / (K - s)! * (52 - s)! / 52!   (s given cards all lit)
    mu(m) = sum over v of P(v) * v ** m                            (a lit card counted m times)

where ``e_s`` is the elementary symmetric polynomial of degree ``s``. A bet
paying ``p`` times the multiplier, keeping ``k`` of the stake on a win,
with a fee ``f``, then returns per unit it costs::

    (sum over patterns of P(win, pattern) * (1 - k + p * E[M | pattern])
     + P(push) * (1 + f if the fee comes back on a push else 1)) / (1 + f)

``P(win, pattern)`` is counted exactly over the ordered six-card sequences
a shoe can deal (as :mod:`.counting.round_counts` counts them, DESIGN §8), the shoe
given as how many it holds of each of the 52 cards (:class:`.Composition`:
full, less the cards dealt, or rank counts with suits spread evenly). The
pairs' patterns are the pairings :mod:`.counting.round_counts` already counts (a
perfect pair is ``(2,)``); the Player's, Banker's and tie's need which cards
are the same card, which values alone do not say. They are counted by the
partition of the six positions into runs of the same card: for each of the
203 set partitions and each choice of a value per part (3,243,110 in all,
enumerated once with numpy and shipped as data,
:data:`STRUCTURE_FILE`), the tableau gives the outcome and
so the counted positions' pattern; the ways a shoe deals it are a product,
over values, of the ways to give that value's parts distinct cards
(:func:`_block_ways`), counted for each shoe in a few milliseconds.

Why one module of this length: the pattern counts, the expected
multipliers and the returns are the one derivation written out above;
split, the formula would be read across files.

>>> from service.baccarat.multipliers.presets import PRESETS
>>> expected_multiplier(PRESETS["prosperity_tree"].rule, (1, 1))
Fraction(6743, 4992)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext
from enum import StrEnum
from fractions import Fraction
from functools import cache
from math import perm
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..bets.catalogue import standard
from ..bets.money import MONEY_DIGITS
from ..bets.paytable import NamedPayTable, Result, win
from ..bets.types import BetType
from ..counting.round_counts import PAIR, PERFECT, Ints, count_rounds
from ..rulebook.cards import DECK
from ..rulebook.tableau import banker_draws, player_draws
from ..shoes.composition import MIN_CARDS, Composition, full_shoe
from .rule import VIRTUAL_DECK, Counted, MultiplierRule, largest_multiplier

#: How many times each distinct counted card counts, largest first.
Pattern = tuple[int, ...]

_POSITIONS = 6


def _partitions(total: int, most: int | None = None) -> list[Pattern]:
    """The integer partitions of ``total``, largest part first."""
    if total == 0:
        return [()]
    most = total if most is None else most
    return [
        (first, *rest)
        for first in range(min(total, most), 0, -1)
        for rest in _partitions(total - first, first)
    ]


#: Every partition of 0 to 6: the patterns, and the sizes of the parts of one value.
PARTITIONS: tuple[Pattern, ...] = tuple(
    part for total in range(_POSITIONS + 1) for part in _partitions(total)
)
_PARTITION = {part: index for index, part in enumerate(PARTITIONS)}


def expected_multiplier(rule: MultiplierRule, pattern: Pattern, *, power: int = 1) -> Fraction:
    """``E[M ** power]`` for counted cards of this pattern under ``rule``."""
    card_total = sum(weight for _, weight in rule.card_weights)
    value_total = sum(weight for _, weight in rule.multiplier_weights)
    all_lit = [
        sum(
            (
                Fraction(weight * perm(count, s), card_total * perm(VIRTUAL_DECK, s))
                for count, weight in rule.card_weights
            ),
            Fraction(0),
        )
        for s in range(len(pattern) + 1)
    ]
    symmetric = [Fraction(1)] + [Fraction(0)] * len(pattern)
    for times in pattern:
        moment = sum(
            (
                Fraction(weight * value ** (times * power), value_total)
                for value, weight in rule.multiplier_weights
            ),
            Fraction(0),
        )
        for s in range(len(pattern), 0, -1):
            symmetric[s] += symmetric[s - 1] * (moment - 1)
    return sum((q * e for q, e in zip(all_lit, symmetric, strict=True)), Fraction(0))


# The round counted by the partition of its six positions into runs of one card.

#: Position sets whose pattern a bet reads: the Player's two or three cards,
#: the Banker's two or three (its third at position 4 when the Player stood),
#: the first four, five or six cards, and none (a tie has no winning hand).
_LAYOUTS = (
    (0, 2),
    (0, 2, 4),
    (1, 3),
    (1, 3, 4),
    (1, 3, 5),
    (0, 1, 2, 3),
    (0, 1, 2, 3, 4),
    tuple(range(6)),
    (),
)
_NO_LAYOUT = len(_LAYOUTS) - 1
#: The outcomes, in the order of the structure's keys.
_OUTCOMES = (BetType.PLAYER, BetType.BANKER, BetType.TIE)
_KEYS = len(_OUTCOMES) * len(PARTITIONS) ** 2
#: A part is written as one digit of base 61: its value times 6 plus its size less 1; 60 is no part.
_DIGIT, _NO_PART = 61, 60
#: How many choices of values are packed at once when the structure is built.
_BLOCK = 10**4
#: How many packed entries are kept before they are merged into distinct ones.
_PENDING = 3 * 10**5


def _set_partitions(size: int) -> list[tuple[int, ...]]:
    """Every partition of ``size`` positions, as each position's part number
    (restricted growth strings: a part is numbered when it first appears)."""
    found: list[tuple[int, ...]] = [()]
    for _ in range(size):
        found = [(*blocks, part) for blocks in found for part in range(max(blocks, default=-1) + 2)]
    return found


def _tableau() -> tuple[Ints, Ints, Ints]:
    """For each six values (position 0's the most significant digit): the
    outcome, the layout of the winning hand, and the layout of every card used."""
    values = np.indices((10,) * _POSITIONS, dtype=np.int8).reshape(_POSITIONS, -1)
    # The tableau by two-card total (and the Player's third card's value); naturals never draw.
    player_rule = np.array([t < 8 and player_draws(t)[0] for t in range(10)])
    banker_rule_stood = np.array([t < 8 and banker_draws(t, None)[0] for t in range(10)])
    banker_rule_drew = np.array([[t < 8 and banker_draws(t, x)[0] for x in range(10)] for t in range(10)])
    player, banker = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
    natural = (player >= 8) | (banker >= 8)
    player_drew = ~natural & player_rule[player]
    banker_drew = ~natural & np.where(
        player_drew, banker_rule_drew[banker, values[4]], banker_rule_stood[banker]
    )
    player = np.where(player_drew, (player + values[4]) % 10, player)
    banker = np.where(banker_drew, (banker + np.where(player_drew, values[5], values[4])) % 10, banker)
    outcome = np.where(player > banker, 0, np.where(banker > player, 1, 2))
    player_layout = np.where(player_drew, 1, 0)
    banker_layout = np.where(banker_drew, np.where(player_drew, 4, 3), 2)
    hand = np.where(outcome == 0, player_layout, np.where(outcome == 1, banker_layout, _NO_LAYOUT))
    every = 5 + player_drew.astype(np.int64) + banker_drew
    return outcome.astype(np.int64), hand.astype(np.int64), every.astype(np.int64)


@dataclass(frozen=True)
class _Structure:
    """Everything that depends on the tableau alone: the distinct (sizes of
    each value's parts, key) of every partition and choice of values, how
    many share each, sorted by key."""

    #: Per value, the index in :data:`PARTITIONS` of its parts' sizes; one column per entry.
    sizes: npt.NDArray[np.int16]
    many: Ints
    #: Each key once, ``(outcome * len(PARTITIONS) + hand pattern) * len(PARTITIONS) + all pattern``,
    #: and where its entries start.
    keys: Ints
    starts: Ints


#: :func:`build_structure`'s arrays, written when the tableau changes
#: (``python -m service.baccarat.multipliers.odds``) and shipped with the
#: package: a worker reads them in milliseconds instead of building them
#: (a second and a half, and some 40 MiB of heap a worker would keep).
#: tests/baccarat/multipliers/test_odds.py holds them equal to a build.
STRUCTURE_FILE = Path(__file__).with_name("structure.npz")
_ARRAYS = ("sizes", "many", "keys", "starts")


@cache
def _structure() -> _Structure:
    """Read from :data:`STRUCTURE_FILE` once, then shared: it depends on no shoe and no request."""
    with np.load(STRUCTURE_FILE) as stored:
        return _Structure(*(stored[name] for name in _ARRAYS))


def write_structure(path: Path = STRUCTURE_FILE) -> None:
    """Build the structure and write it to ``path`` (compressed numpy arrays)."""
    built = build_structure()
    np.savez_compressed(path, **{name: getattr(built, name) for name in _ARRAYS})


def build_structure() -> _Structure:
    """The structure worked out from the tableau (what :data:`STRUCTURE_FILE` holds)."""
    outcome, hand, every = _tableau()
    # Each partition's choices of values are packed a block at a time, and
    # only each block's distinct entries with their counts are kept: packing
    # all 10 ** 6 choices of the finest partition at once took some 250 MiB
    # of temporaries, which a worker's heap keeps once freed.
    found, counted = [], []
    for blocks in _set_partitions(_POSITIONS):
        parts = max(blocks) + 1
        part_sizes = np.bincount(blocks)
        pattern_of = np.array(
            [
                _PARTITION[tuple(sorted(Counter(blocks[p] for p in layout).values(), reverse=True))]
                for layout in _LAYOUTS
            ]
        )
        for start in range(0, 10**parts, _BLOCK):
            choice = np.arange(start, min(start + _BLOCK, 10**parts), dtype=np.int64)
            # The values of the parts, the first part's the slowest to vary.
            values = np.stack([choice // 10 ** (parts - 1 - part) % 10 for part in range(parts)])
            index = sum(
                values[part] * 10 ** (_POSITIONS - 1 - position) for position, part in enumerate(blocks)
            )
            hand_pattern, every_pattern = pattern_of[hand[index]], pattern_of[every[index]]
            key = (outcome[index] * len(PARTITIONS) + hand_pattern) * len(PARTITIONS) + every_pattern
            # The parts as sorted digits (value and size), so that equal multisets pack alike.
            digits = np.full((_POSITIONS, values.shape[1]), _NO_PART, dtype=np.int64)
            digits[:parts] = values * 6 + (part_sizes[:, None] - 1)
            digits.sort(axis=0)
            code = np.zeros(values.shape[1], dtype=np.int64)
            for row in digits[::-1]:
                code = code * _DIGIT + row
            distinct, times = np.unique(code * _KEYS + key, return_counts=True)
            found.append(distinct)
            counted.append(times)
            if sum(len(block) for block in found) > _PENDING:
                found, counted = _merged(found, counted)
    [entries], [many] = _merged(found, counted)
    key, code = entries % _KEYS, entries // _KEYS
    # Small integers kept small: the structure lives as long as the worker.
    by_size = np.zeros(7**5 + 1, dtype=np.int16)  # a value's parts by Σ 7 ** (size - 1)
    for part in PARTITIONS:
        by_size[sum(7 ** (size - 1) for size in part)] = _PARTITION[part]
    sevens = np.zeros((10, len(entries)), dtype=np.int32)
    columns = np.arange(len(entries))
    for _ in range(_POSITIONS):
        digit, code = code % _DIGIT, code // _DIGIT
        present = digit != _NO_PART
        np.add.at(sevens, (digit[present] // 6, columns[present]), 7 ** (digit[present] % 6))
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    sizes = by_size[sevens]
    del sevens
    return _Structure(sizes[:, order], many[order], ordered[starts], starts)


def _merged(found: list[Ints], counted: list[Ints]) -> tuple[list[Ints], list[Ints]]:
    """The distinct entries of ``found`` once each, with their counts summed."""
    entries, where = np.unique(np.concatenate(found), return_inverse=True)
    return [entries], [np.bincount(where, weights=np.concatenate(counted)).astype(np.int64)]


def prepare() -> None:
    """Read the round structure the returns are counted with (shared by the
    process from then on): the service calls it while it starts, so that no
    request waits for it."""
    _structure()


def _block_ways(counts: list[int], sizes: Pattern) -> int:
    """The ordered ways to draw parts of ``sizes`` cards from cards held
    ``counts`` times each, every part one card and no two parts the same card."""
    ways = {0: 1}  # by the parts given a card so far
    for count in counts:
        for given, so_far in list(ways.items()):
            for part, size in enumerate(sizes):
                if not given >> part & 1 and count >= size:
                    more = given | 1 << part
                    ways[more] = ways.get(more, 0) + so_far * perm(count, size)
    return ways.get((1 << len(sizes)) - 1, 0)


@dataclass(frozen=True)
class PatternCounts:
    """The ordered six-card sequences a shoe deals, by each bet's win and
    its counted cards' pattern, for each way of counting them."""

    sequences: int
    #: ``(bet, counted)`` -> pattern -> sequences in which the bet wins with that pattern.
    wins: Mapping[tuple[BetType, Counted], Mapping[Pattern, int]]
    #: Sequences in which a bet pushes (the Player and Banker bets on a tie).
    pushes: Mapping[BetType, int]


def pattern_counts(composition: Composition) -> PatternCounts:
    """Every bet's wins by pattern, and its pushes, for the next round dealt from ``composition``."""
    if composition.total < MIN_CARDS:
        raise ValueError(f"a shoe of {composition.total} cards cannot finish a round")
    s = _structure()
    ways = np.zeros((10, len(PARTITIONS)), dtype=np.int64)
    for value in range(10):
        counts = [count for card, count in zip(DECK, composition.counts, strict=True) if card.points == value]
        ways[value] = [_block_ways(counts, sizes) for sizes in PARTITIONS]
    dealt = np.ones(s.many.shape, dtype=np.int64)
    for value in range(10):
        dealt *= ways[value][s.sizes[value]]  # a product over some positions' cards: under 416 ** 6
    by_key = np.add.reduceat(dealt * s.many, s.starts)
    wins: defaultdict[tuple[BetType, Counted], defaultdict[Pattern, int]] = defaultdict(
        lambda: defaultdict(int)
    )
    for key, count in zip(s.keys.tolist(), by_key.tolist(), strict=True):
        if not count:
            continue  # a pattern this shoe cannot deal (a card twice from one deck)
        rest, every = divmod(key, len(PARTITIONS))
        outcome, hand = divmod(rest, len(PARTITIONS))
        bet = _OUTCOMES[outcome]
        if bet is not BetType.TIE:
            wins[bet, Counted.WINNING_HAND][PARTITIONS[hand]] += count
        wins[bet, Counted.ALL_CARDS][PARTITIONS[every]] += count
        wins[bet, Counted.NONE][()] += count
    rounds = count_rounds(composition)
    for signature, count in rounds.items():
        for bet, pairing in (
            (BetType.PLAYER_PAIR, signature.player_pairing),
            (BetType.BANKER_PAIR, signature.banker_pairing),
        ):
            if count and pairing in (PAIR, PERFECT):
                wins[bet, Counted.PAIRED_CARDS][(2,) if pairing == PERFECT else (1, 1)] += count
                wins[bet, Counted.NONE][()] += count
    ties = sum(wins[BetType.TIE, Counted.NONE].values())
    return PatternCounts(
        rounds.sequences,
        {where: dict(by_pattern) for where, by_pattern in wins.items()},
        {BetType.PLAYER: ties, BetType.BANKER: ties},
    )


def base_pay_table(rule: MultiplierRule, bet: BetType) -> NamedPayTable:
    """What ``bet`` pays under ``rule`` when no card it counts is lit, before
    the fee: its standard pay table's lines (which decide a win, a push or a
    loss, as the settlement asks them), each win paid the rule's base pay
    less the stake it keeps.

    >>> from service.baccarat.bets.paytable import pay_text
    >>> from service.baccarat.multipliers.presets import PRESETS
    >>> tie = base_pay_table(PRESETS["lightning"].rule, BetType.TIE)
    >>> tie.id, [(line.when, pay_text(line.payout)) for line in tie.lines]
    ('tie_8_to_1', [('the totals are equal', '5:1')])
    """
    pay = rule.pays[bet]
    table = standard(bet)
    paid = win(pay.pays, pay.stake_kept / pay.pays)
    lines = tuple(
        replace(line, payout=paid) if line.payout.result is Result.WIN else line for line in table.lines
    )
    return replace(table, lines=lines)


@dataclass(frozen=True, slots=True)
class PatternLine:
    """A bet's wins with one pattern: how likely, and the multiplier they expect."""

    pattern: Pattern
    probability: Fraction
    multiplier: Fraction


@dataclass(frozen=True, slots=True)
class BetReturn:
    """What a bet returns under a rule: every figure exact, per unit staked
    unless it says per unit of cost (the stake and its fee)."""

    bet: BetType
    lines: tuple[PatternLine, ...]
    #: The probability that the bet pushes.
    push: Fraction
    #: What a unit staked costs: 1 and the fee.
    cost: Fraction
    #: What comes back per unit staked, on average.
    returned: Fraction
    #: The variance of what comes back per unit of cost.
    variance: Fraction
    #: The most a unit staked wins on one round the shoe can deal (before any
    #: cap): the base pay times the largest multiplier of a pattern the bet
    #: wins with (:func:`.multipliers.rule.largest_multiplier`), less the
    #: stake kept; None where the shoe cannot deal the bet a win.
    largest: Decimal | None = None

    @property
    def win(self) -> Fraction:
        """The probability that the bet wins."""
        return sum((line.probability for line in self.lines), Fraction(0))

    @property
    def multiplier(self) -> Fraction | None:
        """The multiplier a win expects: ``E[M | the bet wins]``; None where
        the shoe cannot deal the bet a win, so no win expects anything."""
        win = self.win
        if not win:
            return None
        return sum((line.probability * line.multiplier for line in self.lines), Fraction(0)) / win

    @property
    def rtp(self) -> Fraction:
        """The return to player: what comes back per unit of cost."""
        return self.returned / self.cost

    @property
    def house_edge(self) -> Fraction:
        """What the house keeps per unit of cost: 1 - :attr:`rtp`."""
        return 1 - self.rtp


def _most_cards_first(item: tuple[Pattern, int]) -> tuple[int, Pattern]:
    pattern, _ = item
    return -sum(pattern), tuple(-times for times in pattern)


def bet_return(rule: MultiplierRule, bet: BetType, counts: PatternCounts) -> BetReturn:
    """What ``bet`` returns under ``rule`` from a shoe's :class:`PatternCounts`."""
    pay = rule.pays[bet]
    rate = Fraction(rule.fee.rate_on(bet))
    kept, pays = Fraction(pay.stake_kept), Fraction(pay.pays)
    push = Fraction(counts.pushes.get(bet, 0), counts.sequences)
    back_on_push = 1 + (rate if rule.fee.returned_on_push else 0)
    lines = tuple(
        PatternLine(pattern, Fraction(count, counts.sequences), expected_multiplier(rule, pattern))
        for pattern, count in sorted(counts.wins.get((bet, pay.counted), {}).items(), key=_most_cards_first)
    )
    returned = push * back_on_push + sum(
        (line.probability * (1 - kept + pays * line.multiplier) for line in lines), Fraction(0)
    )
    squared = push * back_on_push**2 + sum(
        (
            line.probability
            * (
                (1 - kept) ** 2
                + 2 * (1 - kept) * pays * line.multiplier
                + pays**2 * expected_multiplier(rule, line.pattern, power=2)
            )
            for line in lines
        ),
        Fraction(0),
    )
    cost = 1 + rate
    variance = (squared - returned**2) / cost**2
    largest = _largest(rule, bet, [line.pattern for line in lines])
    return BetReturn(bet, lines, push, cost, returned, variance, largest)


def _largest(rule: MultiplierRule, bet: BetType, patterns: Iterable[Pattern]) -> Decimal | None:
    """:attr:`BetReturn.largest` of ``bet``, from the patterns it wins with."""
    multiplier = max((largest_multiplier(rule, pattern) for pattern in patterns), default=None)
    if multiplier is None:
        return None
    pay = rule.pays[bet]
    with localcontext() as context:
        context.prec = MONEY_DIGITS  # exact: at most 10 ** 22 and the stake kept's decimals
        return pay.pays * multiplier - pay.stake_kept


def largest_pays(rule: MultiplierRule, composition: Composition | None = None) -> dict[BetType, Decimal]:
    """Each bet's largest win per unit staked (before any cap) on a round
    dealt from ``composition`` (a full 8-deck shoe when None), each bet that
    the shoe can deal a win: only patterns such a round has count, lit by
    no more multiplier cards than the rule draws. Eight decks deal six K♠,
    all lit by one card; one deck deals six different cards, and Lightning
    lights at most five.

    >>> from service.baccarat.multipliers.presets import PRESETS
    >>> rule = PRESETS["lightning"].rule
    >>> largest_pays(rule)[BetType.TIE], largest_pays(rule, full_shoe(1))[BetType.TIE]
    (Decimal('1310720'), Decimal('163840'))
    >>> pays = largest_pays(rule)
    >>> pays[BetType.BANKER], pays[BetType.PLAYER_PAIR]
    (Decimal('511.95'), Decimal('576'))
    """
    counts = pattern_counts(composition or full_shoe(8))
    found = {}
    for bet, pay in rule.pays.items():
        largest = _largest(rule, bet, counts.wins.get((bet, pay.counted), {}))
        if largest is not None:
            found[bet] = largest
    return found


@dataclass(frozen=True)
class MultiplierReturns:
    """Every bet of a rule with what it returns, for one shoe."""

    rule: MultiplierRule
    composition: Composition
    sequences: int
    bets: Mapping[BetType, BetReturn]

    @property
    def returns(self) -> tuple[BetReturn, ...]:
        """Every bet's return, in :class:`.BetType` order."""
        return tuple(self.bets.values())

    @property
    def warnings(self) -> tuple[ReturnWarning, ...]:
        """What a program should know before offering the rule: each bet
        that returns more than it costs (an operator's rule may)."""
        return tuple(
            ReturnWarning(WarningCode.RETURN_OVER_COST, bet.bet, bet.rtp)
            for bet in self.returns
            if bet.rtp > 1
        )


class WarningCode(StrEnum):
    """What is worth a warning in a rule's returns, for a machine: a closed set."""

    #: The bet returns more than it costs: the house loses on it in the long run.
    RETURN_OVER_COST = "return_over_cost"


@dataclass(frozen=True, slots=True)
class ReturnWarning:
    """A warning about one bet's return under a rule."""

    code: WarningCode
    bet: BetType
    rtp: Fraction


def multiplier_returns(rule: MultiplierRule, composition: Composition | None = None) -> MultiplierReturns:
    """What each bet ``rule`` pays returns for the next round dealt from
    ``composition`` (a full 8-deck shoe when None)."""
    shoe = composition or full_shoe(8)
    counts = pattern_counts(shoe)
    bets = {bet: bet_return(rule, bet, counts) for bet in rule.bet_types}
    return MultiplierReturns(rule, shoe, counts.sequences, bets)


if __name__ == "__main__":
    write_structure()
