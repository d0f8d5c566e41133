"""GET /table in a real browser: Playwright driving Debian's Chromium against gunicorn.

The server is started as ``make run`` starts it (tests/servers.py), the page
is played with the mouse and the keyboard as a player would, and everything
it shows is checked against the API's own answers, asked by this test with
urllib for the same seeds:

* chips on bet areas, a bet refused at its table maximum, undo, clear and
  rebet; a table minimum refused before dealing;
* a whole seeded shoe dealt round by round (at least 30): every card in
  dealing order, each hand's total, each draw's reason, the outcome, every
  bet's result and the balance after each round; the burn, the cut card,
  the commitment shown before the first round and the server seed shown
  when the shoe ends (whose SHA-256 must be that commitment);
* the roads picture: what the service draws for the shoe's results, with a
  mark at every cell of the roads' JSON answer;
* a table that reshuffles after each hand: a new seed every hand, each
  hand the API's for the seed then shown;
* a service with API keys: the page asks for one, and the service's own 422
  is shown at the bet it names;
* a multiplier game (Lightning) chosen from GET /v1/paytables' games: only
  the bets it pays, a chip refused when the balance covers its stake but
  not its fee, and rounds whose multiplier cards, lit cards, each bet's fee,
  multiplier and return, and the balance after the fees are the API's; and
  a Golden Wealth shoe dealt round by round, each round the one the API's
  whole shoe for the game deals;
* the page in Traditional Chinese, chosen with its language picker: its
  own words, and the service's reasons and bet lines asked for in that
  language (Accept-Language); the choice kept over a reload, Vietnamese
  amounts written as Vietnamese writes numbers, and a browser whose
  language is Chinese (Taiwan) starting in Traditional Chinese;
* every request the page makes goes to the service, and the page logs no
  error (a Content-Security-Policy violation is one).

The other tests read the page in English, the language of the headless
browser.

Screenshots at 1280 and 375 px wide go to ``artifacts/``. Waits are for
elements and text, never for a time. Needs Debian's ``chromium``
(tests/browser.py); without it the tests are skipped, unless
``BACCARAT_REQUIRE_ALL_TOOLS=1`` (see tests/tools.py).
"""

from __future__ import annotations

import hashlib
import json
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, Route, expect

from . import tools
from .browser import chromium
from .servers import Server, gunicorn

pytestmark = pytest.mark.server

ARTIFACTS = tools.ROOT / "artifacts"
#: Milliseconds Playwright waits for an element or a text: generous, for a loaded CI machine.
WAIT = 30_000
BANKROLL = Decimal("1000.00")
KEY = "k-7f3a9c51d0e24b86"
MIN_ROUNDS = 30

#: Each round's view of the page, read at once: cards, totals, reasons, outcome, bets, balance;
#: each with what it says on screen (and the answer's value the page keeps in ``data-*``).
SHOWN_ROUND = """() => {
  const body = document.querySelector("#round-body");
  const data = (node) => Object.assign({}, node.dataset);
  const text = (node, selector) => node.querySelector(selector).textContent;
  return {
    round: Number(document.querySelector("#round").dataset.round),
    title: document.querySelector("#round-title").textContent,
    cards: Array.from(body.querySelectorAll(".card"),
      (card) => ({...data(card), face: text(card, ".rank") + text(card, ".suit")})),
    totals: Object.fromEntries(Array.from(body.querySelectorAll(".hand"),
      (hand) => [hand.dataset.hand, [hand.querySelector(".total").dataset.total, text(hand, ".total")]])),
    outcome: body.querySelector(".outcome").dataset.outcome,
    outcomeText: body.querySelector(".outcome").textContent,
    reasons: Array.from(body.querySelectorAll(".reasons li"), (li) => ({...data(li), text: li.textContent})),
    bets: Array.from(body.querySelectorAll(".results tbody tr"),
      (row) => ({...data(row), cells: Array.from(row.cells, (cell) => cell.textContent)})),
    slip: body.querySelector(".results") ? data(body.querySelector(".results")) : null,
    slipText: body.querySelector(".results tfoot") ? body.querySelector(".results tfoot").textContent : null,
    balance: document.querySelector("#balance").textContent,
  };
}"""
#: How the page writes a card's suit.
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
OUTCOMES = {"player": "Player wins", "banker": "Banker wins", "tie": "Tie"}


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with gunicorn(workers=1) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    expect.set_options(timeout=WAIT)  # Playwright's assertions wait 5 s unless told
    with chromium() as running:
        yield running


class Watched:
    """A page with every request it makes, each POST /v1/rounds and POST /v1/shoes
    body, each POST /v1/roads exchange, and its errors.

    The roads' answers are taken as they pass (``page.route``, which sends
    the page's own request and hands the page the service's answer
    unchanged): Chromium keeps no copy of a body the page reads as a blob."""

    def __init__(
        self, browser: Browser, server: Server, width: int = 1280, locale: str | None = None
    ) -> None:
        self.page = browser.new_page(viewport={"width": width, "height": 900}, locale=locale)
        self.page.set_default_timeout(WAIT)
        self.server = server
        self.requested: list[str] = []
        self.rounds: list[dict[str, Any]] = []
        self.shoes: list[dict[str, Any]] = []
        #: Each API call's path and the language it asked for (Accept-Language).
        self.languages: list[tuple[str, str | None]] = []
        self.roads: list[tuple[dict[str, Any], str, str]] = []
        self.errors: list[str] = []
        self.page.on("request", self.record)
        self.page.route(server.url + "/v1/roads", self.pass_roads)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))

    def record(self, request: Request) -> None:
        self.requested.append(request.url)
        if request.url.startswith(self.server.url + "/v1/"):
            self.languages.append(
                (request.url[len(self.server.url) :], request.headers.get("accept-language"))
            )
        if request.method == "POST" and request.url == self.server.url + "/v1/rounds":
            self.rounds.append(json.loads(request.post_data or "{}"))
        if request.method == "POST" and request.url == self.server.url + "/v1/shoes":
            self.shoes.append(json.loads(request.post_data or "{}"))

    def pass_roads(self, route: Route) -> None:
        answer = route.fetch()
        body = json.loads(route.request.post_data or "{}")
        self.roads.append((body, route.request.headers.get("accept", ""), answer.text()))
        route.fulfill(response=answer)

    def open(self) -> Page:
        self.page.goto(self.server.url + "/table")
        return self.page

    def check_it_stayed_inside(self, *refused: int) -> None:
        """Every request went to the service, and the page logged no error but
        Chromium's line for each answer of a ``refused`` status the test caused."""
        origin = self.server.url + "/"
        outside = [url for url in self.requested if not url.startswith((origin, "blob:" + origin))]
        assert outside == [], f"the page reached outside the service: {outside}"
        caused = tuple(f"the server responded with a status of {status}" for status in refused)
        unexpected = [error for error in self.errors if not any(line in error for line in caused)]
        assert unexpected == [], unexpected


