"""Answers recorded from the service before pay tables became a catalogue:
every preset's answers, which must not change but for what was added since.

``python -m tests.api.recorded_answers`` writes ``tests/api/recorded/presets.json``
anew; only do that when a preset is meant to answer differently, and say why
in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RECORDED = Path(__file__).resolve().parent / "recorded" / "presets.json"

#: Presets recorded (the presets that existed when the answers were recorded).
PRESETS = ("standard", "tie_9", "no_commission", "ez")

#: Rounds that meet the lines of every preset's bets: pairs, perfect pairs,
#: naturals, natural ties, each margin, three-card 7 and 8, a banker 6 in two
#: and three cards, a tie at 6, four, five and six cards.
CARDS = (
    ["9S", "KH", "2D", "7C", "5H"],
    ["5S", "2H", "5D", "3C", "4S", "KC"],
    ["TS", "9H", "JD", "9H"],
    ["TS", "9H", "JD", "9C"],
    ["2S", "KH", "3D", "KC", "4H", "TC"],
    ["KS", "9H", "KD", "KC"],
    ["2S", "3H", "3D", "3C", "KH"],
    ["2S", "AH", "4D", "AC", "5D"],
    ["2S", "AH", "3D", "AC", "3H", "5D"],
    ["AS", "7H", "KD", "KC", "KH"],
    ["9S", "9H", "KD", "KC"],
    ["8S", "8H", "KD", "KC"],
    ["3S", "2H", "3D", "4C", "KH"],
    ["QS", "2H", "6D", "2C", "KH", "2D"],
    ["4S", "4H", "2D", "2C"],
)


def requests() -> list[tuple[str, str, dict[str, Any] | None]]:
    """Each recorded request: method, path, body."""
    recorded: list[tuple[str, str, dict[str, Any] | None]] = [("GET", "/v1/tables", None)]
    from service.baccarat.tables.rules import TABLES

    for preset in PRESETS:
        rules = TABLES[preset].rules
        bets = [
            {"id": str(bet), "type": str(bet), "amount": str(rules.limits[bet].min)}
            for bet in rules.bet_types
        ]
        for cards in CARDS:
            recorded.append(("POST", "/v1/rounds", {"table": preset, "cards": cards, "bets": bets}))
        recorded.append(("POST", "/v1/rounds", {"table": preset, "seed": "recorded", "bets": bets}))
        recorded.append(
            (
                "POST",
                "/v1/settlements",
                {
                    "table": preset,
                    "cards": CARDS[6],
                    "slips": [{"id": "s1", "bets": bets}, {"id": "s2", "bets": bets[:1]}],
                },
            )
        )
        recorded.append(
            (
                "POST",
                "/v1/shoes",
                {
                    "table": preset,
                    "server_seed": "recorded",
                    "client_seed": preset,
                    "nonce": 1,
                    "to_round": 12,
                    "bets": bets,
                },
            )
        )
        recorded.append(("POST", "/v1/odds", {"table": preset}))
        recorded.append(("POST", "/v1/odds", {"table": preset, "removed": ["AS", "KH", "9D", "9C"]}))
    return recorded


def answers() -> list[dict[str, Any]]:
    """Each request with the status and body the service answers now."""
    from service.app import create_app

    client = create_app().test_client()
    out = []
    for method, path, body in requests():
        answer = client.open(path, method=method, json=body)
        out.append(
            {
                "method": method,
                "path": path,
                "body": body,
                "status": answer.status_code,
                "answer": answer.get_json(),
            }
        )
    return out


if __name__ == "__main__":
    RECORDED.write_text(json.dumps(answers(), indent=1, sort_keys=True) + "\n")
