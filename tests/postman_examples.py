"""The Postman collection's saved examples: what the service answers each request.

Each request item keeps one example (Postman's ``response``: the Examples
tab, and what a Postman mock server answers), recorded from the real
service: newman runs the collection against gunicorn with API keys, so the
requests, their variables and the values one request passes to the next are
exactly Postman's. Two things are held still so that every answer can be
recorded and compared again:

* the seeds the service draws for itself (a round without cards or seed,
  POST /v1/seeds) come from a counter instead of the OS CSPRNG, in the one
  worker (:func:`create_app_with_counted_seeds`);
* headers that differ on every call (X-Request-ID, Date, the connection's)
  are not saved, and the values in the metrics (latencies, and counts that include the
  readiness probe) as placeholders;
* answers are signed by one fixed key (:data:`SIGNING_KEY`, not a secret),
  and compared with the time of signing and the signature (which covers
  that time and the server's port) as placeholders;
* the engine's digest (every answer's ``engine.digest``, docs/build-digest.md)
  is compared as a placeholder too: it changes with every change to an
  engine file, which the examples would otherwise all record again.

Written by ``make postman`` (tests/postman_build.py); tests/test_postman_examples.py
fails when a saved example differs from what the service answers now.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask

from service.app import create_app
from service.baccarat.shoes import shuffle
from service.contract.audit.keys import private_pem

from . import tools
from .postman_schemas import request_items
from .servers import gunicorn

#: A key of the service that answers while examples are recorded: not a secret.
API_KEY = "k-postman-examples"
COUNTED_SEEDS_APP = "tests.postman_examples:create_app_with_counted_seeds()"
#: Headers not saved: they differ on every call, or describe the connection
#: (or newman's decoding of the body: the body is saved decoded).
UNSAVED_HEADERS = frozenset(
    {
        "x-request-id",
        "date",
        "server",
        "connection",
        "keep-alive",
        "transfer-encoding",
        "content-length",
        "content-encoding",
    }
)
PROMETHEUS_TEXT = "text/plain; version=0.0.4"
#: The key that signs the recorded answers: a fixed one, so that their keyid is too. Not a secret.
SIGNING_KEY = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"postman examples").digest())
#: What differs in a signed answer on every call: when it was signed, and so its signature.
SIGNED_AT = re.compile(r'(created=|"created":)\d+')
SIGNATURE = re.compile(r"baccarat=:[A-Za-z0-9+/=]+:")
#: An answer's digest: of a body that holds a time of signing (a replay's verdict), it differs too.
DIGEST = re.compile(r"sha-256=:[A-Za-z0-9+/=]+:")
SAMPLE_VALUE = re.compile(r" \S+$")
#: The engine's digest, in an answer or in a JSON text inside one.
ENGINE_DIGEST = re.compile(r'(\\?"digest\\?":\s*\\?")[0-9a-f]{64}')


class CountedSeeds:
    """Stands in for :mod:`secrets` in the shuffle module: the n-th seed the
    service draws is the SHA-256 (hex) of ``"postman example <n>"``."""

    def __init__(self) -> None:
        self.drawn = 0

    def token_hex(self, nbytes: int) -> str:
        self.drawn += 1
        digest = hashlib.sha256(f"postman example {self.drawn}".encode()).hexdigest()
        assert 2 * nbytes <= len(digest), nbytes
        return digest[: 2 * nbytes]


def create_app_with_counted_seeds() -> Flask:
    """The service as gunicorn serves it, but with :class:`CountedSeeds` for
    the seeds it draws itself, so every answer can be recorded again."""
    shuffle.secrets = CountedSeeds()  # type: ignore[assignment]
    return create_app()


def recorded_answers(collection: dict[str, Any]) -> list[dict[str, Any]]:
    """Run ``collection`` under newman against a fresh one-worker gunicorn
    with API keys and counted seeds: each request's answer as its example,
    in run order. The collection's own tests may fail here: they judge the
    answers elsewhere; this only records them."""
    node, script = tools.newman()
    items = request_items(collection["item"])
    with tempfile.TemporaryDirectory(prefix="postman-examples-") as directory:
        source, report = Path(directory, "collection.json"), Path(directory, "report.json")
        source.write_text(json.dumps(collection), encoding="utf-8")
        key = Path(directory, "signing-key.pem")
        key.write_text(private_pem(SIGNING_KEY), encoding="ascii")
        env = {"BACCARAT_API_KEYS": API_KEY, "BACCARAT_SIGNING_KEY_FILE": str(key)}
        # One worker: the counted seeds are one sequence, in the order newman sends its requests.
        with gunicorn(workers=1, env=env, app=COUNTED_SEEDS_APP) as server:
            command = [node, str(script), "run", str(source), "--reporters", "json"]
            command += ["--reporter-json-export", str(report), "--timeout-request", "60000"]
            for variable, value in (("baseUrl", server.url), ("metricsUrl", server.metrics_url)):
                command += ["--env-var", f"{variable}={value}"]
            command += ["--env-var", f"apiKey={API_KEY}"]
            result = subprocess.run(command, cwd=tools.ROOT, capture_output=True, text=True, timeout=300)
        if not report.is_file():
            raise RuntimeError(f"newman wrote no report: {result.stdout[-2000:]}{result.stderr[-2000:]}")
        executions = json.loads(report.read_text(encoding="utf-8"))["run"]["executions"]
    names = [execution["item"]["name"] for execution in executions]
    assert names == [item["name"] for item in items], f"newman ran {names}"
    return [
        example(item, execution.get("response")) for item, execution in zip(items, executions, strict=True)
    ]


def example(item: dict[str, Any], response: dict[str, Any] | None) -> dict[str, Any]:
    """A request item's answer as newman reported it, as a Postman example."""
    if response is None:
        raise RuntimeError(f"{item['name']}: no answer")
    headers = [h for h in response["header"] if h["key"].lower() not in UNSAVED_HEADERS]
    kind = next((h["value"] for h in headers if h["key"].lower() == "content-type"), "")
    return {
        "name": item["name"],
        "originalRequest": copy.deepcopy(item["request"]),
        "status": response["status"],
        "code": response["code"],
        "_postman_previewlanguage": preview_language(kind),
        "header": [{"key": h["key"], "value": h["value"]} for h in headers],
        "cookie": [],
        "body": bytes(response["stream"]["data"]).decode("utf-8"),
    }


