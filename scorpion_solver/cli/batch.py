"""The ``scorpion batch`` and ``scorpion stats`` commands (registered by ``cli``).

A thin layer over :mod:`batch` and :mod:`stats`. User mistakes (bad RANGE,
missing folder, mixed rules or limits) end as one ``error:`` line and exit
status 2 through ``common.user_errors``; a rules bug found by ``stats`` or a
failed chunk ends with exit status 1; Ctrl-C with 130.
"""

from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path

import click

from .. import batch as B
from ..game.rules import MODES
from ..solver.result import DEFAULT_MEMORY_MB, DEFAULT_NODES, Limits
from .common import MEGABYTES, NODES, SECONDS, echo_json, fail, resolve_rules, rules_options, user_errors


@click.command("batch")
@click.argument("deal_range", metavar="RANGE")
@rules_options(several=True, default_text="clear,classic")
@click.option(
    "--workers", type=click.IntRange(1, 4096), default=None, help="Local worker processes [default: all cores]."
)
@click.option("--nodes", type=NODES, default=None, help=f"Node budget per solve [default: {DEFAULT_NODES}].")
@click.option(
    "--memory",
    "memory_mb",
    type=MEGABYTES,
    default=None,
    help=f"Transposition table budget per solve, MB [default: {DEFAULT_MEMORY_MB}].",
)
@click.option(
    "--time",
    "seconds",
    type=SECONDS,
    default=None,
    help="Wall-clock limit per solve, seconds [default: none; makes results machine-dependent].",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Results folder [default: results/<start>-<end>-<modes>-n<nodes>].",
)
@click.option(
    "--chunk",
    type=click.IntRange(1, B.MAX_BATCH_DEALS),
    default=None,
    help="Deals per task and per Parquet file [default: about 100 chunks, 10-1000 deals each; "
    "a rerun uses the folder's].",
)
@click.option(
    "--retry-unknown",
    is_flag=True,
    help="Re-solve only the unknown deals of an existing folder with the bigger budget given "
    "(--nodes / --memory / --time; the others keep the folder's).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Run on a running Dask scheduler, e.g. tcp://HOST:8786 (needs scorpion-solver[dask]).",
)
@click.option(
    "--dask-local",
    type=click.IntRange(1),
    default=None,
    metavar="N",
    help="Run on a local Dask cluster of N worker processes (needs scorpion-solver[dask]).",
)
@click.option(
    "--no-safe-leads",
    is_flag=True,
    help="Switch off the safe-leads cut (more nodes, same verdicts): the setting of folders made before it existed.",
)
@click.option(
    "--no-successor-above",
    is_flag=True,
    help="Switch off the deadlock test's successor-above rule (more nodes, same verdicts): "
    "the setting of folders made before it existed.",
)
@click.option(
    "--progress/--no-progress", default=None, help="Show the progress bar [default: when stderr is a terminal]."
)
@click.option(
    "--shortest",
    is_flag=True,
    help="Store a win of minimum length, proved minimal (column shortest: proved / shortened).",
)
@user_errors
def batch_command(
    deal_range: str,
    mode: str | None,
    rules_name: str | None,
    workers: int | None,
    nodes: int | None,
    memory_mb: int | None,
    seconds: float | None,
    out: Path | None,
    chunk: int | None,
    retry_unknown: bool,
    scheduler: str | None,
    dask_local: int | None,
    no_safe_leads: bool,
    no_successor_above: bool,
    progress: bool | None,
    shortest: bool,
) -> None:
    """Solve every deal of RANGE in each mode into a resumable folder of Parquet files.

    RANGE is like 1-100000 (inclusive) or 7, or a file of deal numbers, one a
    line ('#' comments allowed; - for standard input). A batch holds deal
    numbers below 2^63 (solve bigger ones with 'scorpion solve N'). SIGTERM
    and Ctrl-C stop it cleanly: the run is recorded as interrupted. Rerunning the same command finishes an interrupted run; nothing
    finished is lost or solved twice. Read the folder with pandas, polars or
    duckdb, or summarise it with `scorpion stats DIR`.
    """
    chosen = resolve_rules(mode, rules_name, several=True)
    mode_names = B.parse_modes(",".join(r.name for r in chosen) if chosen else ",".join(MODES))
    deals = B.parse_range(deal_range)
    if scheduler and dask_local:
        raise B.BatchError("give --scheduler or --dask-local, not both")
    if (scheduler or dask_local) and workers is not None:
        raise B.BatchError("--workers is for local processes; a Dask cluster has its own workers")
    command = shlex.join(["scorpion", *sys.argv[1:]])
    if retry_unknown:
        report = _retry(
            deals, mode_names, nodes, memory_mb, seconds, out, chunk, workers, scheduler, dask_local, progress, command
        )
    else:
        limits = Limits(
            nodes=nodes or DEFAULT_NODES,
            memory_mb=memory_mb or DEFAULT_MEMORY_MB,
            seconds=seconds,
            safe_leads=not no_safe_leads,
            successor_above=not no_successor_above,
            shortest=shortest,
        )
        settings = B.BatchSettings(deals, mode_names, limits, chunk)
        folder = out or B.default_out(deals, mode_names, limits)
        report = _run(B.run_batch, settings, folder, workers, scheduler, dask_local, progress, command)
    _print_report(report, retry_unknown)
    if report.failures:
        sys.exit(1)


