"""Configuration: defaults, overridden from the environment in one place."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

DEFAULTS: dict[str, Any] = {
    "MAX_BODY_BYTES": 4 * 1024 * 1024,
}

#: Environment variable -> (config key, parser).
ENVIRONMENT = {
    "BACCARAT_MAX_BODY_BYTES": ("MAX_BODY_BYTES", int),
}


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """The settings the environment gives; a bad value fails at start, loudly."""
    config = {}
    for variable, (key, parse) in ENVIRONMENT.items():
        if variable in environ:
            try:
                config[key] = parse(environ[variable])
            except ValueError:
                raise ValueError(f"{variable}={environ[variable]!r} is not valid") from None
    return config
