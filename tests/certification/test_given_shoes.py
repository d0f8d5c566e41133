"""Shoes given as JSON Lines: read exactly, every bad line named before any
work, and dealt as the simulator deals the service's own shoes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from service.baccarat.counting import batch
from service.baccarat.odds.simulation import returns, tally_shoes
from service.baccarat.rulebook.cards import DECK
from service.baccarat.tables.rules import TABLES
from service.certification import given_shoes
from service.certification.agreement import shoes_for
from service.certification.given_shoes import (
    BYTES_PER_SHOE,
    MAX_ERRORS,
    MAX_LINE_BYTES,
    MAX_SHOES,
    read_shoes,
    tally_given,
)
from service.cli import main

RULES = TABLES["standard"].rules


def lines_of(shoes: np.ndarray) -> list[bytes]:
    return [json.dumps([DECK[card].code for card in shoe]).encode() + b"\n" for shoe in shoes]


def test_the_service_s_shoes_read_back_as_they_were_dealt():
    shoes = batch.seeded_shoes("given", 0, 4, 8)
    given, errors = read_shoes([*lines_of(shoes), b"\n"], 8)
    assert errors == []
    assert given is not None
    assert np.array_equal(given.shoes, shoes)
    assert np.array_equal(given("ignored", 1, 2, 8), shoes[1:3])
    assert len(given.sha256) == 64


def test_each_bad_line_is_named_by_line_and_field():
    good = lines_of(batch.seeded_shoes("given", 0, 1, 1))[0]
    codes = json.loads(good)
    bad_code = json.dumps([*codes[:17], "XX", *codes[18:]]).encode()
    twice = json.dumps([*codes[:51], codes[0]]).encode()
    lines = [good, b"[1, 2", b'{"cards": []}', json.dumps(codes[:51]).encode(), bad_code, twice, good]
    given, errors = read_shoes([*lines, b"[" * 100_000, b"\xff"], 1)
    assert given is None
    assert [(e["line"], e["pointer"]) for e in errors] == [
        (2, ""),
        (3, ""),
        (4, ""),
        (5, "/17"),
        (6, "/51"),
        (8, ""),
        (9, ""),
    ]
    assert "not JSON" in errors[0]["detail"]
    assert errors[2]["detail"] == "a shoe of 1 decks holds 52 cards, not 51"
    assert errors[3]["detail"] == "'XX' is not a card code"
    assert errors[4]["detail"] == f"{codes[0].upper()} more often than the 1 the shoe holds"


def test_a_bad_file_stops_at_the_most_errors_reported():
    _, errors = read_shoes([b"[]"] * (3 * MAX_ERRORS), 8)
    assert len(errors) == MAX_ERRORS


def test_given_shoes_are_dealt_as_the_simulator_deals_seeded_ones():
    given, _ = read_shoes(lines_of(batch.seeded_shoes("given", 0, 30, 8)), 8)
    assert given is not None
    seeded = tally_shoes(RULES, "given", 0, 30)
    dealt = tally_given(RULES, given, 0, 20) + tally_given(RULES, given, 20, 10)
    assert returns(dealt, RULES) == returns(seeded, RULES)
    assert dealt.by_signature == seeded.by_signature


def test_certify_shoes_round_trips_the_service_s_shoes_to_the_same_figures(tmp_path: Path, capsys):
    count = shoes_for(2_100, RULES)
    shoes = batch.seeded_shoes("round-trip", 0, count, 8)
    path = tmp_path / "shoes.jsonl"
    path.write_bytes(b"".join(lines_of(shoes)))
    common = ["--table", "standard", "--in-process"]
    seeded_args = ["--seed", "round-trip", "--rounds", "2100", "--shuffle-shoes", str(count)]
    assert main(["certify", *common, *seeded_args, "--out", str(tmp_path / "seeded")]) == 0
    # No --in-process: a file's shoes are counted in this process all the same.
    assert (
        main(["certify", "--table", "standard", "--shoes", str(path), "--out", str(tmp_path / "given")]) == 0
    )
    capsys.readouterr()
    seeded, given = (
        json.loads((tmp_path / name / "report.json").read_text()) for name in ("seeded", "given")
    )
    assert (
        seeded["inputs"]["shoes"]
        == given["inputs"]["shoes"]
        == given["inputs"]["shoes_file"]["shoes"]
        == count
    )
    for part in ("returns", "line_counts"):
        assert [(t["statistic"], t["p_value"]) for t in seeded["simulation"][part]] == [
            (t["statistic"], t["p_value"]) for t in given["simulation"][part]
        ]
    assert seeded["shuffle"]["positions"] == given["shuffle"]["positions"]
    assert [t["p_value"] for t in seeded["shuffle"]["tests"]] == [
        t["p_value"] for t in given["shuffle"]["tests"]
    ]
    assert [c["check"] for c in given["checks"]] == ["exact_math", "returns", "line_counts", "shuffle"]
    # The family-wise statement names the families run: no bit stream for given shoes.
    assert "bit stream" in seeded["family_wise"]["method"]
    assert "(returns, line counts, shuffle)" in given["family_wise"]["method"]
    assert "not_run" in given["bit_stream"]
    assert given["run"]["workers"] == "in process"
    assert "Not run: the shoes were given" in (tmp_path / "given" / "report.html").read_text()


def test_a_bad_shoes_file_is_refused_before_any_work(tmp_path: Path, capsys):
    path = tmp_path / "shoes.jsonl"
    path.write_bytes(b"".join(lines_of(batch.seeded_shoes("bad", 0, 30, 8))) + b'["AS"]\n')
    out = tmp_path / "out"
    assert main(["certify", "--shoes", str(path), "--in-process", "--out", str(out)]) == 3
    problem = json.loads(capsys.readouterr().err)
    assert problem["title"] == "Bad shoes file"
    assert problem["errors"] == [
        {"line": 31, "pointer": "", "detail": "a shoe of 8 decks holds 416 cards, not 1"}
    ]
    assert "line 31: a shoe of 8 decks holds 416 cards, not 1" in problem["detail"]
    assert not out.exists()
    few = tmp_path / "few.jsonl"
    few.write_bytes(b"".join(lines_of(batch.seeded_shoes("few", 0, 3, 8))))
    assert main(["certify", "--shoes", str(few), "--in-process", "--out", str(out)]) == 3
    assert json.loads(capsys.readouterr().err)["title"] == "Too few shoes to certify"
    assert main(["certify", "--shoes", str(few), "--rounds", "5", "--in-process", "--out", str(out)]) == 3
    assert "no --rounds" in json.loads(capsys.readouterr().err)["detail"]
    assert main(["certify", "--shoes", str(few), "--scheduler", "tcp://127.0.0.1:1", "--out", str(out)]) == 3
    assert "--scheduler" in json.loads(capsys.readouterr().err)["detail"]


def test_a_file_of_more_shoes_than_a_run_accepts_is_refused(tmp_path: Path, capsys, monkeypatch):
    # The most a file may hold is the largest file run end to end (docs/certification.md, "Memory");
    # one shoe more is refused at its line, before any work, as any bad line is.
    assert MAX_SHOES == 1_000_000
    monkeypatch.setattr(given_shoes, "MAX_SHOES", 30)
    path = tmp_path / "shoes.jsonl"
    path.write_bytes(b"".join(lines_of(batch.seeded_shoes("many", 0, 31, 8))))
    out = tmp_path / "out"
    assert main(["certify", "--shoes", str(path), "--in-process", "--out", str(out)]) == 3
    problem = json.loads(capsys.readouterr().err)
    assert problem["title"] == "Bad shoes file"
    assert problem["errors"] == [{"line": 31, "pointer": "", "detail": "a file holds at most 30 shoes"}]
    assert not out.exists()


def test_a_line_without_end_is_refused_without_reading_on(tmp_path: Path, capsys):
    # /dev/zero is one line that never ends: the reading stops at the longest line read.
    out = tmp_path / "out"
    assert main(["certify", "--shoes", "/dev/zero", "--out", str(out)]) == 3
    problem = json.loads(capsys.readouterr().err)
    assert problem["errors"] == [
        {"line": 1, "pointer": "", "detail": f"longer than {MAX_LINE_BYTES:,} bytes: not read further"}
    ]
    assert not out.exists()


def test_a_line_s_problem_is_said_in_the_file_s_terms():
    _, errors = read_shoes([b"\n", b"\n", b"\n", b"[1, 2 3\n", b"[" + b"7" * 5_000 + b"]\n"], 8)
    assert [error["line"] for error in errors] == [4, 5]
    # Line 4 of the file: not the JSON parser's "line 1 column 6" of its own text.
    assert errors[0]["detail"] == "not JSON: Expecting ',' delimiter at character 7 of the line"
    # Not Python's advice about sys.set_int_max_str_digits().
    assert errors[1]["detail"] == "not JSON: a number of more digits than can be read"


def test_shoes_are_read_in_bounded_memory(tmp_path: Path):
    import tracemalloc

    path = tmp_path / "shoes.jsonl"
    shoes = batch.seeded_shoes("memory", 0, 400, 8)
    path.write_bytes(b"".join(lines_of(shoes)))
    tracemalloc.start()
    try:
        with path.open("rb") as stream:
            given, errors = read_shoes(stream, 8)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert errors == []
    assert given is not None
    assert np.array_equal(given.shoes, shoes)
    # The shoes are mapped from a temporary file, a byte a card: the process
    # holds a line and a shoe at a time (400 shoes held as rows took 1.5 MB).
    assert isinstance(given.shoes, np.memmap)
    assert peak < 400 * BYTES_PER_SHOE


def test_a_file_of_one_shoe_is_named_in_the_singular(tmp_path: Path, capsys):
    path = tmp_path / "one.jsonl"
    path.write_bytes(b"".join(lines_of(batch.seeded_shoes("one", 0, 1, 8))))
    assert main(["certify", "--shoes", str(path), "--out", str(tmp_path / "out")]) == 3
    assert f"{path} holds 1 shoe at this table;" in json.loads(capsys.readouterr().err)["detail"]


def test_the_report_s_time_covers_reading_the_file(tmp_path: Path, monkeypatch, capsys):
    import time

    from service.certification import given_shoes

    path = tmp_path / "shoes.jsonl"
    path.write_bytes(b"\n" + b"".join(lines_of(batch.seeded_shoes("timed", 0, 25, 8))))
    reading = given_shoes._write_shoes

    def slow(*args, **kwargs):
        time.sleep(0.5)
        return reading(*args, **kwargs)

    monkeypatch.setattr(given_shoes, "_write_shoes", slow)
    assert main(["certify", "--shoes", str(path), "--out", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["run"]["seconds_by_stage"]["inputs"] >= 0.5
    assert report["run"]["seconds"] >= sum(report["run"]["seconds_by_stage"].values()) - 0.01
    # Shoe i is the file's (i + 1)-th shoe line: a blank line is no shoe.
    assert "blank lines are skipped" in report["inputs"]["shoes_file"]["how"]


def test_copies_of_one_shoe_fail_every_return_and_the_report_is_strict_json(tmp_path: Path, capsys):
    path = tmp_path / "copies.jsonl"
    path.write_bytes(lines_of(batch.seeded_shoes("copies", 0, 1, 8))[0] * 25)
    out = tmp_path / "out"
    assert main(["certify", "--shoes", str(path), "--out", str(out)]) == 1
    assert "FAIL  returns" in capsys.readouterr().out

    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    report = json.loads((out / "report.json").read_bytes(), parse_constant=refuse)
    # No spread over the shoes, and no bet's return is its exact value: each fails, p-value 0.
    assert {t["p_value"] for t in report["simulation"]["returns"]} == {0.0}
    assert not any(t["passed"] for t in report["simulation"]["returns"])
    assert {t["statistic"] for t in report["simulation"]["returns"]} == {None}


def test_at_a_table_that_reshuffles_after_each_hand_each_given_shoe_deals_one_round(tmp_path: Path, capsys):
    """Each line is a shuffle, and the table deals one hand from each, from its
    top with no burn: the given shoes give the seeded run's rounds exactly."""
    each_hand = TABLES["tie_9"].rules
    shoes = batch.seeded_shoes("each-hand", 0, 30, 8)
    given, _ = read_shoes(lines_of(shoes), 8)
    assert given is not None
    dealt = tally_given(each_hand, given, 0, 30)
    assert (dealt.shoes, dealt.rounds) == (30, 30)
    assert dealt.by_signature == tally_shoes(each_hand, "each-hand", 0, 30).by_signature
    path = tmp_path / "shoes.jsonl"
    path.write_bytes(b"".join(lines_of(shoes)))
    assert main(["certify", "--table", "tie_9", "--shoes", str(path), "--out", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["simulation"]["rounds"] == report["inputs"]["shoes_file"]["shoes"] == 30
    assert "one round dealt from the top with no burn" in report["inputs"]["shoes_file"]["how"]
