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
from .frozen import slot_setters
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
        _fill_hand(self, self.cards, hand_total(self.cards))


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
        decisions = self.decisions
        draws = tuple([d for d in decisions if d.draw])
        _fill_coup(self, self.player, self.banker, draws, tuple([d for d in decisions if not d.draw]))


# A round makes two hands, a coup and a decision or two: :func:`deal` builds
# them with their slots' own setters (:mod:`.frozen`), which is much faster
# than the frozen ``__init__``; the public constructors fill in the same facts
# by the same functions.
_new = object.__new__
_SET_HAND_CARDS, _SET_TOTAL, _SET_HAND_NATURAL, _SET_PAIR, _SET_PERFECT_PAIR = slot_setters(
    Hand, "cards", "total", "natural", "pair", "perfect_pair"
)
_SET_SIDE, _SET_DRAW, _SET_REASON, _SET_CARD = slot_setters(Decision, "hand", "draw", "reason", "card")
(
    _SET_PLAYER,
    _SET_BANKER,
    _SET_DECISIONS,
    _SET_OUTCOME,
    _SET_COUP_NATURAL,
    _SET_CARDS_USED,
    _SET_DRAWS,
    _SET_STANDS,
) = slot_setters(Coup, "player", "banker", "decisions", "outcome", "natural", "cards_used", "draws", "stands")
#: The totals a two-card hand is a natural with.
_NATURAL_TOTALS = frozenset(total for total in range(10) if is_natural(total))


def _fill_hand(hand: Hand, cards: tuple[Card, ...], total: int) -> None:
    """Set the facts of ``hand``, which holds ``cards`` totalling ``total``."""
    first, second = cards[0], cards[1]
    pair = first.rank == second.rank
    _SET_TOTAL(hand, total)
    _SET_HAND_NATURAL(hand, len(cards) == 2 and total in _NATURAL_TOTALS)
    _SET_PAIR(hand, pair)
    _SET_PERFECT_PAIR(hand, pair and first == second)  # equal cards share a rank


def _hand(cards: tuple[Card, ...], total: int) -> Hand:
    """``Hand(cards)``, for a dealer who has already added up ``total``."""
    hand = _new(Hand)
    _SET_HAND_CARDS(hand, cards)
    _fill_hand(hand, cards, total)
    return hand


def _fill_coup(
    coup: Coup, player: Hand, banker: Hand, draws: tuple[Decision, ...], stands: tuple[Decision, ...]
) -> None:
    """Set the facts of ``coup``, played to ``player`` and ``banker`` by
    ``draws`` and ``stands``."""
    p_total, b_total = player.total, banker.total
    if p_total == b_total:
        _SET_OUTCOME(coup, Outcome.TIE)
    else:
        _SET_OUTCOME(coup, Outcome.PLAYER if p_total > b_total else Outcome.BANKER)
    _SET_COUP_NATURAL(coup, player.natural or banker.natural)
    _SET_CARDS_USED(coup, len(player.cards) + len(banker.cards))
    _SET_DRAWS(coup, draws)
    _SET_STANDS(coup, stands)


def _coup(player: Hand, banker: Hand, player_decision: Decision, banker_decision: Decision) -> Coup:
    """``Coup(player, banker, (player_decision, banker_decision))``."""
    coup = _new(Coup)
    _SET_PLAYER(coup, player)
    _SET_BANKER(coup, banker)
    decisions = (player_decision, banker_decision)
    _SET_DECISIONS(coup, decisions)
    draws: tuple[Decision, ...]
    stands: tuple[Decision, ...]
    if player_decision.draw:
        draws, stands = (decisions, ()) if banker_decision.draw else ((player_decision,), (banker_decision,))
    else:
        draws, stands = ((banker_decision,), (player_decision,)) if banker_decision.draw else ((), decisions)
    _fill_coup(coup, player, banker, draws, stands)
    return coup


def _draw(side: Side, reason: str, card: Card) -> Decision:
    """``Decision(side, True, reason, card)``."""
    decision = _new(Decision)
    _SET_SIDE(decision, side)
    _SET_DRAW(decision, True)
    _SET_REASON(decision, reason)
    _SET_CARD(decision, card)
    return decision


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

    if p_total in _NATURAL_TOTALS or b_total in _NATURAL_TOTALS:
        player_stands, banker_stands = _NATURAL_STANDS[p_total, b_total]
        return _coup(_hand((p1, p2), p_total), _hand((b1, b2), b_total), player_stands, banker_stands)

    index = offset + 4
    player_rule = _PLAYER_DECISIONS[p_total]
    if player_rule.draw:
        if index >= end:
            why = f"the Player draws a third card ({player_rule.reason})"
            raise _missing(cards, field, offset, index - offset, why)
        third = cards[index]
        index += 1
        player = _hand((p1, p2, third), (p_total + third.points) % 10)
        player_decision = _draw(Side.PLAYER, player_rule.reason, third)
        banker_rule = _BANKER_DECISIONS_PLAYER_DREW[b_total][third.points]
    else:
        player = _hand((p1, p2), p_total)
        player_decision = player_rule
        banker_rule = _BANKER_DECISIONS_PLAYER_STOOD[b_total]

    if banker_rule.draw:
        if index >= end:
            why = f"the Banker draws a third card ({banker_rule.reason})"
            raise _missing(cards, field, offset, index - offset, why)
        third = cards[index]
        banker = _hand((b1, b2, third), (b_total + third.points) % 10)
        return _coup(player, banker, player_decision, _draw(Side.BANKER, banker_rule.reason, third))
    return _coup(player, _hand((b1, b2), b_total), player_decision, banker_rule)
