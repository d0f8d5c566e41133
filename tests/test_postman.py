"""The Postman collection in postman/ covers every endpoint and passes under newman.

newman (npm, pinned in package.json and package-lock.json) runs the
collection against the live gunicorn server, once with the service open and
once with API keys, and its JSON report must show every request made and
every assertion passed (each request's check of its answer against its
schema in openapi.yaml included); a wrong key must make it fail. The
generated parts of the collection (saved examples, answer schemas) are
tested in test_postman_examples.py and test_postman_schemas.py. Reports go to
``artifacts/``. Needs Node.js and ``npm ci`` (``make test`` runs it when npm
is installed); without them the newman runs are skipped, unless
``BACCARAT_REQUIRE_ALL_TOOLS=1`` (see tests/tools.py).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from service.app import create_app

from . import tools
from .postman_schemas import BEGIN, SCHEMA_TEST, request_items
from .servers import gunicorn

POSTMAN = tools.ROOT / "postman"
COLLECTION = POSTMAN / "baccarat.postman_collection.json"
ENVIRONMENT = POSTMAN / "local.postman_environment.json"
ARTIFACTS = tools.ROOT / "artifacts"
API_KEY = "k-7f3a9c51d0e24b86"


def script_of(item: dict) -> str:
    return "\n".join(
        line
        for event in item.get("event", [])
        if event["listen"] == "test"
        for line in event["script"]["exec"]
    )


@pytest.fixture(scope="module")
def collection() -> dict:
    return json.loads(COLLECTION.read_text(encoding="utf-8"))


#: Where the service is by default (make run), as both the collection and the environment say.
ADDRESSES = {
    "baseUrl": "http://127.0.0.1:8000",
    "metricsUrl": "http://127.0.0.1:9100",  # gunicorn's master, METRICS_PORT
    "apiKey": "",  # the service runs open
}


def test_the_collection_is_postman_v2_1_with_its_addresses_as_collection_variables(collection):
    """Imported alone, the collection reaches make run's service; an environment overrides it."""
    assert collection["info"]["schema"].endswith("/collection/v2.1.0/collection.json")
    variables = {v["key"]: v["value"] for v in collection["variable"]}
    assert {key: variables.get(key) for key in ADDRESSES} == ADDRESSES
    environment = json.loads(ENVIRONMENT.read_text(encoding="utf-8"))
    values = {v["key"]: v["value"] for v in environment["values"]}
    assert {key: values.get(key) for key in ADDRESSES} == ADDRESSES
    for item in request_items(collection["item"]):
        assert item["request"]["url"]["raw"].startswith(("{{baseUrl}}/", "{{metricsUrl}}/")), item["name"]


def test_scripts_read_the_api_key_from_any_scope(collection):
    """``pm.variables`` resolves environment, then collection: the key works from either."""
    for item in request_items(collection["item"]):
        assert "pm.environment.get(" not in script_of(item), item["name"]


def test_the_collection_covers_every_endpoint(collection):
    spec = create_app({}).test_client().get("/openapi.json").get_json()
    documented = {f"{method.upper()} {path}" for path, ops in spec["paths"].items() for method in ops}
    documented |= {"GET /openapi.json", "GET /docs"}
    sent = {
        f"{item['request']['method']} /{'/'.join(item['request']['url']['path'])}"
        for item in request_items(collection["item"])
    }
    # A path's variable part ({table}) matches any one segment of a request's path.
    missing = [
        endpoint
        for endpoint in documented
        if not any(re.fullmatch(re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(endpoint)), s) for s in sent)
    ]
    assert missing == [], f"no request for {sorted(missing)}"


def test_a_round_on_every_table_preset(collection):
    """Each preset GET /v1/tables lists is played by some request, so a new one needs its own."""
    tables = create_app({}).test_client().get("/v1/tables").get_json()
    played = set()
    for item in request_items(collection["item"]):
        try:
            body = json.loads(item["request"].get("body", {}).get("raw", ""))
        except ValueError:
            continue  # a body with {{variables}}, or one that is not JSON on purpose
        if isinstance(body, dict) and "table" in body:
            played.add(body["table"])
    assert {table["name"] for table in tables["tables"]} <= played


def test_every_request_asserts_its_status_and_some_fields(collection):
    for item in request_items(collection["item"]):
        script = script_of(item)
        assert "pm.test(" in script, item["name"]
        assert re.search(r"to\.have\.status\(\d{3}\)", script), item["name"]
        assert script.count("pm.test(") >= 2 or "pm.expect" in script, item["name"]


def test_the_collection_shows_error_answers(collection):
    statuses = {
        int(status)
        for item in request_items(collection["item"])
        for status in re.findall(r"to\.have\.status\((4\d\d)\)", script_of(item))
    }
    assert {400, 401, 404, 405, 415, 422} <= statuses


def newman(server: Any, api_key: str, report: Path) -> subprocess.CompletedProcess[str]:
    node, script = tools.newman()
    command = [
        node,
        str(script),
        "run",
        str(COLLECTION),
        "--environment",
        str(ENVIRONMENT),
        "--env-var",
        f"baseUrl={server.url}",
        "--env-var",
        f"metricsUrl={server.metrics_url}",
        "--env-var",
        f"apiKey={api_key}",
        "--reporters",
        "cli,json",
        "--reporter-json-export",
        str(report),
        "--color",
        "off",
        "--timeout-request",
        "60000",
    ]
    return subprocess.run(command, cwd=tools.ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.server
@pytest.mark.parametrize("keys", ["", API_KEY], ids=["open", "with-api-keys"])
def test_newman_passes_every_assertion_against_the_live_server(collection, keys):
    report = ARTIFACTS / f"newman-{'keyed' if keys else 'open'}.json"
    report.parent.mkdir(exist_ok=True)
    tools.newman()  # skip (or fail under CI) before starting a server
    with gunicorn(workers=2, env={"BACCARAT_API_KEYS": keys or None}) as server:
        result = newman(server, keys, report)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    run = json.loads(report.read_text(encoding="utf-8"))["run"]
    stats = run["stats"]
    assert stats["requests"] == {"total": len(request_items(collection["item"])), "pending": 0, "failed": 0}
    assert stats["assertions"]["failed"] == 0
    assert stats["assertions"]["total"] >= 90
    assert run["failures"] == []
    # Every request with a schema test ran it (and it passed, as every assertion did).
    checked = {item["name"] for item in request_items(collection["item"]) if BEGIN in script_of(item)}
    ran = {
        execution["item"]["name"]
        for execution in run["executions"]
        for assertion in execution["assertions"]
        if assertion["assertion"].startswith(SCHEMA_TEST)
    }
    assert ran == checked


@pytest.mark.server
def test_newman_fails_with_a_wrong_api_key(tmp_path):
    tools.newman()
    with gunicorn(workers=1, env={"BACCARAT_API_KEYS": API_KEY}) as server:
        result = newman(server, "not-the-key", tmp_path / "report.json")
    assert result.returncode == 1
    run = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["run"]
    assert run["stats"]["assertions"]["failed"] > 0
    assert any("401" in failure["error"]["message"] for failure in run["failures"])
