"""Problem documents: every ``errors`` entry carries a code of the closed set
``ErrorCode`` and the values its sentence is made from, the set is exactly
the codes the service can write, and a problem is written in the caller's
language with the same type, status, pointers, codes and values in every
language (docs/errors.md)."""

from __future__ import annotations

import ast
import copy
import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator
from werkzeug import exceptions
from werkzeug.http import HTTP_STATUS_CODES

from service.api.errors import HTTP_WORDS
from service.app import create_app
from service.baccarat.bets.types import Bet, BetType
from service.baccarat.rulebook.cards import DECK, check_composition
from service.baccarat.rulebook.coup import Place, Side, deal
from service.baccarat.rulebook.errors import BaccaratError, BetError, ProblemCode
from service.baccarat.rulebook.live import deal_one_round
from service.baccarat.shoes.deal import check_cut_card, past_the_end
from service.baccarat.tables.rules import TABLES, resolve_rules
from service.baccarat.tables.settlement import slip_problems
from service.contract.jsonio import PARSER_MESSAGES
from service.contract.language import TAGS, Language, Languages, speaking
from service.contract.problems import (
    INTERNAL_ERROR_DETAIL,
    MAX_TEXT,
    WORDS,
    domain_problem,
    field_errors,
    invalid_request,
)
from service.contract.schemas.messages import ERROR_TEMPLATES, FieldCode, Message, placeholders
from service.contract.schemas.problems import ProblemValuesSchema
from tests.conftest import cards
from tests.contract.schemas.test_messages import written_codes
from tests.postman_schemas import json_schema, schema_root

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [tag for tag in TAGS if tag != "en"]
FIVE = ["9S", "KH", "2D", "7C", "5H"]


@pytest.fixture(scope="module")
def client() -> FlaskClient:
    return create_app({"TESTING": True}).test_client()


@pytest.fixture(scope="module")
def languages() -> Languages:
    return Languages.load()


@pytest.fixture(scope="module")
def problem_schema(client: FlaskClient) -> Draft7Validator:
    """The document's ``Problem`` as JSON Schema, every object closed."""
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    definitions = {name: json_schema(schema, name) for name, schema in schemas.items()}
    return Draft7Validator(schema_root(definitions, "Problem"))


def ask(client: FlaskClient, request: tuple[Any, ...], language: str) -> dict[str, Any]:
    """The answer to ``request`` (``(method, path, body)``, a JSON body or raw
    bytes) in ``language``, which the answer must say it is written in."""
    method, path, body = request
    headers = {"Accept-Language": language}
    if body is None:
        answer = client.open(path, method=method, headers=headers)
    else:
        # json.dumps, not the app's own writer: a test body may hold a lone surrogate.
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        answer = client.open(path, method=method, data=data, content_type="application/json", headers=headers)
    assert answer.status_code < 500, answer.get_data(as_text=True)
    assert answer.headers["Content-Language"] == language
    document: dict[str, Any] = answer.get_json(force=True)
    return document


def shape(problem: dict[str, Any]) -> tuple[Any, ...]:
    """What a problem says whatever its language."""
    entries = [(e["pointer"], e["code"], e.get("values")) for e in problem.get("errors", [])]
    return problem["type"], problem["status"], problem.get("instance"), entries


def sentence(entry: dict[str, Any]) -> str | None:
    """An entry's English detail made again from its code and values, where
    its values are all plain (a hand, a place or a rule is written in words)."""
    values = entry.get("values", {})
    if {"hand", "placed", "place", "reason", "reasons"} & set(values):
        return None
    plain = {
        name: ", ".join(map(str, value)) if isinstance(value, list) else value
        for name, value in values.items()
    }
    return ERROR_TEMPLATES[entry["code"]].format(**plain)


def assert_coded(problem: dict[str, Any], schema: Draft7Validator) -> None:
    """The problem is as the document declares it; every entry has a code of
    the set, values only where its template has placeholders, and its detail
    is its template filled with them."""
    assert not list(schema.iter_errors(problem)), [error.message for error in schema.iter_errors(problem)]
    for entry in problem.get("errors", []):
        assert list(entry) == ["pointer", "code", *(["values"] if "values" in entry else []), "detail"]
        assert entry["code"] in ERROR_TEMPLATES, entry
        # No placeholder left unfilled: the braces of a value the caller sent (a card "{") are its own.
        detail = entry["detail"].replace("{card, hand}", "")
        for value in entry.get("values", {}).values():
            detail = detail.replace(str(value), "")
        assert "{" not in detail
        expected = sentence(entry)
        if expected is not None and len(expected) < MAX_TEXT:
            assert entry["detail"] == expected


