"""The rules sheet's request: a round's ``table`` and ``rules``, and the
table's chips, dealing and malfunction clause, the preset's or the default."""

from __future__ import annotations

from decimal import Decimal

import pytest
from marshmallow import ValidationError

from service.baccarat.sheets.words import Malfunction
from service.baccarat.tables.rules import TABLES, Dealing
from service.contract.schemas.sheets import MAX_CHIPS, RulesSheetRequestSchema


def test_a_preset_s_chips_and_dealing_by_default():
    request = RulesSheetRequestSchema().load({"table": "tie_9"})
    assert request.rules is TABLES["tie_9"].rules
    assert request.chips == TABLES["tie_9"].chips
    assert request.dealing is Dealing.RESHUFFLE_EACH_HAND
    assert request.malfunction is Malfunction.VOIDS_ALL_PAYS_AND_PLAYS


def test_what_the_request_sends():
    request = RulesSheetRequestSchema().load(
        {"chips": ["2.50", 10], "dealing": "reshuffle_each_hand", "malfunction": "round_void_stakes_returned"}
    )
    assert request.chips == (Decimal("2.50"), Decimal(10))
    assert request.dealing is Dealing.RESHUFFLE_EACH_HAND
    assert request.malfunction is Malfunction.ROUND_VOID_STAKES_RETURNED


@pytest.mark.parametrize(
    "body",
    [
        {"chips": []},
        {"chips": ["1"] * (MAX_CHIPS + 1)},
        {"chips": ["-1"]},
        {"dealing": "by hand"},
        {"malfunction": "our own words"},
        {"table": "roulette"},
        {"chip": ["1"]},
    ],
)
def test_what_it_refuses(body):
    with pytest.raises(ValidationError):
        RulesSheetRequestSchema().load(body)
