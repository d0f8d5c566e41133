"""Any body up to the size limit, of any shape, is refused cheaply.

Each body is just under BACCARAT_MAX_BODY_BYTES (4 MiB), so the service must
read and parse it: the size limit alone does not stop it. A body of a
million invalid items must not cost a million error messages, seconds of
validation or an answer as large as the question. The figures: a 4xx
problem+json, a worker peak (VmHWM) of at most 256 MiB, an answer under
64 KiB listing at most 51 errors, and worker CPU of at most 10 times what
reading the heaviest body near the limit (a list of a million empty
objects) with the service's own JSON reader takes the test process in the
same run. Refusing a body should cost about what reading it costs; before
the bounds of docs/performance.md these bodies cost 14 to 88 s of CPU, 40
to 250 times that reading. The CPU is compared with a figure of the same
run, never with a fixed number of seconds: a slower or busier machine
slows both. How long each body takes, and its CPU, is reported by make
bench (bench/hostile.py).
"""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from service.contract import jsonio
from tests.servers import Server, worker_pids

from .helpers import (
    CARDS,
    MIB,
    NEAR_LIMIT,
    AnswerError,
    assert_problem,
    call,
    cpu_seconds,
    fill,
    peak_mib,
    reset_peaks,
    settle,
    workers,
)

pytestmark = pytest.mark.server

#: A body may cost the worker this many times the CPU of :func:`reading_seconds`.
CPU_RATIO = 10
PEAK_MIB = 256
ANSWER_BYTES = 64 * 1024
#: 50 field errors, then one saying how many more were left out.
MAX_ERRORS = 51
#: Only so that a hung server ends the test: twice gunicorn's worker timeout
#: (30 s), after which a worker still chewing on a body has been killed.
ANSWER_TIMEOUT = 60.0
#: A worker over this much resident memory before a test is replaced first:
#: an idle worker holds about 100 MiB (docs/performance.md, "Workers"), and a peak
#: must be the measured request's, not memory kept from an earlier one.
FRESH_MIB = 150

CARDS_JSON = json.dumps(CARDS)
EMPTY_SLIP = '{"id":"s","bets":[' + ",".join(["{}"] * 50) + "]}"

#: (path, body builder): each builder makes a body of about NEAR_LIMIT bytes.
SHAPES: dict[str, tuple[str, Callable[[], bytes]]] = {
    "roads-empty-results": ("/v1/roads", lambda: fill('{"results":[', "{}", "]}")),
    "rounds-empty-bets": ("/v1/rounds", lambda: fill('{"bets":[', "{}", "]}")),
    "shoes-empty-bets-by-round": ("/v1/shoes", lambda: fill('{"seed":"s","bets_by_round":[', "{}", "]}")),
    "settlements-number-slips": (
        "/v1/settlements",
        lambda: fill('{"cards":' + CARDS_JSON + ',"slips":[', "1", "]}"),
    ),
    "settlements-slips-of-50-empty-bets": (
        "/v1/settlements",
        lambda: fill('{"cards":' + CARDS_JSON + ',"slips":[', EMPTY_SLIP, "]}"),
    ),
    "rounds-number-cards": ("/v1/rounds", lambda: fill('{"cards":[', "1", "]}")),
    "odds-number-removed": ("/v1/odds", lambda: fill('{"removed":[', "1", "]}")),
    "live-mistagged-cards": (
        "/v1/rounds/live",
        lambda: fill('{"cards":[', '{"card":"XX","hand":"dealer"}', "]}"),
    ),
    "shoes-physical-empty-cards": ("/v1/shoes", lambda: fill('{"cards":[', "{}", "]}")),
    "rounds-unknown-keys": ("/v1/rounds", lambda: fill("{", lambda i: f'"k{i}":1', "}")),
    "rounds-list-of-strings": ("/v1/rounds", lambda: fill("[", '"x"', "]")),
    "rounds-nesting-100000": ("/v1/rounds", lambda: b"[" * 100_000),
    "rounds-nesting-to-the-limit": ("/v1/rounds", lambda: b"[" * NEAR_LIMIT),
    # The seed's maximum length is 256: the length check must not copy or
    # echo the 4 MB.
    "rounds-4mb-seed": ("/v1/rounds", lambda: json.dumps({"seed": "x" * 4_000_000}).encode()),
    # An amount is at most 12 digits and 8 decimals; this one is 4 MB.
    "rounds-4mb-amount": (
        "/v1/rounds",
        lambda: json.dumps(
            {"cards": CARDS, "bets": [{"type": "banker", "amount": "1" * 4_000_000 + "x"}]}
        ).encode(),
    ),
}


