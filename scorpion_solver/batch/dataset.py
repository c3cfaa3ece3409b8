"""results/ as a published dataset: its schema (a Frictionless data package), its checksums, and the checks of a folder.

* :func:`data_package`: ``results/datapackage.json`` (Data Package v2), one tabular resource per folder, its
  fields written from the code's own Arrow schemas (``SCHEMA``, ``PLAY_SCHEMA``, ``BOUND_SCHEMA``,
  ``LOSS_SCHEMA``) with each column's meaning and unit from :data:`FIELD_NOTES`, the allowed values of
  ``status`` and ``mode`` (the presets of ``game.rules``: a new preset is allowed with no edit here),
  the primary key and the folder's run record (``_batch.json``). Written by ``scorpion publish``, so the
  descriptor and the Parquet files cannot drift (tests/test_dataset.py compares them).
* :func:`write_sums` / :func:`check_sums`: ``results/SHA256SUMS`` in coreutils' format (``sha256sum -c``).
* :func:`check_rows`, :func:`check_solutions`: what ``scorpion verify`` checks in a folder's rows.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
from pathlib import Path
from typing import Callable, Iterator

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..game.rules import PRESETS
from ..game.text_input import read_text
from .folder import CHUNK_GLOB, CHUNK_RE, METADATA, SCHEMA, folder_kind, read_metadata
from .play_runs import PLAY_SCHEMA
from .studies import BOUND_SCHEMA, LOSS_SCHEMA, NOPEEK_SCHEMA

SUMS = "SHA256SUMS"
PACKAGE = "datapackage.json"
PROFILE = "https://datapackage.org/profiles/2.0/datapackage.json"
RESOURCE_PROFILE = "https://datapackage.org/profiles/2.0/dataresource.json"
TABLE_SCHEMA_PROFILE = "https://datapackage.org/profiles/2.0/tableschema.json"
DATA_VERSION = "1.8.0"
DATA_LICENSE = "MIT"  # the repository's licence (LICENSE, pyproject.toml) covers the data it holds

STATUSES = ("won", "lost", "unknown")
KIND_SCHEMAS = {
    "results": SCHEMA,
    "play": PLAY_SCHEMA,
    "bound": BOUND_SCHEMA,
    "losses": LOSS_SCHEMA,
    "nopeek": NOPEEK_SCHEMA,
}
# The primary key of each kind's rows: a play folder holds one seed (its game_seed is a function of the
# folder's seed, the deal and the mode), a losses folder one row per decision of a game.
PRIMARY_KEYS = {
    "results": ["deal", "mode"],
    "play": ["deal", "mode"],
    "bound": ["deal", "mode"],
    "losses": ["deal", "mode", "step"],
    "nopeek": ["deal", "mode"],
}

_ARROW_TO_TABLE_SCHEMA = {
    "int64": "integer",
    "int32": "integer",
    "double": "number",
    "string": "string",
    "bool": "boolean",
}

# Each column's meaning and unit ("" where it has none), by kind. Kept beside the schemas they describe.
_DEAL = (
    "The deal: PySolFC's game number of the preset's game (deal N here is game N of that game in PySolFC; "
    "Scorpion's relatives on one deck share Scorpion's numbers).",
    "",
)
_MODE = ("The rules preset the deal was played under (docs/rules.md).", "")
FIELD_NOTES: dict[str, dict[str, tuple[str, str]]] = {
    "results": {
        "deal": _DEAL,
        "mode": _MODE,
        "status": (
            "The exact verdict: won (a solution is given, replayed by the reference engine), lost (exhaustive "
            "search), unknown (a limit stopped the search).",
            "",
        ),
        "nodes": ("Positions the search expanded.", "positions"),
        "moves_made": ("Moves the search made (including those undone).", "moves"),
        "seconds": ("Wall-clock time of the solve; not reproducible.", "seconds"),
        "solution": ("The winning line in docs/rules.md move notation, space-separated; empty unless won.", ""),
        "solution_length": ("The number of moves in solution; 0 unless won.", "moves"),
        "peak_entries": ("Transposition-table entries at the end of the search.", "entries"),
        "max_depth": ("Deepest line the search reached.", "moves"),
        "deadlock_checks": ("Positions tested for a proved deadlock.", "positions"),
        "deadlock_prunes": ("Positions cut as proved deadlocks.", "positions"),
        "dead_at_root": ("Whether the deal was proved lost before any move.", ""),
        "stopped_by": ("The limit that stopped an unknown search (nodes, memory, time); empty when decided.", ""),
        "shortest": (
            "proved: solution is a minimum-length win; shortened: a shorter win than the first, not proved "
            "minimal; empty for an ordinary solve.",
            "",
        ),
        "budget_nodes": ("The node limit of the solve that made this row.", "positions"),
        "budget_memory_mb": ("The memory limit of the solve that made this row.", "MiB"),
        "budget_seconds": ("The time limit of the solve that made this row; null: none.", "seconds"),
    },
    "play": {
        "deal": _DEAL,
        "mode": _MODE,
        "policy": ("The player (docs/play.md): random, greedy, hop, commit, commit2.", ""),
        "thoughtful": ("The deal's exact verdict from the exact results (won, lost, unknown); empty if none.", ""),
        "played": ("False: a known-lost deal counted lost without playing.", ""),
        "outcome": ("The game's end: won, lost, or capped (the move cap reached).", ""),
        "reason": ("Why a lost game ended: no-move, proved-lost, move-cap, not-played; empty when won.", ""),
        "n_moves": ("Moves the player made.", "moves"),
        "moves": ("The game record in docs/rules.md move notation, space-separated.", ""),
        "decisions": ("Positions with more than one move where the player chose.", "decisions"),
        "solves": ("Solves the player ran on sampled layouts.", "solves"),
        "nodes": ("Positions the player's solves expanded.", "positions"),
        "proof_solves": ("Solves the harness ran on the true position (to stop a proved-lost game).", "solves"),
        "seconds": ("Wall-clock time of the game; not reproducible.", "seconds"),
        "cpu_seconds": ("CPU time of the game in its worker; not reproducible.", "seconds"),
        "game_seed": ("The player's seed for this game, from the folder's seed, the deal and the mode.", ""),
    },
    "bound": {
        "deal": _DEAL,
        "mode": _MODE,
        "commitments": ("Commitments (moves that reveal a card or deal the tail) at the first decision.", "moves"),
        "samples": ("Layouts of the hidden cards sampled.", "layouts"),
        "root_won": ("Sampled layouts won from the root.", "layouts"),
        "root_unknown": ("Sampled layouts whose root solve hit the node limit.", "layouts"),
        "pair_unknown": ("(commitment, layout) solves that hit the node limit.", "solves"),
        "upper": ("UB_1: the best commitment's sampled win share, an upper bound on a no-peek player.", "share"),
        "split": ("The share of layouts won by some commitment but not the best.", "share"),
        "best": ("The best commitment, in docs/rules.md move notation.", ""),
        "solves": ("Solves run for this deal.", "solves"),
        "nodes": ("Positions those solves expanded.", "positions"),
        "cpu_seconds": ("CPU time for this deal; not reproducible.", "seconds"),
    },
    "nopeek": {
        "deal": _DEAL,
        "mode": _MODE,
        "unseen": ("Cards face down at the deal, which the player has not seen.", "cards"),
        "status": ("exact (value known) or unknown (a budget cut it short; lower and upper bound it).", ""),
        "value": ("V: the best win probability of a player who cannot peek, as a fraction; null if unknown.", "share"),
        "share": ("S: the share of the arrangements of the unseen cards that are winnable; null if unknown.", "share"),
        "lower": (
            "V is at least this: the better of the cover and the best line evaluated exactly (V itself when exact), "
            "a fraction.",
            "share",
        ),
        "upper": (
            "V is at most this: S, or when S was cut short the share of arrangements not known lost (V itself when "
            "exact), a fraction.",
            "share",
        ),
        "value_float": ("value as a number; null if unknown.", "share"),
        "lower_float": ("lower as a number.", "share"),
        "upper_float": ("upper as a number.", "share"),
        "stopped_by": ("The budget that cut the deal short: budget (nodes), views or time; empty when exact.", ""),
        "solves": ("Solves of arrangements run for this deal.", "solves"),
        "nodes": ("Positions those solves expanded.", "positions"),
        "views": ("Views walked between reveals (the plain-Python part).", "views"),
        "cpu_seconds": ("CPU time for this deal; not reproducible.", "seconds"),
        "covered": (
            "The cover's win probability (a no-peek strategy built from the winning lines), a fraction: a floor "
            "on V; null when not built (S = 0 or unknown).",
            "share",
        ),
        "by": ("What made V exact: dead (S = 0), cover (the cover wins S), expectimax; empty when unknown.", ""),
    },
    "losses": {
        "deal": _DEAL,
        "mode": _MODE,
        "policy": ("The player whose game is judged.", ""),
        "step": ("The decision's move number in the game (1-based).", "moves"),
        "unseen": ("Cards still face down (or in the tail) at the decision.", "cards"),
        "kind": ("The decision's kind: build, flip, king-space, tail.", ""),
        "samples": ("Layouts of the unseen cards sampled.", "layouts"),
        "before": ("Sampled layouts won with the best move before the decision.", "layouts"),
        "after": ("Sampled layouts won after the move the player made.", "layouts"),
        "unknown": ("Sampled solves that hit the node limit.", "solves"),
        "exact_before": ("The exact win share before the decision (small endgames); null if not computed.", "share"),
        "exact_after": ("The exact win share after the move made; null if not computed.", "share"),
        "exact_share": ("exact_before minus exact_after: the share the decision lost; null if not computed.", "share"),
    },
}


def allowed_values(kind: str) -> dict[str, list[str]]:
    """Each string column of ``kind`` with a closed vocabulary: its allowed values ("" included where allowed)."""
    from ..play.losses import KINDS as DECISION_KINDS
    from ..play.players import PLAYERS

    modes = list(PRESETS)  # every preset the code knows: a new one is allowed here with no edit
    if kind == "results":
        return {
            "mode": modes,
            "status": list(STATUSES),
            "stopped_by": ["", "nodes", "memory", "time"],
            "shortest": ["", "proved", "shortened"],
        }
    if kind == "play":
        return {
            "mode": modes,
            "policy": list(PLAYERS),
            "thoughtful": ["", *STATUSES],
            "outcome": ["won", "lost", "capped"],
            "reason": ["", "no-move", "proved-lost", "move-cap", "not-played"],
        }
    if kind == "losses":
        return {"mode": modes, "policy": list(PLAYERS), "kind": list(DECISION_KINDS)}
    if kind == "nopeek":
        return {
            "mode": modes,
            "status": ["exact", "unknown"],
            "stopped_by": ["", "budget", "views", "time", "nodes", "memory"],
            "by": ["", "dead", "cover", "expectimax"],
        }
    return {"mode": modes}


def folder_schema(folder: Path, kind: str, meta: dict | None) -> pa.Schema:
    """The Arrow schema of ``folder``'s chunks: its kind's, of the columns its run record names (an older folder
    lacks the columns added later: ``folder.LATER_COLUMNS``)."""
    schema = KIND_SCHEMAS[kind]
    recorded = (meta or {}).get("columns")
    if recorded:
        return pa.schema([schema.field(name) for name in recorded])
    return schema


def table_schema(kind: str, schema: pa.Schema) -> dict:
    """A Frictionless Table Schema (v2) for ``schema``'s columns of a ``kind`` folder."""
    notes = FIELD_NOTES[kind]
    allowed = allowed_values(kind)
    fields = []
    for f in schema:
        description, unit = notes[f.name]
        field = {"name": f.name, "type": _ARROW_TO_TABLE_SCHEMA[str(f.type)], "description": description}
        if unit:
            field["unit"] = unit
        field["arrowType"] = str(f.type)
        constraints = {"required": not f.nullable}
        if f.name in allowed:
            constraints["enum"] = allowed[f.name]
        field["constraints"] = constraints
        fields.append(field)
    return {"$schema": TABLE_SCHEMA_PROFILE, "fields": fields, "primaryKey": PRIMARY_KEYS[kind]}


