"""The rules sheet as a page: one self-contained, accessible, printable HTML
document, or Markdown (docs/rules-sheet.md).

The HTML page loads nothing: its style is in the page, it has no script,
font or image, and prints on paper as it shows on a screen (``@media
print``). Its language is the answer's (``<html lang>``); its headings are
the sheet's sections; the Banker's chart and each bet's pays are tables
with a caption and header cells (``<th scope>``), so that a screen reader
reads each cell with its row and column. Every word comes from the sheet
(:mod:`.sheets`), in the language asked; every figure from the engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from html import escape

from ..baccarat.sheets.chart import THIRD_CARDS
from ..baccarat.sheets.sheet import RulesSheet
from ..baccarat.sheets.words import (
    BANKER_TOTAL,
    CHART_CAPTION,
    PAY_TABLE,
    PAYS,
    PLAYER_STOOD,
    PLAYER_THIRD,
    PUSH,
    SHEET_TITLE,
    WHEN,
    Line,
    LineCode,
    Section,
    SectionCode,
    Term,
)
from .language import Language
from .sheets import action_words, bet_of, sentence, title, written

HTML = "text/html"
MARKDOWN = "text/markdown"

#: The page's style: readable on a phone and on paper, tables that scroll
#: sideways on a narrow screen rather than overflow it.
STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; color: #111; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 1.5rem; border-bottom: 1px solid #ccc; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid #999; padding: 0.2rem 0.5rem; text-align: center; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }
td.draw { background: #e8f4e8; } td.stand { background: #f4e8e8; }
footer { margin-top: 2rem; font-size: 0.9rem; color: #444; }
@media print { body { max-width: none; font-size: 11pt; } .scroll { overflow: visible; }
  section { break-inside: avoid; } td.draw, td.stand { background: none; } }
"""

#: The lines of a bet's section that are its pay table's lines.
PAY_LINES = (LineCode.PAYS, LineCode.PAYS_LESS_COMMISSION, LineCode.PAYS_NO_COMMISSION, LineCode.PUSHES)
#: The pay lines whose row says all their sentence says (when, and what it
#: pays): a line with a commission is also written whole, since its row shows
#: only what the win pays in all, not the commission taken from it.
TABLED_WHOLE = (LineCode.PAYS, LineCode.PUSHES)


def _pays(line: Line, language: Language) -> str:
    """What a pay line pays, in figures (a push in words)."""
    if line.code is LineCode.PUSHES:
        return language.translate(PUSH)
    return str(line.values["net" if line.code is LineCode.PAYS_LESS_COMMISSION else "odds"])


def _when(line: Line, language: Language) -> str:
    when = line.values["when"]
    assert isinstance(when, Term)
    return written(when, language)


def _chart_html(sheet: RulesSheet, language: Language) -> Iterator[str]:
    say = language.translate
    yield '<div class="scroll"><table>'
    yield f"<caption>{escape(say(CHART_CAPTION))}</caption>"
    yield "<thead><tr>"
    yield f'<th scope="col" rowspan="2">{escape(say(BANKER_TOTAL))}</th>'
    yield f'<th scope="col" rowspan="2">{escape(say(PLAYER_STOOD))}</th>'
    yield f'<th scope="colgroup" colspan="{len(THIRD_CARDS)}">{escape(say(PLAYER_THIRD))}</th></tr><tr>'
    yield "".join(f'<th scope="col">{third}</th>' for third in THIRD_CARDS)
    yield "</tr></thead><tbody>"
    for row in sheet.chart:
        cells = [row.player_stood, *row.player_drew]
        yield f'<tr><th scope="row">{row.banker_total}</th>' + "".join(
            f'<td class="{"draw" if draws else "stand"}">{escape(action_words(draws, language))}</td>'
            for draws in cells
        )
        yield "</tr>"
    yield "</tbody></table></div>"


def _pay_table_html(section: Section, language: Language) -> Iterator[str]:
    say = language.translate
    caption = say(PAY_TABLE).format(bet=written(section.title_values["bet"], language))
    yield f'<div class="scroll"><table><caption>{escape(caption)}</caption>'
    when, pays = escape(say(WHEN)), escape(say(PAYS))
    yield f'<thead><tr><th scope="col">{when}</th><th scope="col">{pays}</th></tr></thead>'
    yield "<tbody>"
    for line in section.lines:
        if line.code in PAY_LINES:
            when, pays = escape(_when(line, language)), escape(_pays(line, language))
            yield f'<tr><th scope="row">{when}</th><td>{pays}</td></tr>'
    yield "</tbody></table></div>"


def html_page(sheet: RulesSheet, language: Language) -> str:
    """The sheet as one HTML document in ``language``."""
    heading = escape(language.translate(SHEET_TITLE))
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(language.tag)}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{heading}</title><style>{STYLE}</style></head>",
        f"<body><main><h1>{heading}</h1>",
    ]
    for index, section in enumerate(sheet.sections):
        parts.append(f'<section aria-labelledby="section-{index}">')
        parts.append(f'<h2 id="section-{index}">{escape(title(section, language))}</h2>')
        if section.code is SectionCode.BANKER_RULE:
            parts.extend(_chart_html(sheet, language))
        if bet_of(section) is not None:
            parts.extend(_pay_table_html(section, language))
        sentences = [line for line in section.lines if line.code not in TABLED_WHOLE]
        parts.append("<ul>" + "".join(f"<li>{escape(sentence(line, language))}</li>" for line in sentences))
        parts.append("</ul></section>")
    parts.append(f"</main><footer>{escape(sheet.rules.id)} · {escape(sheet.id)}</footer></body></html>")
    return "\n".join(parts) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown_page(sheet: RulesSheet, language: Language) -> str:
    """The sheet as Markdown in ``language``: a heading per section, the
    chart and each pay table as tables, the other sentences as a list."""
    say = language.translate
    out = [f"# {say(SHEET_TITLE)}", ""]
    for section in sheet.sections:
        out += [f"## {title(section, language)}", ""]
        if section.code is SectionCode.BANKER_RULE:
            head = [say(BANKER_TOTAL), say(PLAYER_STOOD), *(str(third) for third in THIRD_CARDS)]
            out.append(f"{say(CHART_CAPTION)} (0-9: {say(PLAYER_THIRD)}):")
            out.append("")
            out.append("| " + " | ".join(_cell(cell) for cell in head) + " |")
            out.append("|" + "---|" * len(head))
            for row in sheet.chart:
                actions = (row.player_stood, *row.player_drew)
                cells = [str(row.banker_total), *(action_words(draws, language) for draws in actions)]
                out.append("| " + " | ".join(cells) + " |")
            out.append("")
        if bet_of(section) is not None:
            out += [f"| {_cell(say(WHEN))} | {_cell(say(PAYS))} |", "|---|---|"]
            out += [
                f"| {_cell(_when(line, language))} | {_cell(_pays(line, language))} |"
                for line in section.lines
                if line.code in PAY_LINES
            ]
            out.append("")
        out += [f"- {sentence(line, language)}" for line in section.lines if line.code not in TABLED_WHOLE]
        out.append("")
    return "\n".join(out)
