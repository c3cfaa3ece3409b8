"""The resumable run: the one skeleton that a batch (``runner``) and a play run (``play_runs``) fill in.

A run works through a plan of chunks into a folder of chunk files: it takes
the folder's lock, skips the chunks already written, counts the finished rows
for the progress bar, starts a backend only when there is work, records the
run in the folder's metadata before the first task and closes that record
however the run ends (finished, failed, interrupted), and writes every
finished chunk at once, so an interrupted run loses only the chunks in flight
and a rerun of the same command resumes. What differs between the two kinds
of run (the tasks, how a chunk's rows are written, the tally) is the
:class:`ChunkJob` a caller passes to :func:`run_chunks`.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable

from .backends import warm_up
from .folder import (
    LOCK,
    FolderLock,
    finished_chunks,
    now_text,
    read_metadata,
    remove_stale_tmp,
    run_record,
    write_metadata,
)
from .plan import BatchError, Chunk


class Interrupted(KeyboardInterrupt):
    """A run stopped by a signal other than Ctrl-C (SIGTERM): handled exactly as Ctrl-C is."""

    def __init__(self, signal_name: str) -> None:
        super().__init__(signal_name)
        self.signal_name = signal_name


@dataclass(frozen=True)
class Task:
    key: str  # the chunk file it fills
    fn: Callable
    args: tuple
    deals: int  # deals it advances the progress by


def drive(
    backend,
    tasks: Iterable[Task],
    on_done: Callable[[Task, list[dict]], None],
    on_error: Callable[[Task, BaseException], None],
) -> None:
    """Run tasks on the backend, at most ``backend.window`` in flight; call back as each ends.

    ``on_done`` runs in this process, in completion order. A failed task goes
    to ``on_error`` and the others carry on. Ctrl-C cancels everything in
    flight (the finished tasks have already been handed to ``on_done``).
    """
    pending: dict = {}
    todo = iter(tasks)
    exhausted = False
    try:
        while True:
            while not exhausted and len(pending) < backend.window:
                task = next(todo, None)
                if task is None:
                    exhausted = True
                    break
                pending[backend.submit(task.fn, *task.args)] = task
            if not pending:
                break
            done, _ = backend.wait_any(list(pending))
            for future in done:
                task = pending.pop(future)
                try:
                    rows = future.result()
                except KeyboardInterrupt:
                    raise
                except BaseException as exc:  # noqa: BLE001 - reported, the run goes on
                    if _pool_broken(exc):
                        raise
                    on_error(task, exc)
                else:
                    on_done(task, rows)
    except BaseException:
        backend.close(abort=True)
        raise
    backend.close()


def _pool_broken(exc: BaseException) -> bool:
    from concurrent.futures.process import BrokenProcessPool

    return isinstance(exc, BrokenProcessPool)


def make_progress(total: int, initial: int, tally, unit: str = "deal", disable: bool | None = None, file=None):
    """The tqdm bar: deals done (starting at ``initial`` when resuming), rate, live counts (``tally.text()``)."""
    from tqdm.auto import tqdm

    bar = tqdm(total=total, initial=initial, unit=unit, disable=disable, file=file, dynamic_ncols=True, smoothing=0.1)
    bar.set_postfix_str(tally.text(), refresh=False)
    return bar


@dataclass(frozen=True)
class Execution:
    """How a run is carried out and recorded, apart from what it computes and where it writes."""

    backend_factory: Callable[[], Any]  # called only when there is work: a finished folder starts no processes
    progress: bool | None = None  # the bar; None: on a terminal only
    command: str | None = None  # the command line the run's record keeps

    def progress_disabled(self) -> bool | None:
        """tqdm's ``disable``: None (a bar on a terminal only) stays None."""
        return None if self.progress is None else not self.progress


@dataclass
class ModeCounts:
    """Counts per mode under the names ``COUNTED``: a run's tally of its finished rows, shown on the bar.

    A kind of run names its counts, adds its rows (``add_rows``) and says
    them in a few words (``text``).
    """

    COUNTED: ClassVar[tuple[str, ...]] = ()
    modes: tuple[str, ...]
    counts: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for mode in self.modes:
            self.of(mode)

    def of(self, mode: str) -> dict:
        """The counts of ``mode`` (zero for a mode not seen yet)."""
        return self.counts.setdefault(mode, dict.fromkeys(self.COUNTED, 0))


@dataclass
class RunReport:
    """What a run did: the chunks of its plan, those finished before it, those it wrote, its failures."""

    out: Path
    deals: int
    chunks: int  # chunks (or chunk files, for a retry) in the plan
    already: int  # finished before this run
    written: int = 0  # written by this run
    failures: list[str] = field(default_factory=list)
    tally: ModeCounts | None = None  # every finished row of the folder
    seconds: float = 0.0  # the whole run, loading the solver included
    load_seconds: float = 0.0  # loading (on a first run, compiling) the solver before the work started
    compiled: int = 0  # kernels compiled by that load (0: loaded from numba's cache)

    @property
    def complete(self) -> bool:
        return not self.failures and self.already + self.written == self.chunks


