"""report.json: what a run names, and what it leaves out of its counts."""

from __future__ import annotations

import json

from service import __version__
from service.baccarat.tables.rules import TABLES
from service.certification import bit_tests
from service.certification.report import MAX_BIT_SEQUENCES, Inputs, certify, deterministic_part, report_bytes
from service.certification.workers import InProcess
from service.provenance.build import engine


def test_a_run_names_its_engine_rules_seed_and_shoes_and_is_json():
    inputs = Inputs(TABLES["ez"].rules, "ez", {}, "r", 2_000, 100)
    report = certify(inputs, InProcess())
    assert report["engine"] == {
        "name": "baccarat-service",
        "version": __version__,
        "digest": engine()["digest"],
    }
    assert report["inputs"]["rules_id"] == TABLES["ez"].rules.id
    assert report["inputs"]["seed"]["nonces"] == [0, inputs.shoes - 1]
    assert report["simulation"]["shoes"] == inputs.shoes
    assert set(report) - set(deterministic_part(report)) == {"run"}
    assert [(game["games_ago"], game["shoe"]) for game in report["last_games"]][:1] == [(0, inputs.shoes - 1)]
    assert len(report["last_games"]) == 10
    # The first-level summary reads only the p-values that are uniform for a true source.
    first_level = report["bit_stream"]["first_level_p_values"]
    assert first_level["tests"] == ["frequency", "spectral"]
    assert first_level["count"] == 2 * report["bit_stream"]["sequences"]
    # SP 800-22's proportion_minimum is printed for reference; the verdicts say what they follow.
    assert "not a verdict" in report["bit_stream"]["verdicts"]
    assert json.loads(report_bytes(report)) == json.loads(json.dumps(report))
    # Every statistical test is judged in one family, at 99% as a whole.
    family = report["family_wise"]
    assert family["alpha"] == 0.01
    assert "Holm" in family["method"]
    simulation = report["simulation"]
    randomised = sum(1 for _, is_randomised in bit_tests.TESTS.values() if is_randomised)
    assert family["tests"] == (
        len(simulation["returns"])
        + len(simulation["line_counts"])
        + len(report["shuffle"]["tests"])
        + len(bit_tests.TESTS)
        + randomised
        # The tests of 10^6 bits judged: one 10^6-bit sequence of 76 of the 100 shoes' streams.
        + sum(1 for test in report["bit_stream"]["tests"] if test["bits_per_sequence"] == 1_000_000)
    )
    assert report["bit_stream"]["long_sequences"]["sequences"] == 1
    thresholds = sorted(t["threshold"] for t in [*simulation["returns"], *report["shuffle"]["tests"]])
    assert thresholds[0] >= 0.01 / family["tests"]


def test_the_bit_stream_reads_the_first_shoes_tested_up_to_its_most():
    rules = TABLES["standard"].rules
    assert Inputs(rules, "standard", {}, "r", 2_000, 300).bit_sequences == 300
    assert (
        Inputs(rules, "standard", {}, "r", 2_000, 10 * MAX_BIT_SEQUENCES).bit_sequences == MAX_BIT_SEQUENCES
    )


def strict_loads(body: bytes) -> object:
    """JSON as a strict parser (JavaScript's JSON.parse) reads it: no NaN, no Infinity."""

    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(body, parse_constant=refuse)


def test_report_json_is_strict_json_when_a_statistic_is_infinite():
    import numpy as np

    from service.baccarat.counting import batch
    from service.certification.given_shoes import GivenShoes

    rules = TABLES["standard"].rules
    copies = np.repeat(batch.seeded_shoes("one-shoe", 0, 1, 8), 25, axis=0).astype(np.uint8)
    given = GivenShoes(copies, "0" * 64)
    report = certify(Inputs(rules, "standard", {}, "", 0, given=given), InProcess())
    assert not report["passed"]
    parsed = strict_loads(report_bytes(report))
    assert isinstance(parsed, dict)
    # A figure with no spread away from its exact value: statistic written null, p-value 0.
    banker = next(t for t in parsed["simulation"]["returns"] if t["name"] == "banker")
    assert banker["statistic"] is None
    assert banker["p_value"] == 0.0
    assert not banker["passed"]


def test_dieharder_s_failed_is_stated_outside_the_family():
    from service.certification.report import _outside_family

    assert _outside_family([{"check": "shuffle"}]) == {}
    stated = _outside_family([{"check": "shuffle"}, {"check": "dieharder"}])["outside_family"]
    assert "11 p-values" in stated
    assert "at most 1.0022% in all" in stated
