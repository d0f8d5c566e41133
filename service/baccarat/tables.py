"""Rules and table presets: everything a table can vary, as data.

A request picks a preset by name and may override some of its settings; the
resolved :class:`Rules` carry a stable ``id`` (a hash of their canonical form)
so that an auditor can tell two rounds were settled under the same rules.

The bets a table offers are the keys of its ``limits``; what each pays is its
pay table (:mod:`.payouts`), which reads the few pays a table may vary
(``tie_pays``, ``super_6_pays``) and the ``variant`` from here.
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

from .errors import Problem, RulesError
from .money import Rounding, format_amount
from .shoe_deal import DEFAULT_CUT_CARD


class BetType(StrEnum):
    """Every bet the service settles: the three main bets, then the side bets."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    EITHER_PAIR = "either_pair"
    PERFECT_PAIR = "perfect_pair"
    DRAGON_BONUS_PLAYER = "dragon_bonus_player"
    DRAGON_BONUS_BANKER = "dragon_bonus_banker"
    DRAGON_7 = "dragon_7"
    PANDA_8 = "panda_8"
    BIG = "big"
    SMALL = "small"
    SUPER_6 = "super_6"


class Variant(StrEnum):
    """How the banker bet is paid."""

    STANDARD = "standard"  # 1:1 less the commission
    NO_COMMISSION = "no_commission"  # 1:1, but a win with a total of 6 pays 1:2
    EZ = "ez"  # 1:1, but a win with a three-card 7 pushes


#: The pays a request may choose, per setting (docs/bets.md); every other pay is fixed.
TIE_PAYS = (8, 9)
SUPER_6_PAYS = (12, 15)


@dataclass(frozen=True, slots=True, kw_only=True)
class BetLimits:
    """Smallest single bet and largest total a slip may stake on one bet type."""

    min: Decimal
    max: Decimal


@dataclass(frozen=True, kw_only=True)
class Rules:
    """The settings a round is played and settled under.

    ``commission`` is taken from banker wins in the ``standard`` variant; the
    ``no_commission`` and ``ez`` variants take none, and their rules say 0.
    """

    variant: Variant = Variant.STANDARD
    decks: int = 8
    commission: Decimal = Decimal("0.05")
    tie_pays: int = 8
    super_6_pays: int = 12
    payout_rounding: Rounding = Rounding.DOWN
    minor_unit: int = 2
    #: Cards left behind the cut card when a whole shoe is dealt (docs/fairness.md).
    cut_card: int = DEFAULT_CUT_CARD
    #: The bets the table offers, with their limits.
    limits: Mapping[BetType, BetLimits] = field(default_factory=dict)

    #: The canonical JSON-ready form (amounts as strings) and its id, made with
    #: the rules (so a preset's are made at import, never on a request) and
    #: shared by every answer that shows them: never changed.
    canonical: dict[str, Any] = field(init=False, repr=False, compare=False)
    #: First 16 hex digits of the SHA-256 of the canonical form.
    id: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        canonical = {
            "variant": str(self.variant),
            "decks": self.decks,
            # The rate's value, not how it was written: 0.050 is 0.05.
            "commission": format(self.commission.normalize(), "f"),
            "tie_pays": self.tie_pays,
            "super_6_pays": self.super_6_pays,
            "payout_rounding": str(self.payout_rounding),
            "minor_unit": self.minor_unit,
            "cut_card": self.cut_card,
            "limits": {
                str(bet): {
                    "min": format_amount(lim.min, self.minor_unit),
                    "max": format_amount(lim.max, self.minor_unit),
                }
                for bet, lim in self.limits.items()
            },
        }
        text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
        # A frozen dataclass sets what it derives this way (the dataclasses documentation's own idiom).
        object.__setattr__(self, "canonical", canonical)
        object.__setattr__(self, "id", hashlib.sha256(text.encode()).hexdigest()[:16])

    @property
    def bet_types(self) -> tuple[BetType, ...]:
        """The bets the table offers, in :class:`BetType` order."""
        return tuple(bet for bet in BetType if bet in self.limits)


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