# Requests that break a rule or the schema in each way a test names, and the
# HTTP errors the app answers itself: between them, every code the API can
# answer (test_the_cases_answer_every_code_the_api_can).
TIE = {"type": "tie", "amount": "5"}
SEEDED_SHOE = {"seed": "s", "rules": {"decks": 1, "cut_card": 14}}
AMOUNTS = (
    b'{"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "tie", "amount": 1E+1}, '
    b'{"type": "tie", "amount": "1e1"}, {"type": "tie", "amount": "0"}, {"type": "tie", "amount": true}]}'
)
BETS = [
    {"type": "tie", "amount": "0.50"},
    {"type": "dragon_7", "amount": "5"},
    {"type": "player", "amount": "1.005"},
    {"type": "banker", "amount": "100000"},
]
RANKS = "A23456789TJQK"
#: A banker bet whose 20% peek fee, 0.202, is finer than the minor unit.
PEEK_101 = {"type": "banker", "amount": "1.01"}

#: An operator's multiplier rule (docs/multipliers.md), and one whose every field is wrong.
TIE_RULE = {
    "cards": {"3": 1},
    "multipliers": {"2": 1},
    "pays": {"tie": {"pays": "5", "counted": "all_cards"}},
}
BROKEN_RULE = {
    "cards": {"0": 1},
    "multipliers": {"1": 1, "3": 0},
    "pays": {
        "player": {"pays": "0", "counted": "winning_hand", "stake_kept": "1"},
        "tie": {"pays": "5", "counted": "winning_hand"},
        "big": {"pays": "1", "counted": "none"},
    },
    "fee": {"rate": "2", "bets": ["banker"]},
    "cap": "-1",
}


