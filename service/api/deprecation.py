"""The answers of a deprecated operation say so (docs/reference/versioning.md).

An operation whose policy has a :class:`~.policy.Sunset` is marked
``deprecated: true`` in the OpenAPI document (:meth:`..views.Blueprint.operation`)
and every answer to it, errors included, carries the ``Deprecation`` and
``Sunset`` headers and a ``Link`` to its successor, so a caller's logs show
the notice long before the operation stops answering.
"""

from __future__ import annotations

from flask import Flask, Response, request

from .policy import Operations


def init_app(app: Flask, operations: Operations) -> None:
    """Announce each deprecated operation on its answers."""

    def announce(response: Response) -> Response:
        notice = operations.sunset(request.endpoint)
        if notice is not None:
            response.headers.update(notice.headers())
        return response

    app.after_request(announce)
