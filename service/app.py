"""The application factory: ``gunicorn 'service.app:create_app()'``.

Everything a request needs is built here, before gunicorn forks a worker's
first request: the schemas (with their views), the answers' dumped table
presets, the metrics and the WSGI layers. Nothing is built on a request.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from typing import Any

from apispec.ext.marshmallow import resolver
from apispec.ext.marshmallow.common import resolve_schema_cls
from flask import Response, current_app
from flask.json.provider import JSONProvider
from flask_smorest.pagination import PaginationMetadataSchema
from werkzeug.exceptions import HTTPException

from . import __version__
from .api import access, deprecation, docs, landing, table
from .api.errors import OperationParameters, ProblemApi, ProblemMediaType, rules_problem
from .api.language import LanguageHeaders, Speaking
from .api.policy import Operations
from .api.services import ServiceApp, Services
from .api.views import audit, health, odds, reference, roads, rounds, sheets, shoes
from .baccarat.odds.exact import prepare_multiplier_games
from .baccarat.rulebook.errors import BaccaratError
from .baccarat.tables.catalogue import BUILT_IN
from .contract import document, jsonio
from .contract.language import Languages
from .contract.schemas.live import LIVE_FORMS, LiveRoundAnswerSchema
from .contract.schemas.minimal import MINIMAL_FORMS, AnswerForms
from .contract.schemas.peek import PEEK_FORMS, PeekAnswerSchema
from .contract.schemas.roads import RESULT_FORMS
from .contract.schemas.rules import MULTIPLIER_FORMS
from .provenance.build import check
from .server.config import DEFAULTS, from_environment
from .server.metrics import UNMATCHED, Metrics
from .server.middleware import wrap
from .server.signing import Signing, signing_key
from .server.tracing import tracing

log = logging.getLogger(__name__)

API_DESCRIPTION = """\
Baccarat (Punto Banco) rules and settlement, as a stateless service.

Send a card sequence (from a shoe or a scanner) or a seed (for an RNG game)
and bet slips; get back each hand's cards, draws and totals, the outcome and
an exact settlement. The same request always gives the same answer.

* Money is exact: amounts are decimal strings with the currency's minor-unit
  digits (2 by default). Stakes with more decimals, exponents, NaN or
  negative values are refused, never rounded. Commission is rounded by the
  table's `payout_rounding`, by default down (in the house's favour).
* Errors are RFC 9457 `application/problem+json` with field-level `errors`
  pointing (JSON Pointer) at the offending input.
"""


def schema_name(schema: Any) -> str | None:
    """A schema's component name: apispec's default (the class name less
    ``Schema``), except none for two schemas that must not become components.
    flask-smorest's pagination metadata: no operation is paginated, but
    flask-smorest declares the pagination header (lazily, so it appears only
    when an operation refers to it) with that schema, which apispec would
    otherwise add to the document's schemas unreferenced. And the live
    round's answer (and the peek round's, and the answers in either form,
    full or minimal), whose document is the ``oneOf`` its operation gives
    (service/api/views/rounds.py), not its own empty fields. A schema without
    a name is written inline where it is used, where those documents replace it."""
    kind = resolve_schema_cls(schema)
    if kind in (PaginationMetadataSchema, LiveRoundAnswerSchema, PeekAnswerSchema) or (
        isinstance(kind, type) and issubclass(kind, AnswerForms)
    ):
        return None
    return resolver(schema)


class OrjsonProvider(JSONProvider):
    """Flask's JSON, read and written as :mod:`service.contract.jsonio` does."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return jsonio.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return jsonio.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """The answer as JSON bytes, written once (``jsonify`` and
        flask-smorest's ``@blp.response`` call this)."""
        if args and kwargs:
            raise TypeError("pass positional or keyword arguments, not both")
        # As Flask's own provider reads its arguments: one value, several (a
        # list), keywords (an object), or none (null).
        obj = args[0] if len(args) == 1 else (args or kwargs or None)
        return current_app.response_class(jsonio.dumps(obj), mimetype=jsonio.JSON)