CASES: dict[str, tuple[str, str, Any]] = {
    "missing card": ("POST", "/v1/rounds", {"cards": ["9S", "KH", "2D", "7C"]}),
    "types": ("POST", "/v1/rounds", {"cards": "9S KH 2D 7C", "table": 7}),
    "missing initial card": ("POST", "/v1/rounds", {"cards": ["9S", "KH", "2D"]}),
    "too many copies": ("POST", "/v1/rounds", {"cards": ["AS"] * 9}),
    "bets": ("POST", "/v1/rounds", {"cards": FIVE, "bets": BETS}),
    "amounts": ("POST", "/v1/rounds", AMOUNTS),
    "schema": (
        "POST",
        "/v1/rounds",
        {"cards": ["9S", "ZZ", 7], "x": 1, "bets": [{"type": "x"}], "seed": None, "rules": {"decks": 9}},
    ),
    "text": ("POST", "/v1/rounds", {"seed": "\ud800", "rules": {"commission": "0.5", "limits": []}}),
    "limits": (
        "POST",
        "/v1/rounds",
        {"cards": FIVE, "rules": {"limits": {"tie": {"min": "10", "max": "5"}}, "decks": "8"}},
    ),
    "many limits": ("POST", "/v1/rounds", {"rules": {"limits": {f"k{i}": {} for i in range(100)}}}),
    "minor unit": (
        "POST",
        "/v1/rounds",
        {"cards": FIVE, "rules": {"minor_unit": 0, "limits": {"banker": {"min": "2.50", "max": "100"}}}},
    ),
    "pay table of another bet": (
        "POST",
        "/v1/rounds",
        {"cards": FIVE, "rules": {"pay_tables": {"player": "tie_8_to_1"}}},
    ),
    "pay table of a bet not offered": (
        "POST",
        "/v1/rounds",
        {"cards": FIVE, "rules": {"pay_tables": {"dragon_7": "dragon_7_40_to_1"}}},
    ),
    "pay table against a setting": (
        "POST",
        "/v1/rounds",
        {"cards": FIVE, "rules": {"pay_tables": {"tie": "tie_9_to_1"}, "tie_pays": 8}},
    ),
    "commission": ("POST", "/v1/rounds", {"cards": FIVE, "rules": {"variant": "ez", "commission": "0.05"}}),
    "multiplier win below nothing": (
        "POST",
        "/v1/odds",
        {
            "rules": {
                "multipliers": {
                    "cards": {"1": 1},
                    "multipliers": {"2": 1},
                    "pays": {"banker": {"pays": "0.01", "counted": "none", "stake_kept": "0.05"}},
                }
            }
        },
    ),
    "multiplier rule at other pays": (
        "POST",
        "/v1/rounds",
        {"cards": FIVE, "table": "ez", "rules": {"multipliers": "lightning"}},
    ),
    "multiplier cards missing": (
        "POST",
        "/v1/rounds",
        {"cards": FIVE, "rules": {"multipliers": "lightning"}},
    ),
    "a physical shoe's multiplier cards for a round not answered": (
        "POST",
        "/v1/shoes",
        {
            "cards": ["3S", "QH", "7D", "5C", *FIVE, "2C"],
            "rules": {"multipliers": "lightning"},
            "multiplier_cards_by_round": [{"round": 3, "cards": [{"card": "8H", "multiplier": 8}]}],
        },
    ),
    "a physical shoe's multiplier cards missing": (
        "POST",
        "/v1/shoes",
        {"cards": ["3S", "QH", "7D", "5C", *FIVE], "rules": {"multipliers": "lightning"}},
    ),
    "multiplier cards without multipliers": (
        "POST",
        "/v1/rounds",
        {"cards": FIVE, "multiplier_cards": [{"card": "8H", "multiplier": 8}]},
    ),
    "multiplier cards": (
        "POST",
        "/v1/rounds",
        {
            "cards": FIVE,
            "rules": {"multipliers": "golden_wealth"},
            "multiplier_cards": [{"card": "7S", "multiplier": 8}, {"card": "7S", "multiplier": 4}],
        },
    ),
    "a fee finer than a cent": (
        "POST",
        "/v1/rounds",
        {
            "cards": FIVE,
            "rules": {"multipliers": "lightning"},
            "multiplier_cards": [{"card": "8H", "multiplier": 8}],
            "bets": [{"type": "banker", "amount": "1.01"}],
        },
    ),
    "an operator's multiplier rule, every field wrong": (
        "POST",
        "/v1/rounds",
        {"seed": "s", "rules": {"multipliers": BROKEN_RULE}},
    ),
    "an operator's multiplier rule with nothing in it": (
        "POST",
        "/v1/odds",
        {"rules": {"multipliers": {"cards": {}, "multipliers": {"2": 1}, "pays": {}}}},
    ),
    "an operator's multiplier rule weighing too much": (
        "POST",
        "/v1/rounds",
        {"seed": "s", "rules": {"multipliers": {**TIE_RULE, "multipliers": {"2": 2**32, "3": 1}}}},
    ),
    "an operator's cap finer than a cent": (
        "POST",
        "/v1/rounds",
        {"seed": "s", "rules": {"multipliers": {**TIE_RULE, "cap": "100.001"}}},
    ),
    "cards and a seed": ("POST", "/v1/rounds", {"cards": FIVE, "seed": "s", "round": 2}),
    "cards and a round": ("POST", "/v1/rounds", {"cards": FIVE, "round": 2}),
    "a bad commitment": ("POST", "/v1/rounds", {"server_seed": "b", "server_seed_hash": "zz"}),
    "two seeds": ("POST", "/v1/rounds", {"seed": "a", "server_seed": "b"}),
    "seed parts": ("POST", "/v1/rounds", {"seed": "a", "nonce": 1}),
    "a commitment alone": ("POST", "/v1/rounds", {"server_seed_hash": "0" * 64}),
    "commitment": ("POST", "/v1/rounds", {"seed": "abc", "server_seed_hash": "0" * 64}),
    "past the shoe": ("POST", "/v1/rounds", {**SEEDED_SHOE, "round": 100}),
    "slips": ("POST", "/v1/settlements", {"cards": FIVE, "slips": [{"id": "a", "bets": [TIE] * 51}]}),
    "many bets": (
        "POST",
        "/v1/settlements",
        {"cards": FIVE, "slips": [{"id": "a", "bets": [TIE] * 50}] * 601},
    ),
    "wrong hand": (
        "POST",
        "/v1/rounds/live",
        {"cards": ["9S", "KH", "2D", "7C", {"card": "5H", "hand": "banker"}]},
    ),
    "after the round": ("POST", "/v1/rounds/live", {"cards": ["9S", "KH", "8D", "7C", "5H"]}),
    "a long slip": ("POST", "/v1/rounds/live", {"cards": [7, "9S"], "bets": [TIE] * 51}),
    "peek without cards": ("POST", "/v1/rounds/peek", {"bets": [TIE]}),
    "whole shoe at a table that reshuffles": ("POST", "/v1/shoes", {"table": "tie_9", "seed": "s"}),
    "a minimum paid nothing": ("POST", "/v1/rules-sheets", {"rules": {"minor_unit": 0}}),
    "chips out of order": ("POST", "/v1/rules-sheets", {"chips": ["5", "1", "1"]}),
    "peek pays": ("POST", "/v1/rules-sheets", {"table": "peek", "rules": {"commission": "0.1"}}),
    "a bet that cannot win": (
        "POST",
        "/v1/odds",
        {"rules": {"decks": 1, "limits": {"perfect_pair": {"min": "1.00", "max": "10.00"}}}},
    ),
    "peek without shown": ("POST", "/v1/rounds/peek", {"cards": FIVE}),
    "peek fee": ("POST", "/v1/rounds/peek", {"cards": FIVE, "shown": ["banker_first"], "bets": [PEEK_101]}),
    "peek decisions": (
        "POST",
        "/v1/rounds/peek",
        {
            "cards": FIVE,
            "shown": ["player_first"],
            "bets": [{"type": "banker", "amount": "80"}, TIE],
            "decision": {"tie": "double", "player": "keep", "banker": "triple"},
        },
    ),
    "two shoes": ("POST", "/v1/odds", {"removed": ["AS"], "seed": "abc"}),
    "odds round": ("POST", "/v1/odds", {"round": 3}),
    "ranks": ("POST", "/v1/odds", {"rules": {"decks": 1}, "counts": dict.fromkeys(RANKS, 4) | {"A": 5}}),
    "few cards": ("POST", "/v1/odds", {"counts": dict.fromkeys(RANKS, 0) | {"9": 5}}),
    "slice": ("POST", "/v1/shoes", {"seed": "s", "from_round": 3, "to_round": 2}),
    "include the shoe": ("POST", "/v1/shoes", {"seed": "s", "include_shoe": "perhaps"}),
    "cut card": ("POST", "/v1/shoes", {"seed": "s", "rules": {"decks": 1, "cut_card": 40}}),
    "cut card position": ("POST", "/v1/shoes", {"seed": "s", "cut_card_position": 340}),
    "bets by round": (
        "POST",
        "/v1/shoes",
        {**SEEDED_SHOE, "bets": [TIE], "bets_by_round": [{"round": 5, "bets": [TIE]}]},
    ),
    "a round twice": (
        "POST",
        "/v1/shoes",
        {**SEEDED_SHOE, "bets_by_round": [{"round": 1, "bets": [TIE]}, {"round": 1, "bets": [TIE]}]},
    ),
    "a round not dealt": (
        "POST",
        "/v1/shoes",
        {**SEEDED_SHOE, "to_round": 2, "bets_by_round": [{"round": 5, "bets": [TIE]}]},
    ),
    "burned": ("POST", "/v1/shoes", {"cards": [{"card": "5S", "hand": "player"}, *FIVE]}),
    "cut card early": ("POST", "/v1/shoes", {"cards": FIVE, "cut_card_position": 3}),
    "cut card not sent": ("POST", "/v1/shoes", {"cards": FIVE, "cut_card_position": 340}),
    "after the shoe": (
        "POST",
        "/v1/shoes",
        {"cards": [card.code for card in DECK], "rules": {"decks": 1}, "cut_card_position": 26},
    ),
    "result": ("POST", "/v1/roads", {"results": ["dragon", 7, {"outcome": "tie", "natural": "yes"}]}),
    "query": ("GET", "/v1/paytables?decks=9&deck=6", None),
    "query twice": ("GET", "/v1/paytables?decks=6&decks=8", None),
    "query keys": ("GET", "/v1/paytables?" + "&".join(f"k{i}=1" for i in range(100)), None),
    "many errors": ("POST", "/v1/rounds", {"cards": ["XX"] * 60, "bets": [{}] * 10}),
    "not an object": ("POST", "/v1/rounds", [1]),
    "not found": ("GET", "/nowhere", None),
    "method": ("DELETE", "/v1/tables", None),
    "not json": ("POST", "/v1/rounds", b"{"),
    "empty": ("POST", "/v1/rounds", b""),
}

