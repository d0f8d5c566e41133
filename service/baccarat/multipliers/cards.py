"""A round's multiplier cards: drawn from the seed inputs, or given by a studio,
and which of a bet's cards they light.

Algorithm ``hmac-sha256-multiplier-cards/v1`` (docs/multipliers.md states it
with test vectors). It reads the seed inputs of the shoe (:class:`.SeedInputs`)
under a message of its own, so the shoe's stream (docs/fairness.md) is
untouched and the multiplier cards never depend on the cards dealt:

1. Stream: block ``k`` (``k = 0, 1, ...``) is ``HMAC-SHA256(key=server_seed,
   msg=f"{client_seed}:{nonce}:{round}:multipliers:{k}")``, UTF-8, numbers in
   decimal, read as big-endian unsigned 32-bit words. A shoe's message ends
   ``:{nonce}:{k}`` with two numbers; this one has ``multipliers`` where the
   shoe's has its nonce, so no seed inputs give both the same message.
   ``round`` is the round of the shoe (1 for a round dealt from a fresh shoe).
2. An unbiased integer below ``n``: the shoe's rejection sampling (read a word
   ``x``; if ``x < 2**32 - 2**32 % n`` the result is ``x % n``, otherwise read
   the next word). A word is read even for ``n = 1`` (the last swap of a
   52-card draw); only a pick by weight among one choice (steps 3, 5) reads none.
3. How many cards, ``K``: the rule's counts in increasing order, each with its
   weight (divided by their greatest common divisor); ``x`` below the total
   weight picks the first count whose running total of weights exceeds ``x``.
4. Which cards: the 52 cards in shoe order (suits S, H, D, C; ranks A to K);
   for ``i`` from 0 to ``K - 1``, draw ``j`` below ``52 - i`` and swap the
   cards at ``i`` and ``i + j``. Positions 0 to ``K - 1`` are the cards, in order.
5. Their multipliers: for each card in order, a multiplier picked by weight as in step 3.

>>> from service.baccarat.rulebook.cards import parse_card
>>> from service.baccarat.multipliers.presets import PRESETS
>>> drawn = draw_multiplier_cards(PRESETS["golden_wealth"].rule, SeedInputs("abc"))
>>> [str(card) for card in drawn.cards]
['KC x3', 'TS x3', 'AH x2', '7D x5', '9S x3']
>>> drawn.multiplier_of(parse_card("7D")), drawn.multiplier_of(parse_card("7H"))
(5, None)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from math import prod
from types import MappingProxyType

from ..bets.types import BetType
from ..rulebook.cards import DECK, Card
from ..rulebook.coup import Coup
from ..shoes.shuffle import SeedInputs
from .rule import VIRTUAL_DECK, Counted, Fault, FaultCode, MultiplierCardError, MultiplierRule

ALGORITHM = "hmac-sha256-multiplier-cards/v1"
#: What the stream's message says in place of the shoe's nonce.
LABEL = "multipliers"
_WORD = 2**32


@dataclass(frozen=True, slots=True)
class MultiplierCard:
    """A card of the virtual deck and its multiplier."""

    card: Card
    multiplier: int

    def __str__(self) -> str:
        return f"{self.card} x{self.multiplier}"


@dataclass(frozen=True)
class MultiplierCards:
    """A round's multiplier cards in the order they were drawn, each card
    once; ``algorithm`` names the derivation that drew them (None when a
    studio gave them)."""

    cards: tuple[MultiplierCard, ...]
    algorithm: str | None = None
    #: Each card's multiplier, by card.
    by_card: Mapping[Card, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_card = MappingProxyType({lit.card: lit.multiplier for lit in self.cards})
        object.__setattr__(self, "by_card", by_card)

    def multiplier_of(self, card: Card) -> int | None:
        """The multiplier ``card`` matches (same rank and suit), or None."""
        return self.by_card.get(card)

    def lit(self, counted: Sequence[Card]) -> tuple[MultiplierCard, ...]:
        """Each counted card that matches a multiplier card, with its
        multiplier, once for each time it counts (with 8 decks a hand can
        hold the same card twice: it is lit twice)."""
        by_card = self.by_card
        return tuple(MultiplierCard(card, by_card[card]) for card in counted if card in by_card)

    def multiplier(self, counted: Sequence[Card]) -> int:
        """The product of the multipliers of the lit cards among ``counted`` (1 when none is lit)."""
        return prod(lit.multiplier for lit in self.lit(counted))


def counted_cards(coup: Coup, bet: BetType, counted: Counted) -> tuple[Card, ...]:
    """The cards of ``coup`` that count for ``bet``: the hand it is on, every
    card in dealing order (Player, Banker, Player, Banker, then the third
    cards), the first two cards of the hand a pair bet is on, or none."""
    player, banker = coup.player.cards, coup.banker.cards
    hand = banker if bet in (BetType.BANKER, BetType.BANKER_PAIR) else player
    if counted is Counted.WINNING_HAND:
        return hand
    if counted is Counted.PAIRED_CARDS:
        return hand[:2]
    if counted is Counted.ALL_CARDS:
        return (player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:])
    return ()


def multiplier_words(inputs: SeedInputs, round_number: int = 1) -> Iterator[int]:
    """Step 1: the stream of 32-bit words the multiplier cards of round ``round_number`` are drawn from."""
    if round_number < 1:
        raise ValueError(f"rounds are numbered from 1, not {round_number}")
    mac = hmac.new(inputs.server_seed.encode(), digestmod=hashlib.sha256)
    prefix = f"{inputs.client_seed}:{inputs.nonce}:{round_number}:{LABEL}:"
    counter = 0
    while True:
        block = mac.copy()
        block.update(f"{prefix}{counter}".encode())
        digest = block.digest()
        for start in range(0, 32, 4):
            yield int.from_bytes(digest[start : start + 4], "big")
        counter += 1


def below(words: Iterator[int], n: int) -> int:
    """Step 2: an unbiased integer from 0 to ``n - 1``, reading as many words as it takes.

    >>> below(iter([4294967295, 7]), 10)  # 4294967295 is past the last multiple of 10: read again
    7
    """
    limit = _WORD - _WORD % n
    x = next(words)
    while x >= limit:
        x = next(words)
    return x % n


def _by_weight(words: Iterator[int], weighted: tuple[tuple[int, int], ...]) -> int:
    """Steps 3 and 5: one of ``weighted``'s keys, by weight (no word read for a single key)."""
    if len(weighted) == 1:
        return weighted[0][0]
    x = below(words, sum(weight for _, weight in weighted))
    for key, weight in weighted:
        if x < weight:
            return key
        x -= weight
    raise AssertionError("x is below the total weight")


