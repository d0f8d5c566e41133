"""What a caller asks of the engine, as frozen objects, and the call that answers each.

The service's request schemas and the ``baccarat`` command line both load
their input into these objects; a view or a command then makes one call,
such as ``play_round(request)``. The rules are already resolved (a table
preset with the caller's overrides), so nothing here reads a table name.

>>> from service.baccarat.rulebook.cards import parse_card
>>> from service.baccarat.tables.rules import resolve_rules
>>> request = RoundRequest(
...     rules=resolve_rules(), source=CardSource(cards=tuple(parse_card(c) for c in "9S KH 2D 7C 5H".split()))
... )
>>> play_round(request).coup.outcome
<Outcome.BANKER: 'banker'>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from .bets.types import Bet, BetType
from .multipliers.shoes import RoundMultiplierCards
from .odds.exact import CatalogueOdds, Odds, catalogue_odds, shoe_odds
from .peek.round import Choice, PeekRound, PeekRule, PeekView, Position, peek
from .play.round import (
    PlayedRound,
    RoundSoFar,
    Step,
    play_and_settle,
    play_and_settle_slips,
    play_live,
    unwatched,
)
from .play.shoe import PlayedShoe, ShoeReport, play_physical_shoe, play_shoe
from .rulebook.cards import Card
from .rulebook.coup import Side
from .sheets.sheet import RulesSheet, rules_sheet
from .sheets.words import Malfunction
from .shoes.shuffle import SeedInputs
from .tables.rules import Dealing, Rules


@dataclass(frozen=True, slots=True, kw_only=True)
class CardSource:
    """Where a round's cards come from: a card sequence in dealing order, or
    seed inputs (optionally a round number of the whole shoe and the
    commitment shown before play); with neither, a fresh seed is drawn."""

    cards: tuple[Card, ...] | None = None
    seed: SeedInputs | None = None
    round_number: int | None = None
    commitment: str | None = None
    #: At a multiplier table, with ``cards``: the multiplier cards a studio
    #: drew, each a card and its multiplier.
    multiplier_cards: tuple[tuple[Card, int], ...] | None = None


@dataclass(frozen=True, slots=True)
class Slip:
    """One player's bets, with the caller's reference."""

    id: str | None
    bets: tuple[Bet, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundRequest:
    """Deal one round and settle an optional slip on it."""

    rules: Rules
    source: CardSource = CardSource()
    bets: tuple[Bet, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveRoundRequest:
    """A round dealt live: the cards so far (each maybe tagged with the hand
    it was placed with), and a slip to settle once the round is complete;
    at a multiplier table, the multiplier cards the studio drew."""

    rules: Rules
    cards: tuple[Card, ...] = ()
    hands: tuple[Side | None, ...] = ()
    bets: tuple[Bet, ...] = ()
    multiplier_cards: tuple[tuple[Card, int], ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PeekRequest:
    """A Peek Baccarat round (:mod:`.peek.round`): without ``decision`` the cards
    ``shown``; with it, the round settled on the bets as raised."""

    rules: Rules
    source: CardSource = CardSource()
    bets: tuple[Bet, ...] = ()
    shown: tuple[Position, ...] | None = None
    decision: Mapping[BetType, Choice] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SettlementRequest:
    """Deal one round and settle a table's slips on it."""

    rules: Rules
    source: CardSource = CardSource()
    slips: tuple[Slip, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeRequest:
    """Deal a whole seeded shoe, or a physical shoe from the cards dealt so
    far (``cards``, maybe tagged by ``hands``, where the cut card came out,
    and at a multiplier table the studio's multiplier cards of each round);
    answer (and settle) the rounds ``report`` asks for."""

    rules: Rules
    seed: SeedInputs | None = None
    commitment: str | None = None
    cards: tuple[Card, ...] | None = None
    hands: tuple[Side | None, ...] = ()
    cut_card_position: int | None = None
    report: ShoeReport = field(default_factory=ShoeReport)
    #: At a multiplier table, with ``cards``: the studio's multiplier cards, round by round.
    multiplier_cards_by_round: tuple[RoundMultiplierCards, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class OddsRequest:
    """Exact odds for a shoe: full, less the cards ``removed``, by rank
    ``counts``, or a seeded shoe just before round ``round_number``."""

    rules: Rules
    removed: tuple[Card, ...] | None = None
    counts: Mapping[str, int] | None = None
    seed: SeedInputs | None = None
    round_number: int | None = None
    commitment: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PayTablesRequest:
    """The catalogue's pay tables, with their odds for a full shoe of ``decks`` decks."""

    decks: int = 8


@dataclass(frozen=True, slots=True, kw_only=True)
class RulesSheetRequest:
    """A table's rules sheet: its rules, its chips, how it deals and the
    operator's malfunction clause; at Peek Baccarat's table, the peek's
    conditions."""

    rules: Rules
    chips: tuple[Decimal, ...]
    dealing: Dealing
    malfunction: Malfunction
    peek: PeekRule | None = None


def play_round(request: RoundRequest, *, step: Step = unwatched) -> PlayedRound:
    """Deal the round and settle its slip (if it has bets); ``step`` is run
    around each (:data:`.play.round.Step`)."""
    source = request.source
    return play_and_settle(
        request.rules,
        request.bets,
        cards=source.cards,
        seed=source.seed,
        round_number=source.round_number,
        commitment=source.commitment,
        multiplier_cards=source.multiplier_cards,
        step=step,
    )


def play_live_round(request: LiveRoundRequest, *, step: Step = unwatched) -> PlayedRound | RoundSoFar:
    """The round so far, or, once complete, dealt and settled as :func:`play_round`."""
    return play_live(
        request.rules,
        request.cards,
        request.hands,
        request.bets,
        multiplier_cards=request.multiplier_cards,
        step=step,
    )


def play_peek_round(request: PeekRequest, *, step: Step = unwatched) -> PeekView | PeekRound:
    """The cards shown, or with a decision the round settled (:func:`.peek.round.peek`)."""
    source = request.source
    return peek(
        request.rules,
        bets=request.bets,
        cards=source.cards,
        seed=source.seed,
        round_number=source.round_number,
        commitment=source.commitment,
        shown=request.shown,
        decision=request.decision,
        step=step,
    )


def settle_table(request: SettlementRequest, *, step: Step = unwatched) -> PlayedRound:
    """Deal the round and settle every slip on it (all or none); at a
    multiplier table each slip by the rule."""
    source = request.source
    return play_and_settle_slips(
        request.rules,
        [(slip.id, slip.bets) for slip in request.slips],
        cards=source.cards,
        seed=source.seed,
        round_number=source.round_number,
        commitment=source.commitment,
        multiplier_cards=source.multiplier_cards,
        step=step,
    )


def play_whole_shoe(request: ShoeRequest) -> PlayedShoe:
    """Deal the whole shoe (or the physical shoe's cards so far) and settle
    the slips on the rounds asked for."""
    if request.cards is not None:
        return play_physical_shoe(
            request.rules,
            request.cards,
            request.hands,
            cut_card_position=request.cut_card_position,
            report=request.report,
            multiplier_cards=request.multiplier_cards_by_round,
        )
    return play_shoe(
        request.rules,
        seed=request.seed,
        commitment=request.commitment,
        report=request.report,
        multiplier_cards=request.multiplier_cards_by_round,
    )


def pay_tables_with_odds(request: PayTablesRequest) -> CatalogueOdds:
    """Every pay table of the catalogue, with its exact odds for the full shoe."""
    return catalogue_odds(request.decks)


def odds_of(request: OddsRequest) -> Odds:
    """The exact odds of the shoe the request describes."""
    return shoe_odds(
        request.rules,
        removed=request.removed,
        counts=request.counts,
        seed=request.seed,
        round_number=request.round_number,
        commitment=request.commitment,
    )


def write_rules_sheet(request: RulesSheetRequest) -> RulesSheet:
    """The rules sheet of the table the request describes (:mod:`.sheets`)."""
    return rules_sheet(
        request.rules,
        chips=request.chips,
        dealing=request.dealing,
        malfunction=request.malfunction,
        peek=request.peek,
    )
