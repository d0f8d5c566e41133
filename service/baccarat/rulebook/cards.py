"""Cards, their codes and their point values.

A card code is a rank (``A 2-9 T J Q K``, ``10`` also accepted for ``T``)
followed by a suit (``S H D C``), case-insensitive on the way in. The one
canonical form on the way out is upper case with ``T`` for ten:

>>> parse_card("10h").code
'TH'
>>> parse_card("qs").points
0
>>> hand_total([parse_card("8S"), parse_card("9D")])
7
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .errors import N_, CardError, Problem, ProblemCode

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
MIN_DECKS, MAX_DECKS = 1, 8


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Instances are shared: compare them with ``==``.

    ``code``, ``points``, ``pip`` and ``index`` are worked out once, when
    the card is made: every round reads them many times over.
    """

    rank: str
    suit: str
    #: Canonical card code, e.g. ``"TH"``.
    code: str = field(init=False, repr=False, compare=False)
    #: Baccarat value: ace 1, two to nine face value, ten and faces 0.
    points: int = field(init=False, repr=False, compare=False)
    #: Face value counting tens and faces as 10 (used to burn cards).
    pip: int = field(init=False, repr=False, compare=False)
    #: Position in :data:`DECK`, 0-51: tables made at import are indexed by it.
    index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        points = _POINTS[self.rank]
        object.__setattr__(self, "code", self.rank + self.suit)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "pip", points or 10)
        object.__setattr__(self, "index", SUITS.index(self.suit) * len(RANKS) + RANKS.index(self.rank))

    def __str__(self) -> str:
        return self.code


_POINTS = {rank: min(index + 1, 10) % 10 for index, rank in enumerate(RANKS)}

#: One instance per card, in the order a fresh deck is laid out:
#: suits S, H, D, C; within a suit A, 2, ..., 9, T, J, Q, K.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)

_BY_CODE: dict[str, Card] = {}
for _card in DECK:
    for _rank in ("10", "T") if _card.rank == "T" else (_card.rank,):
        for _code in {_rank + _card.suit, (_rank + _card.suit).lower()}:
            _BY_CODE[_code] = _card
        _BY_CODE[_rank.lower() + _card.suit] = _card
        _BY_CODE[_rank + _card.suit.lower()] = _card


def parse_card(code: str) -> Card:
    """The card a code names; ``ValueError`` when it names none."""
    card = _BY_CODE.get(code)
    if card is None:
        raise ValueError(
            f"{code!r} is not a card code: use a rank A, 2-9, T (or 10), J, Q, K "
            "followed by a suit S, H, D or C, e.g. 'KH' or '10s'"
        )
    return card


def hand_total(cards: Iterable[Card]) -> int:
    """Total of a hand: the sum of the points, modulo 10."""
    return sum([card.points for card in cards]) % 10


def shoe(decks: int) -> list[Card]:
    """A fresh, unshuffled shoe of ``decks`` decks laid out deck after deck."""
    if not MIN_DECKS <= decks <= MAX_DECKS:
        raise ValueError(f"a shoe holds {MIN_DECKS} to {MAX_DECKS} decks, not {decks}")
    return list(DECK) * decks


def check_composition(cards: Sequence[Card], decks: int, *, field: str = "cards") -> None:
    """Refuse a sequence that holds a card more often than the shoe does.

    Each problem points at the first position where the card is one too many.
    """
    if len(cards) <= decks:
        return  # no card can appear more than `decks` times
    # Counted by code: a str keeps its hash, a Card works its out on each call.
    if max(Counter([card.code for card in cards]).values()) <= decks:
        return
    counts: Counter[Card] = Counter()
    problems = []
    for position, card in enumerate(cards):
        counts[card] += 1
        if counts[card] == decks + 1:
            problems.append(
                Problem.of((field, position), ProblemCode.CARD_TOO_MANY_COPIES, card=card.code, decks=decks)
            )
    if problems:
        raise CardError(N_("Some cards appear more often than the shoe holds them"), problems)
