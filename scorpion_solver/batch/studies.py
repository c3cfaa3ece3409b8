"""Studies: resumable computations over deals or games, into Parquet folders (UB_1, the decision losses).

A *bound folder* holds one ``chunk-*.parquet`` per finished chunk (written
atomically, as results folders are), a lock, and ``_batch.json`` with the
format ``scorpion-bound/1``, the settings and the command. One row per deal
and mode: the two estimates of UB_1 at the deal's opening view (``upper``,
``split``), how many commitments and layouts went into them and the cost.
A study runs through the batch's resumable skeleton
(``resumable.run_chunks``): a rerun of the same command skips the finished
chunks, Ctrl-C and SIGTERM stop it with the run recorded as interrupted, and
a folder refuses other settings. The layouts of deal N in mode M are seeded by (seed, N, M),
so a rerun gives the same rows (timings aside).

The summary (:func:`bound_summary`) puts the mean of ``upper`` with its 95%
interval over deals beside the thoughtful rate of the same deals, from the
committed exact verdicts.
"""

from __future__ import annotations

import time
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .. import __version__
from ..play.bounds import DEFAULT_BOUND_NODES, DEFAULT_BOUND_SAMPLES
from ..play.cover import DEFAULT_COVER_BUDGET_NODES, DEFAULT_COVER_SOLVE_NODES, DEFAULT_TRIES
from .backends import warmed_call
from .folder import (
    atomic_write,
    described_kind,
    json_clean,
    kind_text,
    now_text,
    read_metadata,
    refuse_foreign_folder,
)
from .plan import BatchError, DealSet, plan_chunks
from .resumable import ChunkJob, Execution, ModeCounts, RunReport, Task, run_chunks

BOUND_FORMAT = "scorpion-bound/1"
BOUND_SCHEMA = pa.schema(
    [
        ("deal", pa.int64()),
        ("mode", pa.string()),
        ("commitments", pa.int64()),
        ("samples", pa.int64()),
        ("root_won", pa.int64()),
        ("root_unknown", pa.int64()),
        ("pair_unknown", pa.int64()),
        ("upper", pa.float64()),
        ("split", pa.float64()),
        ("best", pa.string()),
        ("solves", pa.int64()),
        ("nodes", pa.int64()),
        ("cpu_seconds", pa.float64()),
    ]
)


@dataclass(frozen=True)
class BoundSettings:
    deals: DealSet
    modes: tuple[str, ...]
    samples: int = DEFAULT_BOUND_SAMPLES
    nodes: int = DEFAULT_BOUND_NODES
    seed: int = 0

    def record(self) -> dict:
        return {"samples": self.samples, "nodes": self.nodes, "seed": self.seed}


def layout_seed(seed: int, number: int, mode: str) -> int:
    return seed * 1_000_003 + number * 7 + zlib.crc32(mode.encode())


def bound_rows(numbers: list[int], modes: tuple[str, ...], samples: int, nodes: int, seed: int) -> list[dict]:
    """The rows of one chunk (runs in a worker process)."""
    from ..game.deal import deal
    from ..game.rules import get_rules
    from ..game.view import Observation
    from ..play.bounds import first_reveal_bound

    rows = []
    for number in numbers:
        for mode in modes:
            rules = get_rules(mode)
            start = time.process_time()
            bound = first_reveal_bound(
                Observation.of(deal(number, rules)), rules, samples, layout_seed(seed, number, mode), nodes
            )
            rows.append({"deal": number, "mode": mode, **bound.as_dict(), "cpu_seconds": time.process_time() - start})
    return rows


@dataclass(frozen=True)
class StudyChunk:
    """One chunk file of a study: the call of a module-level function (run in a worker) that returns its rows."""

    name: str  # the chunk file
    deals: tuple  # the deals (or games) it covers: what it advances the progress by
    fn: Callable
    args: tuple


@dataclass(frozen=True)
class Study:
    """A resumable computation into a folder of chunk files (``run_study``).

    ``record`` is what a folder must agree with to be resumed (format,
    inputs, settings); ``plan`` its chunks; ``kind`` names its runs.
    """

    kind: str
    format: str
    schema: pa.Schema
    modes: tuple[str, ...]
    record: dict
    plan: list[StudyChunk]


