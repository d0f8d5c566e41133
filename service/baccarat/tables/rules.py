"""Rules and table presets: everything a table can vary, as data.

A request picks a preset by name and may override some of its settings; the
resolved :class:`Rules` carry a stable ``id`` (a hash of their canonical form)
so that an auditor can tell two rounds were settled under the same rules.

The bets a table offers are the keys of its ``limits``; what each pays is the
pay table its rules choose from the catalogue (:mod:`.bets.catalogue`): by name in
``pay_tables``, or, for the banker, the tie and Super 6, by the shorthand
settings ``variant``, ``tie_pays`` and ``super_6_pays``; a bet they do not
choose for takes its standard pay table.

Why one module of this length: the settings, the presets and the
resolving of a request's overrides make one data type and its
constructors, and the rules id is one canonical form over all of them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any, cast

from ..bets.catalogue import CATALOGUE, chosen_by, pay_tables_of, setting_values, standard
from ..bets.money import Rounding, format_amount, to_minor_unit
from ..bets.paytable import NamedPayTable, Result, at_commission
from ..bets.types import BetType, Variant
from ..counting.round_counts import count_rounds, structure
from ..multipliers.presets import PRESETS as MULTIPLIER_PRESETS
from ..multipliers.problems import cap_problems
from ..multipliers.rule import MultiplierRule
from ..rulebook.cards import DECK, MAX_DECKS
from ..rulebook.coup import Coup
from ..rulebook.errors import N_, Path, Problem, ProblemCode, RulesError, ShoeError
from ..shoes.composition import full_shoe
from ..shoes.deal import DEFAULT_CUT_CARD, cut_card_problem

#: The pays a request may choose by a shorthand setting (docs/bets.md), one
#: per pay table of the catalogue that the setting chooses.
TIE_PAYS = cast(tuple[int, ...], setting_values("tie_pays"))
SUPER_6_PAYS = cast(tuple[int, ...], setting_values("super_6_pays"))
#: The bets whose pay table a shorthand setting chooses, and that setting (the
#: catalogue's ``setting`` of their pay tables: banker, tie and Super 6).
SHORTHANDS: Mapping[BetType, str] = MappingProxyType(
    {table.bet: table.setting[0] for table in CATALOGUE.values() if table.setting}
)


class Dealing(StrEnum):
    """How a table deals its rounds."""

    #: From a whole shoe: burn, rounds until the cut card comes out, one more.
    SHOE = "shoe"
    #: The decks reshuffled after each hand: every round is a fresh shoe's first, no burn.
    RESHUFFLE_EACH_HAND = "reshuffle_each_hand"


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
    #: How the table deals: from a whole shoe, or each hand from a fresh
    #: shuffle (then no operation deals it a whole shoe or a shoe's round n).
    dealing: Dealing = Dealing.SHOE
    #: The bets the table offers, with their limits.
    limits: Mapping[BetType, BetLimits] = field(default_factory=dict)
    #: The pay table chosen by id for each offered bet that has more than one
    #: and no shorthand setting; a bet not named takes its standard one. Kept
    #: without the standard choices, so that equal rules compare equal.
    pay_tables: Mapping[BetType, str] = field(default_factory=dict)
    #: A multiplier game's rule (docs/multipliers.md), or None for a plain
    #: table. With one, the table offers only the bets the rule pays, and a
    #: round's bets are settled by it (:mod:`.multipliers.settlement`).
    multipliers: MultiplierRule | None = None

    #: The canonical JSON-ready form (amounts as strings) and its id, made with
    #: the rules (so a preset's are made at import, never on a request) and
    #: shared by every answer that shows them: never changed.
    canonical: dict[str, Any] = field(init=False, repr=False, compare=False)
    #: First 16 hex digits of the SHA-256 of the canonical form, less the
    #: standard pay tables it names (see :meth:`_hashed`).
    id: str = field(init=False, repr=False, compare=False)
    #: Every bet's pay table under these rules, offered or not, in
    #: :class:`BetType` order (the banker's at the table's commission).
    chosen: Mapping[BetType, NamedPayTable] = field(init=False, repr=False, compare=False)

    def __reduce__(self) -> tuple[Callable[..., Rules], tuple[dict[str, Any]]]:
        """Pickled as its settings (its read-only mappings as dicts), so that a
        worker process or machine dealing a share of a simulation
        (:func:`.odds.simulation.tally_shoes`) builds the same rules, the same id."""
        settings = {}
        for item in fields(self):
            if item.init:
                value = getattr(self, item.name)
                settings[item.name] = dict(value) if isinstance(value, Mapping) else value
        return _rules_from, (settings,)

    def __post_init__(self) -> None:
        chosen = self._choose()
        object.__setattr__(
            self,
            "pay_tables",
            MappingProxyType(
                {
                    bet: self.pay_tables[bet]
                    for bet in BetType
                    if bet in self.pay_tables and chosen[bet] is not standard(bet)
                }
            ),
        )
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
            # Only a table that reshuffles after each hand says so, so the others' answers stay as they were.
            **({"dealing": str(self.dealing)} if self.dealing is not Dealing.SHOE else {}),
            "limits": {
                str(bet): {
                    "min": format_amount(lim.min, self.minor_unit),
                    "max": format_amount(lim.max, self.minor_unit),
                }
                for bet, lim in self.limits.items()
            },
            "pay_tables": {str(bet): chosen[bet].id for bet in BetType if bet in self.limits},
        }
        if self.multipliers is not None:
            # Only a multiplier table names one, so plain tables keep their ids.
            canonical["multipliers"] = {"id": self.multipliers.id, **self.multipliers.canonical}
        text = json.dumps(self._hashed(canonical), sort_keys=True, separators=(",", ":"))
        # A frozen dataclass sets what it derives this way (the dataclasses documentation's own idiom).
        object.__setattr__(self, "canonical", canonical)
        object.__setattr__(self, "chosen", MappingProxyType(chosen))
        object.__setattr__(self, "id", hashlib.sha256(text.encode()).hexdigest()[:16])

    def _hashed(self, canonical: dict[str, Any]) -> dict[str, Any]:
        """What the id is the hash of: the canonical form, naming only the pay
        tables chosen by id that are not their bet's standard one (the others
        follow from the rest), so that rules made before pay tables could be
        chosen keep their ids, and any other choice changes the id; and
        without how the table deals, which settles no bet differently (the
        id says how rounds are settled, and a rules sheet's id, which covers
        the dealing, tells two tables' sheets apart)."""
        hashed = {key: value for key, value in canonical.items() if key not in ("pay_tables", "dealing")}
        if self.pay_tables:
            hashed["pay_tables"] = {str(bet): table for bet, table in self.pay_tables.items()}
        return hashed

    def _choose(self) -> dict[BetType, NamedPayTable]:
        """Every bet's pay table, offered or not; a :class:`RulesError` naming each
        choice that is not one of its bet's pay tables, that a shorthand
        setting makes instead, or that is for a bet the table does not offer."""
        problems = []
        for bet, table_id in self.pay_tables.items():
            where = ("rules", "pay_tables", str(bet))
            wrong = _not_of_bet(bet, table_id)
            if wrong:
                problems.append(wrong)
            elif bet in SHORTHANDS:
                problems.append(
                    Problem.of(where, ProblemCode.PAY_TABLE_BY_SHORTHAND, bet=bet, setting=SHORTHANDS[bet])
                )
            elif bet not in self.limits:
                problems.append(Problem.of(where, ProblemCode.PAY_TABLE_BET_NOT_OFFERED, bet=bet))
        if problems:
            raise RulesError(N_("A pay table the rules choose is not one of the bet's"), problems)
        chosen = {}
        for bet in BetType:
            if bet in SHORTHANDS:
                setting = SHORTHANDS[bet]
                table = chosen_by(bet, setting, self._setting(setting))
                if table is None:
                    raise RulesError(
                        N_("No pay table of the {bet} bet has {setting} {value}"),
                        [
                            Problem.of(
                                ("rules", setting),
                                ProblemCode.NO_PAY_TABLE_FOR_SETTING,
                                bet=bet,
                                setting=setting,
                            )
                        ],
                        bet=bet,
                        setting=setting,
                        value=self._setting(setting),
                    )
                chosen[bet] = at_commission(table, self.commission)
            else:
                chosen[bet] = CATALOGUE[self.pay_tables[bet]] if bet in self.pay_tables else standard(bet)
        return chosen

    def _setting(self, name: str) -> int | str:
        value = getattr(self, name)
        return str(value) if isinstance(value, Variant) else cast(int, value)

    @property
    def bet_types(self) -> tuple[BetType, ...]:
        """The bets the table offers, in :class:`BetType` order."""
        return tuple(bet for bet in BetType if bet in self.limits)


def _rules_from(settings: dict[str, Any]) -> Rules:
    """The rules of these settings (how :meth:`Rules.__reduce__` rebuilds them)."""
    return Rules(**settings)


def _not_of_bet(bet: BetType, table_id: str) -> Problem | None:
    """The problem with choosing ``table_id`` for ``bet``, if it is not one of its pay tables."""
    table = CATALOGUE.get(table_id)
    if table is not None and table.bet is bet:
        return None
    tables = tuple(choice.id for choice in pay_tables_of(bet))
    return Problem.of(
        ("rules", "pay_tables", str(bet)),
        ProblemCode.PAY_TABLE_NOT_OF_BET,
        table=table_id,
        bet=bet,
        tables=tables,
    )


class Game(StrEnum):
    """The game a table plays, which says which operations play it."""

    #: Punto Banco by the tableau and the table's pay tables.
    PUNTO_BANCO = "punto_banco"
    #: A multiplier game: its bets paid by the rule, each round with its
    #: multiplier cards (sent with the cards, or drawn from the seed inputs).
    MULTIPLIERS = "multipliers"
    #: Peek Baccarat: played by its own operation, POST /v1/rounds/peek, alone.
    PEEK = "peek"


#: The operations (by operationId) that play each game's rounds, settle them,
#: price them or describe them; a rules sheet describes every table.
OPERATIONS: Mapping[Game, tuple[str, ...]] = MappingProxyType(
    {
        Game.PUNTO_BANCO: (
            "playRound",
            "settleSlips",
            "dealLiveRound",
            "dealShoe",
            "getOdds",
            "playPeekRound",
            "writeRulesSheet",
        ),
        Game.MULTIPLIERS: (
            "playRound",
            "settleSlips",
            "dealLiveRound",
            "dealShoe",
            "getOdds",
            "writeRulesSheet",
        ),
        Game.PEEK: ("playPeekRound", "writeRulesSheet"),
    }
)


@dataclass(frozen=True, kw_only=True)
class Table:
    """A named preset: rules plus what a table UI needs to show."""

    name: str
    description: str
    rules: Rules
    chips: tuple[Decimal, ...] = tuple(Decimal(c) for c in (1, 5, 10, 25, 100))
    #: Played as Peek Baccarat (:mod:`.peek`, POST /v1/rounds/peek)
    #: and by nothing else: its Player and Banker bets pay the peek's fee.
    peek: bool = False
    #: A catalogued table's currency (ISO 4217), whose minor unit its rules
    #: have; None at a built-in preset, which names no currency.
    currency: str | None = None
    #: The languages (tags) its rules sheet is written in; empty: every one the service speaks.
    languages: tuple[str, ...] = ()
    #: The malfunction clause its rules sheet states (a clause's code); None: the sheet's default.
    malfunction: str | None = None

    @property
    def dealing(self) -> Dealing:
        """How the table deals: its rules'."""
        return self.rules.dealing

    @property
    def game(self) -> Game:
        """The game the table plays."""
        if self.peek:
            return Game.PEEK
        return Game.PUNTO_BANCO if self.rules.multipliers is None else Game.MULTIPLIERS

    @property
    def operations(self) -> tuple[str, ...]:
        """The operations that play (or price, or describe) its rounds, by
        operationId; at a table that reshuffles after each hand, not
        POST /v1/shoes."""
        played = OPERATIONS[self.game]
        if self.dealing is Dealing.RESHUFFLE_EACH_HAND:
            return tuple(operation for operation in played if operation != "dealShoe")
        return played


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
                dealing=Dealing.RESHUFFLE_EACH_HAND,
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
        "tiger": Table(
            name="tiger",
            description=(
                "No-commission Punto Banco, 8 decks: banker pays 1:1 but a banker win with "
                "a total of 6 pays 1:2, tie pays 8:1; side bets: lucky 6 (12:1 or 20:1), "
                "big tiger (50:1), small tiger (22:1), tiger tie (35:1)"
            ),
            rules=Rules(
                variant=Variant.NO_COMMISSION,
                commission=Decimal(0),
                limits=_limits(
                    **_MAIN,
                    lucky_6=("1.00", "10.00"),
                    big_tiger=("1.00", "5.00"),
                    small_tiger=("1.00", "10.00"),
                    tiger_tie=("1.00", "5.00"),
                ),
            ),
        ),
        "peek": Table(
            name="peek",
            description=(
                "Peek Baccarat, 8 decks: 1 to 4 of the first four cards shown, then the Player or "
                "Banker bet kept, doubled or tripled; a 20% fee on the Player and Banker bets, none on "
                "the raise; banker pays 0.95:1, tie pays 8:1, pairs 11:1; bets 1.00-200.00, tie at most 20.00"
            ),
            rules=Rules(limits=_limits(**_MAIN, **_PAIRS)),
            peek=True,
        ),
    }
    | {
        # The multiplier games as tables (docs/multipliers.md): the standard
        # table's main bets and pairs, the only bets the rules pay, at the same
        # limits, played and paid by the game's rule, fee included. A table's
        # rules are those of `{"multipliers": name}` at the standard table,
        # their id the same.
        name: Table(
            name=name,
            description=game.description,
            rules=Rules(limits=_limits(**_MAIN, **_PAIRS), multipliers=game.rule),
        )
        for name, game in MULTIPLIER_PRESETS.items()
    }
)
DEFAULT_TABLE = "standard"
#: The tables every operation but Peek Baccarat's plays at.
PLAIN_PLAY = frozenset(name for name, table in TABLES.items() if not table.peek)
#: The tables of the plain game, no multiplier game's and not peek's: those
#: whose returns the exact odds are (what a simulation checks, what the
#: certification kit certifies).
PUNTO_BANCO = tuple(
    name for name, table in TABLES.items() if name in PLAIN_PLAY and table.rules.multipliers is None
)