def preview_language(content_type: str) -> str:
    """How Postman shows the body: ``json`` for JSON and problem+json, ``html``, else ``text``."""
    media = content_type.split(";")[0].strip()
    if media == "application/json" or media.endswith("+json"):
        return "json"
    return "html" if media == "text/html" else "text"


def unsigned(text: str) -> str:
    """``text`` with the time of signing, the signature, the digest and the
    engine's digest as placeholders."""
    text = SIGNATURE.sub("baccarat=:<signature>:", SIGNED_AT.sub(r"\1<created>", text))
    return ENGINE_DIGEST.sub(r"\1<engine digest>", DIGEST.sub("sha-256=:<digest>:", text))


def comparable(example: dict[str, Any]) -> dict[str, Any]:
    """An example as compared with another: the time of signing, the
    signature and the digest as placeholders, and the metrics' values too (their lines
    sorted, since the workers' files are read in any order)."""
    kind = next((h["value"] for h in example["header"] if h["key"].lower() == "content-type"), "")
    if not kind.startswith(PROMETHEUS_TEXT):
        headers = [{**h, "value": unsigned(h["value"])} for h in example["header"]]
        return {**example, "header": headers, "body": unsigned(example["body"])}
    lines = example["body"].splitlines()
    return {
        **example,
        "body": sorted(
            line if line.startswith("#") else SAMPLE_VALUE.sub(" <value>", line) for line in lines
        ),
    }


def with_examples(collection: dict[str, Any], answers: list[dict[str, Any]]) -> dict[str, Any]:
    """``collection`` with ``answers`` (in run order) as its requests' examples.
    A saved example equal to the new one (see :func:`comparable`) is kept as it
    is, so recording again changes nothing that did not change."""
    collection = copy.deepcopy(collection)
    for item, answer in zip(request_items(collection["item"]), answers, strict=True):
        saved = item.get("response") or []
        if len(saved) != 1 or comparable(saved[0]) != comparable(answer):
            item["response"] = [answer]
    return collection