def create_app(test_config: Mapping[str, Any] | None = None) -> ServiceApp:
    """Build the app: config from defaults, then the environment (or
    ``test_config``), then the API, its blueprints and the WSGI layers.
    First the engine's files are checked against the digest the build
    claims (:class:`~.provenance.build.NotTheBuild` when they differ), which
    computes the digest every answer's ``engine`` names (under gunicorn the
    master did, before it forked this worker)."""
    check()
    app = ServiceApp(__name__, static_folder=None)  # no static route: the files it serves are its own views'
    # A path is the contract's or a 404 problem: werkzeug would otherwise answer a doubled
    # slash (/v1//tables) with its own HTML redirect.
    app.url_map.merge_slashes = False
    app.json = OrjsonProvider(app)
    app.config.from_mapping(DEFAULTS)
    app.config.update(from_environment(os.environ) if test_config is None else test_config)
    app.config.update(
        API_TITLE="Baccarat rules and settlement",
        API_VERSION=__version__,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        # The document's top level besides its title, version and paths.
        # ``servers``: first the service that served the document (relative,
        # OpenAPI's own default), which /docs "Try it out" calls, since Swagger
        # UI calls the first server and the page may call only its own origin;
        # then the local server of ``make run``, for generated clients.
        API_SPEC_OPTIONS={
            "info": {
                "description": API_DESCRIPTION,
                "contact": {"name": "Baccarat service maintainers"},
                "license": {"name": "Proprietary"},
            },
            "servers": [
                {"url": "/", "description": "The service that served this document"},
                {"url": "http://127.0.0.1:8000", "description": "make run"},
            ],
            "security": [{access.SCHEME: []}],
        },
        **docs.SETTINGS,
    )
    # apispec's type hint wants a str, but its documentation (and code)
    # take None as "write this schema inline": see schema_name.
    marshmallow_plugin = document.DocumentPlugin(schema_name_resolver=schema_name)  # type: ignore[arg-type]
    api = ProblemApi(
        app,
        spec_kwargs={
            "marshmallow_plugin": marshmallow_plugin,
            "extra_plugins": [ProblemMediaType(), LanguageHeaders(), OperationParameters()],
        },
    )
    app.register_error_handler(BaccaratError, rules_problem)
    access.document(api.spec)
    for blueprint in (
        rounds.blp,
        shoes.blp,
        reference.blp,
        sheets.blp,
        roads.blp,
        odds.blp,
        audit.blp,
        health.blp,
    ):
        api.register_blueprint(blueprint)
    # The schemas a ``oneOf`` refers to by name, which no view declares.
    for name, schema in {
        **RESULT_FORMS,
        **LIVE_FORMS,
        **PEEK_FORMS,
        **MULTIPLIER_FORMS,
        **MINIMAL_FORMS,
    }.items():
        api.spec.components.schema(name, schema=schema)
    docs.init_app(app)  # GET /docs, served offline
    table.init_app(app)  # GET /table, the reference table page
    landing.init_app(app)  # GET /, links to the rest
    operations = Operations.of(app, {**docs.POLICIES, **table.POLICIES})
    api_keys = access.init_app(app)
    deprecation.init_app(app, operations)  # Deprecation and Sunset on a deprecated operation's answers
    tables = BUILT_IN if app.config["TABLES"] is None else app.config["TABLES"].catalogue
    metrics = Metrics(tables)
    key = signing_key(app.config)
    languages = Languages.load()
    # The multiplier games' odds structure (POST /v1/odds) and their returns
    # for each full shoe (GET /v1/paytables), ready before any request asks
    # for them: under gunicorn the master made them before it forked this
    # worker (before_fork), and this returns at once.
    prepare_multiplier_games()
    endpoint_of = route_of(app)
    # None (no layer, no instrumentation) unless OTEL_EXPORTER_OTLP_ENDPOINT is set.
    traces = tracing(app.config, api.spec.to_dict(), endpoint_of)
    app.services = Services(
        metrics=metrics,
        api_keys=api_keys,
        openapi_yaml=api.spec.to_yaml(),
        signing=key,
        operations=operations,
        languages=languages,
        tables=tables,
        approved=app.config["APPROVED_TABLES_ONLY"],
        tracing=traces,
    )
    speaking = Speaking(app.wsgi_app, languages)
    app.wsgi_app = wrap(  # type: ignore[method-assign, assignment]
        Signing(speaking, key, operations.signs) if app.config["SIGN_ANSWERS"] else speaking,
        max_body_bytes=app.config["MAX_BODY_BYTES"],
        recorder=metrics,
        endpoint_of=endpoint_of,
        around=None if traces is None else traces.around,
    )
    return app


def before_fork() -> None:
    """What every worker would otherwise make for itself, made once in
    gunicorn's master before it forks them (``on_starting`` in
    gunicorn.conf.py): the app's modules are imported by importing this one
    (no app is built, and nothing made at import is random or per process:
    each worker still builds its own app, keys, metrics and RNGs), and the
    multiplier games' exact returns for each full shoe are counted, from the
    round structure shipped as data (service/baccarat/multipliers/odds.py),
    and the engine's files are hashed and checked against the build's claim
    (gunicorn.conf.py has refused to start already if they differ).
    A worker inherits all three and only builds its app."""
    check()
    prepare_multiplier_games()
    log_tables(from_environment(os.environ))


def log_tables(config: Mapping[str, Any]) -> None:
    """Say, once at start, which tables the service plays and whether a
    request may change them: each table of a tables file with its rules id
    and exact returns (computed when the file was read)."""
    loaded = config.get("TABLES")
    approved = config.get("APPROVED_TABLES_ONLY", False)
    mode = (
        "approved tables only: a request names a table and changes nothing of it"
        if approved
        else ("open: a request may send rules of its own (BACCARAT_APPROVED_TABLES_ONLY=true to refuse them)")
    )
    if loaded is None:
        log.info("tables: the %d built-in presets; %s", len(BUILT_IN), mode)
        return
    log.info("tables: %d from BACCARAT_TABLES_FILE; %s", len(loaded.catalogue), mode)
    for name, played in loaded.catalogue.items():
        returns = ", ".join(f"{bet} {figures.rtp}%" for bet, figures in loaded.returns[name].bets.items())
        log.info("table %s: rules %s, returns %s", name, played.rules.id, returns)


def route_of(app: ServiceApp) -> Any:
    """The route template a request matches (``unmatched`` when none), for
    the metrics. A route without variable parts (every API operation) is its
    own template, found by method and path in a table made here; any other
    request is matched by one adapter, bound when the app is built (the
    routes do not depend on the host)."""
    adapter = app.url_map.bind("service")
    static = {
        (method, rule.rule): rule.rule
        for rule in app.url_map.iter_rules()
        if not rule.arguments
        for method in rule.methods or ()
    }

    def endpoint_of(environ: dict[str, Any]) -> str:
        found = static.get((environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", "")))
        if found is not None:
            return found
        try:
            rule, _ = adapter.match(
                environ.get("PATH_INFO", "/"), environ.get("REQUEST_METHOD"), return_rule=True
            )
        except HTTPException:
            return UNMATCHED
        return str(rule.rule)

    return endpoint_of
