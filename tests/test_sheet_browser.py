"""The rules sheet's HTML page in Chromium, as a player's browser opens it:
by role and name, at 1280 and 375 px wide, in the language asked, and
loading nothing but itself.

The page is ``GET /v1/tables/{table}/rules-sheet`` opened by the browser
(whose ``Accept`` prefers ``text/html``). Waits are for elements and text,
never for a time. Needs Debian's ``chromium`` (tests/browser.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from service.baccarat.sheets.chart import CHART

from . import tools
from .browser import chromium
from .servers import Server, gunicorn

pytestmark = pytest.mark.server

ARTIFACTS = tools.ROOT / "artifacts"
WAIT = 30_000


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with gunicorn(workers=1) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    expect.set_options(timeout=WAIT)
    with chromium() as running:
        yield running


def opened(browser: Browser, server: Server, path: str, width: int, locale: str | None = None):
    page = browser.new_page(viewport={"width": width, "height": 900}, locale=locale)
    page.set_default_timeout(WAIT)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    answer = page.goto(server.url + path)
    assert answer is not None
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/html")
    return page, requested


@pytest.mark.parametrize("width", [1280, 375])
def test_the_sheet_reads_by_role_and_name_and_loads_nothing_else(browser, server, width):
    path = "/v1/tables/tie_9/rules-sheet"
    page, requested = opened(browser, server, path, width)
    expect(page.get_by_role("heading", level=1, name="Baccarat: the rules of this table")).to_be_visible()
    sections = ("Card values", "The Banker's third card", "The Tie bet", "Cards and shuffling", "Malfunction")
    for name in sections:
        expect(page.get_by_role("heading", level=2, name=name)).to_be_visible()
    chart = page.get_by_role(
        "table", name="The Banker's action by its two-card total and the Player's third card"
    )
    expect(chart).to_be_visible()
    rows = chart.get_by_role("row")
    expect(rows).to_have_count(2 + len(CHART))
    for row in CHART:
        cells = rows.nth(2 + row.banker_total).get_by_role("cell")
        wanted = ["Draw" if draws else "Stand" for draws in (row.player_stood, *row.player_drew)]
        expect(cells).to_have_text(wanted)
    tie = page.get_by_role("table", name="Pay table of the Tie bet")
    expect(tie.get_by_role("row", name="the totals are equal 9:1")).to_be_visible()
    expect(page.get_by_text("The cards are reshuffled after each hand")).to_be_visible()
    expect(page.get_by_text("Return to player: 95.16%")).to_be_visible()
    # Nothing wider than the screen: the chart scrolls inside its own box.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert requested == [server.url + path]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"rules-sheet-{width}.png"), full_page=True)
    if width == 1280:
        page.get_by_role("region", name="The Banker's third card").screenshot(
            path=str(ARTIFACTS / "rules-sheet.png")
        )
    page.close()


def test_the_sheet_is_in_the_browser_s_language(browser, server):
    page, requested = opened(browser, server, "/v1/tables/standard/rules-sheet", 1280, locale="zh-TW")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    expect(page.get_by_role("heading", level=1, name="百家樂：本桌規則")).to_be_visible()
    expect(page.get_by_role("table", name="莊家按其兩張牌點數及閒家第三張牌的行動")).to_be_visible()
    assert len(requested) == 1
    page.close()


def test_the_table_page_shows_the_rules_of_the_table_being_played(browser, server):
    """The reference table's "rules" section is the sheet of the table, game
    and dealing chosen, in the page's language, and follows each choice."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.set_default_timeout(WAIT)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(server.url + "/table")
    rules = page.get_by_role("region", name="Baccarat: the rules of this table")
    expect(rules.get_by_role("heading", level=3, name="The Player Pair bet")).to_be_visible()
    expect(rules.get_by_text("Player Pair: from 1.00 to 25.00")).to_be_visible()
    expect(rules.get_by_text("Return to player: 98.94%")).to_be_visible()

    page.get_by_role("combobox", name="Table").select_option("tie_9")
    expect(rules.get_by_text("the totals are equal: pays 9:1")).to_be_visible()
    expect(rules.get_by_text("The cards are reshuffled after each hand")).to_be_visible()

    page.get_by_role("combobox", name="Dealing").select_option("shoe")
    expect(rules.get_by_text("A cut card is placed 16 cards from the end", exact=False)).to_be_visible()

    page.get_by_role("combobox", name="Table").select_option("standard")
    expect(rules.get_by_text("the totals are equal: pays 8:1")).to_be_visible()
    page.get_by_role("combobox", name="Game").select_option("lightning")
    expect(rules.get_by_role("heading", level=3, name="Multipliers")).to_be_visible()

    page.get_by_role("combobox", name="Language").select_option("ja")
    japanese = page.get_by_role("region", name="バカラ: このテーブルのルール")
    expect(japanese.get_by_role("heading", level=3, name="マルチプライヤー")).to_be_visible()
    origin = server.url + "/"
    assert [url for url in requested if not url.startswith((origin, "blob:" + origin))] == []
    assert requested.count(server.url + "/v1/rules-sheets") >= 5
    page.close()
