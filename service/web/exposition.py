"""Serving the metrics: every gunicorn worker's values, summed, on their own port.

The metrics are operator data (request rates, rounds and bets by result),
so they are not on the API's port: gunicorn's master serves them with
prometheus_client's own HTTP server (``start_http_server``) on
``METRICS_PORT``, which k8s/networkpolicy.yaml opens to Prometheus alone.
The master's server reads the files each worker writes in the multiprocess
directory (prometheus_client's multiprocess mode, as its documentation
describes it for gunicorn), so a scrape never waits for a busy worker.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, multiprocess, start_http_server


def serve_metrics(host: str, port: int, directory: str) -> None:
    """Serve the sum of the workers' metrics in ``directory`` on ``host:port``
    (``GET /metrics``), from a thread of this process."""
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    start_http_server(port, addr=host, registry=registry)


def worker_gone(pid: int, directory: str) -> None:
    """A worker exited: its live gauges go, its counters stay counted."""
    multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]
