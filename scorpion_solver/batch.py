"""Solve ranges of deals in parallel into a resumable folder of Parquet files.

A *results folder* holds one Parquet file per finished chunk of deals and a
metadata file::

    results/1-100000-clear+classic-n50000000/
        _batch.json                          settings, package version, runs, machine
        chunk-00000001-00001000.parquet      deals 1..1000, every mode, sorted by (deal, mode)
        chunk-00001001-00002000.parquet
        ...

Files whose names start with ``_`` or ``.`` (the metadata, the lock, chunks
still being written) are skipped by pandas / pyarrow, and ``*.parquet`` globs
(polars, duckdb) see only finished chunks, so every reader sees exactly the
finished rows. Every chunk has the same explicit schema (:data:`SCHEMA`).

Crash safety: a chunk is written to ``.chunk-....parquet.tmp``, flushed to
disk and renamed with ``os.replace`` (atomic), so a crash, Ctrl-C or SIGKILL
loses at most the chunks in flight and never leaves a half-written
``chunk-*.parquet``. Resume: the chunks of a run are a pure function of the
deal list and the chunk size (recorded in ``_batch.json``); a rerun skips the
chunk files that exist. A folder refuses results made under other rules,
limits, deals or chunking.

Retry: :func:`retry_unknown` re-solves the ``unknown`` rows with a bigger
budget and rewrites their chunk files atomically; the ``budget_*`` columns
say which budget decided each row.

Execution: the driver loop (:func:`drive`) submits chunk tasks to a backend
with one small interface (``window``, ``submit``, ``wait_any``, ``close``):
:class:`LocalBackend` (``concurrent.futures.ProcessPoolExecutor``, spawned
processes that load the solver from numba's cache) or :class:`DaskBackend`
(``dask.distributed``, optional extra). Workers only solve and return rows;
the driver alone writes the folder, so cluster workers need no shared disk.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import re
import shlex
import signal
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from . import __version__
from .result import DEFAULT_MEMORY_MB, DEFAULT_NODES, LOST, UNKNOWN, WON, Limits, SolveResult
from .rules import MODES, PRESETS, get_rules

FORMAT = "scorpion-batch/1"
METADATA = "_batch.json"
LOCK = ".lock"
CHUNK_GLOB = "chunk-*.parquet"
CHUNK_RE = re.compile(r"^chunk-(\d+)-(\d+)\.parquet$")
TMP_RE = re.compile(r"^\.chunk-\d+-\d+\.parquet\.tmp$")
COMPRESSION = "zstd"
MAX_DEFAULT_CHUNK = 1000
MIN_DEFAULT_CHUNK = 10
STATUSES = (WON, LOST, UNKNOWN)


class BatchError(ValueError):
    """A user mistake about a batch (bad RANGE, wrong folder, mixed settings).

    A ValueError, so ``cli_errors.user_errors`` reports it as one ``error:`` line.
    """


# ---------------------------------------------------------------------------
# the rows


# The columns: deal and mode, then every field of SolveResult (the typed
# record's fields are the columns of the batch output, so a counter added to
# the solver becomes a column), then the budget that produced the row. The
# schema is explicit so that every chunk file has the same one.
_PINNED = {  # narrower or documented types for the known fields
    "status": pa.string(),            # won | lost | unknown
    "seconds": pa.float64(),          # wall clock of this solve (not reproducible)
    "solution": pa.string(),          # RULES.md notation, "" unless won
    "solution_length": pa.int32(),
    "max_depth": pa.int32(),
    "peak_entries": pa.int64(),       # transposition table entries at the end
    "stopped_by": pa.string(),        # nodes | memory | time | depth, "" when decided
}
_BY_ANNOTATION = {"int": pa.int64(), "float": pa.float64(), "str": pa.string(), "bool": pa.bool_()}
_RESULT_SKIP = ("rules", "deal")  # rules is the mode column; deal has its own


def _result_fields() -> list[pa.Field]:
    out = []
    for f in fields(SolveResult):
        if f.name in _RESULT_SKIP:
            continue
        annotation = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        type_ = _PINNED.get(f.name) or _BY_ANNOTATION.get(annotation.replace(" ", ""), pa.string())
        out.append(pa.field(f.name, type_, nullable=False))
    return out


SCHEMA = pa.schema(
    [pa.field("deal", pa.int64(), nullable=False), pa.field("mode", pa.string(), nullable=False)]
    + _result_fields()
    + [pa.field("budget_nodes", pa.int64(), nullable=False),       # the limits of the solve
       pa.field("budget_memory_mb", pa.int64(), nullable=False),   # that produced this row
       pa.field("budget_seconds", pa.float64(), nullable=True)]    # null: no time limit
)
COLUMNS = tuple(SCHEMA.names)
_STRINGIFY = {f.name for f in SCHEMA if f.type == pa.string()}


def rows_table(rows: list[dict]) -> pa.Table:
    """Rows (dicts with the SCHEMA columns) as a table sorted by (deal, mode)."""
    ordered = sorted(rows, key=lambda r: (r["deal"], r["mode"]))
    return pa.Table.from_pylist(ordered, schema=SCHEMA)


# ---------------------------------------------------------------------------
# RANGE: which deals


RANGE_RE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$")


@dataclass(frozen=True)
class DealSet:
    """The deals of a batch: sorted, distinct deal numbers and where they came from."""

    spec: str            # the RANGE as given ("1-100000", "7", or a file path)
    numbers: np.ndarray  # sorted distinct int64
    label: str           # for folder names: "1-100000" or the file's stem

    def __len__(self) -> int:
        return int(self.numbers.size)

    @property
    def first(self) -> int:
        return int(self.numbers[0])

    @property
    def last(self) -> int:
        return int(self.numbers[-1])

    def digest(self) -> str:
        return hashlib.sha256(self.numbers.astype("<i8").tobytes()).hexdigest()

    def describe(self) -> dict:
        return {"spec": self.spec, "count": len(self), "first": self.first, "last": self.last,
                "sha256": self.digest()}


def parse_range(text: str) -> DealSet:
    """A RANGE: ``A-B`` (inclusive), a single deal ``N``, or a file of deal numbers.

    The file holds one number a line; blank lines and ``#`` comments are
    ignored, repeats are dropped and the numbers sorted. Raises BatchError
    with the offending text (and line) otherwise.
    """
    match = RANGE_RE.match(text)
    if match:
        start = int(match.group(1))
        end = int(match.group(2)) if match.group(2) is not None else start
        if start < 1:
            raise BatchError(f"'{text}': deal numbers start at 1")
        if end < start:
            raise BatchError(f"'{text}' is not a range: {start} comes after {end}")
        return DealSet(text.strip(), np.arange(start, end + 1, dtype=np.int64), f"{start}-{end}")
    path = Path(text)
    if not path.is_file():
        raise BatchError(f"'{text}' is not a RANGE (like 1-100000 or 7) nor a file of deal numbers")
    return _read_numbers(path)


def _read_numbers(path: Path) -> DealSet:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise BatchError(f"cannot read {path}: {exc}") from None
    numbers = []
    for lineno, line in enumerate(lines, 1):
        token = line.split("#", 1)[0].strip()
        if not token:
            continue
        if not token.isdigit() or int(token) < 1:
            raise BatchError(f"{path} line {lineno}: '{token}' is not a deal number (a whole number, 1 or more)")
        numbers.append(int(token))
    if not numbers:
        raise BatchError(f"{path} holds no deal numbers (one a line)")
    return DealSet(str(path), np.unique(np.array(numbers, dtype=np.int64)), path.stem)


def parse_modes(text: str) -> tuple[str, ...]:
    """A comma list of preset names, deduplicated, in the order of rules.PRESETS."""
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not names:
        raise BatchError("--mode needs at least one rules preset (e.g. clear,classic)")
    for name in names:
        get_rules(name)  # ValueError naming the known presets
    return tuple(name for name in PRESETS if name in names)


# ---------------------------------------------------------------------------
# chunks


def default_chunk(count: int) -> int:
    """Deals per chunk when --chunk is not given: about 100 chunks, 10 to 1000 deals each.

    A function of the number of deals only, so a rerun plans the same chunks.
    """
    return max(MIN_DEFAULT_CHUNK, min(MAX_DEFAULT_CHUNK, -(-count // 100)))


def chunk_name(first: int, last: int) -> str:
    return f"chunk-{first:08d}-{last:08d}.parquet"


@dataclass(frozen=True, eq=False)
class Chunk:
    deals: np.ndarray  # a view into the sorted deal list (a plan of millions of deals copies nothing)

    @property
    def name(self) -> str:
        return chunk_name(int(self.deals[0]), int(self.deals[-1]))


def plan_chunks(deals: DealSet, size: int) -> Iterator[Chunk]:
    """Consecutive slices of ``size`` deals of the sorted deal list."""
    if size < 1:
        raise BatchError("--chunk must be at least 1")
    numbers = deals.numbers
    for lo in range(0, numbers.size, size):
        yield Chunk(numbers[lo:lo + size])


def finished_chunks(out: Path) -> set[str]:
    """Names of the complete chunk files in a folder."""
    if not out.is_dir():
        return set()
    return {p.name for p in out.iterdir() if CHUNK_RE.match(p.name)}


# ---------------------------------------------------------------------------
# the worker side


_warm = False  # whether this process has loaded the jitted solver (see warm_up)


def solve_pairs(pairs: list[tuple[int, str]], limits: Limits) -> list[dict]:
    """Solve each (deal, mode); return one row per pair (the SCHEMA columns).

    Runs in worker processes. An exception names the deal and mode.
    """
    from .deal import deal
    from .search import solve

    if not _warm:
        warm_up()
    rows = []
    for number, mode in pairs:
        rules = get_rules(mode)
        try:
            result = solve(deal(number, rules), rules, limits)
        except Exception as exc:
            raise RuntimeError(f"deal {number} ({mode}): {type(exc).__name__}: {exc}") from exc
        row = result.as_row()
        row.update(deal=number, mode=mode, budget_nodes=limits.nodes, budget_memory_mb=limits.memory_mb,
                   budget_seconds=limits.seconds)
        rows.append({name: str(row[name]) if name in _STRINGIFY else row[name] for name in COLUMNS})
    return rows


def solve_chunk(deals: tuple[int, ...], modes: tuple[str, ...], limits: Limits) -> list[dict]:
    """The rows of one chunk: every deal in every mode."""
    return solve_pairs([(n, m) for n in deals for m in modes], limits)


def warm_up(modes: Iterable[str] = MODES) -> None:
    """Compile (or load from numba's cache) the solver in this process.

    The parent calls it before workers start, so that they find the cache
    filled instead of compiling side by side; each worker calls it before its
    first timed solve, so that no row's ``seconds`` includes loading the
    solver (about a second from the cache, ten compiling).
    """
    global _warm
    _warm = True
    solve_pairs([(1, m) for m in modes], Limits(nodes=1000, memory_mb=16))


def _worker_init() -> None:
    """Local worker setup: Ctrl-C is the parent's business; die with the parent (Linux); load the solver."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - exotic libc
            pass
    warm_up()


def worker_info() -> dict:
    """What a (Dask) worker runs: checked by the driver before it sends work."""
    return {"package_version": __version__, "host": platform.node(), "python": platform.python_version()}


# ---------------------------------------------------------------------------
# backends: where tasks run


class LocalBackend:
    """Worker processes on this machine (spawned, so they load numba's cache)."""

    name = "local"

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.workers = workers
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_worker_init)

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
        self.pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=10)
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
            self.cluster = distributed.LocalCluster(n_workers=local_workers, threads_per_worker=1, processes=True,
                                                    dashboard_address=None, silence_logs=logging.ERROR)
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
            raise BatchError(f"the Dask workers cannot run scorpion-solver ({type(exc).__name__}: {exc}); "
                             "install it on every worker host: pip install 'scorpion-solver[dask]'") from None
        if not self.workers_info:
            print(f"note: the Dask scheduler at {self.address} has no workers yet; the chunks wait for them",
                  file=sys.stderr)
        others = sorted({i["package_version"] for i in self.workers_info.values()} - {__version__})
        if others:
            print(f"warning: Dask workers run scorpion-solver {', '.join(others)}, this driver {__version__}",
                  file=sys.stderr)
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
        return {"backend": self.name, "scheduler": self.address, "local_cluster": self.cluster is not None,
                "workers": {addr: info for addr, info in sorted(self.workers_info.items())}}

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


