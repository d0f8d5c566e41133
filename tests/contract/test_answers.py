"""The plain answer writers write exactly what marshmallow dumps from the
response schemas' fields, key order included: each schema's own ``dump`` is
its writer (``PlainDump``), so what ``@blp.response`` sends is held to the
contract here."""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.bets.types import Bet
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.rule import MULTIPLIED_BETS
from service.baccarat.play.round import RoundSoFar, play_and_settle, play_and_settle_slips, play_live
from service.baccarat.rulebook.coup import deal
from service.baccarat.shoes.shuffle import SeedInputs
from service.baccarat.tables.rules import TABLES, resolve_rules
from service.contract import answers
from service.contract.schemas.live import LiveRoundAnswerSchema
from service.contract.schemas.rounds import RoundResponseSchema
from service.contract.schemas.rules import RulesSchema
from service.contract.schemas.settlements import SettlementResponseSchema
from tests import strategies
from tests.conftest import cards

STANDARD = resolve_rules("standard")
#: Rules that are no preset, as a request's overrides make them.
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
    schema = RoundResponseSchema()
    same(schema.dump(played), schema.marshmallow_dump(played))


@settings(max_examples=50)
@given(
    st.sampled_from(sorted(PRESETS)),
    st.text(min_size=1, max_size=8),
    st.sampled_from([None, 2]),
    st.lists(st.tuples(st.sampled_from(MULTIPLIED_BETS), st.integers(20, 100)), max_size=4),
)
def test_a_multiplier_round_s_answer_is_the_schema_dump(preset, server_seed, round_number, stakes):
    rules = resolve_rules("standard", {"multipliers": PRESETS[preset].rule})
    # Stakes of 1.00 to 5.00 in steps of 0.05: a 20% fee on each is whole cents.
    bets = [Bet(type=bet, amount=Decimal(twentieths) * Decimal("0.05")) for bet, twentieths in stakes]
    played = play_and_settle(rules, bets, seed=SeedInputs(server_seed), round_number=round_number)
    schema = RoundResponseSchema()
    same(schema.dump(played), schema.marshmallow_dump(played))


@settings(max_examples=50)
@given(strategies.shoe_sequence(), st.lists(strategies.bets.filter(bool), min_size=1, max_size=4))
def test_settlement_answer_is_the_schema_dump(sequence, slips):
    played = play_and_settle_slips(
        STANDARD, [(f"s{i}", bets) for i, bets in enumerate(slips)], cards=sequence
    )
    schema = SettlementResponseSchema()
    same(schema.dump(played), schema.marshmallow_dump(played))


@settings(max_examples=50)
@given(
    st.sampled_from(sorted(PRESETS)),
    st.text(min_size=1, max_size=8),
    st.sampled_from([None, 2]),
    st.lists(
        st.lists(st.tuples(st.sampled_from(MULTIPLIED_BETS), st.integers(20, 100)), min_size=1, max_size=3),
        min_size=1,
        max_size=4,
    ),
)
def test_a_multiplier_settlement_answer_is_the_schema_dump(preset, server_seed, round_number, slips):
    rules = resolve_rules("standard", {"multipliers": PRESETS[preset].rule})
    sent = [
        (f"s{i}", [Bet(type=bet, amount=Decimal(twentieths) * Decimal("0.05")) for bet, twentieths in stakes])
        for i, stakes in enumerate(slips)
    ]
    played = play_and_settle_slips(rules, sent, seed=SeedInputs(server_seed), round_number=round_number)
    schema = SettlementResponseSchema()
    written = schema.dump(played)
    same(written, schema.marshmallow_dump(played))
    assert "slips" not in written
    assert [slip["id"] for slip in written["multiplier_slips"]] == [slip_id for slip_id, _ in sent]


@settings(max_examples=50)
@given(
    strategies.shoe_sequence(min_size=6, max_size=6),
    st.integers(0, 6),
    st.lists(st.tuples(st.sampled_from(MULTIPLIED_BETS), st.integers(20, 100)), max_size=3),
)
def test_a_live_multiplier_answer_is_the_schema_dump(sequence, dealt, stakes):
    rules = resolve_rules("standard", {"multipliers": PRESETS["lightning"].rule})
    bets = [Bet(type=bet, amount=Decimal(twentieths) * Decimal("0.05")) for bet, twentieths in stakes]
    lit = [(sequence[0], 8)]
    cards = sequence[: min(dealt, deal(sequence).cards_used)]
    played = play_live(rules, cards, bets=bets, multiplier_cards=lit)
    schema = LiveRoundAnswerSchema()
    same(schema.dump(played), schema.marshmallow_dump(played))


@settings(max_examples=100)
@given(strategies.shoe_sequence(min_size=6, max_size=6), st.integers(0, 6), strategies.bets)
def test_live_answer_is_the_schema_dump_in_progress_and_complete(sequence, dealt, bets):
    played = play_live(STANDARD, sequence[: min(dealt, deal(sequence).cards_used)], bets=bets)
    schema = LiveRoundAnswerSchema()
    written = schema.dump(played)
    same(written, schema.marshmallow_dump(played))
    assert written["complete"] is not isinstance(played, RoundSoFar)


def test_rules_are_written_as_the_rules_schema_dumps_them():
    for rules in (*(table.rules for table in TABLES.values()), OVERRIDDEN):
        same(answers.rules(rules), RulesSchema().dump(rules))


def test_rules_are_made_canonical_once_and_shared():
    rules = TABLES["standard"].rules
    assert answers.rules(rules)["limits"] is answers.rules(rules)["limits"]
    assert answers.rules(OVERRIDDEN)["tie_pays"] == 9


def test_a_list_is_dumped_by_marshmallow():
    played = play_and_settle(STANDARD, [], cards=cards("9S KH 2D 7C 5H"))
    schema = RoundResponseSchema()
    assert schema.dump([played], many=True) == [schema.marshmallow_dump(played)]
