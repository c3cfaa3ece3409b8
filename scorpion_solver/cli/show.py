"""The ``scorpion show`` command: a deal or a position as a page of cards, with a line to step through."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..game.engine import MoveError, move_text, play
from ..solver.result import DEFAULT_MEMORY_MB, DEFAULT_NODES, Limits
from .common import (
    MODE_OPTION,
    RULES_OPTION,
    UserError,
    is_deal_number,
    load_start,
    moves_from,
    rules_from,
    user_errors,
)
from .common import load_view as common_load_view

# A hint makes one solve per legal move: a smaller budget per solve than a plain solve (as `scorpion hint`).
HINT_NODES = 5_000_000


@click.command("show")
@click.argument("source")
@MODE_OPTION
@RULES_OPTION
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
@click.option("--moves", "moves_text_", metavar="MOVES", default=None, help="Moves to play first, e.g. '9H:6>1 tail'.")
@click.option("--moves-file", metavar="FILE", default=None, help="Read the moves from FILE (- for standard input).")
@click.option(
    "--nodes",
    type=click.IntRange(min=1),
    default=None,
    help=f"Node budget per solve [default: {DEFAULT_NODES} with --solution, {HINT_NODES} with --hint or --fair].",
)
@click.option(
    "--memory",
    "memory_mb",
    type=click.IntRange(min=1),
    default=DEFAULT_MEMORY_MB,
    show_default=True,
    help="Transposition table budget per solve, MB.",
)
@click.option("--time", "seconds", type=click.FloatRange(min=0, min_open=True), default=None, help="Seconds per solve.")
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
    mode: str | None,
    rules_name: str | None,
    solution: bool,
    with_hint: bool,
    fair: bool,
    samples: int | None,
    seed: int | None,
    moves_text_: str | None,
    moves_file: str | None,
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
    from ..page.build import fair_page, hint_page, solution_page
    from ..page.data import page_data
    from ..page.html import write_page
    from ..play.fair import DEFAULT_FAIR_SAMPLES

    if solution and with_hint:
        raise UserError("--solution and --hint draw different things: give one of them")
    if fair and (solution or with_hint):
        other = "--solution" if solution else "--hint"
        raise UserError(
            f"--fair and {other} draw different things (a solution or a hint peeks at hidden cards): give one"
        )
    if not fair and (samples is not None or seed is not None):
        raise UserError("--samples and --seed choose the sampled layouts of --fair: give them with --fair")
    folder = Path(out).parent
    if not folder.is_dir():
        why = f"{folder} is a file, not a folder" if folder.exists() else f"there is no folder {folder} (make it first)"
        raise UserError(f"cannot write {out}: {why}")
    if source == "-" and moves_file == "-":
        raise UserError("the position and the moves cannot both come from standard input")
    moves = moves_from(moves_text_, moves_file, required=False)
    if fair:
        position, rules, number, mask = load_view(source, rules_from(mode, rules_name), moves)
    else:
        position, rules, number = load_start(source, rules_from(mode, rules_name))
    command = command_line(
        source, mode, rules_name, solution, with_hint, moves_text_, moves_file, nodes, memory_mb, seconds, out
    )
    if fair:
        extra = (["--samples", str(samples)] if samples is not None else []) + (
            ["--seed", str(seed)] if seed is not None else []
        )
        command = command.replace(" --html ", " " + shlex.join(["--fair", *extra]) + " --html ", 1)
    where = {"deal": number, "source": source, "command": command}
    budget = nodes or (HINT_NODES if with_hint or fair else DEFAULT_NODES)
    limits = Limits(nodes=budget, memory_mb=memory_mb, seconds=seconds)
    if fair:
        data = fair_page(
            position,
            rules,
            moves,
            limits,
            DEFAULT_FAIR_SAMPLES if samples is None else samples,
            seed or 0,
            mask=mask,
            **where,
        )
    elif solution:
        data = solution_page(position, rules, moves, limits, **where)
    elif with_hint:
        data = hint_page(position, rules, moves, limits, **where)
    else:
        data = page_data(position, rules, moves, **where)
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


def load_view(source: str, rules, moves):
    """What a player sees of SOURCE, as (a position holding it, rules, deal number or None, the mask of unseen cards).

    A deal number: the deal itself, whose face-down and tail cards are masked
    at every position (the moves given turn up real cards, as at the table).
    A file or ``-`` (a view with ``??``, or a position, read as every source
    is): its view's stand-in with every face-down and tail card masked; a move
    given that would turn up an unseen card is refused, since the source does
    not say which card it is.
    """
    from ..page.data import face_down_cards

    if is_deal_number(source):
        position, rules, number = load_start(source, rules)
        return position, rules, number, face_down_cards
    view, rules, _ = common_load_view(source, rules)
    view = view.blind()
    reached = view
    for number, move in enumerate(moves, start=1):
        try:
            play(reached.stand_in(), move, rules)  # says why a move is not legal
        except MoveError as exc:
            raise UserError(f"move {number}: {exc}") from None
        after = reached.after(move, rules)
        if after is None:
            raise UserError(
                f"move {number}: {move_text(move)} turns up an unseen card ({source} does not say which): "
                "give the position after it instead"
            )
        reached = after
    unseen = frozenset(view.unseen)
    return view.stand_in(), rules, None, lambda _position: unseen


def command_line(
    source: str,
    mode: str | None,
    rules_name: str | None,
    solution: bool,
    with_hint: bool,
    moves_text_: str | None,
    moves_file: str | None,
    nodes: int | None,
    memory_mb: int,
    seconds: float | None,
    out: str,
) -> str:
    """The command that makes the page again, as the page states it."""
    parts = ["scorpion", "show", source]
    if mode:
        parts += ["--mode", mode]
    if rules_name:
        parts += ["--rules", rules_name]
    if moves_text_ is not None:
        parts += ["--moves", moves_text_]
    if moves_file is not None:
        parts += ["--moves-file", moves_file]
    if solution:
        parts.append("--solution")
    if with_hint:
        parts.append("--hint")
    if nodes is not None:
        parts += ["--nodes", str(nodes)]
    if memory_mb != DEFAULT_MEMORY_MB:
        parts += ["--memory", str(memory_mb)]
    if seconds is not None:
        parts += ["--time", f"{seconds:g}"]
    return shlex.join(parts + ["--html", out])
