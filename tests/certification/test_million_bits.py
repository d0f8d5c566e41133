"""The NIST tests that need 10⁶ bits: their sequences are consecutive shoes'
streams, their vectorised counts equal plain ones, their class probabilities
are a true source's, the service's stream passes and a bad one fails, and a
run says how many shoes they need."""

from __future__ import annotations

import numpy as np
import pytest

from service.baccarat.tables.rules import TABLES
from service.certification import bit_tests, million_bits
from service.certification.report import Inputs, certify
from service.certification.verdicts import judge
from service.certification.workers import InProcess


def plain_rank(matrix: np.ndarray) -> int:
    """Gaussian elimination over GF(2), one matrix, row by row."""
    rows = [int("".join(map(str, row)), 2) for row in matrix]
    rank = 0
    for bit in reversed(range(matrix.shape[1])):
        pivot = next((r for r in rows if r >> bit & 1), None)
        if pivot is None:
            continue
        rows = [r ^ pivot if r >> bit & 1 else r for r in rows if r is not pivot]
        rank += 1
    return rank


def plain_berlekamp_massey(bits: list[int]) -> int:
    """Berlekamp-Massey as the publication writes it (2.10.4), one sequence."""
    n = len(bits)
    c, b, length, last = [1] + [0] * n, [1] + [0] * n, 0, -1
    for i in range(n):
        d = bits[i]
        for j in range(1, length + 1):
            d ^= c[j] & bits[i - j]
        if d:
            previous = c[:]
            for j in range(n - i + last):
                c[j + i - last] ^= b[j]
            if 2 * length <= i:
                length, last, b = i + 1 - length, i, previous
    return length


def test_ranks_equal_plain_elimination():
    cells = np.random.default_rng(5).integers(0, 2, (200, 32, 32))
    cells[0] = 0
    cells[1] = np.eye(32, dtype=int)
    cells[2, 7] = cells[2, 3]
    ranks = million_bits.gf2_ranks(cells)
    assert ranks.tolist() == [plain_rank(matrix) for matrix in cells]
    assert ranks[:2].tolist() == [0, 32]
    assert ranks[2] < 32


def test_linear_complexities_equal_the_publication_s_algorithm():
    blocks = np.random.default_rng(6).integers(0, 2, (150, 500))
    blocks[0] = 0
    blocks[1] = 0
    blocks[1, -1] = 1
    blocks[2] = np.tile([1, 0, 0], 167)[:500]
    found = million_bits.linear_complexities(blocks)
    assert found.tolist() == [plain_berlekamp_massey(row.tolist()) for row in blocks]
    assert found[:3].tolist() == [0, 500, 3]


def test_a_sequence_is_76_shoes_streams_in_shoe_order():
    sequence = million_bits.long_sequences("s", 1, 1)
    assert sequence.shape == (1, 1_000_000)
    shoes = bit_tests.sequences("s", 76, 76).ravel()
    np.testing.assert_array_equal(sequence[0], shoes[:1_000_000])
    assert million_bits.SHOES_PER_SEQUENCE == 76


@pytest.mark.parametrize(("shoes", "sequences"), [(75, 0), (76, 1), (151, 1), (152, 2), (100_000, 1_315)])
def test_sequences_for_shoes(shoes, sequences):
    assert million_bits.sequences_for(shoes) == sequences


def test_the_class_probabilities_are_a_true_source_s():
    bits = np.unpackbits(np.frombuffer(np.random.default_rng(8).bytes(6 * 125_000), np.uint8)).reshape(6, -1)
    p = million_bits.p_values(bits)
    assert set(p) == set(million_bits.TESTS)
    for name, values in p.items():
        applicable = values[~np.isnan(values)]
        assert ((applicable >= 0) & (applicable <= 1)).all(), name
    assert million_bits.excursion_probabilities(4).sum() == pytest.approx(1)
    assert million_bits.LINEAR_PROBABILITIES.sum() == pytest.approx(1, abs=1e-5)
    assert million_bits.OVERLAPPING_PROBABILITIES.sum() == pytest.approx(1, abs=1e-5)


def test_the_service_stream_passes_and_a_periodic_source_fails():
    tally = million_bits.merge([million_bits.tally_long("lab", 2, 2), million_bits.tally_long("lab", 0, 2)])
    assert tally.ranges == ((0, 4),)
    judged = judge(bit_tests.second_level([t for t in million_bits.judge_long(tally) if t["sequences"]]))
    assert all(test["passed"] for test in judged)
    # A source of period 1,000 bits: its 7-bit blocks recur at the period, and two blocks of 500 bits
    # make one period, so a block's linear complexity is off its random spread: both tests see it.
    period = np.random.default_rng(9).integers(0, 2, 1_000)
    periodic = np.tile(period, (4, 1_000))
    p = million_bits.p_values(periodic)
    assert (p["universal"] < 0.01).all()
    assert (p["linear_complexity"] < 0.01).all()


def test_a_run_says_the_long_tests_need_76_shoes_or_runs_them():
    rules = TABLES["standard"].rules
    few = certify(Inputs(rules, "standard", {}, "short", 2_000, 40, dieharder=None), InProcess())
    assert few["bit_stream"]["long_sequences"]["sequences"] == 0
    assert few["bit_stream"]["not_run"]["linear_complexity"] == (
        "not run: needs 76 shoes tested (one 10^6-bit sequence)"
    )
    some = certify(Inputs(rules, "standard", {}, "long", 2_000, 152, dieharder=None), InProcess())
    names = [test["name"] for test in some["bit_stream"]["tests"]]
    assert {"rank", "universal", "linear_complexity", "overlapping_template"} <= set(names)
    rank = next(test for test in some["bit_stream"]["tests"] if test["name"] == "rank")
    assert rank["sequences"] == 2
    assert rank["bits_per_sequence"] == 1_000_000
    assert some["family_wise"]["tests"] > few["family_wise"]["tests"]
    # The random excursions ran, their p-values valid (Monte Carlo, exact): nothing is left out of the 1%.
    tests = some["bit_stream"]["tests"]
    excursions = [test for test in tests if test["name"].startswith("random_excursions")]
    assert len(excursions) == 26
    assert all(test["sequences"] == 1 and test["not_applicable"] == 1 for test in excursions)
    assert all("seeded draws" in test["section"] for test in excursions[:8])
    assert all("p-value exact" in test["section"] for test in excursions[8:])
    assert set(some["family_wise"]) == {"alpha", "method", "tests"}
