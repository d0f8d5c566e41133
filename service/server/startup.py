"""What stops gunicorn before it serves, said in one line.

A bad variable, an unreadable key file, a port another process holds: the
master stops before any worker starts, with exit status 1 and one line on
stderr that names the variable and its value, and leaves nothing behind.
gunicorn.conf.py calls these in order:

* :func:`read_settings`, when gunicorn reads the file: every variable
  parsed (service/server/config.py), a key file read;
* :func:`check_build`, first thing in the master's ``on_starting``: the
  engine's critical files hashed and compared with the digest the build
  records (service/provenance/build.py);
* :func:`check_api_port` and :func:`claim_metrics_port`, next in the
  master's ``on_starting``, before gunicorn binds the API's port and before
  the temporary metrics directory is made. The metrics port is bound here
  and kept (its server starts once gunicorn is ready); the API's port is
  only tried, gunicorn binds it right after.

What the master makes at start and removes at exit (the metrics directory
of ``make run``) is kept here, in an imported module, not in
gunicorn.conf.py: gunicorn reads that file again on a reload (SIGHUP), and
its module state with it, so only a module that stays imported remembers to
remove the directory when gunicorn stops.

Its logs stay JSON lines on stdout (service/server/logs.py); the one line
on stderr is for the person or the orchestrator that started it. What can
still fail later (a worker that cannot boot) is gunicorn's to report.
"""

from __future__ import annotations

import atexit
import errno
import os
import shutil
import socket
import tempfile
from collections.abc import Mapping
from typing import NoReturn

from ..provenance.build import NotTheBuild, check
from .config import ServerSettings, from_environment, server_settings
from .exposition import OperatorServer, operator_server

#: The directories this process made for itself, removed by :func:`remove_what_was_made`.
MADE: list[str] = []
#: What every refusal starts with, so that it reads apart from whatever else is on stderr.
PREFIX = "baccarat: cannot start: "


def refuse(reason: object) -> NoReturn:
    """Stop gunicorn's master here: ``reason`` as the one line on stderr, exit status 1."""
    raise SystemExit(f"{PREFIX}{reason}")


def read_settings(environ: Mapping[str, str]) -> ServerSettings:
    """gunicorn's settings, once every variable, the application's included,
    has been read from ``environ``; the first bad one refuses to start."""
    try:
        settings = server_settings(environ)
        from_environment(environ)
    except ValueError as error:
        refuse(error)
    return settings


def check_build() -> None:
    """Refuse to start when the engine's files differ from those the build
    claims (once per process: the workers inherit the master's result)."""
    try:
        check()
    except NotTheBuild as error:
        refuse(error)


def stated(environ: Mapping[str, str], variable: str, value: object) -> str:
    """``PORT='8000'``, or ``PORT=8000 (unset: the default)``."""
    if variable in environ:
        return f"{variable}={environ[variable]!r}"
    return f"{variable}={value} (unset: the default)"


def why(error: OSError, host: str, port: int) -> tuple[str, str]:
    """Which variable an error binding ``host:port`` is about, and what to say of it."""
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if isinstance(error, socket.gaierror):
        return "HOST", f"is not an address or a name this machine can resolve ({error.strerror})"
    if error.errno == errno.EADDRNOTAVAIL:
        return "HOST", "is not an address of this machine"
    if error.errno == errno.EADDRINUSE:
        return "", f"{address} is already in use by another process"
    if error.errno == errno.EACCES:
        return "", f"binding {address} needs a privilege this user does not have"
    return "", f"cannot bind {address} ({error.strerror or error})"


def refuse_bind(environ: Mapping[str, str], variable: str, port: int, host: str, error: OSError) -> NoReturn:
    """One line about ``error``, naming HOST or the port's ``variable`` as the cause."""
    about, reason = why(error, host, port)
    if about == "HOST":
        refuse(f"{stated(environ, 'HOST', host)} {reason}")
    refuse(f"{stated(environ, variable, port)}: {reason}")


def check_api_port(settings: ServerSettings, environ: Mapping[str, str]) -> None:
    """Try to bind the API's address as gunicorn is about to (with
    ``SO_REUSEADDR``), and let it go; refuse if it cannot be bound."""
    host, port = settings.host, settings.port
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, protocol) as trial:
            trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            trial.bind(address)
    except OSError as error:
        refuse_bind(environ, "PORT", port, host, error)


def claim_metrics_port(settings: ServerSettings, environ: Mapping[str, str]) -> OperatorServer:
    """The master's own server, bound to ``METRICS_PORT`` (not yet serving)."""
    host, port = settings.metrics_host, settings.metrics_port
    try:
        return operator_server(host, port)
    except OSError as error:
        refuse_bind(environ, "METRICS_PORT", port, host, error)


def temporary_metrics_dir() -> str:
    """A new directory for the workers' metrics, removed when this process
    exits, however it exits (gunicorn's ``on_exit`` runs only after a start
    that went through; an exit from a failed start runs the ``atexit``
    handler), but not when a worker forked from it does."""
    path = tempfile.mkdtemp(prefix="baccarat-metrics-")
    if not MADE:
        atexit.register(remove_what_was_made, owner=os.getpid())
    MADE.append(path)
    return path


def remove_what_was_made(owner: int | None = None) -> None:
    """Remove every directory :func:`temporary_metrics_dir` made in this
    process; nothing in another (``owner``, when given, is the process that
    made them, and a forked worker inherits the list)."""
    if owner is not None and owner != os.getpid():
        return
    while MADE:
        shutil.rmtree(MADE.pop(), ignore_errors=True)
