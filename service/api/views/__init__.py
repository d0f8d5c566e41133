"""Views: parse, call the engine, return. Nothing else.

Each view is declared the flask-smorest way: ``@blp.arguments(Schema)``
loads the JSON body with the request schema (whose ``post_load`` gives the
engine's own request object) and documents it; ``@blp.response(200,
Schema)`` dumps and documents the answer; ``@blp.doc(operationId=...)``
names the operation for generated clients (a rename breaks them, so the
names are pinned by tests/test_openapi.py) and, with
:meth:`Blueprint.operation`, documents the errors it may answer. The body is read by
:meth:`JsonParser.load_json` (this service's JSON rules, :mod:`..jsonio`),
webargs' public hook for it; a query by :meth:`JsonParser.load_querystring`,
which refuses a key given twice, and the query schema, which refuses an
unknown key (webargs would drop it: a misspelt ``deck=6`` would silently
answer for the default).

When the request is traced (service/server/tracing.py), reading it is one
step of its trace and writing its answer another; its span is given the
table preset it names and the id of its rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any, TypeVar

import flask
import flask_smorest
from marshmallow import Schema, ValidationError, fields
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

from ...baccarat.rulebook.errors import N_, Sentence
from ...baccarat.tables.rules import Rules
from ...contract.jsonio import InvalidJSON, loads
from ...contract.schemas.messages import FieldCode, Message
from ...contract.scope import scope
from ...server.tracing import READ, note, step, traced, written
from ..policy import Policy, declare

View = TypeVar("View", bound=Callable[..., Any])

#: What reading a JSON body may answer (:meth:`JsonParser.load_json` and the body
#: limit in service/server/middleware.py) before the schema sees it: 400, 413,
#: 415. ``@blp.arguments`` documents the schema's own 422.
BODY = (HTTPStatus.BAD_REQUEST, HTTPStatus.REQUEST_ENTITY_TOO_LARGE, HTTPStatus.UNSUPPORTED_MEDIA_TYPE)


class JsonParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies and queries by this service's rules."""

    #: What webargs says of a value its own validators refuse (a coded message, as every field error).
    DEFAULT_VALIDATION_MESSAGE = Message.awaiting(FieldCode.INVALID_VALUE)

    def parse(self, argmap: Any, req: Any = None, **kwargs: Any) -> Any:
        """webargs' parse (the body or query read and loaded by its schema), as
        the step "read request" of a traced request, whose rules id it notes;
        an untraced request (every one, with traces off) is just parsed."""
        if not traced():
            return super().parse(argmap, req, **kwargs)
        with step(READ):
            loaded = super().parse(argmap, req, **kwargs)
        rules = getattr(loaded, "rules", None)
        if isinstance(rules, Rules):
            note(rules_id=rules.id)
        return loaded

    def load_querystring(self, req: flask.Request, schema: Schema) -> Any:
        """The query's keys; one given more than once, where the schema takes
        one value, is a 422 at that key rather than a silent choice of one."""
        repeated = {
            key: [Message.of(FieldCode.GIVEN_TWICE, times=len(values))]
            for key, values in req.args.lists()
            if len(values) > 1 and not isinstance(schema.fields.get(key), fields.List)
        }
        if repeated:
            raise ValidationError(repeated)
        note_table(req.args, schema)
        return super().load_querystring(req, schema)

    def load_json(self, req: flask.Request, schema: Schema) -> Any:
        """The request's JSON body. Anything but an uncompressed JSON body is a
        415; an empty or unreadable one a 400."""
        if not req.is_json:
            kind = req.mimetype or "none"
            raise UnsupportedMediaType(
                Sentence.of(N_("Send the body as application/json (Content-Type: {kind})"), kind=kind)
            )
        encoding = req.headers.get("Content-Encoding", "identity").strip().lower()
        if encoding != "identity":
            raise UnsupportedMediaType(N_("Send the body uncompressed: no Content-Encoding is accepted"))
        body = json_body(req.get_data(cache=False))
        note_table(body, schema)
        return body


def note_table(data: Any, schema: Schema) -> None:
    """On a traced request's span, the table preset the request names, or the
    one its schema takes by default: only a preset's name, never other text."""
    field = schema.fields.get("table")
    if field is None or not traced():
        return
    name = data.get("table", scope().tables.default) if isinstance(data, Mapping) else None
    if isinstance(name, str) and name in scope().tables:
        note(table=name)


def json_body(data: bytes) -> Any:
    """A request body's JSON, by this service's rules (:mod:`...contract.jsonio`);
    a 400 for an empty or unreadable one."""
    if not data.strip():
        raise BadRequest(N_("The request body is empty: send a JSON object"))
    try:
        return loads(data)
    except InvalidJSON as error:
        raise BadRequest(error.reason) from None


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint, reading bodies with :class:`JsonParser`."""

    #: ``unknown=None``: every location's unknown keys are left to the schema,
    #: which refuses them (a body's, and a query's that webargs would drop).
    ARGUMENTS_PARSER = JsonParser(unknown=None)

    def response(self, status_code: int, schema: Any = None, **kwargs: Any) -> Callable[[View], View]:
        """flask-smorest's ``@blp.response``, with the answer's writing (its dump
        by ``schema``, then JSON) the step "write answer" of a traced request."""
        return written(super().response(status_code, schema, **kwargs))

    def operation(
        self, operation_id: str, *problems: int, policy: Policy, **doc: Any
    ) -> Callable[[View], View]:
        """Name the operation for generated clients, state its ``policy``
        (:mod:`..policy`: public or keyed, signed, replayed), and document
        that it may answer each status of ``problems`` with a problem: a
        reference to the shared response flask-smorest registers under the
        status's :class:`http.HTTPStatus` name, whose content is
        ``application/problem+json`` (:mod:`..errors`). A keyed operation
        may also answer 401; a public one says ``security: []``. ``doc`` may
        add responses of its own, such as an answer of several forms. One
        ``@blp.doc``: flask-smorest wraps the view once per decorator."""
        statuses = problems if policy.public else (HTTPStatus.UNAUTHORIZED, *problems)
        responses = {str(int(status)): HTTPStatus(status).name for status in statuses}
        responses.update(doc.pop("responses", {}))
        if policy.public:
            doc["security"] = []
        if policy.sunset is not None:
            doc["deprecated"] = True
        document: Callable[[View], View] = self.doc(operationId=operation_id, responses=responses, **doc)

        def decorate(view: View) -> View:
            return declare(policy)(document(view))

        return decorate
