"""Shared fixtures: the app, its test client, and card helpers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from service.baccarat.cards import Card, parse_card


@pytest.fixture
def app() -> Iterator[Flask]:
    app = create_app({"TESTING": True})
    return app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def cards(text: str) -> list[Card]:
    """``cards("9S KH 2D")`` -> three cards."""
    return [parse_card(code) for code in text.split()]
