"""Which answer ``Accept`` chooses: the picture only when it prefers ``image/svg+xml``."""

import pytest

from service.api.negotiation import PICTURE, picture, prefers_picture
from service.baccarat.rulebook.coup import Outcome
from service.baccarat.shoes.roads import Result, roads
from service.contract.road_pictures import MEDIA_TYPE, road_picture


@pytest.mark.parametrize(
    ("accept", "prefers"),
    [
        (None, False),
        ("*/*", False),
        ("application/json", False),
        ("application/*", False),
        ("text/html", False),  # names neither: JSON, not a 406
        ("application/problem+json", False),
        ("image/svg+xml, application/json", False),  # an equal preference: JSON
        ("image/svg+xml;q=0", False),
        ("image/svg+xml", True),
        ("image/*", True),
        ("image/svg+xml, */*", True),  # the named type is more specific than */*
        ("image/svg+xml, */*;q=0.8", True),
        ("application/json;q=0.5, image/svg+xml", True),
    ],
)
def test_only_an_accept_that_prefers_svg_gets_the_picture(app, accept, prefers):
    headers = {} if accept is None else {"Accept": accept}
    with app.test_request_context("/v1/roads", method="POST", headers=headers):
        assert prefers_picture() is prefers


def test_the_picture_answer_is_the_svg_and_varies_on_accept(app):
    board = roads([Result(Outcome.TIE), Result(Outcome.BANKER)])
    with app.test_request_context("/v1/roads", method="POST"):
        answer = picture(board, title="Table 7")
    assert answer.mimetype == MEDIA_TYPE
    assert answer.headers["Vary"] == "Accept"
    assert answer.get_data(as_text=True) == road_picture(board, title="Table 7")


def test_the_picture_is_documented_as_a_second_content_of_the_200_answer():
    assert PICTURE["content_type"] == MEDIA_TYPE
    assert PICTURE["success"] is True
    assert PICTURE["headers"]["Vary"]["schema"] == {"type": "string"}
