"""GET /docs: Swagger UI over the served OpenAPI document, entirely offline.

flask-smorest renders the page (``OPENAPI_SWAGGER_UI_*`` settings below);
the Swagger UI files come from the ``swagger-ui-bundle`` package and are
served by this service under ``/docs/assets/``, so the page works on a
network with no way out. Two more things keep it from reaching outside:

* Swagger UI shows a badge from an online validator unless ``validatorUrl``
  is null;
* the page is sent with a Content-Security-Policy that lets the browser
  load scripts, styles, images and API calls from this service only.

The page and its assets need no API key (see :mod:`.access`): they are the
published contract, like ``/openapi.json``, which the page reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import swagger_ui_bundle
from flask import Blueprint, Flask, Response, abort, request, send_from_directory

from .policy import PUBLIC, Policy

PAGE_PATH = "/docs"
ASSETS_PATH = "/docs/assets"
PAGE_ENDPOINT = "api-docs.openapi_swagger_ui"
ASSET_ENDPOINT = "docs.asset"
#: The page, its files and the document as JSON (flask-smorest's view) are
#: the published contract: answered without a key (:mod:`.policy`).
POLICIES: dict[str, Policy] = {PAGE_ENDPOINT: PUBLIC, ASSET_ENDPOINT: PUBLIC, "api-docs.openapi_json": PUBLIC}
ASSETS = Path(str(swagger_ui_bundle.swagger_ui_path))
#: The only files the page loads; anything else under /docs/assets/ is a 404.
ASSET_NAMES = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"})
#: Seconds a browser may keep an asset: they change only with the package.
ASSET_MAX_AGE = 86_400
#: Everything from this service; inline script and style because the page
#: and Swagger UI use them; ``data:`` images for Swagger UI's icons.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

#: flask-smorest's settings for the page (merged into the app's config before the Api is made).
SETTINGS: dict[str, Any] = {
    "OPENAPI_SWAGGER_UI_PATH": PAGE_PATH,
    "OPENAPI_SWAGGER_UI_URL": ASSETS_PATH + "/",
    "OPENAPI_SWAGGER_UI_CONFIG": {
        "validatorUrl": None,
        "displayRequestDuration": True,
        "docExpansion": "list",
        "tryItOutEnabled": False,
    },
}

blp = Blueprint("docs", __name__, url_prefix=ASSETS_PATH)


@blp.get("/<name>")
def asset(name: str) -> Response:
    """One Swagger UI file from the installed ``swagger-ui-bundle``."""
    if name not in ASSET_NAMES:
        abort(404)
    return send_from_directory(ASSETS, name, max_age=ASSET_MAX_AGE)


def content_policy(response: Response) -> Response:
    """``after_request``: the page may load nothing from outside this service
    (every other answer passes unchanged)."""
    if request.endpoint == PAGE_ENDPOINT:
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["Cache-Control"] = "no-cache"
    return response


def init_app(app: Flask) -> None:
    """Serve the assets and guard the page (the Api, made with :data:`SETTINGS`, serves the page)."""
    app.register_blueprint(blp)
    # The page is flask-smorest's own view, on no blueprint of ours: the hook
    # is the app's, and looks at the endpoint (one comparison per answer).
    app.after_request(content_policy)
