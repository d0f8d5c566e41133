"""The roads as JSON or as a picture: the request's ``Accept`` chooses.

POST /v1/roads and POST /v1/shoes answer JSON unless ``Accept`` prefers
``image/svg+xml`` (by its q-values, read by Flask's
``request.accept_mimetypes``); then they answer the roads drawn by
:func:`..contract.road_pictures.road_picture`. JSON stays the default: no
``Accept``, ``*/*``, an equal preference, and an ``Accept`` that names
neither (``text/html``) all answer JSON, so no caller that answered JSON
before gets anything else (no 406). Errors are problem documents whatever
``Accept`` says. Both answers say ``Vary: Accept`` (and the language layer
adds ``Accept-Language``: ``Vary: Accept, Accept-Language``), so that a
cache never hands one caller's picture to another's JSON. The picture's
words (titles, labels, text alternatives) are in the language
``Accept-Language`` chose, as the JSON answer's sentences are, and its
``Content-Language`` says which.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, request

from ..baccarat.shoes.roads import Roads
from ..contract.jsonio import JSON
from ..contract.road_pictures import MEDIA_TYPE, TITLE, road_picture

#: The header both answers carry.
VARY = {"Vary": "Accept"}
#: The header as the OpenAPI document shows it (``@blp.response(..., headers=...)``).
VARY_DOC = {
    "Vary": {
        "description": "`Accept, Accept-Language`: the answer is JSON or the picture by the "
        "request's `Accept`, and its sentences are in the language `Accept-Language` chose",
        "schema": {"type": "string"},
    }
}
#: The picture as the second content of an operation's 200 answer: ``@blp.alt_response(200, **PICTURE)``.
PICTURE: dict[str, Any] = {
    "content_type": MEDIA_TYPE,
    "schema": {
        "type": "string",
        "description": "One SVG document: the Bead Plate, Big Road, Big Eye Boy, Small Road and Cockroach "
        "Pig, each in a labelled group; every mark a `<g>` whose `data-road`, `data-column`, `data-row`, "
        "`data-index`, `data-outcome`, `data-ties`, `data-player-pair`, `data-banker-pair`, `data-natural` "
        "or `data-colour` repeat its cell of the JSON answer (docs/roads.md). Its title, labels and text "
        "alternatives (`<title>`, `<desc>`) are in the language of `Content-Language`, as the JSON "
        "answer's sentences are; the letters B, P and T in the Bead Plate's discs are marks, "
        "the same in every language",
    },
    "headers": VARY_DOC,
    "success": True,
}


def prefers_picture() -> bool:
    """Whether the request's ``Accept`` prefers ``image/svg+xml`` to ``application/json``."""
    return request.accept_mimetypes.best_match((JSON, MEDIA_TYPE)) == MEDIA_TYPE


def picture(board: Roads, *, title: str = TITLE) -> Response:
    """The answer that is the picture of ``board``'s roads, in the answer's
    language (the language layer says which in ``Content-Language``)."""
    return current_app.response_class(road_picture(board, title=title), mimetype=MEDIA_TYPE, headers=VARY)