def api(
    server: Server,
    path: str,
    body: Any = None,
    accept: str = "application/json",
    key: str | None = None,
    language: str | None = None,
) -> Any:
    """The service's answer, asked with urllib: JSON read, or the text of a picture."""
    headers = {"Accept": accept}
    if language:
        headers["Accept-Language"] = language
    if key:
        headers["Authorization"] = f"Bearer {key}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(server.url + path, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        text = response.read().decode()
        return json.loads(text) if accept == "application/json" else text


def amount(text: str) -> Decimal:
    """A balance as the page writes it ("1,018.75")."""
    return Decimal(text.replace(",", ""))


def choose_chip(page: Page, chip: str) -> None:
    page.get_by_role("radio", name=chip, exact=True).check()


def bet(page: Page, bet_type: str, chip: str, times: int = 1) -> None:
    choose_chip(page, chip)
    for _ in range(times):
        page.locator(f"button.bet[data-bet={bet_type}]").click()


def stacks(page: Page) -> dict[str, str]:
    """The stacks on the bet areas, by bet type (empty ones left out)."""
    shown = page.eval_on_selector_all(
        "button.bet", "buttons => buttons.map(b => [b.dataset.bet, b.querySelector('.stack').textContent])"
    )
    return {bet_type: text for bet_type, text in shown if text}


def deal(page: Page, number: int) -> dict[str, Any]:
    page.locator("#deal").click()
    page.locator(f"#round[data-round='{number}'][aria-busy='false']").wait_for()
    shown: dict[str, Any] = page.evaluate(SHOWN_ROUND)
    return shown


def expected_cards(answer: dict[str, Any]) -> list[tuple[str, str, int]]:
    """The round's cards in the order the shoe dealt them, from the API's positions."""
    positions = answer["round"]["positions"]
    cards = [
        (code, hand, positions[hand][index])
        for hand in ("player", "banker")
        for index, code in enumerate(answer[hand]["cards"])
    ]
    return sorted(cards, key=lambda card: card[2])


def check_round(shown: dict[str, Any], answer: dict[str, Any], balance: Decimal, shoe: bool = True) -> None:
    """What the page shows of a round is what the API answers for it."""
    cards = sorted(shown["cards"], key=lambda card: int(card["order"]))
    assert [int(card["order"]) for card in cards] == list(range(1, len(cards) + 1))
    if shoe:
        assert [(c["card"], c["hand"], int(c["position"])) for c in cards] == expected_cards(answer)
    else:  # no shoe positions: the tableau's order, Player and Banker in turn, then the draws
        first = [answer[hand]["cards"][i] for i in (0, 1) for hand in ("player", "banker")]
        assert [c["card"] for c in cards] == first + [draw["card"] for draw in answer["draws"]]
    for card in cards:
        code = card["card"]
        assert card["face"] == ("10" if code[0] == "T" else code[:-1]) + SUITS[code[-1]]
    for hand in ("player", "banker"):
        assert [c["card"] for c in cards if c["hand"] == hand] == answer[hand]["cards"]
        assert shown["totals"][hand] == [str(answer[hand]["total"])] * 2
        reason = next(r for r in shown["reasons"] if r["hand"] == hand)
        draw = next((d for d in answer["draws"] if d["hand"] == hand), None)
        if draw:
            assert (reason["action"], reason["card"]) == ("draws", draw["card"])
            assert draw["reason"] in reason["text"]
        else:
            stand = next(s for s in answer["stands"] if s["hand"] == hand)
            assert reason["action"] == "stands"
            assert stand["reason"] in reason["text"]
    assert shown["outcome"] == answer["outcome"]
    assert shown["outcomeText"].startswith(OUTCOMES[answer["outcome"]])
    settlement = answer.get("settlement")
    if "multiplier_settlement" in answer:
        check_multiplier_settlement(shown, answer["multiplier_settlement"])
    elif settlement is None:
        assert shown["bets"] == []
        assert shown["slip"] is None
    else:
        fields = ("result", "amount", "win", "commission", "returned")
        assert [(b["bet"], *(b[k] for k in fields)) for b in shown["bets"]] == [
            (b["type"], *(b[k] for k in fields)) for b in settlement["bets"]
        ]
        # On screen: the bet's name, then its amount, result, win, commission and returned.
        columns = ("amount", "result", "win", "commission", "returned")
        assert [[cell.replace(",", "") for cell in b["cells"][1:]] for b in shown["bets"]] == [
            [b[k] for k in columns] for b in settlement["bets"]
        ]
        assert {k: shown["slip"][k] for k in ("staked", "returned", "net")} == {
            k: settlement[k] for k in ("staked", "returned", "net")
        }
        written_net = ("+" if Decimal(settlement["net"]) > 0 else "") + settlement["net"]
        assert f"net {written_net}" in shown["slipText"].replace(",", "")
    assert amount(shown["balance"]) == balance


