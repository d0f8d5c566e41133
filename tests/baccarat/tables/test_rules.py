"""Rules and table presets as data: the presets, overrides merged into them,
the bets a table offers, and the id that tells rules apart.

What each variant pays, the side bets each preset offers and the refusal
of a commission with a variant that takes none are tested in
test_variants.py; limits applied to a slip in test_settlement.py.
"""

from dataclasses import FrozenInstanceError, replace
from decimal import Decimal
from types import MappingProxyType

import pytest

from service.baccarat.bets.money import Rounding
from service.baccarat.bets.types import BetType, Variant
from service.baccarat.multipliers.presets import PRESETS as MULTIPLIER_PRESETS
from service.baccarat.rulebook.errors import ProblemCode, RulesError
from service.baccarat.shoes.deal import DEFAULT_CUT_CARD
from service.baccarat.tables.rules import (
    DEFAULT_TABLE,
    SUPER_6_PAYS,
    TABLES,
    TIE_PAYS,
    BetLimits,
    Rules,
    resolve_rules,
)
from tests.pays import line_pays, multiplied, written_pays

STANDARD = TABLES["standard"].rules
MAIN_BETS = (BetType.PLAYER, BetType.BANKER, BetType.TIE)


def limits(low: str, high: str) -> BetLimits:
    return BetLimits(min=Decimal(low), max=Decimal(high))


def test_the_presets_are_named_by_their_keys_and_standard_is_the_default():
    assert list(TABLES) == [
        "standard",
        "tie_9",
        "no_commission",
        "ez",
        "tiger",
        "peek",
        "lightning",
        "golden_wealth",
        "prosperity_tree",
    ]
    assert all(table.name == name for name, table in TABLES.items())
    assert DEFAULT_TABLE == "standard"
    assert resolve_rules() is STANDARD


def test_the_default_rules_are_punto_banco_from_eight_decks():
    rules = Rules()
    assert (rules.variant, rules.decks, rules.commission) == (Variant.STANDARD, 8, Decimal("0.05"))
    assert (rules.tie_pays, rules.super_6_pays, rules.payout_rounding) == (8, 12, Rounding.DOWN)
    assert (rules.minor_unit, rules.cut_card) == (2, DEFAULT_CUT_CARD)
    assert rules.bet_types == ()  # a table offers the bets it has limits for


@pytest.mark.parametrize("name", list(TABLES))
def test_each_preset_pays_what_its_description_says(name):
    table = TABLES[name]
    if table.rules.multipliers is not None:
        rule = table.rules.multipliers
        assert all(multiplied(pay, rule) for pay in written_pays(table.description)), table.description
        return
    assert f"tie pays {table.rules.tie_pays}:1" in table.description
    assert table.rules.tie_pays in TIE_PAYS
    assert table.rules.super_6_pays in SUPER_6_PAYS
    if BetType.SUPER_6 in table.rules.bet_types:
        assert f"super 6 ({table.rules.super_6_pays}:1)" in table.description
    offered = {
        pay
        for bet in table.rules.bet_types
        for line in table.rules.chosen[bet].lines
        for pay in line_pays(line)
    }
    assert written_pays(table.description) <= offered, table.description


@pytest.mark.parametrize("name", list(TABLES))
def test_each_presets_limits_are_positive_and_in_order(name):
    rules = TABLES[name].rules
    assert set(MAIN_BETS) <= set(rules.bet_types)
    for bet_limits in rules.limits.values():
        assert 0 < bet_limits.min <= bet_limits.max


def test_the_tie_9_table_takes_every_bet_from_5_to_100():
    assert dict(TABLES["tie_9"].rules.limits) == dict.fromkeys(MAIN_BETS, limits("5.00", "100.00"))


def test_the_bets_offered_are_listed_in_bet_type_order_whatever_the_limits_order():
    rules = Rules(limits={BetType.SMALL: limits("1", "5"), BetType.TIE: limits("1", "5")})
    assert rules.bet_types == (BetType.TIE, BetType.SMALL)


