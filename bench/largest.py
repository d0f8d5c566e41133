"""The largest valid multiplier settlement: what it costs and what it answers.

``PYTHONPATH=. .venv/bin/python -m bench.largest``. ``POST /v1/settlements``
at the table's limit of bets (``MAX_TABLE_BETS``, 30,000) under a
multiplier rule that lights all 52 cards at x1000, with the player, banker
and tie bets counting all six cards of the round (the most cards a bet
lists), in two shapes: 10,000 slips of 3 bets, and 600 slips of 50 bets
(the fewest request bytes per bet, so the largest answer for its request).
Beside them, the bench's plain 10,000-slip settlement (:data:`bench.bodies.SLIPS`).
Each through the app's whole WSGI stack in process, signed as shipped, in
the full answer and in the minimal one (``Prefer: return=minimal``): its
CPU (``time.process_time``, best of three), the request's and the answer's
bytes, and the answer over the request.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from service.app import create_app
from service.baccarat.rulebook.cards import DECK
from service.contract.schemas.slips import MAX_TABLE_BETS

from .bodies import SLIPS

CARDS = ["KS", "2H", "3D", "AC", "5S", "6H"]
RULE = {
    "cards": {"52": 1},
    "multipliers": {"1000": 1},
    "pays": {
        "player": {"pays": "1", "counted": "all_cards"},
        "banker": {"pays": "1", "counted": "all_cards"},
        "tie": {"pays": "8", "counted": "all_cards"},
    },
    "fee": {"rate": "0.2", "bets": ["player", "banker", "tie"]},
}
#: The minimal answer (``Prefer: return=minimal``), beside the full one.
MINIMAL = {"Prefer": "return=minimal"}
BETS = (
    {"type": "banker", "amount": "25.00"},
    {"type": "player", "amount": "10"},
    {"type": "tie", "amount": "5"},
)


def lit_table(slips: int, bets_per_slip: int) -> dict[str, Any]:
    """``slips`` slips of ``bets_per_slip`` bets at the all-lit rule (a
    slip of many bets stakes 1 on each, within the table's limits per slip)."""
    bets = BETS if bets_per_slip <= len(BETS) else tuple({**bet, "amount": "1"} for bet in BETS)
    return {
        "cards": CARDS,
        "rules": {"multipliers": RULE},
        "multiplier_cards": [{"card": str(card), "multiplier": 1000} for card in DECK],
        "slips": [
            {"id": f"seat-{i}", "bets": [bets[j % 3] for j in range(bets_per_slip)]} for i in range(slips)
        ],
    }


def measure(
    client: Any, body: bytes, repeats: int = 3, headers: dict[str, str] | None = None
) -> tuple[float, int]:
    """Best CPU seconds of the whole request, and the answer's bytes."""
    best, size = float("inf"), 0
    for _ in range(repeats):
        start = time.process_time()
        answer = client.post("/v1/settlements", data=body, content_type="application/json", headers=headers)
        best = min(best, time.process_time() - start)
        assert answer.status_code == 200, answer.data[:300]
        size = len(answer.data)
    return best, size


def run() -> list[str]:
    logging.disable(logging.WARNING)
    try:
        client = create_app({}).test_client()
    finally:
        logging.disable(logging.NOTSET)
    cases = [
        ("plain table, 10,000 slips x 3 bets", SLIPS),
        ("52 lit cards, 10,000 slips x 3 bets", lit_table(10_000, 3)),
        ("52 lit cards, 600 slips x 50 bets", lit_table(MAX_TABLE_BETS // 50, 50)),
    ]
    lines = []
    for name, request in cases:
        body = json.dumps(request).encode()
        for form, headers in (("", None), (", minimal", MINIMAL)):
            cpu, size = measure(client, body, headers=headers)
            lines.append(
                f"{name}{form}: {cpu * 1000:,.0f} ms of CPU, {len(body) / 1e6:.2f} MB in, "
                f"{size / 1e6:.2f} MB out: answer {size / len(body):.1f}x the request"
            )
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