def _limits_in_minor_units(rules: Rules, overrides: Mapping[str, Any]) -> list[Problem]:
    """Every limit is a whole number of the currency's minor unit: a limit of
    2.50 where amounts have no decimals would be shown as 2 and refuse a bet
    of 2 (a problem naming each such limit)."""
    unit = Decimal(1).scaleb(-rules.minor_unit)
    sent = overrides.get("limits", {})
    return [
        Problem.of(
            ("rules", "limits", str(bet), end) if bet in sent else ("rules", "minor_unit"),
            ProblemCode.LIMIT_FINER_THAN_MINOR_UNIT,
            bet=bet,
            end=end,
            amount=amount,
            minor_unit=rules.minor_unit,
        )
        for bet, limits in rules.limits.items()
        for end, amount in (("min", limits.min), ("max", limits.max))
        if amount != amount.quantize(unit)
    ]


def resolve_rules(
    table: str = DEFAULT_TABLE,
    overrides: Mapping[str, Any] | None = None,
    *,
    tables: Mapping[str, Table] = TABLES,
    peek: bool = False,
) -> Rules:
    """The rules of the table ``table`` of ``tables`` (the built-in presets
    unless a catalogue is given) with ``overrides`` applied (already validated), as
    :func:`check_rules` holds them: every operation that deals, settles,
    prices or describes a round at a table takes its rules from here, so
    that none plays rules another refuses. ``peek``: the rules are played as
    Peek Baccarat (POST /v1/rounds/peek), at any table, and so held to the
    money rule for its fee as Peek Baccarat's own table is.

    ``limits`` overrides are merged per bet type, so a request can change the
    tie maximum without restating the other limits (or offer one more bet).
    A multiplier rule (``multipliers``) keeps only the limits of the bets it
    pays, and a bet the preset offers that no round of the shoe can win (a
    Perfect Pair at one deck) is not offered.
    """
    rules = tables[table].rules
    if not overrides:
        if peek and not tables[table].peek:
            check_rules(tables[table], rules, {}, peek=True)  # a preset is checked as it plays
        return rules
    changes = dict(overrides)
    if "limits" in changes:
        merged = dict(rules.limits)
        merged.update({BetType(t): lim for t, lim in changes["limits"].items()})
        changes["limits"] = MappingProxyType(merged)
    if "pay_tables" in changes:
        changes.update(_pay_table_choices(rules, changes))
    multipliers = changes.get("multipliers", rules.multipliers)
    if multipliers is not None and ("multipliers" in changes or "limits" in changes):
        # A multiplier table offers only the bets its rule pays (a multiplier
        # preset's limits sent for another bet, as the rule sent with them).
        offered = changes.get("limits", rules.limits)
        changes["limits"] = MappingProxyType(
            {bet: limits for bet, limits in offered.items() if bet in multipliers.pays}
        )
    resolved = replace(rules, **changes)
    unwinnable = [
        bet for bet in resolved.bet_types if bet not in _asked_for(overrides) and not can_win(resolved, bet)
    ]
    if unwinnable:
        resolved = replace(
            resolved,
            limits=MappingProxyType(
                {bet: lim for bet, lim in resolved.limits.items() if bet not in unwinnable}
            ),
        )
    check_rules(tables[table], resolved, overrides, peek=peek)
    return resolved


