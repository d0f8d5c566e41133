"""What each bet type pays on a finished round: the pay table its rules choose.

The pay tables are the catalogue's (:mod:`.bets.catalogue`: the main bets' in
:mod:`.bets.main_bets`, the side bets' in :mod:`.bets.side_bets`); the rules choose one
per bet (:attr:`.Rules.chosen`). Every payout rule is a pure function of the
round and the rules; money is not touched here: :mod:`.tables.settlement` does that.

>>> from service.baccarat.rulebook.cards import parse_card
>>> from service.baccarat.rulebook.coup import deal
>>> tie = deal([parse_card(c) for c in ["9S", "9H", "KD", "KC"]])
>>> payout(BetType.BANKER, tie, Rules())
Payout(result=<Result.PUSH: 'push'>, odds=Decimal('0'), commission=Decimal('0'))
>>> payout(BetType.TIE, tie, Rules()).odds
Decimal('8')

Under EZ rules a Banker win with a three-card 7 pushes the banker bet:

>>> from service.baccarat.bets.types import Variant
>>> ez = deal([parse_card(c) for c in ["2S", "KH", "4D", "2C", "5H"]])
>>> ez.banker.total, ez.player.total, payout(BetType.BANKER, ez, Rules(variant=Variant.EZ)).result
(7, 6, <Result.PUSH: 'push'>)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from types import MappingProxyType
from typing import Any

from ..bets.money import format_amount
from ..bets.paytable import LOSE, PUSH, NamedPayTable, Payout, Result
from ..bets.types import BetType
from ..rulebook.coup import Coup
from .catalogue import BUILT_IN, Catalogue
from .rules import Rules, Table

__all__ = [
    "LOSE",
    "PAYOUT_RULES",
    "PUSH",
    "Offer",
    "Payout",
    "Result",
    "description_values",
    "offers",
    "pay_table",
    "payout",
]


def pay_table(bet_type: BetType, rules: Rules) -> NamedPayTable:
    """The pay table of ``bet_type`` under ``rules``: the one they choose from
    the catalogue (:attr:`.Rules.chosen`)."""
    return rules.chosen[bet_type]


def payout(bet_type: BetType, coup: Coup, rules: Rules) -> Payout:
    """What a bet of ``bet_type`` gets on ``coup`` under ``rules``."""
    return rules.chosen[bet_type].payout(coup)


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
    pay_table: NamedPayTable


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


#: The main bets: what a preset's description states the limits of.
MAIN_BETS = (BetType.PLAYER, BetType.BANKER, BetType.TIE)


def description_values(table: Table) -> dict[str, Any]:
    """The figures a preset's description states, as values beside its code
    (the preset's name), so that a table writes the description in its own
    words: the decks, the variant, what a Banker win and a tie pay per unit
    (before a multiplier game's multipliers), the commission, the main bets'
    limits, the side bets offered, and a multiplier game's fee, multiplier
    cards, multipliers and cap.

    >>> from service.baccarat.tables.rules import TABLES
    >>> values = description_values(TABLES["tie_9"])
    >>> values["banker_pays"], values["tie_pays"], values["min"], values["max"], values["tie_max"]
    ('0.95', '9', '5.00', '100.00', '100.00')
    >>> description_values(TABLES["lightning"])["fee"]
    '0.2'
    """
    rules, unit = table.rules, table.rules.minor_unit
    banker_pays, tie_pays = _most(rules, BetType.BANKER), _most(rules, BetType.TIE)
    values: dict[str, Any] = {
        "decks": rules.decks,
        "variant": str(rules.variant),
        "commission": _number(rules.commission),
        "min": format_amount(min(rules.limits[bet].min for bet in MAIN_BETS), unit),
        "max": format_amount(max(rules.limits[bet].max for bet in MAIN_BETS), unit),
        "tie_max": format_amount(rules.limits[BetType.TIE].max, unit),
        "side_bets": [str(bet) for bet in rules.bet_types if bet not in MAIN_BETS],
    }
    rule = rules.multipliers
    if rule is not None:
        paid_banker, paid_tie = rule.pays[BetType.BANKER], rule.pays[BetType.TIE]
        banker_pays = paid_banker.pays * (1 - paid_banker.stake_kept)
        tie_pays = paid_tie.pays
        values["commission"] = _number(paid_banker.stake_kept)
        values["fee"] = _number(rule.fee.rate)
        values["multiplier_cards"] = sorted(rule.cards)
        values["multipliers"] = sorted(rule.multipliers)
        if rule.cap is not None:
            values["cap"] = _number(rule.cap)
    return {**values, "banker_pays": _number(banker_pays), "tie_pays": _number(tie_pays)}


def _most(rules: Rules, bet: BetType) -> Decimal:
    """What a plain win of ``bet`` pays per unit, after commission: its pay
    table's largest (a Banker win on 6 at 1:2 is the exception)."""
    return max(line.payout.net for line in rules.chosen[bet].lines if line.payout.result is Result.WIN)


def _number(value: Decimal) -> str:
    """A rate or a pay as a plain decimal string: ``0.05``, ``8``."""
    return format(value.normalize(), "f")


def table_presets(catalogue: Catalogue = BUILT_IN) -> dict[str, Any]:
    """Every table of ``catalogue`` (the built-in presets by default) with its
    rules, chips, how it deals and the bets it offers: the data of ``GET
    /v1/tables`` (the caller's tables) and ``baccarat tables``."""
    tables = [
        {
            "name": table.name,
            "description": table.description,
            "description_code": table.name,
            "description_values": description_values(table),
            "rules": table.rules,
            "chips": [str(chip) for chip in table.chips],
            "dealing": str(table.dealing),
            "game": str(table.game),
            "operations": list(table.operations),
            "peek": table.peek,
            "bets": offers(table.rules),
            "currency": table.currency,
            "languages": list(table.languages) or None,
        }
        for table in catalogue.values()
    ]
    return {"default": catalogue.default, "tables": tables}
