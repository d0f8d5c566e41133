"""gunicorn settings for a CPU-bound JSON API that faces slow and hostile clients.

The environment variables are read in service/server/config.py (listed in the
README's "Configuration"); this file only turns them into gunicorn settings.
Nothing here creates per-process state before fork: the app, and with it
every RNG and metric, is built in each worker (``preload_app = False``).
What every worker needs alike (the app's modules, the multiplier games'
exact returns) is made once in the master before it forks them
(``on_starting``; docs/adr/0013-made-once-before-the-workers-fork.md).
Measurements behind the choices are in docs/performance.md.
"""

import glob
import os

from service.server.config import EPHEMERAL_KEY, ephemeral_pem
from service.server.logs import logging_config
from service.server.startup import (
    check_api_port,
    check_build,
    claim_metrics_port,
    read_settings,
    remove_what_was_made,
    temporary_metrics_dir,
)
from service.server.worker import take_turns

# The application's settings are read again by each worker; reading them
# here first stops a bad value (say, BACCARAT_API_KEYS set but empty) before
# any worker starts, in one line naming the variable, instead of a boot loop.
settings = read_settings(os.environ)

bind = settings.bind
workers = settings.workers
# gevent: a slow or idle connection holds one greenlet, not a worker, so
# slow clients cannot starve the workers or the probes (docs/performance.md,
# "Slow and hostile clients"; docs/adr/0007). The subclass answers gunicorn's
# own errors as problems (docs/adr/0002).
worker_class = "service.server.worker.Worker"
# After each answer the worker lets every other ready connection be served
# before this one's next request: without it, a busy keep-alive connection is
# served again and again while the others wait (docs/adr/0007).
post_request = take_turns
# Connections one worker holds at once, idle ones included.
worker_connections = 1000
# Seconds an idle keep-alive connection stays open between requests.
# Callers keep connection pools, so it stays on.
keepalive = 5
# A request is bounded well under a second by the request limits; a worker
# silent for 30 s is stuck, and the master replaces it.
timeout = 30
# On SIGTERM, workers finish the requests in hand for up to 20 s. Kubernetes
# waits terminationGracePeriodSeconds (30) in total, of which the preStop
# sleep (5) comes first: 5 + 20 < 30 leaves margin before SIGKILL
# (tests/test_deploy.py checks the three numbers against k8s/).
graceful_timeout = 20
preload_app = False
# The heartbeat file lives in memory: a disk-backed /tmp can stall it and
# get healthy workers killed.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# gunicorn >= 25.1 opens a control socket under $HOME; a non-root user with
# no home logs errors about it. The service needs no control socket.
control_socket_disable = True
# No max_requests: every replaced worker leaves its metrics files behind
# (their counts must survive it), so recycling workers would grow the metrics
# directory and slow each scrape. Memory stays flat (docs/performance.md).
max_requests = 0
# Logs: JSON lines on stdout, request id on each (service/server/logs.py).
loglevel = settings.log_level
logger_class = "service.server.logs.AccessLogger"
logconfig_dict = logging_config(settings.log_level)
accesslog = "-"
errorlog = "-"


# Where the workers write their metrics: PROMETHEUS_MULTIPROC_DIR, or when it
# is unset (`make run`) a temporary directory made at start and removed at exit
# (service/server/startup.py remembers it, through a reload of this file).
metrics_dir = settings.metrics_dir
# The master's server of metrics and liveness, bound at start, serving once gunicorn is ready.
operator_port = None


def on_starting(server):
    """Before anything is made: the engine's files checked against the digest
    the build claims, the API's port tried and the metrics port taken, or a
    one-line refusal (service/server/startup.py). Then, before any
    worker starts, empty the metrics directory: files left by an earlier run
    would otherwise be added into this run's counts."""
    global metrics_dir, operator_port
    check_build()
    check_api_port(settings, os.environ)
    operator_port = claim_metrics_port(settings, os.environ)
    if metrics_dir is None:
        metrics_dir = temporary_metrics_dir()
        # The workers are forked after this hook and inherit the variable.
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    os.makedirs(metrics_dir, exist_ok=True)
    # Only prometheus_client's own files, never a directory's other contents.
    for path in glob.glob(os.path.join(metrics_dir, "*.db")):
        os.remove(path)
    server.log.info("metrics directory %s emptied", metrics_dir)
    if "BACCARAT_SIGNING_KEY_FILE" not in os.environ:
        # One ephemeral key for every worker, so that the JWKS any of them
        # serves verifies the answers all of them sign (docs/audit.md).
        os.environ[EPHEMERAL_KEY] = ephemeral_pem()
    # Last, once the workers' environment is set (prometheus_client reads the
    # metrics directory when it is imported): the app's modules and the
    # multiplier games' returns, made once here and inherited by every worker
    # instead of made by each after its fork (docs/performance.md, "Workers").
    from service.app import before_fork

    before_fork()


def when_ready(server):
    """The master listens: serve the workers' summed metrics, and liveness, on its own port."""
    from service.server.exposition import serve_operator_port

    serve_operator_port(operator_port, metrics_dir)
    address = f"http://{settings.metrics_host}:{settings.metrics_port}"
    server.log.info("metrics on %s/metrics, liveness on %s/livez", address, address)


def child_exit(server, worker):
    """A worker died (or was replaced): its counters stay counted."""
    from service.server.exposition import worker_gone

    worker_gone(worker.pid, metrics_dir)


def post_worker_init(worker):
    """The worker has built the app: freeze what it holds. Its objects live
    as long as the worker, and the cyclic collector, which a large request
    (a table's slips) runs many times, then no longer rescans them; garbage
    made later is collected as usual (docs/adr/0004-gc-freeze.md)."""
    import gc

    gc.collect()
    gc.freeze()


def worker_exit(server, worker):
    """A worker stops: with traces on, send the spans it still holds and stop
    its exporter (the tracer provider is the worker's own, built with its app)."""
    services = getattr(getattr(worker, "wsgi", None), "services", None)
    if services is not None and services.tracing is not None:
        services.tracing.shutdown()


def on_exit(server):
    """gunicorn stops: remove the metrics directory if it made it."""
    remove_what_was_made()
