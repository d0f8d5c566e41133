"""Dealing a whole shoe the way a casino deals it: burn, cut card, last round.

Positions count from 0, the top of the shoe (the first card out):

1. **Burn.** The card at position 0 is turned face up and that many more
   cards are burned, tens and faces counting 10 (``Card.pip``). The turned
   card is burned too, so 2 to 11 cards go before the first round.
2. **Cut card.** It sits ``cut_card`` cards from the end (a table setting,
   16 by default; 14 to 80 allowed, and never more than half the shoe): the
   first card behind it is at ``cut_card_position = len(shoe) - cut_card``.
3. **Rounds** are dealt one after the other from there by the tableau
   (:func:`.rulebook.coup.deal`). The cut card comes out in the round
   that deals the card at ``cut_card_position``; that round is finished, one
   more round is dealt, and the shoe ends. The cards after the last round are
   left behind: every card is burned, dealt, or left behind.

A round depends only on the shoe and the rounds before it, so round ``n``
asked for alone (``until=n``) equals round ``n`` of the whole shoe.

>>> from service.baccarat.rulebook.cards import shoe
>>> dealt = deal_shoe(shoe(1))  # an unshuffled deck: AS is turned, 1 more burned
>>> [card.code for card in dealt.burned]
['AS', '2S']
>>> dealt.rounds[0].positions
Positions(player=(2, 4), banker=(3, 5))
>>> dealt.burn_count + dealt.dealt_count + dealt.left_behind_count == 52
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..rulebook.cards import Card
from ..rulebook.coup import Coup, deal, from_fields
from ..rulebook.errors import N_, Misdeal, Problem, ProblemCode, ShoeError
from ..rulebook.live import MAX_ROUND_CARDS, Hands, RoundInProgress, deal_live

#: Cards left behind the cut card unless the table says otherwise.
DEFAULT_CUT_CARD = 16
#: The cut card's allowed distance from the end of the shoe, in cards. At
#: least 14 leaves room for the round in progress and one more (12 cards at
#: most); it is never placed in the first half of the shoe either.
MIN_CUT_CARD, MAX_CUT_CARD = 14, 80


@dataclass(frozen=True, slots=True)
class Positions:
    """Shoe positions of each hand's cards: first, second, then the third if drawn."""

    player: tuple[int, ...]
    banker: tuple[int, ...]


class ShoeRound(NamedTuple):
    """One round of a shoe: its number, where its cards lay, and how it went
    (a named tuple, as the :class:`.rulebook.coup.Coup` it holds, for the same reason)."""

    number: int
    start: int
    coup: Coup
    cut_card_out: bool
    last: bool

    @property
    def positions(self) -> Positions:
        """Where each hand's cards lay in the shoe, in the order each hand got them."""
        start, player_drew = self.start, len(self.coup.player.cards) == 3
        player = (start, start + 2, start + 4) if player_drew else (start, start + 2)
        banker: tuple[int, ...] = (start + 1, start + 3)
        if len(self.coup.banker.cards) == 3:
            banker += (start + 5 if player_drew else start + 4,)
        return Positions(player, banker)

    @property
    def end(self) -> int:
        """The position after this round's last card."""
        return self.start + self.coup.cards_used


