"""The roads as a picture: one SVG document drawn from the engine's :class:`Roads`.

The five roads are stacked top to bottom, each in its own labelled group
(``<g id="roads-big_road">`` with a ``<title>`` and a ``<desc>``), on a grid
of six rows drawn as the engine places the cells (dragon tails included:
nothing here moves a cell). The casino conventions (docs/roads.md):

* **Bead Plate**: solid discs, red Banker, blue Player, green Tie, with the
  letter B, P or T inside.
* **Big Road**: hollow circles, red Banker, blue Player; the ties after a win
  are a green slash across its circle, with their count when more than one.
* Both: a banker pair is a red dot at the top left, a player pair a blue dot
  at the bottom right, a natural a gold dot at the top right.
* **Big Eye Boy**: hollow circles; **Small Road**: solid dots; **Cockroach
  Pig**: slashes; red for repetition, blue for chop, on half-size cells.

Every mark is a ``<g>`` whose ``data-*`` attributes repeat what the JSON
answer says of its cell (``data-road``, ``data-column``, ``data-row``,
``data-index``, then ``data-outcome``, ``data-ties``, ``data-player-pair``,
``data-banker-pair``, ``data-natural``, or ``data-colour``), so a program
can read the picture as it reads the JSON. Colours are presentation
attributes, not a ``<style>`` sheet, so that a page that puts the picture
inline keeps its own styles; the document refers to nothing outside itself
(no link, font, image or script) and its size grows linearly with the cells.
ElementTree writes it, so every text and attribute value is escaped.

Its words (the title, each road's label, each ``<title>`` and ``<desc>``)
are written in the answer's language (:func:`.language.current`), from the
``game`` catalogue (:data:`PICTURE_WORDS`), as the JSON answer's sentences
are; the letters in the Bead Plate's discs (B, P, T) are marks, like the
colours, and the ``data-*`` values are the JSON answer's codes.

>>> from service.baccarat.rulebook.coup import Outcome
>>> from service.baccarat.shoes.roads import Result, roads
>>> picture = road_picture(roads([Result(Outcome.TIE), Result(Outcome.BANKER, banker_pair=True)]))
>>> picture.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ')
True
>>> '<g data-road="big_road" data-column="0" data-row="0" data-index="1" data-outcome="banker"' in picture
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Mapping

from ..baccarat.rulebook.coup import Outcome
from ..baccarat.rulebook.errors import N_
from ..baccarat.shoes.roads import (
    DERIVED_ROADS,
    ROWS,
    AskMarks,
    BeadCell,
    BigRoadCell,
    Colour,
    DerivedRoad,
    MarkCell,
    Roads,
)
from .language import Language, current

#: The answer's media type.
MEDIA_TYPE = "image/svg+xml"
SVG_NAMESPACE = "http://www.w3.org/2000/svg"
#: The document's title unless the caller names it, and a whole shoe's.
TITLE = N_("Baccarat roads")
SHOE_TITLE = N_("Baccarat roads of the shoe")
#: Every id in the document starts with this, so that a page that puts the
#: picture inline can tell its ids from its own.
ID_PREFIX = "roads-"

#: Each road by its name in the JSON answer, top to bottom: its label and its
#: cell's side. The derived roads take half a cell, as tables draw them.
NAMES = {
    "bead_plate": N_("Bead Plate"),
    "big_road": N_("Big Road"),
    "big_eye_boy": N_("Big Eye Boy"),
    "small_road": N_("Small Road"),
    "cockroach_pig": N_("Cockroach Pig"),
}
CELL, HALF = 24, 12
SIZES = {"bead_plate": CELL, "big_road": CELL, "big_eye_boy": HALF, "small_road": HALF, "cockroach_pig": HALF}
#: Space around the picture, above each grid for its label, and between roads.
MARGIN, LABEL, GAP = 8, 20, 12
#: An empty or short road still shows this many columns of its board.
MIN_COLUMNS = 6

RED, BLUE, GREEN, GOLD = "#d32f2f", "#1565c0", "#2e7d32", "#f9a825"
GRID_LINE, INK, WHITE = "#c8c8c8", "#333", "#fff"
OUTCOME_COLOURS = {Outcome.BANKER: RED, Outcome.PLAYER: BLUE, Outcome.TIE: GREEN}
MARK_COLOURS = {Colour.RED: RED, Colour.BLUE: BLUE}
LETTERS = {Outcome.BANKER: "B", Outcome.PLAYER: "P", Outcome.TIE: "T"}
WORDS = {Outcome.BANKER: N_("Banker"), Outcome.PLAYER: N_("Player"), Outcome.TIE: N_("Tie")}
MARKERS = (N_("banker pair"), N_("player pair"), N_("natural"))
COLOURS = {Colour.RED: N_("red"), Colour.BLUE: N_("blue")}
#: What a derived road would add after a result when it adds no mark.
NO_MARK = N_("none")
#: The text alternatives, filled with numbers and the words above.
COUNTED = N_("{name} {count}")
RESULTS = N_("{count} results ({tally})")
BEAD_PLATE = N_("{results} in {columns} columns, top to bottom then left to right; {markers}.")
BIG_ROAD = N_("{streaks} streaks in {columns} columns: {listed}; ties {ties}.")
NO_STREAK = N_("{streaks} streaks in {columns} columns; ties {ties}.")
DERIVED = N_("{marks} marks in {columns} columns: {tally}.")
LATEST = N_("{marks} marks in {columns} columns: {tally}, the latest {colour}.")
ASK = N_("if {side} wins next, {marks}")
SUMMARY = N_("{results} as the {roads}. Ask road: {banker}; {player}.")
#: Every word the picture is written with, for the ``game`` catalogue (:mod:`.words`).
PICTURE_WORDS = (
    TITLE,
    SHOE_TITLE,
    *NAMES.values(),
    *WORDS.values(),
    *MARKERS,
    *COLOURS.values(),
    NO_MARK,
    COUNTED,
    RESULTS,
    BEAD_PLATE,
    BIG_ROAD,
    NO_STREAK,
    DERIVED,
    LATEST,
    ASK,
    SUMMARY,
)

Attributes = Mapping[str, object]


def _text(value: object) -> str:
    """An attribute's text: booleans as ``true``/``false``, whole numbers without a point."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _attributes(attributes: Attributes) -> dict[str, str]:
    return {name: _text(value) for name, value in attributes.items()}