def _asked_for(overrides: Mapping[str, Any]) -> set[BetType]:
    """The bets a request offers by name: given limits, or a pay table."""
    named = {*overrides.get("limits", {}), *overrides.get("pay_tables", {})}
    return {BetType(bet) for bet in named}


def check_rules(table: Table, rules: Rules, overrides: Mapping[str, Any], *, peek: bool = False) -> None:
    """The one check of a table's resolved rules (the table ``table`` with
    ``overrides``): a :class:`RulesError` for the first kind of problem they
    have, each problem at the pointer of the setting that makes it (the one
    sent, else the table). Rounds, settlements, live rounds, shoes, peek
    rounds, odds, rules sheets and certification all resolve their rules by
    :func:`resolve_rules`, which ends here, so each refuses the same rules
    with the same code at the same pointer.

    What it holds: limits in whole minor units; a multiplier rule that fits
    the table and is played at the standard pays; no commission but with the
    standard variant; a cut card the shoe can place; at Peek Baccarat's
    table, the Player and Banker pays its fee and returns are priced at;
    every offered bet can win in a shoe of the table's decks; and at each
    minimum a win paid at least a minor unit, at each minimum and maximum a
    fee (a multiplier rule's, the peek's) of whole minor units. The peek's
    fee is the game's, not the table's: it is checked wherever Peek
    Baccarat is played (at its table, or at another with ``peek``), so a
    peek round at a plain table refuses the rules, never one stake after
    another.
    """
    if table.peek:
        _refuse(
            N_("Peek Baccarat's table pays the Player and Banker bets as the standard table does"),
            _peek_pays_changed(overrides),
        )
    _refuse(
        N_("A table limit is not a whole number of the currency's minor unit"),
        _limits_in_minor_units(rules, overrides),
    )
    if rules.multipliers is not None:
        _refuse(
            N_("The multiplier rule does not fit the table"),
            cap_problems(rules.multipliers, rules.minor_unit),
        )
        _refuse(
            N_("The multiplier rule cannot be played at these pay tables"),
            _multiplied_at_standard_pays(rules, overrides),
        )
    _refuse(
        N_("The {variant} variant takes no commission, but the rules say {commission}"),
        _commission_with_variant(rules, overrides),
        variant=rules.variant,
        commission=rules.commission,
    )
    _refuse(
        N_("A cut card {cut_card} cards from the end cannot be placed in a {cards}-card shoe"),
        _cut_card(rules),
        cut_card=rules.cut_card,
        cards=rules.decks * len(DECK),
    )
    _refuse(N_("A bet the table offers can never win"), _unwinnable(rules, overrides))
    _refuse(
        N_("A table limit is a stake whose win or fee is not a whole minor unit"),
        _minimums_paid(rules, overrides, peek=table.peek or peek),
    )


