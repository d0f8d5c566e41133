"""Fixtures of the server layer's tests."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from service.server.logs import RequestIdFilter, json_formatter


@pytest.fixture
def json_log() -> Iterator[Callable[[], list[Any]]]:
    """The service's log lines as the production handler writes them."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(json_formatter())
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("service")
    logger.addHandler(handler)
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        logger.removeHandler(handler)