def data_folders(root: Path) -> list[Path]:
    """The folders of ``root`` that hold a run record (``_batch.json``), sorted by name."""
    return sorted(p for p in root.iterdir() if p.is_dir() and (p / METADATA).is_file())


def folder_resource(folder: Path, root: Path) -> dict:
    """The data resource of one folder: its chunk files, schema, primary key and run record."""
    meta = read_metadata(folder)
    kind = folder_kind(meta)
    paths = [p.relative_to(root).as_posix() for p in sorted(folder.glob(CHUNK_GLOB))]
    resource = {
        "$schema": RESOURCE_PROFILE,
        "name": folder.name.lower().replace("+", "-"),
        "type": "table",
        "title": folder.name,
        "kind": kind,
        "path": paths,
        "format": "parquet",
        "mediatype": "application/vnd.apache.parquet",
        "runRecord": f"{folder.name}/{METADATA}",
        **({"deals": meta["deals"]["spec"]} if "deals" in meta else {"source": meta.get("source")}),
        **({"modes": meta["modes"]} if "modes" in meta else {}),
        "schema": table_schema(kind, folder_schema(folder, kind, meta)),
    }
    stats = root / f"{folder.name}.stats.json"
    if stats.is_file():
        resource["stats"] = stats.name
    return resource