def check_whole_shoe(rules: Rules, where: Path) -> None:
    """A table that reshuffles the cards after each hand deals each round
    from a fresh shuffle, without burn or cut card: a whole shoe, or round n
    of one, is refused (a :class:`ShoeError` at ``where``, the input that
    asks for it), as its rules sheet says."""
    if rules.dealing is Dealing.RESHUFFLE_EACH_HAND:
        raise ShoeError(
            N_("This table reshuffles the cards after each hand: it deals no whole shoe"),
            [Problem.of(where, ProblemCode.DEALT_EACH_HAND)],
        )


#: The settings that change what a stake is paid, in the order a problem names the one sent.
_PAID_BY = (
    "minor_unit",
    "payout_rounding",
    "commission",
    "variant",
    "tie_pays",
    "super_6_pays",
    "pay_tables",
)


def _fee_rate(rules: Rules, bet: BetType, *, peek: bool) -> Decimal | None:
    """The fee a bet pays on top of its stake, as a rate: its multiplier
    rule's, or where Peek Baccarat is played the peek's; None without one."""
    if rules.multipliers is not None and bet in rules.multipliers.pays:
        return rules.multipliers.fee.rate_on(bet)
    if peek and bet in PEEK_FEE_BETS:
        return PEEK_FEE_RATE
    return None


