"""Prometheus metrics, served on ``GET /metrics``, correct under several workers.

What is counted:

* ``baccarat_http_requests_total`` and ``baccarat_http_request_duration_seconds``
  by ``endpoint`` (the route template such as ``/v1/rounds``, never the raw
  path, so a scan of random URLs cannot blow up the series: anything
  unrouted is ``unmatched``), ``method`` and ``status``;
* ``baccarat_rounds_total`` by ``outcome``;
* ``baccarat_bets_settled_total`` by ``bet_type`` and ``result``;
* ``baccarat_staked_minor_units_total`` and ``baccarat_returned_minor_units_total``
  by ``bet_type`` and ``minor_unit``: amounts as whole numbers of minor
  units (cents when ``minor_unit`` is 2), exact, never a float of money.

Under gunicorn each worker is its own process with its own counters, and a
scrape reaches one of them. With ``PROMETHEUS_MULTIPROC_DIR`` set (config
``METRICS_DIR``) prometheus_client writes every worker's values to files in
that directory and a scrape adds them all up, whichever worker answers;
gunicorn.conf.py empties the directory when gunicorn starts (stale files
would resurrect old counts) and marks dead workers. Without it (tests, the
Flask dev server) each app has its own registry in the one process.

Counts are tallied in the worker's memory and written out in one go
(:meth:`Metrics.flush`): at least every :data:`FLUSH_SECONDS` by a
background thread, before the worker's own scrape, and when the worker
exits (gunicorn.conf.py's ``worker_exit``). Writing each increment through
to the shared files cost a tenth of a round (docs/performance.md). So a
scrape answered by another worker may miss the last second of counts, and
a worker killed outright (SIGKILL, out of memory) loses at most its last
second; nothing else is ever lost or counted twice. Latencies are tallied
the same way, by histogram bucket.
"""

from __future__ import annotations

import glob
import math
import os
import threading
import time
import weakref
from bisect import bisect_left
from collections import Counter as Tally
from collections import defaultdict
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from flask import Flask, Response, current_app, request
from prometheus_client import CollectorRegistry, Counter, Histogram, values
from prometheus_client.exposition import choose_encoder
from prometheus_client.multiprocess import MultiProcessCollector
from werkzeug.exceptions import HTTPException

from ..baccarat.paytable import Result
from ..baccarat.play import PlayedRound
from ..baccarat.settlement import SettledSlip
from ..baccarat.tables import BetType
from .views import Blueprint

EXTENSION = "baccarat.metrics"
UNMATCHED = "unmatched"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: Seconds. One round takes about a millisecond; a full table of slips, seconds.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
#: The histogram's bucket bounds, +Inf included, as prometheus_client keeps them.
BUCKET_BOUNDS = (*LATENCY_BUCKETS, math.inf)
#: Distinct (bet type, result, stake, return) whose counts are remembered.
TERMS_REMEMBERED = 4096
#: Longest a worker's counts wait in memory before they reach the shared files.
FLUSH_SECONDS = 1.0

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

blp = Blueprint("metrics", __name__, description="Prometheus metrics")