@dataclass(frozen=True, slots=True)
class DealtShoe:
    """A shoe dealt from the top, to its end or up to a round number."""

    cards: tuple[Card, ...]
    #: Position of the first card behind the cut card; ``None`` while a
    #: physical shoe's cut card has not come out.
    cut_card_position: int | None
    rounds: tuple[ShoeRound, ...]
    #: False when dealing stopped at a requested round before the shoe
    #: ended, or a physical shoe's cards ran out before its last round.
    complete: bool
    #: A physical shoe's round still being dealt when its cards ran out.
    in_progress: RoundInProgress | None = None

    @property
    def burn_count(self) -> int:
        """The turned card plus as many cards as its pip value."""
        return 1 + self.cards[0].pip

    @property
    def burned(self) -> tuple[Card, ...]:
        """The burned cards in order, the turned card first (so far, for a
        physical shoe still at its burn)."""
        return self.cards[: self.burn_count]

    @property
    def burn_remaining(self) -> int:
        """Cards still to burn: more than 0 only for a physical shoe at its burn."""
        return max(self.burn_count - len(self.cards), 0)

    @property
    def in_progress_count(self) -> int:
        """Cards dealt in the round in progress."""
        return 0 if self.in_progress is None else self.in_progress.cards_dealt

    @property
    def dealt_count(self) -> int:
        """Cards dealt in the rounds."""
        return sum(r.coup.cards_used for r in self.rounds)

    @property
    def left_behind_count(self) -> int:
        """Cards never dealt: those after the last round dealt."""
        end = self.rounds[-1].end if self.rounds else min(self.burn_count, len(self.cards))
        return len(self.cards) - end - self.in_progress_count


