"""Each operation's policy: stated where it is declared, and read from there
by access control, signing, replay and the OpenAPI document."""

from __future__ import annotations

import json

import pytest
from flask import Flask

from service.api.policy import PUBLIC, Operations, Policy, Replayable, signed
from service.app import create_app
from tests.api.test_access import spec_operations

#: Every operation the service answers and its policy. A new operation fails
#: here until it is added, a conscious choice (CONTRIBUTING: adding an endpoint).
POLICIES = {
    "GET /": "public, unsigned, not replayed",
    "GET /livez": "public, unsigned, not replayed",
    "GET /readyz": "public, unsigned, not replayed",
    "GET /openapi.yaml": "public, unsigned, not replayed",
    "GET /openapi.json": "public, unsigned, not replayed",
    "GET /docs": "public, unsigned, not replayed",
    "GET /docs/assets/<name>": "public, unsigned, not replayed",
    "GET /table": "public, unsigned, not replayed",
    "GET /table/assets/<digest>/<name>": "public, unsigned, not replayed",
    "GET /table/assets/<digest>/words/<tag>.json": "public, unsigned, not replayed",
    "GET /.well-known/jwks.json": "public, unsigned, not replayed",
    "GET /v1/rules": "keyed, unsigned, not replayed",
    "GET /v1/tables": "keyed, unsigned, not replayed",
    "GET /v1/paytables": "keyed, unsigned, not replayed",
    "POST /v1/roads": "keyed, unsigned, not replayed",
    "POST /v1/odds": "keyed, unsigned, not replayed",
    "POST /v1/seeds": "keyed, signed, not replayed",
    "POST /v1/replays": "keyed, signed, not replayed",
    "POST /v1/rounds": "keyed, signed, replayed",
    "POST /v1/rounds/live": "keyed, signed, replayed",
    "POST /v1/rounds/peek": "keyed, signed, replayed",
    "POST /v1/settlements": "keyed, signed, replayed",
    "POST /v1/shoes": "keyed, signed, replayed",
    "POST /v1/rules-sheets": "keyed, signed, replayed",
    "GET /v1/tables/<string:table>/rules-sheet": "keyed, unsigned, not replayed",
}

#: A request of each replayed operation, as a platform would send it.
REPLAYED_BODIES = {
    "/v1/rounds": {"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "10"}]},
    "/v1/rounds/live": {"cards": ["9S", "KH", "2D"]},
    "/v1/rounds/peek": {
        "seed": "abc",
        "bets": [{"type": "banker", "amount": "10"}],
        "decision": {"banker": "double"},
    },
    "/v1/settlements": {"seed": "abc", "slips": [{"id": "s", "bets": [{"type": "tie", "amount": "5"}]}]},
    "/v1/shoes": {"seed": "abc", "to_round": 3},
    "/v1/rules-sheets": {"table": "tie_9", "malfunction": "under_review"},
}


@pytest.fixture(scope="module")
def operations() -> Operations:
    return create_app({"TESTING": True}).services.operations


def test_every_registered_operation_has_its_policy(operations):
    assert {f"{method} {rule}": str(policy) for method, rule, _, policy in operations} == POLICIES


def test_an_operation_without_a_policy_stops_the_app_from_being_built():
    app = Flask(__name__, static_folder=None)
    app.add_url_rule("/forgotten", "forgotten", lambda: "")
    with pytest.raises(LookupError, match=r"/forgotten \(forgotten\) declares no policy"):
        Operations.of(app, {})


def test_a_signed_operation_with_variable_parts_is_refused():
    """The signing layer looks a signed operation up by its path."""
    app = Flask(__name__, static_folder=None)
    app.add_url_rule("/v1/rounds/<number>", "numbered", lambda number: "")
    with pytest.raises(ValueError, match="no variable parts"):
        Operations.of(app, {"numbered": signed()})


@pytest.mark.parametrize(
    "policy",
    [
        {"replay": Replayable(None, print, None)},  # type: ignore[arg-type]
        {"public": True, "signed": True},
    ],
)
def test_a_policy_that_contradicts_itself_is_refused(policy):
    with pytest.raises(ValueError, match="signed"):
        Policy(**policy)


@pytest.mark.parametrize("path", sorted(REPLAYED_BODIES))
def test_every_replayed_operation_is_deterministic_and_signed(operations, client, path):
    """Two identical requests, identical bytes; and the answer is signed."""
    assert operations.replayable("POST", path) is not None
    body = json.dumps(REPLAYED_BODIES[path])
    first, second = (client.post(path, data=body, content_type="application/json") for _ in range(2))
    assert first.status_code == 200, first.get_json()
    assert first.get_data() == second.get_data()
    assert "Signature" in first.headers


def test_every_replayed_operation_has_a_body_above(operations):
    assert {rule for _, rule, _, policy in operations if policy.replay is not None} == set(REPLAYED_BODIES)


def test_the_openapi_security_is_the_policy(operations):
    """``security: []`` exactly on the public operations the document lists."""
    public = {
        f"{method.upper()} {path}" for _, path, method, op in spec_operations() if op.get("security") == []
    }
    documented = {f"{method.upper()} {path}" for _, path, method, _ in spec_operations()}
    assert public == {
        f"{method} {rule}"
        for method, rule, _, policy in operations
        if policy == PUBLIC and f"{method} {rule}" in documented
    }
