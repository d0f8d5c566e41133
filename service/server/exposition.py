"""The master's own port: every gunicorn worker's metrics, summed, and liveness.

The metrics are operator data (request rates, rounds and bets by result),
so they are not on the API's port: gunicorn's master serves them on
``METRICS_PORT``, which k8s/networkpolicy.yaml opens to Prometheus (and the
kubelet, whose probes come from the node). The master's server reads the
files each worker writes in the multiprocess directory (prometheus_client's
multiprocess mode, as its documentation describes it for gunicorn), so a
scrape never waits for a busy worker.

The same port answers ``GET /livez`` for the kubelet's liveness probe. A
worker answers its connections in turn, so a probe sent to the API's port
waits for the requests ahead of it, up to a second or more while a pod
settles several of the largest slips at once; a liveness probe must never
fail because the service is busy, or the kubelet restarts a pod that was
working. The master does no request work: it answers at once while it
runs, and it is the master that replaces a worker that stops answering
(gunicorn's ``timeout``). Readiness stays on the API's port, answered by
the workers themselves (docs/performance.md, "Probes").
"""

from __future__ import annotations

import socket
import socketserver
import threading
from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer

from ..contract.jsonio import dumps
from ..contract.problems import PROBLEM_JSON, problem_document

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

LIVE = dumps({"status": "ok"})


class OperatorServer(socketserver.ThreadingMixIn, WSGIServer):
    """One thread per request, none of them keeping the master from exiting."""

    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    """No line on stderr per request: the probes and scrapes come every few seconds."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


def operator_app(metrics: WSGIApp) -> WSGIApp:
    """``GET /metrics`` from ``metrics``, ``GET /livez``, and a 404 problem for anything else."""

    def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "/")
        if path == "/metrics":
            return metrics(environ, start_response)
        if path == "/livez":
            headers = [("Content-Type", "application/json"), ("Content-Length", str(len(LIVE)))]
            start_response("200 OK", headers)
            return [LIVE]
        body = dumps(problem_document(404, "Not Found", "This port serves /metrics and /livez only"))
        start_response("404 Not Found", [("Content-Type", PROBLEM_JSON), ("Content-Length", str(len(body)))])
        return [body]

    return app


def operator_server(host: str, port: int) -> OperatorServer:
    """The master's server, bound to ``host:port`` but not serving yet: a
    port in use stops gunicorn before anything is made (service/server/startup.py)."""

    class Server(OperatorServer):
        # The API's address may be IPv6 ("::"), which an AF_INET server cannot bind.
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

    return Server((host, port), QuietHandler)


def serve_operator_port(server: OperatorServer, directory: str) -> OperatorServer:
    """Serve the sum of the workers' metrics in ``directory`` and liveness
    from ``server``, from a daemon thread of this process."""
    # Imported here, not with this module: prometheus_client reads
    # PROMETHEUS_MULTIPROC_DIR when it is imported, and gunicorn.conf.py
    # binds the port before it sets that variable for the workers.
    from prometheus_client import CollectorRegistry, make_wsgi_app, multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    server.set_app(operator_app(make_wsgi_app(registry)))
    threading.Thread(target=server.serve_forever, name="operator-port", daemon=True).start()
    return server


def worker_gone(pid: int, directory: str) -> None:
    """A worker exited: its live gauges go, its counters stay counted."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]
