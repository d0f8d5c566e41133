"""Serving under load, and a worker killed mid-load: ``python -m bench.load``.

All traffic stays on loopback and every run is bounded in time. (The
shipped worker against the sync reference, connection level by level, is
:mod:`bench.fairness`; slow clients are in :mod:`bench.hostile`.)

1. The shipped configuration (gunicorn.conf.py as is), ``POST /v1/rounds``
   with a key: throughput, p50 and p99 latency, errors (target: none).
2. The same load with one worker killed by SIGKILL part-way: the requests
   lost must be no more than the connections that worker held at the moment
   it died (each carries at most one request), and the master must replace it.
3. The memory of the pod's processes after the runs, the master's and
   each worker's: resident (RSS), proportional (PSS: each shared page
   divided among the processes sharing it) and its own (USS: private
   pages). Target: the pod's PSS, all of them summed, within the memory
   the Deployment requests (k8s/deployment.yaml) for those workers. A
   worker's RSS counts every page it shares with the master, which loads
   the app before it forks, so RSS summed over a pod counts them once per
   process and says nothing a limit can use; the pod's PSS counts each
   page once, as the kernel charges the pod's cgroup for it (which also
   counts page cache and the kernel's own memory: the PSS is its floor).
   A worker's USS is what one more worker adds.
4. A graceful stop: SIGTERM to the master while requests are held inside
   the workers (tests/test_shutdown.py's setup, released once the master has
   taken the signal): their answers, and the time from SIGTERM to the
   master's exit (target: within gunicorn's graceful_timeout, 20 s, which the
   pod's grace period leaves room for after the preStop sleep).

wrk (Debian's ``wrk``) generates the load when installed; otherwise a Python
generator does, and the output says so (its figures are lower: it competes
with the server for the same CPUs).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from tests.servers import ROOT, Server, gunicorn, worker_pids
from tests.test_shutdown import IN_FLIGHT, stop_with_requests_in_flight

KEY = "bench-key-0123456789"
ROUND = {
    "cards": ["9S", "KH", "2D", "7C", "5H"],
    "bets": [
        {"type": "banker", "amount": "25.00"},
        {"type": "player", "amount": "10"},
        {"type": "tie", "amount": "5"},
    ],
}
HEADERS = {"Content-Type": "application/json", "Authorization": f"Bearer {KEY}"}
CONNECTIONS = 16
WORKERS = 2  # as k8s/configmap.yaml's WEB_CONCURRENCY
SERVER_ENV = {"BACCARAT_API_KEYS": KEY, "BACCARAT_LOG_LEVEL": "warning"}
# The access log would measure the terminal, not the service.
QUIET = ("--access-logfile", "/dev/null")


@dataclass(frozen=True)
class Load:
    """What one load run saw."""

    requests: int
    seconds: float
    errors: int
    p50_ms: float
    p99_ms: float

    @property
    def rate(self) -> float:
        return self.requests / self.seconds


def generator() -> str:
    """The load generator this run uses."""
    return "wrk" if shutil.which("wrk") else "python"


def load(server: Server, seconds: float, *, close: bool = False, during: float | None = None) -> Load:
    """``POST /v1/rounds`` from CONNECTIONS connections for ``seconds``."""
    assert server.url.startswith("http://127.0.0.1:"), "load only goes to loopback"
    headers = {**HEADERS, "Connection": "close"} if close else HEADERS
    body = json.dumps(ROUND)
    if generator() == "wrk":
        return _wrk(server, body, headers, seconds)
    return _python(server, body, headers, seconds)


_WRK_SCRIPT = """
wrk.method = "POST"
wrk.body = {body}
{headers}
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("RESULT %d %f %d %f %f\\n", summary.requests, summary.duration / 1e6,
    errors.connect + errors.read + errors.write + errors.timeout + errors.status,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""


def _lua(text: str) -> str:
    return json.dumps(text)  # ASCII JSON strings are valid Lua string literals


def _wrk(server: Server, body: str, headers: dict[str, str], seconds: float) -> Load:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp, "round.lua")
        lines = "\n".join(f"wrk.headers[{_lua(k)}] = {_lua(v)}" for k, v in headers.items())
        script.write_text(_WRK_SCRIPT.format(body=_lua(body), headers=lines))
        out = subprocess.run(
            [
                "wrk",
                "-t2",
                f"-c{CONNECTIONS}",
                f"-d{seconds:g}s",
                "--timeout",
                "5s",
                "-s",
                str(script),
                server.url + "/v1/rounds",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=seconds + 30,
        ).stdout
    match = re.search(r"RESULT (\d+) ([\d.]+) (\d+) ([\d.]+) ([\d.]+)", out)
    assert match, out
    requests, duration, errors, p50, p99 = match.groups()
    return Load(int(requests), float(duration), int(errors), float(p50), float(p99))


def _python(server: Server, body: str, headers: dict[str, str], seconds: float) -> Load:
    deadline = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(CONNECTIONS)]
    errors = [0] * CONNECTIONS

    def client(index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                connection.request("POST", "/v1/rounds", body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    errors[index] += 1
                latencies[index].append(time.perf_counter() - started)
                if response.getheader("Connection", "").lower() == "close":
                    connection.close()
            except (OSError, http.client.HTTPException):
                errors[index] += 1
                connection.close()
        connection.close()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CONNECTIONS)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    times = sorted(t for per in latencies for t in per)
    if not times:
        return Load(0, elapsed, sum(errors), float("nan"), float("nan"))
    quantiles = statistics.quantiles(times, n=100)
    return Load(len(times), elapsed, sum(errors), quantiles[49] * 1000, quantiles[98] * 1000)


def established(pid: int, port: int) -> int:
    """How many established TCP connections to ``port`` process ``pid`` holds (from /proc)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01" and fields[9] in inodes:
                count += 1
    return count


def cpu_seconds(pid: int) -> float:
    """User + system CPU time ``pid`` has used, in seconds (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise LookupError(pid)


@dataclass(frozen=True)
class Memory:
    """One process's memory, in MiB, from ``/proc/PID/smaps_rollup``."""

    rss: float  # resident: every page it maps, shared or not
    pss: float  # proportional: each shared page divided among its sharers
    uss: float  # its own: the private pages, gone when it exits

    def __str__(self) -> str:
        return f"RSS {self.rss:.1f}, PSS {self.pss:.1f}, own {self.uss:.1f}"


def memory(pid: int) -> Memory:
    """``pid``'s RSS, PSS and USS (Private_Clean + Private_Dirty)."""
    kib: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        kib[name] = int(value.split()[0])
    return Memory(
        rss=kib["Rss"] / 1024,
        pss=kib["Pss"] / 1024,
        uss=(kib["Private_Clean"] + kib["Private_Dirty"]) / 1024,
    )


def requested_memory_mib() -> float:
    """The memory the shipped Deployment requests for a pod, in MiB: what the
    scheduler reserves for it, and what its PSS is held to."""
    manifest = yaml.safe_load((ROOT / "k8s" / "deployment.yaml").read_text())
    (container,) = manifest["spec"]["template"]["spec"]["containers"]
    quantity = container["resources"]["requests"]["memory"]
    match = re.fullmatch(r"(\d+)(Mi|Gi)", quantity)
    assert match, f"a memory request in Mi or Gi, not {quantity}"
    return int(match.group(1)) * (1024 if match.group(2) == "Gi" else 1)


def memory_lines(master: Memory, workers: list[Memory], requested: float) -> list[str]:
    """The pod's memory after the runs, and its verdict against ``requested`` MiB."""
    pod = master.pss + sum(worker.pss for worker in workers)
    verdict = "within" if pod <= requested else "TARGET MISSED:"
    return [
        "memory after the runs (MiB, /proc/PID/smaps_rollup): "
        + "; ".join(f"worker {worker}" for worker in workers)
        + f"; master {master}",
        f"  the pod's PSS (master and {len(workers)} workers, each shared page counted once): "
        f"{pod:.1f} MiB ({verdict} target <= {requested:g} MiB, the Deployment's memory request); "
        f"summed RSS, shared pages counted in every process: "
        f"{master.rss + sum(worker.rss for worker in workers):.1f} MiB",
    ]


def describe(load_: Load) -> str:
    return (
        f"{load_.rate:,.0f} req/s, p50 {load_.p50_ms:.2f} ms, p99 {load_.p99_ms:.2f} ms, "
        f"{load_.errors} errors ({load_.requests:,} requests in {load_.seconds:.1f} s)"
    )


def settled(server: Server, workers: int = 2) -> Server:
    """``server`` once all its workers have booted and loaded the app (the
    launcher returns when the first one answers)."""
    deadline = time.monotonic() + 20
    while len(worker_pids(server.process.pid)) < workers and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.5)
    return server


def shipped(seconds: float = 8) -> tuple[list[str], Memory, list[Memory]]:
    """The configuration as shipped, then the same load with a worker killed
    mid-run; the memory of the master and of its workers after the runs."""
    lines = []
    with gunicorn(workers=WORKERS, env=SERVER_ENV, args=QUIET) as server:
        steady = load(settled(server), seconds)
        verdict = "none, as required" if steady.errors == 0 else "TARGET MISSED: errors under load"
        lines.append(f"shipped gunicorn.conf.py (2 workers): {describe(steady)}; errors: {verdict}")

        before = worker_pids(server.process.pid)
        victim = min(before)
        held: list[int] = []

        def kill_midway() -> None:
            time.sleep(seconds / 2)
            # Frozen first, so that it accepts nothing between the count and the kill.
            os.kill(victim, signal.SIGSTOP)
            held.append(established(victim, server.port))
            os.kill(victim, signal.SIGKILL)

        killer = threading.Thread(target=kill_midway)
        killer.start()
        faulted = load(server, seconds)
        killer.join()
        deadline = time.monotonic() + 10
        while (
            len(after := worker_pids(server.process.pid)) != WORKERS or victim in after
        ) and time.monotonic() < deadline:
            time.sleep(0.1)
        replaced = len(after) == WORKERS and victim not in after
        within = faulted.errors <= held[0]
        lines.append(
            f"one worker SIGKILLed at {seconds / 2:g} s: {describe(faulted)}; "
            f"it held {held[0]} connection(s), so at most {held[0]} request(s) in flight: "
            + ("within that" if within else "TARGET MISSED: more lost than in flight")
        )
        lines.append(
            "  the master replaced it: "
            + (f"workers {sorted(before)} -> {sorted(after)}" if replaced else "NO, TARGET MISSED")
        )
        workers = [memory(pid) for pid in sorted(after)]
        master = memory(server.process.pid)
    lines += memory_lines(master, workers, requested_memory_mib())
    return lines, master, workers


def graceful_timeout() -> float:
    """gunicorn's graceful_timeout, as gunicorn.conf.py sets it."""
    match = re.search(r"^graceful_timeout = (\d+)", (ROOT / "gunicorn.conf.py").read_text(), re.MULTILINE)
    assert match, "no graceful_timeout in gunicorn.conf.py"
    return float(match.group(1))


def graceful_stop() -> list[str]:
    """SIGTERM with requests in flight: how long until the master exits."""
    with tempfile.TemporaryDirectory(prefix="baccarat-stop-") as directory:
        stopped = stop_with_requests_in_flight(Path(directory))
    statuses = ", ".join(str(status) for status, _ in stopped.results)
    killed = [m for m in stopped.messages if "SIGKILL" in m or "TIMEOUT" in m]
    allowed = graceful_timeout()
    met = stopped.seconds <= allowed and stopped.exit_code == 0 and not killed
    verdict = f"within graceful_timeout ({allowed:g} s)" if met else "TARGET MISSED"
    return [
        f"graceful stop: SIGTERM with {IN_FLIGHT} requests held in the workers (released once the master "
        f"took the signal): answers {statuses}; the master exited {stopped.exit_code} "
        f"{stopped.seconds:.2f} s after SIGTERM, {len(killed)} workers killed: {verdict}"
    ]


def run() -> list[str]:
    """Every figure of this benchmark, as printable lines."""
    if generator() == "wrk":
        lines = ["load generator: wrk"]
    else:
        lines = [
            "load generator: wrk is NOT installed (apt-get install wrk); using the Python generator, "
            "whose figures are lower because it shares the CPUs with the server"
        ]
    lines += shipped()[0]
    lines += graceful_stop()
    return lines


if __name__ == "__main__":
    for line in run():
        print(line)
