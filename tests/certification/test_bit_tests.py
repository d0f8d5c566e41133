"""The NIST SP 800-22 tests give the publication's own worked examples, and
the service's stream passes them as SP 800-22 section 4.2 judges them."""

from __future__ import annotations

import numpy as np
import pytest

from service.baccarat.shoes.shuffle import SeedInputs, byte_blocks
from service.certification import bit_tests

#: The 100-bit epsilon of SP 800-22's examples (the first digits of e in binary).
EPSILON = (
    "1100100100001111110110101010001000100001011010001100001000110100110001001100011001100010100010111000"
)


def bits(text: str) -> np.ndarray:
    return np.array([[int(bit) for bit in text]])


@pytest.mark.parametrize(
    ("test", "sequence", "expected"),
    [
        (bit_tests.frequency, "1011010101", 0.527089),
        (bit_tests.frequency, EPSILON, 0.109599),
        (lambda b: bit_tests.block_frequency(b, 3), "0110011010", 0.801252),
        (lambda b: bit_tests.block_frequency(b, 10), EPSILON, 0.706438),
        (bit_tests.runs, "1001101011", 0.147232),
        (bit_tests.runs, EPSILON, 0.500798),
        (bit_tests.spectral, EPSILON, 0.646355),
        (lambda b: bit_tests.serial(b, 3)[0], "0011011101", 0.808792),
        (lambda b: bit_tests.serial(b, 3)[1], "0011011101", 0.670320),
        (lambda b: bit_tests.approximate_entropy(b, 3), "0100110101", 0.261961),
        (bit_tests.cumulative_sums, "1011010111", 0.4116588),
        (bit_tests.cumulative_sums, EPSILON, 0.219194),
        (lambda b: bit_tests.cumulative_sums(b, backward=True), EPSILON, 0.114866),
    ],
)
def test_the_publication_s_examples(test, sequence, expected):
    assert float(test(bits(sequence))[0]) == pytest.approx(expected, abs=1e-6)


def test_a_sequence_is_the_stream_the_shuffle_of_its_shoe_reads():
    stream = byte_blocks(SeedInputs("s", "", 5))
    first = next(stream)
    row = bit_tests.sequences("s", 5, 1)[0]
    assert row.size == 256 * bit_tests.BLOCKS
    assert np.array_equal(row[:256], np.unpackbits(np.frombuffer(first, dtype=np.uint8)))


def test_the_service_s_stream_passes_and_a_constant_one_does_not():
    tally = bit_tests.tally_bits("certification", 0, 120)
    judged = bit_tests.judge_bits(tally)
    assert {test["name"] for test in judged} == set(bit_tests.TESTS)
    assert all(test["passed"] for test in judged), judged
    zeros = np.zeros((120, 13_312), dtype=np.int64)
    assert (bit_tests.frequency(zeros) < 0.01).all()
    assert (bit_tests.runs(zeros) < 0.01).all()


def test_tallies_add_up_in_shoe_order():
    whole = bit_tests.tally_bits("s", 0, 6)
    parts = bit_tests.tally_bits("s", 3, 3) + bit_tests.tally_bits("s", 0, 3)
    assert parts.ranges == whole.ranges == ((0, 6),)
    for name in bit_tests.TESTS:
        assert np.array_equal(parts.p_values[name], whole.p_values[name])