#: The codes no request is answered with, because what each one checks has
#: always been refused before: the schema requires every rank's count, from
#: 0 up; a pay table chosen by a shorthand becomes its setting before the
#: rules are made, and every setting the schema takes has a pay table; and
#: marshmallow's messages of fields and validators that these schemas never
#: trigger (text as bytes, a float too large, a nested list, a validator
#: that returns False, a length or range bounded on one side only).
NOT_ANSWERED = {
    "rank_count_missing",
    "rank_count_negative",
    "pay_table_by_shorthand",
    "no_pay_table_for_setting",
    "not_utf8",
    "number_too_large",
    "wrong_type",
    "invalid_value",
    "too_short",
    "wrong_length",
    "under_minimum",
    "over_maximum",
}


#: Codes a deployment of approved tables answers (BACCARAT_APPROVED_TABLES_ONLY), with their cases.
APPROVED_CASES: dict[str, tuple[str, str, Any]] = {
    "rules at an approved table": ("POST", "/v1/rounds", {"cards": ["9S", "KH", "2D", "7C"], "rules": {}}),
}


@pytest.fixture(scope="module")
def approved_client():
    return create_app({"APPROVED_TABLES_ONLY": True}).test_client()


def test_the_cases_answer_every_code_the_api_can(client, approved_client):
    answered = {
        entry["code"] for request in CASES.values() for entry in ask(client, request, "en").get("errors", [])
    }
    answered |= {
        entry["code"]
        for request in APPROVED_CASES.values()
        for entry in ask(approved_client, request, "en").get("errors", [])
    }
    assert answered == set(ERROR_TEMPLATES) - NOT_ANSWERED