#: A multiplier game's round on the page: the multiplier cards, and each dealt card with its marks.
SHOWN_MULTIPLIERS = """() => {
  const body = document.querySelector("#round-body");
  return {
    drawn: Array.from(body.querySelectorAll(".multiplier-card"),
      (card) => [card.dataset.card, card.dataset.multiplier, card.querySelector(".times").textContent]),
    dealt: Array.from(body.querySelectorAll(".card"), (card) => [card.dataset.card,
      card.classList.contains("lit"), card.dataset.multiplier || null,
      card.querySelector(".lit-times") ? card.querySelector(".lit-times").textContent : null]),
  };
}"""


def check_multiplier_settlement(shown: dict[str, Any], settlement: dict[str, Any]) -> None:
    """Each bet's fee, multiplier, lit cards and return, and the slip's totals, as the API settled them."""
    # The row's data-* as the page keeps them (data-fee-kept is feeKept), and the answer's fields.
    kept = {"result": "result", "amount": "amount", "fee": "fee", "feeKept": "fee_kept"}
    kept |= {k: k for k in ("multiplier", "win", "commission", "capped", "returned")}
    assert [(b["bet"], {k: b[k] for k in kept}) for b in shown["bets"]] == [
        (b["type"], {k: str(b[field]) for k, field in kept.items()}) for b in settlement["bets"]
    ]
    assert [b["lit"] for b in shown["bets"]] == [
        " ".join(f"{card['card']}:{card['multiplier']}" for card in b["lit"]) for b in settlement["bets"]
    ]
    # On screen: the bet's name, its amount, fee, result, multiplier (its lit cards under it),
    # win, commission and returned.
    columns = {1: "amount", 2: "fee", 5: "win", 6: "commission", 7: "returned"}
    assert [{i: b["cells"][i].replace(",", "") for i in columns} for b in shown["bets"]] == [
        {i: b[k] for i, k in columns.items()} for b in settlement["bets"]
    ]
    for row, bet in zip(shown["bets"], settlement["bets"], strict=True):
        assert row["cells"][4].startswith(f"\u00d7{bet['multiplier']}")
        for card in bet["lit"]:
            assert f"\u00d7{card['multiplier']}" in row["cells"][4]
    totals = ("staked", "fees", "returned", "capped", "net")
    assert {k: shown["slip"][k] for k in totals} == {k: settlement[k] for k in totals}
    written_net = ("+" if Decimal(settlement["net"]) > 0 else "") + settlement["net"]
    assert f"net {written_net}" in shown["slipText"].replace(",", "")


def check_multiplier_cards(page: Page, answer: dict[str, Any]) -> int:
    """The round's multiplier cards as the API drew them, and every dealt card they light
    marked with its multiplier; how many dealt cards are lit."""
    marks = page.evaluate(SHOWN_MULTIPLIERS)
    drawn = {card["card"]: card["multiplier"] for card in answer["multiplier_cards"]}
    assert marks["drawn"] == [
        [card["card"], str(card["multiplier"]), f"×{card['multiplier']}"]
        for card in answer["multiplier_cards"]
    ]
    lit = 0
    for code, is_lit, multiplier, badge in marks["dealt"]:
        if code in drawn:
            assert (is_lit, multiplier, badge) == (True, str(drawn[code]), f"×{drawn[code]}")
            lit += 1
        else:
            assert (is_lit, multiplier, badge) == (False, None, None)
    return lit


def net(answer: dict[str, Any]) -> Decimal:
    settlement = answer.get("settlement")
    return Decimal(settlement["net"]) if settlement else Decimal(0)


def road_result(answer: dict[str, Any]) -> dict[str, Any]:
    return {
        "outcome": answer["outcome"],
        "player_pair": answer["player"]["pair"],
        "banker_pair": answer["banker"]["pair"],
        "natural": answer["natural"],
    }


def marks(svg: str) -> list[tuple[str, int, int, int]]:
    """Every mark of a roads picture: its road, column, row and result index."""
    return [
        (
            mark.get("data-road", ""),
            int(mark.get("data-column", "")),
            int(mark.get("data-row", "")),
            int(mark.get("data-index", "")),
        )
        for mark in ET.fromstring(svg).iter()
        if mark.get("data-road")
    ]


