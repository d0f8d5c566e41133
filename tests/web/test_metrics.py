"""GET /metrics: requests by route template and status, rounds, bets and
amounts; in one process, and summed over several gunicorn workers."""

import http.client
import json
import os
import signal
import time
from decimal import Decimal
from pathlib import Path

import pytest
from prometheus_client import CollectorRegistry
from prometheus_client.parser import text_string_to_metric_families

from service.app import create_app
from service.web.metrics import FLUSH_SECONDS, Metrics
from tests.server import ROOT, gunicorn, worker_pids

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
    key = ("baccarat_http_requests_total", (("endpoint", endpoint), ("method", method), ("status", status)))
    return scraped.get(key, 0)


def scrape(client):
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    return samples(response.get_data(as_text=True))


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
        dict(labels)["endpoint"] for name, labels in scraped if name == "baccarat_http_requests_total"
    }
    assert endpoints <= {"/livez", "unmatched"}
    assert requests_counted(scraped, "unmatched", "404") == 25
    assert any(dict(labels).get("method") == "other" for _, labels in scraped)


def test_latency_is_observed_for_every_counted_request(client):
    for _ in range(4):
        client.get("/v1/tables")
    scraped = scrape(client)
    labels = (("endpoint", "/v1/tables"), ("method", "GET"), ("status", "200"))
    assert scraped["baccarat_http_request_duration_seconds_count", labels] == 4
    assert (
        scraped["baccarat_http_request_duration_seconds_bucket", (*labels[:1], ("le", "+Inf"), *labels[1:])]
        == 4
    )
    assert scraped["baccarat_http_request_duration_seconds_sum", labels] > 0


def test_a_body_refused_before_flask_runs_is_counted_under_its_route():
    client = create_app({"MAX_BODY_BYTES": 100}).test_client()
    client.post("/v1/rounds", data=b"{" + b" " * 200 + b"}", content_type="application/json")
    assert requests_counted(scrape(client), "/v1/rounds", "413", "POST") == 1


def expected_bet_metrics(settled_bets, minor_unit=2):
    """What the metrics should say about these settled bets, from the answer itself."""
    results, staked, returned = {}, {}, {}
    for bet in settled_bets:
        kind = bet["type"]
        results[kind, bet["result"]] = results.get((kind, bet["result"]), 0) + 1
        staked[kind] = staked.get(kind, 0) + int(Decimal(bet["amount"]).scaleb(minor_unit))
        returned[kind] = returned.get(kind, 0) + int(Decimal(bet["returned"]).scaleb(minor_unit))
    return results, staked, returned


def assert_bet_metrics(scraped, settled_bets):
    results, staked, returned = expected_bet_metrics(settled_bets)
    for (kind, result), count in results.items():
        assert scraped["baccarat_bets_settled_total", (("bet_type", kind), ("result", result))] == count
    for kind, amount in staked.items():
        assert (
            scraped["baccarat_staked_minor_units_total", (("bet_type", kind), ("minor_unit", "2"))] == amount
        )
    for kind, amount in returned.items():
        assert (
            scraped["baccarat_returned_minor_units_total", (("bet_type", kind), ("minor_unit", "2"))]
            == amount
        )


def test_a_round_counts_its_outcome_bets_and_amounts(client):
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


def test_a_refused_slip_counts_no_bets(client):
    client.post("/v1/rounds", json={**ROUND, "bets": [{"type": "banker", "amount": "100000"}]})
    scraped = scrape(client)
    assert not [key for key in scraped if key[0].startswith(("baccarat_bets", "baccarat_rounds"))]


def test_each_app_has_its_own_registry_in_one_process():
    first, second = create_app({}).test_client(), create_app({}).test_client()
    first.get("/livez")
    assert requests_counted(scrape(first), "/livez", "200") == 1
    assert requests_counted(scrape(second), "/livez", "200") == 0


def request_count(registry, endpoint="/v1/rounds"):
    labels = {"endpoint": endpoint, "method": "POST", "status": "200"}
    return registry.get_sample_value("baccarat_http_requests_total", labels) or 0


