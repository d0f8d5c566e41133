"""Each request of the Postman collection checks its whole answer against openapi.yaml.

The schemas embedded in the collection must be what ``make postman`` makes
of openapi.yaml now (tests/postman_schemas.py), every JSON answer must be
checked, and the check must bite: every saved example satisfies its schema,
and the same example with an undeclared field, or a wrong type, anywhere in
it does not, both in Python's jsonschema (draft-07, as Postman's ajv reads
it) and in newman itself against a small fake server.
"""

from __future__ import annotations

import copy
import http.server
import json
import subprocess
import threading
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest

from . import tools
from .postman_build import contract, load
from .postman_schemas import (
    BEGIN,
    SCHEMA_TEST,
    SCHEMAS_VARIABLE,
    Contract,
    json_schema,
    request_items,
    schema_root,
    with_schemas,
)

COLLECTION = load()
CONTRACT = contract()
#: Requests whose answer openapi.yaml does not describe as JSON, so they have no schema test.
NOT_DESCRIBED = {
    "Prometheus metrics": "Prometheus text, on the metrics port, which openapi.yaml does not cover",
    "OpenAPI document (JSON)": "the document itself, served but not described in it",
    "OpenAPI document (YAML)": "YAML, which openapi.yaml declares without a schema",
    "Interactive docs": "an HTML page, served but not described",
    "Roads as a picture (SVG)": "an SVG picture, which openapi.yaml declares as a string",
    "A preset's rules sheet as a page, in Japanese": "an HTML page, which openapi.yaml declares as a string",
}
UNDECLARED = "undeclared"


def checked_examples() -> list[tuple[str, str, Any]]:
    """(request name, schema name, saved answer) for every request with a schema test."""
    found = []
    for item in request_items(COLLECTION["item"]):
        answers = CONTRACT.checked(item)
        if answers is not None:
            example = item["response"][0]
            found.append((item["name"], answers.schema_for(example["code"]), json.loads(example["body"])))
    return found


EXAMPLES = checked_examples()


@pytest.fixture(scope="module")
def validators() -> dict[str, jsonschema.Draft7Validator]:
    """A draft-07 validator per answer schema, given the root the generated test builds."""
    definitions = json.loads(next(v["value"] for v in COLLECTION["variable"] if v["key"] == SCHEMAS_VARIABLE))
    names = {name for _, name, _ in EXAMPLES}
    return {name: jsonschema.Draft7Validator(schema_root(definitions, name)) for name in names}


def test_the_schemas_and_their_tests_are_what_make_postman_writes_from_openapi_yaml():
    assert with_schemas(COLLECTION, CONTRACT) == COLLECTION, "the collection is stale: run `make postman`"


def test_every_request_with_a_json_answer_checks_it_against_its_schema():
    unchecked = {item["name"] for item in request_items(COLLECTION["item"]) if CONTRACT.checked(item) is None}
    assert unchecked == set(NOT_DESCRIBED)
    for item in request_items(COLLECTION["item"]):
        script = [line for event in item.get("event", []) for line in event["script"]["exec"]]
        assert (BEGIN in script) == (item["name"] not in NOT_DESCRIBED), item["name"]


def test_every_object_in_the_answer_schemas_is_closed():
    """An object with listed properties takes no other; a map says what its values are."""

    def objects(schema: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
        if isinstance(schema, dict):
            if schema.get("type") == "object" or "properties" in schema:
                yield where, schema
            for key, value in schema.items():
                yield from objects(value, f"{where}/{key}")
        elif isinstance(schema, list):
            for index, value in enumerate(schema):
                yield from objects(value, f"{where}/{index}")

    found = list(objects(CONTRACT.definitions, ""))
    assert len(found) > 40
    for where, schema in found:
        closed = schema.get("additionalProperties")
        assert closed is False or isinstance(closed, dict), where


def test_an_open_object_in_openapi_yaml_is_closed_in_the_check():
    thing = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}
    spec = {
        "paths": {"/v1/things": {"get": {"operationId": "getThing", "responses": {"200": thing}}}},
        "components": {
            "responses": {
                "DEFAULT_ERROR": {"content": {"application/problem+json": {"schema": {"type": "object"}}}},
            },
            "schemas": {
                "Thing": {"type": "object", "properties": {"n": {"type": "integer", "nullable": True}}}
            },
        },
    }
    made = Contract(spec)
    assert made.definitions["Thing"] == {
        "type": "object",
        "properties": {"n": {"type": ["integer", "null"]}},
        "additionalProperties": False,
    }
    validator = jsonschema.Draft7Validator(schema_root(made.definitions, "Thing"))
    assert validator.is_valid({"n": None})
    assert not validator.is_valid({"n": 1, UNDECLARED: 1})
    # An inline schema is named after where it is, and embedded too (closed, like any object).
    assert made.unrouted.schemas == {"default": "DEFAULT_ERROR"}
    assert made.definitions["DEFAULT_ERROR"] == {"type": "object", "additionalProperties": False}


