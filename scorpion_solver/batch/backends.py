"""Where the chunk tasks run, and what a worker does with one.

Workers only solve and return rows (:func:`solve_chunk`, :func:`solve_pairs`);
the driver alone writes the folder, so cluster workers need no shared disk.
A backend has one small interface (``window``, ``submit``, ``wait_any``,
``describe``, ``close``): :class:`LocalBackend`
(``concurrent.futures.ProcessPoolExecutor``, spawned processes that load the
solver from numba's cache) or :class:`DaskBackend` (``dask.distributed``,
optional extra).
"""

from __future__ import annotations

import gc
import os
import platform
import signal
import sys
import time
from typing import Callable, Iterable

from .. import __version__
from ..game.rules import MODES, get_rules
from ..solver.reductions import FULL, Reductions
from ..solver.result import Limits
from .folder import COLUMNS, STRINGIFY
from .plan import BatchError

_STRING_COLUMNS = tuple(name for name in COLUMNS if name in STRINGIFY)
_warmed: set[tuple[str, bool]] = set()  # (mode, shortest) this process has loaded the solver for (see warm_up)


def solve_pairs(
    pairs: list[tuple[int, str]], limits: Limits, reductions: Reductions = FULL, shortest: bool = False
) -> list[dict]:
    """Solve each (deal, mode) (with ``shortest``: a win of minimum length); return one row per pair (the SCHEMA columns).

    Runs in worker processes. An exception names the deal and mode.
    """
    from ..game.deal import deal
    from ..solver.search import WinChecks, screen_deals, solve_deal, solve_shortest

    warm_once(tuple(dict.fromkeys(m for _, m in pairs)), shortest)
    screened: dict[str, dict] = {}  # mode -> the results of its deals lost at the root, found chunk-wise
    if not shortest:
        for mode in dict.fromkeys(m for _, m in pairs):
            screened[mode] = screen_deals([n for n, m in pairs if m == mode], get_rules(mode), limits, reductions)
    checks = WinChecks()  # the wins' checks, run in one pass once the chunk is searched (cheaper: WinChecks)
    results = []
    for number, mode in pairs:
        rules = get_rules(mode)
        try:
            if shortest:
                result = solve_shortest(deal(number, rules), rules, limits, reductions)
            else:
                result = screened[mode].get(number) or solve_deal(number, rules, limits, reductions, checks)
        except Exception as exc:
            raise RuntimeError(f"deal {number} ({mode}): {type(exc).__name__}: {exc}") from exc
        results.append(result)
    checks.run()  # before any row is made: no win leaves unchecked
    rows = []
    for (number, mode), result in zip(pairs, results):
        row = result.as_row()  # the line as its text and length
        row.update(
            deal=number,
            mode=mode,
            budget_nodes=limits.nodes,
            budget_memory_mb=limits.memory_mb,
            budget_seconds=limits.seconds,
        )
        out = {name: row[name] for name in COLUMNS}
        for name in _STRING_COLUMNS:
            out[name] = str(out[name])
        rows.append(out)
    return rows


def solve_chunk(
    deals: tuple[int, ...],
    modes: tuple[str, ...],
    limits: Limits,
    reductions: Reductions = FULL,
    shortest: bool = False,
) -> list[dict]:
    """The rows of one chunk: every deal in every mode."""
    return solve_pairs([(n, m) for n in deals for m in modes], limits, reductions, shortest)


def warm_up(modes: Iterable[str] = MODES, progress: bool | None = False, shortest: bool = False) -> tuple[float, int]:
    """Compile (or load from numba's cache) the solver in this process: (the seconds it took, kernels compiled).

    The parent calls it before workers start, so that they find the cache
    filled instead of compiling side by side, and reports its time apart from
    the solves' (a first run compiles for minutes; ``progress``: tqdm's
    ``disable`` negated, a bar counting the kernels, False in a worker); each
    worker calls it before its first timed solve, so that no row's
    ``seconds`` includes loading the solver (about a second from the cache).
    It loads the kernels of the batch's job (``compiling.COMMAND_JOBS``:
    ``batch``, or ``batch --shortest`` with ``shortest``), no others.

    Then it freezes what is alive (``gc.freeze``): the loaded solver, numba
    and numpy are some 120,000 objects that live as long as the worker, and
    the collector would walk them again and again (classic deals 1-20000:
    0.08 s of collections in a 2.4 s batch, 0.02 s frozen; issue 32).
    """
    from ..game.rules import get_rules
    from ..solver.compiling import command_jobs, compile_bar, kernels_of, missing
    from ..solver.search import load_solver

    _warmed.update((mode, shortest) for mode in modes)
    start = time.perf_counter()
    columns = {get_rules(mode).num_columns for mode in modes}
    jobs = command_jobs("batch --shortest" if shortest else "batch", narrow=7 in columns, wide=bool(columns - {7}))
    compiled = len(missing(kernels_of(jobs)))
    bar = None if progress is False else compile_bar(None if progress is None else not progress)
    load_solver(
        notify=lambda message: print(message, file=sys.stderr, flush=True), progress=bar, jobs=jobs
    )  # says so when compiling
    solve_pairs([(1, m) for m in modes], Limits(nodes=1000, memory_mb=16), shortest=shortest)
    gc.freeze()
    return time.perf_counter() - start, compiled


def warm_once(modes: Iterable[str] = MODES, shortest: bool = False) -> None:
    """``warm_up`` for the modes this process has not loaded the solver for: what a task calls before its first
    timed solve. A worker loads only its tasks' games' kernels: a Three Blind Mice run never loads (nor, on a
    first run, compiles) the one-deck ones."""
    todo = tuple(mode for mode in dict.fromkeys(modes) if (mode, shortest) not in _warmed)
    if todo:
        warm_up(todo, shortest=shortest)