@pytest.mark.parametrize("request_", APPROVED_CASES.values(), ids=APPROVED_CASES.keys())
def test_an_approved_tables_problem_says_the_same_in_every_language(
    approved_client, problem_schema, request_
):
    english = ask(approved_client, request_, "en")
    assert_coded(english, problem_schema)
    for tag in TRANSLATED:
        problem = ask(approved_client, request_, tag)
        assert shape(problem) == shape(english)
        for entry, in_english in zip(problem.get("errors", []), english.get("errors", []), strict=True):
            assert entry["detail"] != in_english["detail"]


@pytest.mark.parametrize("request_", CASES.values(), ids=CASES.keys())
def test_a_problem_says_the_same_in_every_language_in_its_words(client, problem_schema, request_):
    english = ask(client, request_, "en")
    assert_coded(english, problem_schema)
    for tag in TRANSLATED:
        problem = ask(client, request_, tag)
        assert shape(problem) == shape(english)
        assert problem["title"] != english["title"]
        assert problem["detail"] != english["detail"]
        for entry, in_english in zip(problem.get("errors", []), english.get("errors", []), strict=True):
            assert entry["detail"] != in_english["detail"]
            # No placeholder left unfilled: the braces of a value the caller sent (a card "{") are its own.
            detail = entry["detail"].replace("{card, hand}", "")
            for value in entry.get("values", {}).values():
                detail = detail.replace(str(value), "")
            assert "{" not in detail


def test_the_cases_cover_the_engine_s_kinds_and_the_http_errors(client):
    problems = [ask(client, request, "en") for request in CASES.values()]
    kinds = {problem["type"].removeprefix("urn:baccarat:problem:") for problem in problems}
    assert kinds >= {kind.slug for kind in BaccaratError.__subclasses__()} | {
        "invalid-request",
        "about:blank",
    }
    assert {problem["status"] for problem in problems} >= {400, 404, 405, 422}


# A broad sweep: the documented examples of every operation that reads a
# body, each broken in up to three places by Hypothesis.


