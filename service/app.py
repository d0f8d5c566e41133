"""The application factory: ``gunicorn 'service.app:create_app()'``."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from types import FunctionType
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from . import __version__
from .config import DEFAULTS, from_environment
from .web import access, docs, metrics
from .web.parsing import BodyLimit, loads
from .web.problems import ProblemApi
from .web.request_id import RequestId
from .web.views import health, odds, reference, roads, rounds, shoes

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


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON, reading numbers as Decimal and refusing NaN (see parsing)."""

    sort_keys = False

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)


class App(Flask):
    """Flask, remembering which functions it need not adapt for async.

    Flask asks ``inspect`` whether every hook and view is a coroutine
    function on every request; the answer never changes, so it is worked
    out once per function."""

    def __init__(self, import_name: str, **kwargs: Any) -> None:
        super().__init__(import_name, **kwargs)
        self._sync: dict[Callable[..., Any], Callable[..., Any]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if type(func) is not FunctionType:  # bound methods are new objects each time
            return super().ensure_sync(func)
        found = self._sync.get(func)
        if found is None:
            found = self._sync[func] = super().ensure_sync(func)
        return found


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: config from defaults, then the environment (or
    ``test_config``), then the API and its blueprints."""
    app = App(__name__)
    app.json = JSONProvider(app)
    app.config.from_mapping(DEFAULTS)
    app.config.update(from_environment(os.environ) if test_config is None else test_config)
    app.config.update(
        MAX_CONTENT_LENGTH=app.config["MAX_BODY_BYTES"],
        API_TITLE="Baccarat rules and settlement",
        API_VERSION=__version__,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION}, "security": [{access.SCHEME: []}]},
        **docs.SETTINGS,
    )
    api = ProblemApi(app)
    app.extensions["baccarat.api"] = api
    access.document(api.spec)
    for blueprint in (rounds.blp, shoes.blp, reference.blp, roads.blp, odds.blp, health.blp):
        api.register_blueprint(blueprint)
    api.register_blueprint(metrics.blp)
    docs.init_app(app)  # GET /docs, served offline
    access.init_app(app)
    app.wsgi_app = BodyLimit(app.wsgi_app, app.config["MAX_BODY_BYTES"])  # type: ignore[method-assign]
    metrics.init_app(app)  # counts every answer, 413s included
    app.wsgi_app = RequestId(app.wsgi_app)  # type: ignore[method-assign]  # outermost: ids on every answer
    return app
