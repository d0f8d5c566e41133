"""The request limits hold from both sides.

At the limit: the largest valid request of each kind (a settlement of
30,000 bets, a shoe with 50 bets on every round, 1,000 road results, odds
with 410 cards removed, a round from 416 cards with 50 bets), four at once,
is answered 200 with no worker timed out, and the workers' peaks add up to
at most the pod's 512 MiB. Meanwhile the probes are answered as the kubelet
sends them (every one 200): liveness by gunicorn's master, which waits behind
no work, and readiness by the workers, which serve it in its turn. Where the
requests are heavy enough for a probe stuck behind one to show (the largest
settlement and shoe, a few hundred ms each), the probes' times are held to
the requests' of the same run: liveness's slowest answer under half the
longest request, readiness never later than all the requests in flight took
together. The light kinds take milliseconds, where a comparison would
measure the machine's scheduling, not the service. No absolute time is
asserted: a loaded machine slows the requests and the probes alike. One over
each limit is a 422 naming the field.
"""

from __future__ import annotations

import functools
import json

import pytest

from tests.servers import Server, worker_pids

from .helpers import (
    CARDS,
    ROUND,
    Answer,
    AnswerError,
    assert_problem,
    at_once_while_probing,
    call,
    peak_mib,
    pointers,
    reset_peaks,
    workers,
)

pytestmark = pytest.mark.server

AT_ONCE = 4
POD_MIB = 512
#: gunicorn's worker timeout: an answer later than this was cut off by it.
WORKER_TIMEOUT = 30.0
#: Only so that a hung server ends the test: a readiness probe waits for the
#: requests ahead of it, and none may take longer than the worker timeout.
PROBE_TIMEOUT = WORKER_TIMEOUT
PROBE_PAUSE = 0.2

RANKS = "A23456789TJQK"
SUITS = "SHDC"
#: An 8-deck shoe in order: 416 valid cards, each card at most 8 times.
SHOE = [rank + suit for _ in range(8) for suit in SUITS for rank in RANKS]
SLIP = [
    {"type": "banker", "amount": "25.00"},
    {"type": "player", "amount": "10"},
    {"type": "tie", "amount": "5"},
]
#: 50 bets of 1.00 over ten bet types of the standard table: 5.00 a type,
#: within every type's per-slip maximum.
FIFTY_BETS = [
    {"type": bet_type, "amount": "1"}
    for bet_type in (
        "player",
        "banker",
        "tie",
        "player_pair",
        "banker_pair",
        "either_pair",
        "perfect_pair",
        "dragon_bonus_player",
        "dragon_bonus_banker",
        "big",
    )
    for _ in range(5)
]


def encoded(body: object) -> bytes:
    return json.dumps(body).encode()


@functools.cache
def played_round(port: int) -> dict[str, object]:
    """A round exactly as POST /v1/rounds answers it (a result form the roads accept)."""
    answer = call(port, "POST", "/v1/rounds", ROUND)
    assert answer.status == 200, str(answer)
    result: dict[str, object] = answer.json()
    return result


@functools.cache
def shoe_rounds(port: int) -> int:
    answer = call(port, "POST", "/v1/shoes", {"seed": "s"})
    assert answer.status == 200, str(answer)
    count: int = answer.json()["round_count"]
    return count


def largest(kind: str, port: int) -> tuple[str, bytes]:
    """The largest valid request of ``kind``: (path, body)."""
    if kind == "settlement-30000-bets":
        slips = [{"id": f"seat-{number}", "bets": SLIP} for number in range(10_000)]
        return "/v1/settlements", encoded({"cards": CARDS, "slips": slips})
    if kind == "shoe-50-bets-every-round":
        by_round = [{"round": number, "bets": FIFTY_BETS} for number in range(1, shoe_rounds(port) + 1)]
        return "/v1/shoes", encoded({"seed": "s", "bets_by_round": by_round})
    if kind == "roads-1000-results":
        forms = ["banker", {"outcome": "player", "player_pair": True, "natural": True}, played_round(port)]
        return "/v1/roads", encoded({"results": [forms[n % 3] for n in range(1_000)]})
    if kind == "odds-410-removed":
        return "/v1/odds", encoded({"removed": SHOE[:410]})
    if kind == "round-416-cards-50-bets":
        return "/v1/rounds", encoded({"cards": SHOE, "bets": FIFTY_BETS})
    raise AssertionError(kind)


KINDS = [
    "settlement-30000-bets",
    "shoe-50-bets-every-round",
    "roads-1000-results",
    "odds-410-removed",
    "round-416-cards-50-bets",
]
#: The kinds whose largest request takes a few hundred ms: a probe stuck behind one would show.
HEAVY = {"settlement-30000-bets", "shoe-50-bets-every-round"}


def probe(port: int, path: str) -> Answer | str:
    """The probe's 200 answer, or what went wrong."""
    try:
        answer = call(port, "GET", path, timeout=PROBE_TIMEOUT)
    except (OSError, AnswerError) as error:
        return repr(error)
    return answer if answer.status == 200 else f"{path}: {answer}"


