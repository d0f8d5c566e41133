"""GET /table: the reference table, a play-money client of the public API.

The page is plain HTML, CSS and JavaScript modules shipped in this package
(``static/table/``) and served by this service: no build step, no CDN, no
network beyond the service. It calls the API as an integrator would
(``GET /v1/tables``, ``POST /v1/seeds``, ``POST /v1/shoes``,
``POST /v1/rounds``, ``POST /v1/roads``) and decides nothing of the game:
the service deals, settles and draws the roads; the page only adds up the
amounts the service answers into a play-money balance.

Every file is read once, when the app is made, and served from memory under
a path that holds a digest of them all (``/table/assets/<digest>/<name>``),
so a browser may keep them for a year and a release that changes one is new
URLs; the page itself is revalidated on every visit (``no-cache`` with an
ETag) so that it always names the current digest. An old digest is a 404.

The page carries a Content-Security-Policy that lets it load and call this
service only, run no inline script or style, show pictures only from the
service or from ``blob:`` URLs (the roads, fetched from the API), and write
no HTML from strings (Trusted Types with no policy). The page and its files
need no API key (:mod:`.access`): they hold no data; the API calls the page
makes do, and the page asks for a key when the service answers 401.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from flask import Blueprint, Flask, Response, abort, current_app, request

from .policy import PUBLIC, Policy

PAGE_PATH = "/table"
ASSETS_PATH = "/table/assets"
PAGE_ENDPOINT = "table.page"
ASSET_ENDPOINT = "table.asset"
#: The page and its files hold no data: answered without a key (:mod:`.policy`).
POLICIES: Mapping[str, Policy] = MappingProxyType({PAGE_ENDPOINT: PUBLIC, ASSET_ENDPOINT: PUBLIC})
#: The page's files: the page itself and everything it loads.
FILES = Path(__file__).parent / "static" / "table"
PAGE_FILE = "index.html"
#: Written in the page wherever it names one of its files; replaced, when the
#: app is made, by the URL of the files' folder (digest included).
ASSETS_MARKER = "{{assets}}"
#: The media types of the files the page loads, by suffix; a file of any
#: other kind in the folder stops the app from being made.
MEDIA_TYPES: Mapping[str, str] = MappingProxyType(
    {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
)
#: A year: the files' URLs change whenever any of them does.
ASSET_MAX_AGE = 365 * 86_400
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types 'none'"
)
#: Sent with the page and its files.
SECURITY_HEADERS: Mapping[str, str] = MappingProxyType(
    {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
)


@dataclass(frozen=True, slots=True)
class Asset:
    """One file the page loads, as served."""

    body: bytes
    media_type: str
    etag: str


@dataclass(frozen=True, slots=True)
class TablePage:
    """The page and its files, read once: what ``GET /table`` and its assets answer."""

    html: bytes
    digest: str
    assets: Mapping[str, Asset]

    @property
    def assets_url(self) -> str:
        """The folder the page loads its files from."""
        return f"{ASSETS_PATH}/{self.digest}"

    def page(self) -> Response:
        """``GET /table``: the page, revalidated on each visit."""
        response = current_app.response_class(self.html, mimetype="text/html")
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["Cache-Control"] = "no-cache"
        response.headers.update(SECURITY_HEADERS)
        response.set_etag(self.digest)
        response.make_conditional(request)  # a 304 for the ETag the browser holds
        return response

    def asset(self, digest: str, name: str) -> Response:
        """``GET /table/assets/<digest>/<name>``: one of the page's files, kept
        by the browser for a year; any other name or digest is a 404."""
        asset = self.assets.get(name)
        if asset is None or digest != self.digest:
            abort(404)
        response = current_app.response_class(asset.body, mimetype=asset.media_type)
        response.cache_control.public = True
        response.cache_control.max_age = ASSET_MAX_AGE
        response.cache_control.immutable = True
        response.headers.update(SECURITY_HEADERS)
        response.set_etag(asset.etag)
        response.make_conditional(request)
        return response


def read_page(folder: Path = FILES) -> TablePage:
    """The page of ``folder`` and its files, with the digest that names them."""
    assets: dict[str, Asset] = {}
    whole = hashlib.sha256()
    for path in sorted(folder.iterdir()):
        if path.name == PAGE_FILE:
            continue
        if path.suffix not in MEDIA_TYPES:
            raise ValueError(f"{path}: the table page serves only {', '.join(MEDIA_TYPES)} files")
        body = path.read_bytes()
        etag = hashlib.sha256(body).hexdigest()[:32]
        assets[path.name] = Asset(body, MEDIA_TYPES[path.suffix], etag)
        whole.update(f"{path.name}\0{etag}\0".encode())
    template = (folder / PAGE_FILE).read_text(encoding="utf-8")
    whole.update(template.encode())
    digest = whole.hexdigest()[:16]
    html = template.replace(ASSETS_MARKER, f"{ASSETS_PATH}/{digest}").encode()
    return TablePage(html, digest, MappingProxyType(assets))


def blueprint(page: TablePage) -> Blueprint:
    """The routes of ``page``: ``table.page`` and ``table.asset``."""
    routes = Blueprint("table", __name__)
    routes.add_url_rule(PAGE_PATH, "page", page.page)
    routes.add_url_rule(f"{ASSETS_PATH}/<digest>/<name>", "asset", page.asset)
    return routes


def init_app(app: Flask) -> TablePage:
    """Read the page and its files and serve them (outside the OpenAPI document)."""
    page = read_page()
    app.register_blueprint(blueprint(page))
    return page
