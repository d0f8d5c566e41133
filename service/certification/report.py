"""A certification run, and ``report.json``: what it found, each figure with its method.

:func:`certify` runs the four parts (docs/certification.md) on the
workers given, split by shoe number, and returns the report as a JSON-ready
dict. Its ``run`` section (workers, seconds, rates) is the only part that
depends on where it ran: everything else is the same for the same inputs
on one worker, two or a cluster.

Why one module of this length: the report is one document, and each of its
sections is written here beside the call that measured it, so that a lab
reading report.json finds every figure's method in one place; the methods
themselves are the modules it imports.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from math import ceil, isfinite
from typing import Any

from ..baccarat.odds.simulation import BATCH, Tally, tally_shoes
from ..baccarat.shoes.shuffle import ALGORITHM
from ..baccarat.tables.rules import Dealing, Rules
from ..provenance.build import engine
from . import agreement, bit_tests, dieharder, million_bits, shuffle_tests
from .exact import GLI11_NEVER, GLI11_SHOW_ODDS, exact_document, game_math
from .given_shoes import GivenShoes, tally_given
from .recall import last_games, recall
from .verdicts import ALPHA, family_wise, judge_families, p_value_summary
from .workers import Workers, pieces

#: The fewest shoes the shuffle is tested on by default: about 19 of each card at each position.
MIN_SHUFFLE_SHOES = 1_000
#: The fewest shoes a run deals or tests: below, ``certify`` refuses (docs/certification.md).
MIN_SHOES = 25
#: The most sequences the bit stream's tests read: the streams of the first shoes tested.
#: Beyond, an error of 0.0005 in a test's asymptotic size would fail a true source
#: (docs/certification.md), and the stage would outlast the rest of a long run.
MAX_BIT_SEQUENCES = 100_000
#: How a bit-stream test's proportion is judged, and what ``proportion_minimum`` is not.
PROPORTION_CRITERION = (
    "each test fails on its proportion_p_value (the binomial p-value of the sequences below 0.01) "
    "and, for the randomised tests, its uniformity_p_value, judged in the report's Holm family "
    "(proportion_threshold, uniformity_threshold); proportion_minimum is SP 800-22 section 4.2.1's "
    "three-sigma range, given for reference and not a verdict: each test judged by it alone fails a "
    "true source 1.4% of the time at 18 sequences, 1.8% at 100 and 0.3% at 1,000, and the report "
    "judges 43 such tests: some would fail a fair run far more often than 1 in 100"
)
#: Points on the convergence plot.
CONVERGENCE_POINTS = 40
#: The most pieces a stage is split into: a piece's result (a tally of the
#: simulation, the shuffle's counts) has a size of its own, so the pieces'
#: results held at once stay bounded however many shoes a run deals.
MAX_PIECES = 400


@dataclass(frozen=True)
class Inputs:
    """What a run certifies, and with which seed."""

    rules: Rules
    table: str
    overrides: dict[str, Any]
    seed: str
    rounds: int
    shuffle_shoes: int | None = None
    #: The shoes the shuffle tests count (a test double may replace the service's).
    shuffler: shuffle_tests.Shuffler = field(default=shuffle_tests.service_shoes)
    #: Shoes given (``--shoes FILE``): dealt and tested instead of the seed's.
    given: GivenShoes | None = None
    #: dieharder's path (None: not run, the report says it is not installed).
    dieharder: str | None = field(default_factory=dieharder.executable)

    @property
    def shoes(self) -> int:
        if self.given is not None:
            return len(self.given.shoes)
        return agreement.shoes_for(self.rounds, self.rules)

    @property
    def tested_shoes(self) -> int:
        if self.given is not None:
            return self.shoes
        return self.shuffle_shoes if self.shuffle_shoes is not None else max(MIN_SHUFFLE_SHOES, self.shoes)

    @property
    def bit_sequences(self) -> int:
        """Streams the NIST SP 800-22 tests read: of the first shoes tested (none of given shoes)."""
        return 0 if self.given is not None else min(self.tested_shoes, MAX_BIT_SEQUENCES)

    @property
    def long_sequences(self) -> int:
        """10⁶-bit sequences of the NIST tests that need them: 76 of those shoes' streams each."""
        return million_bits.sequences_for(self.bit_sequences)

    @property
    def work(self) -> int:
        """Shoes to deal, shuffle and read the stream of: the progress total."""
        return self.shoes + self.tested_shoes + self.bit_sequences


