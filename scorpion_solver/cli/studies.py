"""The study commands (registered by ``cli``): ``scorpion bound``, ``scorpion losses`` and ``scorpion nopeek``.

``bound`` computes UB_1, the first information relaxation, at the start of a
range of deals and prints, per mode, its mean with a 95% interval beside the
thoughtful rate of the same deals (the trivial bound). ``losses`` measures
the loss of every decision of the games in a play folder and prints it by
number of unseen cards and by kind of move. ``nopeek`` computes the exact
no-peek value of each deal of a range from its opening view (a game with few
face-down cards: Three Blind Mice). Each writes a resumable study folder
(``batch.studies``): the same command finishes an interrupted run.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click
import numpy as np

from ..batch import Execution, make_backend, studies
from ..batch.folder import folder_kind, read_metadata, require_kind, wrong_kind
from ..batch.plan import DealSet, parse_range
from ..batch.play_runs import EXACT_NAME, find_results, thoughtful_verdicts
from ..game.rules import Rules
from ..play.bounds import DEFAULT_BOUND_NODES, DEFAULT_BOUND_SAMPLES
from ..play.losses import DEFAULT_EXACT_UNSEEN, DEFAULT_LOSS_NODES, DEFAULT_LOSS_SAMPLES, KINDS
from .common import (
    NODES,
    UserError,
    after_loading,
    interruptible,
    recorded_command,
    rules_options,
    shown_option,
    user_errors,
)


def _study_options(unit: str, chunk: int, folder: str):
    """The options every study command shares: where it writes, in what chunks, on how many processes."""

    def decorate(func):
        for option in reversed(
            [
                click.option(
                    "--out", type=click.Path(file_okay=False, path_type=Path), default=None, help=f"{folder} folder."
                ),
                shown_option("--chunk", click.IntRange(1), chunk, f"{unit} per Parquet file."),
                click.option("--workers", type=click.IntRange(1), default=None, help="Processes [default: all cores]."),
                click.option(
                    "--progress/--no-progress", default=None, help="Show the progress bar [default: on a terminal]."
                ),
                click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text."),
            ]
        ):
            func = option(func)
        return func

    return decorate


def _run(make_study, default_out: Path, out: Path | None, chunk: int, workers: int | None, progress: bool | None):
    """Run a study into ``out`` (or ``default_out``), stopped cleanly by Ctrl-C or SIGTERM: (the folder, its report).

    A chunk that failed is one error line each and exit status 1, after the
    summary of what is finished (as ``batch`` and ``play`` do).
    """
    out = out or default_out
    study = make_study(chunk)
    how = Execution(lambda: make_backend(workers), progress, recorded_command())
    report = interruptible(lambda: studies.run_study(study, out, how), out, study.kind)
    if report.failures:
        click.echo(
            f"{len(report.failures)} chunk(s) failed (the others are kept): rerun the same command to retry them",
            err=True,
        )
        sys.exit(1)
    return out, report


@click.command("bound")
@click.argument("deals", metavar="RANGE")
@rules_options(several=True)
@shown_option(
    "--samples",
    click.IntRange(2),
    DEFAULT_BOUND_SAMPLES,
    "Layouts of the hidden cards sampled per deal (half choose the commitment of the split estimate).",
)
@shown_option(
    "--nodes", NODES, DEFAULT_BOUND_NODES, "Node budget per solve (undecided counts as winnable in the upper estimate)."
)
@shown_option("--seed", click.IntRange(0), 0, "Seed of the sampled layouts.")
@click.option(
    "--results",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=f"The results folder holding the exact verdicts ({EXACT_NAME}), for the thoughtful rate beside the bound.",
)
@_study_options("Deals", 20, "Bound")
@user_errors
def bound_command(
    deals: str,
    rules: tuple[Rules, ...] | None,
    samples: int,
    nodes: int,
    seed: int,
    results: Path | None,
    as_json: bool,
    **run,
) -> None:
    """UB_1 at the start of every deal of RANGE: an upper bound on any player who cannot peek.

    UB_1 lets the player choose blind only until the first card turns up and
    see everything after it (scorpion_solver/play/bounds.py has the
    argument). Per deal it samples layouts of the hidden cards and judges
    every first commitment (a path of moves that reveal nothing, then the
    revealing move) on all of them. Rerunning the same command finishes an
    interrupted run.
    """
    deal_set = parse_range(deals)
    place = find_results(results)  # before any work: a --results that holds no verdicts is refused up front
    mode_list = tuple(r.name for r in rules) if rules else ("clear",)
    settings = studies.BoundSettings(deal_set, mode_list, samples, nodes, seed)
    default_out = Path(f"bound-{deal_set.label}-{'+'.join(mode_list)}-k{samples}-s{seed}")
    out, report = _run(functools.partial(studies.bound_study, settings), default_out, **run)
    lines = _bound_lines(out, place)
    if as_json:
        modes = {x.mode: x.as_dict() for x in lines}
        click.echo(json.dumps({"folder": str(out), "written": report.written, "modes": modes}, indent=2))
        return
    click.echo(f"{out}: {report.written:,} chunks written now, {report.already:,} before{after_loading(report)}")
    _echo_bound_table(lines)


def _bound_lines(out: Path, place: Path | None) -> list[studies.BoundLine]:
    """A bound folder's summary per mode, beside the thoughtful rate of its deals (from the exact verdicts in
    ``place``, a folder ``find_results`` found)."""
    rows = studies.read_study_folder(out)
    numbers = np.unique(rows.column("deal").to_numpy())
    modes = tuple(sorted(set(rows.column("mode").to_pylist())))
    deals = DealSet(str(out), numbers, out.name)  # the deals the folder holds
    verdicts = thoughtful_verdicts(place / EXACT_NAME if place else None, deals, modes)
    return studies.bound_summary(out, verdicts)


def _echo_bound_table(lines: list[studies.BoundLine]) -> None:
    click.echo("| mode | deals | UB_1 (upper estimate, 95% CI) | split estimate | thoughtful rate |")
    click.echo("|---|---|---|---|---|")
    for x in lines:
        thought = "unknown" if x.thoughtful is None else f"{x.thoughtful:.2%}"
        click.echo(
            f"| {x.mode} | {x.deals:,} | {x.upper:.2%} ({x.upper_low:.2%} - {x.upper_high:.2%}) | {x.split:.2%} "
            f"| {thought} |"
        )


def _echo_loss_tables(modes: dict) -> None:
    for name in ("unseen", "kind"):
        click.echo(f"\nby {name}:")
        click.echo(f"| mode | {name} | decisions | sampled loss, mean | sampled loss per game | exact loss, mean (n) |")
        click.echo("|---|---|---|---|---|---|")
        for mode, groups in modes.items():
            for r in groups[f"by_{name}"]:
                exact = "-" if not r["exact_decisions"] else f"{r['exact_loss']:.4f} ({r['exact_decisions']:,})"
                click.echo(
                    f"| {mode} | {r[name]} | {r['decisions']:,} | {r['loss']:.4f} | {r['loss_per_game']:.4f} | {exact} |"
                )


def study_stats(folder: Path, kind: str, meta: dict, as_json: bool, against: tuple[Path, ...] = ()) -> None:
    """``scorpion stats`` on a bound, losses or nopeek folder: the summary its own command prints, under a title;
    for a nopeek folder, with the players of the play folders ``against`` beside it (``studies.optimum_shares``)."""
    if kind == "nopeek":
        modes = studies.nopeek_summary(folder)
        players = _optimum_shares(folder, against) if against else None
        if as_json:
            out = {"folder": str(folder), "modes": modes}
            click.echo(json.dumps(out if players is None else {**out, "players": players}, indent=2))
            return
        budget = meta.get("settings", {})
        click.echo(
            f"{folder}: exact no-peek value of deals {meta['deals']['spec']}; a deal's budget "
            f"{budget.get('nodes', 0):,} nodes, {budget.get('views', 0):,} views"
            + (f", {budget['seconds']:g} s" if budget.get("seconds") else "")
        )
        _echo_nopeek_table(modes)
        if players is not None:
            _echo_optimum_shares(players)
        return
    if kind == "bound":
        lines = _bound_lines(folder, find_results())
        modes = {x.mode: x.as_dict() for x in lines}
    else:
        modes = studies.loss_summary(folder)
    if as_json:
        click.echo(json.dumps({"folder": str(folder), "modes": modes}, indent=2))
        return
    settings = ", ".join(f"{k} {_setting_text(v)}" for k, v in meta.get("settings", {}).items())
    if kind == "bound":
        click.echo(f"{folder}: UB_1 of deals {meta['deals']['spec']}, modes {', '.join(meta['modes'])}; {settings}")
        _echo_bound_table(lines)
    else:
        play = meta.get("play") or {}
        click.echo(
            f"{folder}: decision losses of the {meta['games']:,} games of {meta['source']} "
            f"(policy {play.get('policy', 'unknown')}); {settings}"
        )
        _echo_loss_tables(modes)


@click.command("losses")
@click.argument("play_folder", metavar="PLAYDIR", type=click.Path(file_okay=False, exists=True, path_type=Path))
@shown_option("--samples", click.IntRange(1), DEFAULT_LOSS_SAMPLES, "Layouts sampled from each decision's view.")
@shown_option("--nodes", NODES, DEFAULT_LOSS_NODES, "Node budget per solve (undecided layouts are counted apart).")
@shown_option(
    "--exact-unseen",
    click.IntRange(0, 6),
    DEFAULT_EXACT_UNSEEN,
    "The exact no-peek loss where the view has 2 to N unseen cards.",
)
@click.option(
    "--kind",
    "kinds",
    type=click.Choice(KINDS),
    multiple=True,
    help="Measure only the decisions of this kind (repeatable; the folder's name ends with them) [default: all].",
)
@click.option(
    "--fatal",
    is_flag=True,
    help="Measure only the decision that lost each game lost on a winnable deal (the first move after which its "
    "own cards could not be won), its exact loss from 2 to 9 unseen cards (past --exact-unseen, the whole-deal "
    "computation of scorpion nopeek; the folder's name ends with -fatal).",
)
@_study_options("Games", 10, "Losses")
@user_errors
def losses_command(
    play_folder: Path,
    samples: int,
    nodes: int,
    exact_unseen: int,
    kinds: tuple[str, ...],
    fatal: bool,
    as_json: bool,
    **run,
) -> None:
    """The loss of every decision of the games in PLAYDIR: where a player without peeking loses its wins.

    A decision's loss is the share of layouts, sampled from the view the
    player had, that were winnable before the move and are not after it (on
    the same layouts); where few cards are unseen, also the exact no-peek
    loss (V before minus the move's exact value). scorpion_solver/play/losses.py
    has the definitions.
    """
    kind = folder_kind(read_metadata(play_folder))
    if kind != "play":
        raise wrong_kind(play_folder, kind, "play", "scorpion losses")
    kinds = tuple(k for k in KINDS if k in kinds)
    suffix = "".join("-" + k for k in kinds) + ("-fatal" if fatal else "")
    default_out = play_folder.parent / f"losses-{play_folder.name}-k{samples}{suffix}"
    study = functools.partial(studies.loss_study, play_folder, samples, nodes, exact_unseen, kinds=kinds, fatal=fatal)
    out, report = _run(study, default_out, **run)
    modes = studies.loss_summary(out)
    if as_json:
        click.echo(json.dumps({"folder": str(out), "written": report.written, "modes": modes}, indent=2))
        return
    click.echo(f"{out}: {report.written:,} chunks written now, {report.already:,} before{after_loading(report)}")
    _echo_loss_tables(modes)


NOPEEK_MOST_UNSEEN = 9  # Three Blind Mice's deal: every arrangement of its unseen cards is solved (9! of them)


@click.command("nopeek")
@click.argument("deals", metavar="RANGE")
@rules_options(several=True, default_text="mice")
@shown_option(
    "--nodes",
    NODES,
    studies.DEFAULT_NOPEEK_NODES,
    "Node budget of one deal, over all its solves (past it the deal is unknown, with the bounds found).",
)
@shown_option(
    "--views",
    click.IntRange(1),
    studies.DEFAULT_NOPEEK_VIEWS,
    "Budget of one deal's views walked between reveals (the plain-Python part of the cost).",
)
@click.option(
    "--seconds",
    type=click.FloatRange(1),
    default=None,
    help="Wall-clock limit of one deal [default: none; makes results machine-dependent].",
)
@_study_options("Deals", 10, "No-peek")
@user_errors
def nopeek_command(
    deals: str,
    rules: tuple[Rules, ...] | None,
    nodes: int,
    views: int,
    seconds: float | None,
    as_json: bool,
    **run,
) -> None:
    """The exact no-peek value of every deal of RANGE: the best win probability of a player who cannot peek.

    V is computed from the deal's opening view by the exact endgame
    (scorpion_solver/play/exact.py): every arrangement of the unseen cards
    solved (S, the thoughtful share, an upper bound); then a cover, a no-peek
    strategy built from their winning lines (play/cover.py), which proves
    V = S where it wins every winnable arrangement; else the expectimax over
    the views the player can reach, with the solver at the leaves. Only
    a game with few face-down cards is within reach: Three Blind Mice (9
    unseen cards, no tail), the default. A deal a budget cuts short is
    unknown, kept with the bounds found (V between the best strategy's value
    and S); the summary gives the realistic win rate over the deals as the
    interval those bounds make. Rerunning the same command finishes an
    interrupted run.
    """
    deal_set = parse_range(deals)
    for preset in rules or ():
        unseen = sum(preset.face_down) + preset.tail_size
        if unseen > NOPEEK_MOST_UNSEEN:
            raise UserError(
                f"--mode {preset.name}: a deal of {preset.name} has {unseen} unseen cards; the exact no-peek value "
                f"of a whole deal is within reach with at most {NOPEEK_MOST_UNSEEN} (mice), as its cost grows "
                "with the factorial of the unseen cards (`scorpion hint --fair --exact` takes late views)"
            )
    mode_list = tuple(r.name for r in rules) if rules else ("mice",)
    settings = studies.NoPeekSettings(deal_set, mode_list, nodes, views, seconds)
    default_out = Path(f"nopeek-{deal_set.label}-{'+'.join(mode_list)}-n{nodes}")
    out, report = _run(functools.partial(studies.nopeek_study, settings), default_out, **run)
    modes = studies.nopeek_summary(out)
    if as_json:
        click.echo(json.dumps({"folder": str(out), "written": report.written, "modes": modes}, indent=2))
        return
    click.echo(f"{out}: {report.written:,} chunks written now, {report.already:,} before{after_loading(report)}")
    _echo_nopeek_table(modes)


def _setting_text(value) -> str:
    """A recorded setting for the summary's title: a group of budgets in parentheses."""
    if isinstance(value, dict):
        return "(" + ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in value.items()) + ")"
    return str(value)


