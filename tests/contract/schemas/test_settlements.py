"""POST /v1/settlements' request: its bounds, checked before its contents."""

import pytest
from marshmallow import ValidationError

from service.contract.schemas.settlements import SettlementRequestSchema


def test_a_settlement_holds_at_most_so_many_bets_in_all():
    slip = {"id": "s", "bets": [{"type": "player", "amount": "1"}] * 50}
    with pytest.raises(ValidationError) as refused:
        SettlementRequestSchema().load({"cards": ["9S"], "slips": [slip] * 601})
    assert "at most 30,000" in str(refused.value.messages["slips"])
