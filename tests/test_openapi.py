"""The committed openapi.yaml is what the code generates, and it is valid;
and what generated clients rely on is in it: stable operation names, the
server, every error an operation can answer, named types."""

import json
from collections.abc import Iterator
from functools import cache
from http import HTTPStatus
from pathlib import Path
from typing import Any

import yaml
from marshmallow import missing
from openapi_spec_validator import validate

from service.app import create_app
from service.contract.schemas.base import RequestSchema
from service.contract.schemas.values import EXTENSIBLE_ENUM, VALUE_SETS
from service.openapi import generate

COMMITTED = Path(__file__).parents[1] / "openapi.yaml"
METHODS = frozenset({"get", "put", "post", "delete", "options", "head", "patch", "trace"})
PROBLEM_JSON = "application/problem+json"

#: Generated clients name their methods after these: renaming one breaks
#: every client, so a rename must be deliberate (and change this list).
OPERATION_IDS = {
    ("post", "/v1/rounds"): "playRound",
    ("post", "/v1/rounds/live"): "dealLiveRound",
    ("post", "/v1/rounds/peek"): "playPeekRound",
    ("post", "/v1/settlements"): "settleSlips",
    ("post", "/v1/shoes"): "dealShoe",
    ("post", "/v1/seeds"): "newSeed",
    ("get", "/v1/rules"): "getRules",
    ("get", "/v1/tables"): "getTables",
    ("get", "/v1/paytables"): "getPayTables",
    ("post", "/v1/roads"): "drawRoads",
    ("post", "/v1/odds"): "getOdds",
    ("post", "/v1/rules-sheets"): "writeRulesSheet",
    ("get", "/v1/tables/{table}/rules-sheet"): "getRulesSheet",
    ("post", "/v1/replays"): "replayExchange",
    ("get", "/.well-known/jwks.json"): "getJwks",
    ("get", "/livez"): "getLivez",
    ("get", "/readyz"): "getReadyz",
    ("get", "/openapi.yaml"): "getOpenapiYaml",
}
#: Operations that refuse an ``Accept`` naming none of their forms (406), where
#: the others answer JSON whatever it names: a rules sheet is only ever
#: shown to players, so a form they did not ask for is no answer.
NOT_ACCEPTABLE = frozenset({("post", "/v1/rules-sheets"), ("get", "/v1/tables/{table}/rules-sheet")})
#: Operations answered without a key: their policy says so (service/api/policy.py).
PUBLIC = frozenset(
    (method.lower(), rule)
    for method, rule, _, policy in create_app({"TESTING": True}).services.operations
    if policy.public
)


@cache
def committed() -> dict[str, Any]:
    spec: dict[str, Any] = yaml.safe_load(COMMITTED.read_text())
    return spec


def operations(spec: dict[str, Any]) -> Iterator[tuple[tuple[str, str], dict[str, Any]]]:
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield (method, path), operation


def test_committed_openapi_matches_the_code():
    assert COMMITTED.read_text() == generate(), "openapi.yaml is stale: run `make openapi` and commit it"


def test_openapi_is_valid():
    validate(yaml.safe_load(COMMITTED.read_text()))


def test_openapi_is_served(client):
    response = client.get("/openapi.yaml")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == COMMITTED.read_text()


def test_every_operation_documents_its_errors_as_problems():
    spec = yaml.safe_load(COMMITTED.read_text())
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            assert "default" in operation["responses"], (method, path)
    default = spec["components"]["responses"]["DEFAULT_ERROR"]
    assert list(default["content"]) == ["application/problem+json"]


def test_every_operation_has_its_stable_operation_id():
    spec = committed()
    assert {key: operation.get("operationId") for key, operation in operations(spec)} == OPERATION_IDS
    assert len(set(OPERATION_IDS.values())) == len(OPERATION_IDS)


def test_the_server_licence_and_contact_are_declared():
    spec = committed()
    # Relative first: /docs "Try it out" calls the first server, and may call only its own origin.
    assert spec["servers"] == [
        {"url": "/", "description": "The service that served this document"},
        {"url": "http://127.0.0.1:8000", "description": "make run"},
    ]
    assert spec["info"]["license"] == {"name": "Proprietary"}
    assert spec["info"]["contact"] == {"name": "Baccarat service maintainers"}


def problem_responses(operation: dict[str, Any]) -> dict[int, str]:
    """The operation's responses that refer to a shared component: status -> component name."""
    refs = {}
    for status, response in operation["responses"].items():
        if status != "default" and "$ref" in response:
            prefix, _, name = response["$ref"].rpartition("/")
            assert prefix == "#/components/responses", response
            refs[int(status)] = name
    return refs


