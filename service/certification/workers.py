"""Where the work runs: in this process, on a Dask ``LocalCluster``, or on
the workers of a Dask scheduler (a Kubernetes ``DaskCluster``, say).

Work is split by shoe number into pieces ``(first, count)``; a piece's
result is the same whoever computes it, and the results are combined in
piece order, so a run gives the same counts on one worker, two, or a
cluster. Only the engine's and the kit's module-level functions travel.

A cluster that cannot be reached (a closed port, a server that is not a
Dask scheduler), that has no worker, or that fails during the run (the
scheduler gone, every worker gone for :data:`WORKERLESS_SECONDS`, a piece
that killed its workers) raises :class:`ClusterFailed`, whose message says
which, in one line; a malformed address is found before any connection
(:func:`address_problem`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import contextmanager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
Piece = tuple[int, int]

#: Seconds to reach a scheduler and for it to have a worker.
CONNECT_SECONDS = 10.0
#: Seconds a run waits with no worker before it gives up.
WORKERLESS_SECONDS = 60.0
#: Seconds between looks at the cluster while pieces are computed.
POLL_SECONDS = 2.0
#: Schemes of a Dask scheduler's address.
SCHEMES = ("tcp", "tls")
#: Why Dask cancels a client's futures when its scheduler goes.
SCHEDULER_LOST = "scheduler-connection-lost"


class ClusterFailed(Exception):
    """The Dask cluster could not be reached or failed during the run."""


def address_problem(address: str) -> str | None:
    """Why ``address`` is not a Dask scheduler's address, or None.

    >>> address_problem("tcp://127.0.0.1:8786") is None, address_problem("tcp://host")
    (True, "missing port number in address 'host'")
    """
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        host, _ = parse_host_port(location)
    except ValueError as error:
        return str(error)
    if scheme not in SCHEMES:
        return f"a scheduler's address starts {' or '.join(s + '://' for s in SCHEMES)}, not {scheme}://"
    if not host:
        return f"no host in {address!r}"
    return None


class Workers(Protocol):
    """Runs ``function(first, count)`` for each piece; results in piece order."""

    description: str
    #: Workers that left the cluster during the run (their pieces computed again elsewhere).
    lost: list[str]

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

    def __init__(self) -> None:
        self.lost: list[str] = []

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
        self.seen: set[str] = set()
        self.lost: list[str] = []

    def map(
        self, function: Callable[[int, int], T], pieces: Sequence[Piece], progress: Callable[[int], object]
    ) -> list[T]:
        from distributed import wait
        from distributed.scheduler import KilledWorker

        try:
            futures = self.client.map(function, [p[0] for p in pieces], [p[1] for p in pieces], pure=False)
            sizes = {future.key: count for future, (_, count) in zip(futures, pieces, strict=True)}
            pending, idle_since = set(futures), self._look(None)
            looked = time.monotonic()
            while pending:
                try:
                    done, pending = wait(pending, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    done = set()
                for future in done:
                    progress(sizes[future.key])
                if time.monotonic() - looked >= POLL_SECONDS:
                    idle_since, looked = self._look(idle_since), time.monotonic()
            results = list(self.client.gather(futures))
            self._look(None)
            return results
        except KilledWorker as error:
            raise ClusterFailed(f"a piece of the run killed the workers that took it: {error}") from None
        except (OSError, CancelledError) as error:
            raise ClusterFailed(self._failure(error)) from None

    def _failure(self, error: BaseException) -> str:
        """What failed during the run, in one line: the scheduler gone (Dask
        cancels every piece when its connection drops), or what Dask said."""
        groups = getattr(error, "error_groups", [])
        reasons = {group.reason for group in groups} | {getattr(error, "reason", None)}
        if SCHEDULER_LOST in reasons or self.client.status not in ("running", "newly-created"):
            pieces = sum(len(group.errors) for group in groups)
            cancelled = f": the {pieces} pieces not yet gathered are lost" if pieces else ""
            return f"the Dask scheduler is gone (the connection to it was lost during the run){cancelled}"
        return f"the cluster failed during the run: {_said(error)}"

    def _look(self, idle_since: float | None) -> float | None:
        """The cluster's workers now: those gone since the last look are
        :attr:`lost`. When it first had no worker (None while it has one); a
        :class:`ClusterFailed` once it has had none for :data:`WORKERLESS_SECONDS`."""
        workers = set(self.client.scheduler_info().get("workers", {}))
        self.lost += sorted(self.seen - workers - set(self.lost))
        self.seen |= workers
        if workers:
            return None
        now = time.monotonic()
        if idle_since is not None and now - idle_since >= WORKERLESS_SECONDS:
            raise ClusterFailed(f"the cluster has had no worker for {WORKERLESS_SECONDS:g} s")
        return now if idle_since is None else idle_since


def _said(error: BaseException) -> str:
    """An exception in one line: its class and first line."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def probe(address: str, timeout: float = CONNECT_SECONDS) -> dict[str, Any]:
    """The identity of the Dask scheduler at ``address``, asked within
    ``timeout`` seconds in all: a :class:`ClusterFailed` if nothing answers,
    or something that is not a scheduler (an HTTP server never answers a
    Dask handshake, and a ``Client`` would wait for it for ever)."""
    from distributed.comm.core import connect

    async def ask() -> Any:
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        answer = asyncio.run(asyncio.wait_for(ask(), timeout))
    except TimeoutError:
        raise ClusterFailed(f"no Dask scheduler answered at {address} within {timeout:g} s") from None
    except Exception as error:  # whatever a stranger answers, it is not a scheduler
        raise ClusterFailed(f"cannot reach a Dask scheduler at {address}: {_said(error)}") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise ClusterFailed(f"{address} answered, but not as a Dask scheduler")
    return answer


@contextmanager
def quiet_client() -> Iterator[None]:
    """Dask's client logs its own traceback when its scheduler goes (it
    tries to reconnect, then gives up): the run says that in one line
    (:class:`ClusterFailed`), so the client's log is silenced meanwhile."""
    logger = logging.getLogger("distributed.client")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


@contextmanager
def dask_workers(scheduler: str | None, workers: int) -> Iterator[DaskWorkers]:
    """A client of the scheduler at ``scheduler``, or of a ``LocalCluster``
    of ``workers`` single-threaded worker processes, closed on exit."""
    with quiet_client():
        yield from _dask_workers(scheduler, workers)


def _dask_workers(scheduler: str | None, workers: int) -> Iterator[DaskWorkers]:
    from distributed import Client, LocalCluster

    if scheduler is not None:
        problem = address_problem(scheduler)
        if problem is not None:
            raise ValueError(problem)
        probe(scheduler)
        try:
            client = Client(scheduler, timeout=CONNECT_SECONDS)
        except (OSError, MemoryError, OverflowError, ValueError) as error:
            # A server that is not a scheduler answers junk: a frame "length" of exabytes, say.
            raise ClusterFailed(f"cannot reach a Dask scheduler at {scheduler}: {_said(error)}") from None
        with client:
            try:
                client.wait_for_workers(1, timeout=CONNECT_SECONDS)
                count = len(client.scheduler_info().get("workers", {}))
            except (OSError, CancelledError) as error:
                raise ClusterFailed(
                    f"the Dask scheduler at {scheduler} has no worker: {_said(error)}"
                ) from None
            yield DaskWorkers(client, f"Dask scheduler {scheduler} ({count} workers)")
        return
    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        yield DaskWorkers(client, f"Dask LocalCluster ({workers} worker processes)")
