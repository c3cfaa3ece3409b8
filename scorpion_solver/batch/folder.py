"""The results folder: its schema, atomic chunk writes, lock and metadata.

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
``chunk-*.parquet``. A folder refuses results made under other rules,
limits, deals or chunking (:func:`check_folder`).
"""

from __future__ import annotations

import json
import os
import platform
import re
import shlex
import sys
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from .. import __version__
from ..game.rules import get_rules
from ..game.text_input import TextInputError, decode_text, parse_json
from ..solver.reductions import FULL, TITLES, Reductions
from ..solver.result import DEFAULT_MEMORY_MB, Limits
from .plan import BatchError, BatchSettings, DealSet

FORMAT = "scorpion-batch/1"
METADATA = "_batch.json"
LOCK = ".lock"
CHUNK_GLOB = "chunk-*.parquet"
CHUNK_RE = re.compile(r"^chunk-(\d+)-(\d+)\.parquet$")
TMP_RE = re.compile(r"^\.chunk-\d+-\d+\.parquet\.tmp$")
COMPRESSION = "zstd"


# The columns: deal and mode, then a solve's result (``SolveResult.as_row``, the
# winning line as text), then the budget that produced the row. The schema is
# explicit, in the order and with the types every chunk was written with, so that
# every chunk file has the same one (tests/test_batch.py compares it with a
# committed chunk's).
_RESULT_COLUMNS = (
    ("status", pa.string()),  # won | lost | unknown
    ("nodes", pa.int64()),
    ("moves_made", pa.int64()),
    ("seconds", pa.float64()),  # wall clock of this solve (not reproducible)
    ("solution", pa.string()),  # move notation of docs/rules.md, "" unless won
    ("solution_length", pa.int32()),
    ("peak_entries", pa.int64()),  # transposition table entries at the end
    ("max_depth", pa.int32()),
    ("deadlock_checks", pa.int64()),
    ("deadlock_prunes", pa.int64()),
    ("dead_at_root", pa.bool_()),
    ("stopped_by", pa.string()),  # nodes | memory | time, "" when decided
    ("shortest", pa.string()),  # proved | shortened, "" for an ordinary solve
)


def _result_fields() -> list[pa.Field]:
    return [pa.field(name, type_, nullable=False) for name, type_ in _RESULT_COLUMNS]


SCHEMA = pa.schema(
    [pa.field("deal", pa.int64(), nullable=False), pa.field("mode", pa.string(), nullable=False)]
    + _result_fields()
    + [
        pa.field("budget_nodes", pa.int64(), nullable=False),  # the limits of the solve
        pa.field("budget_memory_mb", pa.int64(), nullable=False),  # that produced this row
        pa.field("budget_seconds", pa.float64(), nullable=True),
    ]  # null: no time limit
)
COLUMNS = tuple(SCHEMA.names)
STRINGIFY = {f.name for f in SCHEMA if f.type == pa.string()}


# Columns added after folders were first written. A folder made before one of them keeps
# the columns it was made with (its chunks all have one schema), and readers see the
# missing column as null.
LATER_COLUMNS = ("shortest",)


def accepted_columns(recorded: list | None) -> bool:
    """Whether a folder whose metadata records these columns can take this version's rows."""
    return recorded == list(COLUMNS) or recorded == [c for c in COLUMNS if c not in LATER_COLUMNS]


def rows_table(rows: list[dict], columns: list[str] | None = None) -> pa.Table:
    """Rows (dicts with the SCHEMA columns) as a table sorted by (deal, mode), of ``columns`` (default all)."""
    ordered = sorted(rows, key=lambda r: (r["deal"], r["mode"]))
    if columns is not None and list(columns) != list(COLUMNS):
        schema = pa.schema([SCHEMA.field(c) for c in columns])
        return pa.Table.from_pylist([{c: r[c] for c in columns} for r in ordered], schema=schema)
    return pa.Table.from_pylist(ordered, schema=SCHEMA)


def finished_chunks(out: Path) -> set[str]:
    """Names of the complete chunk files in a folder."""
    if not out.is_dir():
        return set()
    return {p.name for p in out.iterdir() if CHUNK_RE.match(p.name)}