def parameters(spec: dict[str, Any], operation: dict[str, Any]) -> list[dict[str, Any]]:
    """The operation's parameters, those it refers to as components read."""
    return [
        spec["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
        if "$ref" in parameter
        else parameter
        for parameter in operation.get("parameters", [])
    ]


def test_every_operation_declares_each_problem_it_can_answer():
    spec = committed()
    shared = spec["components"]["responses"]
    for key, operation in operations(spec):
        # An Accept-Language too long to read, on any operation (service/api/language.py).
        expected = {HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE}
        keyed = operation.get("security", spec["security"]) != []
        assert keyed == (key not in PUBLIC), key
        if keyed:
            expected.add(HTTPStatus.UNAUTHORIZED)
        if "requestBody" in operation:
            expected |= {
                HTTPStatus.BAD_REQUEST,
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                HTTPStatus.UNPROCESSABLE_ENTITY,
            }
        if any(parameter.get("in") == "query" for parameter in parameters(spec, operation)):
            expected.add(HTTPStatus.UNPROCESSABLE_ENTITY)  # the query's schema refuses it
        if any(parameter.get("in") == "path" for parameter in parameters(spec, operation)):
            expected.add(HTTPStatus.NOT_FOUND)  # a name it does not know (a table preset)
        if key in NOT_ACCEPTABLE:
            expected.add(HTTPStatus.NOT_ACCEPTABLE)
        refs = problem_responses(operation)
        assert set(refs) == expected, key
        for status, name in refs.items():
            assert name == HTTPStatus(status).name, (key, status)
            assert list(shared[name]["content"]) == [PROBLEM_JSON], name
            assert shared[name]["content"][PROBLEM_JSON]["schema"] == {"$ref": "#/components/schemas/Problem"}
    body_operations = {key for key, operation in operations(spec) if "requestBody" in operation}
    assert body_operations == {key for key in OPERATION_IDS if key[0] == "post"}


def test_every_component_schema_is_referenced():
    spec = committed()
    text = json.dumps(spec)
    assert "PaginationMetadata" not in spec["components"]["schemas"]
    for name in spec["components"]["schemas"]:
        assert f'"#/components/schemas/{name}"' in text, name


def test_a_road_result_is_tried_as_a_round_before_a_bare_result():
    spec = committed()
    items = spec["components"]["schemas"]["RoadsRequest"]["properties"]["results"]["items"]
    assert [form["$ref"] for form in items["oneOf"]] == [
        "#/components/schemas/Outcome",
        "#/components/schemas/RoadRound",
        "#/components/schemas/RoadResult",
    ]


def test_the_ask_marks_are_one_named_nullable_type():
    spec = committed()
    marks = spec["components"]["schemas"]["AskMarks"]["properties"]
    assert set(marks) == {"big_eye_boy", "small_road", "cockroach_pig"}
    for mark in marks.values():
        assert mark == {"$ref": "#/components/schemas/Mark"}
    assert spec["components"]["schemas"]["Mark"] == {
        "type": "string",
        "title": "Mark",
        "enum": ["red", "blue", None],
        "nullable": True,
        "description": "The mark a derived road would add, or null for none",
    }


def subschemas(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object under ``node`` (a component schema), with where it is."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            if key in ("properties",):
                for name, prop in value.items():
                    yield from subschemas(prop, f"{where}.{name}")
            elif key in ("items", "additionalProperties"):
                yield from subschemas(value, f"{where}[]")
            elif key in ("allOf", "oneOf", "anyOf"):
                for index, form in enumerate(value):
                    yield from subschemas(form, f"{where}/{key}/{index}")


def is_constant(schema: dict) -> bool:
    """A boolean that takes one value (``complete: false``): OpenAPI 3.0's way
    of writing a constant, which tells the forms of a ``oneOf`` apart."""
    return schema.get("type") == "boolean" and len(schema.get("enum", ())) == 1


#: The value sets the game fixes for good: closed enums. Every other set grows with the
#: catalogue (bets, pay tables, tables, reasons, problem codes) and is open
#: (docs/reference/versioning.md), so that a client generated from this release still
#: reads an answer that carries a value added since.
CLOSED = {
    "Outcome",
    "Side",
    "Place",
    "BetResult",
    "Action",
    "Colour",
    "Mark",
    "PeekPosition",
    "PeekChoice",
    "ShoeSource",
}


def test_only_the_sets_the_game_fixes_are_closed_enums():
    schemas = committed()["components"]["schemas"]
    closed = {name for name, schema in schemas.items() if "enum" in schema}
    assert closed == CLOSED
    for name in set(VALUE_SETS) - CLOSED:
        schema = schemas[name]
        assert schema["type"] in ("string", "integer"), name
        assert schema[EXTENSIBLE_ENUM] == [*VALUE_SETS[name].values], name
        assert "a caller treats a value it does not know as one more of the set" in schema["description"]


def test_each_value_set_is_one_component_referenced_wherever_it_appears():
    """A generated client gets one type per value set (``Outcome``, ``BetType``),
    which stands for the value in requests and answers alike."""
    schemas = committed()["components"]["schemas"]
    enums = {
        name: schema.get("enum", schema.get(EXTENSIBLE_ENUM))
        for name, schema in schemas.items()
        if "enum" in schema or EXTENSIBLE_ENUM in schema
    }
    assert set(enums) == set(VALUE_SETS)
    distinct = {tuple(value for value in values if value is not None) for values in enums.values()}
    assert len(distinct) == len(enums) - 1  # Mark is Colour or null
    for component, schema in schemas.items():
        for where, sub in subschemas(schema, component):
            if where != component and not is_constant(sub):
                assert "enum" not in sub, f"{where}: an inline enum, not a reference to its value set"
    references = {
        where: sub["$ref"].rpartition("/")[2]
        for component, schema in schemas.items()
        for where, sub in subschemas(schema, component)
        if "$ref" in sub
    }
    for where, name in {
        "RoundRequest.table/allOf/0": "TablePreset",
        "Table.name": "TablePreset",
        "TablesResponse.default": "TablePreset",
        "Bet.type/allOf/0": "BetType",
        "SettledBet.type": "BetType",
        "OfferedBet.type/allOf/0": "BetType",
        "SettledBet.result": "BetResult",
        "PayLine.result/allOf/0": "BetResult",
        "RoundRulesOverride.payout_rounding/allOf/0": "PayoutRounding",
        "Rules.payout_rounding": "PayoutRounding",
        "RoundRulesOverride.variant/allOf/0": "Variant",
        "Rules.variant": "Variant",
        "RoundRulesOverride.tie_pays/allOf/0": "TiePays",
        "Rules.tie_pays": "TiePays",
        "RoundResponse.outcome": "Outcome",
        "RoadResult.outcome/allOf/0": "Outcome",
        "BigRoadCell.outcome": "Outcome",
        "Streak.outcome/allOf/0": "Side",
        "Draw.hand": "Side",
        "DerivedRoad.marks[]": "Colour",
        "MarkCell.colour": "Colour",
        "NextCard.hand/allOf/0": "Side",
        "NextCard.place/allOf/0": "Place",
        "TaggedCard.hand/allOf/0": "Side",
    }.items():
        assert references.get(where) == name, where


def test_a_reference_with_siblings_goes_through_all_of():
    """OpenAPI 3.0 ignores whatever stands beside a ``$ref``."""
    for component, schema in committed()["components"]["schemas"].items():
        for where, sub in subschemas(schema, component):
            if "$ref" in sub:
                assert list(sub) == ["$ref"], where
            if "allOf" in sub:
                assert len(sub["allOf"]) == 1, where


def test_request_defaults_are_stated_in_words():
    """openapi-typescript makes a property with a ``default`` required, so a
    typed client would have to send it: the description says it instead."""
    for component, schema in committed()["components"]["schemas"].items():
        for where, sub in subschemas(schema, component):
            assert "default" not in sub, where
    for schema in request_schemas(RequestSchema):
        for name, field in schema().load_fields.items():
            if field.load_default is not missing and not callable(field.load_default):
                description = field.metadata.get("description", "")
                assert "default" in description, f"{schema.__name__}.{name}: state the default"


def request_schemas(base: type[RequestSchema]) -> Iterator[type[RequestSchema]]:
    for schema in base.__subclasses__():
        yield schema
        yield from request_schemas(schema)


def test_rank_counts_are_a_map_from_rank_to_count():
    """Named properties ``2`` to ``9`` become ``field_2``... in a generated Python client."""
    counts = committed()["components"]["schemas"]["RankCounts"]
    assert "properties" not in counts
    assert counts["additionalProperties"]["type"] == "integer"
    assert counts["minProperties"] == counts["maxProperties"] == len(counts["example"]) == 13


def test_every_operation_has_a_summary_and_a_description():
    for key, operation in operations(committed()):
        assert operation.get("summary"), key
        assert operation.get("description"), key