def _retry(deals, mode_names, nodes, memory_mb, seconds, out, chunk, workers, scheduler, dask_local, progress, command):
    if out is None:
        found = B.find_folders(deals, mode_names)
        if len(found) != 1:
            listed = ": " + ", ".join(str(p) for p in found) if found else ""
            raise B.BatchError(
                f"--retry-unknown needs --out DIR, the folder to retry ({len(found)} folders "
                f"under results/ hold deals {deals.spec} in {','.join(mode_names)}{listed})"
            )
        out = found[0]
        click.echo(f"retrying the unknown deals of {out}", err=True)
    meta = B.read_metadata(out) if out.is_dir() else None
    if meta is None:
        raise B.BatchError(
            f"{out} is not a results folder (no {B.METADATA}); --retry-unknown needs the folder of an earlier run"
        )
    old = meta["limits"]
    if nodes is None and memory_mb is None and seconds is None:
        raise B.BatchError(
            f"--retry-unknown needs a bigger budget: give --nodes (the folder used {old['nodes']}), --memory or --time"
        )
    limits = Limits(
        nodes=nodes or old["nodes"],
        memory_mb=memory_mb or old["memory_mb"],
        seconds=seconds if seconds is not None else old.get("seconds"),
        prune=old.get("prune", True),
        **{name: B.recorded_reduction(old, name) for name in B.REDUCTIONS},
        shortest=old.get("shortest", False),
    )
    settings = B.BatchSettings(deals, mode_names, limits, chunk)
    return _run(B.retry_unknown, settings, out, workers, scheduler, dask_local, progress, command)


def _run(operation, settings, folder, workers, scheduler, dask_local, progress, command):
    def backend():
        return B.make_backend(workers=workers, scheduler=scheduler, dask_local=dask_local)

    from concurrent.futures.process import BrokenProcessPool

    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        return operation(settings, folder, backend, progress=progress, command=command)
    except KeyboardInterrupt as exc:
        name = getattr(exc, "signal_name", "SIGINT")
        click.echo(
            f"\ninterrupted: the finished chunks are kept in {folder}; rerun the same command to finish the rest"
            + ("" if name == "SIGINT" else f" (stopped by {name})"),
            err=True,
        )
        sys.exit(130 if name == "SIGINT" else 128 + signal.SIGTERM)
    except OSError as exc:
        if exc.filename and not _inside(Path(exc.filename), folder):
            # e.g. numba's compile cache beside the package: the folder itself was not the trouble
            fail(
                f"cannot write {exc.filename}: {exc.strerror or exc} (outside the results folder {folder}, "
                "whose finished chunks are kept): fix this and rerun the same command"
            )
        what = f"{exc.filename}: " if exc.filename else ""
        fail(
            f"cannot write the results folder {folder}: {what}{exc.strerror or exc}; the chunks finished "
            "before are kept: fix this and rerun the same command"
        )
    except BrokenProcessPool as exc:
        click.echo(
            f"error: a worker process died ({exc}); the finished chunks are kept in {folder}; "
            "rerun the same command to finish the rest",
            err=True,
        )
        sys.exit(1)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def _terminate(signum, frame) -> None:
    """SIGTERM (``kill``, ``timeout``) ends a batch as Ctrl-C does: cleanly, recorded as interrupted."""
    raise B.Interrupted("SIGTERM")


