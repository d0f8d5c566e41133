"""What each bet type pays on a finished round, as data-driven rules.

A payout rule looks at the round and the rules and says whether the bet
wins, loses or pushes, and at what odds (profit per unit staked, before
commission). Money is not touched here: :mod:`.settlement` does that.

>>> from service.baccarat.cards import parse_card
>>> from service.baccarat.coup import deal
>>> tie = deal([parse_card(c) for c in ["9S", "9H", "KD", "KC"]])
>>> payout(BetType.BANKER, tie, Rules())
Payout(result=<Result.PUSH: 'push'>, odds=Decimal('0'), commission=Decimal('0'))
>>> payout(BetType.TIE, tie, Rules()).odds
Decimal('8')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType

from .coup import Coup, Outcome
from .money import ZERO
from .tables import BetType, Rules


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


@dataclass(frozen=True, slots=True)
class Payout:
    result: Result
    odds: Decimal = ZERO
    commission: Decimal = ZERO


LOSE = Payout(Result.LOSE)
PUSH = Payout(Result.PUSH)
EVEN = Decimal(1)


def _player(coup: Coup, rules: Rules) -> Payout:
    """Pays 1:1; pushes on a tie."""
    outcome = coup.outcome
    if outcome is Outcome.TIE:
        return PUSH
    return Payout(Result.WIN, EVEN) if outcome is Outcome.PLAYER else LOSE


def _banker(coup: Coup, rules: Rules) -> Payout:
    """Pays 1:1 less the commission; pushes on a tie."""
    outcome = coup.outcome
    if outcome is Outcome.TIE:
        return PUSH
    if outcome is Outcome.BANKER:
        return Payout(Result.WIN, EVEN, rules.commission)
    return LOSE


def _tie(coup: Coup, rules: Rules) -> Payout:
    """Pays ``tie_pays``:1 (8 or 9) when the totals are equal."""
    if coup.outcome is Outcome.TIE:
        return Payout(Result.WIN, Decimal(rules.tie_pays))
    return LOSE


PayoutRule = Callable[[Coup, Rules], Payout]

PAYOUT_RULES: Mapping[BetType, PayoutRule] = MappingProxyType(
    {BetType.PLAYER: _player, BetType.BANKER: _banker, BetType.TIE: _tie}
)


def payout(bet_type: BetType, coup: Coup, rules: Rules) -> Payout:
    """What a bet of ``bet_type`` gets on ``coup`` under ``rules``."""
    return PAYOUT_RULES[bet_type](coup, rules)
