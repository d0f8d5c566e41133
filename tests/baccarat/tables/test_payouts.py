"""Pay tables as data: one per bet type, lines that never overlap, every line
met by a crafted round, and payout rules that are pure functions."""

import re
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.bets.types import BetType, Variant
from service.baccarat.rulebook.coup import deal
from service.baccarat.tables.payouts import (
    PAYOUT_RULES,
    Result,
    description_values,
    offers,
    pay_table,
    payout,
)
from service.baccarat.tables.rules import SUPER_6_PAYS, TABLES, TIE_PAYS, Rules
from service.baccarat.tables.settlement import settle_slip
from tests import strategies
from tests.baccarat.bets import test_side_bets
from tests.baccarat.tables import test_rules_variants as test_variants
from tests.conftest import cards

RULES = [
    replace(rules, tie_pays=tie, super_6_pays=super_6)
    for rules in (
        Rules(),
        Rules(variant=Variant.NO_COMMISSION, commission=Decimal(0)),
        Rules(variant=Variant.EZ, commission=Decimal(0)),
    )
    for tie in TIE_PAYS
    for super_6 in SUPER_6_PAYS
]
CRAFTED = {sequence for _, sequence, *_ in test_side_bets.CASES} | {
    value for name, value in vars(test_variants).items() if name.isupper() and isinstance(value, str)
}


def test_every_bet_type_has_a_pay_table_and_a_payout_rule():
    assert set(PAYOUT_RULES) == set(BetType)
    for rules in RULES:
        for bet in BetType:
            table = pay_table(bet, rules)
            assert table.description
            assert table.lines
            assert all(line.payout.result is not Result.LOSE for line in table.lines)


@pytest.mark.parametrize(
    ("bet", "rules", "odds"),
    [
        (BetType.TIE, Rules(tie_pays=9), {"9"}),
        (BetType.SUPER_6, Rules(super_6_pays=15), {"15"}),
        (BetType.BANKER, Rules(commission=Decimal("0.04")), {"1", "0"}),
        (BetType.BANKER, Rules(variant=Variant.NO_COMMISSION, commission=Decimal(0)), {"0.5", "1", "0"}),
        (BetType.DRAGON_BONUS_BANKER, Rules(), {"1", "0", "30", "10", "6", "4", "2"}),
        (BetType.BIG, Rules(), {"0.54"}),
    ],
)
def test_pay_tables_read_the_rules(bet, rules, odds):
    assert {str(line.payout.odds) for line in pay_table(bet, rules).lines} == odds


@pytest.mark.parametrize("name", list(TABLES))
def test_every_line_of_every_offered_bet_is_met_by_a_crafted_round(name):
    rules = TABLES[name].rules
    rounds = [deal(cards(sequence)) for sequence in sorted(CRAFTED)]
    for offer in offers(rules):
        for line in offer.pay_table.lines:
            assert any(line.applies(coup) for coup in rounds), (offer.type, line.when)


@given(strategies.shoe_sequence())
def test_lines_never_overlap_so_their_order_does_not_matter(sequence):
    coup = deal(sequence)
    for rules in RULES:
        for bet in BetType:
            applying = [line for line in pay_table(bet, rules).lines if line.applies(coup)]
            assert len(applying) <= 1, (bet, [line.when for line in applying])


@given(strategies.shoe_sequence())
def test_payout_rules_are_pure_functions_of_the_round_and_rules(sequence):
    first, second = deal(sequence), deal(list(sequence))
    for rules in RULES:
        for bet, rule in PAYOUT_RULES.items():
            assert rule(first, rules) == rule(second, rules) == payout(bet, first, rules)


@pytest.mark.parametrize("name", list(TABLES))
def test_offers_list_the_bets_a_table_takes_with_their_limits(name):
    rules = TABLES[name].rules
    listed = offers(rules)
    assert (
        [offer.type for offer in listed] == list(rules.bet_types) == [b for b in BetType if b in rules.limits]
    )
    for offer in listed:
        assert (offer.min, offer.max) == tuple(
            f"{amount:.2f}" for amount in (rules.limits[offer.type].min, rules.limits[offer.type].max)
        )


@given(strategies.shoe_sequence(), st.sampled_from(list(TABLES)), st.data())
def test_any_slip_at_any_table_settles_exactly_and_never_loses_more_than_its_stake(sequence, name, data):
    rules = TABLES[name].rules
    slip = settle_slip(data.draw(strategies.table_slip(rules)), deal(sequence), rules)
    for settled in slip.bets:
        assert settled.returned >= 0
        assert (
            settled.returned
            == {
                Result.WIN: settled.amount + settled.win,
                Result.PUSH: settled.amount,
                Result.LOSE: 0,
            }[settled.result]
        )
        if settled.commission:
            assert (settled.bet.type, rules.variant) == (BetType.BANKER, Variant.STANDARD)
        for value in (settled.win, settled.commission, settled.returned):
            assert value.as_tuple().exponent == -rules.minor_unit
    assert slip.net == slip.returned - slip.staked


@pytest.mark.parametrize("name", list(TABLES))
def test_a_preset_s_description_values_are_the_figures_its_description_writes(name):
    """The figures beside a preset's description (its code is its name)
    are those its English sentence states, so a table that writes its own
    words from them says what the service says."""
    table = TABLES[name]
    values = description_values(table)
    text = table.description
    assert f"{values['decks']} decks" in text or "decks" not in text
    assert f"tie pays {values['tie_pays']}:1" in text or f"tie {values['tie_pays']}:1" in text
    if values["banker_pays"] == "0.95":
        assert "0.95:1" in text or "95% of a winning Banker stake returned" in text
    else:
        assert "banker pays 1:1" in text
    if f"{values['min']}-{values['max']}" not in text:  # no limits written: the standard ones
        assert (values["min"], values["max"], values["tie_max"]) == ("1.00", "200.00", "20.00")
    for bet in values["side_bets"]:
        # pairs of a hand or either as "pairs"; dragon bonus on either hand as "dragon bonus"
        words = re.sub(r"^(player|banker|either) | (player|banker)$", "", bet.replace("_", " "))
        assert words in text.lower(), bet
    if "fee" in values:
        assert f"a {Decimal(values['fee']) * 100:.0f}% fee on every bet" in text
        assert all(f"x{multiplier}" in text for multiplier in values["multipliers"])
    if "cap" in values:
        assert f"at most {int(values['cap']):,} won a round" in text
