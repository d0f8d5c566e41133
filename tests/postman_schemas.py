"""openapi.yaml's answer schemas in the Postman collection, for a check on every request.

Postman checks an answer against a schema with ``pm.response.to.have.jsonSchema``,
which runs ajv 6: JSON Schema draft-07, not OpenAPI 3.0's dialect of it. So
the answer schemas are converted (``nullable``, ``$ref`` to components, the
boolean ``exclusiveMinimum``, OpenAPI-only keywords) and embedded, all in one
collection variable, ``answerSchemas``, as ``definitions``. Every object
schema that does not say what else it takes is closed (``additionalProperties:
false``) here even where openapi.yaml leaves it open, so an undeclared field
in an answer fails the check.

Each request's test script ends with a generated test, between two marker
lines, that picks the schema openapi.yaml gives its operation for the status
it answered and checks the whole answer against it. A path or method the
service does not route answers the service-wide problem document.

Written by ``make postman`` (tests/postman_build.py); tests/test_postman_schemas.py
fails when the collection holds anything else than this would write now.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

SCHEMAS_VARIABLE = "answerSchemas"
BEGIN = (
    "// >>> make postman: the whole answer against its schema in openapi.yaml (edit that, not these lines)"
)
END = "// <<< make postman"
#: The generated test's title, before the operation it names.
SCHEMA_TEST = "the whole answer matches its schema in openapi.yaml"
#: The "operation" of a request the service does not route (an unknown path, a wrong method).
UNROUTED = "any unrouted request"
COMPONENTS = "#/components/schemas/"
DEFINITIONS = "#/definitions/"
JSON_MEDIA = re.compile(r"^application/([\w.-]+\+)?json$")

#: Keywords OpenAPI 3.0 shares with draft-07, with the same meaning there.
SHARED = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "enum",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "minItems",
        "maxItems",
        "uniqueItems",
        "multipleOf",
        "minProperties",
        "maxProperties",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "format",
    }
)
#: Keywords that only describe or document: a check has no use for them.
ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "example",
        "default",
        "deprecated",
        "readOnly",
        "writeOnly",
        "externalDocs",
        "xml",
    }
)
#: Formats ajv 6 knows (an unknown one stops it compiling the schema).
DRAFT7_FORMATS = frozenset({"date-time", "date", "time", "email", "hostname", "ipv4", "ipv6", "uri", "uuid"})
#: OpenAPI's own formats: sizes and encodings that draft-07 does not check.
OPENAPI_FORMATS = frozenset({"int32", "int64", "float", "double", "byte", "binary", "password"})


def json_schema(schema: dict[str, Any], where: str) -> dict[str, Any]:
    """An OpenAPI 3.0 schema as JSON Schema draft-07, every object closed.

    ``where`` names the schema in the error raised for a keyword with no
    conversion here, so that a new one is a decision, not a silent gap.

    >>> json_schema({"type": "string", "nullable": True, "enum": ["red", None], "example": "red"}, "Mark")
    {'type': ['string', 'null'], 'enum': ['red', None]}
    >>> json_schema({"properties": {"n": {"type": "integer", "minimum": 0, "exclusiveMinimum": True}}}, "N")
    {'properties': {'n': {'type': 'integer', 'exclusiveMinimum': 0}}, 'additionalProperties': False}
    >>> json_schema({"$ref": "#/components/schemas/Seed", "description": "ignored beside $ref"}, "Round.seed")
    {'$ref': '#/definitions/Seed'}
    >>> json_schema({"type": "string", "discriminator": {}}, "Odd")
    Traceback (most recent call last):
    ...
    ValueError: Odd: no JSON Schema conversion for the OpenAPI keyword 'discriminator'
    """
    if "$ref" in schema:  # OpenAPI 3.0 ignores every keyword beside a $ref
        return {"$ref": DEFINITIONS + component_name(schema["$ref"], where)}
    if schema == {"type": "object", "nullable": True}:
        # apispec's "or null" beside a $ref in OpenAPI 3.0 (anyOf: [this, {$ref}]);
        # read as written it would let any object through.
        return {"type": "null"}
    converted: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ANNOTATIONS or key.startswith("x-") or key == "nullable":
            continue
        if key not in SHARED:
            raise ValueError(f"{where}: no JSON Schema conversion for the OpenAPI keyword {key!r}")
        if key == "properties":
            converted[key] = {name: json_schema(sub, f"{where}.{name}") for name, sub in value.items()}
        elif key in ("items", "not") or (key == "additionalProperties" and isinstance(value, dict)):
            converted[key] = json_schema(value, f"{where}.{key}")
        elif key in ("allOf", "anyOf", "oneOf"):
            converted[key] = [json_schema(sub, f"{where}.{key}[{i}]") for i, sub in enumerate(value)]
        elif key in ("exclusiveMinimum", "exclusiveMaximum"):
            # OpenAPI 3.0: a flag on minimum or maximum; draft-07: the bound itself.
            bound = "minimum" if key == "exclusiveMinimum" else "maximum"
            if value:
                converted[key] = schema[bound]
        elif key == "format":
            if value in DRAFT7_FORMATS:
                converted[key] = value
            elif value not in OPENAPI_FORMATS:
                raise ValueError(f"{where}: no JSON Schema conversion for the format {value!r}")
        else:
            converted[key] = value
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if flag in converted:
            converted.pop(bound, None)
    if (
        "properties" in converted or converted.get("type") == "object"
    ) and "additionalProperties" not in converted:
        converted["additionalProperties"] = False  # an object takes what it lists, and nothing else
    if schema.get("nullable"):
        # OpenAPI 3.0.3: null is allowed, but an enum must still list it to accept it.
        kind = converted.get("type")
        if isinstance(kind, str):
            converted["type"] = [kind, "null"]
        else:
            converted = {"anyOf": [converted, {"type": "null"}]}
    return converted


def component_name(reference: str, where: str) -> str:
    if not reference.startswith(COMPONENTS):
        raise ValueError(f"{where}: a $ref outside {COMPONENTS}: {reference}")
    return reference.removeprefix(COMPONENTS)


def references(schema: Any) -> Iterator[str]:
    """The component names a converted schema refers to, directly."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str):
                yield value.removeprefix(DEFINITIONS)
            else:
                yield from references(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from references(value)


def schema_root(definitions: dict[str, Any], name: str) -> dict[str, Any]:
    """The schema a request's generated test hands to ``jsonSchema``: the same in Python."""
    return {"$ref": DEFINITIONS + name, "definitions": definitions}


@dataclass(frozen=True)
class Answers:
    """What openapi.yaml says one operation answers: a definition name per
    status (``"default"`` for any other), None for an answer that is not JSON."""

    operation: str
    schemas: dict[str, str | None]

    def schema_for(self, status: int) -> str | None:
        return self.schemas.get(str(status), self.schemas.get("default"))


class Contract:
    """openapi.yaml's answers: their schemas as draft-07 ``definitions``, and
    which operation answers which request of the collection."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.inline: dict[str, dict[str, Any]] = {}
        self.operations: dict[tuple[str, tuple[str, ...]], Answers] = {}
        for path, operations in spec["paths"].items():
            for method, operation in operations.items():
                if not isinstance(operation, dict) or "responses" not in operation:
                    continue  # parameters or a summary shared by the path's operations
                name = operation["operationId"]
                schemas = {
                    status: self.answer_schema(response, f"{name} {status}")
                    for status, response in operation["responses"].items()
                }
                self.operations[method.upper(), tuple(path.strip("/").split("/"))] = Answers(name, schemas)
        # What the service answers a request it does not route: every
        # operation's ``default``, the problem document.
        error = spec["components"]["responses"]["DEFAULT_ERROR"]
        self.unrouted = Answers(UNROUTED, {"default": self.answer_schema(error, "DEFAULT_ERROR")})
        self.definitions = self.reachable()

    def answer_schema(self, response: dict[str, Any], where: str) -> str | None:
        """The definition name of a response's JSON body (an inline schema gets one), or None."""
        if "$ref" in response:
            response = self.spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
        media = [schema for kind, schema in response.get("content", {}).items() if JSON_MEDIA.match(kind)]
        if not media:
            return None
        schema = media[0]["schema"]
        if set(schema) == {"$ref"}:
            return component_name(schema["$ref"], where)
        name = where.replace(" ", ".")
        self.inline[name] = schema
        return name

    def reachable(self) -> dict[str, Any]:
        """Every schema an answer can hold, converted, by name."""
        components = self.spec["components"]["schemas"]
        wanted = [
            name
            for answers in [*self.operations.values(), self.unrouted]
            for name in answers.schemas.values()
        ]
        definitions: dict[str, Any] = {}
        while wanted:
            name = wanted.pop()
            if name is None or name in definitions:
                continue
            source = self.inline[name] if name in self.inline else components[name]
            definitions[name] = json_schema(source, name)
            wanted.extend(references(definitions[name]))
        return dict(sorted(definitions.items()))

    def answers_of(self, item: dict[str, Any]) -> Answers | None:
        """The operation that answers a request item, ``unrouted`` for none,
        or None for a request that is not to the API (the metrics' port)."""
        url = item["request"]["url"]
        if url["host"] != ["{{baseUrl}}"]:
            return None
        segments = tuple(url["path"])
        for (method, template), answers in self.operations.items():
            if method == item["request"]["method"] and matches(template, segments):
                return answers
        return self.unrouted

    def checked(self, item: dict[str, Any]) -> Answers | None:
        """The answers a request's test checks against, judged by its saved
        example, or None when openapi.yaml describes no JSON answer for it:
        the metrics, the YAML document, the pages the service serves but
        does not document (GET /openapi.json, GET /docs), and the answers
        that are not JSON (the roads as a picture)."""
        answers = self.answers_of(item)
        examples = item.get("response") or []
        if answers is None or not examples or not json_answer(examples[0]):
            return None
        status = examples[0]["code"]
        if answers is self.unrouted and status < 400:
            return None
        return answers if answers.schema_for(status) is not None else None


def json_answer(example: dict[str, Any]) -> bool:
    """Whether a saved example is JSON (``application/json`` or a ``+json`` type)."""
    kind = next((h["value"] for h in example["header"] if h["key"].lower() == "content-type"), "")
    media = kind.split(";")[0].strip()
    return media == "application/json" or media.endswith("+json")


def matches(template: tuple[str, ...], segments: tuple[str, ...]) -> bool:
    """``("v1", "shoes", "{id}")`` matches ``("v1", "shoes", "7")``."""
    return len(template) == len(segments) and all(
        t == s or (t.startswith("{") and t.endswith("}")) for t, s in zip(template, segments, strict=True)
    )


def schema_test(answers: Answers) -> list[str]:
    """The generated lines of a request's test script for ``answers``."""
    default = answers.schemas.get("default")
    statuses = {
        status: name for status, name in answers.schemas.items() if status == "default" or name != default
    }
    where = answers.operation if answers.operation == UNROUTED else f"{answers.operation}'s answer"
    return [
        BEGIN,
        f'pm.test("{SCHEMA_TEST} ({where})", function () {{',
        f"    const schemas = {json.dumps(statuses, sort_keys=True)};",
        "    const status = String(pm.response.code);",
        '    const name = status in schemas ? schemas[status] : schemas["default"];',
        '    pm.expect(name, "openapi.yaml\'s JSON schema for status " + status).to.be.a("string");',
        f'    const definitions = JSON.parse(pm.collectionVariables.get("{SCHEMAS_VARIABLE}"));',
        '    pm.response.to.have.jsonSchema({$ref: "#/definitions/" + name, definitions: definitions});',
        "});",
        END,
    ]


def without_schema_test(lines: list[str]) -> list[str]:
    """A script's lines less the generated ones."""
    if BEGIN not in lines:
        return list(lines)
    start = lines.index(BEGIN)
    return lines[:start] + lines[lines.index(END, start) + 1 :]


def with_schemas(collection: dict[str, Any], contract: Contract) -> dict[str, Any]:
    """``collection`` with its ``answerSchemas`` variable and every request's
    schema test as ``contract`` has them (the requests' examples decide which
    requests are checked: see :meth:`Contract.checked`)."""
    collection = copy.deepcopy(collection)
    variables = [v for v in collection.get("variable", []) if v["key"] != SCHEMAS_VARIABLE]
    variables.append(
        {
            "key": SCHEMAS_VARIABLE,
            "value": json.dumps(contract.definitions, sort_keys=True, separators=(",", ":")),
            "type": "string",
            "description": "openapi.yaml's answer schemas as JSON Schema draft-07, every object closed, "
            "read by each request's schema test. Written by `make postman`: do not edit.",
        }
    )
    collection["variable"] = variables
    for item in request_items(collection["item"]):
        answers = contract.checked(item)
        events = item.setdefault("event", [])
        tests = next((event for event in events if event["listen"] == "test"), None)
        if tests is None:
            if answers is None:
                continue
            tests = {"listen": "test", "script": {"type": "text/javascript", "exec": []}}
            events.append(tests)
        lines = without_schema_test(tests["script"]["exec"])
        tests["script"]["exec"] = lines + (schema_test(answers) if answers is not None else [])
    return collection


def request_items(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every request item of a collection, folders flattened, in run order."""
    found = []
    for item in items:
        found.extend(request_items(item["item"]) if "item" in item else [item])
    return found
