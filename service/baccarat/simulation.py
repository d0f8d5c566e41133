"""Dealing many seeded shoes and measuring what each bet returned: a check
on the exact odds by another road.

Shoe ``i`` (``i = 0 .. shoes - 1``) is shuffled from the server seed with an
empty client seed and nonce ``i`` (so shoe 0 is the shoe of the plain seed),
and dealt whole as :mod:`.shoe_deal` deals it: burn, rounds, cut card, one
more round. On every round one unit is staked on every bet the table offers
and settled by the engine (:class:`~.settlement.Settler`).

The observed return of a bet is its total net over its total staked. Rounds
of one shoe are not independent (they share its cards), shoes are: the
confidence interval treats each shoe as one observation of (net, rounds) and
uses the ratio estimator's standard error with a normal quantile.

Averaged over whole shoes a bet's return is not exactly its return on a
full shoe (where the cut card falls depends on the cards dealt before it),
but the difference is far below what a simulation can see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from math import sqrt
from statistics import NormalDist

from .bets import BetType
from .settlement import Bet, Settler
from .shoe_deal import deal_shoe
from .shuffle import SeedInputs, shuffled_shoe
from .tables import Rules

#: The stake settled on every bet: every pay is a whole number of cents at 100.
STAKE = Decimal(100)


@dataclass(frozen=True, slots=True)
class BetReturn:
    """What one bet returned over the simulation, per unit staked."""

    bet: BetType
    rounds: int
    #: Net won (negative: lost) per unit staked, over every round.
    observed: float
    #: Standard error of :attr:`observed` (shoes as independent clusters).
    standard_error: float

    def interval(self, confidence: float) -> tuple[float, float]:
        """The two-sided confidence interval at ``confidence`` (e.g. 0.95)."""
        z = NormalDist().inv_cdf(0.5 + confidence / 2)
        return self.observed - z * self.standard_error, self.observed + z * self.standard_error


@dataclass(frozen=True, slots=True)
class Simulation:
    """Every offered bet's return over ``shoes`` seeded shoes."""

    seed: str
    shoes: int
    rounds: int
    returns: tuple[BetReturn, ...]


def simulate(
    rules: Rules, seed: str, shoes: int, *, progress: Callable[[int], None] | None = None
) -> Simulation:
    """Deal ``shoes`` shoes from ``seed`` under ``rules`` and settle one
    unit on every offered bet each round; ``progress(done)`` after each shoe."""
    if shoes < 2:
        raise ValueError("a confidence interval needs at least 2 shoes")
    bets = [Bet(type=bet, amount=STAKE) for bet in rules.bet_types]
    per_shoe: list[tuple[int, list[Decimal]]] = []
    for nonce in range(shoes):
        dealt = deal_shoe(shuffled_shoe(rules.decks, SeedInputs(seed, "", nonce)), cut_card=rules.cut_card)
        nets = [Decimal(0)] * len(bets)
        for shoe_round in dealt.rounds:
            settler = Settler(shoe_round.coup, rules)
            for index, bet in enumerate(bets):
                settled = settler.bet(bet)
                nets[index] += settled.returned - settled.amount
        per_shoe.append((len(dealt.rounds), nets))
        if progress is not None:
            progress(nonce + 1)
    rounds = sum(count for count, _ in per_shoe)
    returns = []
    for index, bet in enumerate(bets):
        units = [(count, float(nets[index] / STAKE)) for count, nets in per_shoe]
        observed = sum(net for _, net in units) / rounds
        spread = sum((net - observed * count) ** 2 for count, net in units)
        error = sqrt(shoes / (shoes - 1) * spread) / rounds
        returns.append(BetReturn(bet.type, rounds, observed, error))
    return Simulation(seed, shoes, rounds, tuple(returns))
