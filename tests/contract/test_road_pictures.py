"""The roads' picture says what the JSON says: every cell of every road, at its
place, with its outcome, ties, pairs and natural, or its colour, and nothing
else; a well-formed, self-contained SVG document that describes itself,
whose size grows linearly with the results."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from hypothesis import given, settings

from service.baccarat.rulebook.coup import Outcome
from service.baccarat.shoes.roads import ROWS, Result, roads
from service.contract.language import Language, speaking
from service.contract.road_pictures import (
    BLUE,
    GOLD,
    GREEN,
    MARK_COLOURS,
    MIN_COLUMNS,
    NAMES,
    OUTCOME_COLOURS,
    RED,
    SIZES,
    SVG_NAMESPACE,
    road_picture,
)
from service.contract.schemas.roads import RoadsSchema
from tests.strategies import road_results

SVG = f"{{{SVG_NAMESPACE}}}"
LETTERS = {"B": Outcome.BANKER, "P": Outcome.PLAYER, "T": Outcome.TIE}
COLOUR_OF = {colour: str(outcome) for outcome, colour in OUTCOME_COLOURS.items()}
MARK_COLOUR_OF = {colour: str(mark) for mark, colour in MARK_COLOURS.items()}
#: Bytes of the picture: a fixed part, and at most this much per result (a
#: win with both pairs and a natural, and a mark on each derived road).
FIXED_BYTES, BYTES_PER_RESULT = 8_000, 2_000


def results(text: str) -> list[Result]:
    """``results("T B B P")``: one result per letter, B Banker, P Player, T tie."""
    return [Result(LETTERS[letter]) for letter in text.split()]


def parse(picture: str) -> ET.Element:
    """The document's root, which must be well-formed SVG."""
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    return root


def translation(element: ET.Element) -> tuple[float, float]:
    found = re.fullmatch(r"translate\((-?[\d.]+) (-?[\d.]+)\)", element.get("transform", ""))
    assert found, element.attrib
    return float(found.group(1)), float(found.group(2))


def flag(element: ET.Element, name: str) -> bool:
    value = element.get(f"data-{name}")
    assert value in ("true", "false"), (name, value)
    return value == "true"


def dots(mark: ET.Element) -> set[tuple[str, str, str]]:
    """The small dots in a mark's corners: (x, y, colour)."""
    return {
        (dot.get("cx", ""), dot.get("cy", ""), dot.get("fill", ""))
        for dot in mark.findall(f"{SVG}circle")
        if dot.get("r") == "3.5"
    }


def drawn_markers(mark: ET.Element) -> dict[str, bool]:
    """The markers as drawn: a banker pair red at the top left, a player pair
    blue at the bottom right, a natural gold at the top right."""
    seen = dots(mark)
    drawn = {
        "banker_pair": ("4", "4", RED) in seen,
        "player_pair": ("20", "20", BLUE) in seen,
        "natural": ("20", "4", GOLD) in seen,
    }
    assert len(seen) == sum(drawn.values()), seen
    return drawn


def read_mark(road: str, mark: ET.Element) -> dict[str, Any]:
    """A mark as the JSON would write its cell, read from its data attributes,
    after checking that what is drawn says the same."""
    cell: dict[str, Any] = {name: int(mark.get(f"data-{name}", "")) for name in ("column", "row", "index")}
    size = SIZES[road]
    assert translation(mark) == (cell["column"] * size, cell["row"] * size)
    shapes = [child for child in mark if child.tag in (f"{SVG}circle", f"{SVG}line")]
    if road in ("bead_plate", "big_road"):
        cell["outcome"] = mark.get("data-outcome")
        for name in ("player_pair", "banker_pair", "natural"):
            cell[name] = flag(mark, name.replace("_", "-"))
        assert drawn_markers(mark) == {name: cell[name] for name in ("banker_pair", "player_pair", "natural")}
        disc = shapes[0]
        if road == "bead_plate":
            assert COLOUR_OF[disc.get("fill", "")] == cell["outcome"]
            assert [t.text for t in mark.iter(f"{SVG}text")] == [cell["outcome"][0].upper()]
        else:
            assert disc.get("fill") == "none"
            assert COLOUR_OF[disc.get("stroke", "")] == cell["outcome"] != "tie"
            cell["ties"] = int(mark.get("data-ties", ""))
            slashes = [line for line in mark.iter(f"{SVG}line") if line.get("stroke") == GREEN]
            assert len(slashes) == (cell["ties"] > 0)
            counts = [t.text for t in mark.iter(f"{SVG}text")]
            assert counts == ([str(cell["ties"])] if cell["ties"] > 1 else [])
    else:
        cell["colour"] = mark.get("data-colour")
        (shape,) = shapes
        if road == "cockroach_pig":
            assert shape.tag == f"{SVG}line"
            drawn = shape.get("stroke", "")
        elif road == "small_road":
            assert shape.tag == f"{SVG}circle"
            drawn = shape.get("fill", "")
        else:
            assert (shape.tag, shape.get("fill")) == (f"{SVG}circle", "none")
            drawn = shape.get("stroke", "")
        assert MARK_COLOUR_OF[drawn] == cell["colour"]
    return cell


