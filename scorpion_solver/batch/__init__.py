"""Batches: solve ranges of deals in parallel into resumable folders, and their statistics.

* ``plan``: which deals (RANGE) and how they are cut into chunks;
* ``folder``: the results folder (schema, atomic chunk writes, lock, metadata, reading);
* ``backends``: where the chunk tasks run (local processes, Dask) and what a worker does;
* ``resumable``: the resumable run both a batch and a play run are (driver loop, lock, run record, progress);
* ``runner``: the batch's two operations, ``run_batch`` and ``retry_unknown``;
* ``stats``: win rates with intervals and the paired comparison of modes.
"""

from ..solver.result import DEFAULT_MEMORY_MB, DEFAULT_NODES, Limits
from .backends import DaskBackend, LocalBackend, cpu_count, make_backend, solve_chunk, solve_pairs, warm_up
from .folder import (
    CHUNK_GLOB,
    COLUMNS,
    METADATA,
    SCHEMA,
    FolderLock,
    default_out,
    find_folders,
    limits_text,
    read_folder,
    read_metadata,
    recorded_reductions,
    rows_table,
    write_chunk,
    write_metadata,
)
from .plan import (
    MAX_BATCH_DEALS,
    MAX_DEAL,
    BatchError,
    BatchSettings,
    Chunk,
    DealSet,
    chunk_name,
    default_chunk,
    parse_modes,
    parse_range,
    plan_chunks,
)
from .resumable import Execution, Interrupted, Task, drive, make_progress
from .runner import BatchReport, Tally, retry_unknown, run_batch

__all__ = [
    "CHUNK_GLOB",
    "COLUMNS",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_NODES",
    "METADATA",
    "SCHEMA",
    "BatchError",
    "BatchReport",
    "BatchSettings",
    "Chunk",
    "Interrupted",
    "MAX_BATCH_DEALS",
    "MAX_DEAL",
    "DaskBackend",
    "DealSet",
    "Execution",
    "FolderLock",
    "Limits",
    "LocalBackend",
    "Tally",
    "Task",
    "chunk_name",
    "cpu_count",
    "default_chunk",
    "default_out",
    "drive",
    "find_folders",
    "limits_text",
    "make_backend",
    "make_progress",
    "parse_modes",
    "parse_range",
    "plan_chunks",
    "read_folder",
    "read_metadata",
    "recorded_reductions",
    "retry_unknown",
    "rows_table",
    "run_batch",
    "solve_chunk",
    "solve_pairs",
    "warm_up",
    "write_chunk",
    "write_metadata",
]