def test_a_whole_shoe_played_in_the_page_is_the_api_s_shoe(browser, server):
    watched = Watched(browser, server)
    page = watched.open()
    tables = api(server, "/v1/tables")
    standard = next(table for table in tables["tables"] if table["name"] == "standard")

    # The table as the API lists it: the tables, the bets offered, the pay table, the chips.
    commitment = page.locator("#commitment")
    commitment.wait_for()
    hash_before_play = commitment.text_content()
    assert hash_before_play
    assert len(hash_before_play) == 64
    table_choice = page.get_by_role("combobox", name="Table", exact=True)
    # The tables it deals plain rounds at: a multiplier game is chosen as a game, the peek table is peek's.
    plain = [t["name"] for t in tables["tables"] if "peek" not in t and "multipliers" not in t["rules"]]
    assert plain == ["standard", "tie_9", "no_commission", "ez", "tiger"]
    assert table_choice.locator("option").all_text_contents() == plain
    assert table_choice.input_value() == "standard"
    assert page.get_by_role("combobox", name="Dealing").input_value() == "shoe"
    offered = [b["type"] for b in standard["bets"]]
    assert sorted(page.eval_on_selector_all("button.bet", "bs => bs.map(b => b.dataset.bet)")) == sorted(
        offered
    )
    assert (
        page.eval_on_selector_all("#paytable-table tbody tr", "rs => rs.map(r => r.dataset.bet)") == offered
    )
    assert (
        page.eval_on_selector_all("input[name=chip]", "cs => cs.map(c => c.dataset.chip)")
        == standard["chips"]
    )
    expect(page.locator("#balance")).to_have_text("1,000.00")

    # Chips: the tie takes 20.00 at most; a fifth 5 is refused, naming the limit.
    bet(page, "tie", "5", times=4)
    assert stacks(page) == {"tie": "20.00"}
    page.locator("button.bet[data-bet=tie]").click()
    expect(page.get_by_role("alert")).to_contain_text("the table maximum is 20.00")
    expect(page.locator("#bet-tie-error")).to_contain_text("20.00")
    assert stacks(page) == {"tie": "20.00"}
    # Undo steps back through chips and through a clear; clear empties the table.
    page.get_by_role("button", name="Undo").click()
    assert stacks(page) == {"tie": "15.00"}
    page.get_by_role("button", name="Clear bets").click()
    assert stacks(page) == {}
    page.get_by_role("button", name="Undo").click()
    assert stacks(page) == {"tie": "15.00"}
    page.get_by_role("button", name="Clear bets").click()
    expect(page.get_by_role("button", name="Rebet")).to_be_disabled()  # no round dealt yet

    # The first round's bets, placed by their accessible names.
    choose_chip(page, "10")
    page.get_by_role("button", name="Player: no bet", exact=True).click()
    choose_chip(page, "5")
    page.get_by_role("button", name="Tie: no bet", exact=True).click()
    choose_chip(page, "1")
    page.get_by_role("button", name="Banker Pair: no bet", exact=True).click()
    slips = {1: {"player": "10.00", "tie": "5.00", "banker_pair": "1.00"}}
    assert stacks(page) == slips[1]
    shown = {1: deal(page, 1)}
    assert stacks(page) == slips[1]  # bets stay in place for the next game
    page.get_by_role("button", name="Clear bets").click()
    assert stacks(page) == {}
    page.get_by_role("button", name="Rebet").click()
    assert stacks(page) == slips[1]

    # Round 2 by keyboard only: arrow keys choose the chip, Tab reaches the
    # first bet area, Enter and Space each add a chip, Enter deals.
    choose_chip(page, "1")
    page.locator("#chip-1").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#chip-5")).to_be_checked()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.bet") == "player"
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    slips[2] = {"player": "20.00", "tie": "5.00", "banker_pair": "1.00"}
    assert stacks(page) == slips[2]
    page.locator("#deal").focus()
    page.keyboard.press("Enter")
    page.locator("#round[data-round='2'][aria-busy='false']").wait_for()
    shown[2] = page.evaluate(SHOWN_ROUND)

    # The rest of the shoe; the bets change now and then, as a player's would.
    changes = {
        10: ("banker", "10", 1, "dragon_bonus_banker", "1", 2),
        25: ("player", "5", 2, "either_pair", "1", 1),
        40: ("banker", "5", 3, "big", "5", 1),
        55: ("player", "10", 1, "small", "1", 3),
    }
    number = 2
    while not page.locator("#revealed-seed").count():
        number += 1
        if number in changes:
            page.get_by_role("button", name="Clear bets").click()
            first, first_chip, first_times, second, second_chip, second_times = changes[number]
            bet(page, first, first_chip, first_times)
            bet(page, second, second_chip, second_times)
        slips[number] = stacks(page)
        shown[number] = deal(page, number)
        assert number < 120, "the shoe never ended"
    rounds = number
    assert rounds >= MIN_ROUNDS

    # The shoe is over: its seed is shown, and is the one committed to before the first round.
    seed = page.locator("#revealed-seed").text_content() or ""
    assert hashlib.sha256(seed.encode()).hexdigest() == hash_before_play
    assert page.locator("#revealed-commitment").text_content() == hash_before_play
    assert page.locator("#commitment-check").get_attribute("data-holds") == "true"
    expect(page.locator("#shoe-before")).to_contain_text(f"{rounds} rounds")
    assert commitment.text_content() != hash_before_play  # the next shoe's, shown before its first round
    client_seed = watched.rounds[0]["client_seed"]
    seeds = {"server_seed": seed, "client_seed": client_seed, "nonce": 0, "table": "standard"}

    # The page asked for each round with its seeds, the round's number and the bets on the table.
    assert [body["round"] for body in watched.rounds] == list(range(1, rounds + 1))
    for body in watched.rounds:
        assert {k: body[k] for k in ("server_seed", "client_seed", "nonce", "table")} == seeds
        assert body["server_seed_hash"] == hash_before_play
        assert {b["type"]: b["amount"] for b in body["bets"]} == slips[body["round"]]

    # Every round shown is the API's for the same seeds and bets, and the balance adds up.
    shoe = api(server, "/v1/shoes", {**seeds, "to_round": 1})
    assert shoe["round_count"] == rounds
    balance = BANKROLL
    answers = []
    balances = []
    for number in range(1, rounds + 1):
        slip = [{"type": t, "amount": a} for t, a in slips[number].items()]
        answer = api(server, "/v1/rounds", {**seeds, "round": number, "bets": slip})
        balance += net(answer)
        check_round(shown[number], answer, balance)
        assert shown[number]["title"] == f"Round {number} of shoe 1"
        answers.append(answer)
        balances.append(str(balance))
    assert answers[-1]["round"]["last"]
    assert any(answer["round"]["cut_card_out"] for answer in answers)
    history = page.eval_on_selector_all(
        "#history-table tbody tr",
        "rs => rs.map(r => [r.dataset.round, r.dataset.outcome, r.dataset.balance])",
    )
    assert history == [
        [str(n), answer["outcome"], after]
        for n, (answer, after) in enumerate(zip(answers, balances, strict=True), start=1)
    ]

    # The roads: the service's picture of this shoe's results, a mark at every cell.
    page.locator(f"#roads-picture[data-results='{rounds}']").wait_for()
    results = [road_result(answer) for answer in answers]
    sent, accept, svg = watched.roads[-1]
    assert sent == {"results": results}
    assert accept == "image/svg+xml"
    assert svg == api(server, "/v1/roads", {"results": results}, accept="image/svg+xml")
    board = api(server, "/v1/roads", {"results": results})
    roads = ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig")
    assert sorted(marks(svg)) == sorted(
        (road, cell["column"], cell["row"], cell["index"]) for road in roads for cell in board[road]["cells"]
    )
    assert len([mark for mark in marks(svg) if mark[0] == "bead_plate"]) == rounds
    assert page.locator("#roads-picture").evaluate("image => image.naturalWidth > 0 && image.alt.length > 0")

    # The whole shoe at 1280 px: the last round, its roads and its revealed seed. The
    # top of it is the README's picture (docs/table.png is a copy of artifacts/table.png).
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "table-1280.png"), full_page=True)
    top = {"x": 0, "y": 0, "width": 1280, "height": 1960}
    page.screenshot(path=str(ARTIFACTS / "table.png"), full_page=True, clip=top)

    # The next shoe's burn and cut card are the service's, shown from its first round.
    next_shoe = deal(page, 1)
    burn = page.locator("#burn")
    next_first = watched.rounds[-1]
    burned = api(
        server,
        "/v1/shoes",
        {**{k: next_first[k] for k in ("server_seed", "client_seed", "nonce", "table")}, "to_round": 1},
    )
    assert burn.get_attribute("data-turned") == burned["burned"][0]
    assert burn.get_attribute("data-count") == str(len(burned["burned"]))
    expect(page.locator("#shoe-now")).to_contain_text(
        f"card {burned['cut_card_position'] + 1} of {burned['card_counts']['total']}"
    )
    assert next_shoe["title"] == "Round 1 of shoe 2"

    # At 375 px: nothing wider than the window, the bets within reach.
    page.set_viewport_size({"width": 375, "height": 812})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("button.bet[data-bet=banker]").scroll_into_view_if_needed()
    box = page.locator("button.bet[data-bet=banker]").bounding_box()
    assert box
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 375
    page.locator("#deal").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "table-375.png"), full_page=True)
    for width in (1280, 375):
        assert (ARTIFACTS / f"table-{width}.png").stat().st_size > 10_000
    watched.check_it_stayed_inside()


