"""The rules sheet written out: each section's title and each sentence in
the answer's language, the figures as JSON values (docs/rules-sheet.md).

A sentence is its template in the language (the ``sheet`` catalogue),
filled with its values: a :class:`~service.baccarat.sheets.words.Term` in
the language's words (a bet's name from the ``sheet`` catalogue, a pay
line's condition from the ``game`` one), anything else as its digits. Among
a sentence's values a term is written by its code, so a platform can write
the sheet in its own words from codes and values alone, as it does a
round's reasons.

>>> from service.baccarat.sheets.words import Line, LineCode, bet_term
>>> line = Line.of(LineCode.BET_LIMITS, bet=bet_term(BetType.TIE), min="1.00", max="20.00")
>>> sentence(line, Language.english())
'Tie: from 1.00 to 20.00'
>>> line_values(line)
{'bet': 'tie', 'min': '1.00', 'max': '20.00'}
>>> values_of({"naturals": (8, 9), "decks": 8})
{'naturals': '8, 9', 'decks': '8'}
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ..baccarat.bets.types import BetType
from ..baccarat.sheets.chart import THIRD_CARDS, ChartRow
from ..baccarat.sheets.sheet import RulesSheet
from ..baccarat.sheets.words import DRAW, SECTION_TITLES, SHEET_TITLE, STAND, Line, Section, Term, Value
from .language import Language


def written(value: Value, language: Language) -> str:
    """A value as a sentence writes it in ``language``."""
    return language.translate(value.words) if isinstance(value, Term) else str(value)


def sentence(line: Line, language: Language) -> str:
    """The line's sentence in ``language``."""
    values = {name: written(value, language) for name, value in line.values.items()}
    return language.translate(line.template).format(**values)


def title(section: Section, language: Language) -> str:
    """The section's title in ``language``."""
    values = {name: written(value, language) for name, value in section.title_values.items()}
    return language.translate(SECTION_TITLES[section.code]).format(**values)


def json_value(value: Any) -> str:
    """A figure as the answer writes it among values, always a string: a
    term by its code, a number or an amount in digits, a list of them joined
    by ``", "`` (so that each value is one typed thing in the contract)."""
    if isinstance(value, Term):
        return value.code
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, tuple | list):
        return ", ".join(json_value(item) for item in value)
    return str(value)


def values_of(values: Mapping[str, Any]) -> dict[str, str]:
    """A sentence's or a section's values as the answer writes them."""
    return {name: json_value(value) for name, value in values.items()}


def line_values(line: Line) -> dict[str, str]:
    return values_of(line.values)


def action(draws: bool) -> str:
    return "draw" if draws else "stand"


def action_words(draws: bool, language: Language) -> str:
    """A chart cell in ``language``."""
    return language.translate(DRAW if draws else STAND)


def chart_row(row: ChartRow) -> dict[str, Any]:
    return {
        "banker_total": row.banker_total,
        "player_stood": action(row.player_stood),
        "player_drew": [action(draws) for draws in row.player_drew],
    }


def sheet_data(sheet: RulesSheet, language: Language) -> dict[str, Any]:
    """What the JSON answer holds (:class:`.schemas.sheets.RulesSheetSchema`
    dumps it), its sentences in ``language``."""
    unit = sheet.rules.minor_unit
    return {
        "id": sheet.id,
        "title": language.translate(SHEET_TITLE),
        "rules": sheet.rules,
        "chips": [format(chip.quantize(Decimal(1).scaleb(-unit)), "f") for chip in sheet.chips],
        "dealing": str(sheet.dealing),
        "malfunction": str(sheet.malfunction),
        "sections": [
            {
                "code": str(section.code),
                "title": title(section, language),
                "values": values_of(section.values),
                "sentences": [
                    {
                        "code": str(line.code),
                        "values": line_values(line),
                        "sentence": sentence(line, language),
                    }
                    for line in section.lines
                ],
            }
            for section in sheet.sections
        ],
        "chart": {"player_third": list(THIRD_CARDS), "rows": [chart_row(row) for row in sheet.chart]},
    }


def bet_of(section: Section) -> BetType | None:
    """The bet a bet's section is of."""
    bet = section.values.get("bet")
    return None if bet is None else BetType(str(bet))
