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
from collections.abc import Mapping, Sequence
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


#: Requests sent in turn, each with its own extra headers (wrk's ``request``
#: hook; each is formatted once, before the first request).
_WRK_ROTATION = """
local rotation = {{ {rotation} }}
local made = nil
local sent = 0
request = function()
  if made == nil then
    made = {{}}
    for i, extra in ipairs(rotation) do
      local headers = {{}}
      for name, value in pairs(wrk.headers) do headers[name] = value end
      for name, value in pairs(extra) do headers[name] = value end
      made[i] = wrk.format(nil, nil, headers)
    end
  end
  sent = sent + 1
  return made[(sent % #made) + 1]
end
"""


_WRK_POST = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = io.open("{body}"):read("*a")
"""


def http_load(
    url: str,
    path: str,
    body: bytes | None,
    *,
    seconds: float = 5,
    connections: int = 8,
    threads: int = 1,
    headers: Sequence[Mapping[str, str]] = (),
) -> Load:
    """Hammer ``POST path`` with ``body`` (or ``GET path`` when ``body`` is
    None) for ``seconds`` over ``connections`` keep-alive connections (from
    ``threads`` wrk threads); bounded in time, loopback only. With
    ``headers``, the requests carry each of its header sets in turn."""
    assert url.startswith("http://127.0.0.1:"), "load only goes to loopback"
    if shutil.which("wrk"):
        return _wrk(url + path, body, seconds, connections, threads, headers)
    return _python(url, path, body, seconds, connections, headers)


def _lua(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _wrk(
    target: str,
    body: bytes | None,
    seconds: float,
    connections: int,
    threads: int,
    headers: Sequence[Mapping[str, str]],
) -> Load:
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp, "body.json")
        request = ""
        if body is not None:
            body_file.write_bytes(body)
            request = _WRK_POST.format(body=body_file)
        if headers:
            sets = ", ".join(
                "{" + ", ".join(f"[{_lua(name)}] = {_lua(value)}" for name, value in extra.items()) + "}"
                for extra in headers
            )
            request += _WRK_ROTATION.format(rotation=sets)
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


def _python(
    url: str,
    path: str,
    body: bytes | None,
    seconds: float,
    connections: int,
    headers: Sequence[Mapping[str, str]],
) -> Load:
    port = int(url.rsplit(":", 1)[1])
    deadline = time.monotonic() + seconds
    counts = [0] * connections
    errors = [0] * connections

    def worker(index: int) -> None:
        while time.monotonic() < deadline:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            extra = dict(headers[counts[index] % len(headers)]) if headers else {}
            try:
                if body is None:
                    connection.request("GET", path, headers=extra)
                else:
                    extra["Content-Type"] = "application/json"
                    connection.request("POST", path, body=body, headers=extra)
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
