"""A gallery of bad shuffles: the known ways a shuffle goes wrong, each a
documented generator of shoes, to measure what the kit's shuffle tests can
see (their power, docs/certification.md, ``python -m bench.certify_power``).

Each is a :data:`.shuffle_tests.Shuffler` (``(seed, first, count, decks) ->
shoes``, card indices, one shoe a row) drawing its randomness from numpy's
``Generator`` seeded by SHA-256 of the seed and the first shoe's number, so
a gallery shoe is the same on every machine. A shoe starts in the factory
order (:func:`.rulebook.cards.shoe`: deck after deck, each A to K of
spades, hearts, diamonds, clubs), unless it says otherwise:

* ``riffle_1``, ``riffle_2``, ``riffle_3``: one to three riffle shuffles
  (Gilbert-Shannon-Reeds: the shoe cut where a binomial says, the two
  packets interleaved with every interleaving equally likely), where a
  shoe of 416 cards needs about 13 to look random (Bayer and Diaconis);
* ``cut_only``: a stripped shoe: cut once at a uniformly random card, the
  order within it kept;
* ``swap_with_any``: the naive shuffle that swaps each card with *any*
  card (``j`` uniform on all ``n`` places instead of on the ones not yet
  placed): ``n^n`` equally likely runs onto ``n!`` orders, so not all
  orders are equally likely;
* ``modulo_16_bit``: Fisher-Yates whose index is a 16-bit word modulo the
  places left: the low indices come up a little more often (by up to
  ``(i + 1) / 65536``, about 0.6% at 416 cards);
* ``stuck_card``: the service's own shuffle, but the first ace of spades
  always ends up last (a card caught in a shuffler);
* ``reversed_half``: a predictable shoe: half the decks in a random
  order, then the same cards in reverse (after the first half every card
  is known; with an odd number of decks, the odd deck shuffled in between);
* ``stacked_halves``: a batch shuffler's shoe: half the decks and the
  other half each put in a random order apart and stacked (after the
  first half, the make-up of the rest is known);
* ``seed_32_bit``: the service's own shuffle seeded from a 32-bit seed
  (shoe ``i`` is the service's shoe of the run's seed and a nonce drawn
  uniformly from 0 to 2^32 - 1): each shoe is as random as the service's,
  and only repeated shoes betray it (:func:`.shuffle_tests.repeated_shoes`:
  a repeat among ``N`` shoes with chance ``1 - prod(1 - k / 2^32)``, even
  at about 77,000 shoes, 99% at about 199,000); :func:`seed_space` makes
  the same shuffle from a smaller space, to check that chance by simulation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from math import expm1, lgamma, log

import numpy as np

from ..baccarat.counting import batch

Array = np.ndarray
#: A stuck card: the ace of spades (index 0).
STUCK = 0


def _rng(name: str, seed: str, first: int) -> np.random.Generator:
    entropy = int.from_bytes(hashlib.sha256(f"{name}:{seed}".encode()).digest(), "big")
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy, spawn_key=(first,))))


def _factory(count: int, decks: int) -> Array:
    return np.tile(np.arange(52, dtype=np.int64), (count, decks))


def riffle(shoes: Array, rng: np.random.Generator) -> Array:
    """One Gilbert-Shannon-Reeds riffle of each shoe: a fair bit per place
    says which packet it is dealt from, the top packet (the zeros, as many
    as a binomial says) in order and the bottom one in order."""
    count, size = shoes.shape
    sides = rng.integers(0, 2, size=(count, size))
    places = np.argsort(sides, axis=1, kind="stable")  # the top packet's places, then the bottom's
    out = np.empty_like(shoes)
    np.put_along_axis(out, places, shoes, axis=1)
    return out


def _riffles(times: int) -> Callable[[str, int, int, int], Array]:
    def shuffler(seed: str, first: int, count: int, decks: int) -> Array:
        rng = _rng(f"riffle_{times}", seed, first)
        shoes = _factory(count, decks)
        for _ in range(times):
            shoes = riffle(shoes, rng)
        return shoes

    shuffler.__name__ = f"riffle_{times}"
    return shuffler


def cut_only(seed: str, first: int, count: int, decks: int) -> Array:
    """The factory order cut once at a uniformly random place."""
    rng = _rng("cut_only", seed, first)
    size = 52 * decks
    cuts = rng.integers(0, size, size=count)
    places = (np.arange(size) + cuts[:, None]) % size
    return np.take_along_axis(_factory(count, decks), places, axis=1)


def swap_with_any(seed: str, first: int, count: int, decks: int) -> Array:
    """Each place swapped with a place drawn from all of them."""
    rng = _rng("swap_with_any", seed, first)
    shoes = _factory(count, decks)
    rows = np.arange(count)
    size = shoes.shape[1]
    for place in range(size):
        other = rng.integers(0, size, size=count)
        held = shoes[rows, place].copy()
        shoes[rows, place] = shoes[rows, other]
        shoes[rows, other] = held
    return shoes


def modulo_16_bit(seed: str, first: int, count: int, decks: int) -> Array:
    """Fisher-Yates from the last place down, its index a 16-bit word modulo the places left."""
    rng = _rng("modulo_16_bit", seed, first)
    shoes = _factory(count, decks)
    rows = np.arange(count)
    for place in range(shoes.shape[1] - 1, 0, -1):
        other = rng.integers(0, 2**16, size=count) % (place + 1)
        held = shoes[rows, place].copy()
        shoes[rows, place] = shoes[rows, other]
        shoes[rows, other] = held
    return shoes


def stuck_card(seed: str, first: int, count: int, decks: int) -> Array:
    """The service's shoes with the first ace of spades swapped to the last place."""
    shoes = batch.seeded_shoes(seed, first, count, decks).copy()
    rows = np.arange(count)
    where = np.argmax(shoes == STUCK, axis=1)
    last = shoes.shape[1] - 1
    shoes[rows, where] = shoes[rows, last]
    shoes[rows, last] = STUCK
    return shoes


