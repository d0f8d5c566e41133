"""Where a signed round's time goes, in process:
``PYTHONPATH=. .venv/bin/python -m bench.round_parts``.

CPU per call, best of five runs of a tight loop (``time.process_time``):
the whole request through the app's WSGI stack (signed, unsigned, and the
empty endpoint of :mod:`bench.baseline`), each part of the round alone, and
the cost of flask-smorest's and webargs' wrappers, as the difference
between the view as declared and the same three calls made by a plain
Flask view on the same app (one answer, byte for byte).
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from collections.abc import Callable
from typing import Any

from flask import Flask, request

from service.api.views import json_body
from service.api.views.rounds import ROUND as PLAYED
from service.app import create_app
from service.contract.audit.keys import SigningKey
from service.contract.audit.signing import sign_answer
from service.contract.jsonio import dumps, loads

from .baseline import create_app as create_baseline
from .bodies import ROUND
from .paths import best_of

BODY = json.dumps(ROUND).encode()


def best(action: Callable[[], Any], calls: int = 2000) -> float:
    """Microseconds per call: :func:`bench.paths.best_of`, in µs."""
    return best_of(action, calls) * 1e6


def posting(app: Any, path: str) -> Callable[[], bytes]:
    """One POST of the round's body to ``path`` through ``app``'s WSGI callable."""

    def post() -> bytes:
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": path,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "HTTP_HOST": "127.0.0.1:8000",
            "CONTENT_TYPE": "application/json",
            "CONTENT_LENGTH": str(len(BODY)),
            "wsgi.input": io.BytesIO(BODY),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            "SERVER_PROTOCOL": "HTTP/1.1",
        }
        status: list[str] = []
        answer = app(environ, lambda code, headers, exc_info=None: status.append(code))
        body = b"".join(answer)
        getattr(answer, "close", lambda: None)()
        assert status[0].startswith("200"), (status, body[:200])
        return body

    return post


def with_plain_view(app: Flask) -> Flask:
    """``app`` with ``POST /plain``: the round's three calls in a plain Flask view."""

    def plain() -> Any:
        played = PLAYED.play(PLAYED.request.load(json_body(request.get_data(cache=False))))
        return app.json.response(PLAYED.answer.dump(played))

    app.add_url_rule("/plain", "plain", plain, methods=["POST"])
    return app


def run() -> list[str]:
    signed, unsigned = create_app({}), with_plain_view(create_app({"SIGN_ANSWERS": False}))
    declared, plain = posting(unsigned, "/v1/rounds"), posting(unsigned, "/plain")
    assert declared() == plain(), "the plain view must answer what the declared one does"
    data = loads(BODY)
    loaded = PLAYED.request.load(data)
    played = PLAYED.play(loaded)
    dumped = PLAYED.answer.dump(played)
    answer = dumps(dumped)
    key = SigningKey.generate()
    digest = hashlib.sha256(BODY).digest()
    metrics = signed.services.metrics
    rows = [
        ("the empty Flask endpoint, whole request", best(posting(create_baseline(), "/empty"))),
        ("the signed round, whole request", best(posting(signed, "/v1/rounds"))),
        ("the same round unsigned, whole request", best(declared)),
        ("  reading the body (jsonio.loads)", best(lambda: loads(BODY), 20_000)),
        ("  loading it (RoundRequestSchema.load)", best(lambda: PLAYED.request.load(data), 20_000)),
        ("  dealing and settling three bets (play_round)", best(lambda: PLAYED.play(loaded), 20_000)),
        ("  writing the answer (RoundResponseSchema.dump)", best(lambda: PLAYED.answer.dump(played), 20_000)),
        ("  and its JSON (orjson)", best(lambda: dumps(dumped), 20_000)),
        (
            "  signing it (sign_answer)",
            best(
                lambda: sign_answer(
                    key,
                    "POST",
                    "http://h/v1/rounds",
                    digest,
                    200,
                    "application/json",
                    answer,
                    content_language="en",
                )
            ),
        ),
        ("  of which the Ed25519 signature", best(lambda: key.private.sign(answer[:600]))),
        ("  counting it (count_round)", best(lambda: metrics.count_round(played), 20_000)),
        (
            "  and its latency (observe_request)",
            best(lambda: metrics.observe_request("/v1/rounds", "POST", "200", 0.001), 20_000),
        ),
        ("the unsigned round's view as a plain Flask view, whole request", best(plain)),
    ]
    wrappers = rows[2][1] - rows[-1][1]
    lines = [f"{name:<68} {micros:8.1f} µs" for name, micros in rows]
    lines.append(f"{'  flask-smorest and webargs (declared view minus plain view)':<68} {wrappers:8.1f} µs")
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
