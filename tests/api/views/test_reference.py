"""GET /v1/rules and GET /v1/tables: the engine's tableau and presets, dumped by their schemas."""

from __future__ import annotations

import json

import pytest

from service.baccarat.rulebook.tableau import tableau
from service.baccarat.tables.payouts import table_presets
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


def test_the_pay_tables_answer_for_the_decks_asked_for(client):
    assert client.get("/v1/paytables").get_json()["decks"] == 8
    assert client.get("/v1/paytables?decks=6").get_json()["decks"] == 6


@pytest.mark.parametrize(
    ("query", "pointer", "code", "values", "detail"),
    [
        (
            "decks=9",
            "/query/decks",
            "out_of_range",
            {"min": 1, "max": 8},
            "Must be greater than or equal to 1 and less than or equal to 8.",
        ),
        ("decks=six", "/query/decks", "not_an_integer", None, "Not a valid integer."),
        # A misspelt key must not answer for the default deck count.
        ("deck=6", "/query/deck", "unknown_field", None, "Unknown field."),
        ("decks=6&decks=8", "/query/decks", "given_twice", {"times": 2}, "Given 2 times: give it once."),
        (
            "&".join(f"k{i}=1" for i in range(100)),
            "/query",
            "too_many_keys",
            {"keys": 100, "most": 1},
            "An object of 100 keys: this one has at most 1.",
        ),
    ],
)
def test_a_bad_pay_tables_query_is_a_422_naming_the_key(client, query, pointer, code, values, detail):
    answer = client.get(f"/v1/paytables?{query}")
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    problem = answer.get_json()
    assert problem["detail"] == "The query does not match the schema: see errors"
    error = {"pointer": pointer, "code": code, "detail": detail} | ({"values": values} if values else {})
    assert problem["errors"] == [error]


def test_each_table_says_how_it_deals(client):
    """A table UI reads it rather than the description: tie_9 reshuffles after each hand."""
    tables = {table["name"]: table for table in client.get("/v1/tables").get_json()["tables"]}
    assert {name: table["dealing"] for name, table in tables.items()} == {
        "standard": "shoe",
        "tie_9": "reshuffle_each_hand",
        "no_commission": "shoe",
        "ez": "shoe",
        "tiger": "shoe",
    }
    assert "reshuffled after each hand" in tables["tie_9"]["description"]
