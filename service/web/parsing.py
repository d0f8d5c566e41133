"""Reading request bodies safely: size, content type and JSON.

Three traps are closed here, each seen on this stack:

* A chunked body has no ``Content-Length``, and a plain size limit can cut
  it short instead of refusing it. :class:`BodyLimit` reads the whole body
  itself, up to the limit, and answers 413 past it: a truncated slip is
  never settled.
* 5,000 nested ``[`` make the JSON parser raise ``RecursionError``; NaN and
  Infinity are accepted by Python's parser; numbers become floats. Here they
  are a 400, a 400, and exact ``Decimal`` values respectively.
* A key given twice in one object would be silently overwritten; it is a 400.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

import flask
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import BadRequest, UnsupportedMediaType

from .encoding import JSON, dumps
from .problems import PROBLEM_JSON, problem_document

StartResponse = Callable[..., Any]
#: How much of an oversized chunked body is read and thrown away before the
#: 413 is sent, as a multiple of the limit (never kept in memory).
DRAIN_FACTOR = 4


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number: JSON has no NaN or Infinity")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        dup = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise ValueError(f"the key {dup!r} appears twice in one object")
    return obj


#: One decoder for every request: ``json.loads`` with options builds a new
#: decoder and scanner per call, a third of the parse of a round's body.
_DECODER = json.JSONDecoder(
    parse_float=Decimal, parse_constant=_reject_constant, object_pairs_hook=_unique_keys
)


def loads(data: bytes | str) -> Any:
    """Parse a request body: numbers as ``Decimal``, no NaN, no duplicate
    keys, no unbounded nesting. Raises :class:`BadRequest` with the reason.
    (What ``json.loads`` with these options does, on one shared decoder.)"""
    try:
        if isinstance(data, str):
            if data.startswith("\ufeff"):
                raise ValueError("Unexpected UTF-8 BOM (decode using utf-8-sig)")
            text = data
        else:
            text = data.decode(json.detect_encoding(data), "surrogatepass")
        return _DECODER.decode(text)
    except RecursionError:
        raise BadRequest("The JSON body is nested too deeply to be a baccarat request") from None
    except UnicodeDecodeError:
        raise BadRequest("The body is not UTF-8 encoded JSON") from None
    except ValueError as exc:  # includes json.JSONDecodeError
        raise BadRequest(f"The body is not valid JSON: {exc}") from None


def read_json_body(req: flask.Request) -> Any:
    """The request's JSON body, parsed by :func:`loads`. A body sent as
    anything but JSON is a 415; an empty body is a 400."""
    # The exact type every client sends is recognised without parsing it.
    if req.environ.get("CONTENT_TYPE") != JSON and not req.is_json:
        kind = req.mimetype or "none"
        raise UnsupportedMediaType(f"Send the body as application/json (Content-Type: {kind})")
    data = req.get_data(cache=True)
    if not data.strip():
        raise BadRequest("The request body is empty: send a JSON object")
    return loads(data)


class JsonParser(FlaskParser):
    """webargs' Flask parser reading JSON with :func:`read_json_body`."""

    def _raw_load_json(self, req: flask.Request) -> Any:
        return read_json_body(req)


class BodyLimit:
    """WSGI middleware: buffer the body, refusing more than ``max_bytes``.

    With ``Content-Length`` the check costs nothing; a chunked body is read
    up to ``max_bytes + 1`` bytes, and refused as a whole past the limit.
    The application then sees an ordinary body with a ``Content-Length``.
    """

    def __init__(
        self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]], max_bytes: int
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        length = environ.get("CONTENT_LENGTH")
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if length and not chunked:
            try:
                declared = int(length)
            except ValueError:
                return self._refuse(
                    environ, start_response, 400, "Bad Request", "Content-Length is not a number"
                )
            if declared > self.max_bytes:
                return self._too_large(environ, start_response)
        elif chunked:
            stream = environ["wsgi.input"]
            body = self._read_at_most(stream, self.max_bytes + 1)
            if len(body) > self.max_bytes:
                # Discard a bounded remainder so the client, still sending,
                # reads the 413 instead of a connection reset.
                self._discard(stream, DRAIN_FACTOR * self.max_bytes)
                return self._too_large(environ, start_response)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ["wsgi.input_terminated"] = False
        return self.app(environ, start_response)

    @staticmethod
    def _discard(stream: Any, limit: int) -> None:
        left = limit
        while left > 0 and (part := stream.read(min(65536, left))):
            left -= len(part)

    @staticmethod
    def _read_at_most(stream: Any, limit: int) -> bytes:
        parts, size = [], 0
        while size < limit:
            part = stream.read(min(65536, limit - size))
            if not part:
                break
            parts.append(part)
            size += len(part)
        return b"".join(parts)

    def _too_large(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        return self._refuse(
            environ,
            start_response,
            413,
            "Content Too Large",
            f"The body is larger than {self.max_bytes} bytes",
        )

    @staticmethod
    def _refuse(
        environ: dict[str, Any], start_response: StartResponse, status: int, title: str, detail: str
    ) -> Iterable[bytes]:
        body = dumps(problem_document(status, title, detail, instance=environ.get("PATH_INFO", "/")))
        start_response(
            f"{status} {title}",
            [("Content-Type", PROBLEM_JSON), ("Content-Length", str(len(body))), ("Connection", "close")],
        )
        return [body]