def cut_card_problem(shoe_size: int, cut_card: int) -> Problem | None:
    """What is wrong with a cut card ``cut_card`` cards from the end of a
    ``shoe_size``-card shoe: outside 14-80 cards from the end or in the first
    half of the shoe (None when it can be placed there)."""
    largest = min(MAX_CUT_CARD, shoe_size // 2)
    if MIN_CUT_CARD <= cut_card <= largest:
        return None
    return Problem.of(
        ("rules", "cut_card"),
        ProblemCode.CUT_CARD_OUT_OF_RANGE,
        least=MIN_CUT_CARD,
        most=largest,
        cards=shoe_size,
        max_cut=MAX_CUT_CARD,
    )


def check_cut_card(shoe_size: int, cut_card: int) -> None:
    """Refuse a cut card outside 14-80 cards from the end or in the first half of the shoe."""
    problem = cut_card_problem(shoe_size, cut_card)
    if problem is not None:
        raise ShoeError(
            N_("A cut card {cut_card} cards from the end cannot be placed in a {cards}-card shoe"),
            [problem],
            cut_card=cut_card,
            cards=shoe_size,
        )


def deal_shoe(
    cards: Sequence[Card], *, cut_card: int = DEFAULT_CUT_CARD, until: int | None = None
) -> DealtShoe:
    """Burn, then deal rounds from ``cards`` (position 0 first) until one
    round after the cut card came out, or until round ``until`` is dealt."""
    check_cut_card(len(cards), cut_card)
    cut_position = len(cards) - cut_card
    rounds, in_progress = _rounds(cards, (), cut_position, until)
    assert in_progress is None  # a cut card 14 or more from the end leaves the last round its cards
    return DealtShoe(tuple(cards), cut_position, rounds, complete=bool(rounds) and rounds[-1].last)


def deal_physical_shoe(
    cards: Sequence[Card], hands: Hands = (), *, decks: int, cut_card_position: int | None = None
) -> DealtShoe:
    """The rounds of a physical shoe of ``decks`` decks from the cards dealt
    so far (position 0 first, the burn included), as :func:`deal_shoe` deals
    them; ``cut_card_position`` is where the cut card came out (the position
    of the first card behind it), ``None`` while it has not.

    A round the cards stop in is the shoe's round in progress; ``hands`` tags
    cards with the hand they were placed with (:func:`.rulebook.live.deal_live`). A
    card after the shoe's last round, or a burned card placed with a hand, is
    a :class:`.rulebook.errors.Misdeal`.
    """
    if cut_card_position is not None:
        _check_cut_card_position(cut_card_position, len(cards), decks)
    for position, hand in enumerate(hands[: 1 + cards[0].pip]):
        if hand is not None:
            raise Misdeal(
                N_("The card at position {position} is burned, so it goes to no hand"),
                [Problem.of(("cards", position), ProblemCode.BURNED_CARD_PLACED, hand=hand)],
                position=position,
            )
    rounds, in_progress = _rounds(cards, hands, cut_card_position, None)
    complete = bool(rounds) and rounds[-1].last
    if complete and rounds[-1].end < len(cards):
        raise Misdeal(
            N_("The shoe ended with round {round}, the round after the cut card came out"),
            [Problem.of(("cards", rounds[-1].end), ProblemCode.DEALT_AFTER_SHOE, round=len(rounds))],
            round=len(rounds),
        )
    return DealtShoe(tuple(cards), cut_card_position, rounds, complete=complete, in_progress=in_progress)


def _rounds(
    cards: Sequence[Card], hands: Hands, cut_position: int | None, until: int | None
) -> tuple[tuple[ShoeRound, ...], RoundInProgress | None]:
    """The rounds dealt after the burn until the shoe's last round (the one
    after the round that deals the card at ``cut_position``), round
    ``until``, or the end of ``cards``; and the round those cards stop in."""
    size, position = len(cards), 1 + cards[0].pip
    most = size if until is None else until
    # From here on, a round has every card it could need.
    whole = size - MAX_ROUND_CARDS
    # No round ends past the last card: a shoe without a cut card never sees it come out.
    cut = size if cut_position is None else cut_position
    rounds: list[ShoeRound] = []
    number, cut_out = 0, False
    while position < size and number < most:
        # A round with no hands to check and every card it could need is
        # dealt as such; the others may stop short or be misdealt (:mod:`.rulebook.live`).
        if hands or position > whole:
            dealt = deal_live(cards, hands, start=position)
            if isinstance(dealt, RoundInProgress):
                return tuple(rounds), dealt
        else:
            dealt = deal(cards, offset=position)
        number += 1
        if cut_out:  # the round after the one the cut card came out in is the last
            rounds.append(from_fields(ShoeRound, (number, position, dealt, False, True)))
            break
        end = position + dealt.cards_used
        cut_out = end > cut
        rounds.append(from_fields(ShoeRound, (number, position, dealt, cut_out, False)))
        position = end
    return tuple(rounds), None


def _check_cut_card_position(position: int, sent: int, decks: int) -> None:
    """Refuse a cut card where :func:`check_cut_card` would not place it in a
    shoe of ``decks`` decks, or behind the cards sent."""
    size = 52 * decks
    earliest, latest = size - min(MAX_CUT_CARD, size // 2), size - MIN_CUT_CARD
    if not earliest <= position <= latest:
        raise ShoeError(
            N_("A cut card cannot come out at position {position} of a {cards}-card shoe"),
            [
                Problem.of(
                    ("cut_card_position",),
                    ProblemCode.CUT_CARD_POSITION_OUT_OF_RANGE,
                    earliest=earliest,
                    latest=latest,
                    cards=size,
                    min_cut=MIN_CUT_CARD,
                    max_cut=MAX_CUT_CARD,
                )
            ],
            position=position,
            cards=size,
        )
    if position > sent:
        raise ShoeError(
            N_("The cut card came out behind the cards sent"),
            [
                Problem.of(
                    ("cut_card_position",),
                    ProblemCode.CUT_CARD_POSITION_NOT_SENT,
                    position=position,
                    sent=sent,
                )
            ],
        )


def shoe_round(
    cards: Sequence[Card], number: int, *, cut_card: int = DEFAULT_CUT_CARD, field: str = "round"
) -> ShoeRound:
    """Round ``number`` (1 = the first after the burn) of the shoe ``cards``,
    equal to that round of the whole shoe; :class:`ShoeError` past the last."""
    dealt = deal_shoe(cards, cut_card=cut_card, until=number)
    if len(dealt.rounds) < number:
        raise past_the_end(len(dealt.rounds), {field: number})
    return dealt.rounds[-1]


def past_the_end(rounds: int, asked: dict[str, int]) -> ShoeError:
    """The error for round numbers (by request field) past a shoe's last round."""
    return ShoeError(
        N_("This shoe ends after round {rounds}"),
        [
            Problem.of((field,), ProblemCode.ROUND_PAST_SHOE, round=number, rounds=rounds)
            for field, number in asked.items()
        ],
        rounds=rounds,
    )