def draw_multiplier_cards(
    rule: MultiplierRule, inputs: SeedInputs, *, round_number: int = 1
) -> MultiplierCards:
    """The multiplier cards of round ``round_number`` under ``inputs``, drawn as ``rule`` says (steps 1-5)."""
    words = multiplier_words(inputs, round_number)
    count = _by_weight(words, rule.card_weights)
    deck = list(DECK)
    for i in range(count):
        j = i + below(words, VIRTUAL_DECK - i)
        deck[i], deck[j] = deck[j], deck[i]
    cards = tuple(MultiplierCard(card, _by_weight(words, rule.multiplier_weights)) for card in deck[:count])
    return MultiplierCards(cards, ALGORITHM)


def studio_multiplier_cards(rule: MultiplierRule, given: Sequence[tuple[Card, int]]) -> MultiplierCards:
    """The multiplier cards a studio drew, each a card and its multiplier,
    checked against ``rule``: a count it draws, each card once, multipliers
    it has. A :class:`.MultiplierCardError` names each offending one, at
    ``multiplier_cards`` (the count) or ``multiplier_cards/i/card`` and
    ``multiplier_cards/i/multiplier``.

    >>> from service.baccarat.rulebook.cards import parse_card
    >>> from service.baccarat.multipliers.presets import PRESETS
    >>> rule = PRESETS["golden_wealth"].rule
    >>> studio_multiplier_cards(rule, [(parse_card("7S"), 8), (parse_card("7S"), 4)])
    Traceback (most recent call last):
    ...
    service.baccarat.multipliers.rule.MultiplierCardError: \
The multiplier cards cannot come from this rule: \
multiplier_cards: the rule draws 5 multiplier card(s), not 2; multiplier_cards/1/card: 7S is already \
multiplier card 0: the virtual deck holds each card once; multiplier_cards/1/multiplier: 4 is not a \
multiplier of the rule (2, 3, 5, 8)
    """
    counts = [count for count, _ in rule.card_weights]
    faults = []
    if len(given) not in counts:
        described = ", ".join(str(count) for count in counts)
        faults.append(
            Fault.of(
                ("multiplier_cards",), FaultCode.MULTIPLIER_CARD_COUNT, counts=described, count=len(given)
            )
        )
        if len(given) > VIRTUAL_DECK:  # more than the deck holds: the cards themselves are not read
            raise MultiplierCardError("The multiplier cards cannot come from this rule", faults)
    first: dict[Card, int] = {}
    values = ", ".join(str(value) for value, _ in rule.multiplier_weights)
    for index, (card, multiplier) in enumerate(given):
        at = ("multiplier_cards", index)
        if card in first:
            repeated = FaultCode.MULTIPLIER_CARD_REPEATED
            faults.append(Fault.of((*at, "card"), repeated, card=card.code, first=first[card]))
        first.setdefault(card, index)
        if multiplier not in rule.multipliers:
            not_of_rule = FaultCode.MULTIPLIER_NOT_OF_RULE
            faults.append(
                Fault.of((*at, "multiplier"), not_of_rule, multiplier=multiplier, multipliers=values)
            )
    if faults:
        raise MultiplierCardError("The multiplier cards cannot come from this rule", faults)
    return MultiplierCards(tuple(MultiplierCard(card, multiplier) for card, multiplier in given))