def certify(
    inputs: Inputs,
    workers: Workers,
    progress: Callable[[int], object] = lambda _: None,
    *,
    started: float | None = None,
) -> dict[str, Any]:
    """Run every part of the certification; the report as a dict.

    ``started`` (``time.perf_counter()``) is when the run began, if before
    this call: the seconds spent reading its inputs (a shoes file) count in
    the report's time."""
    rules, given = inputs.rules, inputs.given
    seed = inputs.seed if given is None else given.label
    begun = time.perf_counter()
    started = begun if started is None else started
    math = game_math(rules)
    deal = partial(tally_shoes, rules, seed) if given is None else partial(tally_given, rules, given)
    tallies: list[Tally] = workers.map(deal, _pieces(inputs.shoes, _deal_size(inputs.shoes)), progress)
    simulated = time.perf_counter()
    cumulative = _convergence_points(tallies)
    del tallies
    total = cumulative[-1]
    returned, fitted = agreement.bet_results(total, rules, math)

    tested = _pieces(inputs.tested_shoes, 250)
    shuffle_parts = workers.map(
        partial(
            shuffle_tests.tally_shuffles,
            seed,
            decks=rules.decks,
            shuffler=inputs.shuffler if given is None else given,
        ),
        tested,
        progress,
    )
    shuffled = shuffle_tests.ShuffleTally.merge(shuffle_parts)
    shuffle_done = time.perf_counter()
    bit_parts = workers.map(
        partial(bit_tests.tally_bits, seed), pieces(0, inputs.bit_sequences, 250), progress
    )
    bits = bit_tests.merge(bit_parts) if bit_parts else None
    long_parts = workers.map(
        partial(million_bits.tally_long, seed), pieces(0, inputs.long_sequences, 2), lambda _: None
    )
    long_found = million_bits.judge_long(million_bits.merge(long_parts)) if long_parts else []
    bits_found = bit_tests.judge_bits(bits) if bits is not None else []
    bits_found += [test for test in long_found if test["sequences"]]
    finished = time.perf_counter()
    if given is not None:
        battery: dict[str, Any] = {"not_run": "the shoes were given (--shoes): there is no stream to read"}
    elif inputs.dieharder is None:
        battery = {"not_run": dieharder.NOT_INSTALLED}
    else:
        battery = dieharder.run_dieharder(
            seed, inputs.bit_sequences, partial(_stream, workers), inputs.dieharder
        )
    battery_done = time.perf_counter()

    judged = judge_families(
        {
            "returns": returned,
            "line_counts": fitted,
            "shuffle": shuffle_tests.shuffle_results(shuffled),
            "bit_stream": bit_tests.second_level(bits_found),
        }
    )
    returns_judged, lines_judged, shuffle_judged = judged["returns"], judged["line_counts"], judged["shuffle"]
    bits_judged = _bit_verdicts(bits_found, judged["bit_stream"])
    recalled, last = [], []
    if given is None:
        recalled = recall(seed, inputs.shoes, rules, inputs.table, inputs.overrides)
        last = last_games(seed, inputs.shoes, rules, inputs.table, inputs.overrides)
    exact = exact_document(math)
    flagged = [
        {"bet": bet.bet, "line": line.when, "gli11": line.gli11, "one_in": line.one_in}
        for bet in math.bets
        for line in bet.lines
        if line.gli11 in (GLI11_SHOW_ODDS, GLI11_NEVER)
    ]
    checks = [
        _check(
            "exact_math",
            "every award can be won (GLI-11)",
            [f["gli11"] != GLI11_NEVER for f in flagged],
            [f"{f['bet']}: {f['line']} never wins" for f in flagged if f["gli11"] == GLI11_NEVER],
        ),
        _family("returns", "each bet's observed return agrees with its exact return", returns_judged),
        _family("line_counts", "each pay-table line's hits agree with its exact probability", lines_judged),
        _family("shuffle", "the shuffle is random at 99%", shuffle_judged),
    ]
    if given is None:
        checks += [
            _family("bit_stream", "the shuffle's bit stream passes NIST SP 800-22", judged["bit_stream"]),
            *(
                [_check("dieharder", "no dieharder test FAILED", [battery["passed"]], battery["failed"])]
                if battery.get("tests") and any("assessment" in test for test in battery["tests"])
                else []
            ),
            _check(
                "recall",
                "recalled rounds and the last ten games deal the same in the scalar engine and the simulator",
                [r["agrees_with_simulator"] for r in (*recalled, *last)],
                [
                    f"shoe {r['shoe']} round {r['round']}"
                    for r in (*recalled, *last)
                    if not r["agrees_with_simulator"]
                ],
            ),
        ]
    judged_done = time.perf_counter()
    seconds = judged_done - started
    return {
        "report": "baccarat certification",
        # The build that ran: the service's answers name it alike (docs/build-digest.md).
        "engine": engine(),
        "inputs": {
            "table": inputs.table,
            "rules_overrides": inputs.overrides,
            "rules": rules.canonical,
            "rules_id": rules.id,
            **_source(inputs),
            "rounds_requested": inputs.rounds if inputs.given is None else None,
            "shoes": inputs.shoes,
            "shuffle_shoes": inputs.tested_shoes,
        },
        "exact": {**exact, "gli11_flags": flagged},
        "simulation": {
            "method": "the vectorised simulator (service.baccarat.odds.simulation.tally_shoes): one unit on "
            "every offered bet at every round of every shoe",
            "shoes": total.shoes,
            "rounds": total.rounds,
            "confidence": agreement.CONFIDENCE,
            "returns": returns_judged,
            "line_counts": lines_judged,
            "convergence": agreement.convergence(cumulative, rules),
        },
        "shuffle": {
            "shoes": shuffled.shoes,
            "tests": shuffle_judged,
            "positions": shuffled.positions.tolist(),
        },
        "bit_stream": _bit_stream(bits, bits_judged, long_found, inputs.bit_sequences),
        "dieharder": battery,
        "p_values": p_value_summary(
            [t["p_value"] for t in (*returns_judged, *lines_judged, *shuffle_judged)]
        ),
        "family_wise": {
            "alpha": ALPHA,
            "method": family_wise([name for name, tests in judged.items() if tests]),
            "tests": sum(len(tests) for tests in judged.values()),
            **_outside_family(checks),
        },
        "recall": recalled,
        "last_games": last,
        "checks": checks,
        "passed": all(check["passed"] for check in checks),
        "run": {
            "workers": workers.description,
            "workers_lost": list(workers.lost),
            "seconds": round(seconds, 3),
            "simulation_rounds_per_second": round(total.rounds / max(simulated - begun, 1e-9)),
            "shuffle_shoes_per_second": round(shuffled.shoes / max(shuffle_done - simulated, 1e-9)),
            "bit_stream_sequences_per_second": round(
                inputs.bit_sequences / max(finished - shuffle_done, 1e-9)
            ),
            "seconds_by_stage": {
                "inputs": round(begun - started, 3),
                "simulation": round(simulated - begun, 3),
                "shuffle": round(shuffle_done - simulated, 3),
                "bit_stream": round(finished - shuffle_done, 3),
                "dieharder": round(battery_done - finished, 3),
                "judging": round(judged_done - battery_done, 3),
            },
        },
    }


