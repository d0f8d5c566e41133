"""Where the work runs: in this process, on a Dask ``LocalCluster``, or on
the workers of a Dask scheduler (a Kubernetes ``DaskCluster``, say).

Work is split by shoe number into pieces ``(first, count)``; a piece's
result is the same whoever computes it, and the results are combined in
piece order, so a run gives the same counts on one worker, two, or a
cluster. Only the engine's and the kit's module-level functions travel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
Piece = tuple[int, int]


class Workers(Protocol):
    """Runs ``function(first, count)`` for each piece; results in piece order."""

    description: str

    def map(
        self, function: Callable[[int, int], T], pieces: Sequence[Piece], progress: Callable[[int], object]
    ) -> list[T]: ...


def pieces(first: int, count: int, size: int) -> list[Piece]:
    """Shoes ``first .. first + count - 1`` in pieces of at most ``size``.

    >>> pieces(0, 2_500, 1_000)
    [(0, 1000), (1000, 1000), (2000, 500)]
    """
    return [(start, min(size, first + count - start)) for start in range(first, first + count, size)]


class InProcess:
    """Every piece in this process, one after the other."""

    description = "in process"

    def map(
        self, function: Callable[[int, int], T], pieces: Sequence[Piece], progress: Callable[[int], object]
    ) -> list[T]:
        results = []
        for first, count in pieces:
            results.append(function(first, count))
            progress(count)
        return results


class DaskWorkers:
    """The pieces on a Dask cluster's workers, as futures."""

    def __init__(self, client: Any, description: str) -> None:
        self.client = client
        self.description = description

    def map(
        self, function: Callable[[int, int], T], pieces: Sequence[Piece], progress: Callable[[int], object]
    ) -> list[T]:
        from distributed import as_completed

        futures = self.client.map(function, [p[0] for p in pieces], [p[1] for p in pieces], pure=False)
        sizes = {future.key: count for future, (_, count) in zip(futures, pieces, strict=True)}
        for future in as_completed(futures):
            progress(sizes[future.key])
        return list(self.client.gather(futures))


@contextmanager
def dask_workers(scheduler: str | None, workers: int) -> Iterator[DaskWorkers]:
    """A client of the scheduler at ``scheduler``, or of a ``LocalCluster``
    of ``workers`` single-threaded worker processes, closed on exit."""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        with Client(scheduler) as client:
            count = len(client.scheduler_info().get("workers", {}))
            yield DaskWorkers(client, f"Dask scheduler {scheduler} ({count} workers)")
        return
    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        yield DaskWorkers(client, f"Dask LocalCluster ({workers} worker processes)")
