"""What a shoe holds: how many of each of the 52 cards are left in it.

The odds of the next round depend only on the composition of the shoe, not
on its order. A composition is built in one of four ways:

* :func:`full_shoe` — a fresh shoe of ``decks`` decks;
* :func:`after_removing` — that shoe less the cards already dealt (or burned);
* :func:`from_rank_counts` — a count per rank (``A 2-9 T J Q K``). Only the
  perfect pair looks at suits, and its odds depend on how many cards of a
  rank share each suit, not on which suit is which. A rank's cards are taken
  as spread over the four suits as evenly as possible (30 aces: 8, 8, 7, 7);
  send the cards removed instead when the suits are known;
* :func:`before_round` — a seeded shoe just before round ``n`` is dealt (the
  burned cards and the rounds before are gone; the cards behind the cut card
  are still in the shoe).

A round uses at most six cards, so a shoe that holds at least
:data:`MIN_CARDS` cards finishes a round however it is shuffled; fewer is a
:class:`ShoeError`. Cards removed more often than the shoe holds them, and a
rank counted more often than the shoe's decks hold it, are a :class:`CardError`.

>>> full_shoe(8).total, full_shoe(8).by_value[0]
(416, 128)
>>> from service.baccarat.rulebook.cards import parse_card
>>> after_removing(1, [parse_card("AS"), parse_card("KH")]).by_rank["A"]
3
>>> from_rank_counts(8, {rank: 30 if rank == "A" else 32 for rank in RANKS}).suits_of("A")
(8, 8, 7, 7)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..rulebook.cards import DECK, MAX_DECKS, MIN_DECKS, RANKS, SUITS, Card, check_composition
from ..rulebook.errors import N_, CardError, Problem, ProblemCode, ShoeError
from .deal import DEFAULT_CUT_CARD, shoe_round
from .shuffle import Seed, SeedRecord, seeded_shoe

#: A round uses at most six cards: a shoe holding six finishes any round.
MIN_CARDS = 6
_INDEX = {card: index for index, card in enumerate(DECK)}


@dataclass(frozen=True, slots=True)
class Composition:
    """How many of each card the shoe holds, in :data:`DECK` order, and the
    number of decks it was made from."""

    decks: int
    counts: tuple[int, ...]

    @property
    def total(self) -> int:
        """Cards in the shoe."""
        return sum(self.counts)

    def count(self, card: Card) -> int:
        """How many of ``card`` the shoe holds."""
        return self.counts[_INDEX[card]]

    def suits_of(self, rank: str) -> tuple[int, ...]:
        """How many cards of ``rank`` the shoe holds in each suit (S, H, D, C)."""
        return tuple(self.counts[_INDEX[Card(rank, suit)]] for suit in SUITS)

    @property
    def by_rank(self) -> dict[str, int]:
        """Cards left per rank, ``A`` to ``K``."""
        return {rank: sum(self.suits_of(rank)) for rank in RANKS}

    @property
    def by_value(self) -> tuple[int, ...]:
        """Cards left per point value, 0 (tens and faces) to 9."""
        values = [0] * 10
        for card, count in zip(DECK, self.counts, strict=True):
            values[card.points] += count
        return tuple(values)


@dataclass(frozen=True, slots=True)
class SeededPlace:
    """A seeded shoe just before one of its rounds: where, and which shoe."""

    round: int
    position: int
    seed: SeedRecord


@dataclass(frozen=True, slots=True)
class SeededComposition:
    """What is left in a seeded shoe before round :attr:`place.round`."""

    composition: Composition
    place: SeededPlace


def _checked(composition: Composition, field: str) -> Composition:
    if composition.total < MIN_CARDS:
        raise ShoeError(
            N_("The shoe holds {cards} card(s): a round may need {needed}"),
            [Problem.of((field,), ProblemCode.SHOE_TOO_SMALL, cards=composition.total, needed=MIN_CARDS)],
            cards=composition.total,
            needed=MIN_CARDS,
        )
    return composition


def _check_decks(decks: int) -> None:
    if not MIN_DECKS <= decks <= MAX_DECKS:
        raise ValueError(f"a shoe holds {MIN_DECKS} to {MAX_DECKS} decks, not {decks}")


def full_shoe(decks: int) -> Composition:
    """A fresh shoe of ``decks`` decks."""
    _check_decks(decks)
    return Composition(decks, (decks,) * len(DECK))


def after_removing(decks: int, removed: Sequence[Card], *, field: str = "removed") -> Composition:
    """The shoe of ``decks`` decks less ``removed`` (in any order).

    A card removed more often than the shoe holds it is a :class:`CardError`
    pointing at the first copy too many; a shoe left with fewer than
    :data:`MIN_CARDS` cards is a :class:`ShoeError`.
    """
    _check_decks(decks)
    check_composition(removed, decks, field=field)
    counts = [decks] * len(DECK)
    for card in removed:
        counts[_INDEX[card]] -= 1
    return _checked(Composition(decks, tuple(counts)), field)


def from_rank_counts(decks: int, by_rank: Mapping[str, int], *, field: str = "counts") -> Composition:
    """A shoe holding ``by_rank[rank]`` cards of each rank (every rank given),
    each rank's cards spread over the suits as evenly as possible.

    A count over what ``decks`` decks hold (``4 * decks``) is a :class:`CardError`.
    """
    _check_decks(decks)
    most = 4 * decks
    missing = [
        Problem.of((field, rank), ProblemCode.RANK_COUNT_MISSING) for rank in RANKS if rank not in by_rank
    ]
    if missing:
        raise CardError(N_("Some ranks have no count"), missing)
    problems = [
        Problem.of(
            (field, rank),
            ProblemCode.RANK_COUNT_OVER_SHOE,
            count=by_rank[rank],
            rank=rank,
            decks=decks,
            most=most,
        )
        for rank in RANKS
        if by_rank[rank] > most
    ]
    problems += [
        Problem.of((field, rank), ProblemCode.RANK_COUNT_NEGATIVE, count=by_rank[rank])
        for rank in RANKS
        if by_rank[rank] < 0
    ]
    if problems:
        raise CardError(N_("Some counts are more than the shoe can hold"), problems)
    per_card = {}
    for rank in RANKS:
        share, extra = divmod(by_rank[rank], len(SUITS))
        for index, suit in enumerate(SUITS):
            per_card[Card(rank, suit)] = share + (index < extra)
    return _checked(Composition(decks, tuple(per_card[card] for card in DECK)), field)


def before_round(
    decks: int,
    seed: Seed,
    round_number: int,
    *,
    cut_card: int = DEFAULT_CUT_CARD,
    commitment: str | None = None,
) -> SeededComposition:
    """A shoe shuffled from ``seed`` as :mod:`.shoes.deal` deals it, just
    before round ``round_number``: the burned cards and earlier rounds are
    out. :class:`ShoeError` (at ``round``) past the shoe's last round."""
    cards, record = seeded_shoe(decks, seed, commitment)
    place = shoe_round(cards, round_number, cut_card=cut_card)
    left = [0] * len(DECK)
    for card in cards[place.start :]:
        left[_INDEX[card]] += 1
    composition = Composition(decks, tuple(left))
    return SeededComposition(composition, SeededPlace(round_number, place.start, record))


def fresh_shuffle(decks: int, seed: Seed, *, commitment: str | None = None) -> SeededComposition:
    """A shoe shuffled from ``seed`` as a table that reshuffles after each
    hand deals it: its one round from the top, no card burned, so the whole
    shoe is left (its place: round 1, position 0)."""
    _, record = seeded_shoe(decks, seed, commitment)
    return SeededComposition(full_shoe(decks), SeededPlace(1, 0, record))
