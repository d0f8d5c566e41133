"""Shared fixtures: the app, its test client, and card helpers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from service.baccarat.rulebook.cards import Card, parse_card

from . import tools


@pytest.fixture
def app() -> Iterator[Flask]:
    app = create_app({"TESTING": True})
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


#: The tests ``make test`` runs after the rest, one at a time (``-m alone``): each
#: compares the shipped server with a reference measured in the same run, holds
#: connections for a set time, counts a server's memory or drives a browser with
#: its own timeouts, and a second pytest worker's load on the same cores would
#: be noise in what they measure. Every other test runs on all cores
#: (pytest-xdist: ``make test``'s first pass, ``-m "not alone"``).
ALONE = frozenset(
    {
        "tests/test_fair_service.py",
        "tests/hostile/test_slow_clients.py",
        "tests/hostile/test_memory.py",
        "tests/test_shutdown.py",
        "tests/test_docs_browser.py",
        "tests/test_table_browser.py",
        "tests/test_sheet_browser.py",
        "tests/test_road_pictures_browser.py",
    }
)
ROOT = Path(__file__).parents[1]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.relative_to(ROOT).as_posix() in ALONE:
            item.add_marker(pytest.mark.alone)


def cards(text: str) -> list[Card]:
    """``cards("9S KH 2D")`` -> three cards."""
    return [parse_card(code) for code in text.split()]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Under ``BACCARAT_REQUIRE_ALL_TOOLS=1`` (CI) a skipped test is a failed one (tests/tools.py)."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and tools.all_tools_required() and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped, but {tools.REQUIRE_ALL_TOOLS}=1 allows no skipped test: {reason}"


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """The same for a whole module skipped at collection."""
    if report.skipped and tools.all_tools_required():
        report.outcome = "failed"
        report.longrepr = (
            f"skipped, but {tools.REQUIRE_ALL_TOOLS}=1 allows no skipped test: {report.longrepr}"
        )
