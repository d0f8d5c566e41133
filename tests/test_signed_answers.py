"""A round signed by a running service verifies three ways (``baccarat
verify-answer``, the independent ``verifier/verify-answer.js`` and
``POST /v1/replays``), after the service restarts and after a key rotation;
one changed byte fails all three.

The service runs as ``make run`` runs it (gunicorn, gunicorn.conf.py), with
its signing key from ``BACCARAT_SIGNING_KEY_FILE``. The rotation follows
docs/audit.md: a new key, the old one's public JWK in
``BACCARAT_PUBLISHED_KEYS_FILE``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from service.contract.audit.keys import private_pem

from . import tools
from .servers import Server, gunicorn

pytestmark = pytest.mark.server

ROUND = json.dumps({"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "25.00"}]})
VERIFIER = tools.ROOT / "verifier" / "verify-answer.js"


def post(
    server: Server, path: str, body: str, language: str | None = None
) -> tuple[int, dict[str, str], str]:
    headers = {"Content-Type": "application/json"} | (
        {} if language is None else {"Accept-Language": language}
    )
    request = urllib.request.Request(server.url + path, data=body.encode(), headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, dict(answer.headers), answer.read().decode()


def signed_round(server: Server, language: str | None = None) -> dict[str, Any]:
    """A round as a platform stores it: the request it sent and the answer it got."""
    status, headers, body = post(server, "/v1/rounds", ROUND, language)
    return {
        "request": {"method": "POST", "url": server.url + "/v1/rounds", "body": ROUND},
        "response": {"status": status, "headers": headers, "body": body},
    }


def jwks(server: Server) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/.well-known/jwks.json", timeout=30) as answer:
        return json.loads(answer.read())


def verdicts(exchange: dict[str, Any], server: Server, tmp_path: Path) -> dict[str, bool]:
    """Whether each of the three verifiers accepts ``exchange`` against ``server``'s keys."""
    stored = tmp_path / "exchange.json"
    stored.write_text(json.dumps(exchange), encoding="utf-8")
    keys = server.url + "/.well-known/jwks.json"
    cli = subprocess.run(
        [sys.executable, "-m", "service.cli", "verify-answer", str(stored), "--jwks", keys],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert cli.returncode in (0, 1), cli.stderr
    node = tools.executable("node", "apt-get install nodejs")
    javascript = subprocess.run(
        [node, str(VERIFIER), str(stored), keys], capture_output=True, text=True, timeout=60
    )
    assert javascript.returncode in (0, 1), javascript.stderr
    status, _, body = post(server, "/v1/replays", json.dumps(exchange))
    assert status == 200
    return {
        "cli": cli.returncode == 0,
        "verifier": javascript.returncode == 0,
        "replay": json.loads(body)["signature"]["verified"],
    }


ALL = {"cli": True, "verifier": True, "replay": True}
NONE = {"cli": False, "verifier": False, "replay": False}


def changed(exchange: dict[str, Any]) -> dict[str, Any]:
    """``exchange`` with one byte of its answer changed (the win, 23.75, made 23.76)."""
    copy = json.loads(json.dumps(exchange))
    body = copy["response"]["body"]
    assert body.count("23.75") >= 1
    copy["response"]["body"] = body.replace("23.75", "23.76", 1)
    return copy


def key_file(path: Path) -> Path:
    path.write_text(private_pem(Ed25519PrivateKey.generate()), encoding="ascii")
    return path


def test_a_signed_round_verifies_after_a_restart_and_a_rotation(tmp_path):
    first = key_file(tmp_path / "first.pem")
    with gunicorn(env={"BACCARAT_SIGNING_KEY_FILE": str(first)}) as server:
        stored = signed_round(server)
        first_keys = jwks(server)
        assert verdicts(stored, server, tmp_path) == ALL
    assert "ephemeral" not in first_keys["keys"][0]

    # Restarted with the same key: the stored answer still verifies, and replays identically.
    with gunicorn(env={"BACCARAT_SIGNING_KEY_FILE": str(first)}) as server:
        assert verdicts(stored, server, tmp_path) == ALL
        assert verdicts(changed(stored), server, tmp_path) == NONE
        _, _, body = post(server, "/v1/replays", json.dumps(stored))
        assert json.loads(body)["replay"]["identical"] is True

    # Rotated: a new signing key, the first one published beside it.
    second = key_file(tmp_path / "second.pem")
    published = tmp_path / "published-keys.json"
    published.write_text(json.dumps(first_keys), encoding="utf-8")
    rotated = {"BACCARAT_SIGNING_KEY_FILE": str(second), "BACCARAT_PUBLISHED_KEYS_FILE": str(published)}
    with gunicorn(env=rotated) as server:
        keys = [key["kid"] for key in jwks(server)["keys"]]
        fresh = signed_round(server)
        assert keys[1] == first_keys["keys"][0]["kid"]
        assert f'keyid="{keys[0]}"' in fresh["response"]["headers"]["Signature-Input"]
        assert verdicts(stored, server, tmp_path) == ALL
        assert verdicts(fresh, server, tmp_path) == ALL
        assert verdicts(changed(stored), server, tmp_path) == NONE
        assert verdicts(changed(fresh), server, tmp_path) == NONE

    # Without the first key published, its answers no longer verify anywhere.
    with gunicorn(env={"BACCARAT_SIGNING_KEY_FILE": str(second)}) as server:
        assert verdicts(stored, server, tmp_path) == NONE


def test_a_round_signed_in_thai_verifies_and_replays_in_thai(tmp_path):
    """The signature covers the answer's language: a stored Thai answer
    verifies everywhere, replays to the same bytes, and no longer verifies
    once its Content-Language is changed."""
    with gunicorn(env={"BACCARAT_SIGNING_KEY_FILE": str(key_file(tmp_path / "key.pem"))}) as server:
        stored = signed_round(server, "th-TH, en;q=0.5")
        assert stored["response"]["headers"]["Content-Language"] == "th"
        assert '"content-language"' in stored["response"]["headers"]["Signature-Input"]
        assert "ผู้เล่น" in json.loads(stored["response"]["body"])["draws"][0]["reason"]
        assert verdicts(stored, server, tmp_path) == ALL
        _, _, body = post(server, "/v1/replays", json.dumps(stored))
        assert json.loads(body)["replay"]["identical"] is True
        relabelled = json.loads(json.dumps(stored))
        relabelled["response"]["headers"]["Content-Language"] = "en"
        assert verdicts(relabelled, server, tmp_path) == NONE
