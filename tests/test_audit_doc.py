"""docs/audit.md's Python verifier, run as written against the service's signed answers.

The function on the page is independent of the service's code (it uses only
``cryptography``), so it checks the signature base the library makes against
the one the page describes; every changed part of an exchange must fail it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from service.app import create_app

DOC = Path(__file__).parents[1] / "docs" / "audit.md"
ROUND = json.dumps({"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "25.00"}]})


def documented_verifier() -> Callable[[dict[str, Any], dict[str, Any]], bool]:
    (block,) = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)
    namespace: dict[str, Any] = {}
    exec(compile(block, str(DOC), "exec"), namespace)
    return namespace["verify_exchange"]


verify_exchange = documented_verifier()


@pytest.fixture(scope="module")
def signed() -> tuple[dict[str, Any], dict[str, Any]]:
    client = create_app({"TESTING": True}).test_client()
    answer = client.post("/v1/rounds", data=ROUND, content_type="application/json")
    assert answer.status_code == 200
    exchange = {
        "request": {"method": "POST", "url": "http://localhost/v1/rounds", "body": ROUND},
        "response": {"status": 200, "headers": dict(answer.headers), "body": answer.get_data(as_text=True)},
    }
    return exchange, client.get("/.well-known/jwks.json").get_json()


def test_the_documented_verifier_accepts_a_signed_answer(signed):
    exchange, jwks = signed
    assert verify_exchange(exchange, jwks) is True


CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "answer byte": lambda e: e["response"].update(body=e["response"]["body"].replace("23.75", "23.76")),
    "request byte": lambda e: e["request"].update(body=e["request"]["body"].replace("25.00", "25.01")),
    "method": lambda e: e["request"].update(method="PUT"),
    "url": lambda e: e["request"].update(url="http://localhost/v1/settlements"),
    "status": lambda e: e["response"].update(status=201),
    "content type": lambda e: e["response"]["headers"].update({"Content-Type": "text/plain"}),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_the_documented_verifier_refuses_a_changed_exchange(signed, change):
    exchange, jwks = json.loads(json.dumps(signed[0])), signed[1]
    change(exchange)
    assert exchange != signed[0]
    assert verify_exchange(exchange, jwks) is False
