"""The plain answer writers write exactly what the response schemas dump,
key order included: the schemas are the contract, the writers its fast copy."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.payouts import table_presets
from service.baccarat.play import play_and_settle, play_and_settle_slips
from service.baccarat.tableau import tableau
from service.baccarat.tables import TABLES, resolve_rules
from service.contract.answers import Answers
from service.contract.schemas.reference import TableauSchema, TablesResponseSchema
from service.contract.schemas.rounds import RoundResponseSchema, SettlementResponseSchema
from tests import strategies

ANSWERS = Answers()
STANDARD = resolve_rules("standard")
#: Rules that are no preset: their answers are dumped on the request.
OVERRIDDEN = resolve_rules("standard", {"tie_pays": 9, "minor_unit": 3})


def same(written, dumped):
    """Equal, and in the same order (as the JSON a caller reads)."""
    assert json.dumps(written) == json.dumps(dumped)


@settings(max_examples=150)
@given(
    strategies.shoe_sequence(),
    strategies.bets,
    st.sampled_from(["cards", "seed", "round"]),
    st.sampled_from([STANDARD, OVERRIDDEN]),
)
def test_round_answer_is_the_schema_dump(sequence, bets, source, rules):
    if source == "cards":
        played = play_and_settle(rules, bets, cards=sequence)
    else:
        played = play_and_settle(rules, bets, seed="s", round_number=3 if source == "round" else None)
    same(ANSWERS.round(played), RoundResponseSchema().dump(played))


@settings(max_examples=50)
@given(strategies.shoe_sequence(), st.lists(strategies.bets.filter(bool), min_size=1, max_size=4))
def test_settlement_answer_is_the_schema_dump(sequence, slips):
    played = play_and_settle_slips(
        STANDARD, [(f"s{i}", bets) for i, bets in enumerate(slips)], cards=sequence
    )
    same(ANSWERS.settlement(played), SettlementResponseSchema().dump(played))


def test_preset_rules_are_dumped_once_and_shared():
    for table in TABLES.values():
        assert ANSWERS.rules(table.rules) is ANSWERS.rules(table.rules)
    assert ANSWERS.rules(OVERRIDDEN)["tie_pays"] == 9


def test_reference_answers_are_the_schema_dumps():
    same(ANSWERS.tables, TablesResponseSchema().dump(table_presets()))
    same(ANSWERS.tableau, TableauSchema().dump(tableau()))
