"""MkDocs hook (mkdocs.yml, ``hooks``): the files of the site that come from
package.json's npm packages rather than from docs/.

* The API reference: Redocly renders ``openapi.yaml`` into one page, every operation with its
schemas and examples, with its scripts inlined (``--inlineBundle``), so that
the site, like ``/docs``, loads nothing from anywhere else. The page is added
to the site as ``reference/redoc.html``, which ``reference/api.md`` shows.
* The iframe-worker shim, which lets search run from ``file://`` (Material's
  offline plugin would otherwise load it from a CDN): mkdocs.yml's
  ``extra.polyfills`` names it where it is copied.

Both come from ``node_modules/`` (``make node``); without them the build
fails, saying so.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent
REDOCLY = ROOT / "node_modules" / "@redocly" / "cli" / "bin" / "cli.js"
#: Where the rendered reference lands in the site (reference/api.md frames it).
PAGE = "reference/redoc.html"
#: The pictures Redoc's script would fetch from Redocly's CDN.
CDN_LOGOS = ("https://cdn.redoc.ly/redoc/logo-mini-full.svg", "https://cdn.redoc.ly/redoc/logo-mini.svg")
SHIM = ROOT / "node_modules" / "iframe-worker" / "shim" / "index.js"
#: Where the shim lands (mkdocs.yml's ``extra.polyfills``).
SHIM_PAGE = "assets/javascripts/iframe-worker-shim.js"


def redoc_page() -> str:
    """``openapi.yaml`` rendered by Redocly as one self-contained HTML page."""
    node = shutil.which("node")
    if node is None or not REDOCLY.is_file():
        raise PluginError(f"the API reference needs Node.js and {REDOCLY.relative_to(ROOT)}: run `make node`")
    with tempfile.TemporaryDirectory() as where:
        output = Path(where) / "redoc.html"
        command = [node, str(REDOCLY), "build-docs", "openapi.yaml", "--inlineBundle", "--output", str(output)]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            raise PluginError(f"redocly build-docs failed:\n{result.stdout}{result.stderr}")
        page = output.read_text(encoding="utf-8")
    # Redoc's sidebar shows Redocly's logo from its CDN (an <img> it hides
    # when the picture fails): with no address the page asks nothing of the CDN.
    for logo in CDN_LOGOS:
        page = page.replace(logo, "")
    return page


def on_files(files: Files, config: Any) -> Files:
    if not SHIM.is_file():
        raise PluginError(f"search from file:// needs {SHIM.relative_to(ROOT)}: run `make node`")
    files.append(File.generated(config, PAGE, content=redoc_page()))
    files.append(File.generated(config, SHIM_PAGE, content=SHIM.read_bytes()))
    return files