# The main bets take 1.00-200.00 (tie at most 20.00); a side bet's maximum
# keeps its largest payout near 250.00.
_MAIN = {"player": ("1.00", "200.00"), "banker": ("1.00", "200.00"), "tie": ("1.00", "20.00")}
_PAIRS = {"player_pair": ("1.00", "25.00"), "banker_pair": ("1.00", "25.00")}

TABLES: Mapping[str, Table] = MappingProxyType(
    {
        "standard": Table(
            name="standard",
            description=(
                "Punto Banco, 8 decks: banker pays 0.95:1 (5% commission, payout "
                "rounded down to the cent), tie pays 8:1; bets 1.00-200.00, tie at most 20.00; "
                "side bets: pairs, perfect pair, dragon bonus, big and small"
            ),
            rules=Rules(
                limits=_limits(
                    **_MAIN,
                    **_PAIRS,
                    either_pair=("1.00", "50.00"),
                    perfect_pair=("1.00", "10.00"),
                    dragon_bonus_player=("1.00", "10.00"),
                    dragon_bonus_banker=("1.00", "10.00"),
                    big=("1.00", "200.00"),
                    small=("1.00", "100.00"),
                )
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
        "no_commission": Table(
            name="no_commission",
            description=(
                "No-commission Punto Banco, 8 decks: banker pays 1:1 but a banker win with "
                "a total of 6 pays 1:2, tie pays 8:1; side bets: pairs, super 6 (12:1)"
            ),
            rules=Rules(
                variant=Variant.NO_COMMISSION,
                commission=Decimal(0),
                limits=_limits(**_MAIN, **_PAIRS, super_6=("1.00", "20.00")),
            ),
        ),
        "ez": Table(
            name="ez",
            description=(
                "EZ Baccarat, 8 decks: banker pays 1:1 but a banker win with a three-card 7 "
                "pushes, tie pays 8:1; side bets: dragon 7 (40:1), panda 8 (25:1)"
            ),
            rules=Rules(
                variant=Variant.EZ,
                commission=Decimal(0),
                limits=_limits(**_MAIN, dragon_7=("1.00", "5.00"), panda_8=("1.00", "10.00")),
            ),
        ),
    }
)
DEFAULT_TABLE = "standard"


def _limits_in_minor_units(rules: Rules, changes: Mapping[str, Any]) -> None:
    """Every limit is a whole number of the currency's minor unit: a limit of
    2.50 where amounts have no decimals would be shown as 2 and refuse a bet
    of 2 (a :class:`RulesError` naming each such limit)."""
    unit = Decimal(1).scaleb(-rules.minor_unit)
    sent = changes.get("limits", {})
    problems = [
        Problem(
            ("rules", "limits", str(bet), end) if bet in sent else ("rules", "minor_unit"),
            f"the {bet} {end} {amount} has more decimals than the currency's {rules.minor_unit}",
        )
        for bet, limits in rules.limits.items()
        for end, amount in (("min", limits.min), ("max", limits.max))
        if amount != amount.quantize(unit)
    ]
    if problems:
        raise RulesError("A table limit is not a whole number of the currency's minor unit", problems)


def resolve_rules(table: str = DEFAULT_TABLE, overrides: Mapping[str, Any] | None = None) -> Rules:
    """The preset's rules with ``overrides`` applied (already validated).

    ``limits`` overrides are merged per bet type, so a request can change the
    tie maximum without restating the other limits (or offer one more bet).
    A commission with a variant that takes none is a :class:`RulesError`.
    """
    rules = TABLES[table].rules
    if not overrides:
        return rules
    changes = dict(overrides)
    if "limits" in changes:
        merged = dict(rules.limits)
        merged.update({BetType(t): lim for t, lim in changes["limits"].items()})
        changes["limits"] = MappingProxyType(merged)
    resolved = replace(rules, **changes)
    _limits_in_minor_units(resolved, changes)
    if resolved.variant is not Variant.STANDARD and resolved.commission:
        where = "commission" if "commission" in changes else "variant"
        raise RulesError(
            f"The {resolved.variant} variant takes no commission, but the rules say {resolved.commission}",
            [
                Problem(
                    ("rules", where),
                    f"commission {resolved.commission} applies only to the standard variant: "
                    f"send commission 0 with variant {resolved.variant!s}",
                )
            ],
        )
    return resolved
