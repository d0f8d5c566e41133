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

``BENCH_TRIALS`` in the environment sets ``TRIALS`` (default 100).
"""

from __future__ import annotations

import os
from math import ceil

from scipy import stats

from service.baccarat.tables.rules import TABLES
from service.certification import shuffle_tests
from service.certification.gallery import GALLERY
from service.certification.report import Inputs, certify
from service.certification.verdicts import ALPHA
from service.certification.workers import InProcess

TRIALS = int(os.environ.get("BENCH_TRIALS", "100"))
LADDER = (25, 100, 400, 1_600, 6_400, 25_600)
POWER = 0.99
#: Shoes of the service's own shuffle, the control.
CONTROL = 1_600


def family_size() -> int:
    """K: the statistical tests of a standard table's report."""
    report = certify(Inputs(TABLES["standard"].rules, "standard", {}, "power", 2_000, 25), InProcess())
    tests: int = report["family_wise"]["tests"]
    return tests


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


def run() -> list[str]:
    threshold = ALPHA / family_size()
    lines = [f"shuffle tests, 8 decks, {TRIALS} runs per size, a test fails below {threshold:.2g}"]
    for name, shuffler in GALLERY.items():
        found = f"fails fewer than {POWER:.0%} of runs at {LADDER[-1]:,} shoes"
        for shoes in LADDER:
            failed = failures(shuffler, shoes, threshold, TRIALS, passes=TRIALS - ceil(POWER * TRIALS))
            if failed >= POWER * TRIALS:
                found = f"fails {failed}/{TRIALS} runs at {shoes:,} shoes"
                break
        lines.append(f"  {name:14} {found}")
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
