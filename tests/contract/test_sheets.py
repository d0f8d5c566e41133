"""The sheet written out: sentences in each language from the catalogues,
figures as JSON values, terms by their code."""

from __future__ import annotations

from decimal import Decimal

import pytest

from service.baccarat.bets.types import BetType
from service.baccarat.sheets.sheet import rules_sheet
from service.baccarat.sheets.words import Line, LineCode, Malfunction, Term, bet_term
from service.baccarat.tables.rules import TABLES
from service.contract.language import TAGS, Language, Languages
from service.contract.sheets import json_value, sentence, sheet_data, title

LANGUAGES = Languages.load()


def test_a_term_is_its_code_among_the_values_and_its_words_in_the_sentence():
    line = Line.of(LineCode.BET_LIMITS, bet=bet_term(BetType.PLAYER_PAIR), min="1.00", max="25.00")
    assert json_value(line.values["bet"]) == "player_pair"
    assert sentence(line, Language.english()) == "Player Pair: from 1.00 to 25.00"
    korean = sentence(line, LANGUAGES["ko"])
    assert "플레이어 페어" in korean
    assert "1.00" in korean
    assert "25.00" in korean


@pytest.mark.parametrize(
    ("value", "written"),
    [(Term("under_review", "x"), "under_review"), (Decimal("5.00"), "5.00"), ((8, 9), "8, 9"), (3, "3")],
)
def test_json_values(value, written):
    assert json_value(value) == written


@pytest.mark.parametrize("tag", [tag for tag in TAGS if tag != "en"])
@pytest.mark.parametrize("name", list(TABLES))
def test_every_title_and_sentence_is_translated(tag, name):
    """No sentence of any preset's sheet is left in English in another language."""
    english, language = Language.english(), LANGUAGES[tag]
    for malfunction in Malfunction:
        sheet = rules_sheet(TABLES[name].rules, malfunction=malfunction)
        for section in sheet.sections:
            assert title(section, language) != title(section, english)
            for line in section.lines:
                written = sentence(line, language)
                assert written != sentence(line, english), (tag, line.code)


def test_the_data_is_the_sheet_s():
    sheet = rules_sheet(TABLES["standard"].rules)
    data = sheet_data(sheet, Language.english())
    assert data["id"] == sheet.id
    assert [section["code"] for section in data["sections"]] == [
        str(section.code) for section in sheet.sections
    ]
    assert data["chart"]["player_third"] == list(range(10))
    assert data["chart"]["rows"][3]["player_drew"][8] == "stand"
    assert data["chips"] == ["1.00", "5.00", "10.00", "25.00", "100.00"]