class Metrics:
    """The service's metrics, registered in ``registry`` (None in multiprocess
    mode, where values go to files and a scrape reads those).

    Counter increments and latencies wait in memory until :meth:`flush`;
    with ``flush_every`` (seconds) a daemon thread in each process flushes
    them that often."""

    def __init__(self, registry: CollectorRegistry | None, flush_every: float | None = None) -> None:
        self.registry = registry
        self._pending: Tally[Any] = Tally()  # counter child -> amount not yet written
        self._observed: Tally[tuple[Any, int]] = Tally()  # (histogram child, bucket) -> observations
        self._seconds: defaultdict[Any, float] = defaultdict(float)  # histogram child -> their sum
        self._lock = threading.Lock()
        self._flush_every = flush_every
        self._flusher_pid: int | None = None
        _ALL.add(self)
        self._children: dict[tuple[int, tuple[str, ...]], Any] = {}
        self._http: dict[tuple[str, str, str], tuple[Any, Any]] = {}
        self._bets: dict[tuple[str, str, int], tuple[Any, Any, Any]] = {}
        self._terms: dict[tuple[BetType, Result, Decimal, Decimal, int], tuple[Any, ...]] = {}
        http = ["endpoint", "method", "status"]
        self.requests = Counter("baccarat_http_requests", "HTTP requests answered", http, registry=registry)
        self.latency = Histogram(
            "baccarat_http_request_duration_seconds",
            "Time from receiving a request to the end of its answer",
            http,
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.rounds = Counter("baccarat_rounds", "Rounds dealt", ["outcome"], registry=registry)
        self.bets = Counter(
            "baccarat_bets_settled", "Bets settled", ["bet_type", "result"], registry=registry
        )
        amounts = ["bet_type", "minor_unit"]
        self.staked = Counter(
            "baccarat_staked_minor_units",
            "Amount staked on settled bets, in minor units",
            amounts,
            registry=registry,
        )
        self.returned = Counter(
            "baccarat_returned_minor_units",
            "Amount returned to players on settled bets, in minor units",
            amounts,
            registry=registry,
        )

    def child(self, metric: Any, *labels: str) -> Any:
        """``metric.labels(*labels)``, remembered: the label sets are few and
        looking them up is a measurable share of a request."""
        key = (id(metric), labels)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = metric.labels(*labels)
        return found

    def count_request(self, endpoint: str, method: str, status: str, seconds: float) -> None:
        """One answered request (``status`` as its three digits)."""
        if method not in METHODS:
            method = "other"
        key = (endpoint, method, status)
        found = self._http.get(key)
        if found is None:
            found = self._http[key] = (self.requests.labels(*key), self.latency.labels(*key))
        bucket = bisect_left(BUCKET_BOUNDS, seconds)  # the first bound >= seconds, as observe() finds it
        with self._lock:
            self._pending[found[0]] += 1
            self._observed[found[1], bucket] += 1
            self._seconds[found[1]] += seconds
        if self._flush_every is not None and self._flusher_pid != _cached_pid():
            self._start_flusher()

    def flush(self) -> None:
        """Write the counts and latencies tallied so far to the metrics."""
        with self._lock:
            pending, observed, seconds = self._pending, self._observed, self._seconds
            self._pending, self._observed, self._seconds = Tally(), Tally(), defaultdict(float)
        for child, amount in pending.items():
            child.inc(amount)
        # prometheus_client has no call that adds many observations at once:
        # they are added to the histogram's own bucket and sum values, which
        # is what observe() does one at a time (tests/web/test_metrics.py
        # checks that both give the same exposition).
        for (histogram, bucket), count in observed.items():
            histogram._buckets[bucket].inc(count)
        for histogram, total in seconds.items():
            histogram._sum.inc(total)

    def _start_flusher(self) -> None:
        """Start this process's flushing thread (again after a fork: threads
        do not survive one)."""
        self._flusher_pid = _cached_pid()
        threading.Thread(
            target=_flush_periodically, args=(weakref.ref(self), self._flush_every), daemon=True
        ).start()

    def count_round(self, played: PlayedRound) -> None:
        """One round dealt and every bet settled on it."""
        unit = played.rules.minor_unit
        outcome = self.child(self.rounds, played.coup.outcome.value)
        with self._lock:
            pending = self._pending
            pending[outcome] += 1
            if played.settlement is not None:
                self._count_slip(pending, played.settlement, unit)
            elif played.slips:
                self._count_slips(pending, played.slips, unit)

    def _bet_children(self, bet_type: str, result: str, unit: int) -> tuple[Any, Any, Any]:
        """The bets, staked and returned counters for one bet type and result."""
        key = (bet_type, result, unit)
        found = self._bets.get(key)
        if found is None:
            found = self._bets[key] = (
                self.bets.labels(bet_type, result),
                self.staked.labels(bet_type, str(unit)),
                self.returned.labels(bet_type, str(unit)),
            )
        return found

    def _count_slip(self, pending: Tally[Any], slip: SettledSlip, unit: int) -> None:
        """One slip's bets, counted one by one (a slip holds a few bets)."""
        terms = self._terms
        for settled in slip.bets:
            key = (settled.bet.type, settled.result, settled.amount, settled.returned, unit)
            found = terms.get(key)
            if found is None:
                found = self._counted_terms(key)
            bets, staked, staked_units, returned, returned_units = found
            pending[bets] += 1
            pending[staked] += staked_units
            if returned_units:
                pending[returned] += returned_units

    def _counted_terms(self, key: tuple[BetType, Result, Decimal, Decimal, int]) -> tuple[Any, ...]:
        """What one settled bet adds, by counter: tables repeat the same few
        (type, result, stake, return), so this is remembered."""
        kind, result, amount, paid, unit = key
        bets, staked, returned = self._bet_children(kind.value, result.value, unit)
        found = (bets, staked, int(amount.scaleb(unit)), returned, int(paid.scaleb(unit)))
        if len(self._terms) >= TERMS_REMEMBERED:
            self._terms.clear()
        self._terms[key] = found
        return found

    def _count_slips(self, pending: Tally[Any], slips: Iterable[SettledSlip], unit: int) -> None:
        """A table of slips: tallied first, in C (Counter over tuples). It can
        hold a million bets, but only a few distinct (type, result, stake, return)."""
        tally = Tally((b.bet.type, b.result, b.amount, b.returned) for slip in slips for b in slip.bets)
        for (kind, result, amount, paid), count in tally.items():
            bets, staked, returned = self._bet_children(kind.value, result.value, unit)
            pending[bets] += count
            pending[staked] += int(amount.scaleb(unit)) * count
            if paid:
                pending[returned] += int(paid.scaleb(unit)) * count


#: Every Metrics of this process, for :func:`flush_all`.
_ALL: weakref.WeakSet[Metrics] = weakref.WeakSet()


def _flush_periodically(metrics: weakref.ref[Metrics], seconds: float) -> None:
    """The flushing thread's loop, until its app is gone."""
    while True:
        time.sleep(seconds)
        found = metrics()
        if found is None:
            return
        found.flush()
        del found


def flush_all() -> None:
    """Flush every app's counts in this process (a worker about to exit)."""
    for metrics in list(_ALL):
        metrics.flush()


def multiprocess_registry(directory: str) -> CollectorRegistry:
    """A registry holding the sum of every worker's files in ``directory``."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    return registry


class RequestMetrics:
    """WSGI middleware: count and time every answer, including answers given
    before Flask routes the request (413s).

    The count is taken when the application hands its answer to the server,
    before a byte is sent (the latency so excludes the time spent sending).
    """

    def __init__(self, app: WSGIApp, metrics: Metrics, endpoint_of: Callable[[dict[str, Any]], str]) -> None:
        self.app = app
        self.metrics = metrics
        self.endpoint_of = endpoint_of

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        status: list[str] = []

        def start_and_note(code: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            status.append(code[:3])
            return start_response(code, headers, *exc_info)

        try:
            return self.app(environ, start_and_note)
        finally:
            self.metrics.count_request(
                self.endpoint_of(environ),
                environ.get("REQUEST_METHOD", ""),
                status[-1] if status else "500",
                time.perf_counter() - started,
            )


#: Paths whose route template is remembered; past this many (a scan of random
#: URLs), further paths are routed each time instead.
ROUTES_REMEMBERED = 512


def _endpoint_resolver(app: Flask) -> Callable[[dict[str, Any]], str]:
    """The route template of a request, from its path and method, as Flask
    routes it (``unmatched`` when it matches no route). Routing costs more
    than a dictionary lookup, and a service sees the same few paths, so
    each path's template is remembered."""
    remembered: dict[tuple[str, str, str], str] = {}

    def endpoint_of(environ: dict[str, Any]) -> str:
        key = (
            environ.get("SCRIPT_NAME", ""),
            environ.get("PATH_INFO", ""),
            environ.get("REQUEST_METHOD", ""),
        )
        endpoint = remembered.get(key)
        if endpoint is None:
            try:
                rule, _ = app.url_map.bind_to_environ(environ).match(return_rule=True)
                endpoint = str(rule.rule)
            except HTTPException:
                endpoint = UNMATCHED
            if len(remembered) < ROUTES_REMEMBERED:
                remembered[key] = endpoint
        return endpoint

    return endpoint_of


_pid: int | None = None


def _cached_pid() -> int:
    """``os.getpid()``, remembered until the next fork."""
    global _pid
    if _pid is None:
        _pid = os.getpid()
    return _pid


def _forget_pid() -> None:
    global _pid
    _pid = None


def _use_cached_pid(directory: str) -> None:
    """prometheus_client asks for the pid on every increment, to notice a
    fork; that is a system call, and a dozen per request were a measurable
    share of a round's cost. Give it a pid remembered until the next fork.

    Done only before this process has written any value (its files do not
    exist yet): two value classes writing one file would corrupt it.
    """
    if getattr(values.ValueClass, "cached_pid", False):
        return
    if glob.glob(os.path.join(directory, f"*_{os.getpid()}.db")):
        return
    os.register_at_fork(after_in_child=_forget_pid)
    values.ValueClass = values.MultiProcessValue(process_identifier=_cached_pid)  # type: ignore[no-untyped-call]
    values.ValueClass.cached_pid = True


def init_app(app: Flask) -> None:
    """Create the app's metrics and count its requests. Call it after the
    other WSGI middleware is in place, so that this one sees every answer."""
    directory = app.config.get("METRICS_DIR")
    if directory:
        if values.ValueClass is values.MutexValue:
            raise RuntimeError(
                "METRICS_DIR is set but prometheus_client was imported without "
                "PROMETHEUS_MULTIPROC_DIR: the workers' metrics would not be shared"
            )
        os.makedirs(directory, exist_ok=True)
        _use_cached_pid(directory)
        registry = None
    else:
        registry = CollectorRegistry()
    # In one process a scrape flushes first, so no thread is needed.
    app.extensions[EXTENSION] = Metrics(registry, FLUSH_SECONDS if registry is None else None)
    app.wsgi_app = RequestMetrics(  # type: ignore[method-assign]
        app.wsgi_app, app.extensions[EXTENSION], _endpoint_resolver(app)
    )


def count_round(played: PlayedRound) -> PlayedRound:
    """Count a round dealt for the current request (and its bets); return it."""
    current_app.extensions[EXTENSION].count_round(played)
    return played


@blp.get("/metrics")
@blp.doc(security=[])
@blp.response(200, description="Prometheus text exposition format", content_type="text/plain")
def metrics() -> Response:
    """Prometheus metrics: requests, latency, rounds, bets and amounts, summed over all workers."""
    extension: Metrics = current_app.extensions[EXTENSION]
    extension.flush()  # this worker's counts are exact; others' at most FLUSH_SECONDS late
    registry = extension.registry
    if registry is None:
        registry = multiprocess_registry(current_app.config["METRICS_DIR"])
    encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
    return Response(encoder(registry), content_type=content_type)