def test_limits_overrides_are_merged_per_bet_type():
    rules = resolve_rules(
        "standard", {"limits": {"tie": limits("1.00", "50.00"), "super_6": limits("1", "20")}}
    )
    assert rules.limits[BetType.TIE] == limits("1.00", "50.00")
    assert rules.bet_types == (*STANDARD.bet_types, BetType.SUPER_6)
    assert all(
        rules.limits[bet] == STANDARD.limits[bet] for bet in STANDARD.bet_types if bet is not BetType.TIE
    )
    assert STANDARD.limits[BetType.TIE] == limits("1.00", "20.00")  # the preset is untouched
    with pytest.raises(TypeError):
        rules.limits[BetType.TIE] = limits("1", "2")  # type: ignore[index]


def test_overrides_change_only_what_they_name():
    rules = resolve_rules("ez", {"decks": 6, "tie_pays": 9})
    assert rules == replace(TABLES["ez"].rules, decks=6, tie_pays=9)


@pytest.mark.parametrize("name", list(TABLES))
def test_an_id_is_sixteen_hex_digits_and_equal_rules_share_it(name):
    rules = TABLES[name].rules
    rebuilt = replace(rules, limits=MappingProxyType(dict(reversed(list(rules.limits.items())))))
    assert len(rules.id) == 16
    assert int(rules.id, 16) >= 0
    assert rebuilt.id == rules.id  # the limits' order is not part of the rules


@pytest.mark.parametrize(
    "overrides",
    [
        {"decks": 6},
        {"commission": Decimal("0.04")},
        {"tie_pays": 9},
        {"super_6_pays": 15},
        {"payout_rounding": Rounding.HALF_UP},
        {"minor_unit": 3},
        {"cut_card": 20},
        {"limits": {"tie": limits("1.00", "25.00")}},
        {"limits": {"dragon_7": limits("1.00", "5.00")}},
    ],
)
def test_every_setting_is_part_of_the_id(overrides):
    assert resolve_rules("standard", overrides).id != STANDARD.id


def test_rules_cannot_be_changed():
    with pytest.raises(FrozenInstanceError):
        STANDARD.decks = 6  # type: ignore[misc]


def test_equal_rates_make_equal_rules_whatever_their_digits():
    """The rules id is of the rules' values: a commission of 0.050 is the
    preset's 0.05, and its id is the preset's."""
    written_long = resolve_rules("standard", {"commission": Decimal("0.050")})
    assert written_long.id == resolve_rules("standard").id
    assert written_long.canonical["commission"] == "0.05"


@pytest.mark.parametrize(
    ("overrides", "path"),
    [
        (
            {"minor_unit": 0, "limits": {BetType.BANKER: BetLimits(min=Decimal("2.50"), max=Decimal("100"))}},
            ("rules", "limits", "banker", "min"),
        ),
        (
            {"limits": {BetType.TIE: BetLimits(min=Decimal("1"), max=Decimal("20.005"))}},
            ("rules", "limits", "tie", "max"),
        ),
        (
            {"minor_unit": 0, "limits": {BetType.PLAYER: BetLimits(min=Decimal("1.5"), max=Decimal("10"))}},
            ("rules", "limits", "player", "min"),
        ),
    ],
)
def test_a_limit_finer_than_the_currency_is_refused_at_it(overrides, path):
    with pytest.raises(RulesError) as refused:
        resolve_rules("standard", overrides)
    assert [problem.path for problem in refused.value.problems] == [path]


#: The standard table in a currency without decimals: minimums at which every
#: win pays at least one unit (a Banker win of 2 pays 1; Big pays 0.54:1).
WHOLE_UNITS = {
    "minor_unit": 0,
    "limits": {bet: limits("2", "200") for bet in ("banker", "big")},
}


def test_whole_limits_stay_valid_when_the_currency_has_fewer_decimals():
    rules = resolve_rules("standard", WHOLE_UNITS)
    assert rules.canonical["limits"]["banker"] == {"min": "2", "max": "200"}
    assert rules.canonical["limits"]["player"] == {"min": "1", "max": "200"}


@pytest.mark.parametrize(
    ("overrides", "paths"),
    [
        # A Banker win of 1 at 0.95:1 and a Big win of 1 at 0.54:1 are paid 0: refused where the unit is set.
        ({"minor_unit": 0}, [("rules", "minor_unit")] * 2),
        (
            {
                "minor_unit": 0,
                "limits": {BetType.BANKER: limits("1", "200"), BetType.BIG: limits("2", "200")},
            },
            [("rules", "limits", "banker", "min")],
        ),
        # A 20% fee on 1 is 0.2: at a multiplier table in whole units a minimum must be a multiple of 5.
        (
            {"minor_unit": 0, "multipliers": MULTIPLIER_PRESETS["lightning"].rule},
            [("rules", "minor_unit")] * 5,
        ),
    ],
)
def test_a_minimum_whose_win_or_fee_is_not_a_whole_unit_is_refused(overrides, paths):
    with pytest.raises(RulesError) as refused:
        resolve_rules("standard", overrides)
    assert [problem.path for problem in refused.value.problems] == paths
    assert {problem.code for problem in refused.value.problems} <= {
        ProblemCode.MINIMUM_WIN_PAID_NOTHING,
        ProblemCode.FEE_FINER_THAN_MINOR_UNIT,
    }


