"""The shuffle's bit stream through dieharder, a recognised battery, where it is installed.

The stream is the one the NIST SP 800-22 tests read (:mod:`.bit_tests`):
for shoe 0, 1, 2, ... in turn, the first :data:`.bit_tests.BLOCKS` HMAC-SHA256
blocks its shuffle reads (docs/fairness.md, step 1: server seed, client
seed ``""``, nonce ``i``), 1,664 bytes a shoe, concatenated in shoe order,
of the shoes tested and at most :data:`.report.MAX_BIT_SEQUENCES` of them.
It is written to a temporary file that becomes dieharder's standard input
(``dieharder -g 200``: raw bytes on stdin).

Each test of :data:`TESTS` (dieharder's own tests rated "Good", those whose
single form reads a fixed amount: no ``-n`` variants) runs at dieharder's
default ``-t`` (its samples per p-value, the size its asymptotics are
calibrated at) with one p-value (``-p 1``), read from the stream's start:
:attr:`DieharderTest.bytes_per_psample` (measured) must fit in the stream.
More p-values would be judged by dieharder's Kolmogorov-Smirnov step,
whose asymptotic formula is wrong for few of them: on ``os.urandom``,
``-p 2`` gave birthdays a p-value of 1.00000000 (``FAILED``) and ``-p 3``
0.99999122 (``WEAK``), whatever ``-k``; and the 100 p-values where it is
sound need 400 to 940 MB, more than the 166 MB of the 100,000 shoes the
stage reads at most. A test whose one p-value needs more than the stream
holds is not run, and the report says how many shoes it needs. dieharder
never rewinds standard input: a stream that runs short ends the test with
``Error: EOF``, which the report states as the test's ``not_run`` reason,
never a verdict.

dieharder's assessment is its own: ``FAILED`` when the test's p-value lies
below 10⁻⁶ or above 1 - 10⁻⁶, ``WEAK`` below 0.005 or above 0.995,
``PASSED`` otherwise. A ``FAILED`` fails the report's ``dieharder`` check;
a ``WEAK`` is reported and fails nothing (a fair stream shows one in about
1 test in 100). The p-values are not in the report's Holm family: at
2 x 10⁻⁶ a p-value (eleven of them: ``diehard_runs`` and ``diehard_craps``
print two each), the :data:`TESTS`' ``FAILED`` adds at most 2.2 x 10⁻⁵ to a
fair run's false-failure rate (Bonferroni), 1% becoming at most 1.0022%;
``bench.dieharder_rates`` measures the premise, that the p-values are
uniform on the service's own streams (docs/certification.md).

Each test runs in a process of its own whose CPU time is capped
(:data:`CPU_SECONDS`, ``RLIMIT_CPU``) and whose wall time is capped
(:data:`WALL_SECONDS`): a test stopped there is reported as such.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from ..baccarat.shoes.shuffle import SeedInputs, byte_blocks
from .bit_tests import BLOCKS

#: Bytes of the stream per shoe: the blocks the NIST tests read.
SHOE_BYTES = 32 * BLOCKS
#: CPU seconds a test may take (its process is killed beyond).
CPU_SECONDS = 120
#: Wall-clock seconds a test may take.
WALL_SECONDS = 300.0
#: dieharder's thresholds: FAILED beyond, WEAK beyond.
FAILED_BEYOND = 1e-6
WEAK_BEYOND = 0.005
#: What the report says when dieharder is not on the PATH.
NOT_INSTALLED = "dieharder not installed"
#: Why a test ran out of stream: dieharder met the end of standard input.
RAN_OUT = "the stream ran out before the test ended (dieharder does not rewind stdin)"
#: dieharder's generator number for raw bytes on standard input.
STDIN_RAW = "200"


@dataclass(frozen=True)
class DieharderTest:
    """One test of the selection: dieharder's number and name, and the bytes
    one p-value reads at its default ``-t`` (measured with dieharder 3.31.1:
    the fewest bytes of standard input with which ``-p 1`` ends without EOF,
    rounded up to 64 KiB)."""

    number: int
    name: str
    bytes_per_psample: int


#: The selection: dieharder's tests rated "Good" that read a fixed amount.
TESTS = (
    DieharderTest(0, "diehard_birthdays", 4_194_304),
    DieharderTest(2, "diehard_rank_32x32", 9_175_040),
    DieharderTest(8, "diehard_count_1s_str", 4_259_840),
    DieharderTest(10, "diehard_parking_lot", 4_128_768),
    DieharderTest(12, "diehard_3dsphere", 4_063_232),
    DieharderTest(15, "diehard_runs", 4_456_448),
    DieharderTest(16, "diehard_craps", 9_437_184),
    DieharderTest(100, "sts_monobit", 4_456_448),
    DieharderTest(101, "sts_runs", 4_456_448),
)

#: The p-values the selection prints at most: ``diehard_runs`` and ``diehard_craps`` print two.
P_VALUES = len(TESTS) + 2


def executable() -> str | None:
    """dieharder's path, or None where it is not installed."""
    return shutil.which("dieharder")


def psamples(test: DieharderTest, available: int) -> int:
    """The p-values ``test`` computes from ``available`` bytes: one, or none if too few.

    >>> psamples(TESTS[0], 10_000_000), psamples(TESTS[0], 1_000)
    (1, 0)
    """
    return 1 if available >= test.bytes_per_psample else 0