def data_package(root: Path) -> dict:
    """``results/datapackage.json``: the package and one resource per folder of ``root``."""
    return {
        "$schema": PROFILE,
        "name": "scorpion-solitaire-results",
        "title": "Scorpion Solitaire: exact win rates, minimum-length solutions and no-peek play",
        "description": (
            "Exact verdicts (won with a replayable solution, or lost by exhaustive search) of Scorpion Solitaire "
            "deals 1-1,000,000 (PySolFC game numbers) under two rule modes, minimum-length solutions, the "
            "relatives' rules, and realistic (no-peek) play with its studies. The card is README.md; "
            "every file's checksum is in SHA256SUMS; each folder's run record is its _batch.json."
        ),
        "version": DATA_VERSION,
        "licenses": [{"name": DATA_LICENSE, "path": "https://opensource.org/license/mit", "title": "MIT License"}],
        "keywords": ["solitaire", "scorpion", "game solving", "exact search", "card games"],
        "contributors": [{"title": "the scorpion-solver authors", "roles": ["creator"]}],
        "resources": [folder_resource(folder, root) for folder in data_folders(root)],
    }


def write_package(root: Path) -> Path:
    path = root / PACKAGE
    path.write_text(json.dumps(data_package(root), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


# --- checksums -------------------------------------------------------------------------------------------------


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def summed_files(root: Path) -> list[Path]:
    """The files SHA256SUMS covers: every file under ``root`` but SHA256SUMS itself and hidden files (a lock, a
    chunk being written), relative paths sorted. In a git checkout, the files git tracks or would add."""
    tracked = _git_files(root)
    names = tracked if tracked is not None else sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file())
    return [p for p in names if p.name != SUMS and not any(part.startswith(".") for part in p.parts)]


def _git_files(root: Path) -> list[Path] | None:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    names = sorted({Path(n) for n in out.decode("utf-8").split("\0") if n})
    return [n for n in names if (root / n).is_file()]


def write_sums(root: Path, progress: Callable[[Iterator], Iterator] = iter) -> Path:
    """Rewrite ``root/SHA256SUMS`` over :func:`summed_files` (``sha256sum``'s text format: digest, two spaces, path)."""
    lines = [f"{file_sha256(root / p)}  {p.as_posix()}\n" for p in progress(summed_files(root))]
    path = root / SUMS
    path.write_text("".join(lines), encoding="utf-8")
    return path


def read_sums(path: Path) -> dict[str, str]:
    """SHA256SUMS as {relative path: digest}; a malformed line is a ValueError naming it."""
    sums = {}
    for number, line in enumerate(read_text(str(path)).splitlines(), 1):
        digest, sep, name = line.partition("  ")
        if not sep or len(digest) != 64 or not name:
            raise ValueError(f"{path}:{number}: not a sha256sum line: {line[:80]!r}")
        sums[name.removeprefix("*")] = digest
    return sums


def check_sums(root: Path, sums: dict[str, str], names: list[str]) -> list[str]:
    """The problems of ``names`` (paths relative to ``root``) against ``sums``: missing, unlisted, mismatched."""
    problems = []
    for name in names:
        path = root / name
        if name not in sums:
            problems.append(f"{name}: not listed in {SUMS}")
        elif not path.is_file():
            problems.append(f"{name}: listed in {SUMS} but missing")
        elif file_sha256(path) != sums[name]:
            problems.append(f"{name}: checksum differs from {SUMS}")
    return problems


# --- rows ------------------------------------------------------------------------------------------------------


def check_rows(folder: Path, kind: str, meta: dict | None, progress=iter) -> tuple[int, list[str]]:
    """Every chunk of ``folder`` against its schema: (rows read, problems).

    Each chunk has exactly the folder's columns and Arrow types, no null where a value is required, only
    allowed values, its deals within the chunk's name (a losses chunk's name counts games, not deals), and the
    primary key is unique over the folder.
    """
    expected = folder_schema(folder, kind, meta)
    allowed = allowed_values(kind)
    key = PRIMARY_KEYS[kind]
    problems: list[str] = []
    seen_keys: set = set()
    rows = 0
    for path in progress(sorted(folder.glob(CHUNK_GLOB))):
        match = CHUNK_RE.match(path.name)
        if not match:
            problems.append(f"{path.name}: not a chunk name (chunk-FIRST-LAST.parquet)")
            continue
        table = pq.read_table(path)
        rows += table.num_rows
        actual = table.schema.remove_metadata()
        if [(f.name, f.type) for f in actual] != [(f.name, f.type) for f in expected]:
            problems.append(f"{path.name}: columns {_schema_text(actual)}, expected {_schema_text(expected)}")
            continue
        for f in expected:
            column = table.column(f.name)
            if not f.nullable and column.null_count:
                problems.append(f"{path.name}: {column.null_count} null value(s) in required column {f.name}")
            if f.name in allowed:
                bad = pc.invert(pc.is_in(column, value_set=pa.array(allowed[f.name])))
                count = pc.sum(pc.cast(bad, pa.int64())).as_py() or 0
                if count:
                    sample = pc.filter(column, bad)[0].as_py()
                    problems.append(f"{path.name}: {count} row(s) with {f.name} {sample!r}, not an allowed value")
        lo, hi = (int(n) for n in match.groups())
        deals = table.column("deal")
        # a losses chunk is named by the games it holds (counted in (deal, mode) order), the others by their deals
        if kind != "losses" and table.num_rows and (pc.min(deals).as_py() < lo or pc.max(deals).as_py() > hi):
            problems.append(f"{path.name}: deals outside {lo}-{hi}")
        keys = list(zip(*(table.column(k).to_pylist() for k in key)))
        if len(set(keys)) != len(keys) or seen_keys.intersection(keys):
            problems.append(f"{path.name}: the primary key ({', '.join(key)}) repeats")
        seen_keys.update(keys)
    return rows, problems


def _schema_text(schema: pa.Schema) -> str:
    return ", ".join(f"{f.name}:{f.type}" for f in schema)


def won_rows(folder: Path, kind: str) -> list[dict]:
    """The won rows of a results folder (deal, mode, solution) or the won games of a play folder (deal, mode, moves)."""
    from .folder import read_folder
    from .play_runs import read_play_folder

    if kind == "results":
        table = read_folder(folder, columns=["deal", "mode", "status", "solution"])
        table = table.filter(pc.equal(table.column("status"), "won"))
        return [
            {"deal": d, "mode": m, "moves": s}
            for d, m, s in zip(*(table.column(c).to_pylist() for c in ("deal", "mode", "solution")))
        ]
    if kind == "play":
        table = read_play_folder(folder)
        table = table.filter(pc.equal(table.column("outcome"), "won"))
        return table.select(["deal", "mode", "moves"]).to_pylist()
    return []


def sample_rows(rows: list, sample: int | None, seed: int) -> list:
    """``sample`` rows drawn with ``seed`` (all of them when None or when there are fewer), in their order."""
    if sample is None or sample >= len(rows):
        return rows
    picked = sorted(random.Random(seed).sample(range(len(rows)), sample))
    return [rows[i] for i in picked]


def replay_problem(row: dict) -> str | None:
    """Why a won row's move list does not win its deal in the reference engine (None: it wins)."""
    from ..game.deal import deal
    from ..game.engine import is_won, parse_moves
    from ..game.rules import get_rules
    from ..game.verify import check_solution

    try:
        rules = get_rules(row["mode"])
        final = check_solution(deal(row["deal"], rules), parse_moves(row["moves"]), rules)
    except ValueError as exc:
        return f"deal {row['deal']} ({row['mode']}): {exc}"
    if not is_won(final, rules):
        return f"deal {row['deal']} ({row['mode']}): the moves are legal but do not win"
    return None


def replay_game_problem(folder: Path, meta: dict, row: dict) -> str | None:
    """Play one game of a play folder again from its seed, with the folder's settings; None when every recorded
    column but the timings comes out the same."""
    from ..play.players import PLAYERS, SPEC_FIELDS, PolicySpec
    from .play_runs import play_pairs, recorded_play

    play = recorded_play(meta)
    options = {k: play[k] for k in PLAYERS[play["policy"]].OPTIONS if k in play and k not in SPEC_FIELDS}
    spec = PolicySpec(
        play["policy"],
        play.get("samples", 10),
        play.get("nodes", 1000),
        play.get("bandit", False),
        play["seed"],
        extra={"skip_lost": play.get("skip_lost", True)},
        rejudge_tail=play.get("rejudge_tail", False),
        exact_endgame=play.get("exact_endgame", 0),
        reductions=play["reductions"],
        options=options,
    )
    (again,) = play_pairs([(row["deal"], row["mode"], row["thoughtful"])], spec, play["move_cap"], play["proof_nodes"])
    differ = [k for k in row if k not in ("seconds", "cpu_seconds") and again[k] != row[k]]
    if differ:
        return f"deal {row['deal']} ({row['mode']}): {', '.join(differ)} differ when played again from its seed"
    return None


_PATH_KEYS = ("folder", "sources", "against")


def _folder_names(value):
    if isinstance(value, str):
        return Path(value).name
    if isinstance(value, list):
        return [_folder_names(v) for v in value]
    return value


def compare_stats(recorded, recomputed, where: str = "") -> tuple[list[str], list[str]]:
    """(differences, fields recorded but not computed now) between a committed .stats.json and a fresh one.

    Numbers agree to a relative 1e-9 (JSON's text of a float); the folders named (``folder``, ``sources``,
    ``against``) are compared by name, not by the path stats was given.
    """
    differences: list[str] = []
    gone: list[str] = []
    if isinstance(recorded, dict) and isinstance(recomputed, dict):
        for k, v in recorded.items():
            name = f"{where}.{k}" if where else str(k)
            if k not in recomputed:
                gone.append(name)
                continue
            again = recomputed[k]
            if k in _PATH_KEYS:  # folders as given to stats: compared by name, wherever it was run from
                v, again = _folder_names(v), _folder_names(again)
            d, g = compare_stats(v, again, name)
            differences += d
            gone += g
        return differences, gone
    if isinstance(recorded, list) and isinstance(recomputed, list) and len(recorded) == len(recomputed):
        for i, (a, b) in enumerate(zip(recorded, recomputed)):
            d, g = compare_stats(a, b, f"{where}[{i}]")
            differences += d
            gone += g
        return differences, gone
    numbers = (int, float)
    if isinstance(recorded, numbers) and isinstance(recomputed, numbers) and not isinstance(recorded, bool):
        if abs(recorded - recomputed) <= 1e-9 * max(abs(recorded), abs(recomputed), 1e-300):
            return [], []
    elif recorded == recomputed:
        return [], []
    return [f"{where}: recorded {recorded!r}, recomputed {recomputed!r}"], []