def drive_recorded(
    backend,
    tasks: Iterable[Task],
    on_done: Callable[[Task, list[dict]], None],
    bar,
    report: RunReport,
    record: dict,
    out: Path,
    meta: dict,
) -> None:
    """Run the tasks; report failures on the bar; always close the run's record in the metadata."""

    def on_error(task: Task, exc: BaseException) -> None:
        message = f"{task.key}: {exc}"
        report.failures.append(message)
        bar.write(f"error: {message}", file=sys.stderr)

    stopped = True
    interrupted = None
    try:
        drive(backend, tasks, on_done, on_error)
        stopped = False
    except KeyboardInterrupt as exc:
        interrupted = getattr(exc, "signal_name", "SIGINT")
        raise
    finally:
        bar.close()
        record.update(
            finished=now_text(),
            chunks_written=report.written,
            failures=report.failures,
            stopped_early=stopped,
            interrupted=interrupted,
        )
        try:
            write_metadata(out, meta)
        except OSError:
            if not stopped:  # a write failure that stopped the run is the error reported; keep that one
                raise


def load_record(report: RunReport) -> dict:
    """What a run's record says of the solver's load before the work: its seconds, and the kernels it compiled."""
    return {"solver_load_seconds": round(report.load_seconds, 3), "kernels_compiled": report.compiled}


@dataclass(frozen=True)
class ChunkJob:
    """What one kind of run puts into the skeleton of :func:`run_chunks`."""

    kind: str  # the run record's kind: "batch" or "play"
    modes: tuple[str, ...]  # warmed up before the backend starts
    read_tally: Callable[[], Any]  # the counts of the folder's finished rows, read under the lock
    new_report: Callable[..., RunReport]  # called as RunReport is: out, deals, chunks, already, tally=
    task: Callable[[Chunk], Task]  # the task that fills one chunk file
    write: Callable[[Task, list[dict], RunReport], None]  # writes a finished task's rows; counts them in the report
    on_strangers: Callable[[list[str]], None] | None = None  # told of chunk files the plan does not make
    shortest: bool = False  # its tasks find minimum solutions: the warm-up loads the shortest search too


def _metadata_under_lock(out: Path, meta: dict) -> dict:
    """The folder's metadata as it is now that the lock is held: the caller's, or the one a run that held the
    lock meanwhile wrote (its run records kept); refused when that run's settings are not the caller's."""
    found = read_metadata(out)
    if found is None or found.get("runs") == meta.get("runs"):
        return meta
    ignored = ("runs", "created", "version", "package_version")
    if {k: v for k, v in found.items() if k not in ignored} != {k: v for k, v in meta.items() if k not in ignored}:
        raise BatchError(f"another run wrote {out} with other settings meanwhile: rerun the command to see which")
    return found


def _remove_if_unused(out: Path) -> None:
    """Remove a folder this run made when it holds nothing but the lock file (nothing was written)."""
    if {p.name for p in out.iterdir()} <= {LOCK}:
        (out / LOCK).unlink(missing_ok=True)
        out.rmdir()


def run_chunks(
    job: ChunkJob,
    out: Path,
    meta: dict,
    plan: list[Chunk],
    how: Execution,
) -> RunReport:
    """Run every chunk of ``plan`` not yet in ``out``, under the folder's lock; return what was done.

    ``meta`` is the folder's metadata (read and checked, or new). The lock is
    taken first (the folder made for it), and the folder read only under it:
    two identical runs on a new folder cannot both solve every chunk, and the
    second cannot write a metadata file without the first's run record. A
    folder this run made is removed again when nothing is written to it (no
    work to do, a backend that fails to start).
    """
    made = not out.exists()
    with contextlib.ExitStack() as stack:
        out.mkdir(parents=True, exist_ok=True)
        stack.enter_context(FolderLock(out))
        if made:  # only once the lock is held: a run that lost the race must not remove the winner's folder
            stack.callback(_remove_if_unused, out)
        remove_stale_tmp(out)
        meta = _metadata_under_lock(out, meta)
        finished = finished_chunks(out)
        tally = job.read_tally()
        strangers = sorted(finished - {c.name for c in plan})
        if strangers and job.on_strangers is not None:
            job.on_strangers(strangers)
        todo = [c for c in plan if c.name not in finished]
        report = job.new_report(out, sum(len(c.deals) for c in plan), len(plan), len(plan) - len(todo), tally=tally)
        if not todo:
            return report
        report.load_seconds, report.compiled = warm_up(job.modes, how.progress, job.shortest)
        backend = how.backend_factory()
        try:
            extra = {"execution": backend.describe(), "chunks_todo": len(todo), **load_record(report)}
            record = run_record(job.kind, how.command, backend.name, extra)
            meta["runs"].append(record)
            write_metadata(out, meta)
        except BaseException:
            backend.close(abort=True)
            raise
        done = sum(len(c.deals) for c in plan if c.name in finished)
        bar = make_progress(report.deals, done, tally, disable=how.progress_disabled())

        def on_done(task: Task, rows: list[dict]) -> None:
            job.write(task, rows, report)
            report.written += 1
            tally.add_rows(rows)
            bar.set_postfix_str(tally.text(), refresh=False)
            bar.update(task.deals)

        drive_recorded(backend, (job.task(c) for c in todo), on_done, bar, report, record, out, meta)
    return report
