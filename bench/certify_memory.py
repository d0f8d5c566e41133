"""``python -m bench.certify_memory``: what ``baccarat certify --shoes`` holds
in memory, and how long it takes, by the shoes of the file.

For each size of ``BENCH_SHOES`` (default ``25000,100000``; the largest a
file may hold, 1,000,000, is run with ``BENCH_SHOES=1000000``), a JSON
Lines file of the service's own shoes (8 decks, seed ``memory``) is
written to a temporary folder, and
``baccarat certify --shoes FILE --table standard`` runs on it in a child
process; printed: the file's size, the child's peak resident memory
(``ru_maxrss``), the report's seconds (reading the file included) and its
stages, and between two sizes the memory added per shoe.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from service.baccarat.counting import batch
from service.baccarat.rulebook.cards import DECK

SIZES = tuple(int(size) for size in os.environ.get("BENCH_SHOES", "25000,100000").split(","))
CODES = [card.code for card in DECK]


def write_shoes(path: Path, shoes: int) -> None:
    """``shoes`` of the service's shoes as JSON Lines, a thousand at a time."""
    with path.open("w") as stream:
        for first in range(0, shoes, 1_000):
            for shoe in batch.seeded_shoes("memory", first, min(1_000, shoes - first), 8):
                stream.write(json.dumps([CODES[card] for card in shoe], separators=(",", ":")) + "\n")


def measure(shoes: int, folder: Path) -> dict[str, float]:
    """One run of ``certify --shoes`` on ``shoes`` shoes: its peak memory and times."""
    path = folder / f"shoes-{shoes}.jsonl"
    write_shoes(path, shoes)
    out = folder / f"out-{shoes}"
    command = [sys.executable, "-m", "service.cli", "certify", "--shoes", str(path), "--table", "standard"]
    script = (
        "import resource, subprocess, sys; "
        "code = subprocess.run(sys.argv[1:]).returncode; "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", script, *command, "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    peak_kib, code = done.stdout.strip().splitlines()[-1].split()
    report = json.loads((out / "report.json").read_text())
    size = path.stat().st_size
    path.unlink()
    return {
        "shoes": shoes,
        "file_mb": size / 1024 / 1024,
        "peak_mb": int(peak_kib) / 1024,
        "exit": int(code),
        "seconds": report["run"]["seconds"],
        "wall": wall,
        **{f"stage_{name}": value for name, value in report["run"]["seconds_by_stage"].items()},
    }


def run() -> list[str]:
    lines = []
    found = []
    with tempfile.TemporaryDirectory() as folder:
        for shoes in SIZES:
            figures = measure(shoes, Path(folder))
            found.append(figures)
            stages = ", ".join(
                f"{name[6:]} {value:.1f}" for name, value in figures.items() if name.startswith("stage_")
            )
            lines.append(
                f"{shoes:>10,} shoes ({figures['file_mb']:,.0f} MB file): peak {figures['peak_mb']:,.0f} MB, "
                f"exit {figures['exit']:.0f}, report {figures['seconds']:.1f} s ({stages}), "
                f"wall {figures['wall']:.1f} s"
            )
    for small, large in itertools.pairwise(found):
        per_shoe = (large["peak_mb"] - small["peak_mb"]) * 1024 * 1024 / (large["shoes"] - small["shoes"])
        lines.append(f"from {small['shoes']:,} to {large['shoes']:,} shoes: {per_shoe:,.0f} bytes a shoe")
    return lines


if __name__ == "__main__":
    for line in run():
        print(line, flush=True)