def _outside_family(checks: list[dict[str, Any]]) -> dict[str, str]:
    """What fails a run from outside the Holm family, and what it adds to a fair run's rate."""
    if not any(check["check"] == "dieharder" for check in checks):
        return {}
    bound = dieharder.P_VALUES * 2 * dieharder.FAILED_BEYOND
    return {
        "outside_family": "dieharder's FAILED (a p-value below 10^-6 or above 1 - 10^-6) fails the run "
        f"from outside the family: its {dieharder.P_VALUES} p-values add at most "
        f"{dieharder.P_VALUES} x 2 x {dieharder.FAILED_BEYOND:g} to a fair run's rate of failing "
        f"(Bonferroni), at most {100 * (ALPHA + bound):.4f}% in all"
    }


def _deal_size(shoes: int) -> int:
    """Shoes a piece of the simulation deals: about :data:`CONVERGENCE_POINTS`
    pieces, of at most a batch, and never more than :data:`MAX_PIECES` pieces."""
    return max(min(BATCH, max(1, ceil(shoes / CONVERGENCE_POINTS))), ceil(shoes / MAX_PIECES))


def _pieces(shoes: int, size: int) -> list[tuple[int, int]]:
    """Shoes ``0 .. shoes - 1`` in pieces of ``size``, or larger ones: at most :data:`MAX_PIECES`."""
    return pieces(0, shoes, max(size, ceil(shoes / MAX_PIECES)))


