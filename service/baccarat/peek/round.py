"""Peek Baccarat: some of the first four cards shown, then the main bet kept, doubled or tripled.

The operator's published game conditions: the Player and Banker bets cost a
fee of 20% of the stake on top of it (a 5 bet costs 6), Tie and the pairs
none. After the first two cards of each hand are dealt, 1 to 4 of those four
cards are shown; the player may then keep the Player or Banker bet, double
it or triple it (up to the table maximum), with no fee on the raise. The
round is then finished by the tableau and settled by the table's pay tables
(Player 1:1, Banker 0.95:1, Tie 8:1, pairs 11:1); the fee is kept whatever
the result.

A round is played in two stateless calls with the same inputs: the first
(no ``decision``) answers only the cards shown, never the hidden ones; the
second sends the same inputs and the decision and gets the round settled.

Which cards are shown (:func:`shown_positions`): with cards sent, the caller
says (the studio decides); with seed inputs, a subset drawn from the seed
inputs, independent of the cards (another hash than the shuffle's): how many
by the rule's weights, then which, each subset of that many equally likely.

>>> from service.baccarat.rulebook.cards import parse_card
>>> from service.baccarat.tables.rules import resolve_rules
>>> cards = tuple(parse_card(c) for c in "9S KH 2D 7C 5H".split())
>>> bets = (Bet(type=BetType.BANKER, amount=Decimal("5")),)
>>> view = peek(resolve_rules(), cards=cards, shown=(Position.BANKER_FIRST,), bets=bets)
>>> [(str(p), c.code) for p, c in view.shown], view.cost
([('banker_first', 'KH')], Decimal('6.00'))
>>> done = peek(resolve_rules(), cards=cards, shown=(Position.BANKER_FIRST,), bets=bets,
...             decision={BetType.BANKER: Choice.TRIPLE})
>>> done.played.settlement.bets[0].returned, done.cost, done.net
(Decimal('29.25'), Decimal('16.00'), Decimal('13.25'))
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

from ..bets.money import ZERO, decimal_places, format_amount
from ..bets.types import Bet, BetType
from ..play.round import PlayedRound, Step, play_and_settle, unwatched
from ..rulebook.cards import Card, check_composition
from ..rulebook.coup import Coup, deal
from ..rulebook.errors import N_, BetError, MissingCard, Problem, ProblemCode, SeedError
from ..shoes.shuffle import SeedInputs
from ..tables.rules import PEEK_FEE_BETS, PEEK_FEE_RATE, Rules
from ..tables.settlement import settle_slip, slip_problems


class Position(StrEnum):
    """The first four cards, in dealing order."""

    PLAYER_FIRST = "player_first"
    BANKER_FIRST = "banker_first"
    PLAYER_SECOND = "player_second"
    BANKER_SECOND = "banker_second"


POSITIONS = tuple(Position)


class Choice(StrEnum):
    """What the player does with a Player or Banker bet once cards are shown."""

    KEEP = "keep"
    DOUBLE = "double"
    TRIPLE = "triple"


@dataclass(frozen=True, slots=True, kw_only=True)
class PeekRule:
    """The game's conditions as data."""

    #: The fee, a fraction of the initial stake, paid on top of it: the
    #: rate the rules' one check holds the peek table's minimums to.
    fee_rate: Decimal = PEEK_FEE_RATE
    #: The bets that pay the fee, and the only ones that may be raised.
    fee_bets: frozenset[BetType] = frozenset(PEEK_FEE_BETS)
    #: What each choice multiplies the initial stake by (no fee on the raise).
    multiples: Mapping[Choice, int] = field(
        default_factory=lambda: MappingProxyType({Choice.KEEP: 1, Choice.DOUBLE: 2, Choice.TRIPLE: 3})
    )
    #: How often 1, 2, 3 or 4 cards are shown, by weight. The publication does
    #: not say; with the player raising at best (triple when the cards shown
    #: favour the bet, else keep), these give its printed 98.8% for Player
    #: and Banker (tests/baccarat/peek/test_odds.py). Shown equally often,
    #: each of the 15 subsets would return 100.3%: a player's edge.
    shown_weights: Mapping[int, int] = field(
        default_factory=lambda: MappingProxyType({1: 9, 2: 6, 3: 1, 4: 3})
    )
    #: The returns the operator's published game conditions print (percent).
    published_returns: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType(
            {"player": "98.8", "banker": "98.8", "pairs": "89.6", "tie": "85.6"}
        )
    )


