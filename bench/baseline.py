"""The yardsticks: two endpoints served with the same gunicorn settings as
the service, each the least a kind of endpoint can do.

``POST /empty`` parses the JSON body it is sent and answers ``{}``: the
least any JSON endpoint can do.

``POST /signed`` is the signed ceiling: what a signed round cannot avoid
and nothing more. It parses the JSON body, answers a fixed round answer
(``round_answer.json``: POST /v1/rounds' answer to the bench's round, read
once at start; its size is in docs/performance.md), and signs it as the
service does (docs/audit.md): the answer's and the request's sha-256
``Content-Digest`` and an Ed25519 signature over a signature base of the
same size as the service's and the same eight lines (one for each of the
seven covered components, then ``@signature-params``, as RFC 9421 writes
it and ``sign_answer`` in service/contract/audit/signing.py does), with its ``Signature-Input`` and
``Signature`` headers. No service code: plain Flask, hashlib and
cryptography, so that it stays the ceiling whatever the service becomes.
"""

import base64
import hashlib
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from flask import Flask, Response, jsonify, request
from flask.typing import ResponseReturnValue

ANSWER = Path(__file__).with_name("round_answer.json")
COVERED = (
    '("@status" "content-type" "content-language" "content-digest" '
    '"@method";req "@target-uri";req "content-digest";req)'
)
KEY_ID = "A" * 43  # as long as a JWK thumbprint, the service's keyid


def digest(data: bytes) -> str:
    return f"sha-256=:{base64.b64encode(hashlib.sha256(data).digest()).decode('ascii')}:"


def signed_answer(app: Flask, key: Ed25519PrivateKey, answer: bytes) -> Response:
    """``answer`` as the service signs a round's answer: its sha-256
    ``Content-Digest`` and an Ed25519 signature over a signature base of the
    same size and eight lines as the service's (the seven covered
    components, then the signature parameters), covering the request's
    method, URI and body digest (read from Flask's ``request``)."""
    answer_digest = digest(answer)
    params = f'{COVERED};created={int(time.time())};keyid="{KEY_ID}";alg="ed25519"'
    base = "\n".join(
        (
            '"@status": 200',
            '"content-type": application/json',
            '"content-language": en',
            f'"content-digest": {answer_digest}',
            '"@method";req: POST',
            f'"@target-uri";req: {request.url}',
            f'"content-digest";req: {digest(request.get_data())}',
            f'"@signature-params": {params}',
        )
    )
    signature = base64.b64encode(key.sign(base.encode("ascii"))).decode("ascii")
    return app.response_class(
        answer,
        mimetype="application/json",
        headers={
            "Content-Language": "en",
            "Content-Digest": answer_digest,
            "Signature-Input": f"baccarat={params}",
            "Signature": f"baccarat=:{signature}:",
        },
    )


def create_app() -> Flask:
    app = Flask(__name__)
    answer = ANSWER.read_bytes()
    key = Ed25519PrivateKey.generate()

    @app.post("/empty")
    def empty() -> ResponseReturnValue:
        request.get_json()
        return jsonify({})

    @app.post("/signed")
    def signed() -> ResponseReturnValue:
        request.get_json()
        return signed_answer(app, key, answer)

    @app.get("/readyz")
    def readyz() -> ResponseReturnValue:
        return jsonify(status="ok")

    return app
