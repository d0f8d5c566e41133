"""JSON in and out for the ``baccarat`` commands, and what their exit codes mean.

Input is read exactly as the service reads a request body (numbers as exact
decimals, no NaN, no duplicate keys) and validated by the same marshmallow
schemas; a problem is printed to stderr as the same RFC 9457 document the
service would answer with, so a slip refused here is refused there too.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

from marshmallow import Schema, ValidationError

from ..baccarat.rulebook.errors import BaccaratError
from ..contract.jsonio import InvalidJSON, loads
from ..contract.problems import TYPE_PREFIX, field_errors, invalid_request, problem_document
from ..contract.problems import domain_problem as domain_problem
from ..contract.schemas.messages import FieldCode, Message

#: Exit codes. 2 is argparse's own for a command line it cannot read.
OK = 0
MISMATCH = 1
USAGE = 2
BAD_INPUT = 3

EXIT_CODES = """\
exit codes:
  0  done (verify: the answer matches)
  1  verify: the answer does not match what the seed inputs give
  2  the command line is wrong (see --help)
  3  the input is wrong: a problem document (RFC 9457 JSON) is printed on stderr"""


class BadInput(Exception):
    """Input the command cannot use; carries the problem document to print."""

    def __init__(self, problem: dict[str, Any]) -> None:
        super().__init__(problem["detail"])
        self.problem = problem


def refuse(title: str, detail: str, *, status: int = 400, slug: str = "bad-input") -> NoReturn:
    """Stop with a problem that is not about one field."""
    raise BadInput(problem_document(status, title, detail, type=TYPE_PREFIX + slug))


def read_json(source: str, what: str) -> Any:
    """The JSON document in the file ``source`` (``-`` is stdin), read as the service reads a body."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        refuse(f"Cannot read the {what}", f"{source}: {exc}")
    try:
        return loads(text)
    except InvalidJSON as exc:
        refuse(f"The {what} is not valid JSON", f"{source}: {exc}")


def parse_json_option(text: str, what: str) -> Any:
    """A JSON value given on the command line."""
    try:
        return loads(text)
    except InvalidJSON as exc:
        refuse(f"The {what} is not valid JSON", str(exc))


def load(schema: Schema, document: Any) -> Any:
    """``document`` loaded by ``schema``; a :class:`ValidationError` becomes the service's 422 problem."""
    if not isinstance(document, Mapping):
        raise BadInput(
            problem_document(
                422,
                "Invalid request",
                "The request must be a JSON object",
                type=TYPE_PREFIX + "invalid-request",
                errors=field_errors([((), Message.of(FieldCode.NOT_AN_OBJECT))]),
            )
        )
    try:
        return schema.load(document)
    except ValidationError as exc:
        raise BadInput(invalid_request(exc.messages)) from None
    except BaccaratError as exc:  # rules that do not fit together, found while loading
        raise BadInput(domain_problem(exc)) from None


def write_json(document: Any, stream: Any = None) -> None:
    """Print ``document`` as indented JSON (amounts are already strings)."""
    out = sys.stdout if stream is None else stream
    out.write(json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n")
