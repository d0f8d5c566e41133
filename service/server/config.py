"""Configuration: every environment variable the service reads, in one place.

:data:`VARIABLES` lists them all with their defaults and meaning (the README's
"Configuration" table says the same; a test checks the two agree). Two
readers use them:

* :func:`from_environment` gives the application's settings (``BACCARAT_*``)
  as Flask config keys; ``create_app`` calls it.
* :func:`server_settings` gives gunicorn's (bind address, workers, log
  level, metrics directory and port); ``gunicorn.conf.py`` calls it.

A bad value fails at start, naming the variable and its value: gunicorn's
master stops with that one line (:mod:`.startup`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..contract.audit import keys
from ..contract.tables_file import NAME as OPERATOR_NAME
from ..contract.tables_file import LoadedCatalogue, TablesFileError, read_tables_file

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
#: Shortest API key accepted: a key is a secret, not a name.
MIN_KEY_LENGTH = 16


@dataclass(frozen=True, slots=True)
class Variable:
    """One environment variable: its name, its default (as documented) and what it sets."""

    name: str
    default: str
    meaning: str


VARIABLES = (
    Variable("HOST", "127.0.0.1", "address gunicorn binds (`0.0.0.0` in the container image)"),
    Variable("PORT", "8000", "port gunicorn listens on"),
    Variable("WEB_CONCURRENCY", "number of CPUs", "gunicorn worker processes"),
    Variable("BACCARAT_LOG_LEVEL", "info", "lowest level logged: debug, info, warning, error or critical"),
    Variable("BACCARAT_MAX_BODY_BYTES", "4194304", "largest request body accepted (413 beyond)"),
    Variable(
        "BACCARAT_API_KEYS",
        "(unset: open)",
        "comma-separated API keys accepted as `Authorization: Bearer <key>`, each of at least "
        f"{MIN_KEY_LENGTH} characters, written `OPERATOR:KEY` for a key that reaches only that "
        "operator's tables (every key must name one when the tables file gives tables to operators); "
        "unset, the API is open and a warning is logged at start; "
        "set but empty (or holding a short key), the service refuses to start",
    ),
    Variable(
        "BACCARAT_TABLES_FILE",
        "(unset: the built-in presets)",
        "JSON file of the deployment's tables, and which operator plays at which "
        "(docs/operations/tables.md), read and checked at start: a bad table, a table returning more "
        "than it costs, an unknown key or currency, and the service refuses to start naming the "
        "table and the field",
    ),
    Variable(
        "BACCARAT_APPROVED_TABLES_ONLY",
        "false",
        "`true`: requests name a table of the catalogue and send nothing that changes it (`rules`, "
        "or a rules sheet's chips, dealing or clause): such a request is refused "
        "(`approved_tables_only`); `false`: any caller may send rules (development, `make run`)",
    ),
    Variable(
        "BACCARAT_SIGNING_KEY_FILE",
        "(unset: an ephemeral key)",
        "PEM file (PKCS #8, unencrypted) of the Ed25519 key that signs the answers (docs/audit.md); "
        "missing, unreadable or not Ed25519, the service refuses to start; unset, gunicorn makes "
        "an ephemeral key at start, marked so in the JWKS and gone when it stops",
    ),
    Variable(
        "BACCARAT_PUBLISHED_KEYS_FILE",
        "(unset: none)",
        "JWK Set file of earlier Ed25519 public keys still in force, published beside the signing "
        "key at `/.well-known/jwks.json` so that the answers they signed still verify; unreadable "
        "or not Ed25519 keys, the service refuses to start",
    ),
    Variable(
        "METRICS_PORT",
        "9100",
        "port on which gunicorn's master serves Prometheus metrics (`GET /metrics`), on the same "
        "address as the API; not served on the API's port",
    ),
    Variable(
        "PROMETHEUS_MULTIPROC_DIR",
        "(unset: a temporary directory)",
        "directory where each gunicorn worker writes its metrics, emptied when gunicorn starts; "
        "unset, gunicorn makes a temporary one and removes it at exit",
    ),
    Variable(
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "(unset: no traces)",
        "OTLP/HTTP endpoint (`http://` or `https://`) to which each worker sends its traces, "
        "continuing the callers' W3C `traceparent`; the SDK reads the other standard `OTEL_*` "
        'variables (docs/integration.md, "Joining the traces"); unset, tracing is off',
    ),
)

DEFAULTS: dict[str, Any] = {
    "MAX_BODY_BYTES": 4 * 1024 * 1024,
    "API_KEYS": (),
    "TABLES": None,
    "APPROVED_TABLES_ONLY": False,
    "SIGNING_KEY": None,
    "PUBLISHED_KEYS": (),
    "EPHEMERAL_SIGNING_KEY": None,
    # Only a test or benchmark configuration turns signing off (no variable
    # does): bench/signing.py measures what signing costs against it.
    "SIGN_ANSWERS": True,
    # Traces (service/server/tracing.py): sent by OTLP when an endpoint is set;
    # a test or benchmark gives its own tracer provider instead.
    "OTLP_ENDPOINT": None,
    "TRACER_PROVIDER": None,
}


@dataclass(frozen=True, slots=True)
class ApiKey:
    """An accepted API key, and the operator whose tables it reaches (None: every table)."""

    key: str
    operator: str | None = None


def api_keys(value: str) -> tuple[ApiKey, ...]:
    """``"k1, north:k2,"`` -> the keys, each with the operator it names, if
    any: comma-separated, blanks ignored; none at all, or a key shorter than
    :data:`MIN_KEY_LENGTH`, is refused (a variable set by mistake to nothing
    must not leave the API open).

    >>> api_keys(" alpha-0123456789ab ,north:beta_0123456789abc,, ")
    (ApiKey(key='alpha-0123456789ab', operator=None), ApiKey(key='beta_0123456789abc', operator='north'))
    >>> api_keys(" , ")
    Traceback (most recent call last):
    ...
    ValueError: no API key in it (unset the variable to run open)
    """
    entries = tuple(entry.strip() for entry in value.split(","))
    if any(" " in entry for entry in entries):
        raise ValueError("an API key contains a space")
    keys = []
    for entry in entries:
        if not entry:
            continue
        operator, colon, key = entry.rpartition(":")
        if colon and not OPERATOR_NAME.match(operator):
            raise ValueError("an operator's name (before ':') is lower-case letters, digits and _")
        keys.append(ApiKey(key, operator or None))
    if not keys:
        raise ValueError("no API key in it (unset the variable to run open)")
    if any(len(key.key) < MIN_KEY_LENGTH for key in keys):
        raise ValueError(f"an API key is shorter than {MIN_KEY_LENGTH} characters")
    return tuple(keys)


def tables_file(path: str) -> LoadedCatalogue:
    """The catalogue of the tables file at ``path``, checked whole (its
    exact returns computed): read once per process, so that gunicorn's
    master reads it at start and its workers, forked after, build on it."""
    try:
        return _read_tables_file(path)
    except TablesFileError as error:
        raise ValueError(str(error)) from None


_read_tables_file = cache(read_tables_file)


def flag(value: str) -> bool:
    """``true`` or ``false`` (any case)."""
    word = value.strip().lower()
    if word not in ("true", "false"):
        raise ValueError("not true or false")
    return word == "true"


def http_url(value: str) -> str:
    """An ``http://`` or ``https://`` URL.

    >>> http_url("collector:4318")
    Traceback (most recent call last):
    ...
    ValueError: not an http:// or https:// URL
    """
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError("not an http:// or https:// URL")
    return value


def positive_int(value: str) -> int:
    """A whole number of at least 1."""
    number = int(value)
    if number < 1:
        raise ValueError(f"{number} is not at least 1")
    return number


def log_level(value: str) -> str:
    """One of :data:`LOG_LEVELS`, in lower case."""
    level = value.strip().lower()
    if level not in LOG_LEVELS:
        raise ValueError(f"{value!r} is not one of {', '.join(LOG_LEVELS)}")
    return level


def directory(value: str) -> str:
    """A directory path, not empty (prometheus_client would write to the working directory)."""
    if not value.strip():
        raise ValueError("an empty path")
    return value


def port(value: str) -> int:
    """A TCP port number."""
    number = int(value)
    if not 0 < number < 65536:
        raise ValueError(f"{number} is not a TCP port")
    return number


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as file:
            return file.read(MAX_KEY_FILE_BYTES + 1)
    except OSError as error:
        raise ValueError(f"cannot read it ({error.strerror})") from None


def signing_key_file(path: str) -> Ed25519PrivateKey:
    """The Ed25519 private key in the PEM file at ``path``."""
    return keys.private_key(_read(path))


def published_keys_file(path: str) -> tuple[keys.PublicKey, ...]:
    """The Ed25519 public keys of the JWK Set file at ``path``."""
    text = _read(path)
    try:
        document = json.loads(text)
    except ValueError:
        raise ValueError("not a JSON JWK Set") from None
    return keys.public_keys(document)


def ephemeral_pem() -> str:
    """A new Ed25519 private key as PEM, for :data:`EPHEMERAL_KEY`."""
    return keys.private_pem(Ed25519PrivateKey.generate())


def ephemeral_key(pem: str) -> Ed25519PrivateKey:
    """The ephemeral key gunicorn's master made for its workers (``gunicorn.conf.py``)."""
    return keys.private_key(pem.encode())


