"""Play runs: a policy plays every deal of a range, into a resumable folder of Parquet game records.

A *play folder* is laid out like a results folder (``folder``: one
``chunk-*.parquet`` per finished chunk, written atomically, a lock, and
``_batch.json``), with its own format ``scorpion-play/1`` and schema
(:data:`PLAY_SCHEMA`, one row per deal and mode: the outcome and the game
record). The chunks run on the same backends (local processes or Dask) through
the same resumable run as a batch (``resumable.run_chunks``); a rerun of the same command skips
the finished chunks, and a folder refuses rows made with another policy,
other settings, deals or rules.

Deals that the committed exact results show lost (``thoughtful`` column
``lost``) cannot be won by any player: by default they are not played, their
row says ``played = false`` with outcome ``lost`` and reason ``not-played``,
and the metadata names the results folder that decided them. Every game won
is checked to be on a deal not known lost, and its record replays to a win
(``play.game``), or the run fails.
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import pyarrow as pa

from .. import __version__
from ..play.game import DEFAULT_MOVE_CAP, DEFAULT_PROOF_NODES, WON, play_game
from ..play.players import LOOKAHEAD, PLAYERS, PolicySpec
from ..play.policies import PLAY_REDUCTIONS
from ..solver.result import LOST
from .backends import warm_once
from .folder import (
    CHUNK_GLOB,
    described_kind,
    kind_text,
    now_text,
    read_chunk,
    read_folder,
    read_metadata,
    refuse_foreign_folder,
    rules_record,
    write_table,
)
from .plan import BatchError, Chunk, DealSet, default_chunk, plan_chunks
from .resumable import ChunkJob, Execution, ModeCounts, RunReport, Task, run_chunks

PLAY_FORMAT = "scorpion-play/1"
NOT_PLAYED = "not-played"
EXACT_NAME = "deals-1-1000000"  # the exact verdicts' folder inside a results folder
RESULTS_ENV = "SCORPION_RESULTS"  # a results folder to use wherever the command runs


def results_candidates() -> list[Path]:
    """Where the committed results are looked for, in order.

    ``$SCORPION_RESULTS``; ``results/`` of the current folder; the ``results/``
    of the checkout the package runs from (an editable install or a clone run
    in place), so that a command run from any folder finds the same verdicts.
    """
    places = []
    if os.environ.get(RESULTS_ENV):
        places.append(Path(os.environ[RESULTS_ENV]))
    places.append(Path("results"))
    places.append(Path(__file__).resolve().parents[2] / "results")
    return places


def find_results(explicit: Path | None = None) -> Path | None:
    """The results folder holding the exact verdicts (``EXACT_NAME``), or None when there is none.

    ``explicit`` (a ``--results`` option) is the only place looked at when
    given, and must hold them.
    """
    if explicit is not None:
        if not (explicit / EXACT_NAME / "_batch.json").is_file():
            raise BatchError(f"{explicit} holds no exact results ({EXACT_NAME}/_batch.json): not a results folder")
        return explicit
    for place in results_candidates():
        if (place / EXACT_NAME / "_batch.json").is_file():
            return place
    return None


def no_results_message(what: str) -> str:
    looked = ", ".join(str(p) for p in results_candidates())
    return (
        f"{what} needs the committed exact results ({EXACT_NAME}), and none were found (looked in {looked}): "
        f"give --results DIR (a folder holding {EXACT_NAME}), set {RESULTS_ENV}, or run from the repository"
    )


PLAY_SCHEMA = pa.schema(
    [
        pa.field("deal", pa.int64(), nullable=False),
        pa.field("mode", pa.string(), nullable=False),
        pa.field("policy", pa.string(), nullable=False),
        pa.field("thoughtful", pa.string(), nullable=False),  # won | lost | unknown: the exact verdict, "" if none
        pa.field("played", pa.bool_(), nullable=False),  # false: known lost, counted lost without playing
        pa.field("outcome", pa.string(), nullable=False),  # won | lost | capped
        pa.field("reason", pa.string(), nullable=False),  # "" | no-move | proved-lost | move-cap | not-played
        pa.field("n_moves", pa.int32(), nullable=False),
        pa.field("moves", pa.string(), nullable=False),  # the game record, docs/rules.md notation
        pa.field("decisions", pa.int64(), nullable=False),
        pa.field("solves", pa.int64(), nullable=False),  # the policy's solves
        pa.field("nodes", pa.int64(), nullable=False),  # the policy's nodes
        pa.field("proof_solves", pa.int64(), nullable=False),  # the harness's solves of the true position
        pa.field("seconds", pa.float64(), nullable=False),  # wall clock of the game (not reproducible)
        pa.field("cpu_seconds", pa.float64(), nullable=False),  # CPU time of the game in its worker
        pa.field("game_seed", pa.int64(), nullable=False),
    ]
)
PLAY_COLUMNS = tuple(PLAY_SCHEMA.names)


@dataclass(frozen=True)
class PlaySettings:
    deals: DealSet
    modes: tuple[str, ...]
    policy: PolicySpec
    move_cap: int = DEFAULT_MOVE_CAP
    proof_nodes: int = DEFAULT_PROOF_NODES
    skip_lost: bool = True
    exact: Path | None = None  # the exact results folder (``find_results() / EXACT_NAME``); None: no verdicts
    chunk: int | None = None

    def record(self) -> dict:
        return {
            **self.policy.record(),
            "move_cap": self.move_cap,
            "proof_nodes": self.proof_nodes,
            "skip_lost": self.skip_lost,
        }


def game_seed(seed: int, number: int, mode: str) -> int:
    """The policy's seed for one game: a function of the run's seed, the deal and the mode."""
    return int(np.random.SeedSequence([seed, number, sum(map(ord, mode))]).generate_state(1, np.uint64)[0] >> 1)


def play_pairs(triples: list[tuple[int, str, str]], spec: PolicySpec, move_cap: int, proof_nodes: int) -> list[dict]:
    """Play each (deal, mode, thoughtful verdict); return one row per game. Runs in worker processes."""
    from ..game.deal import deal
    from ..game.rules import get_rules

    warm_once(tuple(dict.fromkeys(mode for _, mode, _ in triples)))
    rows = []
    for number, mode, thoughtful in triples:
        rules = get_rules(mode)
        seed = game_seed(spec.seed, number, mode)
        row = {"deal": number, "mode": mode, "policy": spec.name, "thoughtful": thoughtful, "game_seed": seed}
        if thoughtful == LOST and spec.extra.get("skip_lost", True):
            row.update(
                played=False,
                outcome="lost",
                reason=NOT_PLAYED,
                n_moves=0,
                moves="",
                decisions=0,
                solves=0,
                nodes=0,
                proof_solves=0,
                seconds=0.0,
                cpu_seconds=0.0,
            )
        else:
            try:
                policy = spec.build(rules, seed)
                record = play_game(deal(number, rules), rules, policy, move_cap, proof_nodes, spec.search_reductions())
            except Exception as exc:
                raise RuntimeError(f"deal {number} ({mode}): {type(exc).__name__}: {exc}") from exc
            if record.outcome == WON and thoughtful == LOST:
                raise RuntimeError(f"deal {number} ({mode}): won by {spec.name} but the exact results say lost")
            row.update(played=True, **{k: v for k, v in record.as_dict().items() if k in PLAY_COLUMNS})
        rows.append({name: row[name] for name in PLAY_COLUMNS})
    return rows


def verdict_folders(exact: Path | None, modes: tuple[str, ...]) -> dict[str, Path]:
    """mode -> the exact results folder holding its verdicts, for the modes that have one.

    ``exact`` (``find_results() / EXACT_NAME``) holds Clear runs and classic; a
    relative's verdicts are its own folder beside it, ``deals-1-100000-MODE``
    (results/README.md), used when its metadata names the mode.
    """
    if exact is None:
        return {}
    folders = {}
    for mode in modes:
        for place in (exact, exact.parent / f"deals-1-100000-{mode}"):
            meta = read_metadata(place) if (place / "_batch.json").is_file() else None
            if meta and mode in meta.get("modes", ()):
                folders[mode] = place
                break
    return folders


def thoughtful_verdicts(exact: Path | None, deals: DealSet, modes: tuple[str, ...]) -> dict:
    """(deal, mode) -> the exact verdict from the results folders (:func:`verdict_folders`; {} when none)."""
    if not len(deals):
        return {}
    verdicts = {}
    by_folder: dict[Path, list[str]] = {}
    for mode, folder in verdict_folders(exact, modes).items():
        by_folder.setdefault(folder, []).append(mode)
    for folder, wanted in by_folder.items():
        table = read_folder(folder, columns=["deal", "mode", "status"], deals=(deals.first, deals.last))
        keep = np.isin(table.column("deal").to_numpy(), deals.numbers)
        table = table.filter(pa.array(keep))
        verdicts.update(
            ((d, m), s)
            for d, m, s in zip(
                table.column("deal").to_pylist(), table.column("mode").to_pylist(), table.column("status").to_pylist()
            )
            if m in wanted
        )
    return verdicts


class PlayTally(ModeCounts):
    """Games won / played and deals done, per mode (the progress bar's live counts)."""

    COUNTED = ("won", "played", "deals")

    def add_rows(self, rows) -> None:
        for row in rows:
            c = self.of(row["mode"])
            c["deals"] += 1
            c["played"] += bool(row["played"])
            c["won"] += row["outcome"] == WON

    def text(self) -> str:
        return " | ".join(f"{m} won {c['won']}/{c['played']} played" for m, c in self.counts.items())


@dataclass
class PlayReport(RunReport):
    games: int = 0  # games played this run (not the known-lost deals counted without playing)


def new_play_metadata(settings: PlaySettings, chunk: int, exact_note: dict) -> dict:
    return {
        "format": PLAY_FORMAT,
        "created": now_text(),
        "package_version": __version__,
        "deals": settings.deals.describe(),
        "modes": list(settings.modes),
        "rules": rules_record(settings.modes),
        "play": settings.record(),
        "thoughtful": exact_note,
        "chunk": chunk,
        "columns": list(PLAY_COLUMNS),
        "runs": [],
    }


def check_play_folder(out: Path, meta: dict, settings: PlaySettings) -> None:
    """Refuse to resume ``out`` with other settings, naming each one that differs; rules and chunk alike.

    The folder's settings are read as :func:`recorded_play` reads them (a
    setting it does not record is the default of the code it was played with).
    """
    if meta.get("format") != PLAY_FORMAT:
        raise BatchError(f"{out} is {described_kind(meta)}, not {kind_text('play')}: give another --out")
    mine = {"modes": list(settings.modes), "deals": settings.deals.digest(), "columns": list(PLAY_COLUMNS)}
    theirs = {"modes": meta.get("modes"), "deals": meta.get("deals", {}).get("sha256"), "columns": meta.get("columns")}
    for key in mine:
        if mine[key] != theirs[key]:
            raise BatchError(
                f"{out} was made with other {key} ({theirs[key]} vs {mine[key]}): refusing to mix "
                "games of different settings in one folder (give another --out)"
            )
    differing = setting_differences(recorded_play(meta), settings.record())
    if differing:
        raise BatchError(
            f"{out} was made with other settings ({'; '.join(differing)}): refusing to mix "
            "games of different settings in one folder (give another --out)"
        )
    rules = rules_record(settings.modes)
    for mode in settings.modes:
        a = {k: v for k, v in meta["rules"].get(mode, {}).items() if k != "source"}
        b = {k: v for k, v in rules[mode].items() if k != "source"}
        if a != b:
            raise BatchError(f"the rules '{mode}' recorded in {out} differ from this version's (give another --out)")
    if settings.chunk is not None and settings.chunk != meta["chunk"]:
        raise BatchError(f"{out} was made with --chunk {meta['chunk']}; rerun without --chunk or give another --out")


def setting_differences(
    first: dict | None, second: dict, ignore: tuple[str, ...] = (), names: tuple[str, str] = ("folder", "this command")
) -> list[str]:
    """Each setting (but ``ignore``) whose value differs, as ``name FIRST'S (names[0]) vs SECOND'S (names[1])``."""
    first = first if isinstance(first, dict) else {}
    keys = [k for k in second if k not in ignore] + [k for k in first if k not in second and k not in ignore]
    return [
        f"{k} {first.get(k, '(none)')} ({names[0]}) vs {second.get(k, '(none)')} ({names[1]})"
        for k in keys
        if first.get(k) != second.get(k)
    ]


def recorded_play(meta: dict) -> dict | None:
    """A play folder's ``play`` settings, every one of them.

    A folder made before a setting was recorded (the committed folders record
    neither the reductions nor commit2's top, outer and inner, commit's
    max_views and screening, the exact endgame's budget or the memory of a
    solve; exact_endgame and rejudge_tail only when on) was played with the
    code's default for it, which is the value read here (the same code
    reproduces those folders game for game: ``tests/test_play_results.py``).
    """
    play = meta.get("play")
    if not isinstance(play, dict) or play.get("policy") not in PLAYERS:
        return play
    return {**PolicySpec(play["policy"]).record(), **play}


def implicit_settings(meta: dict) -> list[str]:
    """The settings a play folder does not record (read as the defaults of the code it was played with)."""
    play = meta.get("play")
    full = recorded_play(meta)
    return [k for k in full if k not in play] if isinstance(play, dict) and isinstance(full, dict) else []


def with_reductions(settings: PlaySettings, meta: dict | None) -> PlaySettings:
    """``settings`` with a reductions preset: the one asked for, else the folder's (``meta``), else PLAY_REDUCTIONS."""
    if settings.policy.reductions is not None:
        return settings
    recorded = (meta.get("play") or {}).get("reductions") if meta else None
    return replace(settings, policy=replace(settings.policy, reductions=recorded or PLAY_REDUCTIONS))


def upgrade_play_metadata(meta: dict, settings: PlaySettings) -> None:
    """Make ``meta`` record every setting (``settings``, checked equal); the ones it lacked are listed.

    ``implicit_settings`` names them under ``play_implicit``, with the
    version that wrote them; the metadata is written (atomically) when the
    run starts.
    """
    missing = implicit_settings(meta)
    if missing:
        meta["play"] = settings.record()
        meta.setdefault("play_implicit", []).append({"settings": missing, "on": now_text(), "by": __version__})


def default_play_out(settings: PlaySettings) -> Path:
    spec = settings.policy
    name = f"play-{settings.deals.label}-{'+'.join(settings.modes)}-{spec.name}"
    if spec.name in LOOKAHEAD:
        name += f"-k{spec.samples}-n{spec.nodes}" + ("-ucb" if spec.bandit else "")
        name += f"-x{spec.exact_endgame}" if spec.exact_endgame else ""
        name += "-rt" if spec.rejudge_tail else ""
    name += "".join(f"-{k.replace('_', '')}{v}" for k, v in spec.changed_options().items())
    if spec.reductions not in (None, PLAY_REDUCTIONS):
        name += f"-{spec.reductions}"
    return Path("results") / f"{name}-s{spec.seed}"


def exact_note(settings: PlaySettings, verdicts: dict) -> dict:
    """The metadata's ``thoughtful`` record: which exact results decided the deals, and how many not played."""
    covered = sum((int(d), m) in verdicts for d in settings.deals.numbers for m in settings.modes)
    known_lost = sum(v == LOST for k, v in verdicts.items() if k[1] in settings.modes)
    return {
        "results": ", ".join(str(f) for f in dict.fromkeys(verdict_folders(settings.exact, settings.modes).values()))
        if verdicts
        else None,
        "deals_covered": covered,
        "known_lost_not_played": settings.skip_lost and known_lost,
    }


def run_play(settings: PlaySettings, out: Path, how: Execution) -> PlayReport:
    """Play every chunk of the plan not yet in ``out``; return what was done (``resumable.run_chunks``).

    Without a reductions preset (``settings.policy.reductions`` None) a run
    resumes with the folder's, and a new folder gets ``PLAY_REDUCTIONS``.
    """
    started = time.perf_counter()
    meta = read_metadata(out) if out.is_dir() else None
    if out.exists() and not out.is_dir():
        raise BatchError(f"{out} exists and is not a folder")
    settings = with_reductions(settings, meta)
    verdicts = thoughtful_verdicts(settings.exact, settings.deals, settings.modes)
    if meta is None:
        refuse_foreign_folder(out)
        meta = new_play_metadata(
            settings, settings.chunk or default_chunk(len(settings.deals)), exact_note(settings, verdicts)
        )
    else:
        check_play_folder(out, meta, settings)
        upgrade_play_metadata(meta, settings)
    spec = PolicySpec(**{**asdict(settings.policy), "extra": {"skip_lost": settings.skip_lost}})

    def read_tally() -> PlayTally:
        tally = PlayTally(settings.modes)
        tally.add_rows(read_play_folder(out, ["mode", "played", "outcome"]).to_pylist())
        return tally

    def task(c: Chunk) -> Task:
        triples = [(int(n), m, verdicts.get((int(n), m), "")) for n in c.deals for m in settings.modes]
        return Task(c.name, play_pairs, (triples, spec, settings.move_cap, settings.proof_nodes), len(c.deals))

    def write(task: Task, rows: list[dict], report: PlayReport) -> None:
        ordered = sorted(rows, key=lambda r: (r["deal"], r["mode"]))
        write_table(out, task.key, pa.Table.from_pylist(ordered, schema=PLAY_SCHEMA))
        report.games += sum(bool(r["played"]) for r in rows)

    job = ChunkJob("play", settings.modes, read_tally, PlayReport, task, write)
    plan = list(plan_chunks(settings.deals, int(meta["chunk"])))
    report = run_chunks(job, out, meta, plan, how)
    report.seconds = time.perf_counter() - started
    return report


def read_play_folder(out: Path, columns: list[str] | None = None) -> pa.Table:
    """Every finished game row of a play folder, sorted by (deal, mode)."""
    paths = sorted(out.glob(CHUNK_GLOB)) if out.is_dir() else []
    if not paths:
        empty = PLAY_SCHEMA.empty_table()
        return empty if columns is None else empty.select(columns)
    table = pa.concat_tables(read_chunk(p, PLAY_SCHEMA, columns) for p in paths)
    return table.sort_by([("deal", "ascending"), ("mode", "ascending")]) if "deal" in table.column_names else table


def is_play_folder(meta: dict | None) -> bool:
    return bool(meta) and meta.get("format") == PLAY_FORMAT
