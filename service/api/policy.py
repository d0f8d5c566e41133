"""Each operation's policy, said once where the operation is declared.

An operation is **public** (answered without an API key) or keyed; its 200
answers are **signed** or not; and it is **replayed** by ``POST
/v1/replays`` or not. A view states all three in its
:meth:`~service.api.views.Blueprint.operation` decorator (which marks it
with :func:`declare`), a plain Flask view's module in its ``POLICIES``
(by endpoint); :class:`Operations`, made once from the app's
registered routes, is the one table that access control
(:mod:`.access`), the signing layer (:mod:`service.server.signing`, which
asks it by a predicate and knows no path), replay (:mod:`.replay`) and the
OpenAPI ``security`` read. An operation without a policy stops the app from
being built.

A replayed operation says how it is played again: the request schema its
view loads, the service function its view calls, and the answer schema its
view dumps (:class:`Replayable`), so a replay runs the same operation, never
the view (which counts rounds in the metrics) and never the app's request
machinery.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any, TypeVar

from flask import Flask
from marshmallow import Schema

View = TypeVar("View", bound=Callable[..., Any])

#: The attribute of a view function that holds its :class:`Policy`.
ATTRIBUTE = "policy"


@dataclass(frozen=True, slots=True)
class Replayable:
    """How ``POST /v1/replays`` plays an operation again: ``request`` loads
    the stored body as the view's ``@blp.arguments`` does, ``play`` is the
    service function the view calls (which the view may give a ``step`` hook,
    service/baccarat/play/round.py), ``answer`` dumps as its ``@blp.response``."""

    request: Schema
    play: Callable[..., Any]
    answer: Schema
    #: The other forms its answer is written in, by media type (a rules
    #: sheet's HTML page): each writes what ``play`` returns in the current
    #: language, and a replay writes the form the stored answer is in.
    pages: Mapping[str, Callable[..., str]] = field(default_factory=dict)


#: The shortest life of a deprecated operation (docs/reference/versioning.md).
SHORTEST_NOTICE = timedelta(days=183)


@dataclass(frozen=True, slots=True)
class Sunset:
    """A deprecated operation's announcement (docs/reference/versioning.md):
    when it was deprecated, the earliest date it may stop answering (six
    months later at least), and the operation that replaces it.

    >>> notice = Sunset(datetime(2027, 1, 4, tzinfo=UTC), datetime(2027, 7, 6, tzinfo=UTC), "/v2/rounds")
    >>> notice.headers()["Deprecation"], notice.headers()["Sunset"]
    ('@1799020800', 'Tue, 06 Jul 2027 00:00:00 GMT')
    >>> Sunset(datetime(2027, 1, 4, tzinfo=UTC), datetime(2027, 3, 1, tzinfo=UTC))
    Traceback (most recent call last):
    ...
    ValueError: a deprecated operation answers for six months at least: sunset 2027-03-01 is too early
    """

    deprecated: datetime
    sunset: datetime
    #: The path of the operation that replaces it, if there is one.
    successor: str | None = None

    def __post_init__(self) -> None:
        if self.sunset - self.deprecated < SHORTEST_NOTICE:
            raise ValueError(
                "a deprecated operation answers for six months at least: "
                f"sunset {self.sunset.date().isoformat()} is too early"
            )

    def headers(self) -> dict[str, str]:
        """RFC 9745's ``Deprecation``, RFC 8594's ``Sunset`` and, with a
        successor, a ``Link`` to it."""
        headers = {
            "Deprecation": f"@{int(self.deprecated.timestamp())}",
            "Sunset": format_datetime(self.sunset.astimezone(UTC), usegmt=True),
        }
        if self.successor is not None:
            headers["Link"] = f'<{self.successor}>; rel="successor-version"'
        return headers


@dataclass(frozen=True, slots=True, kw_only=True)
class Policy:
    """How an operation is served.

    >>> Policy(replay=Replayable(Schema(), print, Schema()))
    Traceback (most recent call last):
    ...
    ValueError: a replayed operation must be signed: a replay checks a signed answer
    """

    #: Answered without an API key.
    public: bool = False
    #: Its 200 answers carry the service's signature (docs/audit.md).
    signed: bool = False
    #: How a replay plays it again; None: not replayed.
    replay: Replayable | None = None
    #: Deprecated, and until when it answers; None: not deprecated.
    sunset: Sunset | None = None

    def __post_init__(self) -> None:
        if self.replay is not None and not self.signed:
            raise ValueError("a replayed operation must be signed: a replay checks a signed answer")
        if self.public and self.signed:
            raise ValueError("a signed operation deals or settles: it is not public")

    def __str__(self) -> str:
        return ", ".join(
            (
                "public" if self.public else "keyed",
                "signed" if self.signed else "unsigned",
                "replayed" if self.replay is not None else "not replayed",
                *(() if self.sunset is None else ("deprecated",)),
            )
        )


#: Answered without a key, unsigned: probes, the published contract, pages, keys.
PUBLIC = Policy(public=True)
#: Behind the API key, unsigned: answers that repeat public facts.
KEYED = Policy()


def signed(replay: Replayable | None = None) -> Policy:
    """Behind the API key, its 200 answers signed, and replayed with ``replay``."""
    return Policy(signed=True, replay=replay)


def declare(policy: Policy) -> Callable[[View], View]:
    """Mark a view function with its policy (for a plain Flask view; a
    flask-smorest one says it in ``@blp.operation``)."""

    def mark(view: View) -> View:
        setattr(view, ATTRIBUTE, policy)
        return view

    return mark


@dataclass(frozen=True, slots=True)
class Operations:
    """Every registered operation's policy: by endpoint, and by method and
    path for the operations that are signed (which have no variable parts)."""

    #: ``(method, rule, endpoint) -> policy`` for every route, in the app's order.
    table: Mapping[tuple[str, str, str], Policy]
    by_endpoint: Mapping[str, Policy] = field(init=False)
    by_route: Mapping[tuple[str, str], Policy] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_endpoint", {ep: policy for (_, _, ep), policy in self.table.items()})
        object.__setattr__(
            self, "by_route", {(method, rule): policy for (method, rule, _), policy in self.table.items()}
        )

    @classmethod
    def of(cls, app: Flask, others: Mapping[str, Policy]) -> Operations:
        """The policies of ``app``'s routes: each view's own, or for a view
        this service does not define (flask-smorest's document and page),
        the one ``others`` gives by endpoint. LookupError for a route with
        none, and ValueError for a signed route with variable parts."""
        table: dict[tuple[str, str, str], Policy] = {}
        for rule in app.url_map.iter_rules():
            view = app.view_functions[rule.endpoint]
            policy = getattr(view, ATTRIBUTE, None) or others.get(rule.endpoint)
            if not isinstance(policy, Policy):
                raise LookupError(
                    f"{rule.rule} ({rule.endpoint}) declares no policy: see service/api/policy.py"
                )
            if policy.signed and rule.arguments:
                raise ValueError(f"{rule.rule}: a signed operation's path has no variable parts")
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                table[method, rule.rule, rule.endpoint] = policy
        return cls(table)

    def __iter__(self) -> Iterator[tuple[str, str, str, Policy]]:
        """``(method, rule, endpoint, policy)`` for every operation."""
        return ((method, rule, endpoint, policy) for (method, rule, endpoint), policy in self.table.items())

    def public(self, endpoint: str | None) -> bool:
        """Whether the endpoint's operation answers without a key (no endpoint: no)."""
        policy = self.by_endpoint.get(endpoint or "")
        return policy is not None and policy.public

    def signs(self, environ: Mapping[str, Any]) -> bool:
        """Whether the answer to this WSGI request is to be signed (if it is a 200)."""
        policy = self.by_route.get((environ.get("REQUEST_METHOD", ""), environ.get("PATH_INFO", "")))
        return policy is not None and policy.signed

    def sunset(self, endpoint: str | None) -> Sunset | None:
        """The endpoint's announcement if its operation is deprecated, else None."""
        policy = self.by_endpoint.get(endpoint or "")
        return None if policy is None else policy.sunset

    def replayable(self, method: str, path: str) -> Replayable | None:
        """How to replay ``method path``, or None when it is not replayed."""
        policy = self.by_route.get((method, path))
        return None if policy is None else policy.replay

    def replayed_routes(self) -> list[str]:
        """``"/v1/rounds"`` and the like: the path of every replayed operation (each a POST)."""
        return [rule for _, rule, _, policy in self if policy.replay is not None]