def _add(parent: ET.Element, tag: str, attributes: Attributes, text: str | None = None) -> ET.Element:
    element = ET.SubElement(parent, tag, _attributes(attributes))
    element.text = text
    return element


def _described(parent: ET.Element, key: str, title: str, desc: str) -> None:
    """A ``<title>`` and a ``<desc>`` for ``parent``, which it is labelled by."""
    parent.set("aria-labelledby", f"{ID_PREFIX}{key}title {ID_PREFIX}{key}desc")
    _add(parent, "title", {"id": f"{ID_PREFIX}{key}title"}, title)
    _add(parent, "desc", {"id": f"{ID_PREFIX}{key}desc"}, desc)


def _mark(
    group: ET.Element, road: str, cell: BeadCell | BigRoadCell | MarkCell, data: Attributes
) -> ET.Element:
    size = SIZES[road]
    place = {"data-road": road, "data-column": cell.column, "data-row": cell.row, "data-index": cell.index}
    transform = {"transform": f"translate({cell.column * size} {cell.row * size})"}
    return _add(group, "g", {**place, **data, **transform})


def _markers(mark: ET.Element, cell: BeadCell | BigRoadCell) -> None:
    """The pair dots and the natural's dot, in the corners the circle leaves free."""
    dots = ((cell.banker_pair, 4, 4, RED), (cell.player_pair, 20, 20, BLUE), (cell.natural, 20, 4, GOLD))
    for shown, x, y, colour in dots:
        if shown:
            _add(mark, "circle", {"cx": x, "cy": y, "r": 3.5, "fill": colour, "stroke": WHITE})


