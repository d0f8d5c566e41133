"""dieharder on the shuffle's bit stream: a fair stream passes the selection,
a bad one fails it, a short one is not run (never rewound), its output is
parsed as recorded, and a machine without it says so and still certifies."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from service.baccarat.shoes.shuffle import SeedInputs, byte_blocks
from service.baccarat.tables.rules import TABLES
from service.certification import dieharder
from service.certification.dieharder import SHOE_BYTES, TESTS, DieharderTest, parse, run_dieharder
from service.certification.page import page
from service.certification.report import Inputs, certify
from service.certification.workers import InProcess
from tests import tools

RECORDED = Path(__file__).with_name("dieharder_output.txt")
#: Shoes whose stream holds one p-value of every test of the selection.
ENOUGH = max(dieharder.shoes_needed(test) for test in TESTS)


@pytest.fixture(scope="module")
def program() -> str:
    return tools.dieharder()


def test_the_recorded_output_is_read_line_by_line():
    found = parse(RECORDED.read_text())
    assert [(f["name"], f["p_value"], f["assessment"]) for f in found] == [
        ("diehard_runs", 0.34487726, "PASSED"),
        ("diehard_runs", 0.25481671, "PASSED"),
        ("diehard_birthdays", 0.0, "FAILED"),
    ]
    assert all(f["psamples"] == 1 and f["ntuple"] == 0 for f in found)
    assert [f["tsamples"] for f in found] == [100_000, 100_000, 100]


@pytest.mark.parametrize(
    ("p_value", "verdict"),
    [
        (0.5, "PASSED"),
        (0.005, "PASSED"),
        (0.0049, "WEAK"),
        (0.9951, "WEAK"),
        (9e-7, "FAILED"),
        (1.0, "FAILED"),
    ],
)
def test_the_assessment_is_dieharders(p_value, verdict):
    assert dieharder.assessment(p_value) == verdict


def test_the_service_stream_passes_every_test_of_the_selection(program):
    section = run_dieharder("lab-dieharder", ENOUGH, program=program)
    assert [test["name"] for test in section["tests"]] == [test.name for test in TESTS]
    assert all(test["psamples"] == 1 and "not_run" not in test for test in section["tests"])
    # A fair stream is FAILED at most 2 x 10^-6 a p-value; WEAK about 1 in 100.
    assert section["failed"] == []
    assert section["passed"]
    for test in section["tests"]:
        assert test["assessment"] == dieharder.assessment(min(test["p_values"], key=lambda p: min(p, 1 - p)))
    assert section["stream"] == {
        "shoes": ENOUGH,
        "bytes": ENOUGH * SHOE_BYTES,
        "how": "the first 52 HMAC-SHA256 blocks each shoe's shuffle reads, shoe 0 first",
    }


def test_the_stream_is_the_shuffles_blocks_in_shoe_order():
    blocks = byte_blocks(SeedInputs("s", "", 1))
    second = b"".join(next(blocks) for _ in range(52))
    assert dieharder.stream("s", 0, 3)[SHOE_BYTES : 2 * SHOE_BYTES] == second
    assert dieharder.stream("s", 1, 1) == second


def biased(seed: str, shoes: int) -> bytes:
    """Bits with ones at 0.505, not 0.5."""
    bits = np.random.default_rng(7).random(shoes * SHOE_BYTES * 8) < 0.505
    return np.packbits(bits).tobytes()


def repeating(seed: str, shoes: int) -> bytes:
    """A byte stream of period 256: 0, 7, 14, ..."""
    return bytes((7 * index) & 0xFF for index in range(shoes * SHOE_BYTES))


@pytest.mark.parametrize(("stream", "fails"), [(biased, {"sts_monobit"}), (repeating, {"diehard_birthdays"})])
def test_a_bad_stream_fails(program, stream, fails):
    section = run_dieharder("any", ENOUGH, stream, program=program)
    assert fails <= set(section["failed"])
    assert not section["passed"]


def test_a_run_too_short_says_how_many_shoes_it_needs(program):
    section = run_dieharder("s", 1_000, program=program)
    fewest = min(dieharder.shoes_needed(test) for test in TESTS)
    assert section["not_run"] == f"needs {fewest:,} shoes"
    assert section["tests"] == []
    assert section["passed"]
    some = run_dieharder("s", 3_000, program=program)
    skipped = {test["name"]: test["not_run"] for test in some["tests"] if "not_run" in test}
    assert skipped == {
        "diehard_rank_32x32": "needs 5,514 shoes",
        "diehard_craps": "needs 5,672 shoes",
    }


def test_a_stream_that_runs_out_is_reported_not_rewound(program):
    # One shoe's bytes where a birthdays p-value needs 4 MB: dieharder meets EOF.
    short = DieharderTest(0, "diehard_birthdays", SHOE_BYTES)
    section = run_dieharder("s", 1, program=program, tests=[short])
    assert section["tests"][0]["not_run"].startswith("the stream ran out")
    assert "assessment" not in section["tests"][0]


def test_without_dieharder_the_report_says_so(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert dieharder.executable() is None
    assert run_dieharder("s", 10_000) == {"not_run": "dieharder not installed"}
    inputs = Inputs(TABLES["standard"].rules, "standard", {}, "absent", 2_000, 25)
    assert inputs.dieharder is None
    report = certify(inputs, InProcess())
    assert report["dieharder"] == {"not_run": "dieharder not installed"}
    assert "dieharder" not in [check["check"] for check in report["checks"]]
    assert "Not run: dieharder not installed." in page(report)


def test_a_run_with_dieharder_judges_it_as_a_check(program):
    inputs = Inputs(
        TABLES["standard"].rules, "standard", {}, "lab-dieharder", 2_000, ENOUGH, dieharder=program
    )
    report = certify(inputs, InProcess())
    assert report["dieharder"]["stream"]["shoes"] == ENOUGH
    check = next(check for check in report["checks"] if check["check"] == "dieharder")
    assert check == {
        "check": "dieharder",
        "what": "no dieharder test FAILED",
        "passed": True,
        "failures": [],
    }
    assert "diehard_birthdays" in page(report)
