"""Exact odds of the next round, and every bet's house edge, for any shoe.

The shoe is a :class:`~.shoes.composition.Composition`; :mod:`.counting.round_counts`
counts the ordered six-card sequences it can deal by what the pay tables can
see of a round (its signature). From those integer counts:

* **events**: the probability of each outcome and of what the side bets
  pay on (naturals, pairs, margins, three-card wins, cards dealt);
* **bets**: for every bet the table offers, the probability of each line of
  its pay table, of a win, a push and a loss, the expected value per unit
  staked, and the house edge: the expected loss per unit staked, pushes
  counted as bets that lost nothing (DESIGN §5 uses this definition).

Which line of a pay table applies is asked of the engine's own pay table,
once per signature, on a round dealt with that signature; what a line pays
is its :class:`~.bets.paytable.Payout` (odds less commission). Nothing about
what a bet pays is written twice. Every figure is an exact
:class:`~fractions.Fraction`; :func:`decimal_text` writes one as a decimal.
Winnings are taken as paid exactly, before any rounding to the minor unit.

Why one module of this length: the events, each bet's lines and its house
edge are one pass over one set of round counts; split, each part would
recount them or hand them around.

>>> from service.baccarat.shoes.composition import full_shoe
>>> from service.baccarat.tables.rules import TABLES
>>> odds = analyse(full_shoe(8), TABLES["standard"].rules)
>>> decimal_text(odds.probabilities["banker"])
'0.458597422632762973'
>>> decimal_text(odds.bets[BetType.BANKER].house_edge * 100, 6)
'1.05791'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from functools import cache, cached_property, lru_cache

import numpy as np

from ..bets.catalogue import CATALOGUE
from ..bets.paytable import NO_LINE, NamedPayTable, Result
from ..bets.side_bets import margin
from ..bets.types import BetType
from ..counting.round_counts import SIGNATURES, Ints, RoundCounts, count_rounds, structure
from ..multipliers.odds import (
    MultiplierReturns,
    ReturnWarning,
    WarningCode,
    base_pay_table,
    bet_return,
    multiplier_returns,
    pattern_counts,
    prepare,
)
from ..multipliers.presets import PRESETS as MULTIPLIER_PRESETS
from ..multipliers.presets import MultiplierPreset
from ..rulebook.cards import MAX_DECKS, Card
from ..rulebook.coup import Coup, Outcome
from ..rulebook.errors import N_, Problem, ProblemCode, ShoeError
from ..shoes.composition import (
    Composition,
    SeededPlace,
    after_removing,
    before_round,
    fresh_shuffle,
    from_rank_counts,
    full_shoe,
)
from ..shoes.shuffle import Seed
from ..tables.payouts import pay_table
from ..tables.rules import Dealing, Rules, check_whole_shoe

#: Significant digits of :func:`decimal_text` by default.
DIGITS = 18


@dataclass(frozen=True, slots=True)
class Event:
    """Something a round can do that a bet pays on."""

    name: str
    description: str
    applies: Callable[[Coup], bool]


def _wins(side: Outcome) -> Callable[[Coup], bool]:
    return lambda coup: coup.outcome is side


def _hand_wins(side: Outcome, test: Callable[[Coup], bool]) -> Callable[[Coup], bool]:
    return lambda coup: coup.outcome is side and test(coup)


def _margins() -> list[Event]:
    events = []
    for side in (Outcome.PLAYER, Outcome.BANKER):
        name = side.capitalize()
        for points in range(1, 10):

            def applies(coup: Coup, side: Outcome = side, points: int = points) -> bool:
                hand = coup.player if side is Outcome.PLAYER else coup.banker
                return coup.outcome is side and not hand.natural and margin(coup) == points

            events.append(
                Event(f"{side}_wins_by_{points}", f"{name} wins by {points} without a natural", applies)
            )
    return events


#: Every event reported, in order.
EVENTS: tuple[Event, ...] = (
    Event("banker", "The Banker wins", _wins(Outcome.BANKER)),
    Event("player", "The Player wins", _wins(Outcome.PLAYER)),
    Event("tie", "The totals are equal", _wins(Outcome.TIE)),
    Event("player_natural", "The Player has a natural (8 or 9)", lambda coup: coup.player.natural),
    Event("banker_natural", "The Banker has a natural (8 or 9)", lambda coup: coup.banker.natural),
    Event("natural", "Either hand has a natural: nobody draws", lambda coup: coup.natural),
    Event(
        "player_wins_with_natural",
        "The Player wins with a natural",
        _hand_wins(Outcome.PLAYER, lambda coup: coup.player.natural),
    ),
    Event(
        "banker_wins_with_natural",
        "The Banker wins with a natural",
        _hand_wins(Outcome.BANKER, lambda coup: coup.banker.natural),
    ),
    Event("natural_tie", "A tie between two naturals", _hand_wins(Outcome.TIE, lambda coup: coup.natural)),
    Event("player_pair", "The Player's first two cards share a rank", lambda coup: coup.player.pair),
    Event("banker_pair", "The Banker's first two cards share a rank", lambda coup: coup.banker.pair),
    Event(
        "either_pair",
        "Either hand's first two cards share a rank",
        lambda coup: coup.player.pair or coup.banker.pair,
    ),
    Event(
        "player_perfect_pair",
        "The Player's first two cards share rank and suit",
        lambda coup: coup.player.perfect_pair,
    ),
    Event(
        "banker_perfect_pair",
        "The Banker's first two cards share rank and suit",
        lambda coup: coup.banker.perfect_pair,
    ),
    Event(
        "perfect_pair",
        "Either hand's first two cards share rank and suit",
        lambda coup: coup.player.perfect_pair or coup.banker.perfect_pair,
    ),
    Event(
        "banker_wins_with_three_card_7",
        "The Banker wins with a three-card 7 (Dragon 7)",
        _hand_wins(Outcome.BANKER, lambda coup: coup.banker.total == 7 and len(coup.banker.cards) == 3),
    ),
    Event(
        "player_wins_with_three_card_8",
        "The Player wins with a three-card 8 (Panda 8)",
        _hand_wins(Outcome.PLAYER, lambda coup: coup.player.total == 8 and len(coup.player.cards) == 3),
    ),
    Event(
        "banker_wins_with_6",
        "The Banker wins with a total of 6 (Super 6)",
        _hand_wins(Outcome.BANKER, lambda coup: coup.banker.total == 6),
    ),
    Event("four_cards", "Four cards are dealt (small)", lambda coup: coup.cards_used == 4),
    Event("five_cards", "Five cards are dealt", lambda coup: coup.cards_used == 5),
    Event("six_cards", "Six cards are dealt", lambda coup: coup.cards_used == 6),
    *_margins(),
)


@dataclass(frozen=True, slots=True)
class LineOdds:
    """One line of a bet's pay table (or the loss when none applies):
    its probability, and what a unit staked nets on it."""

    when: str
    result: Result
    net: Fraction
    probability: Fraction


@dataclass(frozen=True, slots=True)
class BetOdds:
    """A bet's chances and its value to the player, per unit staked."""

    bet: BetType
    lines: tuple[LineOdds, ...]
    #: The pay table the bet is paid by.
    pay_table: NamedPayTable

    @property
    def hit_frequency(self) -> Fraction:
        """How often the bet wins: the probability of a winning line."""
        return self.win

    def _total(self, result: Result) -> Fraction:
        return sum((line.probability for line in self.lines if line.result is result), Fraction(0))

    @property
    def win(self) -> Fraction:
        return self._total(Result.WIN)

    @property
    def push(self) -> Fraction:
        return self._total(Result.PUSH)

    @property
    def lose(self) -> Fraction:
        return self._total(Result.LOSE)

    @property
    def expected_value(self) -> Fraction:
        """What a unit staked nets on average: negative when the house has the edge."""
        return sum((line.probability * line.net for line in self.lines), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """The expected loss per unit staked, pushes included as bets that lost nothing."""
        return -self.expected_value


@dataclass(frozen=True)
class Shoe:
    """The shoe analysed: its composition and where it came from."""

    composition: Composition
    #: ``full``, ``removed``, ``counts`` or ``seed``.
    source: str
    #: For a seeded shoe: the round it stands before, and the seed.
    place: SeededPlace | None = None

    @property
    def decks(self) -> int:
        return self.composition.decks

    @property
    def cards(self) -> int:
        return self.composition.total

    @cached_property
    def ranks(self) -> dict[str, int]:
        return self.composition.by_rank


@dataclass(frozen=True)
class Odds:
    """The exact odds of the next round dealt from a shoe, under some rules."""

    rules: Rules
    shoe: Shoe
    #: Ordered six-card sequences the shoe can deal; every probability is a count of them over this.
    sequences: int
    #: Sequences in which each event happens, by event name.
    counts: Mapping[str, int]
    bets: Mapping[BetType, BetOdds]
    #: At a multiplier table: what each bet its rule pays returns, fee and
    #: multipliers included (:mod:`.multipliers.odds`).
    multipliers: MultiplierReturns | None = None

    @property
    def warnings(self) -> tuple[ReturnWarning, ...] | None:
        """What a program should know before offering these rules: each bet
        that returns more than it costs (a commission of 0, an operator's
        pay table or multiplier rule may), by its own game's return. None at
        a plain table with nothing to say (a multiplier table always says,
        if only that there is nothing)."""
        multiplied = self.multipliers.bets if self.multipliers is not None else {}
        plain = tuple(
            ReturnWarning(WarningCode.RETURN_OVER_COST, bet, 1 - odds.house_edge)
            for bet, odds in self.bets.items()
            if bet not in multiplied and odds.house_edge < 0
        )
        if self.multipliers is None:
            return plain or None
        return plain + self.multipliers.warnings

    @cached_property
    def probabilities(self) -> dict[str, Fraction]:
        """Each event's probability, by name."""
        return {name: Fraction(count, self.sequences) for name, count in self.counts.items()}


def decimal_text(value: Fraction, digits: int = DIGITS) -> str:
    """``value`` as a plain decimal, rounded half-even to ``digits``
    significant digits (exact when it has fewer).

    >>> decimal_text(Fraction(1, 3), 5), decimal_text(Fraction(-1, 8)), decimal_text(Fraction(0))
    ('0.33333', '-0.125', '0')
    """
    with localcontext() as context:
        context.prec, context.rounding = digits, ROUND_HALF_EVEN
        return format(Decimal(value.numerator) / Decimal(value.denominator), "f")


def fraction_text(value: Fraction) -> str:
    """``value`` in lowest terms as ``"p/q"``."""
    return f"{value.numerator}/{value.denominator}"


def _membership(tests: Sequence[Callable[[Coup], bool]]) -> Ints:
    """A 0/1 matrix: row ``i`` marks the signatures whose round passes ``tests[i]``."""
    matrix = np.zeros((len(tests), SIGNATURES), dtype=np.int64)
    for signature, coup in structure().examples.items():
        for row, test in enumerate(tests):
            matrix[row, signature.index] = test(coup)
    return matrix


# Depends on nothing a request sends: made once, on first use, and shared.
@cache
def _event_matrix() -> Ints:
    return _membership([event.applies for event in EVENTS])


# Kept across calls: it is keyed by the tests of a pay table's lines, which
# are functions made once, at import (pay tables built for a request differ
# only in what their lines pay), so it holds one matrix per pay table the
# engine defines.
@lru_cache(maxsize=64)
def _line_matrix(tests: tuple[Callable[[Coup], bool], ...]) -> Ints:
    """Which of ``tests`` (a pay table's lines) decides each signature's
    round (the first that applies, as :meth:`.PayTable.payout` reads it); the
    last row is no line."""
    rows = [_first(tests, index) for index in range(len(tests))]
    rows.append(lambda coup: not any(test(coup) for test in tests))
    return _membership(rows)


def _first(tests: tuple[Callable[[Coup], bool], ...], index: int) -> Callable[[Coup], bool]:
    earlier = tests[:index]
    return lambda coup: tests[index](coup) and not any(test(coup) for test in earlier)


def _net(result: Result, odds: Decimal, commission: Decimal) -> Fraction:
    if result is Result.WIN:
        return Fraction(odds) * (1 - Fraction(commission))
    return Fraction(-1) if result is Result.LOSE else Fraction(0)


def settling_lines(table: NamedPayTable) -> tuple[Ints, tuple[Fraction, ...]]:
    """Which line of ``table`` settles a round of each signature (by
    signature index; ``len(table.lines)``: none applies, the bet loses), and
    what a unit staked nets on each line, the loss last. A signature no shoe
    deals is given line 0; no round has it.

    >>> from service.baccarat.bets.catalogue import CATALOGUE
    >>> lines, nets = settling_lines(CATALOGUE["tie_8_to_1"])
    >>> nets
    (Fraction(8, 1), Fraction(-1, 1))
    """
    tests = tuple(line.applies for line in table.lines)
    nets = tuple(_net(line.payout.result, line.payout.odds, line.payout.commission) for line in table.lines)
    return np.argmax(_line_matrix(tests), axis=0), (*nets, Fraction(-1))


def bet_odds(bet: BetType, rules: Rules, counts: RoundCounts) -> BetOdds:
    """The odds of ``bet`` under ``rules``, from the round counts of a shoe."""
    return table_odds(pay_table(bet, rules), counts)


def table_odds(table: NamedPayTable, counts: RoundCounts) -> BetOdds:
    """The odds of a bet paid by ``table``, from the round counts of a shoe."""
    tests = tuple(line.applies for line in table.lines)
    by_line = (_line_matrix(tests) @ counts.by_signature).tolist()
    lines = [
        LineOdds(
            line.when,
            line.payout.result,
            _net(line.payout.result, line.payout.odds, line.payout.commission),
            Fraction(count, counts.sequences),
        )
        for line, count in zip(table.lines, by_line, strict=False)
    ]
    lines.append(
        LineOdds(
            NO_LINE.when,
            Result.LOSE,
            Fraction(-1),
            Fraction(by_line[-1], counts.sequences),
        )
    )
    return BetOdds(table.bet, tuple(lines), table)


@dataclass(frozen=True)
class CatalogueOdds:
    """Every pay table of the catalogue with its odds, for a full shoe."""

    decks: int
    sequences: int
    tables: tuple[BetOdds, ...]
    #: Each multiplier game's preset with what its bets return, fee and multipliers included.
    multiplier_games: tuple[tuple[MultiplierPreset, MultiplierReturns], ...] = ()


def catalogue_odds(decks: int = 8) -> CatalogueOdds:
    """The odds of every pay table of the catalogue for a full shoe of
    ``decks`` decks, and the exact returns of every multiplier game's bets."""
    counts = count_rounds(full_shoe(decks))
    tables = tuple(table_odds(t, counts) for t in CATALOGUE.values())
    return CatalogueOdds(decks, counts.sequences, tables, multiplier_games(decks))


def prepare_multiplier_games() -> None:
    """Count every multiplier game's returns for each full shoe a request
    may name (1 to :data:`.rulebook.cards.MAX_DECKS` decks; about 0.7 s in all), when
    the service starts: no request counts them, each reads what is kept.
    The round structure they are counted with is built first
    (:func:`.multipliers.odds.prepare`)."""
    prepare()
    for decks in range(1, MAX_DECKS + 1):
        multiplier_games(decks)


# Filled by :func:`prepare_multiplier_games` when the service starts: one
# entry per deck count, nothing keyed by what a caller sends.
@lru_cache(maxsize=MAX_DECKS)
def multiplier_games(decks: int) -> tuple[tuple[MultiplierPreset, MultiplierReturns], ...]:
    """Every multiplier preset with its bets' returns for a full shoe of
    ``decks`` decks (1 to 8: kept once counted, as the presets never change)."""
    shoe = full_shoe(decks)
    counts = pattern_counts(shoe)
    return tuple(
        (
            preset,
            MultiplierReturns(
                preset.rule,
                shoe,
                counts.sequences,
                {bet: bet_return(preset.rule, bet, counts) for bet in preset.rule.bet_types},
            ),
        )
        for preset in MULTIPLIER_PRESETS.values()
    )


def analyse(composition: Composition, rules: Rules, shoe: Shoe | None = None) -> Odds:
    """Every event's probability and every offered bet's odds for the next
    round dealt from ``composition`` under ``rules``."""
    counts = count_rounds(composition)
    by_event = (_event_matrix() @ counts.by_signature).tolist()
    return Odds(
        rules=rules,
        shoe=shoe or Shoe(composition, "full" if composition == full_shoe(composition.decks) else "counts"),
        sequences=counts.sequences,
        counts={event.name: count for event, count in zip(EVENTS, by_event, strict=True)},
        bets={bet: table_odds(priced_by(bet, rules), counts) for bet in rules.bet_types},
    )


def priced_by(bet: BetType, rules: Rules) -> NamedPayTable:
    """The pay table ``bet`` is priced by under ``rules``: the one they
    choose, or at a multiplier table, the rule's base pays
    (:func:`.multipliers.odds.base_pay_table`: nothing lit, no fee)."""
    if rules.multipliers is not None and bet in rules.multipliers.pays:
        return base_pay_table(rules.multipliers, bet)
    return pay_table(bet, rules)


def shoe_odds(
    rules: Rules,
    *,
    removed: Sequence[Card] | None = None,
    counts: Mapping[str, int] | None = None,
    seed: Seed | None = None,
    round_number: int | None = None,
    commitment: str | None = None,
) -> Odds:
    """The odds for the shoe a request describes: the full shoe of
    ``rules.decks`` decks, less ``removed``, or holding ``counts`` per rank,
    or a shoe shuffled from ``seed`` before round ``round_number`` (default
    1, just after the burn); at a table that reshuffles after each hand, the
    shoe shuffled from ``seed`` whole, as its one round is dealt from the top
    without burn (:func:`.play.round.play_and_settle`). At most one of these."""
    given = [
        name
        for name, value in (("removed", removed), ("counts", counts), ("seed", seed))
        if value is not None
    ]
    if len(given) > 1:
        raise ShoeError(
            N_("Describe the shoe one way"),
            [Problem.of((name,), ProblemCode.SHOE_DESCRIBED_TWICE, given=tuple(given)) for name in given[1:]],
        )
    if round_number is not None and seed is None:
        raise ShoeError(
            N_("A round number addresses a seeded shoe"),
            [Problem.of(("round",), ProblemCode.ROUND_NEEDS_SEED)],
        )
    if round_number is not None:
        check_whole_shoe(rules, ("round",))
    if seed is not None and rules.dealing is Dealing.RESHUFFLE_EACH_HAND:
        # The round the table deals (POST /v1/rounds): the fresh shuffle's top, no burn.
        seeded = fresh_shuffle(rules.decks, seed, commitment=commitment)
        shoe = Shoe(seeded.composition, "seed", seeded.place)
    elif seed is not None:
        seeded = before_round(
            rules.decks, seed, round_number or 1, cut_card=rules.cut_card, commitment=commitment
        )
        shoe = Shoe(seeded.composition, "seed", seeded.place)
    elif counts is not None:
        shoe = Shoe(from_rank_counts(rules.decks, counts), "counts")
    elif removed is not None:
        shoe = Shoe(after_removing(rules.decks, removed), "removed")
    else:
        shoe = Shoe(full_shoe(rules.decks), "full")
    odds = analyse(shoe.composition, rules, shoe)
    if rules.multipliers is None:
        return odds
    return replace(odds, multipliers=multiplier_returns(rules.multipliers, shoe.composition))