def json_clean(value):
    """``value`` as JSON reads it back (tuples become lists, dataclass dicts plain): what a folder's metadata holds."""
    return json.loads(json.dumps(value))


def rules_record(modes: Iterable[str]) -> dict:
    return {m: json_clean(asdict(get_rules(m))) for m in modes}


def _rule_choices(record: dict | None) -> dict | None:
    """A recorded preset without its ``source`` citation (a citation is not a rule)."""
    return None if record is None else {k: v for k, v in record.items() if k != "source"}


def limits_record(limits: Limits, reductions: Reductions = FULL, shortest: bool = False) -> dict:
    """How a folder records the way its rows were solved (its ``limits``): the budgets, each
    reduction's switch (``Reductions.record``), and ``shortest`` when set (folders written
    before the option recorded ordinary solves without it)."""
    record = {**asdict(limits), **reductions.record()}
    if shortest:
        record["shortest"] = True
    return json_clean(record)


def settings_record(settings: BatchSettings) -> dict:
    """The ``limits`` record of a batch's settings."""
    return limits_record(settings.limits, settings.reductions, settings.shortest)


def recorded_reductions(record: dict) -> Reductions:
    """The reductions a folder's ``limits`` record names (one written before a reduction existed: that one off)."""
    return Reductions.from_record(record)


def _same_limits(record: dict, settings: BatchSettings) -> bool:
    """Whether recorded limits are those of these settings."""
    return dict(record, **recorded_reductions(record).record()) == settings_record(settings)


def limits_text(record: dict) -> str:
    seconds = record.get("seconds")
    time_part = f", time {seconds:g} s" if seconds else ""
    off = "".join(f", no {TITLES[name]}" for name in recorded_reductions(record).off())
    shortest = ", shortest" if record.get("shortest") else ""
    return f"nodes {record['nodes']}, memory {record['memory_mb']} MB{time_part}{off}{shortest}"


class FewerReductions(BatchError):
    """A run asks a folder for reductions it was made without (``missing``: their names); resuming it needs them off."""

    def __init__(self, message: str, missing: list[str]) -> None:
        super().__init__(message)
        self.missing = missing


def machine_record() -> dict:
    import numba

    record = {
        "host": platform.node(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pyarrow": pa.__version__,
    }
    try:
        record["memory_gb"] = round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1)
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        pass
    return record


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# What a metadata file must hold (key: type), checked on reading so that a
# damaged or hand-edited file is one clear error, never a KeyError.
_META_SHAPE = {
    "format": str,
    "deals": dict,
    "modes": list,
    "rules": dict,
    "limits": dict,
    "chunk": int,
    "columns": list,
    "runs": list,
    "retries": list,
}
_PLAY_META_SHAPE = {
    "format": str,
    "deals": dict,
    "modes": list,
    "rules": dict,
    "play": dict,
    "chunk": int,
    "columns": list,
    "runs": list,
}
STUDY_FORMATS = ("scorpion-bound/", "scorpion-losses/", "scorpion-nopeek/")

# The kinds of folder this package writes: the format's prefix in _batch.json -> (kind, the command that makes it).
# A folder without _batch.json is read as a results folder whose settings are unknown.
FOLDER_KINDS = {
    "scorpion-batch/": ("results", "scorpion batch"),
    "scorpion-play/": ("play", "scorpion play"),
    "scorpion-bound/": ("bound", "scorpion bound"),
    "scorpion-losses/": ("losses", "scorpion losses"),
    "scorpion-nopeek/": ("nopeek", "scorpion nopeek"),
}
# What reads each kind besides `scorpion stats` (which summarises every kind).
KIND_READERS = {
    "results": "scorpion stats DIR [--against DIR2]",
    "play": "scorpion stats DIR [--against PLAYDIR], scorpion losses DIR",
    "bound": "scorpion stats DIR",
    "losses": "scorpion stats DIR",
    "nopeek": "scorpion stats DIR [--against PLAYDIR]",
}


