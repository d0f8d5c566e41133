"""Live tables: ``python -m bench.live``.

Both comparisons go through the Flask test client (in-process, no HTTP),
alternating the two requests in batches so that drift on a shared machine
hits both alike; each figure is the median of its requests.

1. ``POST /v1/rounds/live`` with a round in progress (4 cards, 3 bets) against
   ``POST /v1/rounds`` with a complete round (6 cards, 3 bets). Target: the
   round in progress costs no more (ratio of medians <= 1).
2. ``POST /v1/shoes`` with a physical shoe's cards (every card of a whole
   8-deck shoe up to its last round, with the cut card's position) against
   the same shoe from its seed. Target: no more time (ratio <= 1).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from flask.testing import FlaskClient

from service.app import create_app

from .bodies import ROUND

IN_PROGRESS = {"cards": ROUND["cards"][:4], "bets": ROUND["bets"]}
SEEDED_SHOE = {"seed": "table-7/shoe-1"}


def timed(client: FlaskClient, path: str, body: dict[str, Any]) -> int:
    start = time.perf_counter_ns()
    response = client.post(path, json=body)
    elapsed = time.perf_counter_ns() - start
    assert response.status_code == 200, response.get_data(as_text=True)
    return elapsed


def side_by_side(
    client: FlaskClient, first: tuple[str, dict[str, Any]], second: tuple[str, dict[str, Any]], batches: int
) -> tuple[float, float]:
    """Median microseconds of each request, alternated in batches of 50."""
    times: tuple[list[int], list[int]] = ([], [])
    for _ in range(batches):
        for timings, (path, body) in zip(times, (first, second), strict=True):
            timings.extend(timed(client, path, body) for _ in range(50))
    return statistics.median(times[0]) / 1e3, statistics.median(times[1]) / 1e3


def physical_shoe(client: FlaskClient) -> dict[str, Any]:
    """The seeded shoe's cards up to its last round, as a physical shoe sends them."""
    whole = client.post("/v1/shoes", json={**SEEDED_SHOE, "include_shoe": True}).get_json()
    last = whole["rounds"][-1]
    end = max(last["positions"]["player"] + last["positions"]["banker"]) + 1
    return {"cards": whole["shoe"][:end], "cut_card_position": whole["cut_card_position"]}


def run(batches: int = 20) -> list[str]:
    client = create_app({"TESTING": True}).test_client()
    live, whole = side_by_side(
        client, ("/v1/rounds/live", IN_PROGRESS), ("/v1/rounds", ROUND), batches=batches
    )
    physical = physical_shoe(client)
    rounds = len(client.post("/v1/shoes", json=physical).get_json()["rounds"])
    cards, seeded = side_by_side(
        client, ("/v1/shoes", physical), ("/v1/shoes", SEEDED_SHOE), batches=batches // 4
    )
    live_verdict = "meets" if live <= whole else "MISSES"
    shoe_verdict = "meets" if cards <= seeded else "MISSES"
    return [
        f"POST /v1/rounds/live, 4 cards in progress + 3 bets: median {live:.0f} us; "
        f"POST /v1/rounds, 6 cards + 3 bets: {whole:.0f} us "
        f"[in-process, {batches * 50} requests each, alternated]",
        f"  ratio {live / whole:.3f} ({live_verdict} target <= 1)",
        f"POST /v1/shoes, physical shoe of {len(physical['cards'])} cards, {rounds} rounds: median "
        f"{cards / 1e3:.2f} ms; the same shoe from its seed: {seeded / 1e3:.2f} ms "
        f"[in-process, {batches // 4 * 50} requests each, alternated]",
        f"  ratio {cards / seeded:.3f} ({shoe_verdict} target <= 1)",
    ]


if __name__ == "__main__":
    print("\n".join(run()))