def test_a_table_that_reshuffles_deals_each_hand_from_a_new_seed(browser, server):
    watched = Watched(browser, server, width=375)
    page = watched.open()
    page.locator("#commitment").wait_for()
    page.get_by_role("combobox", name="Table", exact=True).select_option("tie_9")
    expect(page.get_by_role("combobox", name="Dealing")).to_have_value("reshuffle_each_hand")
    expect(page.locator("#shoe-now")).to_contain_text("no burn, no cut card")

    # Every bet here is 5.00 to 100.00: a 1.00 tie is refused before dealing, naming the minimum.
    bet(page, "banker", "5")
    bet(page, "tie", "1")
    page.locator("#deal").click()
    expect(page.get_by_role("alert")).to_contain_text("under the table minimum of 5.00")
    expect(page.locator("#bet-tie-error")).to_contain_text("5.00")
    assert watched.rounds == []
    page.get_by_role("button", name="Undo").click()

    balance = BANKROLL
    commitments = []
    for number in (1, 2, 3):
        commitments.append(page.locator("#commitment").text_content())
        shown = deal(page, number)
        body = watched.rounds[-1]
        assert "round" not in body
        assert body["table"] == "tie_9"
        # The hand's seed is shown once it is over, with the commitment shown before it.
        expect(page.locator("#revealed-commitment")).to_have_text(commitments[-1] or "")
        seed = page.locator("#revealed-seed").text_content() or ""
        assert hashlib.sha256(seed.encode()).hexdigest() == commitments[-1]
        seeds = {"server_seed": seed, "client_seed": body["client_seed"], "nonce": 0, "table": "tie_9"}
        answer = api(server, "/v1/rounds", {**seeds, "bets": [{"type": "banker", "amount": "5.00"}]})
        balance += net(answer)
        check_round(shown, answer, balance, shoe=False)
    assert len(set(commitments)) == 3
    page.locator("#roads-picture[data-results='3']").wait_for()
    watched.check_it_stayed_inside()


def test_a_table_that_reshuffles_dealt_from_a_shoe_says_so_in_its_rules(browser, server):
    """At tie_9, which reshuffles after each hand, the Dealing choice set to a whole shoe:
    the shoe, its rounds and its rules sheet are asked for with ``"dealing": "shoe"`` in
    the rules, which the service then deals by (a table's dealing is a rule every
    operation holds to), and each round is the API's for those rules."""
    watched = Watched(browser, server)
    page = watched.open()
    page.locator("#commitment").wait_for()
    page.get_by_role("combobox", name="Table", exact=True).select_option("tie_9")
    dealing = page.get_by_role("combobox", name="Dealing")
    expect(dealing).to_have_value("reshuffle_each_hand")
    dealing.select_option("shoe")
    bet(page, "banker", "5")
    balance = BANKROLL
    for number in (1, 2):
        shown = deal(page, number)
        body = watched.rounds[-1]
        assert body["rules"] == {"dealing": "shoe"}
        assert body["round"] == number
        answer = api(server, "/v1/rounds", body)
        assert answer["round"]["number"] == number
        balance += net(answer)
        check_round(shown, answer, balance)
    assert watched.shoes[-1]["rules"] == {"dealing": "shoe"}
    watched.check_it_stayed_inside()


def test_with_api_keys_the_page_asks_for_one_and_shows_the_service_s_422_at_the_bet(browser):
    with gunicorn(workers=1, env={"BACCARAT_API_KEYS": KEY}) as keyed:
        watched = Watched(browser, keyed)
        page = watched.page

        # A table list that says the tie takes 100.00, so that the page lets
        # 25.00 through and the service itself refuses it.
        page.route(keyed.url + "/v1/tables", raising_max("tie", "100.00"))
        watched.open()
        expect(page.get_by_role("alert")).to_contain_text("401")
        expect(page.get_by_role("status")).to_contain_text("requires an API key")
        key_box = page.get_by_label("API key")
        expect(key_box).to_be_focused()
        key_box.fill(KEY)
        key_box.press("Enter")
        page.locator("#commitment").wait_for()

        bet(page, "tie", "25")
        bet(page, "player", "10")
        page.locator("#deal").click()
        expect(page.get_by_role("alert")).to_contain_text("The bet slip cannot be settled as sent")
        expect(page.get_by_role("alert")).to_contain_text("/bets/0/amount")
        expect(page.locator("#bet-tie-error")).to_have_text(
            "tie bets on this slip total 25.00, over the table maximum of 20.00"
        )
        expect(page.locator("#bet-player-error")).to_be_hidden()
        expect(page.locator("#balance")).to_have_text("1,000.00")
        assert page.locator("#round").get_attribute("data-round") is None

        # Without the tie the round is dealt, with the key.
        page.get_by_role("button", name="Clear bets").click()
        bet(page, "player", "10")
        assert stacks(page) == {"player": "10.00"}
        shown = deal(page, 1)
        body = watched.rounds[-1]
        seeds = {k: body[k] for k in ("server_seed", "client_seed", "nonce", "table", "round")}
        answer = api(keyed, "/v1/rounds", {**seeds, "bets": [{"type": "player", "amount": "10.00"}]}, key=KEY)
        check_round(shown, answer, BANKROLL + net(answer))
        page.locator("#roads-picture[data-results='1']").wait_for()
        watched.check_it_stayed_inside(401, 422)
        page.close()  # its keep-alive connections would hold the server's graceful stop


