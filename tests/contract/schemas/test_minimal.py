"""The minimal answers (``Prefer: return=minimal``): each plain writer writes
exactly what marshmallow dumps from its schema, key order included, on
generated rounds and settlements at plain and multiplier tables; and the
answer schemas dump either form."""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.bets.types import Bet
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.rule import MULTIPLIED_BETS
from service.baccarat.play.round import play_and_settle, play_and_settle_slips
from service.baccarat.shoes.shuffle import SeedInputs
from service.baccarat.tables.rules import resolve_rules
from service.contract.answers import Minimal
from service.contract.schemas.minimal import (
    MinimalRoundSchema,
    MinimalSettlementSchema,
    RoundAnswerSchema,
    SettlementAnswerSchema,
)
from service.contract.schemas.rounds import RoundResponseSchema
from service.contract.schemas.settlements import SettlementResponseSchema
from tests import strategies
from tests.conftest import cards

STANDARD = resolve_rules("standard")


def same(written, dumped):
    """Equal, and in the same order (as the JSON a caller reads)."""
    assert json.dumps(written) == json.dumps(dumped)


def multiplied(stakes):
    # Stakes of 1.00 to 5.00 in steps of 0.05: a 20% fee on each is whole cents.
    return [Bet(type=bet, amount=Decimal(twentieths) * Decimal("0.05")) for bet, twentieths in stakes]


MULTIPLIED_STAKES = st.lists(st.tuples(st.sampled_from(MULTIPLIED_BETS), st.integers(20, 100)), max_size=3)


@settings(max_examples=100)
@given(strategies.shoe_sequence(), strategies.bets, st.sampled_from(["cards", "seed", "round"]))
def test_a_minimal_round_is_the_schema_dump(sequence, bets, source):
    if source == "cards":
        played = play_and_settle(STANDARD, bets, cards=sequence)
    else:
        played = play_and_settle(STANDARD, bets, seed="s", round_number=3 if source == "round" else None)
    schema = MinimalRoundSchema()
    written = schema.dump(played)
    same(written, schema.marshmallow_dump(played))
    assert written["minimal"] is True
    assert "rules" not in written
    assert "draws" not in written


@settings(max_examples=50)
@given(st.sampled_from(sorted(PRESETS)), st.text(min_size=1, max_size=8), MULTIPLIED_STAKES)
def test_a_minimal_multiplier_round_is_the_schema_dump(preset, server_seed, stakes):
    rules = resolve_rules("standard", {"multipliers": PRESETS[preset].rule})
    played = play_and_settle(rules, multiplied(stakes), seed=SeedInputs(server_seed))
    schema = MinimalRoundSchema()
    same(schema.dump(played), schema.marshmallow_dump(played))


@settings(max_examples=50)
@given(strategies.shoe_sequence(), st.lists(strategies.bets.filter(bool), min_size=1, max_size=4))
def test_a_minimal_settlement_is_the_schema_dump(sequence, slips):
    played = play_and_settle_slips(
        STANDARD, [(f"s{i}", bets) for i, bets in enumerate(slips)], cards=sequence
    )
    schema = MinimalSettlementSchema()
    same(schema.dump(played), schema.marshmallow_dump(played))


@settings(max_examples=50)
@given(
    st.sampled_from(sorted(PRESETS)),
    st.text(min_size=1, max_size=8),
    st.lists(MULTIPLIED_STAKES.filter(bool), min_size=1, max_size=4),
)
def test_a_minimal_multiplier_settlement_is_the_schema_dump(preset, server_seed, slips):
    rules = resolve_rules("standard", {"multipliers": PRESETS[preset].rule})
    sent = [(f"s{i}", multiplied(stakes)) for i, stakes in enumerate(slips)]
    played = play_and_settle_slips(rules, sent, seed=SeedInputs(server_seed))
    schema = MinimalSettlementSchema()
    written = schema.dump(played)
    same(written, schema.marshmallow_dump(played))
    assert "slips" not in written
    assert [slip["id"] for slip in written["multiplier_slips"]] == [slip_id for slip_id, _ in sent]


def test_the_answer_schemas_dump_the_full_form_or_the_minimal_one():
    bets = [Bet(type="banker", amount=Decimal(25))]
    played = play_and_settle(STANDARD, bets, cards=cards("9S KH 2D 7C 5H"))
    assert RoundAnswerSchema().dump(played) == RoundResponseSchema().dump(played)
    assert RoundAnswerSchema().dump(Minimal(played)) == MinimalRoundSchema().dump(played)
    table = play_and_settle_slips(STANDARD, [("s", bets)], cards=cards("9S KH 2D 7C 5H"))
    assert SettlementAnswerSchema().dump(table) == SettlementResponseSchema().dump(table)
    assert SettlementAnswerSchema().dump(Minimal(table)) == MinimalSettlementSchema().dump(table)
