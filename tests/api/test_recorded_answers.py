"""Every preset answers as it did before pay tables became a catalogue
(``tests/api/recorded``): the same cards, totals, outcomes, settlements,
odds, rules and rules ids, to the last character, with only what was added
since taken out: each bet's pay table named in the rules (``pay_tables``),
in each offered bet and in each bet's odds (``pay_table``), how each table
deals (``dealing``), the game it plays and the operations that take it
(``game``, ``operations``), each reason's ``code`` and ``values``, the round's
``outcome_reason``, each settled bet's line (``code``, ``reason``), the
presets added to ``GET /v1/tables`` and each preset's description's code
and figures (``description_code``, ``description_values``, and ``peek``), and
the engine's digest (``engine.digest``, docs/build-digest.md). One sentence changed: the loss that
ends each bet's lines in ``POST /v1/odds`` is written as a losing bet's
line is (``no line of its pay table holds``, with its code), no longer as
``no line applies: the bet loses``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from service.baccarat.tables.rules import TABLES, Dealing
from tests.api.recorded_answers import PRESETS, RECORDED

#: Keys added to answers since the recording.
ADDED = frozenset(
    {
        "pay_tables",
        "table",  # the table the request named, in every signed answer
        "operator",
        "pay_table",
        "dealing",
        "game",
        "operations",
        "code",
        "values",
        "outcome_reason",
        "description_code",
        "description_values",
        "peek",
        "digest",
    }
)

RECORDINGS = json.loads(RECORDED.read_text())


def without_additions(value: Any) -> Any:
    """``value`` with the keys added since the recording taken out, and only
    the recorded presets in a list of tables."""
    if isinstance(value, dict):
        added = ADDED | {"reason"} if "result" in value else ADDED  # a settled bet's line, in words
        kept = {key: without_additions(item) for key, item in value.items() if key not in added}
        if isinstance(kept.get("tables"), list):
            kept["tables"] = [table for table in kept["tables"] if table["name"] in PRESETS]
        return kept
    if isinstance(value, list):
        return [without_additions(item) for item in value]
    return value


@pytest.mark.parametrize(
    "recording",
    RECORDINGS,
    ids=[
        f"{r['method']} {r['path']} {(r['body'] or {}).get('table', '')} {i}"
        for i, r in enumerate(RECORDINGS)
    ],
)
def test_each_preset_answers_as_recorded(client, recording):
    body = recording["body"]
    if recording["path"] == "/v1/shoes" and TABLES[body["table"]].dealing is Dealing.RESHUFFLE_EACH_HAND:
        # A table that reshuffles after each hand has dealt no whole shoe since
        # its rules sheet's word became a rule: its recorded shoe is dealt by
        # rules that say so.
        refused = client.post(recording["path"], json=body)
        assert [error["code"] for error in refused.get_json()["errors"]] == ["dealt_each_hand"]
        body = {**body, "rules": {"dealing": "shoe"}}
    answer = client.open(recording["path"], method=recording["method"], json=body)
    assert answer.status_code == recording["status"]
    assert without_additions(answer.get_json()) == recording["answer"]


def test_the_rules_in_answers_name_every_offered_bet_s_pay_table(client):
    for recording in RECORDINGS:
        if recording["path"] == "/v1/rounds":
            rules = client.post("/v1/rounds", json=recording["body"]).get_json()["rules"]
            assert list(rules["pay_tables"]) == list(rules["limits"]) or set(rules["pay_tables"]) == set(
                rules["limits"]
            )
