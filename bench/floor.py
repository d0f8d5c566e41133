"""The third yardstick: a round's own work, and nothing of the service around it.

``POST /v1/rounds`` here does what no signed round can do without, beyond
the signed ceiling (:mod:`bench.baseline`): it reads the body as the
service reads it (:mod:`service.contract.jsonio`), loads it with the
round's schema (its plain path first, as the service does), deals and
settles the round with the engine, writes the answer with the answer's
schema as JSON (the same 2,489 bytes the service answers the bench's
round), and signs it exactly as the ceiling does. Nothing else: no request
id, no request metrics, no body limit, no language negotiation, no
flask-smorest or webargs, no access check, no round counted, no trace
look-up, plain Flask around one view.

Served under the project's gunicorn.conf.py beside the service and the
ceiling (:mod:`bench.rounds`), it says how close to the ceiling a round can
get at all on this stack, whatever the service's layers become: the share
of the ceiling that is out of the layers' reach (docs/performance.md).
"""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask, request
from flask.typing import ResponseReturnValue

from service.baccarat.requests import play_round
from service.contract import jsonio
from service.contract.schemas.minimal import RoundAnswerSchema
from service.contract.schemas.rounds import RoundRequestSchema

from .baseline import signed_answer


def create_app() -> Flask:
    app = Flask(__name__)
    key = Ed25519PrivateKey.generate()
    schema, answer_schema = RoundRequestSchema(), RoundAnswerSchema()

    @app.post("/v1/rounds")
    def round_alone() -> ResponseReturnValue:
        played = play_round(schema.load(jsonio.loads(request.get_data())))
        return signed_answer(app, key, jsonio.dumps(answer_schema.dump(played)))

    @app.get("/readyz")
    def readyz() -> ResponseReturnValue:
        return {"status": "ok"}

    return app
