"""Metrics: requests by route template and status, rounds and bets; in one
process, and summed over several gunicorn workers on the master's own port."""

import http.client
import json
import os
import signal
import time
import urllib.request
from pathlib import Path

import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from service.app import create_app
from service.baccarat.bets.paytable import Result
from service.baccarat.bets.types import BetType
from service.baccarat.rulebook.coup import Outcome
from tests.servers import gunicorn, worker_pids

ROUND = {
    "cards": ["9S", "KH", "2D", "7C", "5H"],
    "bets": [
        {"type": "banker", "amount": "25.00"},
        {"type": "tie", "amount": "5"},
        {"type": "player", "amount": "2.5"},
    ],
}


def samples(text):
    """``{(name, (("label", "value"), ...)): value}`` from an exposition."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def requests_counted(scraped, endpoint, status, method="GET"):
    key = (
        "baccarat_http_request_duration_seconds_count",
        (("endpoint", endpoint), ("method", method), ("status", status)),
    )
    return scraped.get(key, 0)


def scrape(client):
    """The app's own registry, as a scrape in one process would read it."""
    return samples(generate_latest(client.application.services.metrics.registry).decode())


def test_requests_are_counted_by_route_template_method_and_status(client):
    for _ in range(3):
        client.get("/livez")
    client.post("/v1/rounds", json={"cards": ["9S"]})
    client.delete("/v1/rounds")
    scraped = scrape(client)
    assert requests_counted(scraped, "/livez", "200") == 3
    assert requests_counted(scraped, "/v1/rounds", "422", "POST") == 1
    assert requests_counted(scraped, "unmatched", "405", "DELETE") == 1


def test_raw_paths_never_become_labels(client):
    """A scan of random URLs adds no series: unrouted paths are one label."""
    for number in range(25):
        client.get(f"/scan/{number}/admin.php")
    client.open("/livez", method="BREW")
    scraped = scrape(client)
    endpoints = {
        dict(labels)["endpoint"]
        for name, labels in scraped
        if name == "baccarat_http_request_duration_seconds_count"
    }
    assert endpoints <= {"/livez", "unmatched"}
    assert requests_counted(scraped, "unmatched", "404") == 25
    assert any(dict(labels).get("method") == "other" for _, labels in scraped)


def test_metrics_are_not_on_the_api_port(client):
    assert client.get("/metrics").status_code == 404


def test_latency_is_observed_for_every_counted_request(client):
    for _ in range(4):
        client.get("/v1/tables")
    scraped = scrape(client)
    labels = (("endpoint", "/v1/tables"), ("method", "GET"), ("status", "200"))
    assert scraped["baccarat_http_request_duration_seconds_count", labels] == 4
    assert scraped["baccarat_http_request_duration_seconds_sum", labels] > 0


def test_a_body_refused_before_flask_runs_is_counted_under_its_route():
    client = create_app({"MAX_BODY_BYTES": 100}).test_client()
    client.post("/v1/rounds", data=b"{" + b" " * 200 + b"}", content_type="application/json")
    assert requests_counted(scrape(client), "/v1/rounds", "413", "POST") == 1


def assert_bet_metrics(scraped, settled_bets):
    """The metrics say what the answer says about these bets."""
    results = {}
    for bet in settled_bets:
        results[bet["type"], bet["result"]] = results.get((bet["type"], bet["result"]), 0) + 1
    for (kind, result), count in results.items():
        assert scraped["baccarat_bets_settled_total", (("bet_type", kind), ("result", result))] == count


def test_a_round_counts_its_outcome_and_bets(client):
    answer = client.post("/v1/rounds", json=ROUND).get_json()
    scraped = scrape(client)
    assert scraped["baccarat_rounds_total", (("outcome", answer["outcome"]),)] == 1
    assert_bet_metrics(scraped, answer["settlement"]["bets"])


