"""Playing a round from what a request brings: a card sequence, a seed, or
nothing (then a fresh seed is drawn and returned so the round can be replayed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from .cards import Card, check_composition
from .coup import Coup, deal
from .errors import SeedError
from .money import ZERO, to_minor_unit
from .settlement import Bet, SettledSlip, settle_slip, settle_slips
from .shuffle import ALGORITHM, SeedInputs, new_seed, shoe_hash, shuffled_shoe
from .tables import Rules


@dataclass(frozen=True, slots=True)
class SeedRecord:
    """What an auditor needs to re-derive a seeded shoe."""

    inputs: SeedInputs
    generated: bool
    shoe_hash: str
    algorithm: str = ALGORITHM

    @property
    def seed(self) -> str:
        return self.inputs.server_seed


@dataclass(frozen=True, slots=True)
class PlayedRound:
    coup: Coup
    rules: Rules
    unused_cards: tuple[Card, ...] = ()
    seed: SeedRecord | None = None
    settlement: SettledSlip | None = None
    slips: tuple[SettledSlip, ...] = ()

    @property
    def totals(self) -> SlipTotals:
        """Sums over :attr:`slips`."""
        zero = to_minor_unit(ZERO, self.rules.minor_unit, self.rules.payout_rounding)
        staked = sum((s.staked for s in self.slips), zero)
        returned = sum((s.returned for s in self.slips), zero)
        return SlipTotals(
            slips=len(self.slips),
            bets=sum(len(s.bets) for s in self.slips),
            staked=staked,
            returned=returned,
            net=returned - staked,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class SlipTotals:
    slips: int
    bets: int
    staked: Decimal
    returned: Decimal
    net: Decimal


def play(rules: Rules, *, cards: Sequence[Card] | None = None, seed: str | None = None) -> PlayedRound:
    """Deal one round from ``cards`` or from the top of a shoe shuffled by
    ``seed``; with neither, from a freshly drawn seed."""
    if cards is not None and seed is not None:
        raise SeedError("Send either cards or a seed, not both")
    if cards is not None:
        check_composition(cards, rules.decks)
        coup = deal(cards)
        return PlayedRound(coup, rules, tuple(cards[coup.cards_used :]))
    generated = seed is None
    inputs = SeedInputs(new_seed() if seed is None else seed)
    shoe = shuffled_shoe(rules.decks, inputs)
    record = SeedRecord(inputs, generated, shoe_hash(shoe))
    return PlayedRound(deal(shoe), rules, seed=record)


def play_and_settle(
    rules: Rules, bets: Sequence[Bet], *, cards: Sequence[Card] | None = None, seed: str | None = None
) -> PlayedRound:
    """:func:`play`, then settle one slip on the round."""
    played = play(rules, cards=cards, seed=seed)
    if not bets:
        return played
    settlement = settle_slip(bets, played.coup, rules)
    return PlayedRound(played.coup, rules, played.unused_cards, played.seed, settlement)


def play_and_settle_slips(
    rules: Rules,
    slips: Sequence[tuple[str | None, Sequence[Bet]]],
    *,
    cards: Sequence[Card] | None = None,
    seed: str | None = None,
) -> PlayedRound:
    """:func:`play`, then settle many slips on the round."""
    played = play(rules, cards=cards, seed=seed)
    settled = settle_slips(slips, played.coup, rules)
    return PlayedRound(played.coup, rules, played.unused_cards, played.seed, slips=tuple(settled))
