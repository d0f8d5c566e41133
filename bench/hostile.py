"""Hostile and slow clients against the real server: ``python -m bench.hostile``.

The cases are the ones tests/hostile checks (their bodies and slow clients
are imported from there, so the figures are for exactly what the tests
send); this module measures them, side by side in one run. All traffic
stays on loopback, every wait is bounded, and each server is stopped by
its own pid.

1. Slow clients: 64 slow connections held open (idle, slowloris, a body
   that trickles, a large answer never read), while GET /livez and a valid
   POST /v1/rounds are probed every 0.3 s; the shipped gevent worker, then
   the old sync worker class, 2 workers each.
2. Hostile bodies of about 4 MiB, one at a time on the shipped server: the
   answer, the worker CPU time and the worker's peak memory for each.
3. The largest valid request, a settlement of 30,000 bets, four at once:
   how long each takes, the probes meanwhile (liveness as the kubelet asks
   it, from gunicorn's master; readiness and /livez from the workers), the
   workers' peak memory.
4. Memory kept: each worker's resident memory after 150 invalid ~4 MiB bodies.
"""

from __future__ import annotations

import functools
import json
import statistics
import time
from concurrent.futures import Future, ThreadPoolExecutor

from service.contract import jsonio
from tests.hostile.helpers import (
    CARDS,
    MIB,
    ROUND,
    WORKERS,
    Answer,
    AnswerError,
    at_once_while_probing,
    busy_workers,
    call,
    cpu_seconds,
    memory_mib,
    peak_mib,
    reset_peaks,
    settle,
    workers,
)
from tests.hostile.test_bodies import ANSWER_TIMEOUT, CPU_RATIO, FRESH_MIB, SHAPES, heaviest_body
from tests.hostile.test_memory import REQUESTS as MEMORY_REQUESTS
from tests.hostile.test_memory import body as memory_body
from tests.hostile.test_slow_clients import PER_KIND, TICK, SlowClients
from tests.servers import Server, gunicorn, worker_pids

PROBE_PAUSE = 0.3
PROBE_SECONDS = 6.0
PROBE_TIMEOUT = 2.0
LIVEZ_PAUSE = 0.2
#: gunicorn's worker timeout: the longest a valid request may take.
WORKER_TIMEOUT = 30.0
AT_ONCE = 4
SLIP = [
    {"type": "banker", "amount": "25.00"},
    {"type": "player", "amount": "10"},
    {"type": "tie", "amount": "5"},
]
#: 10,000 slips of 3 bets: the most one request may carry.
LARGEST = {"cards": CARDS, "slips": [{"id": f"seat-{n}", "bets": SLIP} for n in range(10_000)]}


def booted(server: Server, timeout: float = 20) -> Server:
    """``server`` once all its workers are up and done loading the app (a
    booting worker uses CPU; the launcher returns when the first answers)."""
    workers(server, WORKERS, timeout)
    deadline = time.monotonic() + timeout
    while busy_workers(server) and time.monotonic() < deadline:
        pass
    return server


def attempt(
    port: int, method: str, path: str, body: object = None, timeout: float = PROBE_TIMEOUT
) -> Answer | None:
    """The answer, or None when there was none within ``timeout``."""
    try:
        return call(port, method, path, body, timeout=timeout)
    except (OSError, AnswerError):
        return None


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds >= 0.1 else f"{seconds * 1000:.1f} ms"


def tally(name: str, answers: list[Answer | None]) -> str:
    """``name``: how many of ``answers`` were 200s, and their latency."""
    ok = [answer.elapsed for answer in answers if answer is not None and answer.status == 200]
    other = sum(1 for answer in answers if answer is not None and answer.status != 200)
    text = f"{name} {len(ok)}/{len(answers)} answered 200"
    if ok:
        text += f" (median {ms(statistics.median(ok))}, max {ms(max(ok))})"
    if other:
        text += f", {other} other answers"
    if len(ok) + other < len(answers):
        text += f", {len(answers) - len(ok) - other} unanswered in {PROBE_TIMEOUT:g} s"
    return text


