"""Whole shoes: ``python -m bench.shoes``.

1. A full 8-deck shoe shuffled from seeds and dealt in-process (burn, every
   round, cut card): the median over 200 shoes, each from a new nonce.
   Target <= 2 ms. The shuffle and the deal are also timed apart.
2. ``POST /v1/shoes`` through the Flask test client (in-process, no HTTP):
   requests per second for a whole 8-deck shoe, without and with a bet slip
   settled on every round, and for one round addressed by number.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from service.app import create_app
from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.shoes.shuffle import SeedInputs, shuffled_shoe

TARGET_MS = 2.0
SERVER_SEED = "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e"
FAIR: dict[str, Any] = {"server_seed": SERVER_SEED, "client_seed": "bench"}
BETS = [
    {"type": "banker", "amount": "25.00"},
    {"type": "player", "amount": "10"},
    {"type": "tie", "amount": "5"},
]


def median_ms(action: Callable[[int], Any], runs: int) -> float:
    """Median wall time of ``action(nonce)`` over ``runs`` nonces, in milliseconds."""
    timings = []
    for nonce in range(runs):
        start = time.perf_counter_ns()
        action(nonce)
        timings.append(time.perf_counter_ns() - start)
    return statistics.median(timings) / 1e6


def shoe_in_process(runs: int = 200) -> list[str]:
    """A whole 8-deck shoe, shuffled and dealt, against the 2 ms target."""
    median_ms(lambda n: deal_shoe(shuffled_shoe(8, SeedInputs(SERVER_SEED, "warm-up", n))), 20)
    whole = median_ms(lambda n: deal_shoe(shuffled_shoe(8, SeedInputs(SERVER_SEED, "bench", n))), runs)
    shuffle = median_ms(lambda n: shuffled_shoe(8, SeedInputs(SERVER_SEED, "bench", n)), runs)
    shoes = [shuffled_shoe(8, SeedInputs(SERVER_SEED, "bench", n)) for n in range(runs)]
    deal = median_ms(lambda n: deal_shoe(shoes[n]), runs)
    rounds = statistics.mean(len(deal_shoe(s).rounds) for s in shoes)
    verdict = "meets" if whole <= TARGET_MS else "MISSES"
    return [
        f"8-deck shoe shuffled and dealt in-process: median {whole:.3f} ms over {runs} shoes "
        f"({verdict} target <= {TARGET_MS:g} ms)",
        f"  shuffle {shuffle:.3f} ms, deal {deal:.3f} ms ({rounds:.1f} rounds per shoe on average)",
    ]


def shoes_endpoint(seconds: float = 2.0) -> list[str]:
    """Requests per second of POST /v1/shoes through the Flask test client."""
    client = create_app({"TESTING": True}).test_client()
    cases = [
        ("whole 8-deck shoe", {**FAIR}),
        ("whole shoe, 3 bets settled on every round", {**FAIR, "bets": BETS}),
        ("one round by number (round 40)", {**FAIR, "from_round": 40, "to_round": 40}),
    ]
    lines = []
    for label, body in cases:
        count, timings = 0, []
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            start = time.perf_counter_ns()
            response = client.post("/v1/shoes", json={**body, "nonce": count})
            timings.append(time.perf_counter_ns() - start)
            assert response.status_code == 200, response.get_data(as_text=True)
            count += 1
        total = sum(timings) / 1e9
        lines.append(
            f"POST /v1/shoes, {label}: {count / total:,.0f} req/s in-process, "
            f"median {statistics.median(timings) / 1e6:.2f} ms ({count} requests)"
        )
    return lines


def run() -> list[str]:
    """Every figure of this section, as printable lines."""
    return shoe_in_process() + shoes_endpoint()


if __name__ == "__main__":
    for line in run():
        print(line)