def folder_kind(meta: dict | None) -> str:
    """The kind of folder ``meta`` (its ``_batch.json``) describes: results, play, bound, losses or nopeek.

    No metadata reads as a results folder (its settings unknown); a format
    this version does not know is a BatchError.
    """
    if meta is None:
        return "results"
    for prefix, (kind, _) in FOLDER_KINDS.items():
        if meta["format"].startswith(prefix):
            return kind
    raise BatchError(f"unknown folder format {meta['format']!r} (this version writes {', '.join(FOLDER_KINDS)})")


def kind_text(kind: str) -> str:
    """A kind named for a message: 'a bound folder (made by scorpion bound)'."""
    maker = next(command for k, command in FOLDER_KINDS.values() if k == kind)
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} folder (made by {maker})"


def described_kind(meta: dict) -> str:
    """What a folder's metadata says it is, for a message: 'a play folder (made by scorpion play)'."""
    try:
        return kind_text(folder_kind(meta))
    except BatchError:
        return f"a folder of a format this version does not know ({meta.get('format')})"


def wrong_kind(folder: Path, kind: str, wanted: str, reader: str) -> BatchError:
    """The error for ``folder`` (of ``kind``) given to ``reader``, which reads a ``wanted`` folder: both kinds named."""
    return BatchError(
        f"{reader} reads {kind_text(wanted)}, and {folder} is {kind_text(kind)}, read by {KIND_READERS[kind]}"
    )


def require_kind(folder: Path, wanted: str, reader: str) -> dict | None:
    """``folder``'s metadata, if it is a ``wanted`` folder; else the error naming both kinds (``wrong_kind``)."""
    if not folder.is_dir():
        raise BatchError(f"{reader}: {folder} is not a folder")
    meta = read_metadata(folder)
    kind = folder_kind(meta)
    if kind != wanted:
        raise wrong_kind(folder, kind, wanted, reader)
    return meta


_DEALS_SHAPE = {"spec": str, "count": int, "first": int, "last": int, "sha256": str}
_LIMITS_SHAPE = {"nodes": int, "memory_mb": int}


def read_metadata(out: Path) -> dict | None:
    """The folder's metadata (None when it has none); BatchError when it is unreadable or incomplete."""
    path = out / METADATA
    if not path.exists():
        return None
    try:
        meta = parse_json(decode_text(path.read_bytes(), str(path)), str(path))
    except OSError as exc:
        raise BatchError(f"cannot read {path}: {exc.strerror or exc}") from None
    except TextInputError as exc:
        raise BatchError(str(exc)) from None
    check_metadata(meta, path)
    return meta


def check_metadata(meta, path: Path) -> None:
    """BatchError naming the first missing or mistyped field of a metadata file."""

    def need(record, shape: dict, where: str) -> None:
        if not isinstance(record, dict):
            raise BatchError(f"{path}: {where or 'the file'} is not a JSON object: not a batch metadata file")
        for key, kind in shape.items():
            value = record.get(key)
            if key not in record or not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise BatchError(
                    f"{path}: {where + '.' if where else ''}{key} is "
                    f"{'missing' if key not in record else 'not a ' + kind.__name__}: the file is damaged or "
                    "not one this version wrote (move it away to start the folder afresh)"
                )

    need(meta, {"format": str}, "")
    if meta["format"].startswith(STUDY_FORMATS):
        need(meta, {"runs": list}, "")  # a study folder (batch.studies): its inputs and settings, its runs
        return
    if meta["format"].startswith("scorpion-play/"):
        need(meta, _PLAY_META_SHAPE, "")  # a play folder (batch.play_runs): the policy's settings, no limits
    else:
        need(meta, _META_SHAPE, "")
        need(meta["limits"], _LIMITS_SHAPE, "limits")
    need(meta["deals"], _DEALS_SHAPE, "deals")
    if not meta["modes"] or not all(isinstance(m, str) for m in meta["modes"]):
        raise BatchError(f"{path}: modes must be a list of rules preset names")


def write_metadata(out: Path, meta: dict) -> None:
    atomic_write(out, METADATA, json.dumps(meta, indent=2, sort_keys=False).encode("utf-8") + b"\n")


def atomic_write(out: Path, name: str, data: bytes | None = None, table: pa.Table | None = None) -> None:
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


def write_chunk(out: Path, name: str, rows: list[dict], columns: list[str] | None = None) -> None:
    """Write one chunk file of result rows atomically (``.chunk-....parquet.tmp``, then rename)."""
    write_table(out, name, rows_table(rows, columns))


