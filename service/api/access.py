"""Access control: API keys, sent as ``Authorization: Bearer <key>``.

The keys come from ``BACCARAT_API_KEYS`` (config ``API_KEYS``), several at
once so that a key can be rotated without downtime: add the new one, move the
callers, remove the old one. A request without a valid key gets a 401
``application/problem+json`` with ``WWW-Authenticate: Bearer`` (RFC 6750);
the key is never logged or echoed.

A presented key is checked by :class:`.api_keys.ApiKeys`, in constant time.

Some operations answer without a key (their policy says ``public``:
:mod:`.policy`), because their callers cannot carry one and they reveal
nothing about any caller:

* ``/livez`` and ``/readyz``: the kubelet's probes send no headers; a probe
  that got 401 would restart or unready every pod.
* ``/openapi.yaml`` and ``/openapi.json``: the published contract (also in
  the repository), which tells a caller how to authenticate.
* ``/docs`` and its assets: the same contract as a page; "Authorize" there
  takes a key for the operations tried from it.
* ``/table`` and its files: the reference table page, which holds no
  data; the API calls it makes need a key, which it asks for.
* ``/.well-known/jwks.json``: the public keys of the signed answers, which
  anyone holding a stored answer may verify.

With no keys configured the service runs open and says so in its log at start.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, g, request

from ..baccarat.rulebook.errors import N_
from ..contract.problems import problem_document
from ..contract.scope import enter, leave
from .api_keys import REFUSED, ApiKeys
from .errors import problem_response
from .services import services

SCHEME = "bearerAuth"
log = logging.getLogger(__name__)


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None.

    >>> bearer_token("Bearer abc.123"), bearer_token("bearer abc"), bearer_token("Basic YTpi")
    ('abc.123', 'abc', None)
    """
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


def unauthorized(detail: str, error: str | None) -> Response:
    """A 401 problem with the RFC 6750 challenge."""
    challenge = 'Bearer realm="baccarat"' + (f', error="{error}"' if error else "")
    return problem_response(problem_document(401, "Unauthorized", detail), {"WWW-Authenticate": challenge})


def require_api_key() -> Response | None:
    """``before_request``: let the request through, within the scope of its
    key's operator (:mod:`service.contract.scope`), or answer 401."""
    if services().operations.public(request.endpoint):
        return None
    token = bearer_token(request.headers.get("Authorization"))
    if token is None:
        return unauthorized(N_("Send an API key as 'Authorization: Bearer <key>'"), None)
    operator = services().api_keys.match(token)
    if operator is REFUSED:
        log.warning("refused a request with an unknown API key", extra={"path": request.path})
        return unauthorized(N_("The API key is not valid"), "invalid_token")
    if operator is not None:
        leave(g.pop(SCOPE))
        g.setdefault(SCOPE, enter(services().scope_of(str(operator))))
    return None


#: Where a request keeps what :func:`enter_scope` began, for :func:`leave_scope`.
SCOPE = "baccarat_scope"


def enter_scope() -> None:
    """``before_request``: answer within the deployment's scope (every table,
    no operator); a key that names an operator narrows it (:func:`require_api_key`)."""
    g.setdefault(SCOPE, enter(services().scope_of(None)))


def leave_scope(error: BaseException | None) -> None:
    """``teardown_request``: the request's scope ends with it."""
    entered = g.pop(SCOPE, None)
    if entered is not None:
        leave(entered)


def init_app(app: Flask) -> ApiKeys:
    """Answer every request within its scope, and check API keys on every
    request when keys are configured (register before other request hooks);
    the keys, for the app's services."""
    keys = ApiKeys(app.config["API_KEYS"])
    app.before_request(enter_scope)
    app.teardown_request(leave_scope)
    if keys.open:
        log.warning("BACCARAT_API_KEYS is not set: the API is open to any caller that can reach it")
    else:  # an open service needs no check on each request
        app.before_request(require_api_key)
    return keys


def document(spec: object) -> None:
    """Declare the bearer scheme in the OpenAPI document (``spec`` is apispec's)."""
    spec.components.security_scheme(  # type: ignore[attr-defined]
        SCHEME,
        {
            "type": "http",
            "scheme": "bearer",
            "description": "An API key from BACCARAT_API_KEYS, as 'Authorization: Bearer <key>'. "
            "Probes and this document need none.",
        },
    )
