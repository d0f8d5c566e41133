"""What each bet type pays on a finished round: its pay table under the rules.

The main bets' tables are here (the banker bet's depends on the table's
``variant``); the side bets' are in :mod:`.side_bets`. Every payout rule is a
pure function of the round and the rules; money is not touched here:
:mod:`.settlement` does that.

>>> from service.baccarat.cards import parse_card
>>> from service.baccarat.coup import deal
>>> tie = deal([parse_card(c) for c in ["9S", "9H", "KD", "KC"]])
>>> payout(BetType.BANKER, tie, Rules())
Payout(result=<Result.PUSH: 'push'>, odds=Decimal('0'), commission=Decimal('0'))
>>> payout(BetType.TIE, tie, Rules()).odds
Decimal('8')

Under EZ rules a Banker win with a three-card 7 pushes the banker bet:

>>> ez = deal([parse_card(c) for c in ["2S", "KH", "4D", "2C", "5H"]])
>>> ez.banker.total, ez.player.total, payout(BetType.BANKER, ez, Rules(variant=Variant.EZ)).result
(7, 6, <Result.PUSH: 'push'>)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any

from .coup import Coup, Outcome
from .money import format_amount
from .paytable import LOSE, PUSH, PayLine, Payout, PayTable, Result, win
from .side_bets import SIDE_BETS
from .tables import DEFAULT_TABLE, TABLES, TIE_PAYS, BetType, Rules, Variant

__all__ = [
    "LOSE",
    "PAYOUT_RULES",
    "PAY_TABLES",
    "PUSH",
    "Offer",
    "Payout",
    "Result",
    "offers",
    "pay_table",
    "payout",
]


def _player_wins(coup: Coup) -> bool:
    return coup.outcome is Outcome.PLAYER


def _banker_wins(coup: Coup) -> bool:
    return coup.outcome is Outcome.BANKER


def _tie(coup: Coup) -> bool:
    return coup.outcome is Outcome.TIE


def _banker_wins_with_6(coup: Coup) -> bool:
    return _banker_wins(coup) and coup.banker.total == 6


def _banker_wins_without_6(coup: Coup) -> bool:
    return _banker_wins(coup) and coup.banker.total != 6


def _banker_wins_with_three_card_7(coup: Coup) -> bool:
    return _banker_wins(coup) and coup.banker.total == 7 and len(coup.banker.cards) == 3


def _banker_wins_without_three_card_7(coup: Coup) -> bool:
    return _banker_wins(coup) and not _banker_wins_with_three_card_7(coup)


_TIE_PUSHES = PayLine("a tie", _tie, PUSH)

_PLAYER = PayTable(
    "The Player's final total beats the Banker's", (PayLine("Player wins", _player_wins, win(1)), _TIE_PUSHES)
)

_BANKER_BEATS_PLAYER = "The Banker's final total beats the Player's"
#: The banker bet of the variants that take no commission.
_BANKER_NO_COMMISSION = PayTable(
    _BANKER_BEATS_PLAYER,
    (
        PayLine("Banker wins with a total of 6", _banker_wins_with_6, win("0.5")),
        PayLine("Banker wins with any other total", _banker_wins_without_6, win(1)),
        _TIE_PUSHES,
    ),
)
_BANKER_EZ = PayTable(
    _BANKER_BEATS_PLAYER,
    (
        PayLine("Banker wins with a three-card 7", _banker_wins_with_three_card_7, PUSH),
        PayLine("Banker wins any other way", _banker_wins_without_three_card_7, win(1)),
        _TIE_PUSHES,
    ),
)


def _banker(rules: Rules) -> PayTable:
    if rules.variant is Variant.NO_COMMISSION:
        return _BANKER_NO_COMMISSION
    if rules.variant is Variant.EZ:
        return _BANKER_EZ
    return PayTable(
        _BANKER_BEATS_PLAYER, (PayLine("Banker wins", _banker_wins, win(1, rules.commission)), _TIE_PUSHES)
    )


#: The tie's pay table for each pay a table may choose (TIE_PAYS).
_TIE_TABLES = {
    pays: PayTable("The two final totals are equal", (PayLine("the totals are equal", _tie, win(pays)),))
    for pays in TIE_PAYS
}


def _tie_table(rules: Rules) -> PayTable:
    return _TIE_TABLES[rules.tie_pays]


#: Each bet type's pay table under the rules in force.
PAY_TABLES: Mapping[BetType, Callable[[Rules], PayTable]] = MappingProxyType(
    {
        BetType.PLAYER: lambda rules: _PLAYER,
        BetType.BANKER: _banker,
        BetType.TIE: _tie_table,
        **SIDE_BETS,
    }
)


def pay_table(bet_type: BetType, rules: Rules) -> PayTable:
    """The pay table of ``bet_type`` under ``rules``."""
    return PAY_TABLES[bet_type](rules)


def payout(bet_type: BetType, coup: Coup, rules: Rules) -> Payout:
    """What a bet of ``bet_type`` gets on ``coup`` under ``rules``."""
    return PAY_TABLES[bet_type](rules).payout(coup)


PayoutRule = Callable[[Coup, Rules], Payout]


def _rule(bet_type: BetType, coup: Coup, rules: Rules) -> Payout:
    return payout(bet_type, coup, rules)


#: Each bet type's payout rule: a pure function of the round and the rules.
PAYOUT_RULES: Mapping[BetType, PayoutRule] = MappingProxyType(
    {bet_type: partial(_rule, bet_type) for bet_type in BetType}
)


@dataclass(frozen=True, slots=True)
class Offer:
    """A bet a table offers: its limits (as amounts in the minor unit) and pay table."""

    type: BetType
    min: str
    max: str
    pay_table: PayTable


def offers(rules: Rules) -> tuple[Offer, ...]:
    """The bets ``rules`` offer, each with its limits and its pay table."""
    unit, limits = rules.minor_unit, rules.limits
    return tuple(
        Offer(
            bet,
            format_amount(limits[bet].min, unit),
            format_amount(limits[bet].max, unit),
            pay_table(bet, rules),
        )
        for bet in rules.bet_types
    )


def table_presets() -> dict[str, Any]:
    """Every table preset with its rules, chips and the bets it offers: the
    data of ``GET /v1/tables`` and ``baccarat tables``."""
    tables = [
        {
            "name": table.name,
            "description": table.description,
            "rules": table.rules,
            "chips": [str(chip) for chip in table.chips],
            "bets": offers(table.rules),
        }
        for table in TABLES.values()
    ]
    return {"default": DEFAULT_TABLE, "tables": tables}
