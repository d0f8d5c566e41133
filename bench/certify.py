"""``python -m bench.certify``: the certification kit's throughput: rounds
per second of the simulation and shoes per second through the shuffle and
bit stream tests, in one process and on Dask LocalClusters of 1 and 2
workers; the 2-worker simulation rate as a share of twice the 1-worker one
(goal >= 0.8: near-linear), and the wall time 10^9 rounds would take: the
simulation alone, and end to end (every stage at its measured rate: the
simulation's rounds, as many shoes through the shuffle tests as it deals,
and the bit stream's streams, at most MAX_BIT_SEQUENCES)."""

from __future__ import annotations

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
    return lines


if __name__ == "__main__":
    for line in run():
        print(line)
