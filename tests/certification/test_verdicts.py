"""A family of tests judged at 99% as a whole, and the p-values read together."""

from __future__ import annotations

from service.certification.verdicts import Result, holm, judge, judge_families, p_value_summary


def test_a_family_of_k_tests_fails_its_smallest_p_value_below_0_01_over_k():
    results = [Result(name, "", "", 0.0, p) for name, p in (("a", 0.004), ("b", 0.0049), ("c", 0.9))]
    judged = judge(results)
    assert [test["threshold"] for test in judged] == [0.01 / 3, 0.01 / 2, 0.01]
    assert [test["passed"] for test in judged] == [True, True, True]
    assert not judge([*results, Result("d", "", "", 0.0, 0.001)])[3]["passed"]


def test_uniform_p_values_pass_the_second_level_test_and_crowded_ones_do_not():
    uniform = p_value_summary([(i + 0.5) / 200 for i in range(200)])
    assert uniform["expected_below_alpha"] == 2.0
    assert uniform["below_alpha"] == 2
    assert uniform["uniformity"]["p_value"] > 0.5
    crowded = p_value_summary([0.001] * 20 + [0.5] * 20)
    assert crowded["below_alpha_p_value"] < 1e-6
    assert crowded["uniformity"]["p_value"] < 1e-6


def test_holm_judges_every_family_of_a_report_together():
    families = {
        "a": [Result("a1", "", "", 0.0, 0.001), Result("a2", "", "", 0.0, 0.5)],
        "b": [Result("b1", "", "", 0.0, 0.004)],
    }
    judged = judge_families(families)
    # 0.001 < 0.01/3 fails; then 0.004 < 0.01/2 fails; 0.5 >= 0.01 passes.
    assert [t["passed"] for t in judged["a"]] == [False, True]
    assert [t["threshold"] for t in judged["a"]] == [0.01 / 3, 0.01]
    assert judged["b"][0] == {**judged["b"][0], "passed": False, "threshold": 0.005}
    # Holm stops at the first p-value above its threshold: the larger ones all pass.
    assert holm([0.02, 0.003, 0.006]) == [(0.01, True), (0.01 / 3, False), (0.005, True)]
