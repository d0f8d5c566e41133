"""The documentation site (mkdocs.yml, ``make docs``): every page of docs/ is
in its navigation, it builds with ``--strict`` (a broken link, an anchor that
is not there or a page left out of the navigation is a warning, and any
warning fails), and the built site loads nothing from outside, so that it
works offline as /docs does, from a server or from the disk (search
included).

The examples of every page are run by tests/test_readme.py, which reads
README.md and every page of docs/.

Building needs Node.js and Redocly from ``node_modules/`` (the API reference,
docs_hooks.py): without them the build is skipped as tests/tools.py says.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml

from service import __version__

from . import tools
from .browser import chromium

DOCS = tools.ROOT / "docs"
CONFIG = tools.ROOT / "mkdocs.yml"
#: A URL that leaves the site: a scheme, or a host without one (``//cdn...``).
EXTERNAL = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)
#: Schemes a page may load from without a network.
LOCAL_SCHEMES = ("data:", "blob:", "about:", "javascript:")
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)""", re.IGNORECASE)
CSS_IMPORT = re.compile(r"""@import\s+['"]([^'"]+)""", re.IGNORECASE)


def nav_pages(entries: Any) -> Iterator[str]:
    """Every page file named in a ``nav`` tree."""
    if isinstance(entries, str):
        yield entries
    elif isinstance(entries, list):
        for entry in entries:
            yield from nav_pages(entry)
    elif isinstance(entries, dict):
        for value in entries.values():
            yield from nav_pages(value)


def test_every_page_is_in_the_navigation_and_every_entry_is_a_page():
    nav = set(nav_pages(yaml.safe_load(CONFIG.read_text(encoding="utf-8"))["nav"]))
    pages = {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}
    assert sorted(pages - nav) == [], "pages missing from mkdocs.yml's nav"
    assert sorted(nav - pages) == [], "nav entries that are no page of docs/"


def test_the_theme_loads_no_font_from_outside():
    theme = yaml.safe_load(CONFIG.read_text(encoding="utf-8"))["theme"]
    assert theme["name"] == "material"
    assert theme["font"] is False


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as ``make docs`` builds it (``mkdocs build --strict``), in a temporary folder."""
    tools.npm_package("@redocly/cli", "bin/cli.js")
    where = tmp_path_factory.mktemp("site")
    mkdocs = Path(sys.executable).parent / "mkdocs"
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [mkdocs, "build", "--strict", "--site-dir", where],
        cwd=tools.ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}{result.stderr}"
    assert "WARNING" not in result.stderr, result.stderr
    return where


class Loads(HTMLParser):
    """The URLs an HTML page makes the browser load by itself (not its links)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name in ("src", "data", "poster", "background"):
            if name in values:
                self.urls.append(values[name])
        if "srcset" in values:
            self.urls.extend(part.split()[0] for part in values["srcset"].split(",") if part.strip())
        if tag == "link" and "href" in values:
            self.urls.append(values["href"])
        if "style" in values:
            self.styles.append(values["style"])
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.styles.append(data)


def outside(urls: list[str]) -> list[str]:
    return [url for url in urls if EXTERNAL.match(url) and not url.lower().startswith(LOCAL_SCHEMES)]


def css_urls(css: str) -> list[str]:
    return CSS_URL.findall(css) + CSS_IMPORT.findall(css)


def test_the_site_builds_strictly_with_every_page(site: Path):
    pages = {path.relative_to(DOCS).with_suffix(".html").as_posix() for path in DOCS.rglob("*.md")}
    pages = {re.sub(r"(^|/)README\.html$", r"\1index.html", page) for page in pages}
    built = {path.relative_to(site).as_posix() for path in site.rglob("*.html")}
    assert sorted(pages - built) == []