@pytest.fixture
def quiet_server(server: Server) -> Iterator[Server]:
    """The module's server with no worker still busy, before and after: a
    body that today's code chews on past the test's patience must not bill
    its CPU to the next body, nor a worker left bloated its memory."""
    settle(server, fat_mib=FRESH_MIB)
    yield server
    settle(server)


def heaviest_body() -> bytes:
    """The most objects per byte a body near the limit can hold: ``[{}, {}, ...]``."""
    return fill('{"results":[', "{}", "]}")


@pytest.fixture(scope="module")
def reading_seconds() -> float:
    """CPU seconds this process takes to read :func:`heaviest_body` with the
    service's JSON reader (the median of three): the yardstick of the run."""
    body = heaviest_body()

    def once() -> float:
        started = time.thread_time()
        jsonio.loads(body)
        return time.thread_time() - started

    return statistics.median(once() for _ in range(3))


@pytest.fixture
def cpu_budget(reading_seconds: float) -> float:
    """The most worker CPU a hostile body may cost in this run."""
    return CPU_RATIO * reading_seconds


def refused_cheaply(server: Server, path: str, body: bytes, cpu_budget: float) -> dict[str, Any]:
    """POST ``body`` and check the answer and what it cost (at most ``cpu_budget``
    seconds of worker CPU); returns the problem."""
    pids = workers(server)
    reset_peaks(pids)
    before = cpu_seconds(pids)
    try:
        answer = call(server.port, "POST", path, body, timeout=ANSWER_TIMEOUT)
    except AnswerError as error:
        answer, failure = None, str(error)
    time.sleep(0.2)  # whatever the worker does right after answering is the request's too
    cpu = cpu_seconds(pids) - before
    alive = pids & worker_pids(server.process.pid)
    peak = max(peak_mib(alive).values(), default=0.0)
    figures = (
        f"{len(body) / MIB:.2f} MiB body: {cpu:.2f} s CPU (budget {cpu_budget:.2f} s), "
        f"peak {peak:.0f} MiB, answer {answer}"
    )

    assert answer is not None, f"{failure}; {figures}"
    assert alive == pids, f"worker {pids - alive} died (killed for memory or time?); {figures}"
    problem = assert_problem(answer, 400, 413, 415, 422)
    assert len(answer.body) < ANSWER_BYTES, figures
    errors = problem.get("errors", [])
    assert len(errors) <= MAX_ERRORS, f"{len(errors)} errors; {figures}"
    if len(errors) == MAX_ERRORS:
        assert re.search(r"\d", errors[-1].get("detail", "")), f"the last entry {errors[-1]} gives no count"
    assert cpu <= cpu_budget, figures
    assert peak <= PEAK_MIB, figures
    return problem


@pytest.mark.parametrize(("path", "build"), SHAPES.values(), ids=SHAPES.keys())
def test_a_body_near_the_limit_is_refused_cheaply(
    quiet_server: Server, cpu_budget: float, path: str, build: Callable[[], bytes]
) -> None:
    body = build()
    assert len(body) <= NEAR_LIMIT
    refused_cheaply(quiet_server, path, body, cpu_budget)


#: Three faults in each bet: an id over 64 characters, an unknown type, a negative amount.
BAD_BET = {"id": "x" * 80, "type": "nope", "amount": "-1"}


def test_within_every_count_limit_but_wrong_everywhere(quiet_server: Server, cpu_budget: float) -> None:
    """10,000 slips of 3 bets, each bet wrong three ways: no count limit
    stops it early, so all 90,000 faults are found, and only 50 are told."""
    slips = [{"id": f"s{n}", "bets": [BAD_BET] * 3} for n in range(10_000)]
    body = json.dumps({"cards": CARDS, "slips": slips}).encode()
    assert 3 * MIB < len(body) <= NEAR_LIMIT
    problem = refused_cheaply(quiet_server, "/v1/settlements", body, cpu_budget)
    assert problem["status"] == 422
    assert len(problem["errors"]) == MAX_ERRORS


def test_the_errors_beyond_50_are_counted_not_listed(quiet_server: Server, cpu_budget: float) -> None:
    """50 bets (the most in a slip) with 3 faults each: 150 errors, of which
    50 are listed and the last entry says 100 more were not shown."""
    body = json.dumps({"cards": CARDS, "bets": [BAD_BET] * 50}).encode()
    problem = refused_cheaply(quiet_server, "/v1/rounds", body, cpu_budget)
    errors = problem["errors"]
    assert len(errors) == MAX_ERRORS, errors
    assert all(error["pointer"].startswith("/bets/") for error in errors[:-1]), errors
    assert "100" in errors[-1]["detail"], errors[-1]
