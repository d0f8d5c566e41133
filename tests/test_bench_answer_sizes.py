"""The pages that state the size of the bench's round answer state today's.

docs/performance.md (the performance log) and docs/integration.md ("Size")
give how many bytes the bench's round (bench/bodies.py: six cards, three
bets) answers in full and with ``Prefer: return=minimal``. The answer grows
whenever a field is added, so the figures are measured here, with the test
client, and the pages held to them; bench/ itself carries no such figure.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from bench.bodies import ROUND
from tests.servers import ROOT


def answer_bytes(client: FlaskClient, headers: dict[str, str]) -> int:
    response = client.post("/v1/rounds", json=ROUND, headers=headers)
    assert response.status_code == 200, response.data
    return len(response.data)


@pytest.mark.parametrize(
    ("page", "sentence"),
    [
        ("docs/integration.md", "answers {full:,} bytes in full and {minimal:,} minimal"),
        ("docs/performance.md", "The minimal answer ({minimal:,} bytes against {full:,})"),
        ("docs/performance.md", "`bench/round_answer.json`, {full:,} bytes"),
    ],
)
def test_the_page_states_the_rounds_answer_size(client: FlaskClient, page: str, sentence: str) -> None:
    full = answer_bytes(client, {})
    minimal = answer_bytes(client, {"Prefer": "return=minimal"})
    assert minimal < full
    words = " ".join((ROOT / page).read_text().split())  # however the prose is wrapped
    assert sentence.format(full=full, minimal=minimal) in words
