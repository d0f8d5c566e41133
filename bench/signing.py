"""What signing the answers costs (docs/audit.md).

1. In process: the median time to sign one answer (``audit.signing.sign``:
   the digests, the signature base, Ed25519) for a round's answer, beside
   the median time of the whole round through the app, signed.
2. Served: ``POST /v1/rounds`` (6 cards, 3 bets) by the service as shipped
   (signed) against the same service with signing off
   (:func:`create_unsigned_app`, a configuration no environment variable
   gives), both under gunicorn.conf.py, alternated five times in one run at
   16 connections: throughput, p50 and p99 of each, and their ratio.
"""

from __future__ import annotations

import json
import os
import statistics
import time

from flask import Flask

from service.app import create_app
from service.contract.audit.exchange import StoredRequest
from service.contract.audit.keys import SigningKey
from service.contract.audit.signing import sign as sign_answer
from service.server.config import from_environment
from tests.servers import gunicorn

from .bodies import ROUND
from .loadgen import http_load

CONNECTIONS = 16
RUNS = 5
SECONDS = 5.0


def create_unsigned_app() -> Flask:
    """The service as gunicorn serves it, with signing off: the yardstick."""
    return create_app({**from_environment(os.environ), "SIGN_ANSWERS": False})


def median_seconds(action: object, repeat: int = 2000) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        timings.append(time.perf_counter() - start)
    return statistics.median(timings)


def in_process() -> list[str]:
    app = create_app({"TESTING": True})
    client = app.test_client()
    body = json.dumps(ROUND)
    answer = client.post("/v1/rounds", data=body, content_type="application/json").get_data()
    key = SigningKey.generate()
    request = StoredRequest("POST", "http://127.0.0.1:8000/v1/rounds", body.encode())
    sign = median_seconds(lambda: sign_answer(key, request, 200, "application/json", answer))
    whole = median_seconds(lambda: client.post("/v1/rounds", data=body, content_type="application/json"), 500)
    return [
        f"signing one round's answer ({len(answer):,} bytes), in process: median {sign * 1e6:.0f} us; "
        f"the whole signed round through the app: median {whole * 1e6:.0f} us "
        f"(signing is {sign / whole:.0%} of it)"
    ]


def served() -> list[str]:
    body = json.dumps(ROUND).encode()
    signed, unsigned = [], []
    with gunicorn(workers=2) as app, gunicorn(workers=2, app="bench.signing:create_unsigned_app()") as plain:
        for _ in range(RUNS):
            unsigned.append(
                http_load(plain.url, "/v1/rounds", body, seconds=SECONDS, connections=CONNECTIONS)
            )
            signed.append(http_load(app.url, "/v1/rounds", body, seconds=SECONDS, connections=CONNECTIONS))
    lines = []
    for name, loads in (("signed (shipped)", signed), ("unsigned", unsigned)):
        rate = statistics.median(load.requests_per_second for load in loads)
        p50 = statistics.median(load.p50_ms or 0.0 for load in loads)
        p99 = statistics.median(load.p99_ms or 0.0 for load in loads)
        lines.append(
            f"POST /v1/rounds, {CONNECTIONS} connections, {name}: {rate:,.0f} req/s, "
            f"p50 {p50:.2f} ms, p99 {p99:.2f} ms [{loads[0].tool}, median of {RUNS} alternated runs of "
            f"{SECONDS:g}s, {sum(load.errors for load in loads)} errors]"
        )
    ratio = statistics.median(x.requests_per_second for x in signed) / statistics.median(
        x.requests_per_second for x in unsigned
    )
    lines.append(f"  signed / unsigned throughput: {ratio:.2f}")
    return lines


def run() -> list[str]:
    return in_process() + served()


if __name__ == "__main__":
    print("\n".join(run()))
