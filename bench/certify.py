"""``python -m bench.certify``: the certification kit's throughput: rounds
per second of the simulation and shoes per second through the shuffle and
bit stream tests, in one process and on Dask LocalClusters of 1 and 2
workers; the 2-worker simulation rate as a share of twice the 1-worker one
(goal >= 0.8: near-linear), and the wall time 10^9 rounds would take: the
simulation alone, and end to end (every stage at its measured rate: the
simulation's rounds, as many shoes through the shuffle tests as it deals,
and the bit stream's streams, at most MAX_BIT_SEQUENCES).

Then the whole kit end to end (:func:`end_to_end`, alone with
``python -m bench.certify end_to_end``): ``certify`` as a laboratory runs
it, every stage (the simulation, as many shoes through the shuffle tests
as it deals, the short and the 10^6-bit NIST tests, dieharder where it is
installed, recall), at two sizes four times apart on 1 and 2 workers, with
each stage's seconds; the ratio of the two sizes' times shows how time
grows with rounds, and the projection of 10^9 rounds is made from the
larger run's stages: the simulation and shuffle stages scale with the
shoes dealt; the NIST stages with the shoes tested up to their cap
(MAX_BIT_SEQUENCES shoes); dieharder reads at most 5,672 shoes' stream,
so its time is the larger run's. It is a projection, not a 10^9-round run."""

from __future__ import annotations

import sys
import time

from service.baccarat.tables.rules import TABLES
from service.certification.agreement import shoes_for
from service.certification.report import MAX_BIT_SEQUENCES, Inputs, certify
from service.certification.workers import InProcess, Workers, dask_workers

#: Enough shoes that the pieces are whole batches of the simulator, as at a lab's scale.
ROUNDS = 2_000_000
LAB_ROUNDS = 10**9
SCALING_GOAL = 0.8
SHUFFLE_SHOES = 4_000


def _measure(workers: Workers) -> dict[str, float]:
    inputs = Inputs(TABLES["standard"].rules, "standard", {}, "bench", ROUNDS, SHUFFLE_SHOES)
    run: dict[str, float] = certify(inputs, workers)["run"]
    return run


def _line(name: str, run: dict[str, float]) -> str:
    rate = run["simulation_rounds_per_second"]
    hours = LAB_ROUNDS / rate / 3600
    shoes = shoes_for(LAB_ROUNDS, TABLES["standard"].rules)
    seconds = (
        LAB_ROUNDS / rate
        + shoes / run["shuffle_shoes_per_second"]
        + min(shoes, MAX_BIT_SEQUENCES) / run["bit_stream_sequences_per_second"]
    )
    return (
        f"{name}: simulation {rate:,.0f} rounds/s (10^9 rounds: {hours:.1f} h; end to end "
        f"{seconds / 3600:.1f} h), shuffle tests "
        f"{run['shuffle_shoes_per_second']:,.0f} shoes/s, NIST SP 800-22 "
        f"{run['bit_stream_sequences_per_second']:,.0f} shoes/s"
    )


#: The two sizes of the end-to-end runs, four times apart.
END_TO_END_ROUNDS = (100_000, 400_000)


def _whole(workers: Workers, rounds: int) -> tuple[float, dict[str, float], int]:
    """A default run (as many shoes tested as dealt): wall seconds, each stage's, shoes."""
    inputs = Inputs(TABLES["standard"].rules, "standard", {}, "bench-e2e", rounds)
    started = time.perf_counter()
    report = certify(inputs, workers)
    return time.perf_counter() - started, report["run"]["seconds_by_stage"], inputs.shoes


def _projection(stages: dict[str, float], shoes: int) -> float:
    """Seconds for 10^9 rounds from one run's stages (see the module's docstring)."""
    lab = shoes_for(LAB_ROUNDS, TABLES["standard"].rules)
    capped = min(lab, MAX_BIT_SEQUENCES) / min(shoes, MAX_BIT_SEQUENCES)
    return (
        (stages["simulation"] + stages["shuffle"]) * lab / shoes
        + stages["bit_stream"] * capped
        + stages["dieharder"]
    )


def end_to_end() -> list[str]:
    lines = [f"baccarat certify end to end, standard table, every stage, {END_TO_END_ROUNDS} rounds"]
    for count in (1, 2):
        with dask_workers(None, count) as cluster:
            found = [_whole(cluster, rounds) for rounds in END_TO_END_ROUNDS]
        for rounds, (seconds, stages, shoes) in zip(END_TO_END_ROUNDS, found, strict=True):
            parts = ", ".join(f"{name} {value:.1f} s" for name, value in stages.items())
            lines.append(
                f"  {count} worker(s), {rounds:,} rounds ({shoes:,} shoes): {seconds:.1f} s ({parts})"
            )
        (small, _, _), (large, stages, shoes) = found
        lines.append(
            f"  {count} worker(s): {END_TO_END_ROUNDS[1] // END_TO_END_ROUNDS[0]}x the rounds took "
            f"{large / small:.2f}x the time; 10^9 rounds projected from the larger run: "
            f"{_projection(stages, shoes) / 3600:.1f} h"
        )
    return lines


def run() -> list[str]:
    lines = [f"baccarat certify, standard table, {ROUNDS:,} rounds, {SHUFFLE_SHOES:,} shoes tested"]
    lines.append(_line("in process", _measure(InProcess())))
    rates = {}
    for workers in (1, 2):
        with dask_workers(None, workers) as cluster:
            measured = _measure(cluster)
        rates[workers] = measured["simulation_rounds_per_second"]
        lines.append(_line(f"Dask LocalCluster, {workers} worker(s)", measured))
    scaling = rates[2] / (2 * rates[1])
    verdict = "meets" if scaling >= SCALING_GOAL else "MISSES"
    lines.append(f"  2 workers: {scaling:.2f} of linear ({verdict} goal >= {SCALING_GOAL})")
    return [*lines, *end_to_end()]


if __name__ == "__main__":
    for line in end_to_end() if sys.argv[1:] == ["end_to_end"] else run():
        print(line, flush=True)