def raising_max(bet_type: str, most: str) -> Callable[[Route], None]:
    """A route for GET /v1/tables that answers the service's table list with
    every table's ``bet_type`` maximum raised to ``most`` (an answer that is
    not a 200 goes through as it came)."""

    def route_tables(route: Route) -> None:
        answer = route.fetch()
        if answer.status != 200:
            route.fulfill(response=answer)
            return
        tables = answer.json()
        for table in tables["tables"]:
            for offered in table["bets"]:
                if offered["type"] == bet_type:
                    offered["max"] = most
        route.fulfill(response=answer, json=tables)

    return route_tables


def test_a_multiplier_game_shows_its_cards_the_lit_ones_and_takes_the_fees(browser, server):
    watched = Watched(browser, server)
    page = watched.page

    # A table list whose Player takes up to 1,000.00, so that a stake the balance covers
    # can still be refused for its fee (the table's own 200.00 would stop it first).
    page.route(server.url + "/v1/tables", raising_max("player", "1000.00"))
    watched.open()
    page.locator("#commitment").wait_for()
    games = api(server, "/v1/paytables")["multiplier_games"]
    lightning = next(game for game in games if game["name"] == "lightning")
    standard = next(t for t in api(server, "/v1/tables")["tables"] if t["name"] == "standard")

    # The games as GET /v1/paytables names them, after plain baccarat.
    choice = page.get_by_role("combobox", name="Game")
    expect(choice).to_be_enabled()
    expect(choice.locator("option")).to_have_text(
        ["Baccarat (no multipliers)"] + [game["name"] for game in games]
    )
    assert choice.input_value() == ""
    choice.select_option("lightning")
    expect(page.locator("#game-description")).to_have_text(lightning["description"])
    # Dealt as the table deals (a whole shoe) until the Dealing choice says each hand is reshuffled.
    dealing = page.get_by_role("combobox", name="Dealing")
    expect(dealing).to_have_value("shoe")
    expect(dealing).to_be_enabled()
    dealing.select_option("reshuffle_each_hand")
    expect(page.locator("#shoe-now")).to_contain_text("no burn, no cut card")

    # Only the bets the game pays, each with its pays and its fee.
    paid = [b["type"] for b in standard["bets"] if b["type"] in lightning["rule"]["pays"]]
    assert sorted(page.eval_on_selector_all("button.bet", "bs => bs.map(b => b.dataset.bet)")) == sorted(paid)
    assert page.eval_on_selector_all("#paytable-table tbody tr", "rs => rs.map(r => r.dataset.bet)") == paid
    expect(page.locator("button.bet[data-bet=player] .bet-pays")).to_have_text("pays 1:1 × multipliers")
    expect(page.locator("button.bet[data-bet=banker] .bet-pays")).to_have_text(
        "pays 1:1 × multipliers less 5%"
    )
    expect(page.locator("#bet-player-info")).to_have_text("1.00–1,000.00, fee 20%")
    expect(page.locator("#paytable-table tr[data-bet=tie]")).to_contain_text("A 20% fee on top of the stake")

    # A chip costs its stake and its fee: eight 100s on the Player cost 960.00; a ninth,
    # 900.00 and 180.00 in fees, is more than the balance of 1,000.00.
    bet(page, "player", "100", times=8)
    expect(page.locator("#fees")).to_have_text("160.00")
    page.locator("button.bet[data-bet=player]").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "A 100.00 chip would put 900.00 on the table and 180.00 in fees, 1,080.00 in all; "
        "the balance is 1,000.00"
    )
    assert stacks(page) == {"player": "800.00"}
    page.get_by_role("button", name="Clear bets").click()

    # Rounds until a dealt card is lit (at least three): each one the API's for the same seeds.
    bet(page, "player", "10")
    bet(page, "banker", "10")
    expect(page.locator("#staked")).to_have_text("20.00")
    expect(page.locator("#fees")).to_have_text("4.00")
    balance = BANKROLL

    # The stakes and fees leave the balance at the deal, before the service answers: the
    # first round's request is held until the page shows 1,000.00 less 24.00.
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(server.url + "/v1/rounds", hold)
    page.locator("#deal").click()
    expect(page.locator("#balance")).to_have_text("976.00")
    page.unroute(server.url + "/v1/rounds")
    held[0].continue_()
    page.locator("#round[data-round='1'][aria-busy='false']").wait_for()

    number = 0
    lit = 0
    while number < 3 or not lit:
        number += 1
        shown = page.evaluate(SHOWN_ROUND) if number == 1 else deal(page, number)
        body = watched.rounds[-1]
        # Dealt as the Dealing choice says, which the rules the round is played by record.
        assert body["rules"] == {"multipliers": "lightning", "dealing": "reshuffle_each_hand"}
        assert "round" not in body
        assert [(b["type"], b["amount"]) for b in body["bets"]] == [("player", "10.00"), ("banker", "10.00")]
        answer = api(server, "/v1/rounds", body)
        assert "settlement" not in answer
        settlement = answer["multiplier_settlement"]
        staked, fees, returned = (Decimal(settlement[k]) for k in ("staked", "fees", "returned"))
        assert (staked, fees) == (Decimal("20.00"), Decimal("4.00"))  # each 10.00 bet cost 12.00
        assert Decimal(settlement["net"]) == returned - staked - fees
        balance += returned - staked - fees
        check_round(shown, answer, balance, shoe=False)

        lit += check_multiplier_cards(page, answer)
        history = page.locator("#history-table tbody tr").last
        assert history.get_attribute("data-balance") == str(balance)
        assert number < 40, "no dealt card was lit in 40 rounds"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "table-lightning.png"), full_page=True)

    # The game choice and the round's words in Traditional Chinese; the games' names and
    # descriptions are the API's.
    page.get_by_role("combobox", name="Language").select_option("zh-Hant")
    expect(page.locator("#betting-title")).to_have_text("投注")
    choice = page.get_by_role("combobox", name="遊戲")
    expect(choice).to_have_value("lightning")
    expect(choice.locator("option")).to_have_text(["百家樂（無倍數）"] + [game["name"] for game in games])
    expect(page.locator("#game-description")).to_have_text(lightning["description"])
    expect(page.locator("#multiplier-cards-title")).to_have_text("倍數牌")
    heads = page.locator("#round-body .results thead th")
    expect(heads).to_have_text(["投注", "注額", "費用", "結果", "倍數", "贏得", "佣金", "返還"])
    expect(page.locator("#fees-shown")).to_have_text("費用 4.00")
    expect(page.locator("#bet-player-info")).to_have_text("1.00–1,000.00，費用 20%")
    page.screenshot(path=str(ARTIFACTS / "table-lightning-zh-hant.png"), full_page=True)

    # Back to plain baccarat: every bet of the table, no fee.
    choice.select_option("")
    expect(page.locator("#fees-shown")).to_be_hidden()
    assert sorted(page.eval_on_selector_all("button.bet", "bs => bs.map(b => b.dataset.bet)")) == sorted(
        b["type"] for b in standard["bets"]
    )

    # At 375 px the multiplier round, its multiplier cards and its wider slip fit the window.
    page.set_viewport_size({"width": 375, "height": 812})
    expect(page.locator("#multiplier-cards-title")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("#round").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "table-lightning-375.png"), full_page=True)
    watched.check_it_stayed_inside()


