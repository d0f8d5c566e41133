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

The page is written in the reader's language, one of the seven the service
speaks (:mod:`service.contract.language`), chosen on the page and kept in
the browser only. Its words are the ``table`` gettext domain: each
language's messages (English message to translation) are served as JSON
among its files (``/table/assets/<digest>/words/<tag>.json``), made once
when the app is made from the compiled catalogues; the digest covers them.
The page's language picker names each language in itself (CLDR, by Babel),
written into the page when it is read.

The page carries a Content-Security-Policy that lets it load and call this
service only, run no inline script or style, show pictures only from the
service or from ``blob:`` URLs (the roads, fetched from the API), and write
no HTML from strings (Trusted Types with no policy). The page and its files
need no API key (:mod:`.access`): they hold no data; the API calls the page
makes do, and the page asks for a key when the service answers 401.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from babel import Locale
from babel.messages.mofile import read_mo
from flask import Blueprint, Flask, Response, abort, current_app, request

from ..contract.language import ENGLISH, LOCALES, TAGS, MissingCatalogue
from .policy import PUBLIC, Policy

PAGE_PATH = "/table"
ASSETS_PATH = "/table/assets"
PAGE_ENDPOINT = "table.page"
ASSET_ENDPOINT = "table.asset"
WORDS_ENDPOINT = "table.words"
#: The page, its files and its words hold no data: answered without a key (:mod:`.policy`).
POLICIES: Mapping[str, Policy] = MappingProxyType(
    {PAGE_ENDPOINT: PUBLIC, ASSET_ENDPOINT: PUBLIC, WORDS_ENDPOINT: PUBLIC}
)
#: The page's files: the page itself and everything it loads.
FILES = Path(__file__).parent / "static" / "table"
PAGE_FILE = "index.html"
#: Written in the page wherever it names one of its files; replaced, when the
#: app is made, by the URL of the files' folder (digest included).
ASSETS_MARKER = "{{assets}}"
#: Written in the page's language picker; replaced by an option per language.
LANGUAGES_MARKER = "{{languages}}"
#: The gettext domain of the page's words.
DOMAIN = "table"
#: The media types of the files the page loads, by suffix; a file of any
#: other kind in the folder stops the app from being made.
MEDIA_TYPES: Mapping[str, str] = MappingProxyType(
    {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
)
WORDS_TYPE = "application/json"
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

    @classmethod
    def of(cls, body: bytes, media_type: str) -> Asset:
        return cls(body, media_type, hashlib.sha256(body).hexdigest()[:32])


@dataclass(frozen=True, slots=True)
class PageLanguage:
    """One language the page is written in: its tag, its name in itself
    ("中文 (繁體)") and its words (each English message of the ``table``
    domain and its translation; none for English, the page's own words)."""

    tag: str
    name: str
    words: Mapping[str, str]

    @classmethod
    def load(cls, tag: str, directory: Path = LOCALES) -> PageLanguage:
        """The language ``tag`` with the ``table`` domain's words from its
        compiled catalogue in ``directory``; :class:`MissingCatalogue` when
        it is not there. Only this domain's messages: the page never sees
        the game's or the problems' words, which the service writes itself."""
        locale = TAGS[tag]
        name = Locale.parse(locale).display_name or tag
        if tag == ENGLISH:
            return cls(tag, name, MappingProxyType({}))
        path = directory / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if not path.is_file():
            raise MissingCatalogue(f"{path} is missing: `make translations` compiles the catalogues")
        with path.open("rb") as file:
            catalogue = read_mo(file)
        words: dict[str, str] = {}
        for message in catalogue:
            # The page's messages have no plural forms: an id and its translation are strings.
            english, translation = message.id, message.string
            if isinstance(english, str) and isinstance(translation, str) and english and translation:
                words[english] = translation
        return cls(tag, name, MappingProxyType(dict(sorted(words.items()))))

    @property
    def option(self) -> str:
        """The language picker's option for this language, named in itself."""
        tag, name = html.escape(self.tag), html.escape(self.name)
        return f'<option value="{tag}" lang="{tag}">{name}</option>'

    @property
    def words_body(self) -> bytes:
        """The words, as the page reads them."""
        return json.dumps(dict(self.words), ensure_ascii=False, separators=(",", ":")).encode()


def page_languages(directory: Path = LOCALES) -> tuple[PageLanguage, ...]:
    """Every language the service speaks, English first, as the page is written in it."""
    return tuple(PageLanguage.load(tag, directory) for tag in TAGS)


@dataclass(frozen=True, slots=True)
class TablePage:
    """The page and its files, read once: what ``GET /table`` and its assets answer."""

    html: bytes
    digest: str
    assets: Mapping[str, Asset]
    #: Each language's words, by tag.
    words: Mapping[str, Asset]

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
        return self.kept(digest, self.assets.get(name))

    def words_of(self, digest: str, tag: str) -> Response:
        """``GET /table/assets/<digest>/words/<tag>.json``: the page's words
        in the language ``tag``, kept as its files are; any other tag is a 404."""
        return self.kept(digest, self.words.get(tag))

    def kept(self, digest: str, asset: Asset | None) -> Response:
        """``asset``, kept by the browser for a year (its URL changes with
        the digest), or a 404 when there is none or the digest is not ours."""
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


def read_page(folder: Path = FILES, languages: Sequence[PageLanguage] = ()) -> TablePage:
    """The page of ``folder`` and its files, written in ``languages``, with
    the digest that names them all."""
    assets: dict[str, Asset] = {}
    for path in sorted(folder.iterdir()):
        if path.name == PAGE_FILE:
            continue
        if path.suffix not in MEDIA_TYPES:
            raise ValueError(f"{path}: the table page serves only {', '.join(MEDIA_TYPES)} files")
        assets[path.name] = Asset.of(path.read_bytes(), MEDIA_TYPES[path.suffix])
    words = {language.tag: Asset.of(language.words_body, WORDS_TYPE) for language in languages}
    whole = hashlib.sha256()
    served = {**assets, **{f"words/{tag}.json": asset for tag, asset in words.items()}}
    for name, asset in sorted(served.items()):
        whole.update(f"{name}\0{asset.etag}\0".encode())
    options = "\n".join(language.option for language in languages)
    template = (folder / PAGE_FILE).read_text(encoding="utf-8").replace(LANGUAGES_MARKER, options)
    whole.update(template.encode())
    digest = whole.hexdigest()[:16]
    page = template.replace(ASSETS_MARKER, f"{ASSETS_PATH}/{digest}").encode()
    return TablePage(page, digest, MappingProxyType(assets), MappingProxyType(words))


def blueprint(page: TablePage) -> Blueprint:
    """The routes of ``page``: ``table.page``, ``table.asset`` and ``table.words``."""
    routes = Blueprint("table", __name__)
    routes.add_url_rule(PAGE_PATH, "page", page.page)
    routes.add_url_rule(f"{ASSETS_PATH}/<digest>/<name>", "asset", page.asset)
    routes.add_url_rule(f"{ASSETS_PATH}/<digest>/words/<tag>.json", "words", page.words_of)
    return routes


def init_app(app: Flask) -> TablePage:
    """Read the page, its files and its words in every language, and serve
    them (outside the OpenAPI document)."""
    page = read_page(FILES, page_languages())
    app.register_blueprint(blueprint(page))
    return page
