"""The NIST SP 800-22 tests give the publication's own worked examples, the
corrected spectral test and the randomised p-values are what a true random
source gives (numpy's generator), and the service's stream passes them as
SP 800-22 section 4.2 judges them."""

from __future__ import annotations

import itertools
from math import sqrt

import numpy as np
import pytest
from scipy import stats

from service.baccarat.shoes.shuffle import SeedInputs, byte_blocks
from service.certification import bit_tests, million_bits
from service.certification.verdicts import judge

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
        (lambda b: bit_tests.spectral(b, published=True), EPSILON, 0.646355),
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


def test_the_spectral_count_has_iwasaki_s_variance_not_the_publication_s():
    rng = np.random.default_rng(41)
    below = np.concatenate([bit_tests.spectral_below(rng.integers(0, 2, (2_000, 13_312))) for _ in range(3)])
    # 6,000 sequences: the sample variance lies within about 3.7% (2 sigma) of the true one.
    assert below.var(ddof=1) == pytest.approx(bit_tests.spectral_variance(13_312), rel=0.055)
    assert below.mean() == pytest.approx(0.95 * 13_312 / 2, abs=0.6)
    # The publication's is 5.2% smaller: 2.8 of its own sigma below what was seen.
    assert below.var(ddof=1) > bit_tests.spectral_variance(13_312, published=True) * 1.005


def test_randomised_p_values_are_uniform_where_the_classical_ones_are_not():
    rng = np.random.default_rng(7)
    bits = rng.integers(0, 2, (3_000, 2_048))
    draws = rng.random(3_000)
    for test in (bit_tests.frequency, bit_tests.spectral):
        classical, randomised = test(bits), test(bits, draws)
        assert len(np.unique(classical)) < 200  # a few values: integer counts
        assert len(np.unique(randomised)) == 3_000
        assert stats.kstest(randomised, "uniform").pvalue > 0.001
    # The exact frequency p-value puts the classical one between its randomised bounds.
    low, high = bit_tests.frequency(bits, np.zeros(3_000)), bit_tests.frequency(bits, np.ones(3_000))
    assert ((low <= bit_tests.frequency(bits) + 0.01) & (bit_tests.frequency(bits) <= high + 0.01)).all()


def test_draws_depend_on_the_test_the_nonce_and_the_seed_only():
    draws = bit_tests.uniforms("s", 0, 4, "spectral")
    assert np.array_equal(draws[2:], bit_tests.uniforms("s", 2, 2, "spectral"))
    assert not np.array_equal(draws, bit_tests.uniforms("s", 0, 4, "frequency"))
    assert not np.array_equal(draws, bit_tests.uniforms("t", 0, 4, "spectral"))
    assert ((draws >= 0) & (draws < 1)).all()


def test_shorter_patterns_are_the_longer_ones_summed():
    rng = np.random.default_rng(3)
    bits = rng.integers(0, 2, (4, 300))
    counts = bit_tests.pattern_counts(bits, 6)
    for size in range(1, 6):
        assert np.array_equal(counts[size], bit_tests.pattern_counts(bits, size)[size])
    assert (counts[0] == 300).all()


def test_a_sequence_is_the_stream_the_shuffle_of_its_shoe_reads():
    stream = byte_blocks(SeedInputs("s", "", 5))
    first = next(stream)
    row = bit_tests.sequences("s", 5, 1)[0]
    assert row.size == 256 * bit_tests.BLOCKS
    assert np.array_equal(row[:256], np.unpackbits(np.frombuffer(first, dtype=np.uint8)))


def test_the_service_s_stream_passes_and_a_constant_one_does_not():
    tally = bit_tests.tally_bits("certification", 0, 120)
    found = bit_tests.judge_bits(tally)
    assert {test["name"] for test in found} == set(bit_tests.TESTS)
    judged = judge(bit_tests.second_level(found))
    assert len(judged) == len(bit_tests.TESTS) + 2  # uniformity of the two randomised tests only
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


def test_the_corrected_tests_still_fail_a_biased_and_a_periodic_source():
    rng = np.random.default_rng(11)
    n, m = 13_312, 200
    biased = (rng.random((m, n)) < 0.52).astype(np.int64)
    periodic = (rng.random((m, n)) < 0.5 + 0.08 * np.sin(2 * np.pi * np.arange(n) / 64)).astype(np.int64)
    for bits, test in ((biased, "frequency"), (periodic, "spectral")):
        p_values = bit_tests.p_values(bits, "bad", 0)
        tally = bit_tests.BitTally("bad", ((0, m),), p_values)
        failed = {
            t["name"] for t in judge(bit_tests.second_level(bit_tests.judge_bits(tally))) if not t["passed"]
        }
        assert f"{test}_proportion" in failed


