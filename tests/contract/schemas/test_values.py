"""The contract's value sets, and the bet types' description: written from
the catalogue, it names every pay table of every bet with its pays, and any
pay it writes is one a pay table pays (so nothing there restates a pay by
hand)."""

from __future__ import annotations

import re

import pytest

from service.baccarat.bets.catalogue import CATALOGUE, pay_tables_of
from service.baccarat.bets.paytable import pays_text
from service.baccarat.bets.types import BetType
from service.contract.schemas.values import BET_TYPE_DESCRIPTION, VALUE_SETS
from tests.pays import line_pays, written_pays


def described(bet: BetType) -> str:
    """The bullet of the description that is about ``bet``."""
    for bullet in BET_TYPE_DESCRIPTION.split("\n- ")[1:]:
        if bullet.startswith(f"`{bet}`:"):
            return bullet
    raise AssertionError(f"the BetType description has no bullet about {bet}")


@pytest.mark.parametrize("bet", list(BetType), ids=str)
def test_the_description_names_each_pay_table_with_its_pays_and_writes_no_other_pay(bet: BetType) -> None:
    text = described(bet)
    for table in pay_tables_of(bet):
        assert f"`{table.id}` ({pays_text(table)})" in text
    paid = {pay for table in pay_tables_of(bet) for line in table.lines for pay in line_pays(line)}
    assert written_pays(text) <= paid, text


def test_every_pay_table_s_description_writes_only_pays_of_its_lines():
    for table in CATALOGUE.values():
        paid = {pay for line in table.lines for pay in line_pays(line)}
        assert written_pays(table.description) <= paid, table.id


def test_the_pay_table_value_set_is_the_catalogue():
    assert VALUE_SETS["PayTableId"].values == tuple(CATALOGUE)
    assert all(re.fullmatch(r"[a-z0-9_]+", table_id) for table_id in CATALOGUE)


def test_every_value_set_is_a_named_component_with_its_values():
    for name, value_set in VALUE_SETS.items():
        assert name[0].isupper()
        assert value_set.values, name
