"""The contract's value sets, and the bet types' description held to the
engine's pay tables: every pay the description writes is one a table may
pay, and every pay a table may pay is written, so a pay changed in the
engine and not in the contract's prose (or the other way) fails here."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

import pytest

from service.baccarat.payouts import pay_table
from service.baccarat.paytable import Result
from service.baccarat.tables import SUPER_6_PAYS, TABLES, TIE_PAYS, BetType, Variant
from service.contract.schemas.values import BET_TYPE_DESCRIPTION, VALUE_SETS

#: Every set of rules a table may play under, as far as what a bet pays goes:
#: each preset, under each pay a request may choose.
RULES = [
    replace(table.rules, variant=variant, tie_pays=tie, super_6_pays=super_6, commission=commission)
    for table in TABLES.values()
    for variant, commission in (
        (Variant.STANDARD, table.rules.commission or Decimal("0.05")),
        (Variant.NO_COMMISSION, Decimal(0)),
        (Variant.EZ, Decimal(0)),
    )
    for tie in TIE_PAYS
    for super_6 in SUPER_6_PAYS
]


def pays(bet: BetType) -> set[Decimal]:
    """Every profit per unit a win of ``bet`` may pay, commission taken."""
    return {
        (line.payout.odds * (1 - line.payout.commission)).normalize()
        for rules in RULES
        for line in pay_table(bet, rules).lines
        if line.payout.result is Result.WIN
    }


def described(bet: BetType) -> str:
    """The part of the description that is about ``bet`` (its bullet, or its
    part of a bullet shared with another bet)."""
    for bullet in BET_TYPE_DESCRIPTION.split("\n- ")[1:]:
        for part in re.split(r"; (?=`)", bullet):
            if re.match(r"(`\w+`, )*`" + bet + "`", part):
                return part
    raise AssertionError(f"the BetType description has no part about {bet}")


def written(text: str) -> set[Decimal]:
    """Every pay ``text`` writes: ``a:b`` ratios, and the choices in
    parentheses after a pay a setting names (`tie_pays`:1 (8 or 9))."""
    ratios = {(Decimal(a) / Decimal(b)).normalize() for a, b in re.findall(r"(\d+(?:\.\d+)?):(\d+)", text)}
    for choices in re.findall(r"`\w+_pays`:1 \(([^)]*)\)", text):
        ratios |= {Decimal(n).normalize() for n in re.findall(r"\d+", choices)}
    return ratios


@pytest.mark.parametrize("bet", list(BetType), ids=str)
def test_the_description_writes_every_pay_a_table_may_pay_and_no_other(bet: BetType) -> None:
    assert written(described(bet)) == pays(bet), described(bet)


def test_every_value_set_is_a_named_component_with_its_values():
    for name, value_set in VALUE_SETS.items():
        assert name[0].isupper()
        assert value_set.values, name
