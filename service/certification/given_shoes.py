"""Shoes as an operator's RNG or a casino's shuffler produced them
(``baccarat certify --shoes FILE``), read and checked before any work.

The file is JSON Lines: one shoe a line, its cards from the top as a JSON
array of card codes (``["9S", "KH", ...]``, codes as ``POST /v1/rounds``
reads them), each shoe every card of the rules' decks exactly once per
deck (416 cards for 8 decks). A line that is not JSON, not an array, of
another length, with a code that names no card, or a card more often than
the shoe holds is named by line (from 1) and field (the card's index in
the array, JSON-pointer style); the first :data:`MAX_ERRORS` are reported
and the run does not start. Blank lines are skipped. A line longer than
:data:`MAX_LINE_BYTES` (a shoe's codes take about 2,500 bytes) ends the
reading: its end may never come (``/dev/zero``).

The file is read once, a line at a time: each shoe is checked and written
to an unnamed temporary file, a byte a card, which :class:`GivenShoes`
then maps (``numpy.memmap``): the process holds a batch of shoes at a time,
never the file, and the pages the operating system caches for it are its
to drop. The temporary file takes :data:`BYTES_PER_SHOE` a shoe on disk
(416 MB at the :data:`MAX_SHOES` most).

:class:`GivenShoes` then stands where the service's seeded shuffle stands:
the shuffle tests count its shoes, and :func:`tally_given` deals them as
the simulator deals seeded ones, as the table deals (whole, or at a table
that reshuffles after each hand one round from the top of each, no burn:
each line a shuffle, each shuffle one hand), so their returns meet the exact math.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np

from ..baccarat.odds.simulation import Stakes, Tally, batches, deal_as_table, tally
from ..baccarat.rulebook.cards import DECK, parse_card
from ..baccarat.tables.rules import Rules

#: Problems reported at most: the rest of a bad file is not read for more.
MAX_ERRORS = 20
#: The most shoes a file may hold: the largest file run end to end here
#: (``bench.certify_memory``, docs/certification.md); a larger one is refused.
MAX_SHOES = 1_000_000
#: The longest line read: a shoe's 416 codes with room for any spacing.
MAX_LINE_BYTES = 65_536
#: Bytes a card takes in the temporary file the shoes are mapped from.
BYTES_PER_CARD = 1
#: An 8-deck shoe in the temporary file.
BYTES_PER_SHOE = 416 * BYTES_PER_CARD


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


def read_shoes(
    lines: IO[bytes] | Iterable[bytes], decks: int
) -> tuple[GivenShoes | None, list[dict[str, Any]]]:
    """The shoes of the JSON Lines ``lines`` (a binary file, or its lines), or None and the problems found."""
    with tempfile.TemporaryFile() as backing:
        shoes, sha256, errors = _write_shoes(lines, decks, backing)
        if errors:
            return None, errors
        if shoes == 0:
            return GivenShoes(np.zeros((0, 52 * decks), dtype=np.uint8), sha256), []
        backing.flush()
        # The map holds its own descriptor of the (unnamed) file: it stays readable once ours is closed.
        mapped = np.memmap(backing, dtype=np.uint8, mode="r", shape=(shoes, 52 * decks))
    return GivenShoes(mapped, sha256), []


def _write_shoes(
    lines: IO[bytes] | Iterable[bytes], decks: int, backing: IO[bytes]
) -> tuple[int, str, list[dict[str, Any]]]:
    """Each good shoe of ``lines`` written to ``backing``, a byte a card: the
    shoes, the SHA-256 of the lines, and the first problems found."""
    size = 52 * decks
    errors: list[dict[str, Any]] = []
    digest = hashlib.sha256()
    known: dict[str, int] = {}
    shoes = 0

    def problem(line: int, pointer: str, detail: str) -> None:
        errors.append({"line": line, "pointer": pointer, "detail": detail})

    for number, raw in enumerate(_bounded_lines(lines), start=1):
        if len(raw) > MAX_LINE_BYTES:
            cut = len(raw) == MAX_LINE_BYTES + 1 and not raw.endswith(b"\n")
            problem(
                number, "", f"longer than {MAX_LINE_BYTES:,} bytes" + (": not read further" if cut else "")
            )
            if cut:  # its end may never come
                break
            continue
        digest.update(raw)
        if len(errors) >= MAX_ERRORS:
            break
        if not raw.strip():
            continue
        if shoes >= MAX_SHOES:
            problem(number, "", f"a file holds at most {MAX_SHOES:,} shoes")
            break
        try:
            codes = json.loads(raw)
        except (ValueError, RecursionError) as error:  # a UnicodeDecodeError is a ValueError
            problem(number, "", f"not JSON: {_json_error(error)}")
            continue
        if not isinstance(codes, list):
            problem(number, "", "a shoe is a JSON array of card codes")
            continue
        if len(codes) != size:
            problem(number, "", f"a shoe of {decks} decks holds {size} cards, not {len(codes)}")
            continue
        row = _cards(codes, decks, known)
        if isinstance(row, tuple):
            problem(number, *row)
            continue
        if not errors:
            backing.write(row.astype(np.uint8).tobytes())
        shoes += 1
    return shoes, digest.hexdigest(), errors[:MAX_ERRORS]


def _bounded_lines(lines: IO[bytes] | Iterable[bytes]) -> Iterator[bytes]:
    """The lines of a binary file, none read past :data:`MAX_LINE_BYTES` + 1
    bytes (a longer one is cut there, and reading ends with it); or the lines given."""
    readline = getattr(lines, "readline", None)
    if readline is None:
        yield from lines
        return
    while raw := readline(MAX_LINE_BYTES + 1):
        yield raw
        if len(raw) > MAX_LINE_BYTES:
            return


def _json_error(error: BaseException) -> str:
    """Why a line is not JSON, in the file's terms: the column within the line
    (its line is the file's, named beside it), never a Python remedy."""
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at character {error.pos + 1} of the line"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    if isinstance(error, UnicodeDecodeError):
        return f"not UTF-8 (byte {error.start + 1})"
    if "integer string conversion" in str(error):
        return "a number of more digits than can be read"
    return str(error) or type(error).__name__


def _cards(codes: list[Any], decks: int, known: dict[str, int]) -> np.ndarray | tuple[str, str]:
    """A shoe's codes as card indices, or the pointer and detail of its first problem."""
    row = np.empty(len(codes), dtype=np.int64)
    for position, code in enumerate(codes):
        index = known.get(code) if isinstance(code, str) else None
        if index is None:
            try:
                card = parse_card(code) if isinstance(code, str) else None
            except ValueError:
                card = None
            if card is None:
                return f"/{position}", f"{code!r} is not a card code"
            index = known[code] = card.index
        row[position] = index
    if np.bincount(row, minlength=52).max() > decks:
        seen = np.zeros(52, dtype=np.int64)
        for position, card_index in enumerate(row.tolist()):
            seen[card_index] += 1
            if seen[card_index] > decks:
                return f"/{position}", f"{DECK[card_index].code} more often than the {decks} the shoe holds"
    return row


def tally_given(rules: Rules, given: GivenShoes, first: int, count: int) -> Tally:
    """Deal shoes ``first .. first + count - 1`` of ``given`` under ``rules``
    as the table deals (whole with burn and cut card, or one round from the
    top of each at a table that reshuffles after each hand) and tally them,
    as the simulator tallies seeded shoes, a batch at a time (the simulator's)."""
    stakes = Stakes.of(rules)
    # The tally's shuffle names how shoes are numbered within a run; its seed names the file.
    total = Tally.empty(rules, given.label, "service")
    for start, size in batches(first, count):
        dealt = deal_as_table(given(given.label, start, size, rules.decks), rules)
        total += tally(dealt, stakes, rules=rules, seed=given.label, shuffle="service", first=start)
    return total
