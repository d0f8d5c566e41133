"""GET /: where a caller who found the service goes next.

A short JSON answer (the service's name and version, the digest of its
engine's critical files (docs/build-digest.md), and the addresses of
its interactive docs, reference table, contract and probes) instead of a
bare 404, for a person who opens the bare address in a browser or a
program that looks for the contract. It holds no data and needs no key, and
it is outside the OpenAPI document, like ``/docs`` and ``/table``.
"""

from __future__ import annotations

from types import MappingProxyType

from flask import Blueprint, Flask, Response, jsonify

from ..provenance.build import engine
from .policy import PUBLIC, declare

PATH = "/"
#: Where to go from here: the documents and pages a newcomer wants first.
LINKS = MappingProxyType(
    {
        "docs": "/docs",
        "table": "/table",
        "openapi": "/openapi.yaml",
        "openapi_json": "/openapi.json",
        "rules": "/v1/rules",
        "tables": "/v1/tables",
        "keys": "/.well-known/jwks.json",
        "livez": "/livez",
    }
)

blp = Blueprint("landing", __name__)


@blp.get(PATH)
@declare(PUBLIC)
def landing() -> Response:
    """The service's name, version and digest, and its links."""
    return jsonify({**engine(), "links": dict(LINKS)})


def init_app(app: Flask) -> None:
    """Answer ``GET /``."""
    app.register_blueprint(blp)
