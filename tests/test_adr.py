"""The decision records: each says its status and date, and the index lists
each once, by its own title and status (docs/adr/README.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ADR = Path(__file__).resolve().parent.parent / "docs" / "adr"
RECORDS = sorted(ADR.glob("[0-9][0-9][0-9][0-9]-*.md"))
STATUSES = ("proposed", "accepted", "superseded", "deprecated")


def status(record: Path) -> str:
    found = re.search(r"^- Status: (\w+)", record.read_text(), re.M)
    assert found, f"{record.name} says no '- Status:'"
    return found.group(1)


@pytest.mark.parametrize("record", RECORDS, ids=lambda path: path.name)
def test_a_record_has_a_status_and_a_date(record: Path) -> None:
    text = record.read_text()
    assert status(record) in STATUSES
    assert re.search(r"^- Date: \d{4}-\d{2}-\d{2}$", text, re.M), f"{record.name} has no '- Date:'"
    assert text.startswith(f"# {record.name[:4]}: ")


def test_the_index_lists_every_record_by_its_title_and_status() -> None:
    index = (ADR / "README.md").read_text()
    rows = re.findall(r"^\| \[(\d{4})\]\(([^)]+)\) \| (\w+) \| (.*) \|$", index, re.M)
    assert [path for _, path, _, _ in rows] == [record.name for record in RECORDS]
    for number, path, listed, title in rows:
        record = ADR / path
        assert record.read_text().split("\n", 1)[0] == f"# {number}: {title}"
        assert listed == status(record)


def test_a_superseded_record_names_its_successor() -> None:
    for record in RECORDS:
        if status(record) == "superseded":
            assert re.search(r"^- Status: superseded by \[\d{4}\]", record.read_text(), re.M), record.name
