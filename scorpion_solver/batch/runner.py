"""The two operations of a batch: solve a range into a results folder, and retry its unknown rows.

:func:`run_batch` solves every chunk of the plan not yet in the folder (the
skeleton of ``resumable.run_chunks``, with solve tasks and result rows);
:func:`retry_unknown` re-solves the ``unknown`` rows of a finished folder
with a bigger budget and rewrites their chunk files atomically (the
``budget_*`` columns say which budget decided each row, so an interrupted
retry resumes where it stopped). Both submit chunk tasks to a backend through
``resumable.drive`` and write every finished chunk at once, so an interrupted
run loses only the chunks in flight.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import pyarrow as pa

from ..solver.result import LOST, UNKNOWN, WON
from .backends import solve_chunk, solve_pairs, warm_up
from .folder import (
    METADATA,
    SCHEMA,
    FolderLock,
    check_folder,
    finished_chunks,
    limits_text,
    new_metadata,
    read_chunk,
    read_folder,
    read_metadata,
    recorded_reductions,
    refuse_foreign_folder,
    remove_stale_tmp,
    run_record,
    settings_record,
    write_chunk,
    write_metadata,
)
from .plan import BatchError, BatchSettings, Chunk, default_chunk, plan_chunks
from .resumable import (
    ChunkJob,
    Execution,
    ModeCounts,
    RunReport,
    Task,
    drive_recorded,
    load_record,
    make_progress,
    run_chunks,
)

STATUSES = (WON, LOST, UNKNOWN)


class Tally(ModeCounts):
    """won / lost / unknown counts per mode."""

    COUNTED = STATUSES

    def add(self, mode: str, status: str, n: int = 1) -> None:
        self.of(mode)[status] += n

    def add_rows(self, rows: Iterable[dict]) -> None:
        for row in rows:
            self.add(row["mode"], row["status"])

    def add_table(self, table: pa.Table) -> None:
        counts = table.select(["mode", "status"]).group_by(["mode", "status"]).aggregate([("status", "count")])
        for row in counts.to_pylist():
            self.add(row["mode"], row["status"], row["status_count"])

    def text(self) -> str:
        return " | ".join(f"{m} W{c[WON]} L{c[LOST]} U{c[UNKNOWN]}" for m, c in self.counts.items())


# ---------------------------------------------------------------------------
# the two operations


@dataclass
class BatchReport(RunReport):
    solved: int = 0  # (deal, mode) solves this run


def prepare_folder(settings: BatchSettings, out: Path, retry: bool) -> tuple[dict, int]:
    """Check or create the folder's metadata; return it and the chunk size to use."""
    meta = read_metadata(out) if out.exists() else None
    if out.exists() and not out.is_dir():
        raise BatchError(f"{out} exists and is not a folder")
    if meta is None:
        if retry:
            raise BatchError(
                f"{out} is not a results folder (no {METADATA}); --retry-unknown needs the folder of an earlier run"
            )
        refuse_foreign_folder(out)
        chunk = settings.chunk or default_chunk(len(settings.deals))
        meta = new_metadata(settings, chunk)
        return meta, chunk
    check_folder(out, meta, settings, retry=retry)
    return meta, int(meta["chunk"])


def run_batch(settings: BatchSettings, out: Path, how: Execution) -> BatchReport:
    """Solve every chunk of the plan not yet in ``out``; return what was done (``resumable.run_chunks``)."""
    started = time.perf_counter()
    meta, chunk = prepare_folder(settings, out, retry=False)

    def read_tally() -> Tally:
        tally = Tally(settings.modes)
        tally.add_table(read_folder(out, columns=["mode", "status"]))  # refuses duplicate rows
        return tally

    def warn_strangers(strangers: list[str]) -> None:
        _stderr(
            f"warning: {out} holds {len(strangers)} chunk files this plan does not make "
            f"(e.g. {strangers[0]}); readers will see their rows too"
        )

    def task(c: Chunk) -> Task:
        how = (settings.limits, settings.reductions, settings.shortest)
        return Task(c.name, solve_chunk, (tuple(c.deals.tolist()), settings.modes, *how), len(c.deals))

    def write(task: Task, rows: list[dict], report: BatchReport) -> None:
        write_chunk(out, task.key, rows, meta["columns"])
        report.solved += len(rows)

    job = ChunkJob("batch", settings.modes, read_tally, BatchReport, task, write, warn_strangers, settings.shortest)
    report = run_chunks(job, out, meta, list(plan_chunks(settings.deals, chunk)), how)
    report.seconds = time.perf_counter() - started
    return report


def needs_retry(row_budget: tuple, budget: tuple) -> bool:
    return row_budget != budget


