"""Load generation on loopback: wrk when it is installed, otherwise a small
Python generator (slower, and said so in the output)."""

from __future__ import annotations

import http.client
import re
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Load:
    requests_per_second: float
    errors: int
    tool: str
    p50_ms: float | None = None
    p99_ms: float | None = None
    #: The slowest answer of the run (wrk only).
    max_ms: float | None = None


_WRK_SCRIPT = """
{request}
done = function(summary, latency, requests)
  io.write(string.format("P50 %f\\nP99 %f\\nMAX %f\\n", latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
end
"""


_WRK_POST = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = io.open("{body}"):read("*a")
"""


def http_load(
    url: str, path: str, body: bytes | None, *, seconds: float = 5, connections: int = 8, threads: int = 1
) -> Load:
    """Hammer ``POST path`` with ``body`` (or ``GET path`` when ``body`` is
    None) for ``seconds`` over ``connections`` keep-alive connections (from
    ``threads`` wrk threads); bounded in time, loopback only."""
    assert url.startswith("http://127.0.0.1:"), "load only goes to loopback"
    if shutil.which("wrk"):
        return _wrk(url + path, body, seconds, connections, threads)
    return _python(url, path, body, seconds, connections)


def _wrk(target: str, body: bytes | None, seconds: float, connections: int, threads: int) -> Load:
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp, "body.json")
        request = ""
        if body is not None:
            body_file.write_bytes(body)
            request = _WRK_POST.format(body=body_file)
        script = Path(tmp, "load.lua")
        script.write_text(_WRK_SCRIPT.format(request=request))
        out = subprocess.run(
            [
                *("wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds:g}s", "--timeout", "5s"),
                *("-s", str(script), target),
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=seconds + 30,
        ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors += int(non2xx.group(1)) if non2xx else 0
    p50 = float(re.search(r"P50 ([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99 = float(re.search(r"P99 ([\d.]+)", out).group(1))  # type: ignore[union-attr]
    longest = float(re.search(r"MAX ([\d.]+)", out).group(1))  # type: ignore[union-attr]
    return Load(rate, errors, "wrk", p50, p99, longest)


def _python(url: str, path: str, body: bytes | None, seconds: float, connections: int) -> Load:
    port = int(url.rsplit(":", 1)[1])
    deadline = time.monotonic() + seconds
    counts = [0] * connections
    errors = [0] * connections

    def worker(index: int) -> None:
        while time.monotonic() < deadline:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                if body is None:
                    connection.request("GET", path)
                else:
                    connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                counts[index] += 1
                errors[index] += response.status != 200
            except OSError:
                errors[index] += 1
            finally:
                connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return Load(sum(counts) / (time.monotonic() - start), sum(errors), "python (wrk not installed)")