def test_a_minimum_paid_one_unit_is_taken_and_settled_so():
    rules = resolve_rules("standard", WHOLE_UNITS)
    banker = rules.chosen[BetType.BANKER].lines[0].payout
    assert banker.net * rules.limits[BetType.BANKER].min >= 1


@pytest.mark.parametrize(
    ("table", "overrides", "pointer", "pay_tables"),
    [
        ("ez", {}, ("table",), ["banker_ez"]),
        ("no_commission", {}, ("table",), ["banker_no_commission"]),
        ("tie_9", {}, ("table",), ["tie_9_to_1"]),
        ("standard", {"variant": Variant.EZ, "commission": Decimal(0)}, ("rules", "variant"), ["banker_ez"]),
        ("standard", {"commission": Decimal("0.1")}, ("rules", "commission"), ["banker_commission"]),
        ("standard", {"tie_pays": 9}, ("rules", "tie_pays"), ["tie_9_to_1"]),
    ],
)
def test_a_multiplier_rule_is_played_only_at_the_standard_pays_of_its_bets(
    table, overrides, pointer, pay_tables
):
    """A rule pays its bets by its own base pays: echoing other pays while
    the rule settles would say one game and play another, so it is refused."""
    from service.baccarat.multipliers.presets import PRESETS

    with pytest.raises(RulesError) as refused:
        resolve_rules(table, {**overrides, "multipliers": PRESETS["lightning"].rule})
    (problem,) = refused.value.problems
    assert (problem.path, str(problem.code)) == (pointer, "multipliers_with_other_pays")
    assert list(problem.values["pay_tables"]) == pay_tables


def test_a_multiplier_rule_plays_at_any_table_whose_pays_for_its_bets_are_standard():
    from service.baccarat.multipliers.presets import PRESETS

    rule = PRESETS["lightning"].rule
    for name in TABLES:
        chosen = TABLES[name].rules.chosen
        if TABLES[name].peek:
            # Peek's fee and returns are priced at its Player and Banker pays: another game's are refused.
            with pytest.raises(RulesError):
                resolve_rules(name, {"multipliers": rule})
        elif all(chosen[bet].lines == resolve_rules().chosen[bet].lines for bet in rule.pays):
            assert resolve_rules(name, {"multipliers": rule}).multipliers == rule


@pytest.mark.parametrize("name", list(MULTIPLIER_PRESETS))
def test_a_multiplier_game_is_a_table_of_its_name_with_the_rules_of_the_game_at_the_standard_table(name):
    """``"table": "lightning"`` is ``{"multipliers": "lightning"}`` at the
    standard table: the same rules, the same id, the game's own description."""
    game = MULTIPLIER_PRESETS[name]
    table = TABLES[name]
    explicit = resolve_rules(DEFAULT_TABLE, {"multipliers": game.rule})
    assert table.rules == explicit
    assert table.rules.id == explicit.id
    assert table.description == game.description
    assert table.rules.bet_types == game.rule.bet_types


@pytest.mark.parametrize("name", list(MULTIPLIER_PRESETS))
def test_overrides_at_a_multiplier_table_are_those_sent_with_the_rule(name):
    """Limits sent at a multiplier table, for a bet the rule pays or not,
    resolve as they do sent with the rule at the standard table."""
    sent = {"limits": {BetType.TIE: limits("1.00", "50.00"), BetType.BIG: limits("1.00", "5.00")}}
    at_table = resolve_rules(name, sent)
    explicit = resolve_rules(DEFAULT_TABLE, {**sent, "multipliers": MULTIPLIER_PRESETS[name].rule})
    assert at_table == explicit
    assert at_table.id == explicit.id
    assert BetType.BIG not in at_table.limits
    assert at_table.limits[BetType.TIE] == limits("1.00", "50.00")