def write_table(out: Path, name: str, table: pa.Table) -> None:
    """Write one chunk file of any schema atomically (``.chunk-....parquet.tmp``, then rename)."""
    atomic_write(out, name, table=table)


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


def chunk_paths(out: Path) -> list[Path]:
    """The folder's chunk files; BatchError if it holds other ``chunk-*.parquet`` files.

    A file such as ``chunk-00000001-00000010 (copy).parquet`` is no chunk this
    tool wrote, yet ``*.parquet`` readers (pandas, polars, duckdb) would count
    its rows: it is refused, not read.
    """
    paths = sorted(out.glob(CHUNK_GLOB))
    strays = [p.name for p in paths if not CHUNK_RE.match(p.name)]
    if strays:
        raise BatchError(
            f"{out} holds {len(strays)} file(s) named like chunks but not written by scorpion batch "
            f"(e.g. '{strays[0]}'); every reader of the folder would count their rows: move them away"
        )
    return paths


def read_folder(out: Path, columns: list[str] | None = None, deals: tuple[int, int] | None = None) -> pa.Table:
    """Every finished row of a folder, sorted by (deal, mode), with the SCHEMA.

    A (deal, mode) found in two chunk files (a copied chunk, or chunks of
    another plan) is refused with a BatchError naming both files: duplicate
    rows are never counted. ``deals`` (first, last): only the chunks whose
    range meets it are read (their other rows come too).
    """
    paths = chunk_paths(out)
    if deals is not None:
        first, last = deals
        ranges = [tuple(int(n) for n in CHUNK_RE.match(p.name).groups()) for p in paths]
        paths = [p for p, (lo, hi) in zip(paths, ranges) if lo <= last and hi >= first]
    if not paths:
        return SCHEMA.empty_table() if columns is None else SCHEMA.empty_table().select(columns)
    wanted = None if columns is None else list(dict.fromkeys(["deal", "mode", *columns]))
    tables = [read_chunk(p, SCHEMA, wanted) for p in paths]
    _refuse_duplicates(out, paths, tables)
    table = pa.concat_tables(tables)
    table = table.sort_by([("deal", "ascending"), ("mode", "ascending")])
    return table if columns is None else table.select(columns)


def refuse_foreign_folder(out: Path) -> None:
    """A folder without metadata must be new or empty: a run never writes beside files it did not make."""
    if out.exists() and not out.is_dir():
        raise BatchError(f"{out} exists and is not a folder")
    if out.is_dir():
        # what a run killed before its first metadata write leaves: its lock file and temporary files
        others = sorted(p.name for p in out.iterdir() if p.name != LOCK and not TMP_RE.match(p.name))
        if others:
            raise BatchError(
                f"{out} is not a results folder (no {METADATA}) and is not empty (it holds {others[0]}"
                + (f" and {len(others) - 1} more" if len(others) > 1 else "")
                + "): give a new or empty folder"
            )


def read_chunk(path: Path, schema: pa.Schema, columns: list[str] | None = None) -> pa.Table:
    """One chunk file's ``columns`` (all of ``schema`` by default), refusing a file that lacks one.

    Parquet fills a column the file does not have with nulls when a schema is
    given; a damaged or foreign chunk would then count as rows of no status.
    """
    try:
        with pq.ParquetFile(path) as file:  # opened once: the schema and the rows (half the time of two opens)
            present = set(file.schema_arrow.names)
            wanted = list(columns or schema.names)
            missing = [name for name in wanted if name not in present]
            if not missing:
                table = file.read(columns=wanted).select(wanted)
    except (OSError, pa.ArrowException) as exc:
        raise BatchError(f"{path}: not a readable chunk file ({exc}); move it away or delete it and rerun") from None
    if missing:
        raise BatchError(
            f"{path}: the chunk file has no {', '.join(repr(m) for m in missing)} column "
            f"({'a damaged file or one from another tool' if len(missing) < len(schema.names) else 'not a chunk'}); "
            "move it away or delete it and rerun the command that made the folder"
        )
    return table.cast(pa.schema([schema.field(name) for name in wanted]))


