"""GET /docs in a real browser: headless Chromium against the live gunicorn server.

The page must render every operation of the OpenAPI document, and "Try it
out" on POST /v1/rounds must show the service's 200 answer, with nothing
loaded from outside the service. Chromium is driven over the Chrome DevTools
Protocol (a WebSocket, ``websocket-client``); names it cannot resolve stay
unresolved (``--host-resolver-rules``), and every request the page makes is
recorded and checked. Screenshots go to ``artifacts/``.

Needs Debian's ``chromium``; without it the test is skipped, unless
``BACCARAT_REQUIRE_ALL_TOOLS=1`` (see tests/tools.py).
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import tempfile
import time
import urllib.request
from base64 import b64decode
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import websocket

from . import browser, tools
from .servers import gunicorn

pytestmark = pytest.mark.server

ARTIFACTS = tools.ROOT / "artifacts"
TIMEOUT = 60.0
#: The flags every browser test uses (tests/browser.py: no background traffic, and
#: no name but the loopback address resolves), and this test's own.
CHROMIUM_FLAGS = (
    "--headless",
    *browser.FLAGS,
    "--no-default-browser-check",
    "--hide-scrollbars",
    "--window-size=1280,1000",
    "--remote-debugging-port=0",
)


class DevTools:
    """A Chromium page driven over the DevTools Protocol; keeps every event it is sent."""

    def __init__(self, url: str) -> None:
        self.socket = websocket.create_connection(url, timeout=TIMEOUT, suppress_origin=True)
        self.ids = itertools.count(1)
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and return its result (events seen meanwhile are kept)."""
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return dict(message["result"])
            self.events.append(message)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (awaited if a promise)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression: str, what: str) -> Any:
        """Poll ``expression`` until it is truthy; its value."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}")

    def screenshot(self, path: Path, top: float = 0, height: float = 2400) -> None:
        """The page from ``top`` down, at most ``height`` pixels (beyond the window), as a PNG."""
        size = self.call("Page.getLayoutMetrics")["cssContentSize"]
        height = min(height, size["height"] - top)
        clip = {"x": 0, "y": top, "width": size["width"], "height": height, "scale": 1}
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True, clip=clip)
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(b64decode(shot["data"]))

    def requested_urls(self) -> list[str]:
        return [
            e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"
        ]

    def page_errors(self) -> list[str]:
        return [json.dumps(e["params"]) for e in self.events if e["method"] in ("Runtime.exceptionThrown",)]


def devtools_url(profile: Path, process: subprocess.Popen[bytes]) -> str:
    """The page target's WebSocket URL, from the port Chromium writes into its profile."""
    port_file = profile / "DevToolsActivePort"
    deadline = time.monotonic() + TIMEOUT
    while not port_file.is_file() or not port_file.read_text().strip():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError("Chromium did not start its DevTools endpoint")
        time.sleep(0.05)
    port = port_file.read_text().split()[0]
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as response:
        targets = json.load(response)
    return next(t["webSocketDebuggerUrl"] for t in targets if t["type"] == "page")


@pytest.fixture(scope="module")
def browser() -> Iterator[Callable[[], DevTools]]:
    """Start headless Chromium with a fresh profile; yields a function that connects to its page."""
    chromium = tools.chromium()
    # Chromium's helper processes can still be writing to the profile for a
    # moment after the browser exits: a leftover file must not fail the test.
    with tempfile.TemporaryDirectory(prefix="baccarat-chromium-", ignore_cleanup_errors=True) as profile:
        process = subprocess.Popen(
            [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group: its helpers stop with it
        )
        pages: list[DevTools] = []
        try:
            url = devtools_url(Path(profile), process)

            def connect() -> DevTools:
                page = DevTools(url)
                pages.append(page)
                return page

            yield connect
        finally:
            for page in pages:
                page.socket.close()
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@pytest.fixture(scope="module")
def server():
    with gunicorn(workers=1) as running:
        yield running


def documented_operations(server) -> set[str]:
    with urllib.request.urlopen(server.url + "/openapi.json", timeout=10) as response:
        spec = json.load(response)
    return {f"{method.upper()} {path}" for path, ops in spec["paths"].items() for method in ops}


RENDERED_OPERATIONS = """
Array.from(document.querySelectorAll('.opblock')).map(block =>
  block.querySelector('.opblock-summary-method').textContent.trim() + ' ' +
  block.querySelector('.opblock-summary-path').getAttribute('data-path'))
"""

ROUNDS_BLOCK = """
Array.from(document.querySelectorAll('.opblock')).find(block =>
  block.querySelector('.opblock-summary-method').textContent.trim() === 'POST' &&
  block.querySelector('.opblock-summary-path').getAttribute('data-path') === '/v1/rounds')
"""


def click(page: DevTools, selector: str, what: str) -> None:
    """Click the first ``selector`` inside the POST /v1/rounds block, once it is there."""
    found = f"(() => {{ const b = {ROUNDS_BLOCK}; return b && b.querySelector({json.dumps(selector)}); }})()"
    page.wait_for(f"!!{found}", what)
    page.evaluate(f"{found}.click()")


def test_the_docs_page_renders_every_operation_and_tries_post_rounds(browser, server):
    page = browser()
    page.call("Network.enable")
    page.call("Page.enable")
    page.call("Runtime.enable")
    page.call("Page.navigate", url=server.url + "/docs")

    expected = documented_operations(server)
    page.wait_for(
        f"document.querySelectorAll('.opblock').length >= {len(expected)}", "every operation to render"
    )
    assert set(page.evaluate(RENDERED_OPERATIONS)) == expected
    title = page.evaluate("document.querySelector('.info .title').textContent")
    assert "Baccarat rules and settlement" in title
    page.screenshot(ARTIFACTS / "docs.png")

    click(page, ".opblock-summary-control", "the POST /v1/rounds operation")
    click(page, ".try-out__btn", "the Try it out button")
    click(page, ".execute", "the Execute button")
    answered = f"{ROUNDS_BLOCK}.querySelector('.live-responses-table tr.response')"
    status_of = "row => row && row.querySelector('.response-col_status').textContent"
    status = page.wait_for(f"({status_of})({answered})", "the answer to appear")
    body_text = page.evaluate(f"{answered}.querySelector('.response-col_description pre').textContent")
    top = page.evaluate(f"{ROUNDS_BLOCK}.getBoundingClientRect().top + window.scrollY")
    page.screenshot(ARTIFACTS / "docs-try-it-out.png", top=max(0, top - 200))

    assert status.strip() == "200"
    answer = json.loads(body_text)
    assert answer["outcome"] == "banker"
    assert answer["player"]["cards"] == ["9S", "2D", "5H"]
    assert answer["settlement"]["net"] == "18.75"

    outside = [url for url in page.requested_urls() if not url.startswith((server.url + "/", "data:"))]
    assert outside == [], f"the page loaded from outside the service: {outside}"
    assert page.page_errors() == []
    assert (ARTIFACTS / "docs-try-it-out.png").stat().st_size > 10_000
