"""GET /.well-known/jwks.json and POST /v1/replays: answers an auditor can attribute."""

from typing import Any

from ...contract.audit.exchange import Exchange
from ...contract.audit.keys import jwks
from ...contract.schemas.audit import JwksSchema, ReplayRequestSchema, ReplayVerdictSchema
from ..policy import PUBLIC, signed
from ..replay import Replay, replay
from ..services import services
from . import BODY, Blueprint

blp = Blueprint("audit", __name__, description="Signed answers: the published keys and replay")


@blp.get("/.well-known/jwks.json")
@blp.operation("getJwks", policy=PUBLIC)
@blp.response(200, JwksSchema, headers={"Cache-Control": {"schema": {"type": "string"}}})
def get_jwks() -> tuple[dict[str, Any], dict[str, str]]:
    """The public keys that verify this service's signed answers (a JWK Set).

    The signing key first, then the earlier keys still in force
    (`BACCARAT_PUBLISHED_KEYS_FILE`), each named by its RFC 7638 thumbprint,
    the `keyid` of the `Signature-Input` it verifies. A key marked
    `ephemeral` was made at start because none was configured.
    Answered without an API key: anyone may verify (docs/audit.md).
    """
    return jwks(services().signing.published), {"Cache-Control": "public, max-age=300"}


@blp.post("/v1/replays")
@blp.operation("replayExchange", *BODY, policy=signed())
@blp.arguments(ReplayRequestSchema)
@blp.response(200, ReplayVerdictSchema)
def post_replay(exchange: Exchange) -> Replay:
    """Check a stored exchange: its signature, and its request replayed.

    Send the request a platform stored (method, URL, body) and the signed
    answer it got (status, headers, body). The answer says whether the
    signature holds against the published keys, and whether replaying the
    request under this engine gives the same answer byte for byte; if not,
    which engine answered it and where the two differ (JSON Pointers).
    """
    return replay(exchange)
