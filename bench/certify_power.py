"""``python -m bench.certify_power``: the shoes at which the kit's shuffle
tests fail each bad shuffle of the gallery (:mod:`service.certification.gallery`)
at least 99% of the time.

For each shuffle and each size of a ladder (25, 100, 400, 1,600, 6,400,
25,600 shoes), ``TRIALS`` runs of the shuffle tests on that many of its
shoes (8 decks), each judged as a standard table's report judges them: a
test fails when its p-value lies below 0.01 / K, K the report's tests
(Holm's first step; every other test of a fair run lies far above). The
first size at which at least 99% of the runs fail is the one printed; the
ladder stops there. The service's own shuffle is run beside them at
:data:`CONTROL` shoes: it should fail about 1% of the runs at most.

Two shuffles are not run on the ladder, and say why:

* ``seed_32_bit``: only its repeated shoes betray it, and only the
  repeated-shoe test sees them, so its power is the birthday chance of a
  repeat, computed exactly (:func:`.gallery.detection_chance`); the same
  shuffle from a 16-bit space is run ``TRIALS`` times at the sizes where
  that chance is 50% and 99%, to check the formula by simulation (a
  32-bit run would deal 199,000 shoes a run at 3.7 ms a shoe);
* ``modulo_16_bit``, past the ladder: the exact probability of each card
  at each position under its biased draws (416 x 416 swap matrices
  multiplied out) gives the cards-by-position test's noncentrality per
  shoe, and the noncentral chi-square the shoes at which that test fails
  99% of runs; and the draws of the index itself a chi-square needs.

``BENCH_TRIALS`` in the environment sets ``TRIALS`` (default 100),
``BENCH_LADDER`` the sizes (``25,100``) and ``BENCH_SHUFFLES`` the shuffles run
(their names, ``service`` for the control; default all).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from math import ceil

import numpy as np
from scipy import stats

from service.baccarat.tables.rules import TABLES
from service.certification import million_bits, shuffle_tests
from service.certification.gallery import GALLERY, detection_chance, seed_space
from service.certification.report import Inputs, certify
from service.certification.verdicts import ALPHA
from service.certification.workers import InProcess

TRIALS = int(os.environ.get("BENCH_TRIALS", "100"))
LADDER = tuple(int(size) for size in os.environ.get("BENCH_LADDER", "25,100,400,1600,6400,25600").split(","))
#: The shuffles run (all of the gallery's, and the control, unless named).
SHUFFLES = tuple(name for name in os.environ.get("BENCH_SHUFFLES", "").split(",") if name)
POWER = 0.99
#: Shoes of the service's own shuffle, the control.
CONTROL = 1_600


def family_size() -> int:
    """K: the statistical tests of a standard table's report whose sequences of 10^6 bits
    are all judged (76 shoes tested and more, random excursions applicable: the largest
    family, the lowest threshold, 77): a 25-shoe report's tests and the 31 of 10^6 bits."""
    report = certify(Inputs(TABLES["standard"].rules, "standard", {}, "power", 2_000, 25), InProcess())
    tests: int = report["family_wise"]["tests"]
    return tests + len(million_bits.TESTS)


def failures(
    shuffler: shuffle_tests.Shuffler, shoes: int, threshold: float, trials: int, *, passes: int | None = None
) -> int:
    """Runs of ``shoes`` shoes whose shuffle tests fail; with ``passes``, the
    count so far once more runs than that have passed (the size is then
    short of the power sought, and the rest need not run)."""
    failed = 0
    for trial in range(trials):
        tally = shuffle_tests.tally_shuffles(f"power-{trial}", 0, shoes, 8, shuffler=shuffler)
        failed += min(result.p_value for result in shuffle_tests.shuffle_results(tally)) < threshold
        if passes is not None and trial + 1 - failed > passes:
            break
    return failed


#: Shuffles whose power is computed, not run on the ladder.
COMPUTED = ("seed_32_bit",)


def fewest(chance: Callable[[int], float], power: float = POWER, most: int = 10**13) -> int:
    """The fewest shoes ``n`` with ``chance(n) >= power`` (``chance`` increasing)."""
    low, high = 1, most
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if chance(middle) >= power else (middle, high)
    return high