def shoes_needed(test: DieharderTest) -> int:
    """The fewest shoes whose stream holds one p-value of ``test``.

    >>> shoes_needed(TESTS[0])
    2521
    """
    return -(-test.bytes_per_psample // SHOE_BYTES)


def stream(seed: str, first: int, count: int) -> bytes:
    """The stream of shoes ``first .. first + count - 1``, in shoe order."""
    parts = []
    for nonce in range(first, first + count):
        blocks = byte_blocks(SeedInputs(seed, "", nonce))
        parts.append(b"".join(next(blocks) for _ in range(BLOCKS)))
    return b"".join(parts)


def parse(output: str) -> list[dict[str, Any]]:
    """dieharder's result lines (``name| ntup| tsamples| psamples| p-value| assessment``).

    >>> found = parse("   diehard_birthdays|   0|       100|       1|0.65511827|  PASSED  ")
    >>> [(f["name"], f["tsamples"], f["p_value"], f["assessment"]) for f in found]
    [('diehard_birthdays', 100, 0.65511827, 'PASSED')]
    """
    found = []
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if line.startswith("#") or len(cells) != 6 or cells[5] not in ("PASSED", "WEAK", "FAILED"):
            continue
        try:
            found.append(
                {
                    "name": cells[0],
                    "ntuple": int(cells[1]),
                    "tsamples": int(cells[2]),
                    "psamples": int(cells[3]),
                    "p_value": float(cells[4]),
                    "assessment": cells[5],
                }
            )
        except ValueError:
            continue
    return found


def assessment(p_value: float) -> str:
    """dieharder's verdict on a p-value, as it prints it.

    >>> assessment(0.5), assessment(0.996), assessment(1e-7)
    ('PASSED', 'WEAK', 'FAILED')
    """
    if p_value < FAILED_BEYOND or p_value > 1 - FAILED_BEYOND:
        return "FAILED"
    if p_value < WEAK_BEYOND or p_value > 1 - WEAK_BEYOND:
        return "WEAK"
    return "PASSED"


def run_test(program: str, test: DieharderTest, count: int, source: IO[bytes]) -> dict[str, Any]:
    """``test`` with ``count`` p-values on the stream in ``source`` (read from its start)."""
    source.seek(0)
    entry: dict[str, Any] = {"test": test.number, "name": test.name, "psamples": count}
    command = [program, "-g", STDIN_RAW, "-d", str(test.number), "-p", str(count)]
    with subprocess.Popen(
        command, stdin=source, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    ) as process:
        # The cap is set on the child once started (a preexec_fn is unsafe beside Dask's threads).
        resource.prlimit(process.pid, resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))
        try:
            output, _ = process.communicate(timeout=WALL_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            return {**entry, "not_run": f"stopped after {WALL_SECONDS:g} s of wall time"}
    if "Error: EOF" in output:
        return {
            **entry,
            "not_run": "the stream ran out before the test ended (dieharder does not rewind stdin)",
        }
    if process.returncode < 0:
        return {
            **entry,
            "not_run": f"stopped by signal {-process.returncode} (at most {CPU_SECONDS} s of CPU)",
        }
    results = parse(output)
    if not results:
        return {**entry, "not_run": f"dieharder gave no result (exit code {process.returncode})"}
    # diehard_runs prints two lines (runs up, runs down), diehard_craps two
    # (wins, throws): the verdict is the worse.
    worst = min(results, key=lambda result: min(result["p_value"], 1 - result["p_value"]))
    return {
        **entry,
        **worst,
        "p_values": [result["p_value"] for result in results],
        "command": " ".join(command[1:]),
    }


def run_dieharder(
    seed: str,
    shoes: int,
    make_stream: Callable[[str, int], bytes] | None = None,
    program: str | None = None,
    tests: Sequence[DieharderTest] = TESTS,
) -> dict[str, Any]:
    """The report's ``dieharder`` section for the stream of shoes ``0 .. shoes - 1``
    (``make_stream(seed, shoes)`` makes it; :func:`stream` by default)."""
    program = program if program is not None else executable()
    if program is None:
        return {"not_run": NOT_INSTALLED}
    available = shoes * SHOE_BYTES
    counts = {test.number: psamples(test, available) for test in tests}
    largest = max(counts[test.number] * test.bytes_per_psample for test in tests)
    section: dict[str, Any] = {
        "program": program,
        "version": _version(program),
        "stream": {
            "shoes": shoes,
            "bytes": available,
            "how": f"the first {BLOCKS} HMAC-SHA256 blocks each shoe's shuffle reads, shoe 0 first",
        },
        "tests": [],
    }
    if largest == 0:
        section["not_run"] = f"needs {min(shoes_needed(test) for test in tests):,} shoes"
    else:
        reach = min(shoes, -(-largest // SHOE_BYTES))
        data = make_stream(seed, reach) if make_stream is not None else stream(seed, 0, reach)
        with tempfile.TemporaryFile() as source:
            source.write(data)
            del data
            for test in tests:
                if counts[test.number] == 0:
                    section["tests"].append(
                        {
                            "test": test.number,
                            "name": test.name,
                            "psamples": 0,
                            "not_run": f"needs {shoes_needed(test):,} shoes",
                        }
                    )
                else:
                    section["tests"].append(run_test(program, test, counts[test.number], source))
    judged = [test for test in section["tests"] if "assessment" in test]
    section["failed"] = [test["name"] for test in judged if test["assessment"] == "FAILED"]
    section["weak"] = [test["name"] for test in judged if test["assessment"] == "WEAK"]
    section["passed"] = not section["failed"]
    return section


def _version(program: str) -> str:
    """dieharder's version, as its banner prints it."""
    try:
        banner = subprocess.run([program, "-l"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    for word in banner.split():
        if word[:1].isdigit() and "." in word:
            return word
    return "unknown"
