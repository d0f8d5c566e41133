"""The app factory: everything a request needs is built by create_app, nothing at import."""

from __future__ import annotations

import subprocess
import sys

import pytest

from service.app import create_app, route_of
from service.server.metrics import UNMATCHED

from .tools import ROOT


def test_importing_the_package_builds_no_app():
    script = "import service.app, gc, flask; print(sum(isinstance(o, flask.Flask) for o in gc.get_objects()))"
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_each_call_builds_its_own_app():
    assert create_app({"TESTING": True}) is not create_app({"TESTING": True})


@pytest.mark.parametrize(
    ("method", "path", "route"),
    [
        ("POST", "/v1/rounds", "/v1/rounds"),
        ("GET", "/v1/tables", "/v1/tables"),
        ("GET", "/v1/rounds/12345", UNMATCHED),
        ("DELETE", "/v1/rounds", UNMATCHED),
    ],
)
def test_a_request_is_counted_under_its_route_template(method, path, route):
    endpoint_of = route_of(create_app({"TESTING": True}))
    assert endpoint_of({"PATH_INFO": path, "REQUEST_METHOD": method}) == route


def test_the_answers_are_json_bytes_written_once(client):
    answer = client.post("/v1/rounds", json={"cards": ["9S", "KH", "2D", "7C", "5H"]})
    assert answer.mimetype == "application/json"
    assert answer.get_data().startswith(b'{"table":"standard","complete":true,')


@pytest.mark.parametrize(
    ("args", "kwargs", "body"),
    [((), {}, b"null"), (({"a": 1},), {}, b'{"a":1}'), ((1, 2), {}, b"[1,2]"), ((), {"a": 1}, b'{"a":1}')],
)
def test_jsonify_reads_its_arguments_as_flask_does(app, args, kwargs, body):
    from flask import jsonify

    with app.app_context():
        assert jsonify(*args, **kwargs).get_data() == body
