"""bench.paths measures what docs/performance.md says it does ("The plain
paths and `gc.freeze()`"): its requests go through a WSGI app whatever
iterable the app answers with, and its marshmallow side never takes a plain
path, whichever way a list holds its plain reader."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask

from bench import paths
from bench.baseline import create_app as create_baseline
from bench.bodies import ROUND, SLIPS
from service.contract.schemas.settlements import SettlementRequestSchema

BODY = json.dumps(ROUND).encode()


def test_a_request_goes_through_an_app_answering_with_a_list_or_a_closing_iterator(app: Flask) -> None:
    paths.wsgi_call(app, "/v1/rounds", BODY)  # the service's WSGI layers answer a list
    paths.wsgi_call(create_baseline(), "/empty", BODY)  # werkzeug's iterable has close()


def test_a_request_answered_with_an_error_is_not_timed(app: Flask) -> None:
    with pytest.raises(AssertionError, match="404"):
        paths.wsgi_call(app, "/v1/nowhere", BODY)


def test_marshmallow_loads_the_slips_without_their_plain_reader() -> None:
    schema = SettlementRequestSchema()
    slips = schema.fields["slips"]
    assert slips.reader is not None  # a reader made for each request (slip_reader)

    def no_plain_path() -> Any:
        raise AssertionError("the plain reader was used")

    shipped, slips.reader = slips.reader, no_plain_path
    try:
        data = {**SLIPS, "slips": SLIPS["slips"][:3]}
        loaded = paths.marshmallow_load(schema, data)
        assert slips.reader is no_plain_path  # put back
    finally:
        slips.reader = shipped
    assert loaded == schema.load(data)