def test_a_table_of_slips_counts_every_bet(client):
    slips = [
        {
            "id": f"seat-{seat}",
            "bets": [{"type": kind, "amount": f"{seat}.25"} for kind in ("banker", "player", "tie")],
        }
        for seat in range(1, 8)
    ]
    answer = client.post("/v1/settlements", json={"cards": ROUND["cards"], "slips": slips}).get_json()
    scraped = scrape(client)
    assert scraped["baccarat_rounds_total", (("outcome", answer["outcome"]),)] == 1
    assert_bet_metrics(scraped, [bet for slip in answer["slips"] for bet in slip["bets"]])


LIGHTNING = {
    "rules": {"multipliers": "lightning"},
    "multiplier_cards": [{"card": ROUND["cards"][0], "multiplier": 8}],
}
LIGHTNING_BETS = [{"type": kind, "amount": "5.00"} for kind in ("banker", "player", "tie", "player_pair")]


@pytest.mark.parametrize(
    ("path", "body", "settled"),
    [
        ("/v1/rounds", {"bets": LIGHTNING_BETS}, lambda answer: answer["multiplier_settlement"]["bets"]),
        (
            "/v1/settlements",
            {"slips": [{"id": "a", "bets": LIGHTNING_BETS}, {"id": "b", "bets": LIGHTNING_BETS[:2]}]},
            lambda answer: [bet for slip in answer["multiplier_slips"] for bet in slip["bets"]],
        ),
    ],
)
def test_a_multiplier_table_counts_its_bets_as_a_plain_table_does(client, path, body, settled):
    answer = client.post(path, json={"cards": ROUND["cards"], **LIGHTNING, **body}).get_json()
    scraped = scrape(client)
    assert scraped["baccarat_rounds_total", (("outcome", answer["outcome"]),)] == 1
    assert_bet_metrics(scraped, settled(answer))


@pytest.mark.parametrize(
    "body",
    [
        {**ROUND, "bets": [{"type": "banker", "amount": "100000"}]},
        {**ROUND, "bets": [{"id": "\ud800", "type": "banker", "amount": "1"}]},
    ],
)
def test_a_refused_request_counts_no_round_and_no_bets(client, body):
    response = client.post("/v1/rounds", data=json.dumps(body), content_type="application/json")
    assert response.status_code == 422
    counted = {
        key: value
        for key, value in scrape(client).items()
        if key[0] in {"baccarat_bets_settled_total", "baccarat_rounds_total"}
    }
    assert len(counted) == len(Outcome) + len(BetType) * len(Result)  # made when the app was built
    assert set(counted.values()) == {0}


def test_each_app_has_its_own_registry_in_one_process():
    first, second = create_app({}).test_client(), create_app({}).test_client()
    first.get("/livez")
    assert requests_counted(scrape(first), "/livez", "200") == 1
    assert requests_counted(scrape(second), "/livez", "200") == 0


# --- under gunicorn, several workers, scraped from the master ---------------