class StudyTally(ModeCounts):
    """Rows written per mode (deals for a bound, decisions for losses): the progress bar's live counts."""

    COUNTED = ("rows",)

    def add_rows(self, rows) -> None:
        for row in rows:
            self.of(row["mode"])["rows"] += 1

    def text(self) -> str:
        return " | ".join(f"{m} {c['rows']} rows" for m, c in self.counts.items())


def _folder_metadata(out: Path, study: Study) -> dict:
    """The folder's metadata, checked against the study; new metadata for a new (or empty) folder."""
    meta = read_metadata(out) if out.is_dir() else None
    fresh = {"format": study.format, **study.record}
    if meta is None:
        refuse_foreign_folder(out)
        return {**fresh, "version": __version__, "created": now_text(), "runs": []}
    if meta.get("format") != study.format:
        raise BatchError(f"{out} is {described_kind(meta)}, not {kind_text(study.kind)}: give another --out")
    for key, value in fresh.items():
        if _settings_of(key, meta.get(key)) != _settings_of(key, json_clean(value)):
            raise BatchError(f"{out} holds a run with other {key} ({meta.get(key)} here, {value} asked)")
    return meta


def _settings_of(key: str, value):
    """A recorded value as compared on resuming: a play folder's settings (``play``) with every one filled in.

    So a losses folder made when its play folder recorded fewer settings
    resumes once that folder's metadata records them all (``play_runs.recorded_play``).
    """
    from .play_runs import recorded_play

    return recorded_play({"play": value}) if key == "play" else value


def run_study(study: Study, out: Path, how: Execution) -> RunReport:
    """Compute the chunks of ``out`` not yet written; return what was done (``resumable.run_chunks``).

    Each chunk is written whole or not at all as soon as it is done, so an
    interrupted run loses only the chunks in progress, and the same command
    resumes it.
    """
    started = time.perf_counter()
    meta = _folder_metadata(out, study)

    def read_tally() -> StudyTally:
        tally = StudyTally(study.modes)
        for path in sorted(out.glob("chunk-*.parquet")):
            tally.add_rows(pq.read_table(path, columns=["mode"]).to_pylist())
        return tally

    def write(task: Task, rows: list[dict], report: RunReport) -> None:
        rows = sorted(rows, key=lambda r: (r["deal"], r["mode"], r.get("step", 0)))
        atomic_write(out, task.key, table=pa.Table.from_pylist(rows, schema=study.schema))

    job = ChunkJob(
        study.kind,
        study.modes,
        read_tally,
        RunReport,
        lambda c: Task(c.name, warmed_call, (study.modes, False, c.fn, *c.args), len(c.deals)),
        write,
    )
    report = run_chunks(job, out, meta, study.plan, how)
    report.seconds = time.perf_counter() - started
    return report


def _deal_study(kind: str, fmt: str, schema: pa.Schema, settings, chunk: int, rows: Callable, options: tuple) -> Study:
    """A study over a range of deals: one chunk of ``chunk`` deals calls ``rows(numbers, modes, *options)``."""
    record = {
        "deals": settings.deals.describe(),
        "modes": list(settings.modes),
        "settings": settings.record(),
        "chunk": chunk,
    }
    plan = []
    for c in plan_chunks(settings.deals, chunk):
        numbers = tuple(int(n) for n in c.deals)
        plan.append(StudyChunk(c.name, numbers, rows, (list(numbers), settings.modes, *options)))
    return Study(kind, fmt, schema, settings.modes, record, plan)


def bound_study(settings: BoundSettings, chunk: int = 20) -> Study:
    """UB_1 at the start of every deal of the range (``play.bounds``)."""
    options = (settings.samples, settings.nodes, settings.seed)
    return _deal_study("bound", BOUND_FORMAT, BOUND_SCHEMA, settings, chunk, bound_rows, options)


def read_study_folder(out: Path, schema: pa.Schema = BOUND_SCHEMA) -> pa.Table:
    """Every finished chunk of a study folder (one table)."""
    paths = sorted(p for p in out.glob("chunk-*.parquet"))
    if not paths:
        raise BatchError(f"{out} holds no finished chunk")
    return pa.concat_tables([pq.read_table(p, schema=schema) for p in paths])