def test_pieces_merge_in_one_step_to_the_whole():
    whole = bit_tests.tally_bits("s", 0, 9)
    merged = bit_tests.merge([bit_tests.tally_bits("s", first, 3) for first in (6, 0, 3)])
    assert merged.ranges == whole.ranges
    for name in bit_tests.TESTS:
        assert np.array_equal(merged.p_values[name], whole.p_values[name])


def one(text: str) -> np.ndarray:
    return np.array([[int(bit) for bit in text]], dtype=np.uint8)


@pytest.mark.parametrize(
    ("test", "sequence", "expected"),
    [
        # 2.5.4: M = Q = 3, two matrices, against the 32 x 32 probabilities as the publication does.
        (lambda b: million_bits.rank(b, 3), "01011001001010101101", 0.741948),
        # 2.7.4: template 001 in two blocks of 10.
        (lambda b: million_bits.non_overlapping_template(b, "001", 2), "10100100101110010110", 0.344154),
        # 2.9.4: the statistic f_n, L = 2, Q = 4.
        (lambda b: million_bits.universal_statistic(b, 2, 4), "01011010011101010111", 1.1949875),
    ],
)
def test_the_publication_s_examples_of_the_long_tests(test, sequence, expected):
    assert float(test(one(sequence))[0]) == pytest.approx(expected, abs=1e-6)


def test_random_excursions_reads_the_publication_s_example_against_its_exact_null():
    # 2.14.4: state +1, 3 cycles, class counts (1, 1, 0, 1, 0, 0); the publication's chi-square 4.333033
    # is 13/3 rounded on the way, and its p-value 0.502529 that chi-square's through 5 degrees of freedom.
    cycles, classes, _ = million_bits.excursion_counts(one("0110110101"), 1)
    counts = classes[0, million_bits.EXCURSION_STATES.index(1)]
    assert cycles.tolist() == [3]
    assert counts.tolist() == [1, 1, 0, 1, 0, 0]
    assert float(million_bits.excursion_statistic(counts, 1)) == pytest.approx(13 / 3)
    # The p-value is the multinomial null's: the chance of a chi-square as large among the 56 ways three
    # cycles fall into the six classes, 0.40625 exactly, read by 9,999 seeded draws.
    exact = multinomial_tail(counts, 1)
    assert exact == pytest.approx(0.40625)
    first, _ = million_bits.excursions(one("0110110101"), 1)
    found = float(first[0, million_bits.EXCURSION_STATES.index(1)])
    assert found == pytest.approx(exact, abs=4 * sqrt(exact * (1 - exact) / million_bits.EXCURSION_DRAWS))
    assert abs(found - stats.chi2.sf(13 / 3, 5)) > 0.05


def multinomial_tail(counts: np.ndarray, x: int) -> float:
    """P(chi-square >= counts') under multinomial(J, π(x)), every vector of J cycles enumerated."""
    cycles = int(counts.sum())
    # Stars and bars: five bars' places among J + 5 split the J cycles into the six classes.
    cuts = np.array(list(itertools.combinations(range(cycles + 5), 5)))
    edges = np.concatenate([np.full((len(cuts), 1), -1), cuts, np.full((len(cuts), 1), cycles + 5)], axis=1)
    vectors = np.diff(edges, axis=1) - 1
    observed = million_bits.excursion_statistic(counts, x)
    far = million_bits.excursion_statistic(vectors, x) >= observed * (1 - 1e-12)
    probabilities = stats.multinomial.pmf(vectors[far], cycles, million_bits.excursion_probabilities(x))
    return float(np.sum(probabilities))


