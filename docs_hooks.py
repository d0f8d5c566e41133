"""MkDocs hook (mkdocs.yml, ``hooks``): the API reference of the site.

Redocly renders ``openapi.yaml`` into one page, every operation with its
schemas and examples, with its scripts inlined (``--inlineBundle``), so that
the site, like ``/docs``, loads nothing from anywhere else. The page is added
to the site as ``reference/redoc.html``, which ``reference/api.md`` shows.
Redocly is the one of package.json (``make node``); without it the build
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
        return output.read_text(encoding="utf-8")


def on_files(files: Files, config: Any) -> Files:
    files.append(File.generated(config, PAGE, content=redoc_page()))
    return files
