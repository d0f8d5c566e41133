"""bench.load's memory target: the pod's PSS, read from /proc, held to the
memory the shipped Deployment requests (docs/performance.md, "Load and
faults under gunicorn"). No figure of this machine is held to a bound here."""

from __future__ import annotations

import os

import pytest

from bench import load


def test_a_process_owns_no_more_than_its_share_and_shares_no_more_than_it_maps() -> None:
    mine = load.memory(os.getpid())
    assert 0 < mine.uss <= mine.pss <= mine.rss
    assert mine.rss == pytest.approx(load.rss_mib(os.getpid()), rel=0.2)


def test_the_target_is_the_memory_the_deployment_requests() -> None:
    assert load.requested_memory_mib() == 256


@pytest.mark.parametrize(
    ("worker_pss", "verdict"),
    [(60.0, "within target <= 256 MiB"), (100.0, "TARGET MISSED: target <= 256 MiB")],
)
def test_the_pod_is_its_processes_pss_summed(worker_pss: float, verdict: str) -> None:
    master = load.Memory(rss=116.0, pss=75.0, uss=40.0)
    worker = load.Memory(rss=100.0, pss=worker_pss, uss=49.0)
    summary = load.memory_lines(master, [worker, worker], 256)[1]
    assert f"{75 + 2 * worker_pss:.1f} MiB ({verdict}" in summary
    assert "summed RSS, shared pages counted in every process: 316.0 MiB" in summary
