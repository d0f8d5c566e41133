"""``baccarat certify`` end to end: a small run on two local Dask workers,
the same counts in one process, a signed report, rounds re-dealt by the
command line and by POST /v1/rounds, and the exit code naming what failed."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from service.baccarat.tables.rules import TABLES
from service.certification.report import Inputs, certify, deterministic_part
from service.certification.workers import InProcess
from service.cli import main
from service.cli.certify import _write_all
from service.contract.audit.keys import SigningKey, private_pem, public_keys
from service.contract.audit.verification import verify
from service.contract.schemas.audit import stored_exchange
from tests.certification.test_shuffle_tests import biased_shoes

SEED = "lab-run"
ROUNDS = 4_000
SHUFFLE_SHOES = 200


def baccarat(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args], capture_output=True, text=True, timeout=300, cwd=cwd
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One run on two local workers, signed."""
    folder = tmp_path_factory.mktemp("certify")
    key = folder / "key.pem"
    key.write_text(private_pem(SigningKey.generate().private))
    out = folder / "out"
    done = baccarat(
        "certify",
        "--table",
        "standard",
        "--rounds",
        str(ROUNDS),
        "--seed",
        SEED,
        "--shuffle-shoes",
        str(SHUFFLE_SHOES),
        "--workers",
        "2",
        "--out",
        str(out),
        "--signing-key",
        str(key),
    )
    return done, out


def test_a_run_on_two_local_workers_writes_the_report_and_passes(run):
    done, out = run
    assert done.returncode == 0, done.stderr
    assert "Dask LocalCluster (2 worker processes)" in done.stdout
    report = json.loads((out / "report.json").read_text())
    assert report["passed"]
    assert [check["check"] for check in report["checks"]] == [
        "exact_math",
        "returns",
        "line_counts",
        "shuffle",
        "bit_stream",
        "recall",
    ]
    inputs = report["inputs"]
    assert inputs["rules_id"] == TABLES["standard"].rules.id
    assert inputs["seed"]["server_seed"] == SEED
    assert report["engine"]["name"] == "baccarat-service"
    assert report["simulation"]["rounds"] >= ROUNDS * 0.9
    assert report["shuffle"]["shoes"] == report["bit_stream"]["sequences"] == SHUFFLE_SHOES
    page = (out / "report.html").read_text()
    assert page.count("<svg") == 3
    assert "<script" not in page
    assert "http" not in page.split("<body>")[1].split("<svg")[0]


def test_the_counts_are_the_same_in_one_process(run):
    _, out = run
    two_workers = json.loads((out / "report.json").read_text())
    inputs = Inputs(TABLES["standard"].rules, "standard", {}, SEED, ROUNDS, SHUFFLE_SHOES)
    one = json.loads(json.dumps(certify(inputs, InProcess())))
    assert deterministic_part(one) == deterministic_part(two_workers)


def test_the_report_is_signed_as_answers_are(run):
    _, out = run
    document = json.loads((out / "report.exchange.json").read_text())
    exchange = stored_exchange(document)
    assert exchange.response.body == (out / "report.json").read_bytes()
    keys = public_keys(json.loads((out / "jwks.json").read_text()))
    assert verify(exchange, keys).verified
    assert not verify(exchange.with_body(exchange.response.body.replace(b"true", b"fals")), keys).verified
    done = baccarat("verify-answer", str(out / "report.exchange.json"), "--jwks", str(out / "jwks.json"))
    assert done.returncode == 0, done.stdout + done.stderr


def test_recalled_rounds_are_dealt_again_by_the_command_and_by_post_v1_rounds(run, client, capsys):
    _, out = run
    recalled = json.loads((out / "report.json").read_text())["recall"]
    assert recalled[0]["shoe"] == 0
    for entry in recalled[:3]:
        assert entry["agrees_with_simulator"]
        served = client.post(entry["request"]["path"], json=entry["request"]["body"]).get_json()
        args = [arg if arg != "''" else "" for arg in entry["command"].split()][1:]
        assert main(args) == 0
        printed = json.loads(capsys.readouterr().out)
        assert printed == served
        assert served["seed"]["shoe_hash"] == entry["shoe_hash"]
        assert served["player"]["cards"] == entry["player"]
        assert served["banker"]["cards"] == entry["banker"]
        assert served["outcome"] == entry["outcome"]
        assert served["round"]["number"] == entry["round"]


def test_a_biased_shuffle_fails_the_run_and_names_the_test():
    inputs = Inputs(TABLES["standard"].rules, "standard", {}, SEED, 500, 320, shuffler=biased_shoes)
    report = certify(inputs, InProcess())
    assert not report["passed"]
    failed = {check["check"]: check["failures"] for check in report["checks"] if not check["passed"]}
    assert "cards_by_position" in failed["shuffle"]