def _refuse_duplicates(out: Path, paths: list[Path], tables: list[pa.Table]) -> None:
    modes = sorted({m for t in tables for m in t.column("mode").unique().to_pylist()})
    keys, owners = [], []
    for index, table in enumerate(tables):
        deal = table.column("deal").to_numpy().astype(np.int64)
        mode = pc.index_in(table.column("mode"), value_set=pa.array(modes)).to_numpy().astype(np.int64)
        keys.append(np.stack([deal, mode], axis=1))
        owners.append(np.full(deal.size, index, dtype=np.int64))
    key = np.concatenate(keys)
    owner = np.concatenate(owners)
    order = np.lexsort((key[:, 1], key[:, 0]))
    sorted_key = key[order]
    same = np.flatnonzero(np.all(sorted_key[1:] == sorted_key[:-1], axis=1))
    if same.size:
        first, second = owner[order[same[0]]], owner[order[same[0] + 1]]
        deal, mode = int(sorted_key[same[0], 0]), modes[int(sorted_key[same[0], 1])]
        where = (
            f"both {paths[first].name} and {paths[second].name}" if first != second else paths[first].name + " twice"
        )
        raise BatchError(
            f"{out}: {same.size} (deal, mode) rows appear more than once (e.g. deal {deal} {mode} in {where}); "
            "a copied or stray chunk file? move it away: duplicates are never counted"
        )


def default_out(
    deals: DealSet, modes: tuple[str, ...], limits: Limits, reductions: Reductions = FULL, shortest: bool = False
) -> Path:
    """``results/<start>-<end>-<modes>-n<nodes>`` (plus -m<MB> / -t<S> when not the defaults,
    -no<reduction> for each reduction off, e.g. -nosafeleads, and -shortest)."""
    name = f"{deals.label}-{'+'.join(modes)}-n{limits.nodes}"
    if limits.memory_mb != DEFAULT_MEMORY_MB:
        name += f"-m{limits.memory_mb}"
    if limits.seconds is not None:
        name += f"-t{limits.seconds:g}"
    name += "".join(f"-no{off.replace('_', '')}" for off in reductions.off())
    if shortest:
        name += "-shortest"
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


def _refuse_other_rules(out: Path, meta: dict, modes: tuple[str, ...]) -> None:
    """Refuse a folder whose recorded rules choices differ from this version's for one of ``modes``."""
    new_rules = rules_record(modes)
    for mode in modes:
        if _rule_choices(meta["rules"].get(mode)) != _rule_choices(new_rules[mode]):
            raise BatchError(
                f"the rules '{mode}' recorded in {out / METADATA} differ from this version's "
                f"({meta['rules'].get(mode)} vs {new_rules[mode]}): refusing to mix results of "
                "different rules in one folder (give another --out)"
            )


def _refuse_other_columns(out: Path, meta: dict) -> None:
    """Refuse a folder written with columns this version does not accept (it names the new and the gone)."""
    if not accepted_columns(meta.get("columns")):
        added = [c for c in COLUMNS if c not in meta.get("columns", [])]
        gone = [c for c in meta.get("columns", []) if c not in COLUMNS]
        raise BatchError(
            f"{out} was written with other columns than this version writes (new: "
            f"{', '.join(added) or 'none'}; gone: {', '.join(gone) or 'none'}): refusing to mix "
            "tables of different schemas in one folder (give another --out)"
        )


def folder_to_retry(deals: DealSet, modes: tuple[str, ...], out: Path | None) -> tuple[Path, dict]:
    """The folder ``--retry-unknown`` works on and its metadata: ``out``, or the one folder holding these deals."""
    if out is None:
        found = find_folders(deals, modes)
        if len(found) != 1:
            listed = ": " + ", ".join(str(p) for p in found) if found else ""
            raise BatchError(
                f"--retry-unknown needs --out DIR, the folder to retry ({len(found)} folders "
                f"under results/ hold deals {deals.spec} in {','.join(modes)}{listed})"
            )
        out = found[0]
    meta = read_metadata(out) if out.is_dir() else None
    if meta is None:
        raise BatchError(
            f"{out} is not a results folder (no {METADATA}); --retry-unknown needs the folder of an earlier run"
        )
    return out, meta


