"""gunicorn settings for a CPU-bound JSON API. Every value can be overridden
from the environment; nothing here creates per-process state before fork."""

import os

bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
worker_class = "sync"
# No app (and so no RNG or other state) is built in the master: each worker
# imports and creates its own.
preload_app = False
keepalive = 5
timeout = 30
graceful_timeout = 20
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# gunicorn >= 25.1 opens a control socket under $HOME; a non-root user with
# no home logs errors about it. The service needs no control socket.
control_socket_disable = True
accesslog = "-"
errorlog = "-"