def warmed_call(modes: tuple[str, ...], shortest: bool, fn: Callable, *args):
    """``fn(*args)`` in a process warmed for ``modes`` (:func:`warm_once`): a chunk's task as a worker runs it."""
    warm_once(modes, shortest)
    return fn(*args)


def _worker_init() -> None:
    """Local worker setup: Ctrl-C is the parent's business; die with the parent (Linux). The solver is loaded by
    the first task, for its own games (:func:`warm_once`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - exotic libc
            pass


def worker_info() -> dict:
    """What a (Dask) worker runs: checked by the driver before it sends work."""
    return {"package_version": __version__, "host": platform.node(), "python": platform.python_version()}


class LocalBackend:
    """Worker processes on this machine (spawned, so they load numba's cache)."""

    name = "local"

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.workers = workers
        self.pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init
        )

    @property
    def window(self) -> int:
        return 2 * self.workers

    def submit(self, fn: Callable, *args):
        return self.pool.submit(fn, *args)

    def wait_any(self, futures):
        from concurrent.futures import FIRST_COMPLETED, wait

        return wait(futures, return_when=FIRST_COMPLETED)

    def describe(self) -> dict:
        return {"backend": self.name, "workers": self.workers}

    def close(self, abort: bool = False) -> None:
        if not abort:
            self.pool.shutdown(wait=True)
            return
        # Abort: drop the chunks in flight now rather than wait for them.
        terminate = getattr(self.pool, "terminate_workers", None)  # Python 3.14+
        if terminate is not None:
            terminate()
            return
        # Before 3.14: shutdown(wait=False) forgets the processes, so take them first.
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        manager = getattr(self.pool, "_executor_manager_thread", None)
        result_queue = getattr(self.pool, "_result_queue", None)
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=10)
        # A worker killed halfway through sending its rows leaves a partial message in the
        # result pipe; the pool's manager thread then waits in recv() for bytes that never
        # come, and the interpreter's exit joins that thread forever. The workers are gone,
        # so the only writer left is this process's own copy of the pipe's end: closing it
        # turns the wait into EOF, and the manager winds the pool down as a broken pool.
        writer = getattr(result_queue, "_writer", None)
        if writer is not None:
            writer.close()
        if manager is not None:
            manager.join(timeout=10)


class DaskBackend:
    """Tasks on a dask.distributed cluster: a running scheduler or a LocalCluster."""

    name = "dask"

    def __init__(self, scheduler: str | None = None, local_workers: int | None = None) -> None:
        try:
            import distributed
        except ImportError:
            raise BatchError("the Dask backend needs the optional extra: pip install 'scorpion-solver[dask]'") from None
        import logging

        self._distributed = distributed
        self.cluster = None
        self.address = scheduler
        if local_workers is not None:
            # The worker processes inherit an ignored SIGINT (it survives exec, and Python keeps it):
            # Ctrl-C in the terminal reaches them too, and is the driver's business alone, as for
            # the local pool; otherwise each prints its tracebacks before the driver's clean line.
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                self.cluster = distributed.LocalCluster(
                    n_workers=local_workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
            finally:
                signal.signal(signal.SIGINT, previous)
            self.client = distributed.Client(self.cluster)
            self.address = self.cluster.scheduler_address
        else:
            try:
                self.client = distributed.Client(scheduler, timeout="15s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise BatchError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        try:
            self.workers_info = self.client.run(worker_info)
        except Exception as exc:
            self.close()
            raise BatchError(
                f"the Dask workers cannot run scorpion-solver ({type(exc).__name__}: {exc}); "
                "install it on every worker host: pip install 'scorpion-solver[dask]'"
            ) from None
        if not self.workers_info:
            print(
                f"note: the Dask scheduler at {self.address} has no workers yet; the chunks wait for them",
                file=sys.stderr,
            )
        others = sorted({i["package_version"] for i in self.workers_info.values()} - {__version__})
        if others:
            print(
                f"warning: Dask workers run scorpion-solver {', '.join(others)}, this driver {__version__}",
                file=sys.stderr,
            )
        self._threads = 0
        self._threads_checked = 0.0

    @property
    def window(self) -> int:
        now = time.monotonic()
        if now - self._threads_checked > 10:
            self._threads = sum(self.client.nthreads().values())
            self._threads_checked = now
        return max(2, 2 * self._threads)

    def submit(self, fn: Callable, *args):
        return self.client.submit(fn, *args, pure=False)

    def wait_any(self, futures):
        return self._distributed.wait(list(futures), return_when="FIRST_COMPLETED")

    def describe(self) -> dict:
        return {
            "backend": self.name,
            "scheduler": self.address,
            "local_cluster": self.cluster is not None,
            "workers": {addr: info for addr, info in sorted(self.workers_info.items())},
        }

    def close(self, abort: bool = False) -> None:
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()


def make_backend(workers: int | None = None, scheduler: str | None = None, dask_local: int | None = None):
    """The backend the options ask for (local processes unless a Dask option is given)."""
    if scheduler and dask_local:
        raise BatchError("give --scheduler or --dask-local, not both")
    if scheduler or dask_local:
        if workers is not None:
            raise BatchError("--workers is for local processes; a Dask cluster has its own workers")
        return DaskBackend(scheduler=scheduler, local_workers=dask_local)
    return LocalBackend(workers or cpu_count())


def cpu_count() -> int:
    counter = getattr(os, "process_cpu_count", None)  # Python 3.13+
    if counter is not None:
        return counter() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1
