"""The ``scorpion batch`` and ``scorpion stats`` commands (registered by ``cli``).

A thin layer over :mod:`batch` and :mod:`stats`. User mistakes (bad RANGE,
missing folder, mixed rules or limits) end as one ``error:`` line and exit
status 2 through ``common.user_errors``; a rules bug found by ``stats`` or a
failed chunk ends with exit status 1; Ctrl-C with 130.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..batch import (
    MAX_BATCH_DEALS,
    METADATA,
    BatchError,
    BatchReport,
    BatchSettings,
    Execution,
    default_out,
    limits_text,
    parse_modes,
    parse_range,
    read_folder,
    read_metadata,
    retry_unknown,
    run_batch,
)
from ..batch.folder import (
    FewerReductions,
    folder_kind,
    folder_to_retry,
    kind_text,
    require_kind,
    retry_settings,
)
from ..game.rules import MODES, Rules
from ..solver.probes import SCOUT_NODES
from ..solver.reductions import Reductions
from ..solver.result import DEFAULT_MEMORY_MB, DEFAULT_NODES, Limits
from .common import (
    after_loading,
    backend_maker,
    budget_options,
    counted,
    echo_json,
    interruptible,
    recorded_command,
    reduction_switches,
    reductions_options,
    refuse_given,
    rules_options,
    run_options,
    user_errors,
)
from .studies import study_stats


@click.command("batch")
@click.argument("deal_range", metavar="RANGE")
@rules_options(several=True, default_text="clear,classic")
@budget_options(
    nodes=None,
    memory=None,
    nodes_help=f'Node budget per solve [default: {DEFAULT_NODES}]; a ten-column game is first searched with {SCOUT_NODES:,} nodes, then probed from random starts, then searched with the budget in each of two move orders (docs/design.md, "A short first try").',
    memory_help=f"Transposition table budget per solve, MB [default: {DEFAULT_MEMORY_MB}].",
    time_help="Wall-clock limit per solve, seconds [default: none; makes results machine-dependent].",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Results folder [default: results/<start>-<end>-<modes>-n<nodes>].",
)
@click.option(
    "--chunk",
    type=click.IntRange(1, MAX_BATCH_DEALS),
    default=None,
    help="Deals per task and per Parquet file [default: about 100 chunks, 10-1000 deals each; "
    "a rerun uses the folder's].",
)
@click.option(
    "--retry-unknown",
    "retry",
    is_flag=True,
    help="Re-solve only the unknown deals of an existing folder with the bigger budget given "
    "(--nodes / --memory / --time; the others keep the folder's).",
)
@run_options
@reductions_options(("safe_leads", "successor_above"), note=": the setting of folders made before it existed.")
@click.option(
    "--shortest",
    is_flag=True,
    help="Store a win of minimum length, proved minimal (column shortest: proved / shortened).",
)
@user_errors
def batch_command(
    deal_range: str,
    rules: tuple[Rules, ...] | None,
    workers: int | None,
    nodes: int | None,
    memory_mb: int | None,
    seconds: float | None,
    out: Path | None,
    chunk: int | None,
    retry: bool,
    scheduler: str | None,
    dask_local: int | None,
    reductions: Reductions,
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
    mode_names = parse_modes(",".join(r.name for r in (rules or ())) or ",".join(MODES))
    deals = parse_range(deal_range)
    backend = backend_maker(workers, scheduler, dask_local)
    if retry:
        given = out
        out, meta = folder_to_retry(deals, mode_names, out)
        if given is None:
            click.echo(f"retrying the unknown deals of {out}", err=True)
        settings = retry_settings(deals, mode_names, chunk, meta["limits"], nodes, memory_mb, seconds)
        operation = retry_unknown
    else:
        limits = Limits(nodes=nodes or DEFAULT_NODES, memory_mb=memory_mb or DEFAULT_MEMORY_MB, seconds=seconds)
        settings = BatchSettings(deals, mode_names, limits, chunk, reductions, shortest)
        operation = run_batch
    folder = out or default_out(deals, mode_names, settings.limits, settings.reductions, settings.shortest)
    report = _run(operation, settings, folder, backend, progress)
    _print_report(report, retry)
    if report.failures:
        sys.exit(1)


def _run(operation, settings: BatchSettings, folder: Path, backend, progress: bool | None) -> BatchReport:
    """Run or retry a batch (a folder that cannot be written, or a worker that died, is one line: ``interruptible``)."""
    command = recorded_command()
    try:
        return interruptible(lambda: operation(settings, folder, Execution(backend, progress, command)), folder)
    except FewerReductions as exc:  # the folder names the reductions; the switches are the command line's
        raise BatchError(f"{exc}; to resume it, add {reduction_switches(exc.missing)}") from None


def _print_report(report: BatchReport, retry: bool) -> None:
    what = "chunk files rewritten" if retry else "chunks written"
    click.echo(
        f"{report.out}: {counted(report.deals, 'deal')}; {report.written:,} {what} now, {report.already:,} before, "
        f"{report.chunks:,} in the plan; {counted(report.solved, 'solve')} in {report.seconds - report.load_seconds:.1f} s"
        f"{after_loading(report)}"
    )
    if report.tally is not None:
        for mode, c in report.tally.counts.items():
            click.echo(f"  {mode}: {c['won']:,} won, {c['lost']:,} lost, {c['unknown']:,} unknown")
    if report.failures:
        click.echo(f"error: {len(report.failures)} chunks failed (rerun to retry them):", err=True)
        for message in report.failures:
            click.echo(f"  {message}", err=True)
    elif not retry and not report.complete:
        click.echo("the run is not finished: rerun the same command", err=True)


@click.command("stats")
@click.argument("folders", metavar="DIR [DIR ...]", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--top", type=click.IntRange(0), default=5, show_default=True, help="How many hardest deals to list.")
@click.option(
    "--against",
    "against",
    multiple=True,
    type=click.Path(path_type=Path),
    help="Another results folder whose modes DIR's modes are paired with, deal by deal (repeatable); for a "
    "play folder DIR, another play folder: the two players paired by deal on the winnable deals both played "
    "(exact sign-flip permutation test); play folders that differ only in the seed are one player's seeds; "
    "for a nopeek folder DIR, play folders: each player's share of the optimum V on the deals whose V is exact.",
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
def stats_command(
    folders: tuple[Path, ...], as_json: bool, top: int, against: tuple[Path, ...], pairs: tuple[str, ...]
) -> None:
    """Win rates (95% Wilson interval, unknown counted both ways), costs, hardest deals and
    the clear/classic paired table with McNemar's test, for a results folder DIR.

    Several play folders DIR ... that differ only in the seed are one player's
    seeds (the evaluation protocol, docs/play.md): each deal's outcome is
    averaged over the seeds, and --against play folders (grouped the same
    way) are paired with them deal by deal.

    A nopeek folder DIR --against play folders sets each player's games
    beside the exact no-peek value V of the same deals: its share of the
    optimum and its regret a deal, from the winnable arrangements it lost
    (docs/play.md, "Each player beside the optimum").

    With --against / --pair: the paired table of any two presets over the deals
    both hold, from DIR and the other folders, and the check of what the rules
    imply (a deal won in classic is won in clear and goodsol; one won in clear
    is won in wasp and scorpion2).

    Exits 1, loudly, if a deal is won in classic but lost in clear, or won in a
    weaker preset but lost in a stronger one (a rules bug).
    """
    from ..batch.comparisons import folder_comparisons
    from ..batch.stats import format_comparison, format_summary, implication_bug_text, rules_bug_text, summarize

    folder = folders[0]
    if not folder.is_dir():
        raise BatchError(f"{folder} is not a folder")
    meta = read_metadata(folder)
    kind = folder_kind(meta)
    if kind != "results":
        refuse_given(["top"], "stats on a results folder (made by scorpion batch): other folders list no hardest deals")
    if kind in ("bound", "losses", "nopeek"):
        if len(folders) > 1:
            other = folders[1]
            other_kind = folder_kind(read_metadata(other)) if other.is_dir() else None
            what = kind_text(other_kind) if other_kind else "not a folder"
            raise BatchError(
                f"{folder} is {kind_text(kind)} and {other} is {what}: stats reads one {kind} folder at a time "
                "(several DIRs are the seeds of one player's play folders)"
            )
        if kind == "nopeek" and pairs:
            raise BatchError(
                f"{folder} is {kind_text(kind)}: --pair pairs the presets of results folders; "
                "--against PLAYDIR sets a player's games beside its exact values"
            )
        if (against or pairs) and kind != "nopeek":
            raise BatchError(
                f"{folder} is {kind_text(kind)}: --against and --pair pair results folders (made by scorpion batch) "
                "or play folders (made by scorpion play)"
            )
        study_stats(folder, kind, meta, as_json, against)
        return
    if kind == "play":
        if pairs:
            raise BatchError(
                f"{folder} is a play folder: --pair pairs the presets of results folders; "
                "--against PLAYDIR pairs two players deal by deal"
            )
        _play_stats(folders, meta, as_json, against)
        return
    if len(folders) > 1:
        raise BatchError(
            f"{folder} is a results folder: give one (several DIRs are the seeds of one player's play folders)"
        )
    table = read_folder(folder, columns=["deal", "mode", "status", "nodes", "seconds", "budget_nodes"])
    if table.num_rows == 0:
        raise BatchError(f"{folder} holds no finished chunk files (chunk-*.parquet)")
    columns = {name: table.column(name).to_numpy() for name in table.column_names}
    summary = summarize(columns, meta, top=top)
    comparisons, sources = folder_comparisons(folder, columns, against, pairs) if against or pairs else (None, None)
    if as_json:
        summary = {"folder": str(folder), "settings": _settings(meta), **summary}
        if comparisons is not None:
            summary["comparisons"] = [dict(c, sources=[sources[c["first"]], sources[c["second"]]]) for c in comparisons]
        echo_json(summary, indent=2)
    else:
        click.echo(format_summary(summary, _title(folder, meta)), nl=False)
        for c in comparisons or ():
            click.echo("")
            click.echo(format_comparison(c, sources), nl=False)
    if summary["rules_bugs"]:
        click.echo(rules_bug_text(summary["rules_bugs"]), err=True)
    banner = implication_bug_text(comparisons or [])
    if banner:
        click.echo(banner, err=True)
    if summary["rules_bugs"] or banner:
        sys.exit(1)


def _play_stats(folders: tuple[Path, ...], meta: dict, as_json: bool, against: tuple[Path, ...] = ()) -> None:
    """``scorpion stats`` on play folders: one folder's rates (``batch.play_stats``), or the protocol's
    seed-averaged shares and paired tests (``batch.protocol``) for several seeds or with ``--against``."""
    from ..batch import play_stats, protocol

    folders, against = _seeds_given_to_against(folders, against)
    folder = folders[0]
    for other, reader in [(f, f"stats with the play folder {folder}") for f in folders[1:]] + [
        (f, f"--against with the play folder {folder}") for f in against
    ]:
        require_kind(other, "play", reader)
    group = protocol.seed_group(list(folders))
    others = protocol.group_against(list(against))
    summaries = [play_stats.summarize_play(_play_columns(f), read_metadata(f)) for f in folders]
    several = len(folders) > 1
    grouped = protocol.summarize_group(group) if several or against else None
    paired = [{"against": [str(f) for f in g.folders], "modes": protocol.compare_groups(group, g)} for g in others]
    if as_json:
        out = {} if several else {"folder": str(folder), **summaries[0]}
        out.update({"protocol": grouped} if grouped is not None else {})
        out.update({"paired": paired} if against else {})
        echo_json(out, indent=2)
    else:
        parts = []
        if not several:
            title = (
                f"{folder}: deals {meta['deals']['spec']}, modes {', '.join(meta['modes'])}; "
                f"scorpion-solver {meta['package_version']}"
            )
            parts.append(play_stats.format_play_summary(summaries[0], title))
        if grouped is not None:
            parts.append(protocol.format_group(grouped, f"{group.label}: the evaluation protocol (docs/play.md)"))
        parts += [protocol.format_comparison(p["modes"], group.label, g.label) for g, p in zip(others, paired)]
        click.echo("\n".join(parts), nl=False)
    if any(e["contradictions"] for s in summaries for e in s["modes"].values()):
        sys.exit(1)


def _seeds_given_to_against(folders: tuple[Path, ...], against: tuple[Path, ...]) -> tuple[tuple, tuple]:
    """The DIRs that are seeds of an ``--against`` player, moved to ``--against``.

    ``stats A-s* --against B-s*`` reaches us as ``--against B-s0`` and the DIRs
    ``A-s0 A-s1 A-s2 B-s1 B-s2``: a shell gives an option only the first word
    of a glob. A DIR that is not a seed of the first DIR's player but is one of
    an ``--against`` player's is that player's.
    """
    from ..batch import protocol

    if not against:
        return folders, against

    def key(folder: Path):
        meta = read_metadata(folder) if folder.is_dir() else None
        return protocol.player_key(meta) if folder_kind(meta) == "play" else None

    against_keys = {key(f) for f in against} - {None}
    first = key(folders[0])
    moved = [f for f in folders[1:] if key(f) in against_keys and key(f) != first]
    if not moved:
        return folders, against
    return tuple(f for f in folders if f not in moved), against + tuple(moved)


def _play_columns(folder: Path) -> dict:
    from ..batch import play_runs

    table = play_runs.read_play_folder(folder)
    if table.num_rows == 0:
        raise BatchError(f"{folder} holds no finished chunk files (chunk-*.parquet)")
    return {n: table.column(n).to_numpy(zero_copy_only=False) for n in table.column_names}


def _settings(meta: dict | None) -> dict | None:
    if meta is None:
        return None
    return {k: meta.get(k) for k in ("package_version", "deals", "modes", "limits", "chunk")}


def _title(folder: Path, meta: dict | None) -> str:
    if meta is None:
        return f"{folder} (no {METADATA}: settings unknown)"
    return (
        f"{folder}: deals {meta['deals']['spec']}, modes {', '.join(meta['modes'])}; "
        f"{limits_text(meta['limits'])}; scorpion-solver {meta['package_version']}"
    )
