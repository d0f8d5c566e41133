"""``make postman``: write the Postman collection's generated parts.

Runs the collection against the service to record every request's example
(tests/postman_examples.py), then embeds openapi.yaml's answer schemas and
each request's schema test (tests/postman_schemas.py), and writes
postman/baccarat.postman_collection.json. Run it after changing a request,
an answer or openapi.yaml; tests/test_postman_examples.py and
tests/test_postman_schemas.py say when it is due.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from .postman_examples import recorded_answers, with_examples
from .postman_schemas import Contract, with_schemas
from .tools import ROOT

COLLECTION = ROOT / "postman" / "baccarat.postman_collection.json"
OPENAPI = ROOT / "openapi.yaml"


def load(path: Path = COLLECTION) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def dump(collection: dict[str, Any]) -> str:
    """The collection as the file holds it (two-space indent, UTF-8 as is)."""
    return json.dumps(collection, indent=2, ensure_ascii=False) + "\n"


def contract() -> Contract:
    return Contract(yaml.safe_load(OPENAPI.read_text(encoding="utf-8")))


def main() -> None:
    collection = load()
    collection = with_examples(collection, recorded_answers(collection))
    collection = with_schemas(collection, contract())
    COLLECTION.write_text(dump(collection), encoding="utf-8")
    print(f"wrote {COLLECTION.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