def seed_bodies(client: FlaskClient) -> list[tuple[str, Any]]:
    document = client.get("/openapi.json").get_json()
    bodies = []
    for path, operations in document["paths"].items():
        content = operations.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json")
        if content is None:
            continue
        examples = [content["example"]] if "example" in content else []
        examples += [example["value"] for example in content.get("examples", {}).values()]
        bodies += [(path, example) for example in examples or [{}]]
    return bodies


def field_names(client: FlaskClient) -> list[str]:
    """Every property name of the document's schemas: mutations that name a real field."""
    document = client.get("/openapi.json").get_json()
    names: set[str] = set()
    for schema in document["components"]["schemas"].values():
        names.update(schema.get("properties", {}))
    return sorted(names)


SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.sampled_from(
        ["", "9S", "AS", "XX", "banker", "dragon_7", "ez", "25.00", "0.50", "1.005", "1e5", "0"]
    )
    | st.sampled_from([0, 1, 2, 8, 9, 14, 40, 100, 100_000, "\ud800", "100000", "0.05"])
    | st.text(max_size=10)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=8,
)


def mutated(value: Any, data: st.DataObject, names: list[str]) -> Any:
    """``value`` with one node somewhere inside it replaced, removed or added to
    (most often deep inside, where a request's own rules are checked)."""
    inside = data.draw(st.integers(0, 4)) > 0
    if isinstance(value, dict) and value and inside:
        key = data.draw(st.sampled_from(sorted(value)))
        action = data.draw(st.sampled_from(["into", "remove", "add"]))
        if action == "into":
            return {**value, key: mutated(value[key], data, names)}
        if action == "remove":
            return {name: item for name, item in value.items() if name != key}
        return {**value, data.draw(st.sampled_from(names) | st.text(max_size=6)): data.draw(JSON_VALUES)}
    if isinstance(value, list) and value and inside:
        index = data.draw(st.integers(0, len(value) - 1))
        return [*value[:index], mutated(value[index], data, names), *value[index + 1 :]]
    return data.draw(JSON_VALUES)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_error_of_a_broken_body_has_a_code_and_the_same_in_every_language(client, problem_schema, data):
    path, body = data.draw(st.sampled_from(seed_bodies(client)))
    names = field_names(client)
    broken = copy.deepcopy(body)
    for _ in range(data.draw(st.integers(1, 3))):
        broken = mutated(broken, data, names)
    # Every draw comes before the service answers: a body without cards or a
    # seed is dealt from a fresh seed, so its answer (and whether it is a
    # problem) may differ from one run of the example to the next.
    language = data.draw(st.sampled_from(TRANSLATED))
    request = ("POST", path, json.dumps(broken).encode())
    english = ask(client, request, "en")
    if "errors" not in english:
        return
    assert_coded(english, problem_schema)
    other = ask(client, request, language)
    assert shape(other) == shape(english)


# The set is the codes the code base writes.


def referenced_codes() -> set[str]:
    """The codes the service's modules name (``ProblemCode.X``,
    ``FieldCode.X``), outside the two modules that define them."""
    enums = {"ProblemCode": ProblemCode, "FieldCode": FieldCode}
    defining = {ROOT / "service/baccarat/rulebook/errors.py", ROOT / "service/contract/schemas/messages.py"}
    codes = set()
    for module in (ROOT / "service").rglob("*.py"):
        if module in defining:
            continue
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in enums
            ):
                codes.add(str(enums[node.value.id][node.attr]))
    return codes


def test_the_codes_are_exactly_those_the_service_writes(client):
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    declared = schemas["ErrorCode"]["x-extensible-enum"]
    assert set(declared) == set(ERROR_TEMPLATES)
    assert referenced_codes() | written_codes() == set(ERROR_TEMPLATES)


def test_the_values_are_the_templates_placeholders():
    named = {name for template in ERROR_TEMPLATES.values() for name in placeholders(template)}
    assert set(ProblemValuesSchema().fields) == named


def test_a_message_without_a_code_is_never_answered():
    with pytest.raises(TypeError, match="without a code"):
        invalid_request({"json": {"cards": ["Some words of nobody's."]}})


# English is the engine's own words; every sentence has its translations.


