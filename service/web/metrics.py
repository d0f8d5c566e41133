"""Prometheus metrics: what the service counts, recorded with prometheus_client.

* ``baccarat_http_requests_total`` and ``baccarat_http_request_duration_seconds``
  by ``endpoint`` (the route template such as ``/v1/rounds``, never the raw
  path, so a scan of random URLs cannot multiply the series: anything
  unrouted is ``unmatched``), ``method`` and ``status``;
* ``baccarat_rounds_total`` by ``outcome``: rounds whose answer was made;
* ``baccarat_bets_settled_total`` by ``bet_type`` and ``result``.

Under gunicorn each worker is its own process; prometheus_client's
multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``) has each write its values
to files in that directory, and the master serves their sum on its own
port (:mod:`.exposition`). Without it (tests, a development server) the
values stay in this process's ``registry``.
"""

from __future__ import annotations

from collections import Counter as Tally

from prometheus_client import CollectorRegistry, Counter, Histogram

from ..baccarat.play import PlayedRound

UNMATCHED = "unmatched"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: Seconds. A round takes about a millisecond; a full table of slips, a fraction of a second.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)


class Metrics:
    """The service's metrics, registered in their own ``registry``."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        http = ["endpoint", "method", "status"]
        self.requests = Counter("baccarat_http_requests", "HTTP requests answered", http, registry=registry)
        self.latency = Histogram(
            "baccarat_http_request_duration_seconds",
            "Time from receiving a request to its answer being ready",
            http,
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.rounds = Counter("baccarat_rounds", "Rounds dealt and answered", ["outcome"], registry=registry)
        self.bets = Counter(
            "baccarat_bets_settled", "Bets settled and answered", ["bet_type", "result"], registry=registry
        )

    def observe_request(self, endpoint: str, method: str, status: str, seconds: float) -> None:
        """One answered request (``status`` as its three digits)."""
        labels = (endpoint, method if method in METHODS else "other", status)
        self.requests.labels(*labels).inc()
        self.latency.labels(*labels).observe(seconds)

    def count_round(self, played: PlayedRound) -> None:
        """One round answered, and every bet settled on it (a table's bets
        are tallied first: they hold few distinct types and results)."""
        self.rounds.labels(played.coup.outcome.value).inc()
        slips = (played.settlement,) if played.settlement is not None else played.slips
        tally = Tally((bet.bet.type, bet.terms.result) for slip in slips for bet in slip.bets)
        for (bet_type, result), count in tally.items():
            self.bets.labels(bet_type.value, result.value).inc(count)