def _print_report(report: B.BatchReport, retry: bool) -> None:
    what = "chunk files rewritten" if retry else "chunks written"
    click.echo(
        f"{report.out}: {report.deals} deals; {report.written} {what} now, {report.already} before, "
        f"{report.chunks} in the plan; {report.solved} solves in {report.seconds:.1f} s"
    )
    if report.tally is not None:
        for mode, c in report.tally.counts.items():
            click.echo(f"  {mode}: {c['won']} won, {c['lost']} lost, {c['unknown']} unknown")
    if report.failures:
        click.echo(f"error: {len(report.failures)} chunks failed (rerun to retry them):", err=True)
        for message in report.failures:
            click.echo(f"  {message}", err=True)
    elif not retry and not report.complete:
        click.echo("the run is not finished: rerun the same command", err=True)


@click.command("stats")
@click.argument("folder", metavar="DIR", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--top", type=click.IntRange(0), default=5, show_default=True, help="How many hardest deals to list.")
@click.option(
    "--against",
    "against",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Another results folder whose modes DIR's modes are paired with, deal by deal (repeatable).",
)
@click.option(
    "--pair",
    "pairs",
    multiple=True,
    metavar="A:B",
    help="Compare preset A with preset B over the deals both hold, e.g. clear:wasp (repeatable) "
    "[default with --against: every pair the rules order, with a mode of DIR].",
)
@user_errors
def stats_command(folder: Path, as_json: bool, top: int, against: tuple[Path, ...], pairs: tuple[str, ...]) -> None:
    """Win rates (95% Wilson interval, unknown counted both ways), costs, hardest deals and
    the clear/classic paired table with McNemar's test, for a results folder DIR.

    With --against / --pair: the paired table of any two presets over the deals
    both hold, from DIR and the other folders, and the check of what the rules
    imply (a deal won in classic is won in clear and goodsol; one won in clear
    is won in wasp and scorpion2).

    Exits 1, loudly, if a deal is won in classic but lost in clear, or won in a
    weaker preset but lost in a stronger one (a rules bug).
    """
    from ..batch import stats as S

    if not folder.is_dir():
        raise B.BatchError(f"{folder} is not a folder")
    meta = B.read_metadata(folder)
    from ..batch import play_runs

    if play_runs.is_play_folder(meta):
        if against or pairs:
            raise B.BatchError(
                f"{folder} is a play folder: --against and --pair pair the exact verdicts of results folders; "
                "`scorpion stats` on a play folder already sets the realistic rate beside the thoughtful one"
            )
        _play_stats(folder, meta, as_json)
        return
    table = B.read_folder(folder, columns=["deal", "mode", "status", "nodes", "seconds", "budget_nodes"])
    if table.num_rows == 0:
        raise B.BatchError(f"{folder} holds no finished chunk files (chunk-*.parquet)")
    columns = {name: table.column(name).to_numpy() for name in table.column_names}
    summary = S.summarize(columns, meta, top=top)
    comparisons, sources = _comparisons(folder, columns, against, pairs) if against or pairs else (None, None)
    if as_json:
        summary = {"folder": str(folder), "settings": _settings(meta), **summary}
        if comparisons is not None:
            summary["comparisons"] = [dict(c, sources=[sources[c["first"]], sources[c["second"]]]) for c in comparisons]
        echo_json(summary, indent=2)
    else:
        click.echo(S.format_summary(summary, _title(folder, meta)), nl=False)
        for c in comparisons or ():
            click.echo("")
            click.echo(S.format_comparison(c, sources), nl=False)
    if summary["rules_bugs"]:
        click.echo(S.rules_bug_text(summary["rules_bugs"]), err=True)
    banner = S.implication_bug_text(comparisons or [])
    if banner:
        click.echo(banner, err=True)
    if summary["rules_bugs"] or banner:
        sys.exit(1)


def _comparisons(folder: Path, columns: dict, against: tuple[Path, ...], pairs: tuple[str, ...]):
    """The paired comparisons of ``--against`` / ``--pair``, and the folder each mode was read from.

    A mode held by several folders is read from the first of DIR, then the
    ``--against`` folders in their order.
    """
    from ..batch import stats as S

    verdicts = {m: (v, folder) for m, v in S.mode_verdicts(columns).items()}
    own = set(verdicts)
    for other in against:
        if not other.is_dir():
            raise B.BatchError(f"--against {other}: not a folder")
        table = B.read_folder(other, columns=["deal", "mode", "status"])
        if table.num_rows == 0:
            raise B.BatchError(f"--against {other}: holds no finished chunk files (chunk-*.parquet)")
        found = S.mode_verdicts({name: table.column(name).to_numpy() for name in table.column_names})
        for m, v in found.items():
            verdicts.setdefault(m, (v, other))
    if pairs:
        chosen = [_parse_pair(text, verdicts) for text in pairs]
    else:
        chosen = S.implied_pairs(verdicts, involving=own)
        if not chosen:
            raise B.BatchError(
                f"no pair of presets the rules order among {', '.join(sorted(verdicts))} "
                f"with a mode of {folder}; give --pair A:B"
            )
    comparisons = [S.compare_modes(a, b, verdicts[a][0], verdicts[b][0]) for a, b in chosen]
    return comparisons, {m: str(v[1]) for m, v in verdicts.items()}


def _parse_pair(text: str, verdicts: dict) -> tuple[str, str]:
    from ..game.rules import PRESETS

    parts = [p.strip().lower() for p in text.split(":")]
    if len(parts) != 2 or not all(parts):
        raise B.BatchError(f"--pair {text!r}: give two presets as A:B, e.g. clear:wasp")
    for m in parts:
        if m not in PRESETS:
            raise B.BatchError(f"--pair {text!r}: unknown preset {m!r} (known: {', '.join(PRESETS)})")
        if m not in verdicts:
            raise B.BatchError(
                f"--pair {text!r}: no folder given holds {m} (they hold {', '.join(sorted(verdicts))}; add --against DIR)"
            )
    if parts[0] == parts[1]:
        raise B.BatchError(f"--pair {text!r}: the two presets must differ")
    return parts[0], parts[1]


def _play_stats(folder: Path, meta: dict, as_json: bool) -> None:
    """``scorpion stats`` on a play folder: realistic vs thoughtful rates (``batch.play_stats``)."""
    from ..batch import play_runs, play_stats

    table = play_runs.read_play_folder(folder)
    if table.num_rows == 0:
        raise B.BatchError(f"{folder} holds no finished chunk files (chunk-*.parquet)")
    summary = play_stats.summarize_play(
        {n: table.column(n).to_numpy(zero_copy_only=False) for n in table.column_names}, meta
    )
    if as_json:
        echo_json({"folder": str(folder), **summary}, indent=2)
    else:
        title = f"{folder}: deals {meta['deals']['spec']}, modes {', '.join(meta['modes'])}; scorpion-solver {meta['package_version']}"
        click.echo(play_stats.format_play_summary(summary, title), nl=False)
    if any(e["contradictions"] for e in summary["modes"].values()):
        sys.exit(1)


def _settings(meta: dict | None) -> dict | None:
    if meta is None:
        return None
    return {k: meta.get(k) for k in ("package_version", "deals", "modes", "limits", "chunk")}


def _title(folder: Path, meta: dict | None) -> str:
    if meta is None:
        return f"{folder} (no {B.METADATA}: settings unknown)"
    return (
        f"{folder}: deals {meta['deals']['spec']}, modes {', '.join(meta['modes'])}; "
        f"{B.limits_text(meta['limits'])}; scorpion-solver {meta['package_version']}"
    )