def _convergence_points(tallies: list[Tally]) -> list[Tally]:
    """The running totals of ``tallies`` after about :data:`CONVERGENCE_POINTS`
    of them, evenly spaced, the last the whole run's: what the plot shows."""
    step = max(1, ceil(len(tallies) / CONVERGENCE_POINTS))
    points: list[Tally] = []
    total: Tally | None = None
    for index, piece in enumerate(tallies):
        total = piece if total is None else total + piece
        if (index + 1) % step == 0 or index == len(tallies) - 1:
            points.append(total)
    return points


def _stream(workers: Workers, seed: str, shoes: int) -> bytes:
    """The stream dieharder reads, made on the workers in pieces of 250 shoes."""
    return b"".join(workers.map(partial(dieharder.stream, seed), pieces(0, shoes, 250), lambda _: None))


def _source(inputs: Inputs) -> dict[str, Any]:
    """Where the run's shoes came from: the seed, or the file given."""
    if inputs.given is not None:
        return {
            "shoes_file": {
                "sha256": inputs.given.sha256,
                "shoes": inputs.shoes,
                "how": "shoe i is the file's (i + 1)-th shoe, a line each (JSON Lines, its cards from the "
                f"top; blank lines are skipped), {_dealt(inputs.rules)}",
            }
        }
    return {
        "seed": {
            "server_seed": inputs.seed,
            "client_seed": "",
            "nonces": [0, inputs.shoes - 1],
            "algorithm": ALGORITHM,
            "how": "shoe i is shuffled from the server seed, an empty client seed and nonce i "
            f"(docs/fairness.md), {_dealt(inputs.rules)}",
        }
    }


def _dealt(rules: Rules) -> str:
    """How the run dealt each shoe: as the table deals."""
    if rules.dealing is Dealing.RESHUFFLE_EACH_HAND:
        return (
            "its one round dealt from the top with no burn, as the table deals (it reshuffles after "
            "each hand) and as POST /v1/rounds deals a seeded round there"
        )
    return "dealt whole as the service deals a seeded shoe: burn, rounds, cut card, one more round"