@dataclass(frozen=True)
class BoundLine:
    """One mode's summary: UB_1's mean with its interval, the split estimate, the thoughtful rate."""

    mode: str
    deals: int
    upper: float
    upper_low: float
    upper_high: float
    split: float
    thoughtful: float | None  # the exact share of these deals that are winnable
    pair_unknown: int
    cpu_seconds: float

    def as_dict(self) -> dict:
        """The JSON form (``docs/output.md``), without the mode (the key it is filed under)."""
        return {
            "deals": self.deals,
            "upper": self.upper,
            "upper_interval": [self.upper_low, self.upper_high],
            "split": self.split,
            "thoughtful_rate": self.thoughtful,
            "pair_unknown": self.pair_unknown,
            "cpu_seconds": self.cpu_seconds,
        }


def bound_summary(out: Path, thoughtful: dict | None = None) -> list[BoundLine]:
    """Per mode: the mean of ``upper`` over deals with its 95% interval, the mean of ``split``.

    The interval is the protocol's for a mean of shares (``protocol.share_interval``):
    the Wilson interval with the effective number of deals, each deal's
    ``upper`` a share of its K sampled layouts. Unlike a normal interval it
    keeps its width on a few deals: three deals whose every share is 0 give
    0% - 56%, not 0% - 0%. ``thoughtful`` maps (deal, mode) to the exact
    verdict (``won``/``lost``).
    """
    import numpy as np

    from .protocol import share_interval

    rows = read_study_folder(out).to_pylist()
    samples = ((read_metadata(out) or {}).get("settings") or {}).get("samples", DEFAULT_BOUND_SAMPLES)
    lines = []
    for mode in sorted({r["mode"] for r in rows}, key=lambda m: (m != "clear", m)):
        mine = [r for r in rows if r["mode"] == mode]
        n = len(mine)
        ups = [r["upper"] for r in mine]
        mean = sum(ups) / n
        low, high = share_interval(np.array(ups, dtype=float), samples)
        known = [thoughtful.get((r["deal"], mode)) for r in mine] if thoughtful else []
        share = sum(v == "won" for v in known) / n if known and None not in known else None
        lines.append(
            BoundLine(
                mode,
                n,
                mean,
                low,
                high,
                sum(r["split"] for r in mine) / n,
                share,
                sum(r["pair_unknown"] for r in mine),
                sum(r["cpu_seconds"] for r in mine),
            )
        )
    return lines


LOSS_FORMAT = "scorpion-losses/1"
LOSS_SCHEMA = pa.schema(
    [
        ("deal", pa.int64()),
        ("mode", pa.string()),
        ("policy", pa.string()),
        ("step", pa.int64()),
        ("unseen", pa.int64()),
        ("kind", pa.string()),
        ("samples", pa.int64()),
        ("before", pa.int64()),
        ("after", pa.int64()),
        ("unknown", pa.int64()),
        ("exact_before", pa.float64()),
        ("exact_after", pa.float64()),
        ("exact_share", pa.float64()),
    ]
)


def loss_study(
    play_folder: Path,
    samples: int,
    nodes: int,
    exact_unseen: int,
    chunk: int = 10,
    kinds: tuple[str, ...] = (),
    fatal: bool = False,
) -> Study:
    """The loss of every decision (or of those of ``kinds``) of the games a play folder played (``play.losses``);
    ``fatal``: only of the decision that lost each game lost on a winnable deal."""
    from ..play.losses import KINDS, game_loss_rows
    from .play_runs import read_play_folder

    meta = read_metadata(play_folder) or {}
    columns = ["deal", "mode", "policy", "played", "moves", "thoughtful", "outcome"]
    table = read_play_folder(play_folder, columns=columns).to_pylist()
    chosen = [r for r in table if r["played"] and (not fatal or (r["thoughtful"] == "won" and r["outcome"] != "won"))]
    games = sorted((r["deal"], r["mode"], r["policy"], r["moves"]) for r in chosen)
    if not games:
        what = "game lost on a winnable deal" if fatal else "played game"
        raise BatchError(f"{play_folder} holds no {what}")
    record = {
        "source": play_folder.name,
        "play": meta.get("play"),
        "settings": {"samples": samples, "nodes": nodes, "exact_unseen": exact_unseen},
        "games": len(games),
        "chunk": chunk,
    }
    if kinds:  # recorded only when some kinds are left out: the folders measuring all of them read the same
        record["settings"]["kinds"] = sorted(kinds)
    if fatal:  # recorded only when on, as kinds, with the budgets of the whole-view computation it may run
        from ..play.losses import WHOLE_VIEW_BUDGET, WHOLE_VIEW_VIEWS

        record["settings"]["fatal"] = True
        record["settings"]["whole_view"] = {**WHOLE_VIEW_BUDGET, "budget_views": WHOLE_VIEW_VIEWS}
    if kinds or fatal:
        record["games_by_mode"] = dict(Counter(mode for _, mode, _, _ in games))  # also those with no such decision
    plan = []
    for lo in range(0, len(games), chunk):
        part = games[lo : lo + chunk]
        name = f"chunk-{lo + 1:08d}-{lo + len(part):08d}.parquet"  # games, counted from 1 in (deal, mode) order
        options = (part, samples, nodes, exact_unseen, kinds or KINDS, fatal)
        plan.append(StudyChunk(name, tuple(part), game_loss_rows, options))
    modes = tuple(sorted({mode for _, mode, _, _ in games}, key=lambda m: (m != "clear", m)))
    return Study("losses", LOSS_FORMAT, LOSS_SCHEMA, modes, record, plan)


