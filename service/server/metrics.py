"""Prometheus metrics: what the service counts, recorded with prometheus_client.

* ``baccarat_http_request_duration_seconds`` by ``endpoint`` (the route
  template such as ``/v1/rounds``, never the raw path, so a scan of random
  URLs cannot multiply the series: anything unrouted is ``unmatched``),
  ``method`` and ``status``; its ``_count`` is the number of requests
  answered, so no separate counter is kept;
* ``baccarat_rounds_total`` by ``outcome``: rounds played for a caller,
  once per request (docs/audit.md, "What the metrics count"): never a
  replay, a problem, a live round in progress or a shoe's rounds;
* ``baccarat_bets_settled_total`` by ``bet_type`` and ``result``: the bets
  settled on those rounds. Amounts are not metered (a counter is a float).
* ``baccarat_table_rounds_total`` by ``table``: the same rounds, by the
  table they were played at: a label bounded by the deployment's catalogue
  (every table's series made when the app is built), never by API key or
  operator, which a scrape must not reveal.

Every outcome, bet type and result is known when the app is built, so
their series are made then (reading 0 until counted, as Prometheus
recommends) and a round counts through them without looking labels up.

Under gunicorn each worker is its own process; prometheus_client's
multiprocess mode (``PROMETHEUS_MULTIPROC_DIR``) has each write its values
to files in that directory, and the master serves their sum on its own
port (:mod:`.exposition`). Without it (tests, a development server) the
values stay in this process's ``registry``.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterable, Sequence

from prometheus_client import CollectorRegistry, Counter, Histogram

from ..baccarat.bets.paytable import Result
from ..baccarat.bets.types import BetType
from ..baccarat.multipliers.settlement import MultipliedSlip
from ..baccarat.play.round import PlayedRound
from ..baccarat.rulebook.coup import Outcome
from ..baccarat.tables.settlement import SettledSlip

UNMATCHED = "unmatched"
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
#: Seconds. A round takes about a millisecond; a full table of slips, a fraction of a second.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)


class Metrics:
    """The service's metrics, registered in their own ``registry``; ``tables``
    the names of the deployment's tables."""

    def __init__(self, tables: Iterable[str] = ()) -> None:
        self.registry = registry = CollectorRegistry()
        self.latency = Histogram(
            "baccarat_http_request_duration_seconds",
            "Time from receiving a request to its answer being ready",
            ["endpoint", "method", "status"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        rounds = Counter(
            "baccarat_rounds",
            "Rounds played for a caller (rounds, complete live rounds, settlements), once per request; "
            "never a replay, a problem, a round in progress or a shoe's rounds",
            ["outcome"],
            registry=registry,
        )
        bets = Counter(
            "baccarat_bets_settled",
            "Bets settled on the rounds counted in baccarat_rounds_total (amounts are not metered)",
            ["bet_type", "result"],
            registry=registry,
        )
        at_table = Counter(
            "baccarat_table_rounds",
            "The rounds counted in baccarat_rounds_total, by the deployment's table they were played at",
            ["table"],
            registry=registry,
        )
        self.rounds = {outcome: rounds.labels(outcome.value) for outcome in Outcome}
        self.at_table = {table: at_table.labels(table) for table in tables}
        self.bets = {
            (bet_type, result): bets.labels(bet_type.value, result.value)
            for bet_type in BetType
            for result in Result
        }

    def observe_request(self, endpoint: str, method: str, status: str, seconds: float) -> None:
        """One answered request (``status`` as its three digits)."""
        self.latency.labels(endpoint, method if method in METHODS else "other", status).observe(seconds)

    def count_round(self, played: PlayedRound, table: str | None = None) -> None:
        """One round answered at ``table``, and every bet settled on it (a
        table's bets are tallied first: they hold few distinct types and results)."""
        self.rounds[played.coup.outcome].inc()
        if table in self.at_table:
            self.at_table[table].inc()
        slips: Sequence[SettledSlip | MultipliedSlip] = (
            (played.settlement,) if played.settlement is not None else played.slips
        )
        if played.rules.multipliers is not None:
            slips = (played.multiplied,) if played.multiplied is not None else played.multiplied_slips
        tally = Tally((bet.bet.type, bet.terms.result) for slip in slips for bet in slip.bets)
        for kind, count in tally.items():
            self.bets[kind].inc(count)
