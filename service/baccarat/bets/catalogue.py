"""The catalogue: every named pay table the service can settle by.

Each bet type has one or more pay tables, each under a stable id
(``player_pair_12_to_1``), with its lines in words and their pays, and the
public source that prints it (:class:`~.bets.paytable.NamedPayTable`). A table's
rules choose one per bet it offers (:mod:`.tables.rules`); a bet the rules do not
choose for takes its standard pay table, the first one here. Adding a pay
table is one entry in :mod:`.bets.main_bets` or :mod:`.bets.side_bets` (CONTRIBUTING.md).

>>> CATALOGUE["tie_9_to_1"].lines[0].payout.odds
Decimal('9')
>>> [table.id for table in pay_tables_of(BetType.PLAYER_PAIR)]
['player_pair_11_to_1', 'player_pair_12_to_1']
>>> standard(BetType.BANKER).id
'banker_commission'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from . import main_bets, side_bets
from .paytable import NamedPayTable
from .types import BetType

#: Every pay table by id, in bet type order, each bet's standard one first.
CATALOGUE: Mapping[str, NamedPayTable] = MappingProxyType(
    {
        table.id: table
        for bet in BetType
        for table in (*main_bets.PAY_TABLES, *side_bets.PAY_TABLES)
        if table.bet is bet
    }
)

_BY_BET: Mapping[BetType, tuple[NamedPayTable, ...]] = MappingProxyType(
    {bet: tuple(table for table in CATALOGUE.values() if table.bet is bet) for bet in BetType}
)


def pay_tables_of(bet: BetType) -> tuple[NamedPayTable, ...]:
    """The pay tables ``bet`` may be paid by, its standard one first."""
    return _BY_BET[bet]


def standard(bet: BetType) -> NamedPayTable:
    """The pay table of ``bet`` when the rules choose none."""
    return _BY_BET[bet][0]


def setting_values(name: str) -> tuple[int | str, ...]:
    """The values a shorthand setting may take (``tie_pays``: 8, 9), one per
    pay table it chooses.

    >>> setting_values("tie_pays"), setting_values("super_6_pays")
    ((8, 9), (12, 15))
    """
    return tuple(
        table.setting[1] for table in CATALOGUE.values() if table.setting and table.setting[0] == name
    )


def chosen_by(bet: BetType, setting: str, value: int | str) -> NamedPayTable | None:
    """The pay table of ``bet`` that a shorthand setting's value chooses, if
    that setting chooses ``bet``'s pay table."""
    for table in _BY_BET[bet]:
        if table.setting == (setting, value):
            return table
    return None
