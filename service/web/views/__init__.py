"""Views: parse, call the engine, return. Nothing else.

flask-smorest documents every operation from the marshmallow schemas given
to ``@blp.arguments`` and ``@blp.response`` (the OpenAPI document is built
from them and nothing else). At run time its wrappers add a generic layer
per request -- webargs' location machinery, tuple unpacking, an app-context
store for ETags -- that this service does not use and that cost as much as
dealing a round (docs/performance.md). :class:`Blueprint` therefore keeps
flask-smorest's documentation and runs the same schemas directly:

* a JSON body is read by :func:`service.web.parsing.read_json_body` and
  loaded by the schema; invalid input is answered exactly as webargs would
  (a 422 whose ``messages`` the problem handler turns into ``errors``);
* what the view returns is dumped by the response schema and encoded by
  :func:`service.web.encoding.json_response`; a view that returns a
  ``Response`` (``/metrics``) sends it as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import flask_smorest
from flask import Response, request
from flask_smorest.utils import resolve_schema_instance, unpack_tuple_response
from marshmallow import Schema, ValidationError
from webargs.flaskparser import abort

from ..encoding import json_response
from ..parsing import JsonParser, read_json_body
from ..schemas.compiled import FALLBACK, FastSchema

View = Callable[..., Any]


def load_or_abort(schema: Schema, data: Any) -> Any:
    """``schema.load(data)``, or the 422 webargs would raise."""
    if isinstance(schema, FastSchema):
        loaded = schema.fast_load(data)
        if loaded is not FALLBACK:
            return loaded
    try:
        return schema.load(data)
    except ValidationError as error:
        abort(422, exc=error, messages={"json": error.messages}, schema=schema, headers=None)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint: its documentation, a lean runtime."""

    ARGUMENTS_PARSER = JsonParser()

    def arguments(self, schema: Any, *, location: str = "json", **kwargs: Any) -> Callable[[View], View]:
        """Document ``schema`` as the request body and load the body with it."""
        document: Callable[[View], View] = super().arguments(schema, location=location, **kwargs)
        if location != "json" or set(kwargs) - {"example", "examples", "description", "required"}:
            return document  # not used by this service: flask-smorest's own runtime
        instance = resolve_schema_instance(schema)

        def decorator(view: View) -> View:
            @wraps(view)
            def with_body(*args: Any, **kw: Any) -> Any:
                body = read_json_body(request._get_current_object())  # type: ignore[attr-defined]
                return view(*args, load_or_abort(instance, body), **kw)

            with_body._apidoc = document(view)._apidoc  # type: ignore[attr-defined]
            return with_body

        return decorator

    def response(self, status_code: int, schema: Any = None, **kwargs: Any) -> Callable[[View], View]:
        """Document the answer and dump what the view returns with ``schema``."""
        document: Callable[[View], View] = super().response(status_code, schema, **kwargs)
        instance = resolve_schema_instance(schema) if isinstance(schema, type | Schema) else None
        dump: Callable[[Any], Any] | None = None
        if instance is not None:
            single = isinstance(instance, FastSchema) and not instance.many
            dump = instance.fast_dump if single else instance.dump

        def decorator(view: View) -> View:
            @wraps(view)
            def answer(*args: Any, **kw: Any) -> Any:
                result, status, headers = unpack_tuple_response(view(*args, **kw))
                if isinstance(result, Response):
                    return result
                data = result if dump is None else dump(result)
                return json_response(data, status or status_code, headers)

            answer._apidoc = document(view)._apidoc  # type: ignore[attr-defined]
            return answer

        return decorator