def loss_summary(out: Path) -> dict:
    """Per mode, the losses grouped by number of unseen cards (``by_unseen``) and by kind of move (``by_kind``)."""
    rows = read_study_folder(out, LOSS_SCHEMA).to_pylist()
    played = (read_metadata(out) or {}).get("games_by_mode", {})  # a study of some kinds: every game counts
    modes: dict = {}
    for mode in sorted({r["mode"] for r in rows}, key=lambda m: (m != "clear", m)):
        mine = [r for r in rows if r["mode"] == mode]
        games = played.get(mode) or len({r["deal"] for r in mine})
        modes[mode] = {f"by_{name}": _loss_groups(mine, name, games) for name in ("unseen", "kind")}
    return modes


def _loss_groups(rows: list[dict], name: str, games: int) -> list[dict]:
    groups: dict = {}
    for r in rows:
        g = groups.setdefault(r[name], {"decisions": 0, "loss": 0.0, "exact": 0.0, "exact_n": 0})
        g["decisions"] += 1
        g["loss"] += (r["before"] - r["after"]) / r["samples"]
        if r["exact_before"] is not None and r["exact_after"] is not None:
            g["exact"] += r["exact_before"] - r["exact_after"]
            g["exact_n"] += 1
    return [
        {
            name: key,
            "decisions": g["decisions"],
            "loss": g["loss"] / g["decisions"],
            "loss_per_game": g["loss"] / games,
            "exact_loss": g["exact"] / g["exact_n"] if g["exact_n"] else None,
            "exact_decisions": g["exact_n"],
        }
        for key, g in sorted(groups.items())
    ]


NOPEEK_FORMAT = "scorpion-nopeek/2"  # 2: the cover (covered, by)
NOPEEK_SCHEMA = pa.schema(
    [
        ("deal", pa.int64()),
        ("mode", pa.string()),
        ("unseen", pa.int64()),
        ("status", pa.string()),  # exact | unknown
        ("value", pa.string()),  # V as a fraction ("163/360"); null when unknown
        ("share", pa.string()),  # S, the thoughtful share, as a fraction; null when unknown
        ("lower", pa.string()),  # V is at least this (the best line found; V itself when exact)
        ("upper", pa.string()),  # V is at most this (S; when S was cut short, the arrangements not known lost)
        ("value_float", pa.float64()),
        ("lower_float", pa.float64()),
        ("upper_float", pa.float64()),
        ("stopped_by", pa.string()),
        ("solves", pa.int64()),
        ("nodes", pa.int64()),
        ("views", pa.int64()),
        ("cpu_seconds", pa.float64()),
        ("covered", pa.string()),  # the cover's win probability (play.cover), a floor on V; null when not built
        ("by", pa.string()),  # what made V exact: dead (S = 0), cover (it wins S), expectimax; "" when unknown
    ]
)
NOPEEK_SOLVE_NODES = 50_000_000  # a whole deal's arrangement: the batch's own budget
NOPEEK_SOLVE_MEMORY_MB = 512
DEFAULT_NOPEEK_NODES = 300_000_000  # all the solves of one deal (S and V)
DEFAULT_NOPEEK_VIEWS = 3_000_000  # views walked between reveals for one deal (the plain-Python part)


