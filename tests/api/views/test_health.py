"""GET /livez, GET /readyz and GET /openapi.yaml: answered without a key, by the app itself."""

from __future__ import annotations

import pytest
import yaml

from service.app import create_app

KEYED = {"TESTING": True, "API_KEYS": ("a-key-of-sixteen-chars",)}


@pytest.mark.parametrize("path", ["/livez", "/readyz"])
def test_a_probe_answers_ok_without_a_key(path):
    answer = create_app(KEYED).test_client().get(path)
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "ok"}


def test_the_document_is_the_one_the_app_was_built_with():
    app = create_app(KEYED)
    answer = app.test_client().get("/openapi.yaml")
    assert answer.status_code == 200
    assert answer.mimetype == "application/yaml"
    assert answer.get_data(as_text=True) == app.services.openapi_yaml
    assert yaml.safe_load(answer.get_data(as_text=True))["openapi"].startswith("3.")