def test_the_api_reference_renders_every_operation(site: Path):
    reference = (site / "reference" / "redoc.html").read_text(encoding="utf-8")
    spec = yaml.safe_load((tools.ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    ids = [operation["operationId"] for item in spec["paths"].values() for operation in item.values()]
    missing = [operation_id for operation_id in ids if operation_id not in reference]
    assert missing == []
    assert 'src="redoc.html"' in (site / "reference" / "api.html").read_text(encoding="utf-8")


def test_the_built_site_loads_nothing_from_outside(site: Path):
    """No page, stylesheet or the API reference loads a script, style, font or
    picture from another host: the site reads the same with no network."""
    found: dict[str, list[str]] = {}
    for page in site.rglob("*.html"):
        parser = Loads()
        parser.feed(page.read_text(encoding="utf-8"))
        urls = parser.urls + [url for style in parser.styles for url in css_urls(style)]
        if outside(urls):
            found[page.relative_to(site).as_posix()] = outside(urls)
    for stylesheet in site.rglob("*.css"):
        if outside(css_urls(stylesheet.read_text(encoding="utf-8"))):
            found[stylesheet.relative_to(site).as_posix()] = outside(css_urls(stylesheet.read_text()))
    assert found == {}
    fonts = [p.name for p in site.rglob("*") if p.is_file() and b"fonts.googleapis.com" in p.read_bytes()]
    assert fonts == []


def test_the_site_reads_and_searches_from_file_with_no_network(site: Path):
    """Opened from the disk in Chromium with every other host unreachable:
    search finds the concepts page, the API reference renders under the
    contract's title and version, and no page asks for anything but files."""
    with chromium() as browser:
        page = browser.new_page()
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        page.goto((site / "index.html").as_uri())
        page.keyboard.press("s")
        page.locator("input.md-search__input").press_sequentially("commitment", delay=30)
        page.wait_for_selector(".md-search-result__item", timeout=30_000)
        found = page.locator(".md-search-result__item a").evaluate_all("links => links.map(a => a.href)")
        assert any("concepts.html" in link for link in found)
        page.goto((site / "reference" / "redoc.html").as_uri())
        title = page.locator("h1", has_text=f"({__version__})")
        title.wait_for(timeout=30_000)
    assert [url for url in asked if not url.startswith(("file:", "data:", "blob:"))] == []


@pytest.mark.parametrize(
    ("html", "leaves"),
    [
        ('<script src="https://cdn.example/x.js"></script>', True),
        ('<link rel="stylesheet" href="//fonts.example/css">', True),
        ('<img srcset="a.png 1x, https://x.example/b.png 2x">', True),
        ("<style>@import 'https://x.example/a.css';</style>", True),
        ('<div style="background: url(https://x.example/a.png)"></div>', True),
        ('<script src="assets/x.js"></script><img src="data:image/png;base64,AA">', False),
        ('<a href="https://example.com/">a link is followed only when clicked</a>', False),
    ],
)
def test_loads_are_told_from_links(html: str, leaves: bool):
    parser = Loads()
    parser.feed(html)
    urls = parser.urls + [url for style in parser.styles for url in css_urls(style)]
    assert bool(outside(urls)) is leaves


def test_the_command_line_table_lists_every_command_once():
    """docs/guides/tools.md's table of ``baccarat`` commands: every command
    ``baccarat --help`` lists has a row, and no row is there twice (a row is
    its command and first option: ``round --live`` is not ``round --cards``)."""
    from service.cli import build_parser

    listing = build_parser().format_help().split("commands:", 1)[1].split("\n\n", 1)[0]
    commands = set(re.findall(r"^    ([a-z][a-z-]*)", listing, flags=re.MULTILINE))
    text = (DOCS / "guides" / "tools.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `baccarat ([^`]+)` \|", text, flags=re.MULTILINE)
    uses = [" ".join(row.split()[:2]) for row in rows]
    assert sorted(use for use in uses if uses.count(use) > 1) == []
    assert {row.split()[0] for row in rows} == commands