@pytest.mark.parametrize(
    ("counts", "x"), [((14, 0, 0, 0, 1, 1), 4), ((5, 3, 2, 2, 0, 2), 2), ((16, 1, 0, 0, 0, 3), 3)]
)
def test_a_random_excursion_p_value_is_the_multinomial_null_s(counts, x):
    # Few cycles, where the chi-square's 5 degrees of freedom are furthest from its null: the
    # Monte Carlo p-value is the exact tail's, within its draws' error, and not the asymptotic one.
    vector = np.array(counts)
    exact = multinomial_tail(vector, x)
    found = million_bits.excursion_p_value(vector, x)
    error = sqrt(exact * (1 - exact) / million_bits.EXCURSION_DRAWS)
    assert found == pytest.approx(exact, abs=4 * error + 1 / million_bits.EXCURSION_DRAWS)
    assert found == million_bits.excursion_p_value(vector, -x)
    assert abs(stats.chi2.sf(million_bits.excursion_statistic(vector, x), 5) - exact) > 10 * error


def test_the_random_excursions_variant_reads_the_publication_s_example_exactly():
    # 2.15.4: state +1 visited 4 times in 3 cycles; the publication reads |4 - 3| / sqrt(3 x 2) through
    # the normal (0.683091). Exactly, each cycle visits +1 none with chance 1/2 and k >= 1 times with
    # chance (1/2)^(k + 1), and the p-value is the chance that three cycles' visits are not 3.
    per_cycle = {0: 0.5, **{k: 0.5 ** (k + 1) for k in range(1, 4)}}
    exactly_three = sum(
        per_cycle[a] * per_cycle[b] * per_cycle[3 - a - b] for a in range(4) for b in range(4 - a)
    )
    _, second = million_bits.excursions(one("0110110101"), 1)
    found = float(second[0, million_bits.VARIANT_STATES.index(1)])
    assert found == pytest.approx(1 - exactly_three, abs=1e-12)
    assert found == pytest.approx(0.84375, abs=1e-12)


@pytest.mark.parametrize(("x", "cycles"), [(1, 40), (4, 60), (9, 120)])
def test_the_variant_s_null_is_the_convolution_of_its_cycles(x, cycles):
    a = 1 / (2 * x)
    per_cycle = np.array([1 - a] + [a * a * (1 - a) ** (k - 1) for k in range(1, 4_000)])
    convolved = np.array([1.0])
    for _ in range(cycles):
        convolved = np.convolve(convolved, per_cycle)[:8_000]
    found = million_bits.visit_distribution(x, cycles)
    assert found.sum() == pytest.approx(1, abs=1e-9)
    assert np.abs(found[: min(found.size, 8_000)] - convolved[: found.size]).max() < 1e-10


def test_the_random_excursions_p_values_hold_their_rate_under_their_null():
    # 20,000 count vectors of 500 cycles (the fewest judged) drawn from the multinomial null, seeded: the
    # chi-square read through 5 degrees of freedom falls below 0.01 more often than 1% at state +-4,
    # the Monte Carlo p-value does not; and the variant's exact p-value at +-9 likewise, against the normal.
    rng = np.random.default_rng(2_14)
    drawn = rng.multinomial(500, million_bits.excursion_probabilities(4), size=20_000)
    asymptotic = stats.chi2.sf(million_bits.excursion_statistic(drawn, 4), 5)
    monte_carlo = np.array([million_bits.excursion_p_value(row, 4) for row in drawn])
    assert (monte_carlo < 0.01).mean() <= 0.0099 + 3 * sqrt(0.0099 * 0.9901 / 20_000)
    assert (asymptotic < 0.01).mean() > (monte_carlo < 0.01).mean()
    null = million_bits.visit_distribution(9, 500)
    visits = rng.choice(null.size, size=20_000, p=null / null.sum())
    exact = np.array([million_bits.variant_p_value(int(v), 500, 9) for v in visits])
    assert (exact < 0.01).mean() <= 0.01 + 3 * sqrt(0.01 * 0.99 / 20_000)


def test_linear_complexity_gives_the_publication_s_example():
    # 2.10.4: 1101011110001 has linear complexity 4.
    assert million_bits.linear_complexities(one("1101011110001")).tolist() == [4]


def test_the_uniformity_of_few_sequences_is_judged_by_monte_carlo():
    # 25 sequences leave each of the ten bins expected 2.5 times: the chi-square's p-value would be too small.
    few = bit_tests.judge_bits(bit_tests.tally_bits("few", 0, 25))
    many = bit_tests.judge_bits(bit_tests.tally_bits("many", 0, 60))
    for test in few:
        if test["randomised"]:
            assert "Monte Carlo" in test["uniformity_method"]
            assert 1e-5 <= test["uniformity_p_value"] <= 1
    assert all("Monte Carlo" not in (t["uniformity_method"] or "") for t in many)