def _random_orders(rng: np.random.Generator, count: int, decks: int) -> Array:
    """``count`` random orders of ``decks`` decks (none, with 0 decks)."""
    return rng.permuted(_factory(count, decks), axis=1)


def reversed_half(seed: str, first: int, count: int, decks: int) -> Array:
    """Half the decks in a random order, then the same cards reversed."""
    rng = _rng("reversed_half", seed, first)
    half = _random_orders(rng, count, decks // 2)
    middle = _random_orders(rng, count, decks % 2)
    return np.concatenate([half, middle, half[:, ::-1]], axis=1)


def stacked_halves(seed: str, first: int, count: int, decks: int) -> Array:
    """Two halves of the decks, each in a random order of its own, stacked."""
    rng = _rng("stacked_halves", seed, first)
    top = _random_orders(rng, count, decks // 2)
    return np.concatenate([top, _random_orders(rng, count, decks - decks // 2)], axis=1)


def seed_space(bits: int) -> Callable[[str, int, int, int], Array]:
    """The service's shuffle seeded from a ``bits``-bit seed: each shoe the
    service's shoe of ``seed`` and a nonce drawn uniformly below ``2^bits``."""

    def shuffler(seed: str, first: int, count: int, decks: int) -> Array:
        nonces = _rng(f"seed_{bits}_bit", seed, first).integers(0, 2**bits, size=count)
        return np.concatenate([batch.seeded_shoes(seed, int(nonce), 1, decks) for nonce in nonces])

    shuffler.__name__ = f"seed_{bits}_bit"
    return shuffler


def detection_chance(bits: int, shoes: int) -> float:
    """The chance that ``shoes`` shoes from a ``bits``-bit seed space hold a
    repeat: ``1 - prod_{k < shoes} (1 - k / 2^bits)`` (the birthday problem).

    >>> round(detection_chance(32, 77_163), 3), round(detection_chance(32, 198_893), 4)
    (0.5, 0.99)
    """
    space = 2**bits
    if shoes > space:
        return 1.0
    # log prod (1 - k / S) = log S! - log (S - n)! - n log S
    return -expm1(lgamma(space + 1) - lgamma(space - shoes + 1) - shoes * log(space))


#: The gallery, by name.
GALLERY: dict[str, Callable[[str, int, int, int], Array]] = {
    "riffle_1": _riffles(1),
    "riffle_2": _riffles(2),
    "riffle_3": _riffles(3),
    "cut_only": cut_only,
    "swap_with_any": swap_with_any,
    "modulo_16_bit": modulo_16_bit,
    "stuck_card": stuck_card,
    "reversed_half": reversed_half,
    "stacked_halves": stacked_halves,
    "seed_32_bit": seed_space(32),
}
