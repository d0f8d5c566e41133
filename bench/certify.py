"""``python -m bench.certify``: the certification kit's throughput: rounds
per second of the simulation and shoes per second through the shuffle and
bit stream tests, in one process and on Dask LocalClusters of 1 and 2 workers."""

from __future__ import annotations

import time

from service.baccarat.tables import TABLES
from service.certification.report import Inputs, certify
from service.certification.workers import InProcess, Workers, dask_workers

ROUNDS = 400_000
SHUFFLE_SHOES = 4_000


def _line(name: str, workers: Workers) -> str:
    inputs = Inputs(TABLES["standard"].rules, "standard", {}, "bench", ROUNDS, SHUFFLE_SHOES)
    started = time.perf_counter()
    run = certify(inputs, workers)["run"]
    return (
        f"{name}: simulation {run['simulation_rounds_per_second']:,} rounds/s, shuffle tests "
        f"{run['shuffle_shoes_per_second']:,} shoes/s, NIST SP 800-22 "
        f"{run['bit_stream_sequences_per_second']:,} shoes/s ({time.perf_counter() - started:.1f} s in all)"
    )


def run() -> list[str]:
    lines = [f"baccarat certify, standard table, {ROUNDS:,} rounds, {SHUFFLE_SHOES:,} shoes tested"]
    lines.append(_line("in process", InProcess()))
    for workers in (1, 2):
        with dask_workers(None, workers) as cluster:
            lines.append(_line(f"Dask LocalCluster, {workers} worker(s)", cluster))
    return lines


if __name__ == "__main__":
    for line in run():
        print(line)