PEEK = PeekRule()

#: The domain of the hash that picks the cards shown: never the shuffle's.
SHOWN_DOMAIN = "baccarat-peek-shown/v1"


def shown_masks(weights: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    """Each non-empty subset of the four positions as a 4-bit mask, with its
    weight: its count's weight shared equally among the subsets of that
    count (times 12, the least common multiple of 4, 6, 4 and 1)."""
    return tuple(
        (mask, weights.get(mask.bit_count(), 0) * 12 // math.comb(4, mask.bit_count()))
        for mask in range(1, 16)
    )


def shown_positions(
    seed: SeedInputs, round_number: int | None = None, rule: PeekRule | None = None
) -> tuple[Position, ...]:
    """The cards a seeded round shows. How many is drawn by the rule's
    ``shown_weights``, then which ones, each subset of that many equally likely:
    every mask (bit 0 the Player's first card, bit 1 the Banker's first,
    bit 2 the Player's second, bit 3 the Banker's second; masks 1 to 15 in
    order) has the weight :func:`shown_masks` gives, 228 in all by default.

    The draw: SHA-256 of ``SHOWN_DOMAIN``, the server seed, the client seed,
    the nonce, the round number (0 for the top of the shoe) and a counter
    from 0, joined by newlines (UTF-8). The digest's first byte under the
    total weight (larger bytes are skipped, so the draw is unbiased; should
    all 32 be, the counter goes up) picks the mask whose cumulative weight
    first exceeds it. The cards play no part: what is shown tells nothing
    of them.

    >>> [str(p) for p in shown_positions(SeedInputs("table-7/shoe-1"))]
    ['player_first', 'banker_first', 'player_second', 'banker_second']
    """
    masks = shown_masks((rule or PEEK).shown_weights)
    total = sum(weight for _, weight in masks)
    counter = 0
    while True:
        fields = (SHOWN_DOMAIN, seed.server_seed, seed.client_seed, str(seed.nonce), str(round_number or 0))
        text = "\n".join((*fields, str(counter)))
        for byte in hashlib.sha256(text.encode()).digest():
            if byte < total:
                for mask, weight in masks:
                    if byte < weight:
                        return tuple(p for i, p in enumerate(POSITIONS) if mask >> i & 1)
                    byte -= weight
        counter += 1


def first_four(coup: Coup) -> tuple[Card, Card, Card, Card]:
    """The round's first four cards, in dealing order (:data:`POSITIONS`)."""
    return coup.player.cards[0], coup.banker.cards[0], coup.player.cards[1], coup.banker.cards[1]


@dataclass(frozen=True, slots=True)
class Fee:
    """A bet's fee: what it adds to the bet's cost (0 for a bet without one)."""

    bet: Bet
    fee: Decimal
    #: The choices the table maximum allows, when the bet may be raised.
    choices: tuple[Choice, ...]


class Shown(NamedTuple):
    """A card shown, and its position."""

    position: Position
    card: Card


@dataclass(frozen=True, slots=True)
class PeekView:
    """The first call's answer: the cards shown, the positions hidden, each
    bet's fee and the choices open to it. It holds no hidden card."""

    rules: Rules
    shown: tuple[Shown, ...]
    hidden: tuple[Position, ...]
    fees: tuple[Fee, ...]
    #: Every stake and fee.
    cost: Decimal


@dataclass(frozen=True, slots=True)
class Raised:
    """A bet of the completed round: its initial stake and fee, the choice
    made for it and the stake it was settled on."""

    bet: Bet
    fee: Decimal
    choice: Choice
    staked: Decimal


@dataclass(frozen=True, slots=True)
class PeekRound:
    """The second call's answer: the round dealt to its end and settled on
    the bets as raised, the fees kept."""

    played: PlayedRound
    shown: tuple[Position, ...]
    decision: Mapping[BetType, Choice]
    fees: tuple[Fee, ...]
    #: Every stake as raised, and every fee.
    cost: Decimal

    @property
    def fee(self) -> Decimal:
        return sum((f.fee for f in self.fees), self.cost * 0)

    @property
    def bets(self) -> tuple[Raised, ...]:
        """Each bet with its fee, the choice made and the stake as raised."""
        settled = () if self.played.settlement is None else self.played.settlement.bets
        return tuple(
            Raised(f.bet, f.fee, self.decision.get(f.bet.type, Choice.KEEP), s.amount)
            for f, s in zip(self.fees, settled, strict=True)
        )

    @property
    def returned(self) -> Decimal:
        settlement = self.played.settlement
        return self.cost * 0 if settlement is None else settlement.returned

    @property
    def net(self) -> Decimal:
        return self.returned - self.cost


def fee_of(bet: Bet, rules: Rules, rule: PeekRule = PEEK) -> Decimal:
    """The fee a bet pays (``rules``' minor unit), exact: 20% of 5.00 is 1.00."""
    fee = bet.amount * rule.fee_rate if bet.type in rule.fee_bets else ZERO
    if decimal_places(fee.normalize()) > rules.minor_unit:
        return fee  # refused by :func:`fee_problems`, never rounded
    return Decimal(format_amount(fee, rules.minor_unit))


def fee_problems(bets: Sequence[Bet], rules: Rules, rule: PeekRule = PEEK) -> list[Problem]:
    """A stake whose fee is not a whole number of minor units (a fee is
    never rounded): located at the bet's amount."""
    return [
        Problem.of(
            ("bets", index, "amount"),
            ProblemCode.PEEK_FEE_NOT_WHOLE,
            amount=format_amount(bet.amount, rules.minor_unit),
            fee=str(fee.normalize()),
        )
        for index, bet in enumerate(bets)
        if decimal_places((fee := fee_of(bet, rules, rule)).normalize()) > rules.minor_unit
    ]


def _open_choices(bets: Sequence[Bet], bet_type: BetType, rules: Rules, rule: PeekRule) -> tuple[Choice, ...]:
    if bet_type not in rule.fee_bets:
        return ()
    staked = sum((b.amount for b in bets if b.type is bet_type), ZERO)
    top = rules.limits[bet_type].max
    return tuple(choice for choice, times in rule.multiples.items() if staked * times <= top)


def decision_problems(
    bets: Sequence[Bet], decision: Mapping[BetType, Choice], rules: Rules, rule: PeekRule = PEEK
) -> list[Problem]:
    """Every reason ``decision`` cannot be applied, located at its key: a
    raise of a bet that cannot be raised, a decision for a bet type not on
    the slip, a raise past the table maximum (the slip's total on that bet)."""
    problems = []
    on_slip = {bet.type for bet in bets}
    for bet_type, choice in decision.items():
        where = ("decision", str(bet_type))
        if bet_type not in rule.fee_bets:
            problems.append(Problem.of(where, ProblemCode.PEEK_RAISE_NOT_ALLOWED, type=str(bet_type)))
        elif bet_type not in on_slip:
            problems.append(
                Problem.of(where, ProblemCode.PEEK_BET_NOT_ON_SLIP, type=str(bet_type), choice=str(choice))
            )
        elif choice not in _open_choices(bets, bet_type, rules, rule):
            staked = sum((b.amount for b in bets if b.type is bet_type), ZERO)
            raised = staked * rule.multiples[choice]
            top = rules.limits[bet_type].max
            problems.append(
                Problem.of(
                    where,
                    ProblemCode.PEEK_RAISE_OVER_MAXIMUM,
                    choice=str(choice),
                    type=str(bet_type),
                    staked=format_amount(staked, rules.minor_unit),
                    raised=format_amount(raised, rules.minor_unit),
                    maximum=format_amount(top, rules.minor_unit),
                )
            )
    return problems


def _check(
    bets: Sequence[Bet], decision: Mapping[BetType, Choice] | None, rules: Rules, rule: PeekRule
) -> None:
    problems = slip_problems(bets, rules)
    if not problems:
        problems = fee_problems(bets, rules, rule)
    if not problems and decision is not None:
        problems = decision_problems(bets, decision, rules, rule)
    if problems:
        raise BetError(N_("Some bets cannot be accepted at this table"), problems)


def dealt_so_far(cards: Sequence[Card], decks: int) -> tuple[Card, Card, Card, Card]:
    """The first four cards of a round dealt from ``cards``, which may stop
    there (a studio peeks before the third cards are out): each card at most
    as often as the shoe holds it, and a missing one of the four named as
    dealing the whole round names it.

    >>> from service.baccarat.rulebook.cards import parse_card
    >>> [card.code for card in dealt_so_far([parse_card(c) for c in ("2S", "3H", "4D", "KC")], 8)]
    ['2S', '3H', '4D', 'KC']
    """
    check_composition(cards, decks)
    try:
        return first_four(deal(cards))
    except MissingCard as missing:
        if any(problem.path[-1] in range(len(POSITIONS)) for problem in missing.problems):
            raise
    return cards[0], cards[1], cards[2], cards[3]


def _view(
    rules: Rules,
    dealt: tuple[Card, Card, Card, Card],
    shown: Sequence[Position],
    fees: tuple[Fee, ...],
    bets: Sequence[Bet],
    fee: Decimal,
) -> PeekView:
    """What the player sees before deciding: the cards ``shown`` of the four ``dealt``."""
    four = dict(zip(POSITIONS, dealt, strict=True))
    hidden = tuple(p for p in POSITIONS if p not in shown)
    staked = sum((bet.amount for bet in bets), ZERO)
    cost = Decimal(format_amount(staked + fee, rules.minor_unit))
    return PeekView(rules, tuple(Shown(p, four[p]) for p in POSITIONS if p in shown), hidden, fees, cost)


#: The detail of a peek round sent without what it is dealt from.
PEEK_INPUTS = N_("A peek round needs its cards, or seed inputs, and the cards shown")


def peek(
    rules: Rules,
    *,
    bets: Sequence[Bet] = (),
    cards: Sequence[Card] | None = None,
    seed: SeedInputs | None = None,
    round_number: int | None = None,
    commitment: str | None = None,
    shown: Sequence[Position] | None = None,
    decision: Mapping[BetType, Choice] | None = None,
    rule: PeekRule = PEEK,
    step: Step = unwatched,
) -> PeekView | PeekRound:
    """Without ``decision``, the round's :class:`PeekView`; with one (a
    bet type it does not name is kept), the :class:`PeekRound`. The cards
    come from ``cards`` or the shoe ``seed`` shuffles, as for any round;
    ``shown`` is required with cards and defaults to :func:`shown_positions`
    with a seed."""
    if cards is None and seed is None:
        raise SeedError(PEEK_INPUTS, [Problem.of(("cards",), ProblemCode.PEEK_NEEDS_CARDS_OR_SEED)])
    if shown is None:
        if seed is None:
            raise SeedError(PEEK_INPUTS, [Problem.of(("shown",), ProblemCode.PEEK_NEEDS_SHOWN)])
        shown = shown_positions(seed, round_number, rule)
    _check(bets, decision, rules, rule)
    exact = [replace(bet, amount=Decimal(format_amount(bet.amount, rules.minor_unit))) for bet in bets]
    fees = tuple(
        Fee(bet, fee_of(bet, rules, rule), _open_choices(bets, bet.type, rules, rule)) for bet in exact
    )
    fee = sum((f.fee for f in fees), ZERO)
    if decision is None and cards is not None:
        # A studio peeks before the third cards are out: the first four are enough.
        with step("deal"):
            dealt = dealt_so_far(cards, rules.decks)
        return _view(rules, dealt, shown, fees, bets, fee)
    with step("deal"):
        played = play_and_settle(
            rules, (), cards=cards, seed=seed, round_number=round_number, commitment=commitment
        )
    if decision is None:
        return _view(rules, first_four(played.coup), shown, fees, bets, fee)
    raised = tuple(
        replace(bet, amount=bet.amount * rule.multiples[decision.get(bet.type, Choice.KEEP)]) for bet in bets
    )
    with step("settle"):
        settlement = settle_slip(raised, played.coup, rules) if bets else None
    played = replace(played, settlement=settlement)
    staked = sum((bet.amount for bet in raised), ZERO)
    cost = Decimal(format_amount(staked + fee, rules.minor_unit))
    return PeekRound(
        played, tuple(p for p in POSITIONS if p in shown), MappingProxyType(dict(decision)), fees, cost
    )
