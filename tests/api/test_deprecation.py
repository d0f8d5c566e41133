"""A deprecated operation is marked in the OpenAPI document and announced on
every answer by the Deprecation, Sunset and Link headers; nothing is
deprecated in this release (docs/reference/versioning.md)."""

from __future__ import annotations

from datetime import UTC, datetime

import flask_smorest
import pytest
from flask import Flask, abort

from service.api import deprecation
from service.api.policy import PUBLIC, Operations, Policy, Sunset, declare
from service.api.views import Blueprint
from service.app import create_app

NOTICE = Sunset(datetime(2027, 1, 4, tzinfo=UTC), datetime(2027, 7, 6, tzinfo=UTC), "/v2/rounds")
OLD = Policy(public=True, sunset=NOTICE)


@pytest.fixture(scope="module")
def app() -> Flask:
    """Two routes, one of them deprecated, one failing, as a service declares them."""
    app = Flask(__name__)

    @app.get("/old")
    @declare(OLD)
    def old() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/old/failing")
    @declare(OLD)
    def failing() -> None:
        abort(422)

    @app.get("/current")
    @declare(PUBLIC)
    def current() -> dict[str, str]:
        return {"status": "ok"}

    app.view_functions["static"] = declare(PUBLIC)(app.view_functions["static"])
    deprecation.init_app(app, Operations.of(app, {}))
    return app


@pytest.mark.parametrize(("path", "status"), [("/old", 200), ("/old/failing", 422)])
def test_every_answer_of_a_deprecated_operation_announces_it(app, path, status):
    answer = app.test_client().get(path)
    assert answer.status_code == status
    assert answer.headers["Deprecation"] == "@1799020800"
    assert answer.headers["Sunset"] == "Tue, 06 Jul 2027 00:00:00 GMT"
    assert answer.headers["Link"] == '</v2/rounds>; rel="successor-version"'


def test_other_answers_say_nothing_of_it(app):
    answer = app.test_client().get("/current")
    assert answer.status_code == 200
    assert "Deprecation" not in answer.headers
    assert "Sunset" not in answer.headers


def test_the_openapi_document_marks_the_operation_deprecated():
    app = Flask(__name__)
    app.config.update(API_TITLE="t", API_VERSION="1", OPENAPI_VERSION="3.0.3")
    api = flask_smorest.Api(app)
    blp = Blueprint("old", __name__)

    @blp.get("/old")
    @blp.operation("getOld", policy=OLD)
    @blp.response(200)
    def old() -> dict[str, str]:
        return {}

    api.register_blueprint(blp)
    assert api.spec.to_dict()["paths"]["/old"]["get"]["deprecated"] is True


def test_a_sunset_sooner_than_six_months_is_refused():
    with pytest.raises(ValueError, match="six months"):
        Sunset(datetime(2027, 1, 4, tzinfo=UTC), datetime(2027, 6, 30, tzinfo=UTC))


def test_nothing_is_deprecated_in_this_release():
    app = create_app({})
    assert [rule for _, rule, _, policy in app.services.operations if policy.sunset is not None] == []
    document = app.test_client().get("/openapi.json").get_json()
    operations = [operation for item in document["paths"].values() for operation in item.values()]
    flagged = [operation["operationId"] for operation in operations if operation.get("deprecated")]
    assert flagged == []
    assert "Deprecation" not in app.test_client().get("/v1/rules").headers
