"""GET /v1/rules and GET /v1/tables: the engine's tableau and presets, dumped by their schemas."""

from __future__ import annotations

import json

import pytest

from service.baccarat.rulebook.tableau import tableau
from service.baccarat.tables.payouts import description_values, table_presets
from service.baccarat.tables.rules import TABLES
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
        "peek": "shoe",
        "lightning": "shoe",
        "golden_wealth": "shoe",
        "prosperity_tree": "shoe",
    }
    assert "reshuffled after each hand" in tables["tie_9"]["description"]


# --- the rules as codes ------------------------------------------------------------------------

#: A table's own words for every code GET /v1/rules answers, filled with the
#: values; a code missing here fails the rendering (a KeyError).
OWN_WORDS = {
    "player_natural": "P{player_total}: natural",
    "banker_natural": "B{banker_total}: natural",
    "player_draws_on_0_5": "P{player_total}: draws",
    "player_stands_on_6_7": "P{player_total}: stands",
    "banker_draws_on_0_5_player_stood": "B{banker_total}/P stood: draws",
    "banker_stands_on_6_7_player_stood": "B{banker_total}/P stood: stands",
    "banker_draws_on_0_2": "B{banker_total}/P3 {player_third}: draws",
    "banker_stands_on_7": "B{banker_total}/P3 {player_third}: stands",
    "banker_draws_on_player_third": "B{banker_total}/P3 {player_third}: draws",
    "banker_stands_on_player_third": "B{banker_total}/P3 {player_third}: stands",
    "dealing_order": "P, B, P, B",
    "naturals_end_the_round": "{naturals}: natural",
    "player_acts_first": "P first",
    "higher_total_wins": "high wins",
}


def coded(answer: object, where: str = "") -> list[tuple[str, dict[str, object]]]:
    """Every object of the answer that carries a ``code``, with its place."""
    found = []
    if isinstance(answer, dict):
        if "code" in answer:
            found.append((where, answer))
        for key, value in answer.items():
            found += coded(value, f"{where}/{key}")
    elif isinstance(answer, list):
        for index, item in enumerate(answer):
            found += coded(item, f"{where}/{index}")
    return found


@pytest.mark.parametrize("tag", ["en", "th", "zh-Hant"])
def test_every_rule_and_note_of_the_tableau_is_written_from_its_code_alone(client, tag):
    """Every sentence of GET /v1/rules stands beside a code and values it is
    written from: the whole tableau renders in a table's own words, the
    same in every language."""
    rules = client.get("/v1/rules", headers={"Accept-Language": tag}).get_json()
    rendered = {where: OWN_WORDS[rule["code"]].format(**rule["values"]) for where, rule in coded(rules)}
    sentences = [
        where
        for where, rule in coded(rules)
        if any(isinstance(value, str) and " " in value for value in rule.values())
    ]
    assert len(rendered) == 4 + 8 + 8 * 11 + 4  # the naturals, Player, Banker by total, the notes
    assert len(sentences) == len(rendered) - 4  # every sentence but the notes', beside its code
    assert len(rules["note_codes"]) == len(rules["notes"])
    assert rendered["/natural_rules/3"] == "B9: natural"
    assert rendered["/note_codes/1"] == "[8, 9]: natural"
    assert rendered["/banker/3/player_drew/8"] == "B3/P3 8: stands"
    assert rules["naturals"] == [rule["total"] for rule in rules["natural_rules"] if rule["hand"] == "player"]


def test_the_naturals_carry_the_code_a_round_a_natural_ends_answers_with(client):
    rules = client.get("/v1/rules").get_json()
    for rule in rules["natural_rules"]:
        cards = ["9S", "KH", "KD", "2C"] if rule["total"] == 9 else ["8S", "KH", "KD", "2C"]
        if rule["hand"] == "banker":
            cards = [cards[1], cards[0], cards[3], cards[2]]
        round_ = client.post("/v1/rounds", json={"cards": cards}).get_json()
        stands = {stand["code"]: stand for stand in round_["stands"]}
        assert rule["code"] in stands, round_["stands"]
        assert rule["values"].items() <= stands[rule["code"]]["values"].items()
        assert rule["reason"] == stands[rule["code"]]["reason"]


@pytest.mark.parametrize("tag", ["en", "vi"])
def test_every_preset_s_description_carries_its_code_and_figures(client, tag):
    """A table writes each preset's description in its own words from
    ``description_code`` and ``description_values``, whatever the language."""
    tables = client.get("/v1/tables", headers={"Accept-Language": tag}).get_json()["tables"]
    for table in tables:
        assert table["description_code"] == table["name"]
        figures = table["description_values"]
        peek = table.get("peek")
        assert (peek is not None) is TABLES[table["name"]].peek
        fee = {"fee": peek["fee"]} if peek is not None else {}
        assert figures == description_values(TABLES[table["name"]]) | fee
        assert figures["decks"] == table["rules"]["decks"]
        assert figures["tie_max"] == table["rules"]["limits"]["tie"]["max"]
        assert figures["side_bets"] == [bet["type"] for bet in table["bets"]][3:]
        multipliers = table["rules"].get("multipliers")
        assert ("fee" in figures) is (multipliers is not None or peek is not None)
        if multipliers is not None:
            assert figures["fee"] == multipliers["fee"]["rate"]
            assert figures.get("cap") == multipliers["cap"]
