"""The ``scorpion show`` command: a deal or a position as a page of cards, with a line to step through."""

from __future__ import annotations

from pathlib import Path

import click

from ..game.rules import Rules
from ..solver.result import DEFAULT_NODES, Limits
from .common import (
    UserError,
    budget_options,
    load_blind_start,
    load_solver_announced,
    load_start,
    moves_options,
    recorded_command,
    refuse_given,
    rules_options,
    user_errors,
)

# A hint makes one solve per legal move: a smaller budget per solve than a plain solve (as `scorpion hint`).
HINT_NODES = 5_000_000


@click.command("show")
@click.argument("source")
@rules_options(default_text="clear for deals, a position file's own mode line")
@click.option("--solution", is_flag=True, help="Add the solver's win (from the position the moves reach).")
@click.option("--hint", "with_hint", is_flag=True, help="List every legal move (after the moves) with its verdict.")
@click.option(
    "--fair",
    is_flag=True,
    help="List every legal move (after the moves) with its share of sampled layouts of the unseen cards in which "
    "it keeps the game winnable, showing only what a player sees (a file may write ?? for unknown cards).",
)
@click.option("--samples", type=click.IntRange(1), default=None, help="--fair: layouts sampled [default: 100].")
@click.option("--seed", type=click.IntRange(0), default=None, help="--fair: the sampling seed [default: 0].")
@moves_options()
@budget_options(
    nodes=None,
    nodes_help=f"Node budget per solve [default: {DEFAULT_NODES} with --solution, {HINT_NODES} with --hint or --fair].",
    time_help="Seconds per solve.",
)
@click.option(
    "--html",
    "out",
    type=click.Path(dir_okay=False),
    required=True,
    help="The page to write: one self-contained HTML file.",
)
@user_errors
def show_command(
    source: str,
    rules: Rules | None,
    solution: bool,
    with_hint: bool,
    fair: bool,
    samples: int | None,
    seed: int | None,
    moves: list,
    nodes: int | None,
    memory_mb: int,
    seconds: float | None,
    out: str,
) -> None:
    """Draw SOURCE (a deal number or a position file) as cards on a page, OUT.html.

    The page steps through a line of moves (buttons, or the arrow keys and
    Home / End): the moves given with --moves, then the solver's win with
    --solution; with --hint it lists every legal move of the last position
    with its verdict, and choosing one shows the position after it. With
    --fair the page shows only what a player sees (a deal's face-down and
    tail cards as ? backs; a position file may write ?? for unknown cards)
    and lists every legal move with its share of --samples layouts of the
    unseen cards in which it keeps the game winnable, best first, as
    `scorpion hint --fair` ranks them. Every position on the page is the
    reference engine's.
    """
    from ..page.html import write_page

    _check_choice(solution, with_hint, fair, samples, seed)
    folder = Path(out).parent
    if not folder.is_dir():
        why = f"{folder} is a file, not a folder" if folder.exists() else f"there is no folder {folder} (make it first)"
        raise UserError(f"cannot write {out}: {why}")
    if solution or with_hint or fair:
        load_solver_announced("show")  # a first run's compile is announced, not silent
    budget = nodes or (HINT_NODES if with_hint or fair else DEFAULT_NODES)
    limits = Limits(nodes=budget, memory_mb=memory_mb, seconds=seconds)
    if fair:
        data = _fair_data(source, rules, moves, limits, samples, seed)
    else:
        data = _page_data(source, rules, moves, limits, solution, with_hint)
    try:
        path = write_page(data, out)
    except OSError as exc:
        raise UserError(f"cannot write {out}: {exc.strerror}") from None
    steps = len(data["line"]["steps"]) - 1
    extra = f"; {len(data['choices']['options'])} moves judged" if data.get("choices") else ""
    verdict = f"; {data['verdict']['status']}" if data.get("verdict") else ""
    click.echo(
        f"wrote {path}: {data['title']}, {steps} move{'s' if steps != 1 else ''} to step through{extra}{verdict}"
    )


def _check_choice(solution: bool, with_hint: bool, fair: bool, samples: int | None, seed: int | None) -> None:
    """Refuse options that ask for two drawings at once, or a sampling option without sampling."""
    if solution and with_hint:
        raise UserError("--solution and --hint draw different things: give one of them")
    if fair and (solution or with_hint):
        other = "--solution" if solution else "--hint"
        raise UserError(
            f"--fair and {other} draw different things (a solution or a hint peeks at hidden cards): give one"
        )
    if not fair and (samples is not None or seed is not None):
        raise UserError("--samples and --seed choose the sampled layouts of --fair: give them with --fair")
    if not (solution or with_hint or fair):
        refuse_given(
            ["nodes", "memory_mb", "seconds"], "--solution, --hint or --fair (a page without them solves nothing)"
        )


def _page_data(source: str, rules: Rules | None, moves: list, limits: Limits, solution: bool, with_hint: bool):
    """The page of a start seen whole: its moves, then the solver's win or every move's verdict."""
    from ..page.build import hint_page, solution_page
    from ..page.data import page_data

    position, rules, number = load_start(source, rules)
    where = {"deal": number, "source": source, "command": recorded_command()}
    if solution:
        return solution_page(position, rules, moves, limits, **where)
    if with_hint:
        return hint_page(position, rules, moves, limits, **where)
    return page_data(position, rules, moves, **where)


def _fair_data(source: str, rules: Rules | None, moves: list, limits: Limits, samples: int | None, seed: int | None):
    """The page of what a player sees: every move ranked by its share of sampled layouts (as ``hint --fair``)."""
    from ..page.build import fair_page
    from ..page.data import face_down_cards
    from ..play.fair import DEFAULT_FAIR_SAMPLES

    position, rules, number, unseen = load_blind_start(source, rules, moves)
    mask = face_down_cards if unseen is None else (lambda _position: unseen)
    return fair_page(
        position,
        rules,
        moves,
        limits,
        DEFAULT_FAIR_SAMPLES if samples is None else samples,
        seed or 0,
        mask=mask,
        deal=number,
        source=source,
        command=recorded_command(),
    )