def _minimums_paid(rules: Rules, overrides: Mapping[str, Any], *, peek: bool = False) -> list[Problem]:
    """The money rule at a table's limits (docs/bets.md, "Money"): a bet's
    minimum stake, won on any line, is paid at least one minor unit (a win
    paid nothing would be a commission of 100%), and where it pays a fee (a
    multiplier table's, or Peek Baccarat's wherever it is played: ``peek``) the fee
    on its minimum and on its maximum is a whole number of minor units (such
    a stake is refused, so the sheet's "from" or "to" would not hold). Each
    problem at the bet's limit when sent, else at the setting sent that
    makes it, else at the table."""
    unit = Decimal(1).scaleb(-rules.minor_unit)
    sent_limits = {BetType(bet) for bet in overrides.get("limits", {})}
    cause = next((("rules", name) for name in _PAID_BY if name in overrides), ("table",))
    problems = []
    for bet in rules.bet_types:
        stake = rules.limits[bet].min
        where = ("rules", "limits", str(bet), "min") if bet in sent_limits else cause
        rule = rules.multipliers
        rate = _fee_rate(rules, bet, peek=peek)
        if rate is not None:
            fees = [
                Problem.of(
                    ("rules", "limits", str(bet), end) if bet in sent_limits else cause,
                    ProblemCode.FEE_FINER_THAN_MINOR_UNIT,
                    amount=format_amount(amount, rules.minor_unit),
                    fee=(amount * rate).normalize(),
                    places=rules.minor_unit,
                    step=format_amount(unit * Fraction(rate).denominator, rules.minor_unit),
                )
                for end, amount in (("min", stake), ("max", rules.limits[bet].max))
                if amount * rate != (amount * rate).quantize(unit)
            ]
            if fees:
                problems += fees
                continue
        if rule is not None and bet in rule.pays:
            nets = [rule.pays[bet].pays - rule.pays[bet].stake_kept]
        else:
            nets = [line.payout.net for line in rules.chosen[bet].lines if line.payout.result is Result.WIN]
        for net in nets:
            if net > 0 and to_minor_unit(stake * net, rules.minor_unit, rules.payout_rounding) <= 0:
                least = (unit / net / unit).to_integral_value(rounding="ROUND_CEILING") * unit
                problems.append(
                    Problem.of(
                        where,
                        ProblemCode.MINIMUM_WIN_PAID_NOTHING,
                        bet=bet,
                        amount=format_amount(stake, rules.minor_unit),
                        pays=f"{format(net.normalize(), 'f')}:1",
                        minor_unit=rules.minor_unit,
                        minimum=format_amount(least, rules.minor_unit),
                    )
                )
                break
    return problems


