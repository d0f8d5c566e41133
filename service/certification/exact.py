"""The game's math, exact: every bet of a table and every line of its pay
table, for the full shoe of the table's decks.

Every figure comes from the odds engine (:mod:`service.baccarat.odds.exact`),
the same counts that ``POST /v1/odds`` and ``GET /v1/paytables`` answer:
a line's probability is its count of ordered six-card sequences over all
of them, an exact :class:`~fractions.Fraction`. Written beside each: the
same decimal text the API writes, "1 in N", the return to player (RTP,
``1 - house edge``, pushes counted as bets that lost nothing) and the most
a bet can win.

**GLI-11** (Gaming Laboratories International, standard 11, on the awards
of a game): every award must be winnable at least once in 100,000,000
games; an award rarer than that may be offered only with its odds shown to
the player. Each line that pays is checked: ``ok``, ``odds_must_be_shown``
(rarer than 1 in 10⁸), or ``never_wins`` (probability 0: the award cannot
be won from this shoe at all, as a perfect pair from one deck).

>>> from service.baccarat.tables.rules import TABLES
>>> math = game_math(TABLES["standard"].rules)
>>> banker = math.bet("banker")
>>> banker.bet, banker.house_edge.decimal[:8], banker.rtp.percent
('banker', '0.010579', '98.942094%')
>>> [(line.when, line.one_in, line.gli11) for line in banker.lines]
[('Banker wins', '1 in 2.18056', 'ok'), ('a tie', '1 in 10.5091', 'ok')]
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ..baccarat.bets.paytable import NamedPayTable, Result, pay_text
from ..baccarat.counting.round_counts import RoundCounts, count_rounds
from ..baccarat.odds.exact import BetOdds, decimal_text, fraction_text, table_odds
from ..baccarat.shoes.composition import full_shoe
from ..baccarat.tables.payouts import pay_table
from ..baccarat.tables.rules import Rules

#: GLI-11: an award must be winnable at least once in this many games.
GLI11_GAMES = 100_000_000
GLI11_OK, GLI11_SHOW_ODDS, GLI11_NEVER = "ok", "odds_must_be_shown", "never_wins"


@dataclass(frozen=True, slots=True)
class Exact:
    """An exact figure, with the texts a report writes it in."""

    value: Fraction

    @property
    def fraction(self) -> str:
        """In lowest terms, ``"p/q"`` (as the API's ``exact`` fields)."""
        return fraction_text(self.value)

    @property
    def decimal(self) -> str:
        """18 significant digits, half-even (as the API's decimal fields)."""
        return decimal_text(self.value)

    @property
    def percent(self) -> str:
        """As a percentage, 8 significant digits."""
        return decimal_text(self.value * 100, 8) + "%"

    def document(self) -> dict[str, str]:
        return {"fraction": self.fraction, "decimal": self.decimal}


def one_in(probability: Fraction) -> str | None:
    """``"1 in N"`` with N to 6 significant digits; None for probability 0.

    >>> one_in(Fraction(1, 3)), one_in(Fraction(2, 7)), one_in(Fraction(0))
    ('1 in 3', '1 in 3.5', None)
    """
    if not probability:
        return None
    return f"1 in {decimal_text(1 / probability, 6)}"


def gli11(probability: Fraction) -> str:
    """The GLI-11 verdict on an award won with ``probability`` per game.

    >>> gli11(Fraction(1, 10**8)), gli11(Fraction(1, 10**8 + 1)), gli11(Fraction(0))
    ('ok', 'odds_must_be_shown', 'never_wins')
    """
    if probability == 0:
        return GLI11_NEVER
    return GLI11_OK if probability * GLI11_GAMES >= 1 else GLI11_SHOW_ODDS


@dataclass(frozen=True, slots=True)
class LineMath:
    """One line of a pay table (or the loss when none applies)."""

    when: str
    result: Result
    pays: str
    #: What a unit staked nets on this line (odds less commission; 0 on a push; -1 on the loss).
    net: Exact
    probability: Exact
    #: GLI-11 verdict for a line that pays (win or push); None for the loss.
    gli11: str | None

    @property
    def one_in(self) -> str | None:
        return one_in(self.probability.value)


@dataclass(frozen=True, slots=True)
class BetMath:
    """A bet's exact figures under a pay table."""

    bet: str
    pay_table: str
    pays: str
    lines: tuple[LineMath, ...]
    #: The loss (no line of its pay table holds), last.
    loss: LineMath
    win: Exact
    push: Exact
    lose: Exact
    expected_value: Exact
    house_edge: Exact
    #: Return to player per unit staked: 1 - house edge.
    rtp: Exact
    #: The most a unit staked can net on one round.
    max_win_per_unit: Exact
    #: The most one bet can win at the table: its largest stake times
    #: :attr:`max_win_per_unit` (None when the table sets no limit for it).
    max_stake: Decimal | None
    max_win: Decimal | None

    @property
    def gli11(self) -> str:
        """The bet's worst line verdict."""
        verdicts = {line.gli11 for line in self.lines}
        for verdict in (GLI11_NEVER, GLI11_SHOW_ODDS):
            if verdict in verdicts:
                return verdict
        return GLI11_OK


@dataclass(frozen=True, slots=True)
class GameMath:
    """Every offered bet's exact figures for a full shoe of ``decks`` decks."""

    decks: int
    sequences: int
    bets: tuple[BetMath, ...]

    def bet(self, name: str) -> BetMath:
        return next(bet for bet in self.bets if bet.bet == name)


def _line(when: str, result: Result, pays: str, net: Fraction, probability: Fraction) -> LineMath:
    verdict = None if result is Result.LOSE else gli11(probability)
    return LineMath(when, result, pays, Exact(net), Exact(probability), verdict)


def bet_math(table: NamedPayTable, counts: RoundCounts, max_stake: Decimal | None = None) -> BetMath:
    """The exact figures of a bet paid by ``table`` (any pay table, of the
    catalogue or not), from the round counts of a shoe."""
    odds: BetOdds = table_odds(table, counts)
    *paying, loss = odds.lines
    lines = tuple(
        _line(line.when, line.result, pay_text(rule.payout), line.net, line.probability)
        for line, rule in zip(paying, table.lines, strict=True)
    )
    largest = max((line.net for line in paying), default=Fraction(0))
    largest = max(largest, Fraction(0))
    return BetMath(
        bet=str(table.bet),
        pay_table=table.id,
        pays="; ".join(f"{line.when}: {line.pays}" for line in lines),
        lines=lines,
        loss=_line(loss.when, loss.result, "loses", loss.net, loss.probability),
        win=Exact(odds.win),
        push=Exact(odds.push),
        lose=Exact(odds.lose),
        expected_value=Exact(odds.expected_value),
        house_edge=Exact(odds.house_edge),
        rtp=Exact(1 - odds.house_edge),
        max_win_per_unit=Exact(largest),
        max_stake=max_stake,
        max_win=None
        if max_stake is None
        else max_stake * Decimal(largest.numerator) / Decimal(largest.denominator),
    )


def game_math(rules: Rules, extra: tuple[NamedPayTable, ...] = ()) -> GameMath:
    """The exact figures of every bet ``rules`` offer (in :class:`BetType`
    order), for the full shoe of ``rules.decks`` decks; ``extra`` pay tables
    (not of the catalogue: a laboratory's proposal) are analysed after them."""
    counts = count_rounds(full_shoe(rules.decks))
    offered = [
        bet_math(pay_table(bet, rules), counts, rules.limits[bet].max if bet in rules.limits else None)
        for bet in rules.bet_types
    ]
    offered += [bet_math(table, counts) for table in extra]
    return GameMath(rules.decks, counts.sequences, tuple(offered))


def exact_document(math: GameMath) -> dict[str, object]:
    """The figures as ``report.json`` writes them (docs/certification.md)."""

    def line(item: LineMath) -> dict[str, object]:
        document: dict[str, object] = {
            "when": item.when,
            "result": str(item.result),
            "pays": item.pays,
            "net": item.net.document(),
            "probability": item.probability.document(),
            "one_in": item.one_in,
        }
        if item.gli11 is not None:
            document["gli11"] = item.gli11
        return document

    return {
        "method": "exact enumeration of every ordered six-card sequence of the full shoe "
        "(the odds engine of POST /v1/odds and GET /v1/paytables)",
        "decks": math.decks,
        "sequences": math.sequences,
        "gli11_games": GLI11_GAMES,
        "bets": {
            bet.bet: {
                "pay_table": bet.pay_table,
                "pays": bet.pays,
                "lines": [line(item) for item in bet.lines],
                "loss": line(bet.loss),
                "win": bet.win.document(),
                "push": bet.push.document(),
                "lose": bet.lose.document(),
                "expected_value": bet.expected_value.document(),
                "house_edge": bet.house_edge.document(),
                "house_edge_percent": bet.house_edge.percent,
                "rtp": bet.rtp.document(),
                "rtp_percent": bet.rtp.percent,
                "max_win_per_unit": bet.max_win_per_unit.document(),
                "max_stake": None if bet.max_stake is None else str(bet.max_stake),
                "max_win": None if bet.max_win is None else format(bet.max_win.normalize(), "f"),
                "gli11": bet.gli11,
            }
            for bet in math.bets
        },
    }