#: A key file is small; anything longer is not one (and is not read whole).
MAX_KEY_FILE_BYTES = 64 * 1024
#: Set by gunicorn's master for its workers when no key is configured, so
#: that every worker signs with the one ephemeral key the JWKS lists.
EPHEMERAL_KEY = "BACCARAT_EPHEMERAL_SIGNING_KEY"

#: Environment variable -> (Flask config key, parser), for the application.
ENVIRONMENT: dict[str, tuple[str, Callable[[str], Any]]] = {
    "BACCARAT_MAX_BODY_BYTES": ("MAX_BODY_BYTES", positive_int),
    "BACCARAT_API_KEYS": ("API_KEYS", api_keys),
    "BACCARAT_TABLES_FILE": ("TABLES", tables_file),
    "BACCARAT_APPROVED_TABLES_ONLY": ("APPROVED_TABLES_ONLY", flag),
    "BACCARAT_SIGNING_KEY_FILE": ("SIGNING_KEY", signing_key_file),
    "BACCARAT_PUBLISHED_KEYS_FILE": ("PUBLISHED_KEYS", published_keys_file),
    EPHEMERAL_KEY: ("EPHEMERAL_SIGNING_KEY", ephemeral_key),
    "OTEL_EXPORTER_OTLP_ENDPOINT": ("OTLP_ENDPOINT", http_url),
}