def test_counts_wait_in_memory_until_flushed():
    registry = CollectorRegistry()
    metrics = Metrics(registry)
    metrics.count_request("/v1/rounds", "POST", "200", 0.001)
    metrics.count_request("/v1/rounds", "POST", "200", 0.002)
    assert request_count(registry) == 0
    metrics.flush()
    assert request_count(registry) == 2
    metrics.flush()  # nothing is written twice
    assert request_count(registry) == 2


def test_tallied_latencies_give_the_exposition_observe_gives():
    """Latencies are added to the histogram in bulk, through its bucket and
    sum values: the result must be what prometheus_client's observe() gives
    (so a release that changes how it keeps a histogram fails here)."""
    latencies = [0, 0.0004, 0.001, 0.0010001, 0.0025, 0.3, 1, 2.5, 9.99, 10, 10.5, 120]
    tallied, observed = CollectorRegistry(), CollectorRegistry()
    metrics, reference = Metrics(tallied), Metrics(observed)
    for seconds in latencies:
        metrics.count_request("/v1/rounds", "POST", "200", seconds)
        reference.latency.labels("/v1/rounds", "POST", "200").observe(seconds)
    metrics.flush()
    name = "baccarat_http_request_duration_seconds"
    from_bulk = {
        (s.name, tuple(sorted(s.labels.items()))): s.value for f in tallied.collect() for s in f.samples
    }
    from_observe = {
        (s.name, tuple(sorted(s.labels.items()))): s.value for f in observed.collect() for s in f.samples
    }

    def histogram(samples):  # its creation time is the one thing that may differ
        return {k: v for k, v in samples.items() if k[0].startswith(name) and not k[0].endswith("_created")}

    assert histogram(from_bulk) == histogram(from_observe)
    labels = (("endpoint", "/v1/rounds"), ("method", "POST"), ("status", "200"))
    assert histogram(from_bulk)[name + "_count", labels] == len(latencies)


def test_a_thread_flushes_the_counts_every_interval():
    registry = CollectorRegistry()
    metrics = Metrics(registry, flush_every=0.05)
    metrics.count_request("/v1/rounds", "POST", "200", 0.001)
    deadline = time.monotonic() + 5
    while request_count(registry) == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert request_count(registry) == 1


def test_a_worker_flushes_its_counts_when_it_exits():
    """gunicorn.conf.py's worker_exit hook writes what the worker tallied."""
    hooks = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), hooks)
    registry = CollectorRegistry()
    metrics = Metrics(registry)
    metrics.count_request("/v1/rounds", "POST", "200", 0.001)
    hooks["worker_exit"](None, None)
    assert request_count(registry) == 1


def settle():
    """Let every worker's flushing thread write its counts to the shared files."""
    time.sleep(FLUSH_SECONDS + 0.5)


def test_a_metrics_directory_without_multiprocess_mode_fails_at_start(tmp_path):
    """prometheus_client picks its mode from PROMETHEUS_MULTIPROC_DIR when
    imported; an app told otherwise would count each worker apart."""
    with pytest.raises(RuntimeError, match="PROMETHEUS_MULTIPROC_DIR"):
        create_app({"METRICS_DIR": str(tmp_path)})


# --- under gunicorn, several workers --------------------------------------