@dataclass(frozen=True)
class NoPeekSettings:
    """A no-peek study's budgets, each for one deal: kernel nodes over all its solves and views walked (both
    counted, so a rerun decides the same deals on any machine), and an optional wall-clock limit (which does not)."""

    deals: DealSet
    modes: tuple[str, ...]
    nodes: int = DEFAULT_NOPEEK_NODES
    views: int = DEFAULT_NOPEEK_VIEWS
    seconds: float | None = None

    def record(self) -> dict:
        return {
            "nodes": self.nodes,
            "views": self.views,
            "seconds": self.seconds,
            "solve_nodes": NOPEEK_SOLVE_NODES,
            "solve_memory_mb": NOPEEK_SOLVE_MEMORY_MB,
            "cover_solve_nodes": DEFAULT_COVER_SOLVE_NODES,
            "cover_budget_nodes": DEFAULT_COVER_BUDGET_NODES,
            "cover_tries": DEFAULT_TRIES,
        }


def nopeek_rows(
    numbers: list[int], modes: tuple[str, ...], nodes: int, views: int, seconds: float | None
) -> list[dict]:
    """The rows of one chunk of a no-peek value study (runs in a worker process)."""
    from ..game.deal import deal
    from ..game.rules import get_rules
    from ..game.view import Observation
    from ..play.exact import deal_value

    rows = []
    for number in numbers:
        for mode in modes:
            rules = get_rules(mode)
            start = time.process_time()
            found = deal_value(
                Observation.of(deal(number, rules), rules.decks),
                rules,
                seconds,
                solve_nodes=NOPEEK_SOLVE_NODES,
                solve_memory_mb=NOPEEK_SOLVE_MEMORY_MB,
                budget_nodes=nodes,
                budget_views=views,
            )
            rows.append({"deal": number, "mode": mode, **found.as_dict(), "cpu_seconds": time.process_time() - start})
    return rows


def nopeek_study(settings: NoPeekSettings, chunk: int = 10) -> Study:
    """The exact no-peek value V of every deal of the range from its opening view (``play.exact.deal_value``)."""
    options = (settings.nodes, settings.views, settings.seconds)
    return _deal_study("nopeek", NOPEEK_FORMAT, NOPEEK_SCHEMA, settings, chunk, nopeek_rows, options)


def nopeek_summary(out: Path) -> dict:
    """Per mode: the deals, how many are exact, and the realistic win rate over the deals as an interval.

    Every deal's V lies in [lower, upper] (equal when exact), so the mean of
    V over the folder's deals lies in [mean lower, mean upper]: no deal left
    unknown is dropped or guessed. The thoughtful rate (mean S over the deals
    whose S is known) and the deals whose V is 0 stand beside it.
    """
    from fractions import Fraction

    rows = read_study_folder(out, NOPEEK_SCHEMA).to_pylist()
    modes: dict = {}
    for mode in sorted({r["mode"] for r in rows}, key=lambda m: (m != "clear", m)):
        mine = [r for r in rows if r["mode"] == mode]
        n = len(mine)
        exact = [r for r in mine if r["status"] == "exact"]
        shares = [Fraction(r["share"]) for r in mine if r["share"] is not None]
        lower = sum((Fraction(r["lower"]) for r in mine), Fraction(0)) / n
        upper = sum((Fraction(r["upper"]) for r in mine), Fraction(0)) / n
        modes[mode] = {
            "deals": n,
            "exact": len(exact),
            "unknown": n - len(exact),
            "value_zero": sum(r["value"] == "0" for r in exact),
            "exact_dead": sum(r["by"] == "dead" for r in exact),
            "exact_by_cover": sum(r["by"] == "cover" for r in exact),
            "exact_by_expectimax": sum(r["by"] == "expectimax" for r in exact),
            "value_interval": [float(lower), float(upper)],
            "value_interval_fraction": [str(lower), str(upper)],
            "thoughtful_rate": float(sum(shares, Fraction(0)) / len(shares)) if shares else None,
            "thoughtful_deals": len(shares),
            "cpu_seconds": sum(r["cpu_seconds"] for r in mine),
            "hardest": [
                {"deal": r["deal"], "exact_fraction": r["value"], "cpu_seconds": r["cpu_seconds"]}
                for r in sorted(mine, key=lambda r: -r["cpu_seconds"])[:5]
            ],
        }
    return modes