def _seed_space(threshold: float) -> list[str]:
    exact = fewest(lambda n: detection_chance(32, n))
    lines = [
        f"  {'seed_32_bit':14} fails {POWER:.0%} of runs at {exact:,} shoes (birthday chance, exact; "
        f"50% at {fewest(lambda n: detection_chance(32, n), 0.5):,})"
    ]
    for power in (0.5, POWER):
        shoes = fewest(lambda n: detection_chance(16, n), power)
        failed = failures(seed_space(16), shoes, threshold, TRIALS)
        lines.append(
            f"    16-bit space, {shoes:,} shoes: {failed}/{TRIALS} runs fail "
            f"(birthday chance {detection_chance(16, shoes):.1%})"
        )
    return lines


def modulo_positions(size: int = 416, word: int = 2**16) -> np.ndarray:
    """Each factory place's chance of ending at each place under ``modulo_16_bit``:
    Fisher-Yates from the last place down, the index a ``word`` modulo the places left."""
    moved = np.eye(size)
    for place in range(size - 1, 0, -1):
        draw = np.bincount(np.arange(word) % (place + 1), minlength=place + 1) / word
        here, below = moved[:, place].copy(), moved[:, :place].copy()
        moved[:, :place] = below * (1 - draw[:place]) + here[:, None] * draw[:place]
        moved[:, place] = (below * draw[:place]).sum(axis=1) + here * draw[place]
    return moved


def _modulo(threshold: float) -> list[str]:
    moved = modulo_positions()
    cards = np.zeros((52, 416))
    np.add.at(cards, np.arange(416) % 52, moved)
    per_shoe = float(((cards - 1 / 52) ** 2 * 52).sum())
    df = 415 * 51
    critical = stats.chi2.isf(threshold, df)
    shoes = fewest(lambda n: stats.ncx2.sf(critical, df, n * per_shoe))
    draw = np.bincount(np.arange(2**16) % 416, minlength=416) / 2**16
    per_draw = float(((draw - 1 / 416) ** 2 * 416).sum())
    draws = fewest(lambda n: stats.ncx2.sf(stats.chi2.isf(ALPHA, 415), 415, n * per_draw))
    return [
        f"    modulo_16_bit, computed: cards by position fails {POWER:.0%} of runs at {shoes:,} shoes "
        f"(largest bias of a card at a place {np.abs(cards * 52 - 1).max():.3%}); "
        f"a chi-square of the index draws modulo 416 sees it at {draws:,} draws"
    ]


def run() -> list[str]:
    threshold = ALPHA / family_size()
    lines = [f"shuffle tests, 8 decks, {TRIALS} runs per size, a test fails below {threshold:.2g}"]
    for name, shuffler in GALLERY.items():
        if SHUFFLES and name not in SHUFFLES:
            continue
        if name in COMPUTED:
            lines += _seed_space(threshold)
            continue
        found = f"fails fewer than {POWER:.0%} of runs at {LADDER[-1]:,} shoes"
        for shoes in LADDER:
            failed = failures(shuffler, shoes, threshold, TRIALS, passes=TRIALS - ceil(POWER * TRIALS))
            if failed >= POWER * TRIALS:
                found = f"fails {failed}/{TRIALS} runs at {shoes:,} shoes"
                break
        lines.append(f"  {name:14} {found}")
        if name == "modulo_16_bit":
            lines += _modulo(threshold)
    if SHUFFLES and "service" not in SHUFFLES:
        return lines
    failed = failures(shuffle_tests.service_shoes, CONTROL, threshold, TRIALS)
    low, high = stats.binomtest(failed, TRIALS).proportion_ci(0.95, method="exact")
    lines.append(
        f"  {'the service':14} fails {failed}/{TRIALS} runs at {CONTROL:,} shoes "
        f"(95% interval {low:.1%} to {high:.1%})"
    )
    return lines


if __name__ == "__main__":
    for line in run():
        print(line, flush=True)
