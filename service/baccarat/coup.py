"""One round (a *coup*) dealt from a sequence of cards.

Cards are read in dealing order: Player, Banker, Player, Banker, then the
Player's third card if the Player draws, then the Banker's if the Banker
draws. The round stops reading as soon as the rules need no more cards.

>>> from service.baccarat.cards import parse_card
>>> coup = deal([parse_card(c) for c in ["9S", "KH", "2D", "7C", "5H"]])
>>> coup.player.total, coup.banker.total, coup.outcome
(6, 7, <Outcome.BANKER: 'banker'>)
>>> coup.cards_used
5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .cards import Card, hand_total
from .errors import MissingCard, Problem
from .tableau import banker_draws, is_natural, player_draws


class Side(StrEnum):
    PLAYER = "player"
    BANKER = "banker"


class Outcome(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards one side holds at the end of the round.

    What a hand is (its total, natural, pairs) is worked out once, when it is
    made: a round and its answer read these many times.
    """

    cards: tuple[Card, ...]
    #: Final total, 0-9.
    total: int = field(init=False, compare=False)
    #: Two cards totalling 8 or 9.
    natural: bool = field(init=False, repr=False, compare=False)
    #: The first two cards share a rank (10-J is not a pair), judged on the
    #: first two cards even when the hand drew a third.
    pair: bool = field(init=False, repr=False, compare=False)
    #: The first two cards are the same rank and suit.
    perfect_pair: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = self.cards
        total = hand_total(cards)
        pair = cards[0].rank == cards[1].rank
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "natural", len(cards) == 2 and is_natural(total))
        object.__setattr__(self, "pair", pair)
        object.__setattr__(self, "perfect_pair", pair and cards[0] == cards[1])  # equal cards share a rank


@dataclass(frozen=True, slots=True)
class Decision:
    """A draw or a stand, with the rule that made it."""

    hand: Side
    draw: bool
    reason: str
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Coup:
    """A finished round.

    Its facts (outcome, natural, draws, stands, cards used) are worked out
    once, when it is made: settling and answering read them many times.
    """

    player: Hand
    banker: Hand
    decisions: tuple[Decision, ...]
    outcome: Outcome = field(init=False, repr=False, compare=False)
    #: Either hand is a natural, so nobody drew.
    natural: bool = field(init=False, repr=False, compare=False)
    cards_used: int = field(init=False, repr=False, compare=False)
    draws: tuple[Decision, ...] = field(init=False, repr=False, compare=False)
    stands: tuple[Decision, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        player, banker = self.player, self.banker
        if player.total == banker.total:
            outcome = Outcome.TIE
        else:
            outcome = Outcome.PLAYER if player.total > banker.total else Outcome.BANKER
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "natural", player.natural or banker.natural)
        object.__setattr__(self, "cards_used", len(player.cards) + len(banker.cards))
        object.__setattr__(self, "draws", tuple([d for d in self.decisions if d.draw]))
        object.__setattr__(self, "stands", tuple([d for d in self.decisions if not d.draw]))


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
_DEAL_ORDER = (
    "Player's first card",
    "Banker's first card",
    "Player's second card",
    "Banker's second card",
)

# The tableau's decisions depend only on two-card totals and the point value
# of the Player's third card, so each one is made once, here, by the rules of
# :mod:`.tableau`: dealing a round looks its decisions up instead of formatting
# their sentences. A stand holds no card, so these serve as they are; a draw
# is remade with its card.
_PLAYER_DECISIONS = tuple(Decision(Side.PLAYER, *player_draws(total)) for total in range(8))
_BANKER_DECISIONS_PLAYER_STOOD = tuple(
    Decision(Side.BANKER, *banker_draws(total, None)) for total in range(8)
)
_BANKER_DECISIONS_PLAYER_DREW = tuple(
    tuple(Decision(Side.BANKER, *banker_draws(total, third)) for third in range(10)) for total in range(8)
)


def _natural_stands(p_total: int, b_total: int) -> tuple[Decision, Decision]:
    holder, total = ("Player", p_total) if is_natural(p_total) else ("Banker", b_total)
    reason = f"{holder} has a natural {total}: nobody draws"
    return Decision(Side.PLAYER, False, reason), Decision(Side.BANKER, False, reason)


#: Both stands of a round a natural ends, by the two-card totals.
_NATURAL_STANDS = {
    (p_total, b_total): _natural_stands(p_total, b_total)
    for p_total in range(10)
    for b_total in range(10)
    if is_natural(p_total) or is_natural(b_total)
}


def _missing(cards: Sequence[Card], field: str, offset: int, position: int, why: str) -> MissingCard:
    """The error for a round that needs card ``position`` (counted from
    ``offset``) where ``cards`` has none, for the rule ``why``."""
    return MissingCard(
        f"The round needs a {_ORDINALS[position]} card but only {len(cards) - offset} were sent: {why}",
        [Problem((field, offset + position), f"missing: {why}")],
    )


def deal(cards: Sequence[Card], *, field: str = "cards", offset: int = 0) -> Coup:
    """Play one round from ``cards`` (read from ``offset``) by the tableau.

    Raises :class:`MissingCard`, naming the position of the card that is
    missing and the rule that needed it, when the sequence runs out.
    """
    end = len(cards)
    if offset + 4 > end:
        position = max(end - offset, 0)
        raise _missing(cards, field, offset, position, f"the initial deal needs the {_DEAL_ORDER[position]}")
    p1, b1, p2, b2 = cards[offset], cards[offset + 1], cards[offset + 2], cards[offset + 3]
    p_total, b_total = (p1.points + p2.points) % 10, (b1.points + b2.points) % 10

    if is_natural(p_total) or is_natural(b_total):
        return Coup(Hand((p1, p2)), Hand((b1, b2)), _NATURAL_STANDS[p_total, b_total])

    index = offset + 4
    player_rule = _PLAYER_DECISIONS[p_total]
    if player_rule.draw:
        if index >= end:
            why = f"the Player draws a third card ({player_rule.reason})"
            raise _missing(cards, field, offset, index - offset, why)
        third = cards[index]
        index += 1
        player = Hand((p1, p2, third))
        player_decision = Decision(Side.PLAYER, True, player_rule.reason, third)
        banker_rule = _BANKER_DECISIONS_PLAYER_DREW[b_total][third.points]
    else:
        player = Hand((p1, p2))
        player_decision = player_rule
        banker_rule = _BANKER_DECISIONS_PLAYER_STOOD[b_total]

    if banker_rule.draw:
        if index >= end:
            why = f"the Banker draws a third card ({banker_rule.reason})"
            raise _missing(cards, field, offset, index - offset, why)
        third = cards[index]
        banker_decision = Decision(Side.BANKER, True, banker_rule.reason, third)
        return Coup(player, Hand((b1, b2, third)), (player_decision, banker_decision))
    return Coup(player, Hand((b1, b2)), (player_decision, banker_rule))
