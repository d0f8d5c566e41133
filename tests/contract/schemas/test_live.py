"""The live round's request schema: its plain reader loads exactly what
marshmallow loads, on generated bodies of codes, tagged cards and junk.
(Each item's own plain reader is held to its field in test_fields.py; the
answers in tests/contract/test_answers.py; the endpoint in
tests/api/views/test_rounds_live.py.)"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from service.contract.schemas.live import LiveRoundRequestSchema, plain_live_round
from tests.contract.schemas.test_rounds import bet, card, junk, loaded

BANKER_25 = [{"type": "banker", "amount": "25.00"}]


tagged = st.fixed_dictionaries({"card": card, "hand": st.sampled_from(["player", "banker", "dealer"]) | junk})
live_body = (
    st.fixed_dictionaries(
        {},
        optional={
            "cards": st.lists(card | tagged, max_size=7) | junk,
            "bets": st.lists(bet, max_size=3) | junk,
            "table": st.sampled_from(["standard", "ez", "nowhere"]) | junk,
            "rules": st.just({"tie_pays": 9}) | junk,
        },
    )
    | junk
)


@settings(max_examples=400)
@given(live_body)
def test_a_plain_live_round_is_what_the_schema_loads(value):
    request = plain_live_round(value)
    if request is not None:
        assert request == loaded(LiveRoundRequestSchema(), value)


def test_the_common_live_round_takes_the_plain_path():
    assert plain_live_round({"cards": ["9S", "KH"], "bets": BANKER_25}) is not None
    assert plain_live_round({}) is not None
