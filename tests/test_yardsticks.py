"""The bench's yardsticks stay what docs/performance.md says they are.

The signed ceiling (bench/baseline.py) answers a fixed copy of the
service's answer to the bench's round, and the round's own work
(bench/floor.py) computes that answer: both must write the service's very
bytes, and sign them over the same covered fields, or the ratios measured
against them would compare unlike answers.
"""

from __future__ import annotations

import base64

from flask.testing import FlaskClient

from bench import baseline, floor
from bench.rounds import ROUND


def answered(client: FlaskClient, path: str) -> tuple[bytes, dict[str, str]]:
    response = client.post(path, json=ROUND)
    assert response.status_code == 200, response.data
    return response.data, dict(response.headers)


def test_the_ceiling_and_the_floor_answer_the_services_bytes(client: FlaskClient) -> None:
    service, service_headers = answered(client, "/v1/rounds")
    ceiling, ceiling_headers = answered(baseline.create_app().test_client(), "/signed")
    alone, alone_headers = answered(floor.create_app().test_client(), "/v1/rounds")
    assert ceiling == alone == service == baseline.ANSWER.read_bytes()
    for headers in (ceiling_headers, alone_headers):
        assert headers["Content-Digest"] == service_headers["Content-Digest"]
        assert headers["Content-Language"] == service_headers["Content-Language"] == "en"


def test_the_yardsticks_sign_what_the_service_signs(client: FlaskClient) -> None:
    _, service_headers = answered(client, "/v1/rounds")
    for app, path in ((baseline.create_app(), "/signed"), (floor.create_app(), "/v1/rounds")):
        _, headers = answered(app.test_client(), path)
        covered = headers["Signature-Input"].partition(";")[0]
        assert covered == service_headers["Signature-Input"].partition(";")[0]
        assert len(base64.b64decode(headers["Signature"].split(":")[1])) == 64  # an Ed25519 signature
