"""gunicorn settings for a CPU-bound JSON API.

The environment variables are read in service/config.py (listed in the
README's "Configuration"); this file only turns them into gunicorn settings.
Nothing here creates per-process state before fork: the app, and with it
every RNG and metric, is built in each worker (``preload_app = False``).
Measurements behind the choices are in docs/performance.md ("Serving").
"""

import glob
import os
import shutil
import tempfile

from service.config import server_settings
from service.web.logs import logging_config

settings = server_settings(os.environ)

bind = settings.bind
workers = settings.workers
# sync: one request at a time per worker, and a worker accepts a connection
# only when it is free, so the work spreads evenly over the workers. With
# gthread and keep-alive, one worker can end up holding every connection
# while the other idles (half the throughput of this CPU-bound app), and a
# crashed worker drops every connection it held. Figures in
# docs/performance.md ("Serving"). No keep-alive: each request is a new
# connection, which the same measurement shows costs less than that.
worker_class = "sync"
# A request that takes 30 s is stuck (a full table of 20,000 slips takes
# well under 5 s): the master kills and replaces its worker.
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
# Logs: JSON lines on stdout, request id on each (service/web/logs.py).
loglevel = settings.log_level
logger_class = "service.web.logs.AccessLogger"
logconfig_dict = logging_config(settings.log_level)
accesslog = "-"
errorlog = "-"


# Where the workers write their metrics: PROMETHEUS_MULTIPROC_DIR, or when it
# is unset (`make run`) a temporary directory made at start and removed at exit,
# so that /metrics is right with any number of workers.
metrics_dir = settings.metrics_dir
temporary_metrics_dir = None


def on_starting(server):
    """Before any worker starts: empty the metrics directory. Files left by an
    earlier run would otherwise be added into this run's counts."""
    global metrics_dir, temporary_metrics_dir
    if metrics_dir is None:
        metrics_dir = temporary_metrics_dir = tempfile.mkdtemp(prefix="baccarat-metrics-")
        # The workers are forked after this hook and inherit the variable.
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    os.makedirs(metrics_dir, exist_ok=True)
    # Only prometheus_client's own files, never a directory's other contents.
    for path in glob.glob(os.path.join(metrics_dir, "*.db")):
        os.remove(path)
    server.log.info("metrics directory %s emptied", metrics_dir)


def child_exit(server, worker):
    """A worker died (or was replaced): tell prometheus_client, which drops
    its live gauges and keeps its counters (the requests it served stay counted)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid, metrics_dir)


def worker_exit(server, worker):
    """In the worker, as it exits (stopped, replaced or timed out): write the
    counts it has tallied but not yet written to the metrics files."""
    from service.web.metrics import flush_all

    flush_all()


def on_exit(server):
    """gunicorn stops: remove the metrics directory if it made it."""
    if temporary_metrics_dir is not None:
        shutil.rmtree(temporary_metrics_dir, ignore_errors=True)


def post_worker_init(worker):
    """The worker has loaded the app: freeze what it allocated and collect
    garbage less often. A request allocates thousands of short-lived
    containers that reference counting frees; with the default thresholds
    the cyclic collector kept rescanning the app's long-lived objects on
    their account, about a fifth of a 10,000-slip settlement's time
    (docs/performance.md, "Rounds and settlement")."""
    import gc

    gc.collect()
    gc.freeze()  # the app's objects move to a generation that is never scanned
    gc.set_threshold(GC_THRESHOLD, 20, 20)


# Allocations (net of frees) between young-generation collections; the
# default is 700.
GC_THRESHOLD = 50_000
