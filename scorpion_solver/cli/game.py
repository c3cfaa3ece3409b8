"""The ``scorpion deal``, ``perft`` and ``replay`` commands: the game itself, no solver."""

from __future__ import annotations

import click

from ..analysis.sources import refuse_missing
from ..game.cards import CardError, parse_card
from ..game.deal import DEAL_NUMBER, check_deal_number, deal
from ..game.engine import is_lost, is_won, legal_moves, move_text, perft, perft_divide, replay_positions
from ..game.position_text import format_position, parse_position_text, position_json
from ..game.rules import Rules, get_rules
from ..game.text_input import read_text
from ..game.view import MissingReveal, Observation
from ..game.view_text import format_view, has_unknown, view_from_text
from .common import (
    UserError,
    counted,
    is_deal_number,
    load_start,
    moves_from,
    notify_loading,
    refuse_without_kernel,
    rules_options,
    shown_option,
    user_errors,
)


@click.command("deal", context_settings={"ignore_unknown_options": True})
@click.argument("number", type=str)
@rules_options()
@click.option(
    "--json", "as_json", is_flag=True, help="Print JSON instead of the position text (a SOURCE for the other commands)."
)
@click.option("--view", is_flag=True, help="Print the player's view: ?? for each face-down and tail card.")
@user_errors
def deal_command(number: str, rules: Rules | None, as_json: bool, view: bool) -> None:
    """Print the starting position of deal NUMBER (a PySolFC game number)."""
    if not is_deal_number(number):
        raise UserError(f"'{number}' is not a deal number ({DEAL_NUMBER})")
    rules = rules or get_rules("clear")
    n = check_deal_number(int(number))
    position = deal(n, rules)
    if view:
        if as_json:
            raise UserError("--view prints text; give --view or --json, not both")
        click.echo(format_view(Observation.of(position, rules.decks), rules), nl=False)
        return
    if as_json:
        click.echo(position_json(position, rules, number=n))
    else:
        click.echo(format_position(position, rules), nl=False)


@click.command("perft")
@click.argument("source")
@click.option("--depth", "-d", type=click.IntRange(0, 12), required=True, help="Count sequences up to this many moves.")
@rules_options()
@click.option("--divide", is_flag=True, help="Also print the count at the full depth per first move.")
@shown_option(
    "--engine",
    click.Choice(["jit", "reference"]),
    "jit",
    "The jitted kernel or the plain-Python reference engine (for the counts and --divide alike).",
)
@user_errors
def perft_command(source: str, depth: int, rules: Rules | None, divide: bool, engine: str) -> None:
    """Count move sequences from SOURCE for each depth.

    SOURCE is a deal number, a position file (text, or the JSON of 'deal --json') or - (standard input).
    """
    # here, not at the top: the other commands start without numba
    from ..solver.compiling import PERFT_COST, PERFT_KERNELS, compile_bar, compiling
    from ..solver.search import jit_perft

    position, rules, _ = load_start(source, rules)
    refuse_without_kernel((rules,), engine)  # a position file's mode line may name a ten-column game
    if depth == 0:  # only the empty sequence: no kernel to load, nor a compile to announce
        click.echo("depth 0: 1")
        return
    count = perft if engine == "reference" else jit_perft
    kernels = () if engine == "reference" else PERFT_KERNELS + (("make_move",) if divide else ())
    with compiling(
        kernels, "the perft kernel", PERFT_COST, notify_loading, compile_bar()
    ):  # a first run says it compiles
        for d in range(1, depth + 1):
            click.echo(f"depth {d}: {count(position, d, rules)}")
        if divide and depth > 0:
            click.echo(f"divide at depth {depth}:")
            divided = (
                perft_divide(position, depth, rules) if engine == "reference" else jit_divide(position, depth, rules)
            )
            for move, n in divided:
                click.echo(f"  {move_text(move)}: {n}")


def jit_divide(position, depth: int, rules):
    """perft at ``depth`` per first move, counted by the jitted kernel (the engine lists the moves)."""
    from ..solver.search import jit_perft, jit_play

    out = []
    for move in legal_moves(position, rules):
        child, _, _ = jit_play(position, move, rules)
        out.append((move, jit_perft(child, depth - 1, rules) if depth > 1 else 1))
    return out


@click.command("replay", short_help="Play moves from a deal or position and print the result; advance a view.")
@click.argument("source")
@click.argument("moves", nargs=-1)
@click.option(
    "--moves-file",
    metavar="FILE",
    default=None,
    help="Read the moves from FILE (- for standard input) instead of the command line: space or line separated, "
    "'#' comments allowed. Not together with MOVES.",
)
@click.option(
    "--reveal",
    "revealed",
    metavar="CARD",
    multiple=True,
    help="SOURCE is a view (?? for unseen cards): a card a move turned up, in the order seen (repeat it; the tail "
    "deal shows three, onto columns 1, 2, 3). The view is then printed after the moves.",
)
@rules_options()
@user_errors
def replay_command(
    source: str,
    moves: tuple[str, ...],
    moves_file: str | None,
    revealed: tuple[str, ...],
    rules: Rules | None,
) -> None:
    """Play MOVES (e.g. '6C:5>2' 'KS:3>4' tail; quote them, a shell reads > as a redirection) from SOURCE
    and print the final position.

    SOURCE is a deal number, a position file (text, or the JSON of 'deal --json') or - (standard input).
    The moves come from the command line or from --moves-file, not both. A view (a file writing ?? for the
    cards you have not seen, as `scorpion deal N --view` prints) is advanced too: give each card a move
    turned up with --reveal, and the view after the moves is printed, ready for `scorpion hint --fair`.
    """
    played = moves_from(" ".join(moves) if moves else None, moves_file, required=False, source=source)
    cards = [_revealed_card(token) for token in revealed]
    if not is_deal_number(source):
        refuse_missing(source)
        text = read_text(source)
        name = "standard input" if source == "-" else source
        if has_unknown(text) or cards:
            view, rules = view_from_text(text, rules, name)
            try:
                view = view.advance(played, cards, rules)
            except MissingReveal as exc:
                raise UserError(f"{exc}: give each card a move turns up with --reveal CARD, in order") from None
            except ValueError as exc:
                raise UserError(str(exc)) from None
            click.echo(format_view(view, rules), nl=False)
            state = "won" if view.fully_known and is_won(view.stand_in(), rules) else "in play"
            if view.fully_known and is_lost(view.stand_in(), rules):
                state = "lost (no legal move)"
            click.echo(
                f"# {counted(len(played), 'move')} played; {counted(len(view.unseen), 'card')} unseen; the game is {state}"
            )
            return
        parsed = parse_position_text(text, rules, name)
        position, rules = parsed.position, parsed.rules
    else:
        if cards:
            raise UserError("--reveal is for a view typed by hand: a deal number knows the cards its moves turn up")
        position, rules, _ = load_start(source, rules)
    final = replay_positions(position, played, rules)[-1]
    click.echo(format_position(final, rules), nl=False)
    state = "won" if is_won(final, rules) else "lost (no legal move)" if is_lost(final, rules) else "in play"
    click.echo(f"# {counted(len(played), 'move')} played; the game is {state}")


def _revealed_card(token: str) -> int:
    try:
        card, face_down = parse_card(token)
    except CardError as exc:
        raise UserError(f"--reveal: {exc}") from None
    if face_down:
        raise UserError(f"--reveal {token}: a card turned up is face up (no '*')")
    return card
