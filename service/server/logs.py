"""JSON logs, one object per line on stdout, with the request id on every line.

Every record -- the service's own, Flask's, and gunicorn's error and access
logs -- goes through one handler whose formatter is python-json-logger's
and whose filter adds ``request_id`` (None outside a request, e.g. gunicorn
starting a worker) and ``trace_id``, the request's W3C trace id when traces
are on (:mod:`.tracing`; None otherwise), which ties a log line to the
request's spans. gunicorn installs it from ``gunicorn.conf.py``
(``logconfig_dict = logging_config(...)``, ``logger_class = AccessLogger``).

An access line looks like::

    {"level":"INFO","logger":"gunicorn.access","message":"POST /v1/rounds 200","process":12,
     "request_id":"3f2a...","trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","method":"POST",
     "path":"/v1/rounds","query":[],"status":200,"bytes":1834,"duration_ms":2.41,
     "remote_addr":"10.0.3.7","user_agent":"curl/8.5.0","time":"2026-01-05T10:00:00.123+00:00"}

(one line in the log)

This module imports no Flask and no tracing SDK, only OpenTelemetry's API:
gunicorn's master loads it.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from gunicorn import glogging
from opentelemetry import trace
from pythonjsonlogger.orjson import OrjsonFormatter

from .middleware import ENVIRON_KEY, current_request_id

FIELDS = "%(levelname)s %(name)s %(message)s %(process)d"
RENAMED = {"levelname": "level", "name": "logger"}
#: Where a traced request's trace id is kept in the WSGI environ, for its
#: access line, which gunicorn writes once the request's span has ended.
TRACE_ID_KEY = "baccarat.trace_id"


class RequestIdFilter(logging.Filter):
    """Give every record a ``request_id`` and a ``trace_id``: the current
    request's, or None."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id()
        if not hasattr(record, "trace_id"):
            record.trace_id = current_trace_id()
        return True


def current_trace_id() -> str | None:
    """The trace id of the span current here (32 hex digits), or None
    outside a traced request."""
    context = trace.get_current_span().get_span_context()
    return trace.format_trace_id(context.trace_id) if context.is_valid else None


def json_formatter() -> OrjsonFormatter:
    """The one log format: a JSON object with time, level, logger, message,
    process, request_id, trace_id and any ``extra`` fields. python-json-logger's
    orjson formatter writes it (compact, 6 µs an access line against 11 for
    its standard-library one: docs/performance.md); an ``extra`` value orjson
    does not know is written as its ``str``."""
    return OrjsonFormatter(FIELDS, rename_fields=RENAMED, timestamp="time")


def logging_config(level: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` mapping sending everything, as JSON,
    to stdout at ``level`` and above (gunicorn's ``logconfig_dict``)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"json": {"()": json_formatter}},
        "handlers": {
            "stdout": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stdout",
                "formatter": "json",
                "filters": ["request_id"],
            }
        },
        "root": {"level": level.upper(), "handlers": ["stdout"]},
        "loggers": {
            # No handlers of their own: they propagate to the root's.
            "gunicorn.error": {"level": level.upper(), "handlers": [], "propagate": True},
            "gunicorn.access": {"level": "INFO", "handlers": [], "propagate": True},
        },
    }


def query_names(query: str) -> list[str]:
    """The parameter names of a query string, without their values.

    >>> query_names("api_key=s3cret&debug")
    ['api_key', 'debug']
    """
    return [part.partition("=")[0][:64] for part in query.split("&")[:16] if part]


class AccessLogger(glogging.Logger):
    """gunicorn's logger, writing each access line as structured fields
    instead of an Apache-style string."""

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: timedelta) -> None:
        """One line per request, after the response is sent."""
        if not self.access_log_enabled:
            return
        status = getattr(resp, "status_code", None)
        fields = {
            "request_id": environ.get(ENVIRON_KEY),
            "trace_id": environ.get(TRACE_ID_KEY),
            "method": environ.get("REQUEST_METHOD"),
            "path": environ.get("PATH_INFO"),
            # The API reads no query string; one may carry a secret sent by
            # mistake (?api_key=...), so only its names are logged.
            "query": query_names(environ.get("QUERY_STRING", "")),
            "status": status,
            "bytes": getattr(resp, "sent", None),
            "duration_ms": round(request_time.total_seconds() * 1000, 3),
            "remote_addr": environ.get("REMOTE_ADDR"),
            "user_agent": environ.get("HTTP_USER_AGENT"),
        }
        self.access_log.info("%s %s %s", fields["method"], fields["path"], status, extra=fields)
