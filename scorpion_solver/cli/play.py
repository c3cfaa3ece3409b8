"""The ``scorpion play`` command: a policy that cannot peek plays deals (registered by ``cli``).

``scorpion play RANGE`` plays every deal of RANGE into a resumable play
folder (``batch.play_runs``); ``scorpion play FILE`` plays one game from a
position file (every card known to the harness; the policy sees only the
view) and prints its record.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..batch import Execution, parse_modes, parse_range, read_metadata
from ..batch.play_runs import (
    EXACT_NAME,
    RESULTS_ENV,
    PlaySettings,
    default_play_out,
    find_results,
    game_seed,
    no_results_message,
    run_play,
)
from ..batch.protocol import RANGES
from ..game.rules import PRESETS, Rules
from ..play.game import DEFAULT_MOVE_CAP, DEFAULT_PROOF_NODES
from ..play.players import LOOKAHEAD, POLICIES, SPEC_FIELDS, PolicySpec
from ..play.policies import DEFAULT_NODES, DEFAULT_SAMPLES, PLAY_REDUCTIONS
from ..solver.reductions import PRESETS as REDUCTION_PRESETS
from .common import (
    NODES,
    UserError,
    after_loading,
    backend_maker,
    counted,
    interruptible,
    is_deal_number,
    load_solver_announced,
    load_start,
    recorded_command,
    refuse_given,
    rules_options,
    run_options,
    shown_option,
    user_errors,
)


def _is_position_file(source: str) -> bool:
    path = Path(source)
    if not path.is_file():
        return False
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if text.lstrip().startswith("{"):  # the JSON of `deal --json`, a SOURCE as every command reads it
        return True
    return any(line.split("#", 1)[0].strip().lower().startswith("col") for line in text.splitlines())


def _results_option(holding: str):
    """``--results DIR``: where the committed results are, found as ``play_runs.find_results`` finds them."""
    return click.option(
        "--results",
        "results",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help=f"The results folder {holding} [default: found in ${RESULTS_ENV}, ./results or the checkout the "
        "package runs from].",
    )


# The options of a run into a play folder, which one game (a deal number or a FILE) has no use for.
FOLDER_OPTIONS = ("play_lost", "results", "out", "chunk", "workers", "scheduler", "dask_local", "progress")


@click.command("play")
@click.argument("source", metavar="RANGE|N|FILE")
@click.option(
    "--policy",
    type=click.Choice(POLICIES),
    required=True,
    help="The player: random, greedy, hop, commit or commit2 (docs/play.md).",
)
@shown_option(
    "--samples",
    click.IntRange(1),
    DEFAULT_SAMPLES,
    "hop, commit, commit2: layouts of the hidden cards sampled per decision.",
)
@shown_option(
    "--nodes",
    NODES,
    DEFAULT_NODES,
    "hop, commit, commit2: node budget per solve of a sampled layout (unknown counts as not winnable).",
)
@click.option("--bandit", is_flag=True, help="hop: spread the samples among the moves with UCB1.")
@click.option(
    "--rejudge-tail",
    is_flag=True,
    help="commit, commit2: where a commitment chosen earlier would deal the tail, judge the view again "
    "(the folder's name ends with -rt).",
)
@shown_option(
    "--exact-endgame",
    click.IntRange(0, 8),
    0,
    "hop, commit, commit2: once 2 to N cards are unseen, play the exact no-peek endgame (play/exact.py); 0: never.",
    metavar="N",
)
@rules_options(
    several=True,
    help_text="Comma list of rules presets (e.g. clear,classic) [default: clear]; for one deal or a FILE, one preset "
    "[default: clear, or the file's own mode line].",
)
@click.option(
    "--option",
    "policy_options",
    multiple=True,
    metavar="NAME=VALUE",
    help="Another option of the policy (repeatable), an integer: commit2's top, outer, inner; commit's and "
    "commit2's max_views, screen, keep, value_ties (1: on); hop's, commit's and commit2's memory_mb, exact_nodes, "
    "exact_views (docs/play.md). The folder records it; its name shows it when not the default.",
)
@shown_option(
    "--seed",
    click.IntRange(0),
    0,
    "The run's seed: deal N's game is seeded from it, N and the mode (the same game in a folder and alone).",
)
@click.option(
    "--reductions",
    type=click.Choice(list(REDUCTION_PRESETS)),
    default=None,
    help=f"The search reductions of the game's solves (hop's and the proofs that a game is lost), a preset of "
    f"scorpion_solver/solver/reductions.py [default: a play folder's own, else {PLAY_REDUCTIONS}, the preset "
    "the committed play folders were played with].",
)
@shown_option("--move-cap", click.IntRange(1), DEFAULT_MOVE_CAP, "Moves before a game is capped.")
@shown_option(
    "--proof-nodes",
    NODES,
    DEFAULT_PROOF_NODES,
    "Node budget of the harness's check that the true position is lost (ends a lost game early).",
)
@click.option(
    "--play-lost",
    is_flag=True,
    help="Also play the deals the committed exact results show lost (by default counted lost, not played).",
)
@_results_option(f"holding the exact verdicts ({EXACT_NAME})")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None, help="Play folder.")
@click.option("--chunk", type=click.IntRange(1), default=None, help="Deals per task and per Parquet file.")
@run_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@user_errors
def play_command(
    source: str,
    policy: str,
    samples: int,
    nodes: int,
    bandit: bool,
    rejudge_tail: bool,
    exact_endgame: int,
    rules: tuple[Rules, ...] | None,
    policy_options: tuple[str, ...],
    seed: int,
    reductions: str | None,
    move_cap: int,
    proof_nodes: int,
    play_lost: bool,
    results: Path | None,
    out: Path | None,
    chunk: int | None,
    workers: int | None,
    scheduler: str | None,
    dask_local: int | None,
    progress: bool | None,
    as_json: bool,
) -> None:
    """Let POLICY play without peeking: every deal of RANGE into a play folder, or one game (a deal or FILE).

    The policy sees only what a player sees (face-up cards, how many cards
    are face down, whether the tail is still to come). RANGE is like 1-10000,
    a file of deal numbers, or the protocol's `development` (1-2000),
    `held-out` (100001-103000) or `validation` (200001-203000) range (docs/play.md); rerunning the same command finishes an
    interrupted run. Summarise a folder with `scorpion stats DIR`. One deal
    number, or a position file, plays one game and prints its record.
    """
    if exact_endgame and policy not in LOOKAHEAD:
        raise UserError(f"--exact-endgame is an option of --policy {', '.join(LOOKAHEAD)}")
    if bandit and policy != "hop":
        raise UserError("--bandit is an option of --policy hop")
    if rejudge_tail and policy not in ("commit", "commit2"):
        raise UserError("--rejudge-tail is an option of --policy commit and commit2")
    if policy not in LOOKAHEAD:
        refuse_given(["samples", "nodes"], f"--policy {', '.join(LOOKAHEAD)}")
    if policy == "greedy":  # it draws nothing at random: every seed plays the same games
        refuse_given(["seed"], "a policy that draws at random (greedy plays the same game with any seed)")
    spec = PolicySpec(
        policy,
        samples,
        nodes,
        bandit,
        seed,
        rejudge_tail=rejudge_tail,
        exact_endgame=exact_endgame,
        reductions=reductions,
        options=_parse_options(policy_options),
    )
    try:
        spec.record()  # refuses an option the policy does not take, or a bad value
    except ValueError as exc:
        raise UserError(f"--option: {exc}") from None
    if spec.options.get("value_ties"):
        _refuse_value_ties_without_a_model(rules)
    if is_deal_number(source) or _is_position_file(source):
        refuse_given(FOLDER_OPTIONS, "a RANGE (one game prints its record; it writes no folder)")
        _play_one(source, spec, rules, move_cap, proof_nodes, as_json)
        return
    deals = parse_range(source if Path(source).exists() else RANGES.get(source, source))
    backend = backend_maker(workers, scheduler, dask_local)
    settings = PlaySettings(
        deals,
        parse_modes(",".join(r.name for r in rules) if rules else "clear"),
        spec,
        move_cap,
        proof_nodes,
        skip_lost=not play_lost,
        exact=_exact_source(play_lost, results),
        chunk=chunk,
    )
    folder = out or default_play_out(settings)
    command = recorded_command()
    report = interruptible(lambda: run_play(settings, folder, Execution(backend, progress, command)), folder, "play")
    meta = read_metadata(folder) or {}
    note = meta.get("thoughtful", {})
    if as_json:
        click.echo(json.dumps({"folder": str(folder), "modes": report.tally.counts, "thoughtful_source": note}))
    else:
        click.echo(
            f"{folder}: {counted(report.deals, 'deal')}; {report.written:,} chunks written now, {report.already:,} "
            f"before, {report.chunks:,} in the plan; {counted(report.games, 'game')} played in "
            f"{report.seconds - report.load_seconds:.1f} s{after_loading(report)}"
        )
        for mode, c in report.tally.counts.items():
            click.echo(f"  {mode}: {c['won']:,} won of {c['played']:,} played, {counted(c['deals'], 'deal')} done")
        if note.get("results") and settings.skip_lost:
            click.echo(
                f"  deals shown lost by {note['results']} are counted lost without playing "
                f"({note['known_lost_not_played']} deal-modes)"
            )
    if report.failures:
        for message in report.failures:
            click.echo(f"error: {message}", err=True)
        sys.exit(1)
    if not report.complete:
        click.echo("the run is not finished: rerun the same command", err=True)


def _refuse_value_ties_without_a_model(rules: tuple[Rules, ...] | None) -> None:
    """``value_ties=1`` breaks ties with a learned value: refused up front for a preset that has none."""
    from ..play.view_value import NoModel, learned_value

    def has_model(name: str) -> bool:
        try:
            learned_value(name)
        except NoModel:
            return False
        return True

    with_model = [name for name in PRESETS if has_model(name)]
    for name in [r.name for r in rules] if rules else ["clear"]:
        if name not in with_model:
            raise UserError(
                f"--option value_ties=1 breaks ties with a learned value, and {name} has none "
                f"(the presets with one: {', '.join(with_model) or 'none'})"
            )


def _parse_options(texts: tuple[str, ...]) -> dict:
    """``NAME=VALUE`` pairs as a dict of integers; a setting with a flag of its own is refused here."""
    options = {}
    for text in texts:
        name, sep, value = text.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise UserError(f"--option {text!r}: give NAME=VALUE, e.g. inner=16")
        if name in SPEC_FIELDS:
            raise UserError(f"--option {text!r}: {name} has a flag of its own, --{name.replace('_', '-')}")
        if name in options:
            raise UserError(f"--option {name} is given twice")
        try:
            options[name] = int(value)
        except ValueError:
            raise UserError(f"--option {text!r}: the value must be an integer") from None
    return options


def _exact_source(play_lost: bool, results: Path | None) -> Path | None:
    """The committed exact verdicts a run counts lost deals from (needed unless --play-lost plays them all)."""
    if not play_lost or results is not None:
        root = find_results(results)
        if root is None:
            raise UserError(
                no_results_message("counting the deals they show lost without playing them")
                + "; or give --play-lost to play every deal (the thoughtful rate then stays unknown)"
            )
        return root / EXACT_NAME
    root = find_results()
    return root / EXACT_NAME if root is not None else None


def _play_one(
    source: str, spec: PolicySpec, rules: tuple[Rules, ...] | None, move_cap: int, proof_nodes: int, as_json: bool
):
    """One game: a deal number, or a position file (the true position; the policy sees only its view)."""
    from ..play.game import play_game

    if rules is not None and len(rules) > 1:
        raise UserError("one game is played in one rules preset: give one --mode")
    position, rules, number = load_start(source, rules[0] if rules else None)
    # the one seed rule: deal N alone plays the game deal N plays in a folder with this seed (a file: N = 0)
    seed = game_seed(spec.seed, number or 0, rules.name)
    load_solver_announced("play")
    record = play_game(position, rules, spec.build(rules, seed), move_cap, proof_nodes, spec.search_reductions())
    label = f"deal {number}" if number is not None else source
    if as_json:
        # hop's budget per solve is budget_nodes: the record's nodes are those the policy searched
        policy = {"budget_nodes" if k == "nodes" else k: v for k, v in spec.record().items()}
        click.echo(
            json.dumps(
                {"source": source, "deal": number, "mode": rules.name, **policy, "game_seed": seed, **record.as_dict()}
            )
        )
        return
    why = f" ({record.reason})" if record.reason else ""
    click.echo(f"{label}, {rules.name}, {spec.name}: {record.outcome}{why} after {counted(len(record.moves), 'move')}")
    click.echo(record.text)
    click.echo(
        f"[{counted(record.decisions, 'decision')}, {counted(record.solves, 'solve')}, {counted(record.nodes, 'node')}, "
        f"{record.seconds:.3f} s]"
    )


@click.command("deals")
@click.option("--winnable", is_flag=True, required=True, help="List winnable deals (the only listing so far).")
@rules_options(help_text="Rules preset: clear or classic, the presets the play folders hold [default: clear].")
@click.option(
    "--grade",
    type=click.Choice(["easy", "medium", "hard"]),
    default=None,
    help="easy: won by greedy; medium: won by hop, commit or commit2, not greedy; hard: won only with peeking [default: any].",
)
@shown_option("-n", click.IntRange(1), 10, "How many deals.", "count")
@shown_option("--seed", click.IntRange(0), 0, "Which ones (a uniform draw).")
@_results_option(f"(holding {EXACT_NAME} and the play folders)")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@user_errors
def deals_command(
    winnable: bool, rules: Rules | None, grade: str | None, count: int, seed: int, results: Path | None, as_json: bool
) -> None:
    """Deal numbers to play (open them in PySolFC), winnable, graded by how a player without peeking fares.

    From the committed results: the exact verdicts (results/deals-1-1000000)
    and the play folders (results/play-*). Grades: easy (the greedy policy
    wins it), medium (only hop, commit or commit2 wins it), hard (winnable only with peeking);
    the rule is documented in scorpion_solver/batch/deal_grades.py. Without
    --grade the deals are drawn from the graded ones (the deals the play
    folders cover), so every deal listed has a grade.
    """
    from ..batch.deal_grades import grade_deals, pick

    mode = rules.name if rules else "clear"
    root = find_results(results)
    if root is None:
        raise UserError(no_results_message("scorpion deals"))
    graded = grade_deals(mode, root, graded_only=True)  # the exact chunks of the graded deals alone
    chosen = pick(graded, grade, count, seed)
    if not chosen:
        what = f"{grade} deal" if grade else "graded deal"
        raise UserError(f"no {what} in the play folders of {root} for {mode}")
    if as_json:
        click.echo(json.dumps({"mode": mode, "grade": grade, "deals": [{"deal": d, "grade": g} for d, g in chosen]}))
        return
    for number, g in chosen:
        click.echo(f"{number}\t{g}")
