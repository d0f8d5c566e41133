"""One round (a *coup*) dealt from a sequence of cards.

Cards are read in dealing order: Player, Banker, Player, Banker, then the
Player's third card if the Player draws, then the Banker's if the Banker
draws. The round stops reading as soon as the rules need no more cards.

>>> from service.baccarat.rulebook.cards import parse_card
>>> coup = deal([parse_card(c) for c in ["9S", "KH", "2D", "7C", "5H"]])
>>> coup.player.total, coup.banker.total, coup.outcome
(6, 7, <Outcome.BANKER: 'banker'>)
>>> coup.cards_used
5
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from .cards import DECK, Card, hand_total
from .errors import N_, MissingCard, Problem, ProblemCode
from .tableau import Reason, banker_draws, is_natural, nobody_draws, outcome_reason, player_draws


class Side(StrEnum):
    PLAYER = "player"
    BANKER = "banker"

    @property
    def words(self) -> str:
        """``"Player"``: the hand as the rulebook names it."""
        return self.title()


class Place(StrEnum):
    """Where a card of a round goes, in the order the first four are dealt."""

    PLAYER_FIRST = "player_first"
    BANKER_FIRST = "banker_first"
    PLAYER_SECOND = "player_second"
    BANKER_SECOND = "banker_second"
    PLAYER_THIRD = "player_third"
    BANKER_THIRD = "banker_third"

    @property
    def hand(self) -> Side:
        return Side.PLAYER if self.startswith("player") else Side.BANKER

    @property
    def words(self) -> str:
        """``"the Banker's third card"``."""
        hand, ordinal = self.split("_")
        return f"the {hand.title()}'s {ordinal} card"


#: The places of the first four cards, in the order they are dealt.
INITIAL_DEAL = (Place.PLAYER_FIRST, Place.BANKER_FIRST, Place.PLAYER_SECOND, Place.BANKER_SECOND)


class Outcome(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


def outcome_of(player_total: int, banker_total: int) -> Outcome:
    """The higher final total wins; equal totals are a tie."""
    if player_total == banker_total:
        return Outcome.TIE
    return Outcome.PLAYER if player_total > banker_total else Outcome.BANKER


# A round's records are named tuples: immutable like frozen dataclasses, and
# made in a quarter of the time (a frozen dataclass sets each field through
# object.__setattr__), which is most of what dealing a round costs.


class Hand(NamedTuple):
    """The cards one side holds at the end of the round, and what they make.

    :meth:`of` works the facts out from the cards; :func:`deal` takes them
    from tables made by :meth:`of` at import.
    """

    cards: tuple[Card, ...]
    #: Final total, 0-9.
    total: int
    #: Two cards totalling 8 or 9.
    natural: bool
    #: The first two cards share a rank (10-J is not a pair), judged on the
    #: first two cards even when the hand drew a third.
    pair: bool
    #: The first two cards are the same rank and suit.
    perfect_pair: bool

    @classmethod
    def of(cls, cards: Sequence[Card]) -> Hand:
        """The hand that holds ``cards``, its facts worked out by the rules."""
        total = hand_total(cards)
        pair = cards[0].rank == cards[1].rank
        perfect_pair = pair and cards[0] == cards[1]  # equal cards share a rank
        return cls(tuple(cards), total, len(cards) == 2 and is_natural(total), pair, perfect_pair)


class Decision(NamedTuple):
    """A draw or a stand, with the rule that made it."""

    hand: Side
    draw: bool
    #: The rule's sentence, with its code and values.
    reason: Reason
    card: Card | None = None


class Coup(NamedTuple):
    """A finished round: its hands, its decisions in the order they were
    made, and the facts that follow from them (:meth:`of` works them out;
    :func:`deal` knows them as it deals)."""

    player: Hand
    banker: Hand
    decisions: tuple[Decision, ...]
    outcome: Outcome
    #: Either hand is a natural, so nobody drew.
    natural: bool
    cards_used: int
    draws: tuple[Decision, ...]
    stands: tuple[Decision, ...]

    @property
    def reason(self) -> Reason:
        """Why the round ended as it did: its final totals compared."""
        return OUTCOME_REASONS[self.player.total][self.banker.total]

    @classmethod
    def of(cls, player: Hand, banker: Hand, decisions: tuple[Decision, ...]) -> Coup:
        """The round of these hands and decisions, its facts worked out by the rules."""
        return cls(
            player,
            banker,
            decisions,
            outcome_of(player.total, banker.total),
            player.natural or banker.natural,
            len(player.cards) + len(banker.cards),
            tuple([d for d in decisions if d.draw]),
            tuple([d for d in decisions if not d.draw]),
        )


#: A record made from the tuple of its fields in order, as ``NamedTuple._make``
#: makes it but without a Python call around ``tuple.__new__``: a round is
#: made of a few records, and this takes a third of the time off dealing it.
#: Only the dealing loops use it (:func:`deal`, :mod:`.shoes.deal`), always
#: with every field; tests/baccarat/test_rulebook.py holds what they make
#: equal to what :meth:`Coup.of` and :meth:`Hand.of` make from the rules.
from_fields = tuple.__new__


# Tables made once, here, from the rules (:mod:`.rulebook.tableau`, :meth:`Hand.of`,
# :func:`outcome_of`): what a round's first four cards make depends only on
# which cards they are, and every decision only on two-card totals and the
# point value of the Player's third card. Dealing looks them up instead of
# working them out (and formatting the sentences) round after round. A stand
# holds no card, so a stand serves as it is; a draw is remade with its card.

#: Every two-card hand, by the index of its first card, then of its second.
_TWO_CARD_HANDS = tuple(tuple(Hand.of((first, second)) for second in DECK) for first in DECK)
#: The outcome, by final totals.
_OUTCOMES = tuple(tuple(outcome_of(p_total, b_total) for b_total in range(10)) for p_total in range(10))
#: Why the round ended as it did, by final totals (an answer writes it
#: beside the outcome).
OUTCOME_REASONS = tuple(
    tuple(outcome_reason(p_total, b_total) for b_total in range(10)) for p_total in range(10)
)


def _natural_stands(p_total: int, b_total: int) -> tuple[Decision, ...]:
    """Both stands of a round a natural ends, by the two-card totals; ``()``
    when neither is a natural."""
    if not (is_natural(p_total) or is_natural(b_total)):
        return ()
    reason = nobody_draws(p_total, b_total)
    return Decision(Side.PLAYER, False, reason), Decision(Side.BANKER, False, reason)


_NATURAL_STANDS = tuple(
    tuple(_natural_stands(p_total, b_total) for b_total in range(10)) for p_total in range(10)
)


class _Rule(NamedTuple):
    """A decision of the tableau and, for a draw, the same decision holding
    each card it may draw, by the card's index (``()`` for a stand)."""

    decision: Decision
    drawing: tuple[Decision, ...]

    @classmethod
    def of(cls, hand: Side, draws: tuple[bool, Reason]) -> _Rule:
        draw, reason = draws
        drawing = tuple(Decision(hand, True, reason, card) for card in DECK) if draw else ()
        return cls(Decision(hand, draw, reason), drawing)


