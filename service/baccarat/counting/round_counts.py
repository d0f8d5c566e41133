"""Counting every round a shoe can deal: exactly, with integers, and fast.

Every pay table reads a finished round through a few facts only: each
hand's final total, whether it drew a third card, and how its first two
cards pair (``none``, a ``pair`` of one rank in two suits, or a ``perfect``
pair: the same card twice). Those facts are the round's :class:`Signature`;
there are at most 3,600. This module counts, for a shoe :class:`Composition`,
the ordered six-card sequences the shoe can deal that give each signature
(the unused cards of a four- or five-card round fill the six in any order,
as DESIGN §8 counts them). The counts are exact integers.

How, without visiting the 473,000 value sequences one by one:

1. **First four cards** (P1, B1, P2, B2): for each of the 10⁴ tuples of point
   values, the ordered ways to draw them are a product of falling factorials
   of the value counts. Pairing splits a tuple only where P1 and P2 (or B1 and
   B2) share a value; the split is a closed form in the per-card counts
   (:func:`_pairing_weights`), joint for the ten tuples of four equal values.
2. **Moments.** What the third cards can be depends on the first four only
   through their two totals, their pairing and the values they took out of
   the shoe, ``m``. With ``n`` the shoe's value counts, the Player's third card
   ``x`` and the Banker's ``y`` are drawn in ``(n[x] - m[x]) * (n[y] - [x = y] - m[y])``
   ways, a polynomial of degree two in ``m``. So the tuples are summed per key
   (totals, pairings) into ``Σw``, ``Σw·m[x]`` and ``Σw·m[x]·m[y]``, and every
   third-card count follows from these moments in closed form.
3. **Tableau.** Each key's draws are sent to their signatures by the tableau
   (:mod:`.rulebook.tableau`), once per process: which cells of the moment arrays go to
   which signature does not depend on the shoe.

Steps 1-3 are a few dozen numpy operations on arrays of up to 10⁵ integers,
all in int64 and so exact: no count or term comes near 2⁶³ (the largest
count, the six-card sequences of an 8-deck shoe, is under 2⁵³, so it is
exact in any JSON reader too). Sums by key are a sorted ``add.reduceat``,
never a float histogram.

>>> from service.baccarat.shoes.composition import full_shoe
>>> counts = count_rounds(full_shoe(8))
>>> counts.sequences
4998398275503360
>>> sum(count for signature, count in counts.items() if signature.outcome == "banker")
2292252566437888
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import product

import numpy as np
import numpy.typing as npt

from ..rulebook.cards import DECK, MAX_DECKS, RANKS, SUITS, Card
from ..rulebook.coup import Coup, deal
from ..rulebook.tableau import banker_draws, is_natural, player_draws
from ..shoes.composition import Composition

Ints = npt.NDArray[np.int64]

#: How a hand's first two cards pair, in signature order.
PAIRINGS = ("none", "pair", "perfect")
NONE, PAIR, PERFECT = range(3)
_KEYS = 10 * 10 * 3 * 3  # (player two-card total, banker two-card total, pairings)
SIGNATURES = 10 * 10 * 2 * 2 * 3 * 3
_VALUES = tuple(tuple(rank for rank in RANKS if Card(rank, "S").points == value) for value in range(10))


@dataclass(frozen=True, slots=True)
class Signature:
    """What the pay tables can see of a finished round."""

    player_total: int
    banker_total: int
    player_drew: bool
    banker_drew: bool
    player_pairing: int
    banker_pairing: int

    @property
    def index(self) -> int:
        """Position in the arrays of counts, 0 to :data:`SIGNATURES` - 1."""
        index = (self.player_total * 10 + self.banker_total) * 4 + self.player_drew * 2 + self.banker_drew
        return (index * 3 + self.player_pairing) * 3 + self.banker_pairing

    @property
    def outcome(self) -> str:
        if self.player_total == self.banker_total:
            return "tie"
        return "player" if self.player_total > self.banker_total else "banker"

    @classmethod
    def of(cls, coup: Coup) -> Signature:
        """The signature of a dealt round."""
        return cls(
            coup.player.total,
            coup.banker.total,
            len(coup.player.cards) == 3,
            len(coup.banker.cards) == 3,
            PERFECT if coup.player.perfect_pair else PAIR if coup.player.pair else NONE,
            PERFECT if coup.banker.perfect_pair else PAIR if coup.banker.pair else NONE,
        )


@dataclass(frozen=True)
class RoundCounts:
    """Ordered six-card sequences per signature, and in all."""

    sequences: int
    #: Count per signature index (:attr:`Signature.index`).
    by_signature: Ints

    def items(self) -> Iterator[tuple[Signature, int]]:
        """Each signature a round can have, with its count (zeros included)."""
        for signature in structure().examples:
            yield signature, int(self.by_signature[signature.index])


class _Grouping:
    """Sums of a vector's entries by target index, exactly, in int64: the
    order and the segments are worked out once, the sums per call."""

    def __init__(self, sources: Ints, targets: Ints, size: int) -> None:
        order = np.argsort(targets, kind="stable")
        self.sources = sources[order]
        ordered = targets[order]
        self.starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        self.targets = ordered[self.starts]
        self.size = size

    def __call__(self, values: Ints) -> Ints:
        sums = np.zeros(self.size, dtype=np.int64)
        sums[self.targets] = np.add.reduceat(values[self.sources], self.starts)
        return sums


@dataclass(frozen=True)
class _Structure:
    """Everything that depends on the tableau alone, not on the shoe."""

    #: Each tuple of four values (P1, B1, P2, B2), and how many of its
    #: earlier cards share each one's value (for the falling factorials).
    tuple_values: Ints
    earlier_equal: Ints
    #: Per first-four state (a tuple and its pairings): its tuple, the value
    #: whose count the Player's (Banker's) pairing splits, or 10 for none.
    state_tuple: Ints
    state_player_split: Ints
    state_banker_split: Ints
    state_pairings: Ints
    #: The states whose four cards share one value, the joint case.
    same_four: Ints
    same_four_value: Ints
    moments: _Grouping
    cells: _Grouping
    #: A dealt round for every signature some shoe can produce.
    examples: dict[Signature, Coup]


def _key(player: int, banker: int, player_pairing: int, banker_pairing: int) -> int:
    return ((player * 10 + banker) * 3 + player_pairing) * 3 + banker_pairing


def _hand(first: int, second: int, pairing: int) -> tuple[Card, Card]:
    """Two cards of these values that pair as ``pairing`` says."""
    card = Card(_VALUES[first][0], "S")
    if pairing == PERFECT:
        return card, card
    if pairing == PAIR:
        return card, Card(card.rank, "H")
    return card, Card(next(rank for rank in _VALUES[second] if rank != card.rank), "D")


def _pairings(first: int, second: int) -> tuple[int, ...]:
    """The pairings two cards of these values can have."""
    if first != second:
        return (NONE,)
    return (NONE, PAIR, PERFECT) if len(_VALUES[first]) > 1 else (PAIR, PERFECT)


@cache
def structure() -> _Structure:
    """Built on first use, then shared: it depends on no shoe and no request."""
    values = np.array(list(product(range(10), repeat=4)), dtype=np.int64)
    earlier = np.stack([(values[:, :i] == values[:, i : i + 1]).sum(axis=1) for i in range(4)], axis=1)
    states: list[tuple[int, int, int, int, int]] = []
    sources: list[int] = []
    targets: list[int] = []
    examples_of_key: dict[int, tuple[tuple[Card, ...], int, int]] = {}
    for index, (p1, b1, p2, b2) in enumerate(values.tolist()):
        player, banker = (p1 + p2) % 10, (b1 + b2) % 10
        for pp, bp in product(_pairings(p1, p2), _pairings(b1, b2)):
            state = len(states)
            states.append((index, p1 if p1 == p2 else 10, b1 if b1 == b2 else 10, pp, bp))
            key = _key(player, banker, pp, bp)
            (c1, c3), (c2, c4) = _hand(p1, p2, pp), _hand(b1, b2, bp)
            examples_of_key.setdefault(key, ((c1, c2, c3, c4), player, banker))
            # Σw at key, Σw·m[x] at (key, x), Σw·m[x]·m[y] at (key, x, y).
            four = (p1, b1, p2, b2)
            sources.append(state)
            targets.append(key)
            for i in four:
                sources.append(state)
                targets.append(_KEYS + key * 10 + i)
                for j in four:
                    sources.append(state)
                    targets.append(_KEYS * 11 + (key * 10 + i) * 10 + j)
    table = np.array(states, dtype=np.int64)
    same = np.flatnonzero((values[table[:, 0]] == values[table[:, 0], :1]).all(axis=1))
    cell_sources, cell_targets, examples = _cells(examples_of_key)
    return _Structure(
        tuple_values=values,
        earlier_equal=earlier,
        state_tuple=table[:, 0],
        state_player_split=table[:, 1],
        state_banker_split=table[:, 2],
        state_pairings=table[:, 3:],
        same_four=same,
        same_four_value=values[table[same, 0], 0],
        moments=_Grouping(np.array(sources), np.array(targets), _KEYS * 111),
        cells=_Grouping(np.array(cell_sources), np.array(cell_targets), SIGNATURES),
        examples=examples,
    )


def _cells(
    examples_of_key: dict[int, tuple[tuple[Card, ...], int, int]],
) -> tuple[list[int], list[int], dict[Signature, Coup]]:
    """Where each key's draws go by the tableau. The cells are laid out as
    :func:`count_rounds` lays out its counts: no third card (one per key),
    one third card (ten per key), two third cards (a hundred per key)."""
    sources: list[int] = []
    targets: list[int] = []
    examples: dict[Signature, Coup] = {}

    def send(cell: int, cards: tuple[Card, ...]) -> None:
        coup = deal(cards)
        signature = Signature.of(coup)
        examples.setdefault(signature, coup)
        sources.append(cell)
        targets.append(signature.index)

    for key, (first_four, player, banker) in sorted(examples_of_key.items()):
        if is_natural(player) or is_natural(banker):
            send(key, first_four)
        elif not player_draws(player)[0]:
            if banker_draws(banker, None)[0]:
                for y in range(10):
                    send(_KEYS + key * 10 + y, (*first_four, Card(_VALUES[y][0], "C")))
            else:
                send(key, first_four)
        else:
            for x in range(10):
                third = Card(_VALUES[x][0], "C")
                if banker_draws(banker, x)[0]:
                    for y in range(10):
                        cell = _KEYS * 11 + (key * 10 + x) * 10 + y
                        send(cell, (*first_four, third, Card(_VALUES[y][0], "C")))
                else:
                    send(_KEYS + key * 10 + x, (*first_four, third))
    return sources, targets, examples


def _pairing_weights(composition: Composition) -> tuple[Ints, Ints]:
    """Per value, the ordered ways to draw two of its cards by pairing
    (none, pair, perfect), and the joint ways to draw four (Player's two,
    Banker's two) by both pairings.

    With ``c`` the count of each card, ``R`` of each rank and ``n`` of the
    value: perfect ``Σc² - n``, pair ``ΣR² - Σc²``, none ``n² - ΣR²``. The joint
    case goes over the Player's two cards and applies the same closed form to
    what they leave.
    """
    counts = np.zeros((10, 16), dtype=np.int64)  # per value, its cards rank by rank, suit by suit
    rank_of = np.arange(16) // 4
    for card, count in zip(DECK, composition.counts, strict=True):
        ranks = _VALUES[card.points]
        counts[card.points, ranks.index(card.rank) * 4 + SUITS.index(card.suit)] = count
    by_rank = counts.reshape(10, 4, 4).sum(axis=2)
    n, q, rr = counts.sum(axis=1), (counts**2).sum(axis=1), (by_rank**2).sum(axis=1)
    two = np.stack([n * n - rr, rr - q, q - n], axis=1)

    same_card = np.eye(16, dtype=np.int64)
    same_rank = (rank_of[:, None] == rank_of[None, :]).astype(np.int64)
    first, second = counts[:, :, None], counts[:, None, :] - same_card
    ways = first * second
    player = 2 * same_card + (same_rank - same_card)  # the Player's pairing of each two cards
    rank_count = by_rank[:, rank_of]
    left_q = q[:, None, None] - (2 * first - 1) - (2 * second - 1)
    left_rr = (
        rr[:, None, None] - (2 * rank_count[:, :, None] - 1) - (2 * (rank_count[:, None, :] - same_rank) - 1)
    )
    left = (n - 2)[:, None, None]
    banker = np.stack([left * left - left_rr, left_rr - left_q, left_q - left], axis=-1)
    joint = np.zeros((10, 3, 3), dtype=np.int64)
    for pairing in range(3):
        mask = (player == pairing)[None, :, :, None]
        joint[:, pairing, :] = (np.where(mask, ways[..., None] * banker, 0)).sum(axis=(1, 2))
    return two, joint


def count_rounds(composition: Composition) -> RoundCounts:
    """The ordered six-card sequences ``composition`` can deal, per signature."""
    if composition.total > 52 * MAX_DECKS:
        raise ValueError("the counts are exact in int64 for shoes of at most 8 decks")
    s = structure()
    n = np.array(composition.by_value, dtype=np.int64)
    total = int(n.sum())

    # 1. First four cards: falling factorials per tuple, split by pairing.
    factors = n[s.tuple_values] - s.earlier_equal
    first_four = factors[:, 0] * factors[:, 1] * factors[:, 2] * factors[:, 3]
    two, joint = _pairing_weights(composition)
    pairs = n * (n - 1)
    divisor = np.r_[np.where(pairs > 0, pairs, 1), 1]
    split = np.vstack([two, np.ones((1, 3), dtype=np.int64)])
    player, banker = s.state_player_split, s.state_banker_split
    weights = (
        first_four[s.state_tuple]
        // (divisor[player] * divisor[banker])
        * split[player, s.state_pairings[:, 0]]
        * split[banker, s.state_pairings[:, 1]]
    )
    same = s.same_four
    weights[same] = joint[s.same_four_value, s.state_pairings[same, 0], s.state_pairings[same, 1]]

    # 2. Moments per key, then the third cards in closed form.
    moments = s.moments(weights)
    m0 = moments[:_KEYS]
    m1 = moments[_KEYS : _KEYS * 11].reshape(_KEYS, 10)
    m2 = moments[_KEYS * 11 :].reshape(_KEYS, 10, 10)
    second_left = n[None, :] - np.eye(10, dtype=np.int64)  # n[y] - [x = y]
    one_card = n[None, :] * m0[:, None] - m1
    two_cards = (
        (n[:, None] * second_left)[None] * m0[:, None, None]
        - n[None, :, None] * m1[:, None, :]
        - second_left[None] * m1[:, :, None]
        + m2
    )

    # 3. The tableau sends each cell to its signature; unused cards fill the six.
    cells = np.concatenate(
        [m0 * ((total - 4) * (total - 5)), one_card.ravel() * (total - 5), two_cards.ravel()]
    )
    sequences = 1
    for drawn in range(6):
        sequences *= total - drawn
    return RoundCounts(sequences, s.cells(cells))


def signature_coup(signature: Signature) -> Coup:
    """A dealt round with this signature (``KeyError`` for one no shoe deals)."""
    return structure().examples[signature]
