"""POST /v1/rounds against an empty Flask endpoint, and bulk settlement speed.

1. Throughput of ``POST /v1/rounds`` (6 cards, 3 bets) as a ratio to the
   empty endpoint of :mod:`bench.baseline`, both under the project's
   gunicorn.conf.py as shipped, alternated five times in one run, at 8 and
   at 16 connections (``wrk -t1 -cN``). Target >= 0.80. Then the same
   for a request that does no work, the service's ``GET /livez`` against the
   empty app's ``GET /readyz``: what the service's own layers (request id,
   body limit, request metrics, flask-smorest) cost apart from a round's work.
2. ``POST /v1/settlements`` with 10,000 slips of 3 bets through HTTP: bets
   settled per second, from the median of several requests. Target >= 150,000.
"""

from __future__ import annotations

import http.client
import json
import statistics
import time

from tests.servers import gunicorn

from .loadgen import Load, http_load

ROUND = {
    "cards": ["KS", "2H", "3D", "AC", "5S", "6H"],  # Player 3 draws 5S, Banker 3 draws 6H: six cards
    "bets": [
        {"type": "banker", "amount": "25.00"},
        {"type": "player", "amount": "10"},
        {"type": "tie", "amount": "5"},
    ],
}
SLIPS = {
    "cards": ["KS", "2H", "3D", "AC", "5S", "6H"],
    "slips": [
        {
            "id": f"seat-{i}",
            "bets": [
                {"type": "banker", "amount": "25.00"},
                {"type": "player", "amount": "10"},
                {"type": "tie", "amount": "5"},
            ],
        }
        for i in range(10_000)
    ],
}
TARGET_RATIO = 0.80
TARGET_BETS_PER_SECOND = 150_000
CONNECTIONS = (8, 16)
FLOOR_CONNECTIONS = 16


def throughput_ratio(rounds: int = 5, seconds: float = 5) -> list[str]:
    body = json.dumps(ROUND).encode()
    lines = []
    with gunicorn(workers=2) as app, gunicorn(workers=2, app="bench.baseline:create_app()") as base:
        for connections in CONNECTIONS:
            rate, base_rate, load = side_by_side(
                (app.url, "/v1/rounds", body), (base.url, "/empty", body), connections, rounds, seconds
            )
            ratio = rate / base_rate
            verdict = "meets" if ratio >= TARGET_RATIO else "MISSES"
            lines += [
                f"POST /v1/rounds (6 cards, 3 bets), {connections} connections: {rate:,.0f} req/s; "
                f"empty Flask endpoint: {base_rate:,.0f} req/s [{load.tool}, 2 workers each, "
                f"{rounds} alternated runs of {seconds:g}s, {load.errors} errors]",
                f"  ratio {ratio:.2f} ({verdict} target >= {TARGET_RATIO:.2f})",
            ]
        # The same comparison for a request that does no work: what the
        # service's own layers cost on every request, apart from a round's work.
        rate, base_rate, load = side_by_side(
            (app.url, "/livez", None), (base.url, "/readyz", None), FLOOR_CONNECTIONS, rounds, seconds
        )
        lines += [
            f"GET /livez, {FLOOR_CONNECTIONS} connections: {rate:,.0f} req/s; the empty app's GET /readyz: "
            f"{base_rate:,.0f} req/s [{load.errors} errors]",
            f"  ratio {rate / base_rate:.2f}: the service's layers on a request that does no work",
        ]
    return lines


Target = tuple[str, str, bytes | None]


def side_by_side(
    service: Target, empty: Target, connections: int, rounds: int, seconds: float
) -> tuple[float, float, Load]:
    """Median rates of ``service`` and ``empty`` (url, path, body or None for a
    GET), alternated ``rounds`` times so that drift on a shared machine hits
    both; and the last load, carrying the tool and every run's errors."""
    served, baseline = [], []
    for _ in range(rounds):
        baseline.append(http_load(*empty, seconds=seconds, connections=connections))
        served.append(http_load(*service, seconds=seconds, connections=connections))
    rate = statistics.median(load.requests_per_second for load in served)
    base_rate = statistics.median(load.requests_per_second for load in baseline)
    errors = sum(load.errors for load in served + baseline)
    return rate, base_rate, Load(rate, errors, served[0].tool)


def settlement_speed(requests: int = 5) -> list[str]:
    body = json.dumps(SLIPS).encode()
    bets = sum(len(slip["bets"]) for slip in SLIPS["slips"])
    timings = []
    with gunicorn(workers=1) as app:
        for _ in range(requests + 1):
            connection = http.client.HTTPConnection("127.0.0.1", app.port, timeout=60)
            start = time.perf_counter()
            connection.request(
                "POST", "/v1/settlements", body=body, headers={"Content-Type": "application/json"}
            )
            response = connection.getresponse()
            payload = response.read()
            timings.append(time.perf_counter() - start)
            connection.close()
            assert response.status == 200, payload[:500]
    median = statistics.median(timings[1:])  # the first request warms the worker
    rate = bets / median
    verdict = "meets" if rate >= TARGET_BETS_PER_SECOND else "MISSES"
    return [
        f"POST /v1/settlements, 10,000 slips x 3 bets ({len(body) / 1e6:.1f} MB): "
        f"median {median * 1000:.0f} ms over {requests} requests",
        f"  {rate:,.0f} bets settled per second ({verdict} target >= {TARGET_BETS_PER_SECOND:,})",
    ]


def run() -> list[str]:
    return throughput_ratio() + settlement_speed()


if __name__ == "__main__":
    print("\n".join(run()))
