"""``Prefer: return=minimal`` (RFC 7240) on the operations that answer a
round's settlement: POST /v1/rounds and POST /v1/settlements
(docs/integration.md, "The minimal answer").

A request that prefers ``return=minimal`` gets the minimal form
(service/contract/schemas/minimal.py) with ``Preference-Applied:
return=minimal``; any other (no ``Prefer``, ``return=representation``, a
preference this service does not know) gets the full answer, without
``Preference-Applied``. Every answer of these operations carries ``Vary:
Prefer`` (beside ``Accept-Language``), since its form depends on it. As RFC
7240 says, a preference given twice counts the first time; names are
case-insensitive, a value may be quoted, and parameters after ``;`` are
ignored. The header is read once, whole: gunicorn bounds its length.
"""

from __future__ import annotations

from typing import Any

import flask

from ..baccarat.play.round import PlayedRound, RoundSoFar
from ..contract.answers import MINIMAL, Minimal

#: The preference and the headers of a minimal answer.
RETURN = "return"
APPLIED = f"{RETURN}={MINIMAL}"


def return_preference(header: str | None) -> str | None:
    """The value of the first ``return`` preference of a ``Prefer`` header, lower case, or None.

    >>> return_preference('respond-async, RETURN="minimal"; x=1, return=representation')
    'minimal'
    >>> return_preference("wait=10") is None
    True
    """
    for preference in (header or "").split(","):
        token, _, rest = preference.partition(";")[0].partition("=")
        if token.strip().lower() == RETURN:
            return rest.strip().strip('"').lower()
    return None


def preferred(played: PlayedRound | RoundSoFar) -> tuple[Any, int, dict[str, str]]:
    """The view's answer: ``played`` in the form the request prefers, with its headers."""
    if isinstance(played, PlayedRound) and return_preference(flask.request.headers.get("Prefer")) == MINIMAL:
        return Minimal(played), 200, {"Preference-Applied": APPLIED, "Vary": "Prefer"}
    return played, 200, {"Vary": "Prefer"}


#: The request header and answer headers the two operations document.
PREFER = {
    "name": "Prefer",
    "in": "header",
    "required": False,
    "description": "`return=minimal` (RFC 7240) asks for the minimal answer: codes and amounts, no "
    "sentences, the rules by `rules_id`; signed and replayed like the full answer "
    '(docs/integration.md, "The minimal answer"). Any other preference is ignored',
    "schema": {"type": "string", "example": "return=minimal"},
}
ANSWER_HEADERS = {
    "Preference-Applied": {
        "description": "`return=minimal` when the answer is the minimal one (absent otherwise)",
        "schema": {"type": "string", "enum": [APPLIED]},
    },
    "Vary": {
        "description": "`Prefer, Accept-Language`: caches keep one answer per form and language",
        "schema": {"type": "string", "example": "Prefer, Accept-Language"},
    },
}