def _refuse(detail: str, problems: Sequence[Problem], **values: Any) -> None:
    if problems:
        raise RulesError(detail, problems, **values)


def _commission_with_variant(rules: Rules, overrides: Mapping[str, Any]) -> list[Problem]:
    if rules.variant is Variant.STANDARD or not rules.commission:
        return []
    where: tuple[str, ...] = ("commission",) if "commission" in overrides else ("variant",)
    if "banker" in overrides.get("pay_tables", {}) and "commission" not in overrides:
        where = ("pay_tables", "banker")
    return [
        Problem.of(
            ("rules", *where),
            ProblemCode.COMMISSION_WITH_VARIANT,
            commission=rules.commission,
            variant=rules.variant,
        )
    ]


def _cut_card(rules: Rules) -> list[Problem]:
    """A cut card the table's shoe can place: every operation refuses the
    same rules, whether or not it deals a whole shoe."""
    problem = cut_card_problem(rules.decks * len(DECK), rules.cut_card)
    return [] if problem is None else [problem]


#: The settings that change Peek Baccarat's Player and Banker pays, which its
#: fee and its returns are priced at (:mod:`.peek`): fixed at its table.
PEEK_FIXED = ("variant", "commission", "multipliers")
#: The bets Peek Baccarat takes its fee on, whose pay tables are fixed at its table.
PEEK_FEE_BETS = (BetType.PLAYER, BetType.BANKER)
#: Peek Baccarat's fee on those bets, a rate of the stake paid on top of it:
#: the game's (:class:`.peek.round.PeekRule` takes it from here), which
#: its table's minimums are held to (:func:`_minimums_paid`), since the
#: tables room sits below the game's.
PEEK_FEE_RATE = Decimal("0.20")


