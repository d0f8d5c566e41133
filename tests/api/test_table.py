"""GET /table: the reference table page and its files come from the service alone.

The browser test (tests/test_table_browser.py) plays the page; these check
what it is made of and how it is served, without a browser, and that it has
its words in every language the service speaks.
"""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from service.api import table
from service.app import create_app
from service.baccarat.bets.types import BetType
from service.contract.language import ENGLISH, TAGS, speaks

from .. import tools

ROOT = Path(__file__).parents[2]
URL_ATTRIBUTES = re.compile(r"""\b(?:src|href)\s*=\s*["']([^"']+)["']""")
IMPORTS = re.compile(r"""^import\s.*?\sfrom\s+"([^"]+)";$""", re.MULTILINE | re.DOTALL)
#: What no page file may do: write HTML from strings, or run strings as code.
UNSAFE_SINKS = ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function")
KEY = "k-7f3a9c51d0e24b86"


@pytest.fixture(scope="module")
def page():
    return table.read_page(table.FILES, table.page_languages())


@pytest.fixture
def keyed():
    return create_app({"TESTING": True, "API_KEYS": (KEY,)}).test_client()


def directives(policy: str) -> dict[str, str]:
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


def test_the_page_is_served_with_a_policy_that_keeps_it_inside_the_service(client):
    response = client.get("/table")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    policy = directives(response.headers["Content-Security-Policy"])
    for directive in ("default-src", "script-src", "style-src", "connect-src"):
        assert policy[directive] == "'self'", directive
    assert policy["img-src"] == "'self' blob:"  # the roads picture, fetched from the API
    assert policy["object-src"] == policy["base-uri"] == policy["form-action"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    assert policy["require-trusted-types-for"] == "'script'"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


def test_the_page_is_revalidated_and_answers_304_when_unchanged(client, page):
    response = client.get("/table")
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["ETag"] == f'"{page.digest}"'
    again = client.get("/table", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_the_page_loads_only_its_own_files_and_runs_no_inline_code(client, page):
    html = client.get("/table").get_data(as_text=True)
    urls = URL_ATTRIBUTES.findall(html)
    assert sorted(urls) == sorted(
        [f"{page.assets_url}/{name}" for name in ("icon.svg", "table.css", "main.js")] + ["/docs"]
    )
    assert table.ASSETS_MARKER not in html
    assert "http://" not in html
    assert "https://" not in html
    assert re.findall(r"<script\b[^>]*>", html) == [f'<script type="module" src="{page.assets_url}/main.js">']
    assert "<style" not in html
    assert not re.search(r"\sstyle\s*=", html)
    assert not re.search(r"\son[a-z]+\s*=", html)


def test_the_scripts_import_only_each_other_and_write_no_html(page):
    scripts = {name: asset.body.decode() for name, asset in page.assets.items() if name.endswith(".js")}
    assert "main.js" in scripts
    for name, source in scripts.items():
        for imported in IMPORTS.findall(source):
            assert imported.startswith("./"), f"{name} imports {imported}"
            assert imported[2:] in scripts, f"{name} imports {imported}"
        for sink in UNSAFE_SINKS:
            assert sink not in source, f"{name} uses {sink}"
        assert "://" not in source, f"{name} names an address"


@pytest.mark.parametrize(
    ("name", "mimetype"),
    [
        ("main.js", "text/javascript"),
        ("money.js", "text/javascript"),
        ("table.css", "text/css"),
        ("icon.svg", "image/svg+xml"),
    ],
)
def test_the_files_are_served_from_the_package_and_kept_for_a_year(client, page, name, mimetype):
    response = client.get(f"{page.assets_url}/{name}")
    assert response.status_code == 200
    assert response.mimetype == mimetype
    assert response.data == (table.FILES / name).read_bytes()
    cache = response.headers["Cache-Control"]
    assert "max-age=31536000" in cache
    assert "immutable" in cache
    assert "public" in cache
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert (
        client.get(
            f"{page.assets_url}/{name}", headers={"If-None-Match": response.headers["ETag"]}
        ).status_code
        == 304
    )


@pytest.mark.parametrize(
    "path",
    [
        "/table/assets/{digest}/index.html",
        "/table/assets/{digest}/missing.js",
        "/table/assets/{digest}/..%2Ftable.py",
        "/table/assets/0000000000000000/main.js",
        "/table/assets/main.js",
        "/table/assets/{digest}/words/fr.json",
        "/table/assets/{digest}/words/zh-TW.json",
        "/table/",
    ],
)
def test_anything_else_is_a_404_problem(client, page, path):
    response = client.get(path.format(digest=page.digest))
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_the_digest_names_every_file(tmp_path):
    (tmp_path / "index.html").write_text('<script type="module" src="{{assets}}/main.js"></script>')
    (tmp_path / "main.js").write_text("export {};\n")
    first = table.read_page(tmp_path)
    assert (
        first.html.decode() == f'<script type="module" src="/table/assets/{first.digest}/main.js"></script>'
    )
    (tmp_path / "main.js").write_text("export const changed = 1;\n")
    assert table.read_page(tmp_path).digest != first.digest


def test_the_digest_names_every_language_s_words(tmp_path):
    (tmp_path / "index.html").write_text("<select>{{languages}}</select>")
    said = table.PageLanguage("ko", "한국어", {"Deal": "딜"})
    first = table.read_page(tmp_path, [said])
    assert first.html.decode() == '<select><option value="ko" lang="ko">한국어</option></select>'
    assert json.loads(first.words["ko"].body) == {"Deal": "딜"}
    retold = table.PageLanguage("ko", "한국어", {"Deal": "카드 돌리기"})
    assert table.read_page(tmp_path, [retold]).digest != first.digest


def test_a_file_of_another_kind_stops_the_start(tmp_path):
    (tmp_path / "index.html").write_text("<html></html>")
    (tmp_path / "notes.txt").write_text("not served")
    with pytest.raises(ValueError, match=r"notes\.txt: the table page serves only"):
        table.read_page(tmp_path)


def table_messages() -> set[str]:
    """The English messages of the ``table`` domain, as ``make translations`` extracts them."""
    with (ROOT / "babel" / f"{table.DOMAIN}.cfg").open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    return {
        message for _, _, message, _, _ in extract_from_dir(str(ROOT / "service"), method_map, options_map)
    }


def placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("tag", list(TAGS))
def test_the_words_of_every_language_have_every_message_of_the_page(client, tag):
    page = client.get("/table").get_data(as_text=True)
    assets = re.search(r'src="(/table/assets/[0-9a-f]+)/main\.js"', page)
    assert assets
    response = client.get(f"{assets[1]}/words/{tag}.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "immutable" in response.headers["Cache-Control"]  # the digest covers the words
    words = response.get_json()
    if tag == ENGLISH:
        assert words == {}  # the page's own words are its English
        return
    messages = table_messages()
    assert len(messages) > 100
    assert sorted(words) == sorted(messages)
    assert [message for message, translated in words.items() if not translated.strip()] == []
    mismatched = [m for m, translated in words.items() if placeholders(translated) != placeholders(m)]
    assert mismatched == []


def test_the_page_offers_every_language_named_in_itself(client):
    html = client.get("/table").get_data(as_text=True)
    options = re.findall(r'<option value="([^"]+)" lang="([^"]+)">([^<]+)</option>', html)
    assert options == [
        ("en", "en", "English"),
        ("zh-Hans", "zh-Hans", "中文 (简体)"),
        ("zh-Hant", "zh-Hant", "中文 (繁體)"),
        ("ko", "ko", "한국어"),
        ("ja", "ja", "日本語"),
        ("th", "th", "ไทย"),
        ("vi", "vi", "Tiếng Việt"),
    ]
    assert [tag for tag, _, _ in options] == list(TAGS)
    assert table.LANGUAGES_MARKER not in html


def test_every_word_of_the_page_is_a_message_and_every_message_is_on_the_page():
    """index.html names its words (data-words, data-words-label); page_words.js holds them."""
    html = (table.FILES / "index.html").read_text()
    named = set(re.findall(r'data-words(?:-label)?="([\w-]+)"', html))
    script = (table.FILES / "page_words.js").read_text()
    held = set(re.findall(r'^  "?([\w-]+)"?: N_\(', script, re.MULTILINE))
    assert named == held
    # Nothing a reader sees is left in the page itself: only the slots' code and links.
    text = re.sub(r"<(script|style)\b.*?</\1>|<!--.*?-->|<[^>]+>|\{\{\w+\}\}", " ", html, flags=re.DOTALL)
    assert text.split() == [
        "–",
        "POST",
        "/v1/rounds",
        "GET",
        "/v1/tables",
        "GET",
        "/v1/paytables",
        "POST",
        "/v1/seeds",
        "POST",
        "/v1/shoes",
        "POST",
        "/v1/roads",
        "/docs",
    ]


def test_a_language_whose_catalogue_is_not_compiled_stops_the_start(tmp_path):
    with pytest.raises(RuntimeError, match="make translations"):
        table.PageLanguage.load("th", tmp_path)


def test_every_bet_type_has_its_name_on_the_table():
    script = (table.FILES / "words.js").read_text()
    names = dict(re.findall(r'^  (\w+): N_\("([^"]+)"\),$', script, re.MULTILINE))
    assert set(BetType) <= set(names)
    assert names["banker_pair"] == "Banker Pair"


def test_the_page_and_its_files_need_no_api_key_but_its_calls_do(keyed, page):
    assert keyed.get("/table").status_code == 200
    with keyed.get(f"{page.assets_url}/main.js") as response:
        assert response.status_code == 200
    assert keyed.get("/v1/tables").status_code == 401
    assert keyed.get("/v1/tables", headers={"Authorization": f"Bearer {KEY}"}).status_code == 200


def test_the_page_is_not_part_of_the_api_document(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    assert not [path for path in paths if path.startswith("/table")]


def test_the_package_data_ships_every_file_of_the_page():
    """``pip install .`` (the Dockerfile's) installs only the files that
    ``[tool.setuptools.package-data]`` names besides the modules: each of the
    page's files must match one of its globs, expanded as setuptools does,
    from the package's folder."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package = ROOT / "service" / "api"
    shipped = {path for pattern in settings["package-data"]["service.api"] for path in package.glob(pattern)}
    files = {path for path in table.FILES.iterdir() if path.is_file()}
    assert files
    assert files <= shipped


#: The page's money, bet-slip and language modules, run by Node.js on their own (they touch no DOM).
MODULES_SCRIPT = """
import { formatAmount, formatMinor, formatNumber, formatPercent, odds, toMinor } from "%(folder)s/money.js";
import { Bets, limitProblems } from "%(folder)s/bets.js";
import { speaks, startingLanguage } from "%(folder)s/language.js";
const spoken = %(spoken)s;
const refused = (text) => { try { toMinor(text, 2); return false; } catch { return true; } };
const bets = new Bets();
bets.add("tie", 500); bets.add("tie", 500); bets.add("player", 1000);
const placed = bets.slip(2);
bets.clear(); bets.undo();
const undone = bets.slip(2);
bets.dealt(); bets.clear(); bets.rebet();
const limits = new Map([
  ["tie", {min: 100, max: 2000, name: "Tie"}],
  ["player", {min: 500, max: 20000, name: "Player"}],
]);
let tenths = 0;
for (let i = 0; i < 10; i += 1) tenths += toMinor("0.10", 2);
console.log(JSON.stringify({
  read: ["23.75", "1", "0.1", "-0.05", "1000.00"].map((text) => toMinor(text, 2)),
  refused: ["1.005", "1e3", "abc", " 1", "0x10", "NaN", "99999999999999999"].map(refused),
  tenths,
  written: [[100000, 2], [-550, 2], [5, 2], [123456789, 2], [7, 0]].map(([units, digits]) =>
    formatMinor(units, digits)),
  odds: ["0.5", "0.54", "8", "1.5", "0.95"].map(odds),
  percent: ["0.05", "0.045", "0", "0.10"].map((rate) => formatPercent(rate, "en")),
  shown: spoken.map((tag) => [
    formatAmount(123456789, 2, tag), formatAmount(-2500, 2, tag, {signed: true}),
    formatAmount(1875, 2, tag, {signed: true}), formatAmount(0, 2, tag, {signed: true}),
    formatAmount(900719925474099, 2, tag), formatNumber("2500", tag),
  ]),
  speaks: %(asked)s.map((tag) => speaks(tag, spoken)),
  starting: [[], ["fr", "zh-HK", "ko"], ["de-CH", "ja-JP"], ["yue", "*"]].map((tags) =>
    startingLanguage(spoken, tags)),
  placed, undone, rebet: bets.slip(2),
  limits: limitProblems(new Map([["tie", 2500], ["player", 100]]), limits, 2).map((p) => p.message),
}));
"""


#: Language tags a browser may send, from the service's own negotiation tests.
ASKED = ["th-TH", "zh-TW", "zh-HK", "zh-MO", "zh-Hant", "zh-Hant-CN", "zh", "zh-CN", "zh-SG", "zh-Hans-HK"]
ASKED += ["ZH-tw", "ko-KR", "ja", "vi-VN", "en-GB", "en", "fr", "yue-HK", "*", ""]


def test_the_page_counts_money_in_minor_units_and_keeps_its_slip():
    node = tools.executable("node", "apt-get install nodejs")
    script = MODULES_SCRIPT % {
        "folder": table.FILES.as_uri(),
        "spoken": json.dumps(list(TAGS)),
        "asked": json.dumps(ASKED),
    }
    ran = subprocess.run(
        [node, "--no-warnings", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    shown = json.loads(ran.stdout)
    assert shown["read"] == [2375, 100, 10, -5, 100000]
    assert shown["refused"] == [True] * 7
    assert shown["tenths"] == 100  # 0.10 ten times is 1.00, exactly
    assert shown["written"] == ["1000.00", "-5.50", "0.05", "1234567.89", "7"]  # as the API reads them
    assert shown["odds"] == ["1:2", "0.54:1", "8:1", "1.5:1", "0.95:1"]
    assert shown["percent"] == ["5%", "4.5%", "0%", "10%"]
    # Each language's CLDR number format, from the exact decimal string (no float: the last
    # amount is beyond a float's exact cents).
    grouped_by_comma = ["1,234,567.89", "-25.00", "+18.75", "0.00", "9,007,199,254,740.99", "2,500"]
    assert dict(zip(TAGS, shown["shown"], strict=True)) == {
        **{tag: grouped_by_comma for tag in TAGS if tag != "vi"},
        "vi": ["1.234.567,89", "-25,00", "+18,75", "0,00", "9.007.199.254.740,99", "2.500"],
    }
    # The page picks a language from the browser's as the service does from Accept-Language.
    assert shown["speaks"] == [speaks(tag) if tag else None for tag in ASKED]
    assert shown["starting"] == ["en", "zh-Hant", "ja", "en"]
    slip = [
        {"id": "tie", "type": "tie", "amount": "10.00"},
        {"id": "player", "type": "player", "amount": "10.00"},
    ]
    assert shown["placed"] == slip
    assert shown["undone"] == slip  # Undo takes back a Clear
    assert shown["rebet"] == slip  # Rebet puts the last dealt round's bets back
    assert shown["limits"] == [
        "Tie: 25.00 is over the table maximum of 20.00",
        "Player: 1.00 is under the table minimum of 5.00",
    ]


#: The page's multiplier game module, run by Node.js on its own, with Lightning's rule
#: as GET /v1/paytables gives it.
GAMES_SCRIPT = """
import { feeOf, feesOf, multiplierPayLines, multiplierPaysInShort, offeredBets } from "%(folder)s/games.js";
const game = %(game)s;
const odd = {...game, rule: {...game.rule, fee: {...game.rule.fee, rate: "0.125"}}};
const offered = [{type: "player"}, {type: "banker"}, {type: "tie"}, {type: "big"}, {type: "player_pair"}];
console.log(JSON.stringify({
  offered: offeredBets(offered, game).map((bet) => bet.type),
  plain: offeredBets(offered, null).map((bet) => bet.type),
  fees: [[100, "player"], [1000, "banker"], [5, "tie"], [1, "tie"], [2500, "big"]].map(([units, type]) =>
    feeOf(game, type, units)),
  noGame: feeOf(null, "player", 1000),
  odd: [feeOf(odd, "player", 800), feeOf(odd, "player", 100)],
  slip: feesOf(odd, new Map([["player", 800], ["banker", 100], ["tie", 1000]])),
  short: ["player", "banker", "tie"].map((type) => multiplierPaysInShort(game, type)),
  lines: ["banker", "tie", "player_pair"].map((type) => multiplierPayLines(game, type)),
}));
"""


def test_the_page_counts_a_multiplier_game_s_fees_in_minor_units_exactly(client):
    node = tools.executable("node", "apt-get install nodejs")
    games = client.get("/v1/paytables").get_json()["multiplier_games"]
    lightning = next(game for game in games if game["name"] == "lightning")
    script = GAMES_SCRIPT % {"folder": table.FILES.as_uri(), "game": json.dumps(lightning)}
    ran = subprocess.run(
        [node, "--no-warnings", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    shown = json.loads(ran.stdout)
    assert shown["offered"] == ["player", "banker", "tie", "player_pair"]  # only the bets the rule pays
    assert shown["plain"] == ["player", "banker", "tie", "big", "player_pair"]
    # 20%: 1.00 costs 0.20 more, 10.00 2.00; 0.05 is the smallest stake with a fee in whole cents.
    assert shown["fees"] == [20, 200, 1, None, 0]
    assert shown["noGame"] == 0
    # A rate of 12.5%: 8.00 pays 1.00; 1.00 would pay 0.125, which is refused, never rounded.
    assert shown["odd"] == [100, None]
    assert shown["slip"] == {"fees": 225, "finer": ["banker"]}
    assert shown["short"] == ["1:1 × multipliers", "1:1 × multipliers less 5%", "5:1 × multipliers"]
    assert shown["lines"] == [
        [
            "On a win: 1:1 × the multipliers of the winning hand's lit cards less 5% commission",
            "On a tie: push (stake returned), the fee kept",
            "A 20% fee on top of the stake",
        ],
        ["On a win: 5:1 × the multipliers of every lit card of the round", "A 20% fee on top of the stake"],
        ["On a win: 9:1 × the multipliers of the pair's lit cards", "A 20% fee on top of the stake"],
    ]
