"""Property-based API tests generated from the OpenAPI document, in-process,
with every schemathesis check: no 500s, responses that match the schema,
documented status codes and content types, and negative data rejected."""

from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.generation import GenerationMode

from service.app import create_app

CONFIG = SchemathesisConfig.from_path(str(Path(__file__).parents[1] / "schemathesis.toml"))
# With an API key configured, so that the checks that calls without it are refused run too.
KEY = "schemathesis-key"
APP = create_app({"TESTING": True, "API_KEYS": (KEY,)})
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP, config=CONFIG)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case):
    case.call_and_validate(headers=credentials(case))


def credentials(case):
    """The API key, unless the case's own headers are the invalid part it
    tests (say, the ``Authorization`` its security requires, left out): a key
    added to such a case would make it valid, and its acceptance would then
    be taken for negative data accepted. Without the key the service refuses
    it (401), as it must."""
    header = case.meta.components.get("header") if case.meta is not None else None
    if header is not None and header.mode is GenerationMode.NEGATIVE:
        return {}
    return {"Authorization": f"Bearer {KEY}"}


@pytest.mark.parametrize("path", ["/v1/rounds", "/v1/settlements"])
def test_operations_are_covered(path):
    assert path in schema.raw_schema["paths"]