def probed_under_slow_clients(server: Server) -> str:
    """Probes on a fixed schedule while the slow clients hang on: each is sent
    on time, whether or not the earlier ones were answered, so both worker
    classes are sent the same probes."""
    livez: list[Future] = []
    rounds: list[Future] = []
    clients = SlowClients(server.port)
    try:
        time.sleep(1)  # let the server accept them all before the first probe
        with ThreadPoolExecutor(32) as pool:
            started = time.monotonic()
            for tick in range(round(PROBE_SECONDS / PROBE_PAUSE)):
                time.sleep(max(0.0, started + tick * PROBE_PAUSE - time.monotonic()))
                livez.append(pool.submit(attempt, server.port, "GET", "/livez"))
                rounds.append(pool.submit(attempt, server.port, "POST", "/v1/rounds", ROUND))
            results = [[future.result() for future in futures] for futures in (livez, rounds)]
        feeding = clients.feeder.is_alive()
    finally:
        clients.close()
    note = "" if feeding else " (the slow clients' feeder had STOPPED)"
    return f"{tally('GET /livez', results[0])}; {tally('POST /v1/rounds', results[1])}{note}"


def slow_clients() -> list[str]:
    lines = [
        f"slow clients: {4 * PER_KIND} connections held open ({PER_KIND} idle, {PER_KIND} slowloris "
        f"sending a header byte every {TICK:g} s, {PER_KIND} trickling a 1,000-byte body, {PER_KIND} "
        "asking for a whole shoe again and again and never reading); meanwhile GET /livez and "
        f"POST /v1/rounds every {PROBE_PAUSE:g} s for {PROBE_SECONDS:g} s, {PROBE_TIMEOUT:g} s timeout "
        f"each; {WORKERS} workers:"
    ]
    for name, args in (("gevent (shipped)", ()), ("sync (old)", ("-k", "sync"))):
        with gunicorn(workers=WORKERS, args=args) as server:
            lines.append(f"  {name:<17} {probed_under_slow_clients(booted(server))}")
    return lines


def hostile_bodies(server: Server) -> list[str]:
    lines = [
        "hostile bodies (each shape as large as fits under the 4 MiB limit), one at a time on the "
        "shipped server (2 workers): status, answer size and time, worker CPU (user+system over both "
        "workers), peak memory of the worker that answered (VmHWM, reset before each) and its resident "
        f"memory before; a worker over {FRESH_MIB} MiB resident is replaced (and booted) before the next body"
    ]
    width = max(len(name) for name in SHAPES)
    replaced = 0
    for name, (path, build) in SHAPES.items():
        body = build()
        before_settle = worker_pids(server.process.pid)
        settle(server, fat_mib=FRESH_MIB)
        pids = sorted(workers(booted(server)))  # a replacement's boot must not count as CPU
        replaced += len(before_settle - set(pids))
        resident = {pid: memory_mib(pid, "VmRSS") for pid in pids}
        reset_peaks(pids)
        cpu = {pid: cpu_seconds([pid]) for pid in pids}
        answer = attempt(server.port, "POST", path, body, timeout=ANSWER_TIMEOUT)
        time.sleep(0.2)  # what the worker does right after answering is the request's too
        cpu = {pid: cpu_seconds([pid]) - cpu[pid] for pid in pids}
        alive = set(pids) & worker_pids(server.process.pid)
        if answer is None:
            outcome = f"NO ANSWER within {ANSWER_TIMEOUT:g} s"
        else:
            outcome = f"{answer.status}, answer {len(answer.body):,} bytes in {ms(answer.elapsed)}"
        handler = max(pids, key=cpu.__getitem__)  # the worker that did the work
        if handler in alive:
            memory = f"peak {peak_mib([handler])[handler]:.0f} MiB (from {resident[handler]:.0f})"
        else:
            memory = f"worker {handler} DIED"
        lines.append(
            f"  {name:<{width}} {path:<16} {len(body) / MIB:.2f} MiB: {outcome}, "
            f"CPU {sum(cpu.values()):.2f} s, {memory}"
        )
    settle(server)
    lines.append(f"  workers replaced between bodies (busy or over {FRESH_MIB} MiB): {replaced}")
    reading = statistics.median(reading_seconds() for _ in range(3))
    lines.append(
        f"  the tests' yardstick: reading the heaviest body (a list of empty objects) with jsonio.loads "
        f"in this process, {reading:.2f} s of CPU; make test allows a body {CPU_RATIO}x that, "
        f"{CPU_RATIO * reading:.2f} s"
    )
    return lines


