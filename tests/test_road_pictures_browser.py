"""The roads' picture in a real browser: headless Chromium renders what the service answers.

A page of the live gunicorn server asks POST /v1/roads for the picture with
``fetch`` and ``Accept: image/svg+xml``, as a table page does, and shows it
twice: inline (parsed and imported into the page) and as an image (a blob
URL, drawn onto a canvas to read its pixels). The picture must render at
its own size, every mark of the JSON answer must be laid out at its column
and row, the colours must be on screen, and nothing may be loaded from
outside the service. The screenshot goes to ``artifacts/roads.png``.

Needs Debian's ``chromium`` (tests/browser.py); without it the test is
skipped, unless ``BACCARAT_REQUIRE_ALL_TOOLS=1`` (see tests/tools.py).
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from service.baccarat.rulebook.coup import Outcome
from service.contract.road_pictures import LABEL, MARGIN, NAMES, OUTCOME_COLOURS, SIZES

from . import tools
from .browser import chromium
from .servers import Server, gunicorn

pytestmark = pytest.mark.server

ARTIFACTS = tools.ROOT / "artifacts"
#: Ties first, pairs, a natural, a dragon tail, and enough to start every derived road.
RESULTS: list[Any] = [
    "tie",
    "banker",
    {"outcome": "banker", "banker_pair": True},
    "player",
    "tie",
    "tie",
    {"outcome": "player", "player_pair": True, "natural": True},
    *["banker"] * 8,
    "player",
    "banker",
    "player",
    "player",
    "tie",
    "banker",
]
PAGE = (
    '<!doctype html><html><body style="margin:0"><div id="inline"></div><img id="image" alt=""></body></html>'
)

#: Ask for the picture, put it into the page and into an image; what the page then shows.
SHOW = """
async (results) => {
  const response = await fetch("/v1/roads", {
    method: "POST",
    headers: {"Content-Type": "application/json", "Accept": "image/svg+xml"},
    body: JSON.stringify({results}),
  });
  const text = await response.text();
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml");
  if (parsed.querySelector("parsererror")) throw new Error("not well-formed: " + text.slice(0, 200));
  const svg = document.importNode(parsed.documentElement, true);
  document.querySelector("#inline").replaceChildren(svg);
  const image = document.querySelector("#image");
  image.src = URL.createObjectURL(new Blob([text], {type: "image/svg+xml"}));
  await image.decode();
  const canvas = document.createElement("canvas");
  [canvas.width, canvas.height] = [image.naturalWidth, image.naturalHeight];
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const pixel = (x, y) => Array.from(context.getImageData(x, y, 1, 1).data.slice(0, 3));
  const box = svg.getBoundingClientRect();
  const origins = Object.fromEntries(Array.from(svg.querySelectorAll("g[id^='roads-']"), group =>
    [group.id.slice("roads-".length), [group.getCTM().e, group.getCTM().f]]));
  const marks = Array.from(svg.querySelectorAll("[data-road]"), mark => {
    const drawn = mark.getBoundingClientRect();
    const at = mark.getCTM();
    return {
      road: mark.dataset.road, column: Number(mark.dataset.column), row: Number(mark.dataset.row),
      x: at.e, y: at.f, left: drawn.left - box.left, top: drawn.top - box.top,
      width: drawn.width, height: drawn.height,
    };
  });
  return {
    status: response.status, type: response.headers.get("Content-Type"),
    width: box.width, height: box.height, image: [image.naturalWidth, image.naturalHeight],
    origins, marks, pixel: {bead: pixel(%(bead)s), background: pixel(1, 1)},
  };
}
"""


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with gunicorn(workers=1) as running:
        yield running


def json_roads(server: Server) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url + "/v1/roads",
        data=json.dumps({"results": RESULTS}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def rgb(colour: str) -> list[int]:
    return [int(colour[i : i + 2], 16) for i in (1, 3, 5)]


def test_the_picture_renders_in_chromium_with_every_mark_laid_out(server):
    answer = json_roads(server)
    # A point of the first bead's disc clear of its letter: the first result is a tie, green.
    bead = f"{MARGIN + 12}, {MARGIN + LABEL + 4}"
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 1000}, device_scale_factor=2)
        requested: list[str] = []
        errors: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(server.url + "/livez")  # the service's origin, so that fetch reaches it as a page would
        page.set_content(PAGE)
        shown = page.evaluate(SHOW % {"bead": bead}, RESULTS)
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("#inline svg").screenshot(path=str(ARTIFACTS / "roads.png"))

    assert (shown["status"], shown["type"]) == (200, "image/svg+xml; charset=utf-8")
    assert shown["width"] > 0
    assert shown["height"] > 0
    assert shown["image"] == [round(shown["width"]), round(shown["height"])]
    assert shown["pixel"]["bead"] == rgb(OUTCOME_COLOURS[Outcome.TIE])
    assert shown["pixel"]["background"] == [255, 255, 255]

    marks = shown["marks"]
    assert [(m["road"], m["column"], m["row"]) for m in marks] == [
        (road, cell["column"], cell["row"]) for road in NAMES for cell in answer[road]["cells"]
    ]
    assert {m["road"] for m in marks} == set(NAMES)
    for mark in marks:
        size = SIZES[mark["road"]]
        x, y = shown["origins"][mark["road"]]
        assert (mark["x"] - x, mark["y"] - y) == (mark["column"] * size, mark["row"] * size), mark
        assert 0 < mark["width"] <= size + 1, mark
        assert 0 < mark["height"] <= size + 1, mark
        assert 0 <= mark["left"] < shown["width"], mark
        assert 0 <= mark["top"] < shown["height"], mark

    outside = [url for url in requested if not url.startswith((server.url + "/", "blob:", "data:"))]
    assert outside == [], f"the page loaded from outside the service: {outside}"
    assert errors == []
    assert (ARTIFACTS / "roads.png").stat().st_size > 10_000
