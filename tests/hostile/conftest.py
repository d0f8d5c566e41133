"""Fixtures for the hostile-client tests: one real server per module.

The server is started as ``make run`` starts it: gunicorn with the project's
gunicorn.conf.py as shipped, two workers (as in the pod), on loopback. One
per module keeps the package to a handful of starts; a module whose tests
need another configuration starts its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import Server, gunicorn

from .helpers import WORKERS, workers


@pytest.fixture(scope="module")
def server_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the module's server writes its output (JSON log lines)."""
    return tmp_path_factory.mktemp("gunicorn") / "gunicorn.log"


@pytest.fixture(scope="module")
def server(server_log: Path) -> Iterator[Server]:
    with gunicorn(workers=WORKERS, log=server_log) as running:
        workers(running)  # both workers up, not only the first that answered /readyz
        yield running