def _peek_pays_changed(overrides: Mapping[str, Any]) -> list[Problem]:
    """At Peek Baccarat's table, each override of the Player and Banker pays."""
    sent: list[tuple[str, ...]] = [("rules", name) for name in PEEK_FIXED if name in overrides]
    tables = overrides.get("pay_tables", {})
    sent += [
        ("rules", "pay_tables", str(bet)) for bet in PEEK_FEE_BETS if bet in tables or str(bet) in tables
    ]
    return [Problem.of(where, ProblemCode.PEEK_PAYS_FIXED, setting=".".join(where[1:])) for where in sent]


def _unwinnable(rules: Rules, overrides: Mapping[str, Any]) -> list[Problem]:
    """Each bet the request offers by name that no round of the table's shoe can win."""
    asked = _asked_for(overrides)
    problems = []
    for bet in rules.bet_types:
        if bet in asked and not can_win(rules, bet):
            where = (
                "limits"
                if bet in overrides.get("limits", {}) or str(bet) in overrides.get("limits", {})
                else "pay_tables"
            )
            problems.append(
                Problem.of(("rules", where, str(bet)), ProblemCode.BET_CANNOT_WIN, bet=bet, decks=rules.decks)
            )
    return problems


def can_win(rules: Rules, bet: BetType) -> bool:
    """Whether some round of a full shoe of the rules' decks wins ``bet`` as
    they pay it (a Perfect Pair needs two cards of one rank and suit: never
    at one deck)."""
    return _wins_somewhere(rules.chosen[bet].id, rules.decks)


