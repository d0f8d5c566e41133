"""A stored exchange's JSON form: written by exchange_document, read by the
contract's own schema (the one POST /v1/replays reads), limits included."""

from __future__ import annotations

import json

import pytest

from service.contract.audit.exchange import dumps_exchange, exchange_document
from service.contract.schemas.audit import MAX_HEADER_LENGTH, MAX_STORED_HEADERS, stored_exchange

from .fixtures import SIGNED


def test_a_stored_exchange_round_trips_through_its_json():
    assert stored_exchange(json.loads(dumps_exchange(SIGNED))) == SIGNED


def with_response(**changes):
    document = exchange_document(SIGNED)
    document["response"].update(changes)
    return document


@pytest.mark.parametrize(
    ("document", "says"),
    [
        ({}, "/request: Missing data"),
        ({"request": {}, "response": {}}, "/request/method: Missing data"),
        ({**exchange_document(SIGNED), "request": {"method": "POST"}}, "/request/url: Missing data"),
        (with_response(status=True), "/response/status: Not a valid integer"),
        (with_response(status=99), "/response/status: Must be greater than or equal to 100"),
        (with_response(headers={"a": 1}), "/response/headers/a/value: Not a valid string"),
        ([], "/: Invalid input type"),
    ],
)
def test_a_malformed_stored_exchange_names_its_part(document, says):
    with pytest.raises(ValueError, match=says):
        stored_exchange(document)


@pytest.mark.parametrize(
    ("document", "says"),
    [
        (with_response(headers={f"h{i}": "" for i in range(MAX_STORED_HEADERS + 1)}), "/response/headers"),
        (with_response(headers={"Signature": "x" * (MAX_HEADER_LENGTH + 1)}), "/response/headers/Signature"),
    ],
)
def test_a_stored_exchange_is_held_to_the_replays_limits(document, says):
    """The schema that reads POST /v1/replays reads a stored exchange anywhere, with its limits."""
    with pytest.raises(ValueError, match=says):
        stored_exchange(document)