def get(server, path, request_id, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        method = "GET" if body is None else "POST"
        headers = {"X-Request-ID": request_id, "Content-Type": "application/json"}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        connection.close()


def answered_by(log):
    """request id -> pid of the worker that answered it, from the JSON access log."""
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    return {line["request_id"]: line["process"] for line in lines if line["logger"] == "gunicorn.access"}


def only(server, pid):
    """Freeze every worker but ``pid``: the next connections can only be
    accepted by that one."""
    others = worker_pids(server.process.pid) - {pid}
    for other in others:
        os.kill(other, signal.SIGSTOP)
    return others


def resume(pids):
    for pid in pids:
        os.kill(pid, signal.SIGCONT)


def wait_for_workers(master, count, without, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pids = worker_pids(master)
        if len(pids) == count and not pids & without:
            return pids
        time.sleep(0.1)
    raise AssertionError(f"gunicorn did not replace worker(s) {without}")


def rounds_counted(text):
    return requests_counted(samples(text), "/v1/rounds", "200", "POST")


@pytest.mark.server
def test_several_workers_report_every_request_whichever_answers(tmp_path):
    log, metrics_dir = tmp_path / "gunicorn.log", tmp_path / "metrics"
    body = json.dumps(ROUND)
    n = 30
    with gunicorn(workers=2, env={"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}, log=log) as server:
        first, second = sorted(worker_pids(server.process.pid))
        # Each worker answers part of the N requests...
        for worker, numbers in ((first, range(0, 12)), (second, range(12, n))):
            frozen = only(server, worker)
            try:
                assert all(get(server, "/v1/rounds", f"round-{i}", body)[0] == 200 for i in numbers)
            finally:
                resume(frozen)
        settle()
        # ...and each reports all N when it answers the scrape.
        scrapes = {}
        for worker in (first, second):
            frozen = only(server, worker)
            try:
                scrapes[worker] = get(server, "/metrics", f"scrape-{worker}")[1]
            finally:
                resume(frozen)
        # A worker that dies keeps its counts; its replacement adds to them.
        os.kill(first, signal.SIGKILL)
        replaced = wait_for_workers(server.process.pid, 2, without={first})
        after_kill = get(server, "/metrics", "scrape-after-kill")[1]
    answered = answered_by(log)
    assert {answered[f"round-{i}"] for i in range(12)} == {first}
    assert {answered[f"round-{i}"] for i in range(12, n)} == {second}
    assert answered[f"scrape-{first}"] == first
    assert answered[f"scrape-{second}"] == second
    assert [rounds_counted(scrapes[first]), rounds_counted(scrapes[second])] == [n, n]
    assert rounds_counted(after_kill) == n
    assert answered["scrape-after-kill"] in replaced
    assert samples(after_kill)["baccarat_rounds_total", (("outcome", "banker"),)] == n


@pytest.mark.server
def test_a_restart_starts_from_zero(tmp_path):
    """Files left by the previous run are removed when gunicorn starts."""
    metrics_dir = tmp_path / "metrics"
    env = {"PROMETHEUS_MULTIPROC_DIR": str(metrics_dir)}
    body = json.dumps(ROUND)
    with gunicorn(workers=2, env=env) as server:
        for i in range(5):
            get(server, "/v1/rounds", f"r{i}", body)
        settle()
        assert rounds_counted(get(server, "/metrics", "s1")[1]) == 5
    assert list(metrics_dir.glob("*.db"))
    (metrics_dir / "keep.txt").write_text("not prometheus_client's")
    with gunicorn(workers=2, env=env) as server:
        assert rounds_counted(get(server, "/metrics", "s2")[1]) == 0
    assert (metrics_dir / "keep.txt").exists()


@pytest.mark.server
def test_without_a_metrics_directory_gunicorn_makes_one_and_removes_it(tmp_path):
    log = tmp_path / "gunicorn.log"
    body = json.dumps(ROUND)
    with gunicorn(workers=2, env={"PROMETHEUS_MULTIPROC_DIR": None}, log=log) as server:
        first, second = sorted(worker_pids(server.process.pid))
        frozen = only(server, first)
        try:
            assert all(get(server, "/v1/rounds", f"r{i}", body)[0] == 200 for i in range(5))
        finally:
            resume(frozen)
        settle()
        frozen = only(server, second)
        try:
            scraped = get(server, "/metrics", "scrape")[1]
        finally:
            resume(frozen)
    assert rounds_counted(scraped) == 5
    messages = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    (emptied,) = [message for message in messages if message.startswith("metrics directory ")]
    directory = Path(emptied.split()[2])
    assert directory.name.startswith("baccarat-metrics-")
    assert not directory.exists()