#: The Player's rule, by two-card total (0-7: 8 and 9 are naturals).
_PLAYER_RULES = tuple(_Rule.of(Side.PLAYER, player_draws(total)) for total in range(8))
#: The Banker's rule when the Player stood, by the Banker's two-card total.
_BANKER_RULES_PLAYER_STOOD = tuple(_Rule.of(Side.BANKER, banker_draws(total, None)) for total in range(8))
#: The Banker's rule when the Player drew, by the Banker's two-card total,
#: then the point value of the Player's third card.
_BANKER_RULES_PLAYER_DREW = tuple(
    tuple(_Rule.of(Side.BANKER, banker_draws(total, third)) for third in range(10)) for total in range(8)
)


def _missing_initial(cards: Sequence[Card], field: str, offset: int, position: int) -> MissingCard:
    """The error for a round whose first four cards (from ``offset``) stop
    before card ``position``."""
    place = INITIAL_DEAL[position]
    return MissingCard(
        N_("The round needs {needed} cards but only {sent} were sent: the initial deal needs {place}"),
        [Problem.of((field, offset + position), ProblemCode.MISSING_INITIAL_CARD, place=place)],
        needed=position + 1,
        sent=len(cards) - offset,
        place=place,
    )


def _missing(cards: Sequence[Card], field: str, offset: int, position: int, rule: Decision) -> MissingCard:
    """The error for a round that needs card ``position`` (counted from
    ``offset``) where ``cards`` has none: a third card ``rule`` draws."""
    hand, reason = rule.hand, rule.reason
    return MissingCard(
        N_(
            "The round needs {needed} cards but only {sent} were sent: "
            "the {hand} draws a third card ({reason})"
        ),
        [Problem.of((field, offset + position), ProblemCode.MISSING_CARD, hand=hand, reason=reason)],
        needed=position + 1,
        sent=len(cards) - offset,
        hand=hand,
        reason=reason,
    )


