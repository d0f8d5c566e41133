"""POST /v1/rules-sheets and GET /v1/tables/{table}/rules-sheet: the rules a
player reads, as JSON, an HTML page or Markdown by ``Accept``."""

from typing import Any

from flask import Response, abort, current_app, request

from ...baccarat.requests import RulesSheetRequest, write_rules_sheet
from ...baccarat.rulebook.errors import N_
from ...baccarat.sheets.sheet import RulesSheet
from ...contract.jsonio import JSON
from ...contract.language import Language, answer_in, current
from ...contract.schemas.sheets import RulesSheetRequestSchema, RulesSheetSchema, sheet_request
from ...contract.scope import named_table, scope
from ...contract.sheet_pages import HTML, MARKDOWN, html_page, markdown_page
from ..language import preferred
from ..negotiation import VARY
from ..policy import KEYED, Replayable, signed
from ..services import services
from . import BODY, Blueprint

blp = Blueprint("sheets", __name__, url_prefix="/v1", description="The rules a player reads")

#: The pages a sheet is also written as, by media type: a replay writes the
#: one its stored answer is (service/api/replay.py).
PAGES = {HTML: html_page, MARKDOWN: markdown_page}
SHEET = Replayable(RulesSheetRequestSchema(), write_rules_sheet, RulesSheetSchema(), PAGES)

#: The 200 answer, in each of its forms.
ANSWER = (
    "The sheet as JSON (`application/json`, the default), as one self-contained HTML page "
    "(`text/html`) or as Markdown (`text/markdown`), by `Accept`; its words in the language "
    "`Accept-Language` chose"
)
#: The refusal of an ``Accept`` that names none of them: its title (werkzeug's) and detail.
NOT_ACCEPTABLE_TITLE = N_("Not Acceptable")
NOT_ACCEPTABLE = N_("A rules sheet is written as application/json, text/html or text/markdown")
VARY_DOC = {
    "Vary": {
        "description": "`Accept, Accept-Language`: the sheet's form by `Accept`, "
        "its words by `Accept-Language`",
        "schema": {"type": "string"},
    }
}
#: The page forms as further contents of the 200 answer.
PAGE_DOCS: list[dict[str, Any]] = [
    {
        "content_type": media,
        "schema": {"type": "string", "description": description},
        "headers": VARY_DOC,
        "success": True,
    }
    for media, description in (
        (HTML, "One HTML document: no script, style sheet, font or image from elsewhere; printable"),
        (MARKDOWN, "The sheet in Markdown: a heading per section, the chart and each pay table as tables"),
    )
]


def answered(sheet: RulesSheet) -> Response | tuple[RulesSheet, dict[str, str]]:
    """The sheet in the form ``Accept`` prefers (JSON without an ``Accept``,
    with ``*/*`` or with an equal preference), or a 406 problem when it names
    none of them."""
    accepted = request.accept_mimetypes
    media = accepted.best_match((JSON, HTML, MARKDOWN)) if accepted else JSON
    if media is None:
        abort(406, description=NOT_ACCEPTABLE)
    headers = {**VARY, "Content-Language": in_the_tables_language().tag}
    if media == JSON:
        return sheet, headers
    text = PAGES[media](sheet, current())
    return current_app.response_class(text, mimetype=media, headers=headers)


def in_the_tables_language() -> Language:
    """The language the sheet is written in: the one the request negotiated,
    unless its table is offered in other languages only, then the first of
    the table's that ``Accept-Language`` asks for, else (and when nothing
    is asked for) the table's first."""
    table = scope().tables.get(named_table() or "")
    asked = preferred(request.headers.get("Accept-Language"))
    if table is None or not table.languages or (asked and current().tag in table.languages):
        return current()
    language = services().languages.best_of(asked, table.languages)
    answer_in(language)
    return language


@blp.post("/rules-sheets")
@blp.operation("writeRulesSheet", *BODY, 406, 422, policy=signed(SHEET))
@blp.arguments(SHEET.request, example={"table": "tie_9"})
@blp.response(200, SHEET.answer, description=ANSWER, headers=VARY_DOC)
@blp.alt_response(200, description=ANSWER, **PAGE_DOCS[0])
@blp.alt_response(200, description=ANSWER, **PAGE_DOCS[1])
def write_sheet(sheet_request: RulesSheetRequest) -> Response | tuple[RulesSheet, dict[str, str]]:
    """A table's rules sheet: the rules its players read, written from the rules it plays.

    Takes what a round takes to fix its rules (`table` and `rules`: variant,
    pay tables, limits, decks, a multiplier game), and the table's `chips`,
    `dealing` and `malfunction` clause (the preset's, or the default). The
    sheet states the object of the game, card values with worked hands, the
    deal, naturals, the Player's rule and the Banker's chart (from the
    tableau rounds are dealt by), each offered bet's pay table, fee and
    multipliers, at `peek` Peek Baccarat's fee, cards shown, choices and
    returns, each bet's exact return to player (two decimals, the method named)
    and largest win, the limits and chips, the shoe or "reshuffled after each
    hand", the malfunction clause, and the rules id and engine version it
    was written for (docs/rules-sheet.md). Its answers are signed, and
    `POST /v1/replays` replays one in the form and language it was written in.
    """
    return answered(SHEET.play(sheet_request))


#: The path's ``{table}``: a preset of GET /v1/tables (any other name is a 404).
TABLE_PARAMETER = {
    "in": "path",
    "name": "table",
    "required": True,
    "description": "A table preset, by the name GET /v1/tables gives it",
    "schema": {"$ref": "#/components/schemas/TablePreset"},
}


@blp.get("/tables/<string:table>/rules-sheet", parameters=[TABLE_PARAMETER])
@blp.operation("getRulesSheet", 404, 406, policy=KEYED)
@blp.response(200, SHEET.answer, description=ANSWER, headers=VARY_DOC)
@blp.alt_response(200, description=ANSWER, **PAGE_DOCS[0])
@blp.alt_response(200, description=ANSWER, **PAGE_DOCS[1])
def get_sheet(table: str) -> Response | tuple[RulesSheet, dict[str, str]]:
    """A table preset's rules sheet, as the preset is.

    The sheet `POST /v1/rules-sheets` writes for `{"table": table}`, for every
    preset of `GET /v1/tables`, `peek` (Peek Baccarat's fee, cards shown,
    choices and returns) and the multiplier games' included (404 for another
    name). Unsigned: to keep what players were shown, with its signature,
    post the table instead.
    """
    if table not in scope().tables:
        abort(404)
    return answered(SHEET.play(sheet_request(table)))
