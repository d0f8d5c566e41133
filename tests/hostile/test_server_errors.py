"""Errors are answered, never crashed on, and always in the one error shape.

* Requests gunicorn itself refuses, before the application sees them
  (over-long lines, too many headers, contradictory or broken framing),
  are answered application/problem+json with an X-Request-ID like any
  other error.
* A lone surrogate (the JSON escape \\ud800, which no UTF-8 can carry) in
  any string of a request is a 422 whose body is valid JSON, never a 500,
  and no round is counted for it.
* A compressed body is a 415 and settles nothing; an amount written as a
  JSON number with an exponent is a 422 at that amount.
* An ``Accept-Language`` as long as the contract's ``maxLength`` is read
  (gunicorn's header limit counts the field's name too), one longer refused.
"""

from __future__ import annotations

import gzip
import json

import pytest

from service.api.language import MAX_HEADER
from tests.servers import Server

from .helpers import (
    CARDS,
    LOOPBACK,
    ROUND,
    assert_problem,
    call,
    exchange,
    metric_total,
    pointers,
    settled_metrics,
)

pytestmark = pytest.mark.server

HEAD = f"Host: {LOOPBACK}\r\nConnection: close\r\n".encode()
POST = b"POST /v1/rounds HTTP/1.1\r\n" + HEAD + b"Content-Type: application/json\r\n"

#: Raw requests gunicorn's parser refuses, with the status each must get.
MALFORMED = {
    "header-line-over-8190-bytes": (
        431,
        b"GET /livez HTTP/1.1\r\n" + HEAD + b"X-Long: " + b"a" * 9000 + b"\r\n\r\n",
    ),
    "over-100-headers": (
        431,
        b"GET /livez HTTP/1.1\r\n" + HEAD + b"".join(b"X-H%d: v\r\n" % i for i in range(101)) + b"\r\n",
    ),
    "request-line-over-4094-bytes": (414, b"GET /livez?q=" + b"a" * 5000 + b" HTTP/1.1\r\n" + HEAD + b"\r\n"),
    # Request smuggling's classic: which of the two says where the body ends?
    "content-length-and-chunked": (
        400,
        POST + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ),
    "negative-content-length": (400, POST + b"Content-Length: -1\r\n\r\n{}"),
    "bad-chunk-size": (400, POST + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
}


@pytest.mark.parametrize(("status", "raw"), MALFORMED.values(), ids=MALFORMED.keys())
def test_requests_gunicorn_refuses_are_answered_as_problems(server: Server, status: int, raw: bytes) -> None:
    answer = exchange(server.port, raw)
    assert_problem(answer, status)


LONE = "\ud800"
BET = {"type": "banker", "amount": "25.00"}
#: (path, body, the pointer the 422 names or None): a lone surrogate in each kind of string.
SURROGATES = {
    "bet-id": ("/v1/rounds", {"cards": CARDS, "bets": [{"id": LONE, **BET}]}, "/bets/0/id"),
    "slip-id": ("/v1/settlements", {"cards": CARDS, "slips": [{"id": LONE, "bets": [BET]}]}, "/slips/0/id"),
    "seed": ("/v1/rounds", {"seed": LONE, "bets": [BET]}, "/seed"),
    "client-seed": (
        "/v1/rounds",
        {"server_seed": "abc", "client_seed": LONE, "bets": [BET]},
        "/client_seed",
    ),
    # The key itself is what the error names: how it is spelt there is the
    # service's choice, as long as the answer is valid JSON.
    "unknown-key": ("/v1/rounds", {"cards": CARDS, LONE: 1, "bets": [BET]}, None),
    "card-code": ("/v1/rounds", {"cards": [LONE, *CARDS[1:]], "bets": [BET]}, "/cards/0"),
    "table-name": ("/v1/rounds", {"cards": CARDS, "table": LONE, "bets": [BET]}, "/table"),
}


def surrogate_body(body: object) -> bytes:
    """JSON with the lone surrogate written as the escape \\ud800 (json.dumps
    escapes every non-ASCII character, a lone surrogate included)."""
    data = json.dumps(body).encode("ascii")
    assert b"\\ud800" in data
    return data


@pytest.mark.parametrize(("path", "body", "where"), SURROGATES.values(), ids=SURROGATES.keys())
def test_a_lone_surrogate_is_a_422_never_a_500(
    server: Server, path: str, body: object, where: str | None
) -> None:
    answer = call(server.port, "POST", path, surrogate_body(body))
    problem = assert_problem(answer, 422)  # the body parses as strict UTF-8 JSON
    if where is not None:
        assert where in pointers(problem), str(answer)


GZIPPED_ROUND = gzip.compress(json.dumps(ROUND).encode())


@pytest.mark.parametrize(
    "body", [GZIPPED_ROUND, json.dumps(ROUND).encode()], ids=["really-gzip", "not-really-gzip"]
)
def test_a_compressed_body_is_415(server: Server, body: bytes) -> None:
    answer = call(server.port, "POST", "/v1/rounds", body, {"Content-Encoding": "gzip"})
    assert_problem(answer, 415)


@pytest.mark.parametrize("amount", ["2.5E+1", "1E+1"])
def test_an_amount_with_an_exponent_is_422_at_the_amount(server: Server, amount: str) -> None:
    # The raw JSON number, not a string: "amount":2.5E+1 would read as 25 if
    # numbers were taken at their value.
    body = f'{{"cards":{json.dumps(CARDS)},"bets":[{{"type":"banker","amount":{amount}}}]}}'
    answer = call(server.port, "POST", "/v1/rounds", body)
    problem = assert_problem(answer, 422)
    assert "/bets/0/amount" in pointers(problem), str(answer)


def test_refused_requests_count_no_round(server: Server) -> None:
    """The surrogate and compressed requests above are refused before a
    round is played: the rounds counter moves by the one valid round only."""
    before = settled_metrics(server)
    for path, body, _ in SURROGATES.values():
        call(server.port, "POST", path, surrogate_body(body))
    for body in (GZIPPED_ROUND, json.dumps(ROUND).encode()):
        call(server.port, "POST", "/v1/rounds", body, {"Content-Encoding": "gzip"})
    # One valid round with one bet, so the counters are seen to work.
    assert call(server.port, "POST", "/v1/rounds", ROUND).status == 200
    after = settled_metrics(server)
    for name in ("baccarat_rounds_total", "baccarat_bets_settled_total"):
        assert metric_total(after, name) - metric_total(before, name) == 1, name


def test_an_accept_language_as_long_as_the_contract_allows_is_read_and_one_longer_refused(
    server: Server,
) -> None:
    """openapi.yaml's ``maxLength`` of Accept-Language is what gunicorn lets
    through: the longest value is answered in the language of its last tag,
    one character more is a 431 problem (from gunicorn or the service)."""
    longest = "x" * (MAX_HEADER - len(", zh-TW")) + ", zh-TW"
    request = b"GET /v1/rules HTTP/1.1\r\n" + HEAD + b"Accept-Language: %s\r\n\r\n"
    answer = exchange(server.port, request % longest.encode())
    assert answer.status == 200, str(answer)
    assert answer.headers["content-language"] == "zh-Hant"
    assert_problem(exchange(server.port, request % (longest + " ").encode()), 431)
