"""The sheet's pages: one self-contained, accessible HTML document in the
language asked, and Markdown."""

from __future__ import annotations

from decimal import Decimal
from html import escape
from html.parser import HTMLParser

import pytest

from service.baccarat.peek.round import PEEK
from service.baccarat.sheets.sheet import rules_sheet
from service.baccarat.tables.rules import TABLES, BetLimits, resolve_rules
from service.contract.language import TAGS, Languages
from service.contract.sheet_pages import TABLED_WHOLE, html_page, markdown_page
from service.contract.sheets import sentence

LANGUAGES = Languages.load()


class Page(HTMLParser):
    """What a page holds: its tags with their attributes, in order."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def named(self, name: str) -> list[dict[str, str | None]]:
        return [attrs for tag, attrs in self.tags if tag == name]


@pytest.mark.parametrize("tag", list(TAGS))
def test_the_page_is_in_the_language_asked_and_loads_nothing(tag):
    text = html_page(rules_sheet(TABLES["standard"].rules), LANGUAGES[tag])
    page = Page(text)
    assert page.named("html") == [{"lang": tag}]
    assert not page.named("script")
    assert not page.named("link")
    assert not page.named("img")
    assert "url(" not in text
    assert "@import" not in text
    assert "http" not in text
    assert not any("src" in attrs or "href" in attrs for _, attrs in page.tags)
    assert "@media print" in text


def test_the_chart_and_pay_tables_are_tables_with_captions_and_header_cells():
    text = html_page(rules_sheet(TABLES["ez"].rules), LANGUAGES["en"])
    page = Page(text)
    tables, captions = page.named("table"), page.named("caption")
    assert len(tables) == len(captions) == 1 + len(TABLES["ez"].rules.bet_types)
    assert all(attrs.get("scope") in ("col", "row", "colgroup") for attrs in page.named("th"))
    assert len(page.named("h1")) == 1
    assert len(page.named("h2")) == len(rules_sheet(TABLES["ez"].rules).sections)


def test_markdown_has_a_heading_per_section_and_the_chart():
    table = TABLES["tie_9"]
    sheet = rules_sheet(table.rules, dealing=table.dealing)
    text = markdown_page(sheet, LANGUAGES["en"])
    assert text.count("\n## ") == len(sheet.sections)
    assert "| 3 | Draw | Draw | Draw | Draw | Draw | Draw | Draw | Draw | Draw | Stand | Draw |" in text
    assert "- The cards are reshuffled after each hand" in text
    assert "| the totals are equal | 9:1 |" in text


def assert_the_pages_say_every_sentence(sheet, language) -> None:
    html, markdown = html_page(sheet, language), markdown_page(sheet, language)
    for section in sheet.sections:
        for line in section.lines:
            if line.code in TABLED_WHOLE:
                continue
            said = sentence(line, language)
            assert escape(said) in html
            assert f"- {said}" in markdown


@pytest.mark.parametrize("tag", list(TAGS))
@pytest.mark.parametrize("name", list(TABLES))
def test_the_pages_say_every_sentence_the_json_says(name, tag):
    """Each sentence of the sheet is written whole in the HTML and the
    Markdown, but for a pay line whose table row says it all (when, and what
    it pays): a commission line is written whole too, its row showing only
    what the win pays in all."""
    table, language = TABLES[name], LANGUAGES[tag]
    sheet = rules_sheet(table.rules, dealing=table.dealing)
    assert_the_pages_say_every_sentence(sheet, language)


#: Tables read as a player would, beyond the presets: few decks, whole units,
#: and Peek Baccarat played as its table plays it (its peek section, its stakes).
_WHOLE = {"minor_unit": 0}
READ_AS_PLAYED = {
    "peek": ("peek", {}),
    "peek, whole units, one deck": (
        "peek",
        {
            **_WHOLE,
            "decks": 1,
            "limits": {
                bet: BetLimits(min=Decimal(5), max=Decimal(200)) for bet in TABLES["peek"].rules.bet_types
            },
        },
    ),
    "lightning, whole units, one deck": (
        "lightning",
        {
            **_WHOLE,
            "decks": 1,
            "limits": {
                bet: BetLimits(min=Decimal(5), max=Decimal(500))
                for bet in TABLES["lightning"].rules.bet_types
            },
        },
    ),
    "golden wealth, two decks": ("golden_wealth", {"decks": 2}),
}


@pytest.mark.parametrize("tag", list(TAGS))
@pytest.mark.parametrize("case", list(READ_AS_PLAYED))
def test_the_pages_say_every_sentence_the_json_says_as_the_table_plays(case, tag):
    name, overrides = READ_AS_PLAYED[case]
    rules, language = resolve_rules(name, overrides), LANGUAGES[tag]
    sheet = rules_sheet(rules, dealing=rules.dealing, peek=PEEK if TABLES[name].peek else None)
    assert_the_pages_say_every_sentence(sheet, language)


@pytest.mark.parametrize(
    "name", [name for name, table in TABLES.items() if table.rules.commission and not table.rules.multipliers]
)
def test_a_commission_table_s_pages_state_the_commission(name):
    rules = TABLES[name].rules
    rate = format((rules.commission * 100).normalize(), "f") + "%"
    for page in (html_page, markdown_page):
        assert f"less a {rate} commission" in page(rules_sheet(rules), LANGUAGES["en"])
