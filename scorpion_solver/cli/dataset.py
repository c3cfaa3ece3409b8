"""``scorpion verify``, ``scorpion export`` and ``scorpion publish``: results/ as a dataset others can check and load.

``verify`` re-checks a folder as a skeptic would, one report line per check (checksums, rows against the
schema, won lines replayed in the reference engine, the .stats.json recomputed, play games played again from
their seeds); its exit status is 0 only when every check held. ``publish`` rewrites results/SHA256SUMS and
results/datapackage.json after a run; ``export`` writes a folder's rows as CSV.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from pathlib import Path

import click

from ..batch.folder import CHUNK_GLOB, folder_kind, read_metadata
from ..batch.plan import BatchError
from ..game.text_input import TextInputError, parse_json, read_text
from .common import UserError, user_errors


def _bar(items, desc: str, unit: str):
    from tqdm.auto import tqdm

    return tqdm(items, desc=desc, unit=unit, file=sys.stderr, disable=None, dynamic_ncols=True, leave=False)


def _checked_folder(folder: Path) -> tuple[dict | None, str]:
    if not folder.is_dir():
        raise UserError(f"{folder} is not a folder")
    meta = read_metadata(folder)
    if meta is None:
        raise UserError(f"{folder} is not a results, play, bound or losses folder (it has no _batch.json)")
    return meta, folder_kind(meta)


class _Report:
    """One line per check: PASS, FAIL or SKIP, what was checked, and the first problems found."""

    def __init__(self) -> None:
        self.failed = False

    def line(self, verdict: str, check: str, text: str, problems: list[str] = ()) -> None:
        self.failed |= verdict == "FAIL"
        click.echo(f"{verdict:4}  {check}: {text}")
        for problem in problems[:10]:
            click.echo(f"      {problem}")
        if len(problems) > 10:
            click.echo(f"      ... and {len(problems) - 10} more")


@click.command("verify")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option(
    "--sample", type=click.IntRange(min=1), default=None, metavar="N", help="Replay N won lines drawn at random [all]."
)
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the --sample and --games draws.")
@click.option(
    "--games",
    type=click.IntRange(min=0),
    default=2,
    show_default=True,
    metavar="N",
    help="Play folders: play N played games again from their seeds (0: none).",
)
@user_errors
def verify_command(folder: Path, sample: int | None, seed: int, games: int) -> None:
    """Re-check a results, play, bound or losses FOLDER as a skeptic would, one report line per check.

    \b
    * checksums: the folder's files against SHA256SUMS beside it (results/SHA256SUMS);
    * rows: every chunk's columns and types, required values, allowed values and unique keys,
      against the schema of results/datapackage.json (the code's own);
    * won lines: every won solution (results) or won game (play) replayed in the reference
      engine, or --sample N of them;
    * stats: FOLDER.stats.json beside it recomputed (`scorpion stats FOLDER --json`) and compared;
    * play folders: --games N played games played again from their seeds, every column but
      the timings compared.

    Exit status 0 when every check held, 1 when one failed, 2 for a mistake in the command.
    """
    from ..batch import dataset

    meta, kind = _checked_folder(Path(folder))
    folder = Path(folder).resolve()  # `verify .` finds its sums and summary beside it too
    report = _Report()
    _verify_sums(folder, report)
    rows, problems = dataset.check_rows(folder, kind, meta, lambda it: _bar(list(it), "rows", "chunk"))
    report.line("FAIL" if problems else "PASS", "rows", f"{rows:,} rows of {kind} schema checked", problems)
    if kind in ("results", "play"):
        won = dataset.won_rows(folder, kind)
        picked = dataset.sample_rows(won, sample, seed)
        problems = [p for p in map(dataset.replay_problem, _bar(picked, "replay", "line")) if p]
        drawn = f" (a sample drawn with seed {seed})" if len(picked) < len(won) else ""
        report.line(
            "FAIL" if problems else "PASS",
            "won lines",
            f"{len(picked):,} of {len(won):,} won lines replayed to a win in the reference engine{drawn}",
            problems,
        )
    _verify_stats(folder, report)
    if kind == "play" and games:
        _verify_games(folder, meta, games, seed, report)
    sys.exit(1 if report.failed else 0)


def _verify_sums(folder: Path, report: _Report) -> None:
    from ..batch import dataset

    root = folder.resolve().parent
    sums_path = root / dataset.SUMS
    if not sums_path.is_file():
        report.line("SKIP", "checksums", f"no {dataset.SUMS} beside the folder ({sums_path}): nothing to check against")
        return
    sums = dataset.read_sums(sums_path)
    name = folder.resolve().name
    on_disk = sorted(
        p.relative_to(root).as_posix() for p in (root / name).rglob("*") if p.is_file() and not p.name.startswith(".")
    )
    listed = [n for n in sums if n.startswith(f"{name}/")]
    beside = [n for n in sums if n.startswith(f"{name}.")]
    names = sorted(set(on_disk) | set(listed) | set(beside))
    problems = dataset.check_sums(root, sums, list(_bar(names, "checksums", "file")))
    report.line("FAIL" if problems else "PASS", "checksums", f"{len(names):,} files against {sums_path}", problems)


def _verify_stats(folder: Path, report: _Report) -> None:
    from ..batch import dataset
    from .batch import stats_command

    stats_path = folder.parent / f"{folder.name}.stats.json"
    if not stats_path.is_file():
        report.line("SKIP", "stats", f"no {stats_path.name} beside the folder")
        return
    try:
        recorded = parse_json(read_text(str(stats_path)), str(stats_path))
    except TextInputError as exc:  # a damaged summary fails the check; the rest of the folder is still verified
        report.line("FAIL", "stats", str(exc))
        return
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        stats_command.main([str(folder), "--json", *_comparison_args(folder, recorded)], standalone_mode=False)
    try:
        recomputed = json.loads(out.getvalue())
    except ValueError:
        report.line("FAIL", "stats", f"scorpion stats {folder} --json gave no summary")
        return
    differences, gone = dataset.compare_stats(recorded, recomputed)
    note = f" ({len(gone)} recorded field(s) this version does not compute: {', '.join(gone[:4])})" if gone else ""
    report.line(
        "FAIL" if differences else "PASS",
        "stats",
        f"{stats_path.name} recomputed from the rows and compared{note}",
        differences,
    )


def _comparison_args(folder: Path, recorded: dict) -> list[str]:
    """The --against and --pair options that made a summary's recorded ``comparisons`` (a relatives folder's),
    their folders found beside ``folder`` by name."""
    against: dict[str, None] = {}
    pairs = []
    for comparison in recorded.get("comparisons") or ():
        pairs += ["--pair", f"{comparison['first']}:{comparison['second']}"]
        for source in comparison.get("sources", ()):
            if Path(source).name != folder.name:
                against[str(folder.parent / Path(source).name)] = None
    return [arg for path in against for arg in ("--against", path)] + pairs


def _verify_games(folder: Path, meta: dict, games: int, seed: int, report: _Report) -> None:
    from ..batch import dataset
    from ..batch.play_runs import read_play_folder

    played = [r for r in read_play_folder(folder).to_pylist() if r["played"]]
    picked = dataset.sample_rows(played, games, seed)
    problems = [p for p in (dataset.replay_game_problem(folder, meta, r) for r in _bar(picked, "games", "game")) if p]
    report.line(
        "FAIL" if problems else "PASS",
        "games",
        f"{len(picked)} of {len(played):,} played games played again from their seeds (drawn with seed {seed})",
        problems,
    )


@click.command("export")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--csv", "as_csv", is_flag=True, help="Write the rows as CSV (the one format for now; required).")
@click.option(
    "--out",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The CSV file to write ['-': standard output].",
)
@user_errors
def export_command(folder: Path, as_csv: bool, out: Path | None) -> None:
    """Write every row of a results, play, bound or losses FOLDER as one CSV table, sorted by its key.

    For people without a Parquet reader: a header line with the column names of
    results/datapackage.json, then one line per row (booleans true/false, an
    absent value empty).
    """
    import pyarrow as pa
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    from ..batch import dataset

    if not as_csv:
        raise UserError("give --csv (the format to export to)")
    meta, kind = _checked_folder(Path(folder))
    paths = sorted(Path(folder).glob(CHUNK_GLOB))
    if not paths:
        raise UserError(f"{folder} holds no finished chunk files (chunk-*.parquet)")
    table = pa.concat_tables(pq.read_table(p) for p in paths)
    table = table.sort_by([(k, "ascending") for k in dataset.PRIMARY_KEYS[kind]])
    sink = sys.stdout.buffer if out is None or str(out) == "-" else out.open("wb")
    try:
        pacsv.write_csv(table, sink)
    finally:
        if sink is not sys.stdout.buffer:
            sink.close()
        else:
            sink.flush()
    if out is not None and str(out) != "-":
        click.echo(f"{table.num_rows:,} rows written to {out}", err=True)


@click.command("publish")
@click.argument("root", type=click.Path(path_type=Path), default=Path("results"), required=False)
@user_errors
def publish_command(root: Path) -> None:
    """Rewrite ROOT/SHA256SUMS and ROOT/datapackage.json after a run [ROOT: results].

    The checksums cover every file under ROOT (the files git tracks or would add, in a
    checkout), so `cd ROOT && sha256sum -c SHA256SUMS` checks a copy; the data package
    describes every folder's chunk files, columns and run record.
    """
    from ..batch import dataset

    if not root.is_dir():
        raise UserError(f"{root} is not a folder")
    try:
        dataset.write_package(root)
    except BatchError as exc:
        raise UserError(str(exc)) from None
    path = dataset.write_sums(root, lambda it: _bar(list(it), "checksums", "file"))
    count = len(path.read_text(encoding="utf-8").splitlines())
    click.echo(f"{root / dataset.PACKAGE} and {path} ({count:,} files) rewritten")
