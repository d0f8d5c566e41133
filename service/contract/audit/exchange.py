"""A stored exchange: the request a platform sent and the signed answer it got.

Its JSON form (docs/audit.md) is request ``method``, ``url`` and ``body``
(the exact text) and response ``status``, ``headers`` and ``body``; it is
read by the contract's own schema, with its limits
(:func:`service.contract.schemas.audit.stored_exchange`), and written by
:func:`exchange_document`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class StoredRequest:
    """A request as a platform keeps it: method, the URL it called, the body's bytes."""

    method: str
    url: str
    body: bytes


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """An answer as a platform keeps it: status, headers (the signature's among them), bytes."""

    status: int
    headers: Mapping[str, str]
    body: bytes


@dataclass(frozen=True, slots=True)
class Exchange:
    """A stored request and the answer it got."""

    request: StoredRequest
    response: StoredResponse

    def with_headers(self, headers: Mapping[str, str]) -> Exchange:
        """The exchange with these answer headers added (or replaced)."""
        merged = {**self.response.headers, **headers}
        return replace(self, response=replace(self.response, headers=merged))

    def with_body(self, body: bytes) -> Exchange:
        """The exchange with another answer body (a tampered copy, say)."""
        return replace(self, response=replace(self.response, body=body))


def exchange_document(exchange: Exchange) -> dict[str, Any]:
    """The exchange's JSON form, which ``stored_exchange`` reads back."""
    return {
        "request": {
            "method": exchange.request.method,
            "url": exchange.request.url,
            "body": exchange.request.body.decode(),
        },
        "response": {
            "status": exchange.response.status,
            "headers": dict(exchange.response.headers),
            "body": exchange.response.body.decode(),
        },
    }


def dumps_exchange(exchange: Exchange) -> str:
    """The exchange as JSON text (what a platform might store)."""
    return json.dumps(exchange_document(exchange), ensure_ascii=False)
