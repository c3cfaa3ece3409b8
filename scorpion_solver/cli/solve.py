"""The ``scorpion solve`` command: verdicts of deals, ranges and position files."""

from __future__ import annotations

import json
import sys

import click

from ..game.deal import check_deal_number
from ..game.engine import parse_moves
from ..game.rules import MODES, Rules, get_rules
from ..solver.result import DEFAULT_MEMORY_MB, DEFAULT_NODES, Limits
from .common import UserError, load_start, user_errors


def parse_targets(source: str) -> list[str]:
    """N, N-M or a file: the things `solve` works through."""
    text = source.strip()
    if "-" in text[1:] and all(part.strip().isdigit() for part in text.split("-", 1)):
        first, last = (int(part) for part in text.split("-", 1))
        check_deal_number(first)
        if last < first:
            raise UserError(f"range '{source}' ends before it starts")
        return [str(n) for n in range(first, last + 1)]
    return [source]


@click.command("solve")
@click.argument("source")
@click.option(
    "--mode",
    "--rules",
    "mode",
    default=None,
    help="clear (default for deals), classic, both, or a relative (wasp, scorpion2, goodsol); "
    "a position file's own mode line is used when omitted.",
)
@click.option(
    "--nodes",
    type=click.IntRange(min=1),
    default=DEFAULT_NODES,
    show_default=True,
    help="Node budget per deal and mode (counted inside the kernel).",
)
@click.option(
    "--memory",
    "memory_mb",
    type=click.IntRange(min=1),
    default=DEFAULT_MEMORY_MB,
    show_default=True,
    help="Transposition table budget in MB.",
)
@click.option(
    "--time",
    "seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=None,
    help="Wall-clock limit in seconds per deal and mode.",
)
@click.option("--no-prune", is_flag=True, help="Switch off deadlock pruning (slower; same verdicts).")
@click.option("--debug", is_flag=True, help="Check the compact state from scratch at the root and along the solution.")
@click.option("--solution", is_flag=True, help="Print the winning move list.")
@click.option("--shortest", is_flag=True, help="Find a win of minimum length and prove it minimal.")
@click.option("--walkthrough", is_flag=True, help="Print the position after every move of the solution.")
@click.option("--color/--no-color", default=None, help="Suit colours in the walkthrough (default: when a terminal).")
@click.option(
    "--layout",
    type=click.Choice(["rows", "columns"]),
    default="rows",
    show_default=True,
    help="Walkthrough layout: one line per column, or the columns side by side.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per deal and mode.")
@user_errors
def solve_command(
    source: str,
    mode: str | None,
    nodes: int,
    memory_mb: int,
    seconds: float | None,
    no_prune: bool,
    debug: bool,
    solution: bool,
    shortest: bool,
    walkthrough: bool,
    color: bool | None,
    layout: str,
    as_json: bool,
) -> None:
    """Decide whether SOURCE can be won: a deal number, a range N-M, or a position file.

    Prints the verdict (won / lost / unknown) with nodes and seconds per deal and mode.
    """
    from ..analysis.walkthrough import render_walkthrough
    from ..solver.search import solve, solve_shortest

    if mode is None:
        rule_list: list[Rules | None] = [None]
    elif mode.lower() == "both":
        rule_list = [get_rules(name) for name in MODES]
    else:
        rule_list = [get_rules(mode)]
    limits = Limits(nodes=nodes, memory_mb=memory_mb, seconds=seconds, prune=not no_prune)
    use_color = sys.stdout.isatty() if color is None else color
    for target in parse_targets(source):
        for rules in rule_list:
            position, used_rules, number = load_start(target, rules)
            if shortest:
                result = solve_shortest(position, used_rules, limits)
            else:
                result = solve(position, used_rules, limits, debug=debug)
            result.deal = number
            label = f"deal {number}" if number is not None else target
            if as_json:
                click.echo(json.dumps(result.as_row()))
            else:
                extra = f", {result.solution_length} moves" if result.status == "won" else ""
                if result.shortest:
                    extra += ", minimum proved" if result.shortest == "proved" else ", shortest found (not proved)"
                why = f" (stopped by the {result.stopped_by} limit)" if result.stopped_by else ""
                click.echo(
                    f"{label} {used_rules.name}: {result.status}{why} "
                    f"[{result.nodes} nodes, {result.seconds:.3f} s{extra}]"
                )
                if solution and result.status == "won":
                    click.echo(result.solution)
            if walkthrough and result.status == "won" and not as_json:
                click.echo(
                    render_walkthrough(
                        position, parse_moves(result.solution), used_rules, color=use_color, layout=layout
                    ),
                    color=use_color,
                )