def test_a_multiplier_game_s_shoe_is_the_api_s_multiplier_shoe(browser, server):
    watched = Watched(browser, server)
    page = watched.open()
    page.locator("#commitment").wait_for()
    page.get_by_role("combobox", name="Game").select_option("golden_wealth")
    expect(page.get_by_role("combobox", name="Dealing")).to_have_value("shoe")
    bet(page, "banker", "25")
    bet(page, "tie", "5")
    expect(page.locator("#fees")).to_have_text("6.00")

    # Round by round, each the API's round n of the shoe for the page's seeds and the game.
    balance = BANKROLL
    rounds = 4
    answers = []
    for number in range(1, rounds + 1):
        shown = deal(page, number)
        body = watched.rounds[-1]
        assert body["round"] == number
        assert body["rules"] == {"multipliers": "golden_wealth"}
        answer = api(server, "/v1/rounds", body)
        answers.append(answer)
        balance += Decimal(answer["multiplier_settlement"]["net"])
        check_round(shown, answer, balance)
        check_multiplier_cards(page, answer)
        assert shown["title"] == f"Round {number} of shoe 2"  # choosing the game began a new shoe

    # The shoe the page asked for (its burn and cut card) is the game's, and the whole shoe
    # dealt by the API has the rounds the page showed.
    seeds = {k: watched.rounds[0][k] for k in ("server_seed", "client_seed", "nonce", "table")}
    assert [{k: b[k] for k in seeds} for b in watched.rounds] == [seeds] * rounds
    (first,) = watched.shoes
    assert first == {
        **seeds,
        "server_seed_hash": watched.rounds[0]["server_seed_hash"],
        "rules": {"multipliers": "golden_wealth"},
        "to_round": 1,
    }
    whole = api(server, "/v1/shoes", {**first, "bets": watched.rounds[0]["bets"], "to_round": rounds})
    assert whole["multiplier_algorithm"] == answers[0]["multiplier_algorithm"]
    for dealt, answer in zip(whole["rounds"], answers, strict=True):
        assert dealt["multiplier_cards"] == answer["multiplier_cards"]
        assert dealt["multiplier_settlement"] == answer["multiplier_settlement"]
    expect(page.locator("#rounds-dealt")).to_have_text(str(rounds))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "table-golden-wealth-shoe.png"), full_page=True)
    watched.check_it_stayed_inside()


CHOOSE_GOLDEN_WEALTH = """() => {
  const game = document.getElementById("game");
  game.value = "golden_wealth";
  game.dispatchEvent(new Event("change"));
}"""


def test_a_game_chosen_while_the_page_is_busy_is_the_game_dealt(browser, server):
    """The page's first shoe is still being set up (its rules sheet held on the way) when
    Golden Wealth is chosen: the choices are closed while the page works, and a choice
    that reaches it then anyway is queued behind that work, never dropped. The first
    round is Golden Wealth's, from the shoe that choice began, never plain baccarat's
    at a table showing the game's fee."""
    watched = Watched(browser, server)
    page = watched.page
    held: list[Route] = []
    # The first rules sheet is held on its way; any later one passes.
    sheets = server.url + "/v1/rules-sheets"
    page.route(sheets, lambda route: route.continue_() if held else held.append(route))
    watched.open()
    page.locator("#commitment").wait_for()
    while not held:
        page.wait_for_timeout(10)
    expect(page.get_by_role("combobox", name="Game")).to_be_disabled()
    expect(page.locator("#deal")).to_be_disabled()
    page.evaluate(CHOOSE_GOLDEN_WEALTH)
    held[0].continue_()
    bet(page, "banker", "25")
    expect(page.locator("#fees")).to_have_text("5.00")
    shown = deal(page, 1)
    assert watched.rounds[-1]["rules"] == {"multipliers": "golden_wealth"}
    assert watched.shoes[-1]["rules"] == {"multipliers": "golden_wealth"}
    assert shown["title"] == "Round 1 of shoe 2"
    answer = api(server, "/v1/rounds", watched.rounds[-1])
    check_round(shown, answer, BANKROLL + Decimal(answer["multiplier_settlement"]["net"]))
    watched.check_it_stayed_inside()