def test_an_award_that_can_never_be_won_is_never_offered_nor_certified(tmp_path):
    """A table's rules are checked once, for every operation (check_rules): at
    one deck the standard table offers no Perfect Pair, which no round of the shoe
    can win, so its certification judges the bets it does offer; a rules file that
    offers the Perfect Pair there is refused before anything is dealt (exit 3)."""
    rules = tmp_path / "one-deck.json"
    rules.write_text(json.dumps({"table": "standard", "rules": {"decks": 1}}))
    run = ("--rounds", "300", "--seed", SEED, "--shuffle-shoes", "100", "--in-process")
    done = baccarat("certify", "--rules", str(rules), *run, "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["inputs"]["rules_overrides"] == {"decks": 1}
    assert "--rules '{\"decks\":1}'" in report["recall"][0]["command"]
    assert "perfect_pair" not in json.dumps(report["exact"])

    offered = {"decks": 1, "limits": {"perfect_pair": {"min": "1", "max": "10"}}}
    rules.write_text(json.dumps({"table": "standard", "rules": offered}))
    refused = baccarat("certify", "--rules", str(rules), *run, "--out", str(tmp_path / "refused"))
    assert refused.returncode == 3, refused.stdout + refused.stderr
    (error,) = json.loads(refused.stderr)["errors"]
    assert (error["pointer"], error["code"]) == ("/rules/limits/perfect_pair", "bet_cannot_win")


def test_a_bad_rules_file_is_a_problem_with_exit_code_3(tmp_path):
    rules = tmp_path / "bad.json"
    rules.write_text(json.dumps({"table": "standard", "rules": {"decks": 9}}))
    done = baccarat(
        "certify",
        "--rules",
        str(rules),
        "--rounds",
        "300",
        "--seed",
        SEED,
        "--in-process",
        "--out",
        str(tmp_path / "out"),
    )
    assert done.returncode == 3
    assert json.loads(done.stderr)["errors"][0]["pointer"] == "/rules/decks"


def _certify(tmp_path: Path, *args: str, out: Path | None = None) -> list[str]:
    return [
        "certify",
        "--rounds",
        "2000",
        "--seed",
        SEED,
        "--shuffle-shoes",
        "50",
        "--in-process",
        "--out",
        str(out or tmp_path / "out"),
        *args,
    ]


@pytest.mark.parametrize(
    ("rules", "title"),
    [
        (
            {"table": "standard", "rules": {"multipliers": "lightning"}},
            "A multiplier game cannot be certified",
        ),
        ({"table": "standard", "rules": {"peek": True}}, "Peek Baccarat cannot be certified"),
        ({"table": "standard", "peek": {}}, "Peek Baccarat cannot be certified"),
    ],
)
def test_a_game_the_kit_has_no_math_for_is_refused_with_exit_code_3(tmp_path, capsys, rules, title):
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(rules))
    assert main([*_certify(tmp_path), "--rules", str(path)]) == 3
    problem = json.loads(capsys.readouterr().err)
    assert problem["title"] == title
    assert "\n" not in problem["detail"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("table", "title"),
    [
        ("lightning", "A multiplier game cannot be certified"),
        ("golden_wealth", "A multiplier game cannot be certified"),
        ("prosperity_tree", "A multiplier game cannot be certified"),
        ("peek", "Peek Baccarat cannot be certified"),
    ],
)
def test_a_table_of_another_game_is_refused_with_exit_code_3_as_its_rules_are(tmp_path, capsys, table, title):
    assert main([*_certify(tmp_path), "--table", table]) == 3
    problem = json.loads(capsys.readouterr().err)
    assert problem["title"] == title
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("args", "pointer_or_title"),
    [
        (["--seed", ""], "/seed"),
        (["--seed", "s" * 257], "/seed"),
        (["--seed", "\ud800"], "/seed"),
        (["--rounds", "1500"], "Too few shoes to certify"),
        (["--shuffle-shoes", "24"], "Bad --shuffle-shoes"),
        (["--scheduler", "tcp://host"], "Bad --scheduler"),
        (["--scheduler", "http://127.0.0.1:80"], "Bad --scheduler"),
    ],
)
def test_input_the_service_refuses_is_refused_before_any_work(tmp_path, capsys, args, pointer_or_title):
    assert main([*_certify(tmp_path), *args]) == 3
    problem = json.loads(capsys.readouterr().err)
    if pointer_or_title.startswith("/"):
        assert problem["errors"][0]["pointer"] == pointer_or_title
    else:
        assert problem["title"] == pointer_or_title
    assert not (tmp_path / "out").exists()