# Keyed by a pay table of the catalogue and a deck count: nothing a caller writes.
@lru_cache(maxsize=len(CATALOGUE) * MAX_DECKS)
def _wins_somewhere(table_id: str, decks: int) -> bool:
    table = CATALOGUE[table_id]
    return any(table.payout(coup).result is Result.WIN for coup in _possible_rounds(decks))


@cache
def _possible_rounds(decks: int) -> tuple[Coup, ...]:
    """A round of each signature a full shoe of ``decks`` decks can deal."""
    counts = count_rounds(full_shoe(decks)).by_signature
    return tuple(coup for signature, coup in structure().examples.items() if counts[signature.index] > 0)


#: The settings by which a request pays a bet otherwise than the standard table does.
_PAY_SETTINGS = ("variant", "commission", "tie_pays", "super_6_pays", "pay_tables")


def _multiplied_at_standard_pays(rules: Rules, overrides: Mapping[str, Any]) -> list[Problem]:
    """A multiplier rule pays its bets by its own base pays (its banker's
    stake kept is its commission), so it is played only at rules that pay
    those bets as the standard table does: echoing an EZ table, a 9:1 tie or
    a 10% commission while the rule settles would say one game and play
    another. Refused where the other pays come from: the settings sent, or
    the preset."""
    if rules.multipliers is None:
        return []
    other = {bet: rules.chosen[bet] for bet in rules.multipliers.pays if rules.chosen[bet] != standard(bet)}
    if not other:
        return []
    sent = [name for name in _PAY_SETTINGS if name in overrides]
    return [
        Problem.of(
            ("rules", sent[0]) if sent else ("table",),
            ProblemCode.MULTIPLIERS_WITH_OTHER_PAYS,
            multiplied=tuple(str(bet) for bet in other),
            pay_tables=tuple(paid.id for paid in other.values()),
        )
    ]


def _pay_table_choices(rules: Rules, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The settings that the pay tables a request chooses by id stand for:
    the shorthand setting of a banker, tie or Super 6 choice, and the other
    choices merged per bet into the table's ``pay_tables``. A choice that is
    not one of its bet's, or that contradicts a shorthand the request also
    sets, is a :class:`RulesError`."""
    settings: dict[str, Any] = {}
    by_id = dict(rules.pay_tables)
    problems = []
    for name, table_id in changes["pay_tables"].items():
        bet = BetType(name)
        wrong = _not_of_bet(bet, table_id)
        if wrong:
            problems.append(wrong)
            continue
        if bet not in SHORTHANDS:
            by_id[bet] = table_id
            continue
        # Every pay table of a bet with a shorthand is chosen by it (tests/baccarat/bets/test_catalogue.py).
        setting, value = cast(tuple[str, int | str], CATALOGUE[table_id].setting)
        chosen = Variant(str(value)) if setting == "variant" else value
        if setting in changes and changes[setting] != chosen:
            problems.append(
                Problem.of(
                    ("rules", "pay_tables", name),
                    ProblemCode.PAY_TABLE_CONTRADICTS_SETTING,
                    table=table_id,
                    setting=setting,
                    value=value,
                    asked=changes[setting],
                )
            )
        settings[setting] = chosen
    if problems:
        raise RulesError(N_("A pay table the rules choose is not one of the bet's"), problems)
    return {**settings, "pay_tables": MappingProxyType(by_id)}
