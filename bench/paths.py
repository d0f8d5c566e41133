"""The plain-code paths against marshmallow, and gc.freeze, in-process:
``python -m bench.paths``. The figures behind docs/adr/0003 and 0004.

Each line times the same work both ways, alternated, best of several
repetitions (CPU time of this process): a round's request and answer, and
a table of 10,000 slips x 3 bets, loaded, settled and written.
"""

from __future__ import annotations

import gc
import io
import json
import time
from collections.abc import Callable
from typing import Any

from marshmallow import Schema

from service.app import create_app
from service.baccarat.requests import play_round, settle_table
from service.contract.jsonio import loads
from service.contract.schemas.rounds import RoundRequestSchema, RoundResponseSchema
from service.contract.schemas.settlements import SettlementRequestSchema, SettlementResponseSchema

from .baseline import create_app as create_baseline
from .bodies import ROUND, SLIPS


def best_of(action: Callable[[], Any], calls: int, repeats: int = 5) -> float:
    """Seconds per call: the best of ``repeats`` runs of ``calls`` calls."""
    action()
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(calls):
            action()
        best = min(best, (time.process_time() - start) / calls)
    return best


#: A ``BoundedList``'s two ways to a plain reader.
READERS = ("plain", "reader")


def marshmallow_load(schema: Schema, data: Any) -> Any:
    """What marshmallow loads, without the plain paths: ``Schema.load`` with
    each list's plain reader set aside, whether the list holds one
    (``plain``) or makes one for each list it reads (``reader``, as the
    settlement's slips do: :class:`~service.contract.schemas.fields.BoundedList`)."""
    lists = [field for field in _fields(schema) if any(getattr(field, name, None) for name in READERS)]
    saved = [{name: getattr(field, name) for name in READERS} for field in lists]
    for field in lists:
        for name in READERS:
            setattr(field, name, None)
    try:
        return Schema.load(schema, data)
    finally:
        for field, readers in zip(lists, saved, strict=True):
            for name, reader in readers.items():
                setattr(field, name, reader)


def _fields(schema: Schema) -> list[Any]:
    found = []
    for field in schema.fields.values():
        found.append(field)
        inner = getattr(field, "inner", None)
        nested = getattr(inner, "schema", None)
        if nested is not None:
            found += _fields(nested)
    return found


def compare(name: str, plain: Callable[[], Any], library: Callable[[], Any], calls: int, unit: str) -> str:
    scale = 1e6 if unit == "µs" else 1e3
    fast, slow = best_of(plain, calls) * scale, best_of(library, calls) * scale
    return f"  {name}: plain {fast:,.1f} {unit}, marshmallow {slow:,.1f} {unit} ({slow / fast:.1f}x)"


def wsgi_call(app: Callable[..., Any], path: str, body: bytes) -> None:
    """One POST of ``body`` to ``path`` through the WSGI app, in-process,
    which must answer 200 (a bench that timed an error would mislead)."""
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": io.StringIO(),
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(body)),
    }
    status: list[str] = []
    answer = app(environ, lambda code, headers, exc_info=None: status.append(code))
    for _ in answer:
        pass
    # PEP 3333: the iterable may have close() (werkzeug's ClosingIterator
    # does), or not (the service's WSGI layers answer with a list).
    getattr(answer, "close", lambda: None)()
    assert status[0].startswith("200"), (path, status)


def round_costs() -> list[str]:
    """CPU of one POST /v1/rounds through the app in-process, against the
    empty endpoint, and of the parts that are the service's own."""
    app, empty = create_app(), create_baseline()
    body = json.dumps(ROUND).encode()
    request = RoundRequestSchema().load(loads(body))
    played = play_round(request)
    answer, metrics = RoundResponseSchema(), app.services.metrics
    costs = {
        "POST /v1/rounds through the app": lambda: wsgi_call(app, "/v1/rounds", body),
        "the empty endpoint": lambda: wsgi_call(empty, "/empty", body),
        "dealing and settling (play_round)": lambda: play_round(request),
        "writing the answer": lambda: answer.dump(played),
        "counting the round (outcome, bets)": lambda: metrics.count_round(played),
    }
    measured = {name: best_of(action, 3000) * 1e6 for name, action in costs.items()}
    return ["one round in-process (CPU per call, best of 5):"] + [
        f"  {name}: {cost:.1f} µs" for name, cost in measured.items()
    ]


def run() -> list[str]:
    return round_costs() + plain_paths() + multiplier_table()


def multiplier_table() -> list[str]:
    """The same 10,000 slips x 3 bets at a Lightning table against a plain
    one, loaded, settled and written, alternated in one run."""
    schema, answer = SettlementRequestSchema(), SettlementResponseSchema()
    lit = [{"card": "KS", "multiplier": 8}]
    lightning = {**SLIPS, "rules": {"multipliers": "lightning"}, "multiplier_cards": lit}
    bodies = {"plain": json.dumps(SLIPS), "lightning": json.dumps(lightning)}
    costs = dict.fromkeys(bodies, float("inf"))
    for _ in range(3):
        for name, body in bodies.items():
            whole = lambda body=body: answer.dump(settle_table(schema.load(loads(body))))  # noqa: E731
            costs[name] = min(costs[name], best_of(whole, 1, repeats=3) * 1e3)
    ratio = costs["lightning"] / costs["plain"]
    return [
        f"10,000 slips x 3 bets loaded, settled and written: plain table {costs['plain']:,.0f} ms, "
        f"Lightning table {costs['lightning']:,.0f} ms ({ratio:.2f}x)"
    ]


def plain_paths() -> list[str]:
    round_data = loads(json.dumps(ROUND))
    table_data = loads(json.dumps(SLIPS))
    round_schema, table_schema = RoundRequestSchema(), SettlementRequestSchema()
    round_answer, table_answer = RoundResponseSchema(), SettlementResponseSchema()
    played = play_round(round_schema.load(round_data))
    table = settle_table(table_schema.load(table_data))
    lines = ["plain paths against marshmallow's own load and dump (CPU per call, best of 5):"]
    lines.append(
        compare(
            "round request (6 cards, 3 bets) load",
            lambda: round_schema.load(round_data),
            lambda: marshmallow_load(round_schema, round_data),
            5000,
            "µs",
        )
    )
    lines.append(
        compare(
            "round answer dump",
            lambda: round_answer.dump(played),
            lambda: round_answer.marshmallow_dump(played),
            2000,
            "µs",
        )
    )
    lines.append(
        compare(
            "10,000 slips x 3 bets load",
            lambda: table_schema.load(table_data),
            lambda: marshmallow_load(table_schema, table_data),
            2,
            "ms",
        )
    )
    lines.append(
        compare(
            "10,000 slips x 3 bets answer dump",
            lambda: table_answer.dump(table),
            lambda: table_answer.marshmallow_dump(table),
            2,
            "ms",
        )
    )
    whole = lambda: table_answer.dump(settle_table(table_schema.load(loads(json.dumps(SLIPS)))))  # noqa: E731
    unfrozen = best_of(whole, 2) * 1e3
    gc.collect()
    gc.freeze()
    try:
        frozen = best_of(whole, 2) * 1e3
    finally:
        gc.unfreeze()
    lines.append(
        f"10,000 slips x 3 bets parsed, loaded, settled and written: {unfrozen:,.0f} ms; after gc.freeze() "
        f"of what was built before: {frozen:,.0f} ms ({1 - frozen / unfrozen:.0%} less)"
    )
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
