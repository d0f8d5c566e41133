"""The committed openapi.yaml is what the code generates, and it is valid."""

from pathlib import Path

import yaml
from openapi_spec_validator import validate

from service.openapi import generate

COMMITTED = Path(__file__).parents[2] / "openapi.yaml"


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