@pytest.mark.parametrize(
    ("openapi", "draft7"),
    [
        (
            {"nullable": True, "allOf": [{"$ref": "#/components/schemas/Seed"}]},
            {"anyOf": [{"allOf": [{"$ref": "#/definitions/Seed"}]}, {"type": "null"}]},
        ),
        (
            {"type": "number", "maximum": 1, "exclusiveMaximum": True},
            {"type": "number", "exclusiveMaximum": 1},
        ),
        ({"type": "number", "minimum": 0, "exclusiveMinimum": False}, {"type": "number", "minimum": 0}),
        ({"type": "integer", "format": "int64", "x-origin": "marshmallow"}, {"type": "integer"}),
        ({"type": "string", "format": "date-time"}, {"type": "string", "format": "date-time"}),
        (
            {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Limits"}},
            {"type": "object", "additionalProperties": {"$ref": "#/definitions/Limits"}},
        ),
        ({"type": "object"}, {"type": "object", "additionalProperties": False}),
        (
            {"anyOf": [{"type": "object", "nullable": True}, {"$ref": "#/components/schemas/Mark"}]},
            {"anyOf": [{"type": "null"}, {"$ref": "#/definitions/Mark"}]},
        ),
    ],
    ids=[
        "nullable-without-type",
        "exclusive-maximum",
        "inclusive-minimum",
        "openapi-format",
        "draft7-format",
        "map",
        "object-of-no-shape",
        "apispec-nullable-reference",
    ],
)
def test_openapi_keywords_become_draft_7(openapi, draft7):
    assert json_schema(openapi, "test") == draft7


@pytest.mark.parametrize(
    "openapi",
    [
        {"type": "string", "format": "decimal"},
        {"oneOf": [], "discriminator": {"propertyName": "kind"}},
        {"$ref": "#/paths/elsewhere"},
    ],
    ids=["unknown-format", "discriminator", "ref-outside-components"],
)
def test_what_has_no_conversion_stops_the_generator(openapi):
    with pytest.raises(ValueError, match="test"):
        json_schema(openapi, "test")


@pytest.mark.parametrize(("request_name", "schema", "answer"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_each_saved_example_satisfies_its_schema(validators, request_name, schema, answer):
    errors = [error.message for error in validators[schema].iter_errors(answer)]
    assert errors == [], request_name


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every object, list and leaf of an answer with its path, once per place
    in its schema: a list's first item stands for the others."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list) and value:
        yield from places(value[0], (*path, 0))


def changed(answer: Any, path: tuple[Any, ...], change: Any) -> Any:
    """A copy of ``answer`` with ``change`` applied to the value at ``path``."""
    answer = copy.deepcopy(answer)
    if not path:
        return change(answer)
    parent = answer
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = change(parent[path[-1]])
    return answer


def with_undeclared_field(value: dict[str, Any]) -> dict[str, Any]:
    # An object as the value, so that a map (whose keys are free) refuses it too.
    return {**value, UNDECLARED: {UNDECLARED: True}}


def of_wrong_type(value: Any) -> Any:
    """A leaf of another JSON type: a number for a string, a list for null (a
    nullable leaf may be a number or a string), a string otherwise."""
    if value is None:
        return [7]
    return 7 if isinstance(value, str) else str(value).lower()


def mutations(answer: Any) -> Iterator[tuple[str, Any]]:
    for path, value in places(answer):
        where = "/" + "/".join(map(str, path))
        if isinstance(value, dict):
            yield f"an undeclared field in {where}", changed(answer, path, with_undeclared_field)
        elif not isinstance(value, list):
            yield f"{where} of the wrong type", changed(answer, path, of_wrong_type)


@pytest.mark.parametrize(("request_name", "schema", "answer"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_an_undeclared_field_or_a_wrong_type_anywhere_fails_the_schema(
    validators, request_name, schema, answer
):
    tried = 0
    for what, mutated in mutations(answer):
        assert not validators[schema].is_valid(mutated), f"{request_name}: {what} passes {schema}"
        tried += 1
    assert tried >= 2


def deepest_object(answer: Any) -> tuple[Any, ...]:
    return max((path for path, value in places(answer) if isinstance(value, dict)), key=len)


def first_leaf(answer: Any) -> tuple[Any, ...]:
    return next(path for path, value in places(answer) if not isinstance(value, dict | list))


#: How the fake service changes a saved answer, by the first segment of the path asked.
MODES = {
    "as-saved": lambda answer: answer,
    "undeclared-field": lambda answer: changed(answer, deepest_object(answer), with_undeclared_field),
    "wrong-type": lambda answer: changed(answer, first_leaf(answer), of_wrong_type),
}


def fake_service(examples: list[dict[str, Any]]) -> type[http.server.BaseHTTPRequestHandler]:
    """A handler answering ``/<mode>/<n>`` with the n-th example, changed by :data:`MODES`."""

    class FakeService(http.server.BaseHTTPRequestHandler):
        def answer(self) -> None:
            _, mode, index = self.path.split("/")
            example = examples[int(index)]
            body = json.dumps(MODES[mode](json.loads(example["body"]))).encode()
            self.send_response(example["code"])
            for header in example["header"]:
                self.send_header(header["key"], header["value"])
            self.send_header("X-Request-ID", "fake")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = answer

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: newman's report says what was asked."""

    return FakeService


@pytest.mark.server
def test_newman_fails_the_schema_test_on_an_undeclared_field_or_a_wrong_type(tmp_path):
    """Postman's own check (ajv in newman's sandbox) bites, not only Python's:
    a few requests whose answers have different schemas, each sent to a fake
    service that answers its saved example as saved, with an undeclared
    field in its deepest object, or with its first leaf of the wrong type."""
    node, script = tools.newman()
    chosen = [
        "Table presets",
        "Deal the shoe, checking the commitment",
        "Too few cards (422)",
        "A wrong method (405)",
    ]
    items = {item["name"]: item for item in request_items(COLLECTION["item"])}
    fake = copy.deepcopy(COLLECTION)
    fake["item"], examples = [], []
    for name in chosen:
        examples.append(items[name]["response"][0])
        for mode in MODES:
            item = copy.deepcopy(items[name])
            path = [mode, str(len(examples) - 1)]
            item["name"] = f"{name} [{mode}]"
            item["request"]["url"] = {
                "raw": "{{baseUrl}}/" + "/".join(path),
                "host": ["{{baseUrl}}"],
                "path": path,
            }
            fake["item"].append(item)
    (tmp_path / "fake.json").write_text(json.dumps(fake), encoding="utf-8")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), fake_service(examples))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        command = [node, str(script), "run", str(tmp_path / "fake.json"), "--reporters", "json"]
        command += ["--reporter-json-export", str(tmp_path / "report.json")]
        command += ["--env-var", f"baseUrl=http://127.0.0.1:{server.server_address[1]}"]
        subprocess.run(command, cwd=tools.ROOT, capture_output=True, text=True, timeout=120)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    run = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["run"]
    verdicts = {}
    for execution in run["executions"]:
        schema_tests = [a for a in execution["assertions"] if a["assertion"].startswith(SCHEMA_TEST)]
        assert len(schema_tests) == 1, execution["item"]["name"]
        verdicts[execution["item"]["name"]] = schema_tests[0].get("error", {}).get("message", "passed")
    assert len(verdicts) == len(chosen) * len(MODES)
    for name in chosen:
        assert verdicts[f"{name} [as-saved]"] == "passed"
        assert "should NOT have additional properties" in verdicts[f"{name} [undeclared-field]"], name
        assert "should be " in verdicts[f"{name} [wrong-type]"], name
