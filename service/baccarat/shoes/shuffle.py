"""Seeded shuffles: a documented, versioned, language-independent algorithm.

Algorithm ``hmac-sha256-fisher-yates/v1`` (``docs/fairness.md`` states it
step by step, with golden vectors):

1. Byte stream: block ``i`` (``i = 0, 1, 2, ...``) is
   ``HMAC-SHA256(key=server_seed, msg=f"{client_seed}:{nonce}:{i}")``, all
   strings UTF-8 and ``nonce``/``i`` in decimal; the blocks are concatenated.
2. Unbiased integer below ``n``: read 4 bytes as a big-endian unsigned
   integer ``x``; if ``x < 2**32 - (2**32 % n)`` the result is ``x % n``,
   otherwise discard ``x`` and read the next 4 bytes (rejection sampling).
3. Initial order: deck after deck; in each deck the suits S, H, D, C and
   within a suit A, 2, ..., 9, T, J, Q, K.
4. Fisher-Yates: for ``i`` from ``N - 1`` down to ``1``, draw ``j`` below
   ``i + 1`` and swap positions ``i`` and ``j``. Position 0 is the top.
5. Shoe hash: SHA-256 of the canonical card codes joined by ``","``.

A plain ``seed`` is the server seed with an empty client seed and nonce 0.
Python's ``random`` module is never used: it is neither cryptographic nor
stable across versions.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..rulebook.cards import Card, shoe
from ..rulebook.errors import N_, Problem, ProblemCode, SeedError

ALGORITHM = "hmac-sha256-fisher-yates/v1"
_WORD = 2**32


@dataclass(frozen=True, slots=True)
class SeedInputs:
    """Everything that determines a shoe's order."""

    server_seed: str
    client_seed: str = ""
    nonce: int = 0

    @property
    def server_seed_hash(self) -> str:
        """The commitment published before play: SHA-256 of the server seed."""
        return hashlib.sha256(self.server_seed.encode()).hexdigest()


def check_commitment(inputs: SeedInputs, commitment: str | None, *, field: str = "server_seed_hash") -> None:
    """Refuse a server seed whose SHA-256 is not the commitment shown earlier.

    ``commitment`` is hex, in either case; ``None`` means none was sent.
    """
    if commitment is not None and commitment.lower() != inputs.server_seed_hash:
        raise SeedError(
            N_("The server seed does not match the commitment sent with it"),
            [
                Problem.of(
                    (field,),
                    ProblemCode.COMMITMENT_MISMATCH,
                    hash=inputs.server_seed_hash,
                    commitment=commitment.lower(),
                )
            ],
        )


def new_seed() -> str:
    """A fresh 256-bit seed from the operating system's CSPRNG, as hex."""
    return secrets.token_hex(32)


def byte_blocks(inputs: SeedInputs) -> Iterator[bytes]:
    """The HMAC-SHA256 counter-mode stream, one 32-byte block at a time."""
    key = inputs.server_seed.encode()
    prefix = f"{inputs.client_seed}:{inputs.nonce}:"
    mac = hmac.new(key, digestmod=hashlib.sha256)
    counter = 0
    while True:
        block = mac.copy()
        block.update(f"{prefix}{counter}".encode())
        yield block.digest()
        counter += 1


def words(inputs: SeedInputs) -> Iterator[int]:
    """The stream read as big-endian unsigned 32-bit integers."""
    for block in byte_blocks(inputs):
        for start in range(0, 32, 4):
            yield int.from_bytes(block[start : start + 4], "big")


def shuffled(cards: Sequence[Card], inputs: SeedInputs) -> list[Card]:
    """``cards`` in the order Fisher-Yates gives them under ``inputs``."""
    order = list(cards)
    stream = words(inputs)
    for i in range(len(order) - 1, 0, -1):
        n = i + 1
        limit = _WORD - _WORD % n
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % n
        order[i], order[j] = order[j], order[i]
    return order


def shuffled_shoe(decks: int, inputs: SeedInputs) -> list[Card]:
    """A shoe of ``decks`` decks shuffled from ``inputs``; index 0 is dealt first."""
    return shuffled(shoe(decks), inputs)


def shoe_hash(cards: Sequence[Card]) -> str:
    """SHA-256 of the card codes joined by commas: a fingerprint of the order."""
    return hashlib.sha256(",".join(card.code for card in cards).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class SeedRecord:
    """What an auditor needs to re-derive a seeded shoe."""

    inputs: SeedInputs
    generated: bool
    shoe_hash: str
    algorithm: str = ALGORITHM

    @property
    def seed(self) -> str:
        return self.inputs.server_seed


Seed = SeedInputs | str


def seeded_shoe(
    decks: int, seed: Seed | None, commitment: str | None = None
) -> tuple[list[Card], SeedRecord]:
    """The shoe shuffled from ``seed`` (a plain seed is the server seed with
    an empty client seed and nonce 0; ``None`` draws a fresh one), after
    checking the server seed against ``commitment`` when one was sent."""
    generated = seed is None
    inputs = SeedInputs(new_seed()) if seed is None else SeedInputs(seed) if isinstance(seed, str) else seed
    check_commitment(inputs, commitment)
    cards = shuffled_shoe(decks, inputs)
    return cards, SeedRecord(inputs, generated, shoe_hash(cards))
