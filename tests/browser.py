"""Debian's Chromium driven by Playwright (the Python package, pinned in
pyproject.toml), for the browser tests of GET /table and the roads pictures.

Playwright's own browser download is never used: the tests launch the
``chromium`` that ``tools.chromium()`` finds (skipped, or failed under CI,
when it is missing). Any name but the loopback address resolves to nothing,
so a page cannot reach outside the service, and the tests check that it
did not try.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from playwright.sync_api import Browser, sync_playwright

from . import tools

#: Chromium's own background traffic is switched off: this machine's network is closed.
FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
)


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """A headless Chromium, closed when the block ends."""
    executable = tools.chromium()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=list(FLAGS))
        try:
            yield browser
        finally:
            browser.close()
