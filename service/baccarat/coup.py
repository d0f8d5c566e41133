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
    """The cards one side holds at the end of the round."""

    cards: tuple[Card, ...]
    total: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        # Computed once: totals are read many times per round.
        object.__setattr__(self, "total", hand_total(self.cards))

    @property
    def natural(self) -> bool:
        """Two cards totalling 8 or 9."""
        return len(self.cards) == 2 and is_natural(self.total)

    @property
    def pair(self) -> bool:
        """The first two cards share a rank (10-J is not a pair), judged on
        the first two cards even when the hand drew a third."""
        return self.cards[0].rank == self.cards[1].rank

    @property
    def perfect_pair(self) -> bool:
        """The first two cards are the same rank and suit."""
        return self.cards[0] == self.cards[1]


@dataclass(frozen=True, slots=True)
class Decision:
    """A draw or a stand, with the rule that made it."""

    hand: Side
    draw: bool
    reason: str
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class Coup:
    """A finished round."""

    player: Hand
    banker: Hand
    decisions: tuple[Decision, ...]

    @property
    def outcome(self) -> Outcome:
        player, banker = self.player.total, self.banker.total
        if player == banker:
            return Outcome.TIE
        return Outcome.PLAYER if player > banker else Outcome.BANKER

    @property
    def natural(self) -> bool:
        """Either hand is a natural, so nobody drew."""
        return self.player.natural or self.banker.natural

    @property
    def cards_used(self) -> int:
        return len(self.player.cards) + len(self.banker.cards)

    @property
    def draws(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if d.draw)

    @property
    def stands(self) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if not d.draw)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def deal(cards: Sequence[Card], *, field: str = "cards", offset: int = 0) -> Coup:
    """Play one round from ``cards`` (read from ``offset``) by the tableau.

    Raises :class:`MissingCard`, naming the position of the card that is
    missing and the rule that needed it, when the sequence runs out.
    """

    def take(position: int, why: str) -> Card:
        index = offset + position
        if index >= len(cards):
            raise MissingCard(
                f"The round needs a {_ORDINALS[position]} card but only "
                f"{len(cards) - offset} were sent: {why}",
                [Problem((field, index), f"missing: {why}")],
            )
        return cards[index]

    deal_order = (
        "Player's first card",
        "Banker's first card",
        "Player's second card",
        "Banker's second card",
    )
    p1, b1, p2, b2 = (take(i, f"the initial deal needs the {what}") for i, what in enumerate(deal_order))
    player, banker = [p1, p2], [b1, b2]
    p_total, b_total = hand_total(player), hand_total(banker)

    if is_natural(p_total) or is_natural(b_total):
        holder = "Player" if is_natural(p_total) else "Banker"
        total = p_total if holder == "Player" else b_total
        reason = f"{holder} has a natural {total}: nobody draws"
        return Coup(
            Hand(tuple(player)),
            Hand(tuple(banker)),
            (Decision(Side.PLAYER, False, reason), Decision(Side.BANKER, False, reason)),
        )

    decisions = []
    position = 4
    p_draw, reason = player_draws(p_total)
    player_third: int | None = None
    if p_draw:
        card = take(position, f"the Player draws a third card ({reason})")
        position += 1
        player.append(card)
        player_third = card.points
        decisions.append(Decision(Side.PLAYER, True, reason, card))
    else:
        decisions.append(Decision(Side.PLAYER, False, reason))

    b_draw, reason = banker_draws(b_total, player_third)
    if b_draw:
        card = take(position, f"the Banker draws a third card ({reason})")
        banker.append(card)
        decisions.append(Decision(Side.BANKER, True, reason, card))
    else:
        decisions.append(Decision(Side.BANKER, False, reason))
    return Coup(Hand(tuple(player)), Hand(tuple(banker)), tuple(decisions))