def _bit_stream(
    bits: bit_tests.BitTally | None,
    judged: list[dict[str, Any]],
    long_found: list[dict[str, Any]],
    shoes: int,
) -> dict[str, Any]:
    """The bit stream's section: its tests, or why none ran."""
    if bits is None:
        return {
            "not_run": "the shoes were given (--shoes): there is no stream of the service's shuffle to read"
        }
    return {
        "sequences": bits.sequences,
        "bits_per_sequence": 256 * bit_tests.BLOCKS,
        "verdicts": PROPORTION_CRITERION,
        "tests": judged,
        # Only the randomised p-values are uniform for a true source: the others' summary would
        # fail it at scale (docs/certification.md).
        "first_level_p_values": {
            "tests": [name for name, (_, randomised) in bit_tests.TESTS.items() if randomised],
            **p_value_summary(
                [
                    float(p)
                    for name, (_, randomised) in bit_tests.TESTS.items()
                    if randomised
                    for p in bits.p_values[name]
                ]
            ),
        },
        "long_sequences": {
            "sequences": million_bits.sequences_for(shoes),
            "bits_per_sequence": million_bits.BITS,
            "how": f"sequence j joins the streams of shoes {million_bits.SHOES_PER_SEQUENCE} j to "
            f"{million_bits.SHOES_PER_SEQUENCE} j + {million_bits.SHOES_PER_SEQUENCE - 1} (the bits the "
            "tests above read, in shoe order) and keeps the first 10^6 bits",
        },
        "not_run": _long_not_run(long_found),
    }


def _long_not_run(long_found: list[dict[str, Any]]) -> dict[str, str]:
    """The 10⁶-bit tests that did not run, and why."""
    if not long_found:
        needs = f"not run: needs {million_bits.SHOES_PER_SEQUENCE} shoes tested (one 10^6-bit sequence)"
        return dict.fromkeys(million_bits.TESTS, needs)
    return {
        test["name"]: f"not run: no sequence had {million_bits.MIN_CYCLES} cycles of the walk"
        for test in long_found
        if not test["sequences"]
    }


def _bit_verdicts(found: list[dict[str, Any]], judged: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each NIST test as :func:`.bit_tests.judge_bits` found it, with the
    thresholds and verdicts of its second-level tests."""
    verdicts = {test["name"]: test for test in judged}
    tests = []
    for test in found:
        proportion = verdicts[f"{test['name']}_proportion"]
        uniformity = verdicts.get(f"{test['name']}_uniformity")
        tests.append(
            {
                **test,
                "proportion_threshold": proportion["threshold"],
                "uniformity_threshold": None if uniformity is None else uniformity["threshold"],
                "passed": proportion["passed"] and (uniformity is None or uniformity["passed"]),
            }
        )
    return tests


def _check(name: str, what: str, verdicts: list[bool], failures: list[str]) -> dict[str, Any]:
    return {"check": name, "what": what, "passed": all(verdicts), "failures": failures}


def _family(name: str, what: str, judged: list[dict[str, Any]]) -> dict[str, Any]:
    return _check(name, what, [t["passed"] for t in judged], [t["name"] for t in judged if not t["passed"]])


def deterministic_part(report: dict[str, Any]) -> dict[str, Any]:
    """The report less where and how fast it ran: equal for equal inputs."""
    return {name: value for name, value in report.items() if name != "run"}


def report_bytes(report: dict[str, Any]) -> bytes:
    """``report.json``'s bytes: indented UTF-8 JSON and a final newline.

    Strict JSON, as JavaScript's ``JSON.parse`` reads it: a figure that is
    not finite (the infinite statistic of a figure with no spread away from
    its exact value) is written ``null``; its p-value says the verdict."""
    return (json.dumps(strict_json(report), indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode()


def strict_json(value: Any) -> Any:
    """``value`` with every float that is not finite replaced by None.

    >>> strict_json({"t": [float("inf"), 1.5, float("nan")], "n": 2})
    {'t': [None, 1.5, None], 'n': 2}
    """
    if isinstance(value, float):
        return value if isfinite(value) else None
    if isinstance(value, dict):
        return {key: strict_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [strict_json(item) for item in value]
    return value