def budget_covers(new: tuple, old: tuple) -> bool:
    """Whether budget ``new`` (nodes, memory_mb, seconds or None) is at least ``old`` in every limit."""
    nodes, memory, seconds = new
    o_nodes, o_memory, o_seconds = old
    time_ok = seconds is None or (o_seconds is not None and seconds >= o_seconds)
    return nodes >= o_nodes and memory >= o_memory and time_ok


def retry_unknown(settings: BatchSettings, out: Path, how: Execution) -> BatchReport:
    """Re-solve the unknown rows of a finished folder under ``settings.limits`` (a bigger budget).

    Each chunk file with such rows is rewritten atomically once its deals are
    re-solved; the rows keep the budget that produced them (``budget_*``), so
    an interrupted retry resumes where it stopped.
    """
    started = time.perf_counter()
    meta, chunk = prepare_folder(settings, out, retry=True)
    limits = settings.limits
    budget = (limits.nodes, limits.memory_mb, limits.seconds)
    with FolderLock(out):
        remove_stale_tmp(out)
        plan = list(plan_chunks(settings.deals, chunk))
        finished = finished_chunks(out)
        missing = [c.name for c in plan if c.name not in finished]
        if missing:
            raise BatchError(
                f"{out} is not finished ({len(missing)} of {len(plan)} chunks missing): rerun the "
                "original command to finish it before --retry-unknown"
            )
        if settings.reductions != recorded_reductions(meta["limits"]):
            raise BatchError("--retry-unknown cannot change a folder's search reductions")
        work: list[tuple[str, list[tuple[int, str]]]] = []
        same_budget = 0  # unknown rows this very budget already left unknown
        tally = Tally(settings.modes)
        for chunk_obj in plan:
            table = read_chunk(
                out / chunk_obj.name,
                SCHEMA,
                ["deal", "mode", "status", "budget_nodes", "budget_memory_mb", "budget_seconds"],
            )
            tally.add_table(table)
            pairs = []
            for row in table.to_pylist():
                if row["status"] != UNKNOWN:
                    continue
                old = (row["budget_nodes"], row["budget_memory_mb"], row["budget_seconds"])
                if not needs_retry(old, budget):
                    same_budget += 1
                    continue
                if not budget_covers(budget, old):
                    raise BatchError(
                        f"--retry-unknown needs a bigger budget than the one that left deal "
                        f"{row['deal']} ({row['mode']}) unknown ({limits_text(_budget_record(old))}); "
                        f"got {limits_text(_budget_record(budget))}"
                    )
                pairs.append((row["deal"], row["mode"]))
            if pairs:
                work.append((chunk_obj.name, pairs))
        total = sum(len(p) for _, p in work)
        report = BatchReport(out=out, deals=len(settings.deals), chunks=len(work), already=0, tally=tally)
        if not work and same_budget:
            raise BatchError(
                f"{out}: the {same_budget} unknown solves left were left unknown by this same budget "
                f"({limits_text(_budget_record(budget))}); --retry-unknown needs a bigger one: "
                "raise --nodes, --memory or --time"
            )
        if not work:
            _stderr(f"{out}: no unknown deal left to retry")
            report.seconds = time.perf_counter() - started
            return report
        report.load_seconds, report.compiled = warm_up(settings.modes, how.progress, settings.shortest)
        backend = how.backend_factory()
        record = run_record(
            "retry-unknown",
            how.command,
            backend.name,
            {
                "execution": backend.describe(),
                "limits": settings_record(settings),
                "solves": total,
                **load_record(report),
            },
        )
        meta["retries"].append(record)
        write_metadata(out, meta)
        bar = make_progress(total, 0, tally, unit="solve", disable=how.progress_disabled())

        def on_done(task: Task, rows: list[dict]) -> None:
            path = out / task.key
            old_rows = read_chunk(path, SCHEMA).to_pylist()
            fresh = {(r["deal"], r["mode"]): r for r in rows}
            for r in old_rows:
                if (r["deal"], r["mode"]) in fresh:
                    tally.add(r["mode"], r["status"], -1)
            merged = [fresh.get((r["deal"], r["mode"]), r) for r in old_rows]
            write_chunk(out, task.key, merged, meta["columns"])
            tally.add_rows(rows)
            report.written += 1
            report.solved += len(rows)
            bar.set_postfix_str(tally.text(), refresh=False)
            bar.update(task.deals)

        how = (limits, settings.reductions, settings.shortest)
        tasks = (Task(name, solve_pairs, (pairs, *how), len(pairs)) for name, pairs in work)
        drive_recorded(backend, tasks, on_done, bar, report, record, out, meta)
    report.seconds = time.perf_counter() - started
    return report


def _budget_record(budget: tuple) -> dict:
    return {"nodes": budget[0], "memory_mb": budget[1], "seconds": budget[2]}


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)