def test_the_seed_rule_is_the_service_s(client, capsys, tmp_path):
    # POST /v1/rounds refuses the seed certify refuses, and takes the longest it takes.
    assert client.post("/v1/rounds", json={"seed": "s" * 257}).status_code == 422
    assert client.post("/v1/rounds", json={"seed": "s" * 256}).status_code == 200
    assert main([*_certify(tmp_path), "--seed", "s" * 256, "--rounds", "1"]) == 3
    assert json.loads(capsys.readouterr().err)["title"] == "Too few shoes to certify"


def test_an_out_folder_it_cannot_write_is_refused_before_the_run(tmp_path, capsys):
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    held = tmp_path / "held"
    held.mkdir()
    (held / "report.json").write_text("{}")
    for out, says in ((a_file, "is not a folder"), (a_file / "sub", "is a file"), (held, "already holds")):
        assert main(_certify(tmp_path, out=out)) == 3
        assert says in json.loads(capsys.readouterr().err)["detail"]
    assert (held / "report.json").read_text() == "{}"


def test_the_report_is_written_whole_or_not_at_all(tmp_path):
    out = tmp_path / "out"
    _write_all(out, {"report.json": b"{}", "report.html": b"<html>"})
    assert sorted(path.name for path in out.iterdir()) == ["report.html", "report.json"]
    second = tmp_path / "second"
    with pytest.raises(OSError, match="No such file"):
        _write_all(second, {"report.json": b"{}", "no-such-folder/report.html": b"<html>"})
    assert list(second.iterdir()) == []


def test_a_scheduler_that_does_not_answer_is_exit_code_4_in_one_line(tmp_path):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    done = baccarat(
        *[arg for arg in _certify(tmp_path) if arg != "--in-process"],
        "--scheduler",
        f"tcp://127.0.0.1:{port}",
    )
    assert done.returncode == 4, done.stderr
    assert done.stderr.startswith("baccarat certify: the cluster failed: ")
    assert f"tcp://127.0.0.1:{port}" in done.stderr
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("error", "line"),
    [
        (MemoryError(), "baccarat certify: the run cannot finish: out of memory\n"),
        (
            RuntimeError("a bug\nits second line"),
            "baccarat certify: the run cannot finish: RuntimeError: a bug\n",
        ),
    ],
)
def test_a_run_that_cannot_finish_is_one_line_and_exit_5_not_a_failed_check(
    error, line, tmp_path, monkeypatch, capsys
):
    from service.certification import report

    def crash(*args, **kwargs):
        raise error

    monkeypatch.setattr(report, "certify", crash)
    args = ["certify", "--in-process", "--rounds", "2000", "--seed", "s", "--out", str(tmp_path / "out")]
    assert main(args) == 5
    assert capsys.readouterr().err == line
    assert not (tmp_path / "out").exists()


def test_a_command_line_it_cannot_read_exits_2(tmp_path):
    done = baccarat("certify", "--rounds", "many", "--seed", "s", "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "--rounds: invalid int value" in done.stderr


def test_a_table_that_reshuffles_after_each_hand_is_certified_as_it_deals(tmp_path, client, capsys):
    """tie_9 deals each hand from its own shuffle, no burn: a run deals one round
    a shoe, from the top, its returns judged against the full shoe's exact
    figures (exactly its odds), and each recalled round is asked again of
    POST /v1/rounds without a round number, as that table takes it."""
    out = tmp_path / "out"
    args = ["certify", "--table", "tie_9", "--rounds", "300", "--seed", SEED, "--shuffle-shoes", "100"]
    assert main([*args, "--in-process", "--out", str(out)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    report = json.loads((out / "report.json").read_text())
    assert report["inputs"]["shoes"] == report["simulation"]["shoes"] == report["simulation"]["rounds"] == 300
    assert "no burn" in report["inputs"]["seed"]["how"]
    assert report["inputs"]["rules"]["dealing"] == "reshuffle_each_hand"
    for entry in (*report["recall"], *report["last_games"]):
        assert (entry["round"], entry["rounds_in_shoe"]) == (1, 1)
        assert entry["agrees_with_simulator"]
        served = client.post(entry["request"]["path"], json=entry["request"]["body"])
        assert served.status_code == 200, served.get_json()
        assert served.get_json()["player"]["cards"] == entry["player"]
    exact = {bet: figures["expected_value"]["fraction"] for bet, figures in report["exact"]["bets"].items()}
    odds = client.post("/v1/odds", json={"table": "tie_9"}).get_json()["bets"]
    assert exact == {bet: figures["exact"]["expected_value"] for bet, figures in odds.items()}
