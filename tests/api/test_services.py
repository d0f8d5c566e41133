"""The app's services are reached by type: what create_app built, from any request."""

from __future__ import annotations

import yaml

from service.api.api_keys import ApiKeys
from service.api.services import ServiceApp, Services, services
from service.app import create_app
from service.server.metrics import Metrics


def test_create_app_gives_the_app_its_services():
    app = create_app({"TESTING": True, "API_KEYS": ()})
    assert isinstance(app, ServiceApp)
    assert isinstance(app.services, Services)
    assert isinstance(app.services.metrics, Metrics)
    assert isinstance(app.services.api_keys, ApiKeys)
    assert yaml.safe_load(app.services.openapi_yaml)["info"]["title"] == app.config["API_TITLE"]


def test_a_request_reaches_its_own_apps_services():
    first, second = create_app({"TESTING": True}), create_app({"TESTING": True})
    assert first.services is not second.services
    for app in (first, second):
        with app.test_request_context("/v1/rounds"):
            assert services() is app.services