def post(server, request_id):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        headers = {"X-Request-ID": request_id, "Content-Type": "application/json"}
        connection.request("POST", "/v1/rounds", body=json.dumps(ROUND), headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def scrape_server(server):
    with urllib.request.urlopen(server.metrics_url + "/metrics", timeout=10) as response:
        return samples(response.read().decode())


def rounds_counted(scraped):
    return requests_counted(scraped, "/v1/rounds", "200", "POST")


def wait_for_workers(master, count, without, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = worker_pids(master)
        if len(pids) == count and not pids & without:
            return pids
        time.sleep(0.1)
    raise AssertionError(f"gunicorn did not replace worker(s) {without}")


@pytest.mark.server
def test_the_master_reports_every_workers_requests_even_after_one_dies(tmp_path):
    log, metrics_dir = tmp_path / "gunicorn.log", tmp_path / "metrics"
    n = 30
    with gunicorn(workers=2, env={"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}, log=log) as server:
        assert all(post(server, f"round-{i}") == 200 for i in range(n))
        scraped = scrape_server(server)
        # A worker that dies keeps its counts; its replacement adds to them.
        answered = {
            line["request_id"]: line["process"]
            for line in map(json.loads, log.read_text().splitlines())
            if line["logger"] == "gunicorn.access"
        }
        victim = answered["round-0"]
        os.kill(victim, signal.SIGKILL)
        wait_for_workers(server.process.pid, 2, without={victim})
        assert post(server, "after-kill") == 200
        after_kill = scrape_server(server)
    assert rounds_counted(scraped) == n
    assert scraped["baccarat_rounds_total", (("outcome", "banker"),)] == n
    assert rounds_counted(after_kill) == n + 1


@pytest.mark.server
def test_a_restart_starts_from_zero(tmp_path):
    """Files left by the previous run are removed when gunicorn starts."""
    metrics_dir = tmp_path / "metrics"
    env = {"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    with gunicorn(workers=2, env=env) as server:
        for i in range(5):
            post(server, f"r{i}")
        assert rounds_counted(scrape_server(server)) == 5
    assert list(metrics_dir.glob("*.db"))
    (metrics_dir / "keep.txt").write_text("not prometheus_client's")
    with gunicorn(workers=2, env=env) as server:
        assert rounds_counted(scrape_server(server)) == 0
    assert (metrics_dir / "keep.txt").exists()


@pytest.mark.server
def test_without_a_metrics_directory_gunicorn_makes_one_and_removes_it(tmp_path):
    log = tmp_path / "gunicorn.log"
    with gunicorn(workers=2, env={"PROMETHEUS_MULTIPROC_DIR": None}, log=log) as server:
        assert all(post(server, f"r{i}") == 200 for i in range(5))
        assert rounds_counted(scrape_server(server)) == 5
    messages = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    (emptied,) = [message for message in messages if message.startswith("metrics directory ")]
    directory = Path(emptied.split()[2])
    assert directory.name.startswith("baccarat-metrics-")
    assert not directory.exists()


def exchange(server, path, body):
    """POST ``body`` to ``path``; the exchange as a platform stores it, and the answer's JSON."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        stored = {
            "request": {"method": "POST", "url": server.url + path, "body": body},
            "response": {
                "status": answer.status,
                "headers": dict(answer.getheaders()),
                "body": answer.read().decode(),
            },
        }
    finally:
        connection.close()
    return stored, json.loads(stored["response"]["body"])


@pytest.mark.server
def test_rounds_and_bets_are_counted_once_per_played_request_never_for_a_replay():
    """Scraped from the master's metrics port: a round, a settlement and a
    complete live round count once each; their replays, a problem and a
    round in progress count nothing."""
    slips = json.dumps({"cards": ROUND["cards"], "slips": [{"id": "s", "bets": ROUND["bets"]}]})
    with gunicorn(workers=2) as server:
        played = [
            exchange(server, "/v1/rounds", json.dumps(ROUND)),
            exchange(server, "/v1/settlements", slips),
            exchange(server, "/v1/rounds/live", json.dumps(ROUND)),
        ]
        before = scrape_server(server)
        unplayed = [
            exchange(server, "/v1/rounds/live", json.dumps({**ROUND, "cards": ROUND["cards"][:4]})),
            exchange(server, "/v1/rounds", json.dumps({**ROUND, "cards": ROUND["cards"][:3]})),
        ]
        replays = [
            exchange(server, "/v1/replays", json.dumps(stored))[1] for stored, _ in [*played, *unplayed] * 3
        ]
        after = scrape_server(server)
    assert [answer.get("complete", True) for _, answer in played] == [True, True, True]
    assert [stored["response"]["status"] for stored, _ in unplayed] == [200, 422]
    assert {replay["replay"]["identical"] for replay in replays} == {True}
    assert before["baccarat_rounds_total", (("outcome", "banker"),)] == 3
    settled = [
        *played[0][1]["settlement"]["bets"],
        *played[1][1]["slips"][0]["bets"],
        *played[2][1]["settlement"]["bets"],
    ]
    assert_bet_metrics(before, settled)
    counts = ("baccarat_rounds_total", "baccarat_bets_settled_total")
    assert {key: value for key, value in after.items() if key[0] in counts} == {
        key: value for key, value in before.items() if key[0] in counts
    }
    assert requests_counted(after, "/v1/replays", "200", "POST") == len(replays)
