"""Every code of the sheet has its words, and every sentence is filled with
exactly the values its template names."""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from service.baccarat.bets.types import BetType
from service.baccarat.sheets.sheet import rules_sheet
from service.baccarat.sheets.words import (
    BET_NAMES,
    LINE_TEMPLATES,
    MALFUNCTION_TEMPLATES,
    SECTION_TITLES,
    Line,
    LineCode,
    Malfunction,
    SectionCode,
    Term,
    bet_term,
)
from service.baccarat.tables.rules import TABLES


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_code_has_its_words():
    assert set(LINE_TEMPLATES) == set(LineCode)
    assert set(SECTION_TITLES) == set(SectionCode)
    assert set(BET_NAMES) == set(BetType)
    assert set(MALFUNCTION_TEMPLATES) == set(Malfunction)


@pytest.mark.parametrize("name", list(TABLES))
@pytest.mark.parametrize("malfunction", list(Malfunction))
def test_every_line_holds_the_values_its_template_names(name, malfunction):
    sheet = rules_sheet(TABLES[name].rules, malfunction=malfunction)
    for section in sheet.sections:
        assert set(section.title_values) == placeholders(SECTION_TITLES[section.code])
        for line in section.lines:
            assert set(line.values) == placeholders(line.template), line.code
            assert "{" not in line.english


def test_a_term_is_written_by_its_words_and_named_by_its_code():
    term = bet_term(BetType.PLAYER_PAIR)
    assert (term.code, str(term)) == ("player_pair", "Player Pair")
    assert (
        Line.of(LineCode.BET_LIMITS, bet=term, min="1.00", max="25.00").english
        == "Player Pair: from 1.00 to 25.00"
    )


def test_the_malfunction_clause_is_its_code_s_sentence():
    line = Line.clause(Malfunction.UNDER_REVIEW)
    assert line.values["clause"] == Term("under_review", MALFUNCTION_TEMPLATES[Malfunction.UNDER_REVIEW])
    assert line.english.startswith("In the event of unusual activity in the software or outside intervention")


def test_docs_rules_sheet_md_lists_every_code_with_its_words():
    """docs/rules-sheet.md's tables are the codes' words as the engine has them."""
    document = (Path(__file__).parents[3] / "docs" / "rules-sheet.md").read_text(encoding="utf-8")
    rows = [
        *(f"| `{code}` | {title} |" for code, title in SECTION_TITLES.items()),
        *(f"| `{code}` | {template} |" for code, template in LINE_TEMPLATES.items()),
        *(f"| `{clause}` | {sentence} |" for clause, sentence in MALFUNCTION_TEMPLATES.items()),
    ]
    assert [row for row in rows if row not in document] == []
