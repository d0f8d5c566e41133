"""Health probes and the OpenAPI document."""

from flask import Response
from marshmallow import fields

from ...contract.schemas.base import AnswerSchema
from ..policy import PUBLIC
from ..services import services
from . import Blueprint

blp = Blueprint("health", __name__, description="Probes and the API description")


class StatusSchema(AnswerSchema):
    status = fields.String(required=True, metadata={"example": "ok"})


@blp.get("/livez")
@blp.operation("getLivez", policy=PUBLIC)
@blp.response(200, StatusSchema)
def livez() -> dict[str, str]:
    """Liveness: the process answers.

    For the kubelet's liveness and startup probes: answered without a key and
    without touching the rules engine.
    """
    return {"status": "ok"}


@blp.get("/readyz")
@blp.operation("getReadyz", policy=PUBLIC)
@blp.response(200, StatusSchema)
def readyz() -> dict[str, str]:
    """Readiness: the app is loaded and can take traffic.

    For the kubelet's readiness probe, answered without a key. The service
    depends on nothing else, so being loaded is being ready.
    """
    return {"status": "ok"}


@blp.get("/openapi.yaml")
@blp.operation("getOpenapiYaml", policy=PUBLIC)
@blp.response(200, description="This OpenAPI document, as YAML", content_type="application/yaml")
def openapi_yaml() -> Response:
    """The OpenAPI document (the same as `openapi.yaml` in the repository).

    Answered without a key: the contract tells a caller how to authenticate.
    The same document as JSON is at `/openapi.json`.
    """
    return Response(services().openapi_yaml, mimetype="application/yaml")