def retry_settings(
    deals: DealSet,
    modes: tuple[str, ...],
    chunk: int | None,
    recorded: dict,
    nodes: int | None,
    memory_mb: int | None,
    seconds: float | None,
) -> BatchSettings:
    """The settings of a retry: the folder's recorded ``limits`` (reductions, shortest) with the bigger budget given."""
    if nodes is None and memory_mb is None and seconds is None:
        raise BatchError(
            "--retry-unknown needs a bigger budget: give --nodes "
            f"(the folder used {recorded['nodes']}), --memory or --time"
        )
    limits = Limits(
        nodes=nodes or recorded["nodes"],
        memory_mb=memory_mb or recorded["memory_mb"],
        seconds=seconds if seconds is not None else recorded.get("seconds"),
    )
    return BatchSettings(
        deals, modes, limits, chunk, recorded_reductions(recorded), bool(recorded.get("shortest", False))
    )


def check_folder(out: Path, meta: dict, settings: BatchSettings, retry: bool = False) -> None:
    """Refuse to add results made under other settings to a folder (BatchError says which)."""
    if meta.get("format") != FORMAT:
        raise BatchError(f"{out} is {described_kind(meta)}, not {kind_text('results')}: give another --out")
    old_modes = meta["modes"]
    if list(settings.modes) != old_modes:
        raise BatchError(
            f"{out} holds results for rules {','.join(old_modes)}; this run asks for "
            f"{','.join(settings.modes)}: refusing to mix results of different rules in one folder "
            "(give another --out)"
        )
    _refuse_other_rules(out, meta, settings.modes)
    old_deals = meta["deals"]
    if old_deals["sha256"] != settings.deals.digest():
        raise BatchError(
            f"{out} holds deals {old_deals['spec']} ({old_deals['count']} deals); this run asks for "
            f"{settings.deals.spec} ({len(settings.deals)} deals): give another --out"
        )
    _refuse_other_columns(out, meta)
    if settings.chunk is not None and settings.chunk != meta["chunk"]:
        raise BatchError(
            f"{out} was made with --chunk {meta['chunk']}; rerun with --chunk {meta['chunk']} "
            "(or without --chunk) or give another --out"
        )
    if not retry and not _same_limits(meta["limits"], settings):
        recorded = recorded_reductions(meta["limits"])
        missing = [name for name in recorded.off() if name not in settings.reductions.off()]
        hint = f" (it was made without {', '.join(TITLES[name] for name in missing)})" if missing else ""
        message = (
            f"{out} was made with limits ({limits_text(meta['limits'])}); this run asks for "
            f"({limits_text(settings_record(settings))}): refusing to mix results of "
            f"different limits in one folder{hint} (to re-solve its unknown deals with a bigger budget, "
            f"use --retry-unknown --out {out})"
        )
        raise FewerReductions(message, missing) if missing else BatchError(message)


def new_metadata(settings: BatchSettings, chunk: int) -> dict:
    return {
        "format": FORMAT,
        "created": now_text(),
        "package_version": __version__,
        "deals": settings.deals.describe(),
        "modes": list(settings.modes),
        "rules": rules_record(settings.modes),
        "limits": settings_record(settings),
        "chunk": chunk,
        "columns": list(COLUMNS),
        "runs": [],
        "retries": [],
    }


def source_commit() -> str | None:
    """The git commit of the checkout the package runs from, ``+dirty`` if its source differs; None outside git.

    Recorded with each run beside the package version (an installed package
    from a wheel has no commit: None).
    """
    import subprocess

    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None

    def git(*args: str) -> str | None:
        try:
            run = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return run.stdout.strip() if run.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    if not commit:
        return None
    changed = git("status", "--porcelain", "--untracked-files=no", "--", "scorpion_solver")
    return commit + ("+dirty" if changed else "")


def run_record(kind: str, command: str | None, backend: str, extra: dict | None = None) -> dict:
    record = {
        "kind": kind,
        "started": now_text(),
        "finished": None,
        "package_version": __version__,
        "source_commit": source_commit(),
        "command": command or shlex.join(sys.argv),
        "backend": backend,
        "machine": machine_record(),
    }
    record.update(extra or {})
    return record