def read_picture(picture: str) -> dict[str, dict[str, Any]]:
    """Each road of the picture as the JSON answer writes it: ``columns``,
    ``rows`` and ``cells`` (in the order drawn), read from the marks."""
    root = parse(picture)
    read: dict[str, dict[str, Any]] = {}
    for road in NAMES:
        group = root.find(f"{SVG}g[@id='roads-{road}']")
        assert group is not None, road
        columns, rows = int(group.get("data-columns", "")), int(group.get("data-rows", ""))
        marks = [element for element in group.iter() if "data-road" in element.attrib]
        assert {mark.get("data-road") for mark in marks} <= {road}
        read[road] = {"columns": columns, "rows": rows, "cells": [read_mark(road, mark) for mark in marks]}
    every_mark = [element for element in root.iter() if "data-road" in element.attrib]
    assert len(every_mark) == sum(len(road["cells"]) for road in read.values()), "a mark outside its road"
    return read


def as_json(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The roads of a JSON answer, as :func:`read_picture` reads them."""
    return {road: {key: answer[road][key] for key in ("columns", "rows", "cells")} for road in NAMES}


def assert_pictured(sequence: list[Result]) -> str:
    """The picture of ``sequence``'s roads reads as their JSON answer; the picture."""
    board = roads(sequence)
    picture = road_picture(board)
    assert read_picture(picture) == as_json(RoadsSchema().dump(board))
    return picture


PAIRS = [
    Result(Outcome.BANKER, banker_pair=True),
    Result(Outcome.TIE, player_pair=True, natural=True),
    Result(Outcome.PLAYER, player_pair=True, banker_pair=True, natural=True),
    Result(Outcome.PLAYER, natural=True),
]


@pytest.mark.parametrize(
    "sequence",
    [
        [],
        results("T T T"),
        results("T T B P"),
        results("B T T P T T T B"),
        results("T T B B P T B B B P P B T"),
        results(" ".join("B" * 8 + "P")),
        results(" ".join("B" * 8 + "P" * 6 + "B" * 5)),
        results("B " + "P " * 9),
        results(" ".join("BP" * 40)),
        PAIRS,
    ],
    ids=[
        "empty",
        "only-ties",
        "ties-first",
        "ties-counted",
        "docs-worked-example",
        "dragon-tail",
        "tail-above-a-tail",
        "derived-dragon-tail",
        "chop-80",
        "pairs-and-naturals",
    ],
)
def test_every_cell_of_the_json_is_in_the_picture_and_nothing_else(sequence):
    assert_pictured(sequence)


@settings(max_examples=60, deadline=None)
@given(road_results())
def test_any_sequence_is_pictured_as_its_json_says(sequence):
    picture = assert_pictured(sequence)
    assert len(picture.encode()) <= FIXED_BYTES + BYTES_PER_RESULT * len(sequence)


def test_the_ties_first_are_a_slash_and_a_count_on_the_first_cell():
    read = read_picture(assert_pictured(results("T T B P")))
    assert [(c["column"], c["row"], c["outcome"], c["ties"]) for c in read["big_road"]["cells"]] == [
        (0, 0, "banker", 2),
        (1, 0, "player", 0),
    ]


def test_a_dragon_tail_is_drawn_where_the_engine_places_it():
    read = read_picture(assert_pictured(results(" ".join("B" * 8 + "P"))))
    tail = [(c["column"], c["row"]) for c in read["big_road"]["cells"]]
    assert tail == [*((0, row) for row in range(6)), (1, 5), (2, 5), (1, 0)]


def test_the_document_and_each_road_are_titled_and_described():
    root = parse(road_picture(roads(results("T T B B P T B B B P P B T")), title="Table 7"))
    assert root.get("role") == "img"
    assert re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox", ""))
    ids = {element.get("id"): element for element in root.iter() if element.get("id")}
    groups = [(root.find(f"{SVG}g[@id='roads-{road}']"), name) for road, name in NAMES.items()]
    for labelled, name in [(root, "Table 7"), *groups]:
        assert labelled is not None
        title, desc = labelled[0], labelled[1]
        assert (title.tag, desc.tag, title.text) == (f"{SVG}title", f"{SVG}desc", name)
        assert labelled.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
        assert ids[title.get("id")] is title
        assert desc.text
    desc = root[1].text or ""
    assert desc.startswith("13 results (Banker 6, Player 3, Tie 4)")
    assert "if Banker wins next, Big Eye Boy red, Small Road red, Cockroach Pig blue" in desc
    big_road = root.find(f"{SVG}g[@id='roads-big_road']/{SVG}desc")
    assert big_road is not None
    assert big_road.text == (
        "5 streaks in 5 columns: Banker 2, Player 1, Banker 3, Player 2, Banker 1; ties 4."
    )


def test_every_text_is_escaped():
    title = "<b> & \"quotes\" 'too' ]]> </title><script>"
    root = parse(road_picture(roads(results("B P")), title=title))
    assert root[0].text == title
    assert root.find(f".//{SVG}script") is None


def test_nothing_outside_the_document_is_referred_to():
    root = parse(assert_pictured(PAIRS + results(" ".join("BBPTP" * 30))))
    allowed = {"svg", "title", "desc", "rect", "g", "path", "circle", "line", "text"}
    assert {element.tag.removeprefix(SVG) for element in root.iter()} <= allowed
    ids = [element.get("id") for element in root.iter() if element.get("id")]
    assert len(ids) == len(set(ids))
    for element in root.iter():
        assert element.tag.startswith(SVG), element.tag  # no other namespace (no xlink)
        for name, value in element.attrib.items():
            assert "href" not in name, name
            assert not name.startswith("on"), name  # no event handler: no script
            for reference in ("url(", "://", "@import"):
                assert reference not in value, (name, value)


def test_the_size_is_linear_in_the_results():
    # Every result a win with both pairs and a natural, alternating: the most marks there can be.
    def worst(count: int) -> int:
        sequence = [Result(LETTERS["BP"[i % 2]], True, True, True) for i in range(count)]
        return len(road_picture(roads(sequence)).encode())

    sizes = {count: worst(count) for count in (100, 200, 400, 800)}
    for count, size in sizes.items():
        assert size <= FIXED_BYTES + BYTES_PER_RESULT * count
    growth = [sizes[2 * count] - sizes[count] for count in (100, 200, 400)]
    assert growth[1] <= 2.05 * growth[0], growth
    assert growth[2] <= 2.05 * growth[1], growth


def test_a_short_road_still_shows_its_board():
    root = parse(road_picture(roads([])))
    width = int((root.get("viewBox") or "").split()[2])
    assert width >= MIN_COLUMNS * SIZES["big_road"]
    for road in NAMES:
        group = root.find(f"{SVG}g[@id='roads-{road}']")
        assert group is not None
        assert (group.get("data-columns"), group.get("data-rows")) == ("0", str(ROWS))


def test_the_picture_is_written_in_the_answer_s_language():
    """Titles, labels and text alternatives in the language being spoken;
    the marks and their data the same in every language."""
    board = roads([Result(Outcome.BANKER, banker_pair=True), Result(Outcome.TIE), Result(Outcome.PLAYER)])
    english = road_picture(board)
    with speaking(Language.load("zh-Hans")):
        chinese = road_picture(board)
    assert '<title id="roads-title">百家乐路单</title>' in chinese
    assert ">珠盘路</text>" in chinese
    assert ">Bead Plate</text>" in english
    assert "Bead Plate" not in chinese
    marks = re.compile(r"<g data-road=[^>]*>")
    assert marks.findall(chinese) == marks.findall(english)