def deal(cards: Sequence[Card], *, field: str = "cards", offset: int = 0) -> Coup:
    """Play one round from ``cards`` (read from ``offset``) by the tableau.

    Raises :class:`MissingCard`, naming the position of the card that is
    missing and the rule that needed it, when the sequence runs out.
    """
    end = len(cards)
    if offset + 4 > end:
        position = max(end - offset, 0)
        raise _missing_initial(cards, field, offset, position)
    player = _TWO_CARD_HANDS[cards[offset].index][cards[offset + 2].index]
    banker = _TWO_CARD_HANDS[cards[offset + 1].index][cards[offset + 3].index]
    p_total, b_total = player.total, banker.total

    if player.natural or banker.natural:
        both_stand = _NATURAL_STANDS[p_total][b_total]
        outcome = _OUTCOMES[p_total][b_total]
        return from_fields(Coup, (player, banker, both_stand, outcome, True, 4, (), both_stand))

    index = offset + 4
    player_rule = _PLAYER_RULES[p_total]
    if player_rule.drawing:
        if index >= end:
            raise _missing(cards, field, offset, index - offset, player_rule.decision)
        third = cards[index]
        index += 1
        p_total = (p_total + third.points) % 10
        player = from_fields(Hand, ((*player.cards, third), p_total, False, player.pair, player.perfect_pair))
        player_decision = player_rule.drawing[third.index]
        banker_rule = _BANKER_RULES_PLAYER_DREW[b_total][third.points]
    else:
        player_decision = player_rule.decision
        banker_rule = _BANKER_RULES_PLAYER_STOOD[b_total]

    if banker_rule.drawing:
        if index >= end:
            raise _missing(cards, field, offset, index - offset, banker_rule.decision)
        third = cards[index]
        index += 1
        b_total = (b_total + third.points) % 10
        banker = from_fields(Hand, ((*banker.cards, third), b_total, False, banker.pair, banker.perfect_pair))
        banker_decision = banker_rule.drawing[third.index]
    else:
        banker_decision = banker_rule.decision

    decisions = (player_decision, banker_decision)
    draws: tuple[Decision, ...]
    stands: tuple[Decision, ...]
    if player_decision.draw:
        draws, stands = (decisions, ()) if banker_decision.draw else ((player_decision,), (banker_decision,))
    else:
        draws, stands = ((banker_decision,), (player_decision,)) if banker_decision.draw else ((), decisions)
    outcome = _OUTCOMES[p_total][b_total]
    return from_fields(Coup, (player, banker, decisions, outcome, False, index - offset, draws, stands))