def _optimum_shares(folder: Path, against: tuple[Path, ...]) -> list[dict]:
    from ..batch import protocol

    for other in against:
        require_kind(other, "play", f"--against with the nopeek folder {folder}")
    return studies.optimum_shares(folder, protocol.group_against(list(against)))


def _echo_optimum_shares(players: list[dict]) -> None:
    def number(x: float | None) -> str:
        return "-" if x is None else f"{x:.4f}"

    def percent(x: float | None, interval: list | None) -> str:
        if x is None:
            return "-"
        return f"{100 * x:.2f}%" + (
            "" if interval is None else " ({:.2f}% - {:.2f}%)".format(*(100 * y for y in interval))
        )

    click.echo("")
    click.echo("each player beside the optimum, on the deals whose V is exact and every seed of the player finished")
    click.echo(
        "| player | mode | deals | mean V | mean S | games won | lost where winnable (gap) | player's value "
        "| share of the optimum (95% CI) | regret a deal (95% CI) | V not exact |"
    )
    click.echo("|---|---|---|---|---|---|---|---|---|---|---|")
    for p in players:
        for mode, m in p["modes"].items():
            regret = number(m["regret"])
            if m["regret_interval"] is not None:
                regret += " ({:.4f} - {:.4f})".format(*m["regret_interval"])
            click.echo(
                f"| {p['player']} | {mode} | {m['deals']:,} | {number(m['value_mean'])} | {number(m['share_mean'])} "
                f"| {number(m['won_mean'])} | {number(m['gap_mean'])} | {number(m['player_value'])} "
                f"| {percent(m['share_of_optimum'], m['share_interval'])} | {regret} | {m['value_unknown']:,} |"
            )
    for p in players:
        for mode, m in p["modes"].items():
            lost = ", ".join(
                f"{x['deal']} (V = {x['exact_fraction']}, {'winnable' if x['winnable'] else 'lost'} arrangement, "
                f"won {x['won']} of {len(p['seeds'])})"
                for x in m["lost_with_value"]
            )
            click.echo(f"{p['player']}, {mode}: deals lost where V > 0: {lost or 'none'}")
            if m["unfinished"]:
                click.echo(f"{p['player']}, {mode}: {m['unfinished']:,} deals with V exact not played by every seed")
    click.echo(
        "gap: the mean of T - wins / seeds (T: the deal's own arrangement can be won); player's value: mean S - gap; "
        "regret: mean V - the player's value; share of the optimum: the player's value / mean V "
        "(scorpion_solver/batch/studies.py, optimum_shares)"
    )


def _echo_nopeek_table(modes: dict) -> None:
    click.echo(
        "| mode | deals | exact | unknown | V = 0 | realistic rate (V, the deals' mean) | thoughtful rate (S) | CPU s |"
    )
    click.echo("|---|---|---|---|---|---|---|---|")
    for mode, m in modes.items():
        low, high = m["value_interval"]
        rate = f"{low:.4f}" if low == high else f"{low:.4f} - {high:.4f}"
        thoughtful = "-" if m["thoughtful_rate"] is None else f"{m['thoughtful_rate']:.4f} ({m['thoughtful_deals']})"
        click.echo(
            f"| {mode} | {m['deals']:,} | {m['exact']:,} | {m['unknown']:,} | {m['value_zero']:,} | {rate} | "
            f"{thoughtful} | {m['cpu_seconds']:,.0f} |"
        )
    for mode, m in modes.items():
        click.echo(
            f"{mode}: exact where every arrangement is lost (V = S = 0) {m['exact_dead']:,}, where the cover wins "
            f"every winnable arrangement (V = S) {m['exact_by_cover']:,}, by the expectimax {m['exact_by_expectimax']:,}"
        )