def _parse(environ: Mapping[str, str], variable: str, parse: Callable[[str], Any]) -> Any:
    try:
        return parse(environ[variable])
    except ValueError as exc:
        raise ValueError(f"{variable}={environ[variable]!r} is not valid: {exc}") from None


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """The application settings the environment gives; a bad value fails at start, loudly."""
    settings = {
        key: _parse(environ, variable, parse)
        for variable, (key, parse) in ENVIRONMENT.items()
        if variable in environ
    }
    keys_fit_tables(settings)
    return settings


def keys_fit_tables(settings: Mapping[str, Any]) -> None:
    """Every key that names an operator names one of the tables file's, and
    where the file gives its tables to operators, every key names one: a
    key must not reach tables no operator was given, nor every table."""
    keys = settings.get("API_KEYS", ())
    loaded: LoadedCatalogue | None = settings.get("TABLES")
    operators = loaded.catalogue.operators if loaded is not None else {}
    for key in keys:
        if key.operator is not None and key.operator not in operators:
            raise ValueError(
                f"BACCARAT_API_KEYS is not valid: a key names the operator {key.operator!r}, "
                "to whom the tables file (BACCARAT_TABLES_FILE) gives no table"
            )
        if key.operator is None and operators:
            raise ValueError(
                "BACCARAT_API_KEYS is not valid: a key names no operator, and the tables file gives "
                "its tables to operators: write each key as OPERATOR:KEY"
            )


@dataclass(frozen=True, slots=True, kw_only=True)
class ServerSettings:
    """What gunicorn.conf.py takes from the environment."""

    bind: str
    host: str
    port: int
    workers: int
    log_level: str
    metrics_dir: str | None
    metrics_host: str
    metrics_port: int


def server_settings(environ: Mapping[str, str]) -> ServerSettings:
    """gunicorn's settings from ``environ`` (see :data:`VARIABLES` for the defaults).

    >>> server_settings({"PORT": "9000", "WEB_CONCURRENCY": "3"}).bind
    '127.0.0.1:9000'
    """

    def get(variable: str, parse: Callable[[str], Any], default: Any) -> Any:
        return _parse(environ, variable, parse) if variable in environ else default

    host = environ.get("HOST", "127.0.0.1")
    api_port = get("PORT", port, 8000)
    metrics_port = get("METRICS_PORT", port, 9100)
    if metrics_port == api_port:
        raise ValueError(
            f"METRICS_PORT={environ.get('METRICS_PORT', '9100')!r} is not valid: "
            "it is the API's port (PORT) too; the metrics need a port of their own"
        )
    return ServerSettings(
        bind=f"{host}:{api_port}",
        host=host,
        port=api_port,
        workers=get("WEB_CONCURRENCY", positive_int, os.cpu_count() or 1),
        log_level=get("BACCARAT_LOG_LEVEL", log_level, "info"),
        metrics_dir=get("PROMETHEUS_MULTIPROC_DIR", directory, None),
        metrics_host=host,
        metrics_port=metrics_port,
    )