def reading_seconds() -> float:
    """CPU seconds this process takes to read the heaviest body near the limit."""
    body = heaviest_body()
    started = time.thread_time()
    jsonio.loads(body)
    return time.thread_time() - started


def largest_at_once(server: Server) -> list[str]:
    body = json.dumps(LARGEST).encode()
    settle(server, fat_mib=FRESH_MIB)
    pids = workers(booted(server))
    small = {"cards": CARDS, "slips": [{"id": f"s{n}", "bets": SLIP} for n in range(10)]}
    with ThreadPoolExecutor(AT_ONCE) as pool:  # warm both workers' settlement path
        list(pool.map(lambda _: call(server.port, "POST", "/v1/settlements", small), range(2 * AT_ONCE)))
    resident = [memory_mib(pid, "VmRSS") for pid in sorted(pids)]
    reset_peaks(pids)
    probed = {
        "GET /livez on the master's port (the kubelet's liveness probe)": (server.metrics_port, "/livez"),
        "GET /readyz on the API's port (the readiness probe)": (server.port, "/readyz"),
        "GET /livez on the API's port": (server.port, "/livez"),
    }
    answers, probes = at_once_while_probing(
        [
            functools.partial(attempt, server.port, "POST", "/v1/settlements", body, WORKER_TIMEOUT)
            for _ in range(AT_ONCE)
        ],
        lambda: [attempt(port, "GET", path) for port, path in probed.values()],
        LIVEZ_PAUSE,
    )
    alive = pids & worker_pids(server.process.pid)
    peak = peak_mib(alive)
    peaks = [peak[pid] for pid in sorted(alive)]
    each = ", ".join(
        "NO ANSWER" if answer is None else f"{answer.status} in {ms(answer.elapsed)}" for answer in answers
    )
    died = "" if alive == pids else f"; worker {sorted(pids - alive)} DIED"
    return [
        f"largest valid request, {AT_ONCE} at once: POST /v1/settlements, 10,000 slips x 3 bets "
        f"(30,000 bets, the per-request maximum; {len(body) / 1e6:.1f} MB each)",
        f"  answers: {each}",
        f"  meanwhile, every {LIVEZ_PAUSE:g} s:",
        *(f"    {tally(name + ':', [sent[n] for sent in probes])}" for n, name in enumerate(probed)),
        f"  worker peak memory (VmHWM, reset before): {' + '.join(f'{p:.0f}' for p in peaks)} = "
        f"{sum(peaks):.0f} MiB (resident before: {' + '.join(f'{r:.0f}' for r in resident)} MiB){died}",
    ]


def memory_kept(server: Server) -> list[str]:
    # Every worker is over 0 MiB: all are replaced, so the figures start from fresh workers.
    settle(server, fat_mib=0.0)
    pids = sorted(workers(booted(server)))
    before = [memory_mib(pid, "VmRSS") for pid in pids]
    statuses: dict[str, int] = {}
    started = time.monotonic()
    for number in range(MEMORY_REQUESTS):
        answer = attempt(server.port, "POST", "/v1/rounds", memory_body(number), timeout=15)
        status = "NO ANSWER" if answer is None else str(answer.status)
        statuses[status] = statuses.get(status, 0) + 1
    elapsed = time.monotonic() - started
    after = {pid: memory_mib(pid, "VmRSS") for pid in sorted(workers(server))}
    answered = ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items()))
    same = "the same workers throughout" if sorted(after) == pids else "A WORKER WAS REPLACED during the run"
    sizes = ", ".join(
        f"{mib:.0f} -> {after.get(pid, float('nan')):.0f} MiB" for pid, mib in zip(pids, before, strict=True)
    )
    return [
        f"memory kept: {MEMORY_REQUESTS} invalid ~4 MiB bodies to POST /v1/rounds, one after another "
        f"(a 4 MB seed, or a unique 3 MB amount), on fresh workers: {answered} in {elapsed:.1f} s",
        f"  each worker's resident memory (VmRSS) before -> after: {sizes} ({same})",
    ]


def run() -> list[str]:
    """Every figure of this benchmark, as printable lines."""
    lines = slow_clients()
    with gunicorn(workers=WORKERS) as server:
        booted(server)
        lines += hostile_bodies(server)
        lines += largest_at_once(server)
        lines += memory_kept(server)
    return lines


if __name__ == "__main__":
    for line in run():
        print(line)