def optimum_shares(out: Path, groups: list) -> list[dict]:
    """Each player's share of the optimum and its regret, on the deals whose V is exact (issue 53).

    ``groups`` are the players (``protocol.SeedGroup``: a play folder a
    seed). A player's game on deal i is played on the deal's own arrangement
    of the hidden cards, a fair draw given the view. Write W_i for its wins /
    seeds, T_i for 1 when that arrangement can be won (the committed exact
    verdict, the play folder's ``thoughtful``), S_i and V_i for the deal's
    thoughtful share and no-peek value. Then E[T_i] = S_i, and a player never
    wins a lost arrangement, so the **gap** T_i - W_i lies in [0, 1] and

        the player's value on deal i  =  S_i - E[T_i - W_i]
        its regret on deal i          =  V_i - S_i + E[T_i - W_i]

    S_i - V_i is exact; only the gap is estimated, and it is nearly always
    0, so this has far less noise than V_i - W_i (a control variate: T_i
    moves with W_i). The regret a deal is the mean gap less the mean of S - V,
    its interval the protocol's interval of the mean gap (``protocol.share_interval``:
    Wilson with the effective number of deals) shifted by the same exact
    amount; the **share of the optimum** is the player's mean value over the
    mean V. The deals are those whose V is exact (chosen by the view alone,
    never by the arrangement, so nothing leans; but they are the deals whose
    S was reachable) that every seed finished; the others are counted apart,
    never guessed. The deals with V > 0 that some seed lost are listed.
    """
    from fractions import Fraction

    import numpy as np

    from .protocol import share_interval

    rows = read_study_folder(out, NOPEEK_SCHEMA).to_pylist()
    players = []
    for group in groups:
        modes: dict = {}
        seeds = len(group.rows)
        for mode in [m for m in group.meta["modes"] if any(r["mode"] == m for r in rows)]:
            mine = [r for r in rows if r["mode"] == mode]
            exact = {r["deal"]: (Fraction(r["value"]), Fraction(r["share"])) for r in mine if r["status"] == "exact"}
            games = []  # per seed: deal -> (won, winnable)
            for columns in group.rows:
                keep = columns["mode"] == mode
                outcome = zip(
                    (columns["outcome"][keep] == "won").tolist(), (columns["thoughtful"][keep] == "won").tolist()
                )
                games.append(dict(zip(columns["deal"][keep].tolist(), outcome)))
            finished = set.intersection(*(set(g) for g in games))
            deals = sorted(exact.keys() & finished)
            n = len(deals)
            wins = {d: sum(g[d][0] for g in games) for d in deals}
            gaps = np.array([games[0][d][1] - wins[d] / seeds for d in deals], dtype=float)
            value = sum((exact[d][0] for d in deals), Fraction(0))
            shortfall = sum((exact[d][1] - exact[d][0] for d in deals), Fraction(0))  # sum of S - V, exact
            share = sum((exact[d][1] for d in deals), Fraction(0))
            entry = {"deals": n, "value_mean": None, "share_mean": None, "won_mean": None, "gap_mean": None}
            entry.update(
                player_value=None, share_of_optimum=None, share_interval=None, regret=None, regret_interval=None
            )
            if n:
                low, high = share_interval(gaps, seeds)
                high = min(high, float(share / n))  # a player's value is never below 0: E[gap] <= S
                player = float(share / n) - float(gaps.mean())
                entry.update(
                    value_mean=float(value / n),
                    share_mean=float(share / n),
                    won_mean=sum(wins.values()) / (seeds * n),
                    gap_mean=float(gaps.mean()),
                    player_value=player,
                    regret=float(value / n) - player,
                    regret_interval=[low - float(shortfall / n), high - float(shortfall / n)],
                )
                if value:
                    v = float(value / n)
                    entry.update(
                        share_of_optimum=player / v,
                        share_interval=[(float(share / n) - high) / v, (float(share / n) - low) / v],
                    )
            entry.update(
                value_unknown=len({r["deal"] for r in mine if r["status"] != "exact"} & finished),
                unfinished=len(exact.keys() - finished),
                lost_with_value=[
                    {"deal": d, "exact_fraction": str(exact[d][0]), "winnable": games[0][d][1], "won": wins[d]}
                    for d in deals
                    if exact[d][0] > 0 and wins[d] < seeds
                ],
            )
            modes[mode] = entry
        players.append(
            {"player": group.label, "folders": [str(f) for f in group.folders], "seeds": group.seeds, "modes": modes}
        )
    return players