# ---------------------------------------------------------------------------
# the driver loop


@dataclass(frozen=True)
class Task:
    key: str                 # the chunk file it fills
    fn: Callable
    args: tuple
    deals: int               # deals it advances the progress by


def drive(backend, tasks: Iterable[Task], on_done: Callable[[Task, list[dict]], None],
          on_error: Callable[[Task, BaseException], None]) -> None:
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
                return
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


# ---------------------------------------------------------------------------
# the folder: metadata, lock, atomic writes


def _json_clean(value):
    return json.loads(json.dumps(value))


def rules_record(modes: Iterable[str]) -> dict:
    return {m: _json_clean(asdict(get_rules(m))) for m in modes}


def _rule_choices(record: dict | None) -> dict | None:
    """A recorded preset without its ``source`` citation (a citation is not a rule)."""
    return None if record is None else {k: v for k, v in record.items() if k != "source"}


def limits_record(limits: Limits) -> dict:
    return _json_clean(asdict(limits))


def limits_text(record: dict) -> str:
    seconds = record.get("seconds")
    time_part = f", time {seconds:g} s" if seconds else ""
    prune = "" if record.get("prune", True) else ", no pruning"
    return f"nodes {record['nodes']}, memory {record['memory_mb']} MB{time_part}{prune}"