def probes(server: Server) -> tuple[Answer | str, Answer | str]:
    """Liveness as the kubelet asks it (the master's port) and readiness (the API's)."""
    return probe(server.metrics_port, "/livez"), probe(server.port, "/readyz")


def post(port: int, path: str, body: bytes) -> Answer | str:
    """The answer, or why there was none."""
    try:
        return call(port, "POST", path, body, timeout=WORKER_TIMEOUT)
    except (OSError, AnswerError) as error:
        return repr(error)


def all_at_once(server: Server, requests: list[tuple[str, bytes]], *, heavy: bool) -> None:
    """Send ``requests`` together, probing until they are all answered.
    ``heavy``: they take long enough that a probe waiting behind one would
    show it (the largest settlement and shoe take a few hundred ms each), so
    the probes' times are compared with theirs."""
    pids = workers(server)
    reset_peaks(pids)
    answers, sent = at_once_while_probing(
        [functools.partial(post, server.port, path, body) for path, body in requests],
        functools.partial(probes, server),
        PROBE_PAUSE,
    )
    alive = pids & worker_pids(server.process.pid)
    peaks = peak_mib(alive)
    figures = f"worker peaks {', '.join(f'{mib:.0f}' for mib in peaks.values())} MiB"
    for answer in answers:
        assert isinstance(answer, Answer), f"no answer: {answer}; {figures}"
        assert answer.status == 200, f"{answer}; {figures}"
    assert alive == pids, f"worker {pids - alive} was killed (timeout?); {figures}"
    assert sum(peaks.values()) <= POD_MIB, figures
    failed = [result for pair in sent for result in pair if not isinstance(result, Answer)]
    assert not failed, f"{len(failed)} probes failed: {failed[:3]}"
    liveness = max(live.elapsed for live, _ in sent)  # type: ignore[union-attr]
    readiness = max(ready.elapsed for _, ready in sent)  # type: ignore[union-attr]
    times = [answer.elapsed for answer in answers]  # type: ignore[union-attr]
    timing = (
        f"slowest liveness {liveness * 1000:.1f} ms, slowest readiness {readiness * 1000:.1f} ms, "
        f"requests {', '.join(f'{t * 1000:.0f}' for t in times)} ms"
    )
    if heavy:
        assert liveness < max(times) / 2, f"liveness waited behind the work: {timing}"
        assert readiness <= sum(times), f"readiness waited for more than the work in flight: {timing}"


@pytest.mark.parametrize("kind", KINDS)
def test_the_largest_request_four_at_once(server: Server, kind: str) -> None:
    request = largest(kind, server.port)
    all_at_once(server, [request] * AT_ONCE, heavy=kind in HEAVY)


def test_the_largest_requests_of_four_kinds_at_once(server: Server) -> None:
    all_at_once(server, [largest(kind, server.port) for kind in KINDS[:AT_ONCE]], heavy=True)


BET = {"type": "player", "amount": "1"}
#: (path, body, the pointer the 422 must name, or a prefix of it)
OVER = {
    "10001-slips": (
        "/v1/settlements",
        {"cards": CARDS, "slips": [{"id": f"s{n}", "bets": [BET]} for n in range(10_001)]},
        "/slips",
    ),
    # 10,000 slips (the most) of 3 bets, and one bet more in the first.
    "30001-bets": (
        "/v1/settlements",
        {
            "cards": CARDS,
            "slips": [{"id": "s0", "bets": [*SLIP, BET]}]
            + [{"id": f"s{n}", "bets": SLIP} for n in range(1, 10_000)],
        },
        "/slips",
    ),
    "51-bets-in-a-slip": (
        "/v1/settlements",
        {"cards": CARDS, "slips": [{"id": "s", "bets": [BET] * 51}]},
        "/slips/0/bets",
    ),
    "51-bets-in-a-round": ("/v1/rounds", {"cards": CARDS, "bets": [BET] * 51}, "/bets"),
    "51-bets-in-a-shoe-round": (
        "/v1/shoes",
        {"seed": "s", "bets_by_round": [{"round": 1, "bets": [BET] * 51}]},
        "/bets_by_round/0/bets",
    ),
    "1001-results": ("/v1/roads", {"results": ["banker"] * 1_001}, "/results"),
    "417-cards": ("/v1/rounds", {"cards": [*SHOE, "AS"]}, "/cards"),
    "417-removed": ("/v1/odds", {"removed": [*SHOE, "AS"]}, "/removed"),
}


@pytest.mark.parametrize(("path", "body", "field"), OVER.values(), ids=OVER.keys())
def test_one_over_the_limit_is_422_naming_the_field(
    server: Server, path: str, body: object, field: str
) -> None:
    answer = call(server.port, "POST", path, body, timeout=WORKER_TIMEOUT)
    problem = assert_problem(answer, 422)
    named = pointers(problem)
    assert any(p == field or p.startswith(field + "/") for p in named), f"{field} not in {named[:10]}"
