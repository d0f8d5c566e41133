"""Rules and table presets: everything a table can vary, as data.

A request picks a preset by name and may override some of its settings; the
resolved :class:`Rules` carry a stable ``id`` (a hash of their canonical form)
so that an auditor can tell two rounds were settled under the same rules.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from .money import Rounding, format_amount


class BetType(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


@dataclass(frozen=True, slots=True, kw_only=True)
class BetLimits:
    """Smallest single bet and largest total a slip may stake on one bet type."""

    min: Decimal
    max: Decimal


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The settings a round is played and settled under."""

    decks: int = 8
    commission: Decimal = Decimal("0.05")
    tie_pays: int = 8
    payout_rounding: Rounding = Rounding.DOWN
    minor_unit: int = 2
    #: The bets the table offers, with their limits.
    limits: Mapping[BetType, BetLimits] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Canonical JSON-ready form (amounts as strings)."""
        return {
            "decks": self.decks,
            "commission": str(self.commission),
            "tie_pays": self.tie_pays,
            "payout_rounding": str(self.payout_rounding),
            "minor_unit": self.minor_unit,
            "limits": {
                str(bet): {
                    "min": format_amount(lim.min, self.minor_unit),
                    "max": format_amount(lim.max, self.minor_unit),
                }
                for bet, lim in self.limits.items()
            },
        }

    @property
    def id(self) -> str:
        """First 16 hex digits of the SHA-256 of the canonical form."""
        canonical = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]


@dataclass(frozen=True, kw_only=True)
class Table:
    """A named preset: rules plus what a table UI needs to show."""

    name: str
    description: str
    rules: Rules
    chips: tuple[Decimal, ...] = tuple(Decimal(c) for c in (1, 5, 10, 25, 100))


def _limits(**by_type: tuple[str, str]) -> Mapping[BetType, BetLimits]:
    return MappingProxyType(
        {BetType(t): BetLimits(min=Decimal(lo), max=Decimal(hi)) for t, (lo, hi) in by_type.items()}
    )


TABLES: Mapping[str, Table] = MappingProxyType(
    {
        "standard": Table(
            name="standard",
            description=(
                "Punto Banco, 8 decks: banker pays 0.95:1 (5% commission, payout "
                "rounded down to the cent), tie pays 8:1; bets 1.00-200.00, tie at most 20.00"
            ),
            rules=Rules(
                limits=_limits(player=("1.00", "200.00"), banker=("1.00", "200.00"), tie=("1.00", "20.00"))
            ),
        ),
        "tie_9": Table(
            name="tie_9",
            description=(
                "Punto Banco, 8 decks reshuffled after each hand: banker pays 0.95:1, "
                "tie pays 9:1; every bet 5.00-100.00"
            ),
            rules=Rules(
                tie_pays=9,
                limits=_limits(player=("5.00", "100.00"), banker=("5.00", "100.00"), tie=("5.00", "100.00")),
            ),
        ),
    }
)
DEFAULT_TABLE = "standard"


def resolve_rules(table: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    """The preset's rules with ``overrides`` applied (already validated).

    ``limits`` overrides are merged per bet type, so a request can change the
    tie maximum without restating the other limits.
    """
    rules = TABLES[table].rules
    if not overrides:
        return rules
    changes = dict(overrides)
    if "limits" in changes:
        merged = dict(rules.limits)
        merged.update({BetType(t): lim for t, lim in changes["limits"].items()})
        changes["limits"] = MappingProxyType(merged)
    return replace(rules, **changes)