def _flags(cell: BeadCell | BigRoadCell) -> dict[str, object]:
    return {
        "data-player-pair": cell.player_pair,
        "data-banker-pair": cell.banker_pair,
        "data-natural": cell.natural,
    }


def _bead(group: ET.Element, cell: BeadCell) -> None:
    mark = _mark(group, "bead_plate", cell, {"data-outcome": cell.outcome, **_flags(cell)})
    _add(mark, "circle", {"cx": 12, "cy": 12, "r": 10, "fill": OUTCOME_COLOURS[cell.outcome]})
    letter = {"x": 12, "y": 16.5, "fill": WHITE, "font-weight": "bold"}
    _add(mark, "text", letter, LETTERS[cell.outcome])
    _markers(mark, cell)


def _big_road(group: ET.Element, cell: BigRoadCell) -> None:
    data = {"data-outcome": cell.outcome, "data-ties": cell.ties, **_flags(cell)}
    mark = _mark(group, "big_road", cell, data)
    ring = {"cx": 12, "cy": 12, "r": 8.5, "fill": "none", "stroke": OUTCOME_COLOURS[cell.outcome]}
    _add(mark, "circle", {**ring, "stroke-width": 3})
    if cell.ties:
        slash = {"x1": 5, "y1": 19, "x2": 19, "y2": 5, "stroke": GREEN, "stroke-width": 2.5}
        _add(mark, "line", {**slash, "stroke-linecap": "round"})
    if cell.ties > 1:
        count = {"x": 12, "y": 16, "fill": GREEN, "stroke": WHITE, "stroke-width": 2, "paint-order": "stroke"}
        _add(mark, "text", {**count, "font-weight": "bold"}, str(cell.ties))
    _markers(mark, cell)


def _derived(group: ET.Element, road: str, cell: MarkCell) -> None:
    mark = _mark(group, road, cell, {"data-colour": cell.colour})
    colour = MARK_COLOURS[cell.colour]
    if road == "cockroach_pig":
        _add(mark, "line", {"x1": 2.5, "y1": 9.5, "x2": 9.5, "y2": 2.5, "stroke": colour, "stroke-width": 2})
    elif road == "small_road":
        _add(mark, "circle", {"cx": 6, "cy": 6, "r": 4.5, "fill": colour})
    else:
        _add(
            mark, "circle", {"cx": 6, "cy": 6, "r": 4, "fill": "none", "stroke": colour, "stroke-width": 1.5}
        )


def _derived_roads(board: Roads) -> dict[str, DerivedRoad]:
    return {
        "big_eye_boy": board.big_eye_boy,
        "small_road": board.small_road,
        "cockroach_pig": board.cockroach_pig,
    }


def _tally(language: Language, counts: Counter[str], names: Iterable[str]) -> str:
    """Each of ``names`` (English words) with its count, in ``language``."""
    return ", ".join(
        language.say(COUNTED, name=language.translate(name), count=counts[name]) for name in names
    )


def _results(language: Language, board: Roads) -> str:
    """How many results, and how many of each outcome."""
    beads = board.bead_plate.cells
    tally = _tally(language, Counter(WORDS[cell.outcome] for cell in beads), WORDS.values())
    return language.say(RESULTS, count=len(beads), tally=tally)


def _descriptions(language: Language, board: Roads) -> dict[str, str]:
    """Each road's text alternative: what a reader of the picture sees in it."""
    plate, big_road = board.bead_plate, board.big_road
    markers = Counter(
        name
        for cell in plate.cells
        for name, shown in zip(MARKERS, (cell.banker_pair, cell.player_pair, cell.natural), strict=True)
        if shown
    )
    words = {outcome: language.translate(word) for outcome, word in WORDS.items()}
    listed = ", ".join(
        language.say(COUNTED, name=words[streak.outcome], count=streak.length) for streak in big_road.streaks
    )
    big = {"streaks": len(big_road.streaks), "columns": big_road.columns}
    big["ties"] = sum(cell.ties for cell in big_road.cells)
    described = {
        "bead_plate": language.say(
            BEAD_PLATE,
            results=_results(language, board),
            columns=plate.columns,
            markers=_tally(language, markers, MARKERS),
        ),
        "big_road": language.say(BIG_ROAD, **big, listed=listed)
        if listed
        else language.say(NO_STREAK, **big),
    }
    for road, derived in _derived_roads(board).items():
        colours = Counter(COLOURS[mark] for mark in derived.marks)
        figures = {"marks": len(derived.marks), "columns": derived.columns}
        tally = _tally(language, colours, COLOURS.values())
        if derived.marks:
            latest = language.translate(COLOURS[derived.marks[-1]])
            described[road] = language.say(LATEST, **figures, tally=tally, colour=latest)
        else:
            described[road] = language.say(DERIVED, **figures, tally=tally)
    return described