def machine_record() -> dict:
    import numba

    record = {
        "host": platform.node(), "platform": platform.platform(), "machine": platform.machine(),
        "processor": platform.processor(), "cpus": os.cpu_count(), "python": platform.python_version(),
        "numpy": np.__version__, "numba": numba.__version__, "pyarrow": pa.__version__,
    }
    try:
        record["memory_gb"] = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        pass
    return record


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def read_metadata(out: Path) -> dict | None:
    path = out / METADATA
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BatchError(f"cannot read {path}: {exc}") from None


def write_metadata(out: Path, meta: dict) -> None:
    _atomic_write(out, METADATA, json.dumps(meta, indent=2, sort_keys=False).encode("utf-8") + b"\n")


def _atomic_write(out: Path, name: str, data: bytes | None = None, table: pa.Table | None = None) -> None:
    """Write ``out/name`` whole or not at all: a dot-named temporary file, fsync, os.replace."""
    tmp = out / f".{name}.tmp"
    with open(tmp, "wb") as handle:
        if table is not None:
            pq.write_table(table, handle, compression=COMPRESSION)
        else:
            handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, out / name)
    _fsync_dir(out)


def _fsync_dir(out: Path) -> None:
    try:
        fd = os.open(out, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def write_chunk(out: Path, name: str, rows: list[dict]) -> None:
    """Write one chunk file atomically (``.chunk-....parquet.tmp``, then rename)."""
    _atomic_write(out, name, table=rows_table(rows))


def remove_stale_tmp(out: Path) -> int:
    """Delete temporary chunk files a killed run left behind; return how many."""
    stale = [p for p in out.iterdir() if TMP_RE.match(p.name)]
    for path in stale:
        path.unlink()
    return len(stale)


class FolderLock:
    """An exclusive lock on a results folder (released by the OS even on SIGKILL)."""

    def __init__(self, out: Path) -> None:
        self.path = out / LOCK
        self.handle = None

    def __enter__(self) -> "FolderLock":
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: no lock
            return self
        self.handle = open(self.path, "a+")
        try:
            fcntl.flock(self.handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.handle.close()
            self.handle = None
            raise BatchError(f"another scorpion batch is writing to {self.path.parent}") from None
        return self

    def __exit__(self, *exc) -> None:
        if self.handle is not None:
            self.handle.close()  # closing releases the flock


def read_folder(out: Path, columns: list[str] | None = None) -> pa.Table:
    """Every finished row of a folder, sorted by (deal, mode), with the SCHEMA."""
    paths = sorted(out.glob(CHUNK_GLOB))
    if not paths:
        return SCHEMA.empty_table() if columns is None else SCHEMA.empty_table().select(columns)
    table = pa.concat_tables(pq.read_table(p, columns=columns, schema=SCHEMA) for p in paths)
    return table.sort_by([("deal", "ascending"), ("mode", "ascending")]) if "deal" in table.column_names else table


# ---------------------------------------------------------------------------
# settings and the folder's identity


@dataclass(frozen=True)
class BatchSettings:
    deals: DealSet
    modes: tuple[str, ...]
    limits: Limits
    chunk: int | None = None  # None: the folder's, or default_chunk()


def default_out(deals: DealSet, modes: tuple[str, ...], limits: Limits) -> Path:
    """``results/<start>-<end>-<modes>-n<nodes>`` (plus -m<MB> / -t<S> when not the defaults)."""
    name = f"{deals.label}-{'+'.join(modes)}-n{limits.nodes}"
    if limits.memory_mb != DEFAULT_MEMORY_MB:
        name += f"-m{limits.memory_mb}"
    if limits.seconds is not None:
        name += f"-t{limits.seconds:g}"
    if not limits.prune:
        name += "-noprune"
    return Path("results") / name


def find_folders(deals: DealSet, modes: tuple[str, ...], root: Path = Path("results")) -> list[Path]:
    """Folders under ``root`` holding these deals in these modes (any limits)."""
    found = []
    if not root.is_dir():
        return found
    for path in sorted(root.iterdir()):
        try:
            meta = read_metadata(path) if path.is_dir() else None
        except BatchError:
            continue
        if meta and meta.get("modes") == list(modes) and meta.get("deals", {}).get("sha256") == deals.digest():
            found.append(path)
    return found


def check_folder(out: Path, meta: dict, settings: BatchSettings, retry: bool = False) -> None:
    """Refuse to add results made under other settings to a folder (BatchError says which)."""
    if meta.get("format") != FORMAT:
        raise BatchError(f"{out / METADATA} is not a scorpion batch metadata file (format {meta.get('format')!r})")
    old_modes = meta["modes"]
    if list(settings.modes) != old_modes:
        raise BatchError(f"{out} holds results for rules {','.join(old_modes)}; this run asks for "
                         f"{','.join(settings.modes)}: refusing to mix results of different rules in one folder "
                         "(give another --out)")
    new_rules = rules_record(settings.modes)
    for mode in settings.modes:
        if _rule_choices(meta["rules"].get(mode)) != _rule_choices(new_rules[mode]):
            raise BatchError(f"the rules '{mode}' recorded in {out / METADATA} differ from this version's "
                             f"({meta['rules'].get(mode)} vs {new_rules[mode]}): refusing to mix results of "
                             "different rules in one folder (give another --out)")
    old_deals = meta["deals"]
    if old_deals["sha256"] != settings.deals.digest():
        raise BatchError(f"{out} holds deals {old_deals['spec']} ({old_deals['count']} deals); this run asks for "
                         f"{settings.deals.spec} ({len(settings.deals)} deals): give another --out")
    if meta.get("columns") != list(COLUMNS):
        added = [c for c in COLUMNS if c not in meta.get("columns", [])]
        gone = [c for c in meta.get("columns", []) if c not in COLUMNS]
        raise BatchError(f"{out} was written with other columns than this version writes (new: "
                         f"{', '.join(added) or 'none'}; gone: {', '.join(gone) or 'none'}): refusing to mix "
                         "tables of different schemas in one folder (give another --out)")
    if settings.chunk is not None and settings.chunk != meta["chunk"]:
        raise BatchError(f"{out} was made with --chunk {meta['chunk']}; rerun with --chunk {meta['chunk']} "
                         "(or without --chunk) or give another --out")
    if not retry and limits_record(settings.limits) != meta["limits"]:
        raise BatchError(f"{out} was made with limits ({limits_text(meta['limits'])}); this run asks for "
                         f"({limits_text(limits_record(settings.limits))}): refusing to mix results of "
                         "different limits in one folder (to re-solve its unknown deals with a bigger budget, "
                         f"use --retry-unknown --out {out})")


def new_metadata(settings: BatchSettings, chunk: int) -> dict:
    return {
        "format": FORMAT,
        "created": now_text(),
        "package_version": __version__,
        "deals": settings.deals.describe(),
        "modes": list(settings.modes),
        "rules": rules_record(settings.modes),
        "limits": limits_record(settings.limits),
        "chunk": chunk,
        "columns": list(COLUMNS),
        "runs": [],
        "retries": [],
    }


def run_record(kind: str, command: str | None, backend: str, extra: dict | None = None) -> dict:
    record = {"kind": kind, "started": now_text(), "finished": None, "package_version": __version__,
              "command": command or shlex.join(sys.argv), "backend": backend, "machine": machine_record()}
    record.update(extra or {})
    return record


# ---------------------------------------------------------------------------
# progress and tallies


@dataclass
class Tally:
    """won / lost / unknown counts per mode."""

    modes: tuple[str, ...]
    counts: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for mode in self.modes:
            self.counts.setdefault(mode, {s: 0 for s in STATUSES})

    def add(self, mode: str, status: str, n: int = 1) -> None:
        self.counts.setdefault(mode, {s: 0 for s in STATUSES})[status] += n

    def add_rows(self, rows: Iterable[dict]) -> None:
        for row in rows:
            self.add(row["mode"], row["status"])

    def add_table(self, table: pa.Table) -> None:
        counts = table.select(["mode", "status"]).group_by(["mode", "status"]).aggregate([("status", "count")])
        for row in counts.to_pylist():
            self.add(row["mode"], row["status"], row["status_count"])

    def text(self) -> str:
        return " | ".join(f"{m} W{c[WON]} L{c[LOST]} U{c[UNKNOWN]}" for m, c in self.counts.items())


def make_progress(total: int, initial: int, tally: Tally, unit: str = "deal", disable: bool | None = None,
                  file=None):
    """The tqdm bar: deals done (starting at ``initial`` when resuming), rate, live counts per mode."""
    from tqdm.auto import tqdm

    bar = tqdm(total=total, initial=initial, unit=unit, disable=disable, file=file, dynamic_ncols=True,
               smoothing=0.1)
    bar.set_postfix_str(tally.text(), refresh=False)
    return bar


# ---------------------------------------------------------------------------
# the two operations


@dataclass
class BatchReport:
    out: Path
    deals: int
    chunks: int                 # chunks (or chunk files, for a retry) in the plan
    already: int                # finished before this run
    written: int = 0            # written by this run
    failures: list[str] = field(default_factory=list)
    tally: Tally | None = None  # every finished row of the folder
    solved: int = 0             # (deal, mode) solves this run
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return not self.failures and self.already + self.written == self.chunks


def prepare_folder(settings: BatchSettings, out: Path, retry: bool) -> tuple[dict, int]:
    """Check or create the folder's metadata; return it and the chunk size to use."""
    meta = read_metadata(out) if out.exists() else None
    if out.exists() and not out.is_dir():
        raise BatchError(f"{out} exists and is not a folder")
    if meta is None:
        if retry:
            raise BatchError(f"{out} is not a results folder (no {METADATA}); --retry-unknown needs the folder "
                             "of an earlier run")
        if out.is_dir() and finished_chunks(out):
            raise BatchError(f"{out} holds chunk files but no {METADATA}: not a folder this tool can add to")
        chunk = settings.chunk or default_chunk(len(settings.deals))
        meta = new_metadata(settings, chunk)
        return meta, chunk
    check_folder(out, meta, settings, retry=retry)
    return meta, int(meta["chunk"])


def run_batch(settings: BatchSettings, out: Path, backend_factory: Callable[[], object],
              progress: bool | None = None, command: str | None = None, echo=None) -> BatchReport:
    """Solve every chunk of the plan not yet in ``out``; return what was done.

    ``backend_factory`` is called only when there is work (so a finished
    folder starts no processes). ``progress=None`` shows the bar on a terminal.
    """
    echo = echo or _stderr
    started = time.perf_counter()
    meta, chunk = prepare_folder(settings, out, retry=False)
    with contextlib.ExitStack() as stack:
        if out.is_dir():
            stack.enter_context(FolderLock(out))
            remove_stale_tmp(out)
        plan = list(plan_chunks(settings.deals, chunk))
        planned = {c.name for c in plan}
        finished = finished_chunks(out)
        strangers = sorted(finished - planned)
        if strangers:
            echo(f"warning: {out} holds {len(strangers)} chunk files this plan does not make "
                 f"(e.g. {strangers[0]}); readers will see their rows too")
        todo = [c for c in plan if c.name not in finished]
        tally = Tally(settings.modes)
        tally.add_table(read_folder(out, columns=["mode", "status"]))
        report = BatchReport(out=out, deals=len(settings.deals), chunks=len(plan), already=len(plan) - len(todo),
                             tally=tally)
        if not todo:
            report.seconds = time.perf_counter() - started
            return report
        warm_up(settings.modes)
        backend = backend_factory()  # before the folder exists: a backend that fails leaves nothing behind
        try:
            if not out.is_dir():
                out.mkdir(parents=True, exist_ok=True)
                stack.enter_context(FolderLock(out))
            record = run_record("batch", command, backend.name, {"execution": backend.describe(),
                                                                  "chunks_todo": len(todo)})
            meta["runs"].append(record)
            write_metadata(out, meta)
        except BaseException:
            backend.close(abort=True)
            raise
        done_deals = sum(len(c.deals) for c in plan if c.name in finished)
        bar = make_progress(len(settings.deals), done_deals, tally, disable=_disable(progress))

        def on_done(task: Task, rows: list[dict]) -> None:
            write_chunk(out, task.key, rows)
            report.written += 1
            report.solved += len(rows)
            tally.add_rows(rows)
            bar.set_postfix_str(tally.text(), refresh=False)
            bar.update(task.deals)

        tasks = (Task(c.name, solve_chunk, (tuple(c.deals.tolist()), settings.modes, settings.limits), len(c.deals))
                 for c in todo)
        _drive_recorded(backend, tasks, on_done, bar, report, record, out, meta)
    report.seconds = time.perf_counter() - started
    return report


def _drive_recorded(backend, tasks: Iterable[Task], on_done: Callable[[Task, list[dict]], None], bar,
                    report: "BatchReport", record: dict, out: Path, meta: dict) -> None:
    """Run the tasks; report failures on the bar; always close the run's record in the metadata."""

    def on_error(task: Task, exc: BaseException) -> None:
        message = f"{task.key}: {exc}"
        report.failures.append(message)
        bar.write(f"error: {message}", file=sys.stderr)

    stopped = True
    try:
        drive(backend, tasks, on_done, on_error)
        stopped = False
    finally:
        bar.close()
        record.update(finished=now_text(), chunks_written=report.written, failures=report.failures,
                      stopped_early=stopped)
        write_metadata(out, meta)


def needs_retry(row_budget: tuple, budget: tuple) -> bool:
    return row_budget != budget


def budget_covers(new: tuple, old: tuple) -> bool:
    """Whether budget ``new`` (nodes, memory_mb, seconds or None) is at least ``old`` in every limit."""
    nodes, memory, seconds = new
    o_nodes, o_memory, o_seconds = old
    time_ok = seconds is None or (o_seconds is not None and seconds >= o_seconds)
    return nodes >= o_nodes and memory >= o_memory and time_ok


def retry_unknown(settings: BatchSettings, out: Path, backend_factory: Callable[[], object],
                  progress: bool | None = None, command: str | None = None, echo=None) -> BatchReport:
    """Re-solve the unknown rows of a finished folder under ``settings.limits`` (a bigger budget).

    Each chunk file with such rows is rewritten atomically once its deals are
    re-solved; the rows keep the budget that produced them (``budget_*``), so
    an interrupted retry resumes where it stopped.
    """
    echo = echo or _stderr
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
            raise BatchError(f"{out} is not finished ({len(missing)} of {len(plan)} chunks missing): rerun the "
                             "original command to finish it before --retry-unknown")
        if limits.prune != meta["limits"].get("prune", True):
            raise BatchError("--retry-unknown cannot change the pruning setting of a folder")
        work: list[tuple[str, list[tuple[int, str]]]] = []
        tally = Tally(settings.modes)
        for chunk_obj in plan:
            table = pq.read_table(out / chunk_obj.name, schema=SCHEMA,
                                  columns=["deal", "mode", "status", "budget_nodes", "budget_memory_mb",
                                           "budget_seconds"])
            tally.add_table(table)
            pairs = []
            for row in table.to_pylist():
                if row["status"] != UNKNOWN:
                    continue
                old = (row["budget_nodes"], row["budget_memory_mb"], row["budget_seconds"])
                if not needs_retry(old, budget):
                    continue
                if not budget_covers(budget, old):
                    raise BatchError(f"--retry-unknown needs a bigger budget than the one that left deal "
                                     f"{row['deal']} ({row['mode']}) unknown ({limits_text(_budget_record(old))}); "
                                     f"got {limits_text(_budget_record(budget))}")
                pairs.append((row["deal"], row["mode"]))
            if pairs:
                work.append((chunk_obj.name, pairs))
        total = sum(len(p) for _, p in work)
        report = BatchReport(out=out, deals=len(settings.deals), chunks=len(work), already=0, tally=tally)
        if not work:
            echo(f"{out}: no unknown deal left to retry under this budget")
            report.seconds = time.perf_counter() - started
            return report
        warm_up(settings.modes)
        backend = backend_factory()
        record = run_record("retry-unknown", command, backend.name,
                            {"execution": backend.describe(), "limits": limits_record(limits), "solves": total})
        meta["retries"].append(record)
        write_metadata(out, meta)
        bar = make_progress(total, 0, tally, unit="solve", disable=_disable(progress))

        def on_done(task: Task, rows: list[dict]) -> None:
            path = out / task.key
            old_rows = pq.read_table(path, schema=SCHEMA).to_pylist()
            fresh = {(r["deal"], r["mode"]): r for r in rows}
            for r in old_rows:
                if (r["deal"], r["mode"]) in fresh:
                    tally.add(r["mode"], r["status"], -1)
            merged = [fresh.get((r["deal"], r["mode"]), r) for r in old_rows]
            write_chunk(out, task.key, merged)
            tally.add_rows(rows)
            report.written += 1
            report.solved += len(rows)
            bar.set_postfix_str(tally.text(), refresh=False)
            bar.update(task.deals)

        tasks = (Task(name, solve_pairs, (pairs, limits), len(pairs)) for name, pairs in work)
        _drive_recorded(backend, tasks, on_done, bar, report, record, out, meta)
    report.seconds = time.perf_counter() - started
    return report


def _budget_record(budget: tuple) -> dict:
    return {"nodes": budget[0], "memory_mb": budget[1], "seconds": budget[2]}


def _disable(progress: bool | None) -> bool | None:
    return None if progress is None else not progress


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


__all__ = [
    "BatchError", "BatchReport", "BatchSettings", "Chunk", "DaskBackend", "DealSet", "LocalBackend", "SCHEMA",
    "Tally", "DEFAULT_NODES", "default_chunk", "default_out", "drive", "find_folders", "make_backend",
    "parse_modes", "parse_range", "plan_chunks", "read_folder", "read_metadata", "retry_unknown", "run_batch",
    "solve_chunk", "solve_pairs", "write_chunk",
]
