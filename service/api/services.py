"""The services an app is built with, reached by type from a request.

``create_app`` builds a :class:`ServiceApp` and gives it its
:class:`Services` once; a view or request hook reaches them through
:func:`services`, so a reader (and mypy) can follow it from the call to
the object, rather than through string keys into Flask's ``extensions``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import cast

from flask import Flask, current_app

from ..baccarat.tables.catalogue import BUILT_IN, Catalogue
from ..contract.audit.keys import SigningKey
from ..contract.language import Languages
from ..contract.scope import Scope
from ..server.metrics import Metrics
from ..server.tracing import Tracing
from .api_keys import ApiKeys
from .policy import Operations


@dataclass(frozen=True, slots=True, kw_only=True)
class Services:
    """What the views and hooks use besides the request: made when the app is built."""

    metrics: Metrics
    api_keys: ApiKeys
    #: The OpenAPI document as served by GET /openapi.yaml.
    openapi_yaml: str
    #: The key that signs the answers, with the keys the JWKS publishes.
    signing: SigningKey
    #: Every operation's policy: public or keyed, signed, replayed.
    operations: Operations
    #: The languages answers are written in, their catalogues loaded.
    languages: Languages
    #: The deployment's tables (the built-in presets unless a tables file names its own).
    tables: Catalogue = BUILT_IN
    #: Approved tables only: requests send no rules of their own.
    approved: bool = False
    #: The worker's traces (service/server/tracing.py); None: traces are off.
    tracing: Tracing | None = None

    #: Each operator's scope (None's: every table), made once when the app is built.
    scopes: Mapping[str | None, Scope] = field(init=False)

    def __post_init__(self) -> None:
        scopes = {
            operator: Scope(tables=self.tables.seen_by(operator), approved=self.approved, operator=operator)
            for operator in (None, *self.tables.operators)
        }
        object.__setattr__(self, "scopes", MappingProxyType(scopes))

    def scope_of(self, operator: str | None) -> Scope:
        """The scope of a request whose key names ``operator`` (None: every table)."""
        return self.scopes[operator]


class ServiceApp(Flask):
    """Flask, with the services this app was built with."""

    services: Services


def services() -> Services:
    """The services of the app handling the current request."""
    return cast(ServiceApp, current_app).services
