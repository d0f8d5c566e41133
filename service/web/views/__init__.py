"""Views: parse, call the engine, return. Nothing else.

Each view is declared the flask-smorest way: ``@blp.arguments(Schema)``
loads the JSON body with the request schema (whose ``post_load`` gives the
engine's own request object) and documents it; ``@blp.response(200,
Schema)`` dumps and documents the answer. The body is read by
:func:`read_json_body` (this service's JSON rules, :mod:`..jsonio`), which
webargs calls through its public ``load_json`` hook.
"""

from __future__ import annotations

from typing import Any

import flask
import flask_smorest
from marshmallow import Schema
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

from ..jsonio import InvalidJSON, loads


def read_json_body(request: flask.Request) -> Any:
    """The request's JSON body. Anything but an uncompressed JSON body is a
    415; an empty or unreadable one a 400."""
    if not request.is_json:
        kind = request.mimetype or "none"
        raise UnsupportedMediaType(f"Send the body as application/json (Content-Type: {kind})")
    encoding = request.headers.get("Content-Encoding", "identity").strip().lower()
    if encoding != "identity":
        raise UnsupportedMediaType("Send the body uncompressed: no Content-Encoding is accepted")
    data = request.get_data(cache=False)
    if not data.strip():
        raise BadRequest("The request body is empty: send a JSON object")
    try:
        return loads(data)
    except InvalidJSON as error:
        raise BadRequest(str(error)) from None


class JsonParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with :func:`read_json_body`."""

    def load_json(self, req: flask.Request, schema: Schema) -> Any:
        return read_json_body(req)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint, reading bodies with :class:`JsonParser`."""

    ARGUMENTS_PARSER = JsonParser()