def engine_errors() -> Iterator[BaccaratError]:
    rules = TABLES["standard"].rules
    attempts = [
        lambda: check_composition(cards("AS AS"), 1),
        lambda: deal(cards("9S KH 2D")),
        lambda: deal(cards("9S KH 2D 7C")),
        lambda: deal_one_round(cards("9S KH 2D 7C 5H"), [None, None, None, None, Side.BANKER]),
        lambda: deal_one_round(cards("9S KH 8D 7C 5H")),
        lambda: resolve_rules("ez", {"commission": Decimal("0.05")}),
        lambda: check_cut_card(52, 40),
    ]
    for attempt in attempts:
        with pytest.raises(BaccaratError) as caught:
            attempt()
        yield caught.value
    yield past_the_end(61, {"round": 70, "from_round": 80})
    bets = [
        Bet(type=BetType(bet), amount=Decimal(amount))
        for bet, amount in (("tie", "0.5"), ("dragon_7", "5"), ("player", "1.005"))
    ]
    yield BetError("Some bets cannot be accepted at this table", slip_problems(bets, rules))


@pytest.mark.parametrize("error", list(engine_errors()), ids=lambda error: type(error).__name__)
def test_a_problem_in_english_is_the_engine_s_own_sentences(error):
    problem = domain_problem(error)
    assert problem["title"] == error.title
    assert problem["detail"] == error.detail
    assert [entry["detail"] for entry in problem["errors"]] == [p.detail for p in error.problems]
    assert [entry["code"] for entry in problem["errors"]] == [p.code for p in error.problems]


def test_a_problem_is_written_in_the_language_current_when_it_is_built(languages):
    error = next(engine_errors())
    english = domain_problem(error)
    with speaking(languages["th"]):
        thai, again = domain_problem(error), domain_problem(error)
    assert thai == again
    assert shape(thai) == shape(english)
    assert thai["detail"] != english["detail"]
    assert domain_problem(error) == english


def test_the_words_of_hands_and_places_are_the_engine_s():
    assert set(WORDS) == {side.words for side in Side} | {place.words for place in Place}


def test_the_http_words_are_werkzeug_s():
    titles = {HTTP_STATUS_CODES[status] for status in (400, 401, 404, 405, 413, 415, 500)}
    details = {
        kind.description for kind in (exceptions.BadRequest, exceptions.NotFound, exceptions.MethodNotAllowed)
    }
    assert set(HTTP_WORDS) == titles | details


def sentences() -> list[str]:
    """Every sentence a problem can hold, as the code writes it in English."""
    titles = [BaccaratError.title, *(kind.title for kind in BaccaratError.__subclasses__())]
    answers = [invalid_request({"json": {}}), invalid_request({"query": {}})]
    return [
        *ERROR_TEMPLATES.values(),
        *titles,
        *WORDS,
        *HTTP_WORDS,
        *PARSER_MESSAGES,
        INTERNAL_ERROR_DETAIL,
        *(answer["title"] for answer in answers),
        *(answer["detail"] for answer in answers),
    ]


@pytest.mark.parametrize("tag", TRANSLATED)
def test_every_sentence_of_a_problem_has_its_translation(languages, tag):
    language: Language = languages[tag]
    assert [text for text in sentences() if language.translations.gettext(text) == text] == []


def test_the_more_errors_entry_is_coded_in_every_language(languages):
    errors = [((str(index),), Message.of(FieldCode.UNKNOWN_FIELD)) for index in range(60)]
    with speaking(languages["ja"]):
        listed = field_errors(errors)
    assert listed[-1]["pointer"] == ""
    assert listed[-1]["code"] == "more_errors"
    assert listed[-1]["values"] == {"count": 10}
    assert "10" in listed[-1]["detail"]
    assert listed[-1]["detail"] != "10 more error(s) not listed"


def test_docs_errors_md_lists_every_code_with_its_template():
    text = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    rows = {
        line.split("|")[1].strip().strip("`"): line for line in text.splitlines() if line.startswith("| `")
    }
    for code, template in ERROR_TEMPLATES.items():
        assert code in rows, f"docs/errors.md has no row for {code}"
        assert template.replace("{{", "{").replace("}}", "}") in rows[code]


def test_an_answer_s_json_is_the_problem_s(client):
    body = json.dumps({"cards": ["9S"] * 2 + ["\ud800"]})
    problem = ask(client, ("POST", "/v1/rounds", body.encode()), "vi")
    (entry,) = problem["errors"]
    assert entry["code"] == "not_a_card"
    assert entry["values"] == {"card": "?"}
