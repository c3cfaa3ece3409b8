"""The ``scorpion deal``, ``perft`` and ``replay`` commands: the game itself, no solver."""

from __future__ import annotations

import click

from ..game.deal import check_deal_number, deal
from ..game.engine import is_lost, is_won, move_text, parse_moves, perft, perft_divide, replay_positions
from ..game.position_text import format_position, position_json
from ..game.rules import get_rules
from .common import MODE_OPTION, RULES_OPTION, UserError, load_start, rules_from, user_errors


@click.command("deal", context_settings={"ignore_unknown_options": True})
@click.argument("number", type=str)
@MODE_OPTION
@RULES_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of the position text.")
@click.option("--view", is_flag=True, help="Print the player's view: ?? for each face-down and tail card.")
@user_errors
def deal_command(number: str, mode: str | None, rules_name: str | None, as_json: bool, view: bool) -> None:
    """Print the starting position of deal NUMBER (a PySolFC game number)."""
    if not number.lstrip("-").isdigit():
        raise UserError(f"'{number}' is not a deal number (a whole number, 1 or more)")
    rules = rules_from(mode, rules_name) or get_rules("clear")
    position = deal(check_deal_number(int(number)), rules)
    if view:
        from ..game.view import Observation
        from ..game.view_text import format_view

        if as_json:
            raise UserError("--view prints text; give --view or --json, not both")
        click.echo(format_view(Observation.of(position), rules), nl=False)
        return
    if as_json:
        click.echo(position_json(position, rules))
    else:
        click.echo(format_position(position, rules), nl=False)


@click.command("perft")
@click.argument("source")
@click.option("--depth", "-d", type=click.IntRange(0, 12), required=True, help="Count sequences up to this many moves.")
@MODE_OPTION
@RULES_OPTION
@click.option("--divide", is_flag=True, help="Also print the count at the full depth per first move.")
@click.option(
    "--engine",
    type=click.Choice(["jit", "reference"]),
    default="jit",
    show_default=True,
    help="The jitted kernel or the plain-Python reference engine.",
)
@user_errors
def perft_command(source: str, depth: int, mode: str | None, rules_name: str | None, divide: bool, engine: str) -> None:
    """Count move sequences from SOURCE (a deal number or a position file) for each depth."""
    position, rules, _ = load_start(source, rules_from(mode, rules_name))
    count = _perft_function(engine)
    for d in range(1, depth + 1):
        click.echo(f"depth {d}: {count(position, d, rules)}")
    if divide and depth > 0:
        click.echo(f"divide at depth {depth}:")
        for move, n in perft_divide(position, depth, rules):
            click.echo(f"  {move_text(move)}: {n}")


def _perft_function(engine: str):
    if engine == "reference":
        return perft
    from ..solver.search import jit_perft

    return jit_perft


@click.command("replay")
@click.argument("source")
@click.argument("moves", nargs=-1)
@click.option("--moves-file", type=click.Path(dir_okay=False), help="Read the moves from a file instead.")
@MODE_OPTION
@RULES_OPTION
@user_errors
def replay_command(
    source: str, moves: tuple[str, ...], moves_file: str | None, mode: str | None, rules_name: str | None
) -> None:
    """Play MOVES (e.g. 6C:5>2 KS:3>4 tail) from SOURCE and print the final position."""
    position, rules, _ = load_start(source, rules_from(mode, rules_name))
    text = " ".join(moves)
    if moves_file:
        try:
            with open(moves_file, encoding="utf-8") as handle:
                text += " " + handle.read()
        except OSError as exc:
            raise UserError(f"cannot read {moves_file}: {exc.strerror}") from None
    final = replay_positions(position, parse_moves(text), rules)[-1]
    click.echo(format_position(final, rules), nl=False)
    state = "won" if is_won(final, rules) else "lost (no legal move)" if is_lost(final, rules) else "in play"
    click.echo(f"# {len(parse_moves(text))} moves played; the game is {state}")
