"""Shoes as an operator's RNG or a casino's shuffler produced them
(``baccarat certify --shoes FILE``), read and checked before any work.

The file is JSON Lines: one shoe a line, its cards from the top as a JSON
array of card codes (``["9S", "KH", ...]``, codes as ``POST /v1/rounds``
reads them), each shoe every card of the rules' decks exactly once per
deck (416 cards for 8 decks). A line that is not JSON, not an array, of
another length, with a code that names no card, or a card more often than
the shoe holds is named by line (from 1) and field (the card's index in
the array, JSON-pointer style); the first :data:`MAX_ERRORS` are reported
and the run does not start. Blank lines are skipped.

:class:`GivenShoes` then stands where the service's seeded shuffle stands:
the shuffle tests count its shoes, and :func:`tally_given` deals them as
the simulator deals seeded ones, so their returns meet the exact math.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..baccarat.counting import batch
from ..baccarat.odds.simulation import Stakes, Tally, tally
from ..baccarat.rulebook.cards import DECK, parse_card
from ..baccarat.tables.rules import Rules

#: Problems reported at most: the rest of a bad file is not read for more.
MAX_ERRORS = 20
#: The most shoes a file may hold.
MAX_SHOES = 10_000_000


@dataclass(frozen=True)
class GivenShoes:
    """A file's shoes as card indices (:data:`.rulebook.cards.DECK` order), one a row."""

    shoes: np.ndarray = field(repr=False)
    #: SHA-256 of the file's bytes, as hex: what the report names the shoes by.
    sha256: str

    @property
    def label(self) -> str:
        """What stands for a seed in the run's tallies."""
        return f"shoes:{self.sha256}"

    def __call__(self, seed: str, first: int, count: int, decks: int) -> np.ndarray:
        """Shoes ``first .. first + count - 1`` (a :data:`.shuffle_tests.Shuffler`)."""
        return self.shoes[first : first + count].astype(np.int64)


def read_shoes(lines: Iterable[bytes], decks: int) -> tuple[GivenShoes | None, list[dict[str, Any]]]:
    """The shoes of the JSON Lines ``lines``, or None and the problems found."""
    size = 52 * decks
    index = {card.code: card.index for card in DECK}
    rows: list[np.ndarray] = []
    errors: list[dict[str, Any]] = []
    digest = hashlib.sha256()

    def problem(line: int, pointer: str, detail: str) -> None:
        errors.append({"line": line, "pointer": pointer, "detail": detail})

    for number, raw in enumerate(lines, start=1):
        digest.update(raw)
        if len(errors) >= MAX_ERRORS:
            break
        if not raw.strip():
            continue
        if len(rows) >= MAX_SHOES:
            problem(number, "", f"a file holds at most {MAX_SHOES:,} shoes")
            break
        try:
            codes = json.loads(raw)
        except (ValueError, RecursionError) as error:  # a UnicodeDecodeError is a ValueError
            problem(number, "", f"not JSON: {str(error) or type(error).__name__}")
            continue
        if not isinstance(codes, list):
            problem(number, "", "a shoe is a JSON array of card codes")
            continue
        if len(codes) != size:
            problem(number, "", f"a shoe of {decks} decks holds {size} cards, not {len(codes)}")
            continue
        row = np.empty(size, dtype=np.int64)
        seen = np.zeros(52, dtype=np.int64)
        for position, code in enumerate(codes):
            try:
                card = parse_card(code) if isinstance(code, str) else None
            except ValueError:
                card = None
            if card is None:
                problem(number, f"/{position}", f"{code!r} is not a card code")
                break
            row[position] = index[card.code]
            seen[row[position]] += 1
            if seen[row[position]] > decks:
                problem(number, f"/{position}", f"{card.code} more often than the {decks} the shoe holds")
                break
        else:
            rows.append(row)
    if errors:
        return None, errors[:MAX_ERRORS]
    # One byte a card: a million 8-deck shoes take 416 MB.
    shoes = np.stack(rows).astype(np.uint8) if rows else np.zeros((0, size), dtype=np.uint8)
    return GivenShoes(shoes, digest.hexdigest()), []


def tally_given(rules: Rules, given: GivenShoes, first: int, count: int) -> Tally:
    """Deal shoes ``first .. first + count - 1`` of ``given`` whole under
    ``rules`` (burn, cut card) and tally them, as the simulator tallies seeded shoes."""
    dealt = batch.deal(given(given.label, first, count, rules.decks), cut_card=rules.cut_card)
    # The tally's shuffle names how shoes are numbered within a run; its seed names the file.
    return tally(dealt, Stakes.of(rules), rules=rules, seed=given.label, shuffle="service", first=first)
