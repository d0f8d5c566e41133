"""Many shoes dealt at once with numpy, each round reduced to what pays on it.

A batch is a 2-D array of card indices, one shoe a row, position 0 the top.
A card's index is its place in a fresh deck (:data:`.rulebook.cards.DECK`: suits
S, H, D, C, ranks A to K), so a shoe of :func:`.rulebook.cards.shoe` is ``0 .. 51``
deck after deck. :func:`deal` deals every shoe of a batch whole, exactly as
:func:`.shoes.deal.deal_shoe` deals one (burn, rounds by the tableau, the cut
card, one more round), going round by round across all the shoes at once;
:func:`deal_tops` deals one round from the top of each, no burn, as a table
that reshuffles after each hand deals each shuffle.

Each round is kept as its :class:`.counting.round_counts.Signature` (its totals,
whether each hand drew, how each hand's first two cards pair): every pay
table reads a round through that and nothing else, so integer counts per
signature give the exact count of every line of every pay table, and
tests/baccarat/counting/test_batch.py holds each round to the scalar engine's.

The tableau's decisions are the rulebook's own functions
(:mod:`.rulebook.tableau`), tabulated once at import for every total and third card.

Two ways to fill a batch:

* :func:`seeded_shoes`: the service's own seeded shuffle
  (``hmac-sha256-fisher-yates/v1``, docs/fairness.md), shoe ``i`` from
  ``SeedInputs(seed, "", first + i)``: the very shoes
  :func:`.shoes.shuffle.shuffled_shoe` gives, made faster by reading the HMAC
  stream in whole blocks and doing the swaps of every shoe at once;
* :func:`numpy_shoes`: shoes shuffled by a numpy ``Generator`` (faster, for
  studies that need no link to the service's seeds).

>>> dealt = deal(np.arange(52)[None, :], cut_card=14)  # an unshuffled deck: AS burns 2
>>> int(dealt.rounds[0]), [int(start) for start in dealt.starts[0, :3]]
(9, [2, 6, 10])
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..rulebook.cards import DECK
from ..rulebook.tableau import banker_draws, is_natural, player_draws
from ..shoes.deal import DEFAULT_CUT_CARD, check_cut_card
from ..shoes.shuffle import SeedInputs
from .round_counts import NONE, PAIR, PERFECT, SIGNATURES

Array = npt.NDArray[np.int64]
#: Words of the seeded stream are 32 bits (docs/fairness.md).
WORD = 2**32

#: Baccarat points and burn pips of each card index.
POINTS: Array = np.array([card.points for card in DECK], dtype=np.int64)
PIPS: Array = np.array([card.pip for card in DECK], dtype=np.int64)
#: Rank of each card index (0 = ace ... 12 = king): a pair is two of one rank.
RANKS: Array = np.arange(52, dtype=np.int64) % 13

#: Whether the Player draws on each two-card total.
PLAYER_DRAWS = np.array([player_draws(total)[0] for total in range(10)])
#: Whether the Banker draws on each two-card total when the Player stood.
BANKER_DRAWS_PLAYER_STOOD = np.array([banker_draws(total, None)[0] for total in range(10)])
NATURAL = np.array([is_natural(total) for total in range(10)])
#: Whether the Banker draws on each two-card total (row) and value of the
#: Player's third card (column); a natural draws nothing.
BANKER_DRAWS = np.array(
    [[not is_natural(total) and banker_draws(total, third)[0] for third in range(10)] for total in range(10)]
)


@dataclass(frozen=True)
class Dealt:
    """The rounds of a batch: per shoe (row) and round (column), padded."""

    #: Rounds dealt in each shoe.
    rounds: Array
    #: Each round's signature index (:attr:`.counting.round_counts.Signature.index`); -1 past a shoe's last.
    signatures: Array
    #: Each round's first card position; -1 past a shoe's last.
    starts: Array
    #: Cards each round used (4 to 6); 0 past a shoe's last.
    cards_used: Array

    def signature_counts(self) -> Array:
        """Rounds per signature index, over every shoe."""
        dealt = self.signatures[self.signatures >= 0]
        return np.bincount(dealt, minlength=SIGNATURES).astype(np.int64)


def _pairing(first: Array, second: Array) -> Array:
    same_rank = RANKS[first] == RANKS[second]
    return np.where(first == second, PERFECT, np.where(same_rank, PAIR, NONE))


def _rounds_at(cards: Array, position: Array) -> tuple[Array, Array]:
    """The round each shoe (row) of ``cards`` deals from its ``position``: its
    signature index and the cards it uses."""
    size = cards.shape[1]
    rows = np.arange(len(cards))
    # Six cards from each shoe's position (a round uses four to six); a shoe
    # that has ended reads harmlessly from its last cards and is masked out.
    at = np.minimum(position[:, None] + np.arange(6), size - 1)
    c = cards[rows[:, None], at]
    v = POINTS[c]
    player, banker = (v[:, 0] + v[:, 2]) % 10, (v[:, 1] + v[:, 3]) % 10
    natural = NATURAL[player] | NATURAL[banker]
    player_drew = ~natural & PLAYER_DRAWS[player]
    third = v[:, 4]
    banker_drew = ~natural & np.where(
        player_drew, BANKER_DRAWS[banker, third], BANKER_DRAWS_PLAYER_STOOD[banker]
    )
    banker_third = np.where(player_drew, v[:, 5], v[:, 4])
    player_total = np.where(player_drew, (player + third) % 10, player)
    banker_total = np.where(banker_drew, (banker + banker_third) % 10, banker)
    signature = (player_total * 10 + banker_total) * 4 + player_drew * 2 + banker_drew
    signature = (signature * 3 + _pairing(c[:, 0], c[:, 2])) * 3 + _pairing(c[:, 1], c[:, 3])
    return signature, 4 + player_drew + banker_drew


def deal_tops(shoes: npt.ArrayLike) -> Dealt:
    """Deal one round from the top of every shoe (row) of ``shoes``, no card
    burned: how a table that reshuffles after each hand deals each shuffle
    (as :func:`.rulebook.coup.deal` deals a seeded round without a round number)."""
    cards = np.asarray(shoes, dtype=np.int64)
    start = np.zeros(len(cards), dtype=np.int64)
    signature, cards_used = _rounds_at(cards, start)
    return Dealt(
        rounds=np.ones(len(cards), dtype=np.int64),
        signatures=signature[:, None],
        starts=start[:, None],
        cards_used=cards_used[:, None],
    )


def deal(shoes: npt.ArrayLike, *, cut_card: int = DEFAULT_CUT_CARD) -> Dealt:
    """Deal every shoe (row) of ``shoes`` whole, as :func:`.shoes.deal.deal_shoe` does."""
    cards = np.asarray(shoes, dtype=np.int64)
    count, size = cards.shape
    check_cut_card(size, cut_card)
    cut_position = size - cut_card
    position = 1 + PIPS[cards[:, 0]]
    active = np.ones(count, dtype=bool)
    cut_out = np.zeros(count, dtype=bool)
    signatures, starts, used = [], [], []
    while active.any():
        signature, cards_used = _rounds_at(cards, position)
        signatures.append(np.where(active, signature, -1))
        starts.append(np.where(active, position, -1))
        used.append(np.where(active, cards_used, 0))
        end = position + cards_used
        last = cut_out.copy()
        cut_out |= end > cut_position
        position = np.where(active, end, position)
        active &= ~last & (position < size)
    stacked = np.stack(signatures, axis=1)
    return Dealt(
        rounds=(stacked >= 0).sum(axis=1),
        signatures=stacked,
        starts=np.stack(starts, axis=1),
        cards_used=np.stack(used, axis=1),
    )


def numpy_shoes(rng: np.random.Generator, count: int, decks: int) -> Array:
    """``count`` shoes of ``decks`` decks shuffled by ``rng``."""
    fresh = np.tile(np.arange(52, dtype=np.int64), decks)
    return rng.permuted(np.broadcast_to(fresh, (count, fresh.size)), axis=1)


def _words(inputs: SeedInputs, needed: int) -> Array:
    """The first ``needed`` words of the seeded stream (:func:`.shoes.shuffle.words`)."""
    key = inputs.server_seed.encode()
    prefix = f"{inputs.client_seed}:{inputs.nonce}:"
    mac = hmac.new(key, digestmod=hashlib.sha256)
    blocks = []
    for counter in range(-(-needed // 8)):
        block = mac.copy()
        block.update(f"{prefix}{counter}".encode())
        blocks.append(block.digest())
    return np.frombuffer(b"".join(blocks), dtype=">u4")[:needed].astype(np.int64)


def _draws(inputs: SeedInputs, size: int) -> Array:
    """The Fisher-Yates draws ``j`` for ``i = size - 1 .. 1`` of :func:`.shoes.shuffle.shuffled`:
    one word each, unless rejection sampling refuses one (about one 8-deck
    shoe in 100,000), which is then read word by word as the algorithm states."""
    bounds = np.arange(size, 1, -1, dtype=np.int64)  # n = i + 1 for i = size - 1 .. 1
    limits = WORD - WORD % bounds
    words = _words(inputs, bounds.size)
    if (words < limits).all():
        return words % bounds
    return _draws_word_by_word(inputs, size)


def _draws_word_by_word(inputs: SeedInputs, size: int) -> Array:
    """:func:`_draws` read one word at a time, refusing words as rejection sampling says."""
    stream = iter(_words(inputs, 2 * size).tolist())  # a second refusal in one shoe is rarer still
    drawn = []
    for n in range(size, 1, -1):
        limit = WORD - WORD % n
        x = next(stream)
        while x >= limit:
            x = next(stream)
        drawn.append(x % n)
    return np.array(drawn, dtype=np.int64)


def _shuffle(draws: Array, decks: int) -> Array:
    """Fisher-Yates on fresh shoes of ``decks`` decks, one row of ``draws`` each,
    the swaps of every shoe done at once."""
    count, size = len(draws), 52 * decks
    shoes = np.tile(np.arange(52, dtype=np.int64), (count, decks))
    rows = np.arange(count)
    for step, i in enumerate(range(size - 1, 0, -1)):
        j = draws[:, step]
        swapped = shoes[rows, j]
        shoes[rows, j] = shoes[:, i]
        shoes[:, i] = swapped
    return shoes


def shuffled_shoes(inputs: Sequence[SeedInputs], decks: int) -> Array:
    """:func:`.shoes.shuffle.shuffled_shoe` of each of ``inputs``, as card indices, a shoe a row."""
    size = 52 * decks
    draws = np.stack([_draws(each, size) for each in inputs]) if inputs else np.empty((0, size - 1), np.int64)
    return _shuffle(draws, decks)


def seeded_shoes(seed: str, first: int, count: int, decks: int) -> Array:
    """Shoes ``first .. first + count - 1`` of ``seed``: shoe ``i`` is
    :func:`.shoes.shuffle.shuffled_shoe` of ``SeedInputs(seed, "", i)``, as card indices."""
    return shuffled_shoes([SeedInputs(seed, "", nonce) for nonce in range(first, first + count)], decks)