@pytest.mark.parametrize("game", ["golden_wealth", ""])
def test_a_deal_at_once_after_choosing_a_game_deals_that_game(browser, server, game):
    """Deal clicked the moment a game is chosen (and the moment plain baccarat is chosen
    back): the round waits for the shoe the choice begins, and is that game's."""
    watched = Watched(browser, server)
    page = watched.open()
    page.locator("#commitment").wait_for()
    choice = page.get_by_role("combobox", name="Game")
    if not game:  # from a multiplier game back to plain baccarat
        choice.select_option("golden_wealth")
    choice.select_option(game)
    bet(page, "banker", "25")
    page.locator("#deal").click()
    page.locator("#round[data-round='1'][aria-busy='false']").wait_for()
    expected = {"rules": {"multipliers": game}} if game else {}
    assert {k: v for k, v in watched.rounds[-1].items() if k == "rules"} == expected
    assert {k: v for k, v in watched.shoes[-1].items() if k == "rules"} == expected
    watched.check_it_stayed_inside()


#: Hand names and outcomes in Traditional Chinese (docs/glossary.md).
HANDS_ZH_HANT = {"player": "閒", "banker": "莊"}
OUTCOMES_ZH_HANT = {"player": "閒贏", "banker": "莊贏", "tie": "和"}


def vietnamese(amount: Decimal) -> str:
    """An amount as Vietnamese writes it (CLDR): "1.000,00"."""
    return f"{amount:,.2f}".replace(",", " ").replace(".", ",").replace(" ", ".")


def test_the_page_speaks_the_language_chosen_and_asks_the_service_for_it(browser, server):
    watched = Watched(browser, server)
    page = watched.open()
    page.locator("#commitment").wait_for()
    expect(page.locator("html")).to_have_attribute("lang", "en")  # the headless browser's language

    # Traditional Chinese, chosen by its own name: the page's words are the table catalogue's.
    picker = page.get_by_role("combobox", name="Language")
    assert picker.locator("option").all_text_contents() == [
        "English",
        "中文 (简体)",
        "中文 (繁體)",
        "한국어",
        "日本語",
        "ไทย",
        "Tiếng Việt",
    ]
    picker.select_option(label="中文 (繁體)")
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    expect(page).to_have_title("百家樂參考牌桌")
    expect(page.locator("#betting-title")).to_have_text("投注")
    expect(page.locator("button.bet[data-bet=player] .bet-name")).to_have_text("閒")
    expect(page.locator("button.bet[data-bet=banker] .bet-name")).to_have_text("莊")
    expect(page.get_by_role("combobox", name="語言")).to_have_value("zh-Hant")
    expect(page.get_by_role("button", name="發牌")).to_be_enabled()
    asked_before = len(watched.languages)

    # Rounds until a hand draws: the reasons on the page are the service's in Chinese.
    bet(page, "player", "10")
    number = 0
    while True:
        number += 1
        shown = deal(page, number)
        if any(reason["action"] == "draws" for reason in shown["reasons"]):
            break
        assert number < 30, "no hand drew in 30 rounds"
    body = watched.rounds[-1]
    answer = api(server, "/v1/rounds", body, language="zh-Hant")
    english = api(server, "/v1/rounds", body)
    for reason in shown["reasons"]:
        hand, decisions = reason["hand"], "draws" if reason["action"] == "draws" else "stands"
        (said,) = [decision["reason"] for decision in answer[decisions] if decision["hand"] == hand]
        (in_english,) = [decision["reason"] for decision in english[decisions] if decision["hand"] == hand]
        assert said != in_english
        assert reason["text"].startswith(HANDS_ZH_HANT[hand])
        assert reason["text"].endswith(said)
    outcome = OUTCOMES_ZH_HANT[answer["outcome"]]
    assert shown["outcomeText"] == f"{outcome}：{answer['outcome_reason']['reason']}"
    (line,) = answer["settlement"]["bets"]
    assert shown["bets"][0]["cells"][0] == "閒" + line["reason"]
    assert line["reason"] != english["settlement"]["bets"][0]["reason"]
    assert shown["title"] == f"第 1 靴第 {number} 局"
    # Every API call since the choice asked for Traditional Chinese.
    assert {language for _, language in watched.languages[asked_before:]} == {"zh-Hant"}

    # The choice is kept in the browser: a reload starts in Traditional Chinese.
    page.reload()
    page.locator("#commitment").wait_for()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    expect(page.locator("#betting-title")).to_have_text("投注")
    expect(page.get_by_role("combobox", name="語言")).to_have_value("zh-Hant")
    assert page.evaluate("document.cookie") == ""

    # Vietnamese amounts in Vietnamese's number format; the slip sent is the API's decimals.
    page.get_by_role("combobox", name="語言").select_option("vi")
    expect(page.locator("#betting-title")).to_have_text("Cược")
    expect(page.locator("#balance")).to_have_text(vietnamese(BANKROLL))
    bet(page, "banker", "25")
    expect(page.locator("#staked")).to_have_text(vietnamese(Decimal("25")))
    deal(page, 1)
    assert watched.rounds[-1]["bets"] == [{"id": "banker", "type": "banker", "amount": "25.00"}]
    balance = Decimal(page.locator("#history-table tbody tr").last.get_attribute("data-balance") or "")
    expect(page.locator("#balance")).to_have_text(vietnamese(balance))
    watched.check_it_stayed_inside()


def test_the_page_starts_in_the_browser_s_language(browser, server):
    watched = Watched(browser, server, locale="zh-TW")
    page = watched.open()
    page.locator("#commitment").wait_for()
    expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    expect(page.get_by_role("combobox", name="語言")).to_have_value("zh-Hant")
    expect(page.get_by_role("button", name="發牌")).to_be_visible()
    watched.check_it_stayed_inside()
