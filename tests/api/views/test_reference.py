"""GET /v1/rules and GET /v1/tables: the engine's tableau and presets, dumped by their schemas."""

from __future__ import annotations

import json

from service.baccarat.payouts import table_presets
from service.baccarat.tableau import tableau
from service.contract.schemas.reference import TableauSchema, TablesResponseSchema


def test_the_rules_are_the_tableau_as_its_schema_dumps_it(client):
    answer = client.get("/v1/rules")
    assert answer.status_code == 200
    assert answer.get_data() == json.dumps(TableauSchema().dump(tableau()), separators=(",", ":")).encode()


def test_the_tables_are_the_presets_as_their_schema_dumps_them(client):
    answer = client.get("/v1/tables")
    assert answer.status_code == 200
    assert answer.get_json() == json.loads(json.dumps(TablesResponseSchema().dump(table_presets())))
    assert answer.get_json()["default"] == "standard"
