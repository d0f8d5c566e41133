"""A round dealt live: the cards come one at a time, as a scanner reads them
leaving the shoe, and after each one the tableau says whether the round goes
on and which hand gets the next card.

Cards may be tagged with the hand the dealer placed them with. A card that
goes to a hand the tableau does not give it to, or that comes after the round
is over, is a :class:`Misdeal` pointing at that card. Untagged cards are taken
to go where the tableau sends them.

>>> from service.baccarat.rulebook.cards import parse_card
>>> dealt = deal_one_round([parse_card(c) for c in ["9S", "KH", "2D", "3C"]])
>>> dealt.next.hand, dealt.next.place
(<Side.PLAYER: 'player'>, <Place.PLAYER_THIRD: 'player_third'>)
>>> dealt.next.reason
"Player's two-card total is 1: the Player draws on 0-5"
>>> deal_one_round([parse_card(c) for c in ["9S", "KH", "2D", "3C", "5H", "4D"]]).outcome
<Outcome.BANKER: 'banker'>
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, hand_total
from .coup import INITIAL_DEAL, Coup, Place, Side, deal
from .errors import N_, Misdeal, MissingCard, Problem, ProblemCode
from .tableau import Reason, ReasonCode, banker_draws, is_natural, nobody_draws, player_draws

#: No round deals more cards: two to each hand, and a third to each at most.
MAX_ROUND_CARDS = 6


_INITIAL_REASON = Reason.of(ReasonCode.INITIAL_DEAL)


@dataclass(frozen=True, slots=True)
class NextCard:
    """The card the round needs next: where it goes, its position in the
    cards sent (counted from 0), and the rule that calls for it."""

    place: Place
    position: int
    reason: Reason

    @property
    def hand(self) -> Side:
        return self.place.hand


@dataclass(frozen=True, slots=True)
class HandSoFar:
    """The cards one hand holds so far."""

    cards: tuple[Card, ...]

    @property
    def total(self) -> int:
        return hand_total(self.cards)

    @property
    def natural(self) -> bool:
        return len(self.cards) == 2 and is_natural(self.total)


@dataclass(frozen=True, slots=True)
class RoundInProgress:
    """A round that needs more cards: the hands so far and the next card."""

    player: HandSoFar
    banker: HandSoFar
    next: NextCard

    @property
    def cards_dealt(self) -> int:
        return len(self.player.cards) + len(self.banker.cards)


@dataclass(frozen=True, slots=True)
class RoundOver:
    """Why a round needs no more cards: the rules that ended it (the
    Player's and the Banker's when both had their say)."""

    reasons: tuple[Reason, ...]


def what_comes_next(cards: Sequence[Card], start: int = 0, end: int | None = None) -> NextCard | RoundOver:
    """The card the round dealt as ``cards[start:end]`` needs next, or why it
    needs none: the tableau (:mod:`.rulebook.tableau`), asked one card at a time."""
    dealt = (len(cards) if end is None else end) - start
    if dealt < len(INITIAL_DEAL):
        return NextCard(INITIAL_DEAL[dealt], start + dealt, _INITIAL_REASON)
    p_total = (cards[start].points + cards[start + 2].points) % 10
    b_total = (cards[start + 1].points + cards[start + 3].points) % 10
    if is_natural(p_total) or is_natural(b_total):
        return RoundOver((nobody_draws(p_total, b_total),))
    player_draw, player_reason = player_draws(p_total)
    if player_draw:
        if dealt == 4:
            return NextCard(Place.PLAYER_THIRD, start + 4, player_reason)
        banker_draw, banker_reason = banker_draws(b_total, cards[start + 4].points)
        if banker_draw and dealt == 5:
            return NextCard(Place.BANKER_THIRD, start + 5, banker_reason)
        if not banker_draw:
            return RoundOver((banker_reason,))
        return RoundOver((Reason.of(ReasonCode.BOTH_HANDS_DREW),))
    banker_draw, banker_reason = banker_draws(b_total, None)
    if banker_draw and dealt == 4:
        return NextCard(Place.BANKER_THIRD, start + 4, banker_reason)
    return RoundOver((player_reason, banker_reason))


Hands = Sequence[Side | None]


def deal_live(
    cards: Sequence[Card], hands: Hands = (), *, start: int = 0, field: str = "cards"
) -> Coup | RoundInProgress:
    """The round dealt from ``cards[start:]`` so far: the finished
    :class:`Coup` (exactly :func:`.rulebook.coup.deal`'s) once the rules need no more
    cards, else the round in progress. Cards after the round are not read
    (they begin a shoe's next round).

    ``hands`` tags cards (by the same index as ``cards``) with the hand the
    dealer placed them with; ``None`` or no tag is not checked. A card placed
    with a hand the tableau does not give it to is a :class:`Misdeal`.
    """
    if any(hands[start : start + MAX_ROUND_CARDS]):
        _check_hands(cards, hands, start, field)
    try:
        return deal(cards, field=field, offset=start)
    except MissingCard:
        pass
    expected = what_comes_next(cards, start)
    assert isinstance(expected, NextCard)  # deal() ran out of cards, so one is needed
    # An unfinished round's fifth card is the Player's third: the Banker's
    # third card is always the round's last.
    player = tuple(cards[start + i] for i in (0, 2, 4) if start + i < len(cards))
    banker = tuple(cards[start + i] for i in (1, 3) if start + i < len(cards))
    return RoundInProgress(HandSoFar(player), HandSoFar(banker), expected)


def deal_one_round(
    cards: Sequence[Card], hands: Hands = (), *, field: str = "cards"
) -> Coup | RoundInProgress:
    """:func:`deal_live` for a round on its own: a card after the round is
    over is a :class:`Misdeal`."""
    dealt = deal_live(cards, hands, field=field)
    if isinstance(dealt, Coup) and dealt.cards_used < len(cards):
        over = what_comes_next(cards, 0, dealt.cards_used)
        assert isinstance(over, RoundOver)
        raise Misdeal(
            N_("The round was over after {cards} cards: {reasons}"),
            [Problem.of((field, dealt.cards_used), ProblemCode.DEALT_AFTER_ROUND, reasons=over.reasons)],
            cards=dealt.cards_used,
            reasons=over.reasons,
        )
    return dealt


def _check_hands(cards: Sequence[Card], hands: Hands, start: int, field: str) -> None:
    """Raise :class:`Misdeal` at the first card of the round from ``start``
    placed with a hand the tableau does not give it to."""
    for position in range(start, min(len(cards), len(hands), start + MAX_ROUND_CARDS)):
        expected = what_comes_next(cards, start, position)
        if isinstance(expected, RoundOver):
            return
        placed = hands[position]
        if placed is not None and placed != expected.hand:
            place, reason = expected.place, expected.reason
            raise Misdeal(
                N_(
                    "The card at position {position} was placed with the {placed}, "
                    "but it is {place}: {reason}"
                ),
                [
                    Problem.of(
                        (field, position),
                        ProblemCode.WRONG_HAND,
                        placed=placed,
                        hand=expected.hand,
                        place=place,
                        reason=reason,
                    )
                ],
                position=position,
                placed=placed,
                place=place,
                reason=reason,
            )