def _ask(language: Language, side: Outcome, marks: AskMarks) -> str:
    said = (
        language.say(
            COUNTED,
            name=language.translate(NAMES[road]),
            count=language.translate(COLOURS[mark] if (mark := getattr(marks, road)) else NO_MARK),
        )
        for road in DERIVED_ROADS
    )
    return language.say(ASK, side=language.translate(WORDS[side]), marks=", ".join(said))


def _road(board: Roads, road: str, group: ET.Element) -> None:
    """Draw the marks of ``road`` into its ``group``."""
    if road == "bead_plate":
        for bead in board.bead_plate.cells:
            _bead(group, bead)
    elif road == "big_road":
        for cell in board.big_road.cells:
            _big_road(group, cell)
    else:
        for mark in _derived_roads(board)[road].cells:
            _derived(group, road, mark)


def road_picture(board: Roads, *, title: str = TITLE) -> str:
    """The five roads of ``board`` as one SVG document (its text), titled
    ``title``, in the answer's language."""
    language = current()
    columns = {
        "bead_plate": board.bead_plate.columns,
        "big_road": board.big_road.columns,
        **{road: derived.columns for road, derived in _derived_roads(board).items()},
    }
    drawn = {road: max(width, MIN_COLUMNS) for road, width in columns.items()}
    width = 2 * MARGIN + max(drawn[road] * SIZES[road] for road in NAMES)
    height = 2 * MARGIN + sum(LABEL + ROWS * size for size in SIZES.values()) + GAP * (len(NAMES) - 1)
    view = {"xmlns": SVG_NAMESPACE, "viewBox": f"0 0 {width} {height}", "width": width, "height": height}
    # The marks' text inherits its font from here: a generic family, nothing to fetch.
    text = {"font-family": "sans-serif", "font-size": 12, "text-anchor": "middle"}
    svg = ET.Element("svg", _attributes({**view, "role": "img", **text}))
    summary = language.say(
        SUMMARY,
        results=_results(language, board),
        roads=", ".join(language.translate(name) for name in NAMES.values()),
        banker=_ask(language, Outcome.BANKER, board.ask.banker),
        player=_ask(language, Outcome.PLAYER, board.ask.player),
    )
    _described(svg, "", language.translate(title), summary)
    _add(svg, "rect", {"width": width, "height": height, "fill": WHITE})
    descriptions = _descriptions(language, board)
    top = MARGIN + LABEL
    for road, english in NAMES.items():
        size, name = SIZES[road], language.translate(english)
        place = {"data-columns": columns[road], "data-rows": ROWS, "transform": f"translate({MARGIN} {top})"}
        group = _add(svg, "g", {"id": f"{ID_PREFIX}{road}", **place})
        _described(group, f"{road}-", name, descriptions[road])
        _add(group, "text", {"x": 0, "y": -6, "fill": INK, "font-size": 13, "text-anchor": "start"}, name)
        lines = "".join(f"M0 {row * size}H{drawn[road] * size}" for row in range(ROWS + 1))
        lines += "".join(f"M{column * size} 0V{ROWS * size}" for column in range(drawn[road] + 1))
        _add(group, "path", {"d": lines, "fill": "none", "stroke": GRID_LINE, "stroke-width": 1})
        _road(board, road, group)
        top += ROWS * size + GAP + LABEL
    return ET.tostring(svg, encoding="unicode")
