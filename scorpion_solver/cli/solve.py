"""The ``scorpion solve`` command: verdicts of deals, ranges and position files."""

from __future__ import annotations

import sys
from typing import Iterable

import click

from ..analysis.sources import SOURCE_FORMS, refuse_missing
from ..game.deal import check_deal_number
from ..game.rules import Rules
from ..solver.probes import SCOUT_NODES
from ..solver.reductions import Reductions
from ..solver.result import LOST, UNKNOWN, WON, Limits, SolveResult
from .common import (
    UserError,
    budget_options,
    counted,
    echo_json,
    load_solver_announced,
    load_start,
    load_text,
    reductions_options,
    refuse_given,
    rules_options,
    user_errors,
)

RANGE_PARTS = 2
SOLVE_FORMS = SOURCE_FORMS.replace("), a position file", "), a range N-M (like 1-100), a position file", 1)


def parse_targets(source: str) -> Iterable[str]:
    """N, N-M or a file: the things `solve` works through, one at a time.

    A range is produced lazily (``solve 1-100000000`` starts at once and
    holds one deal at a time); any deal number PySolFC accepts is allowed,
    2^63 and beyond included.
    """
    text = source.strip()
    parts = text.split("-", 1)
    if (
        "-" in text[1:]
        and len(parts) == RANGE_PARTS
        and all(p.strip().isascii() and p.strip().isdigit() for p in parts)
    ):
        first, last = (int(part) for part in parts)
        check_deal_number(first)
        check_deal_number(last)  # up front: a range past PySolFC's last game would stream and then fail
        if last < first:
            raise UserError(f"range '{source}' ends before it starts")
        return (str(n) for n in range(first, last + 1))
    refuse_missing(source, SOLVE_FORMS)
    return (source,)


def solve_json(result: SolveResult, source: str, number: int | None) -> dict:
    """A solve in the JSON vocabulary of docs/output.md."""
    row = result.as_row()
    row.pop("deal", None)
    data = {"source": source, "deal": number, "mode": row.pop("rules")}
    data.update(row)
    return data


@click.command("solve")
@click.argument("source")
@rules_options(several=True, default_text="clear for deals, a position file's own mode line")
@budget_options(
    nodes_help=f'Node budget per deal and mode (counted inside the kernel); a ten-column game is first searched with {SCOUT_NODES:,} nodes, then probed from random starts, then searched with the budget in each of two move orders (docs/design.md, "A short first try").',
    memory_help="Transposition table budget in MB.",
    time_help="Wall-clock limit in seconds per deal and mode.",
)
@reductions_options()
@click.option("--debug", is_flag=True, help="Check the compact state from scratch at the root and along the solution.")
@click.option("--solution", is_flag=True, help="Print the winning move list (e.g. '6C:5>2 KS:3>4 tail').")
@click.option(
    "--shortest", is_flag=True, help="Find a win of minimum length and prove it minimal (the seven-column games only)."
)
@click.option("--walkthrough", is_flag=True, help="Print the position after every move of the solution.")
@click.option("--color/--no-color", default=None, help="Suit colours in the walkthrough (default: when a terminal).")
@click.option(
    "--layout",
    type=click.Choice(["rows", "columns"]),
    default=None,
    help="Walkthrough layout: one line per column, or the columns side by side [default: rows].",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per deal and mode (docs/output.md).")
@user_errors
def solve_command(
    source: str,
    rules: tuple[Rules, ...] | None,
    nodes: int,
    memory_mb: int,
    seconds: float | None,
    reductions: Reductions,
    debug: bool,
    solution: bool,
    shortest: bool,
    walkthrough: bool,
    color: bool | None,
    layout: str | None,
    as_json: bool,
) -> None:
    """Decide whether SOURCE can be won: a deal number, a range N-M, or a position file (- for standard input).

    Prints the verdict (won / lost / unknown) with nodes and seconds per deal and mode, and a
    summary line when there is more than one. The seconds are the search's own: loading the
    compiled solver is done (and on a first run, compiling it is announced) before the first solve.
    """
    from ..analysis.walkthrough import render_walkthrough
    from ..solver.search import solve, solve_shortest

    if walkthrough and as_json:
        raise UserError("--walkthrough prints text: give --walkthrough or --json, not both")
    if not walkthrough:
        refuse_given(["layout", "color"], "--walkthrough")
    if shortest:
        refuse_given(["debug"], "a solve without --shortest (the shortest search has no debug checks)")
    if as_json:
        refuse_given(["solution"], "text output (--json holds the solution in its 'solution' field)")
    rule_list = rules or (None,)
    limits = Limits(nodes=nodes, memory_mb=memory_mb, seconds=seconds)
    use_color = sys.stdout.isatty() if color is None else color
    targets = parse_targets(source)
    loaded = load_solver_announced("solve --shortest" if shortest else "solve", rules)
    tally: dict[str, dict[str, int]] = {}
    solves = total_nodes = 0
    total_seconds = 0.0
    for target in targets:
        for chosen in rule_list:
            position, used_rules, number = load_start(target, chosen)
            if shortest:
                result = solve_shortest(position, used_rules, limits, reductions)
            else:
                result = solve(position, used_rules, limits, debug=debug, reductions=reductions)
            result.deal = number
            counts = tally.setdefault(used_rules.name, {WON: 0, LOST: 0, UNKNOWN: 0})
            counts[result.status] += 1
            solves += 1
            total_nodes += result.nodes
            total_seconds += result.seconds
            label = f"deal {number}" if number is not None else "standard input" if target == "-" else target
            if as_json:
                echo_json(solve_json(result, target, number))
            else:
                extra = f", {counted(result.solution_length, 'move')}" if result.status == WON else ""
                if result.shortest:
                    extra += ", minimum proved" if result.shortest == "proved" else ", shortest found (not proved)"
                why = f" (stopped by the {result.stopped_by} limit)" if result.stopped_by else ""
                click.echo(
                    f"{label} {used_rules.name}: {result.status}{why} "
                    f"[{counted(result.nodes, 'node')}, {result.seconds:.3f} s{extra}]"
                )
                if solution and result.status == WON:
                    click.echo(result.solution)
            if walkthrough and result.status == WON and not as_json:
                click.echo(
                    render_walkthrough(
                        position, list(result.line), used_rules, color=use_color, layout=layout or "rows"
                    ),
                    color=use_color,
                )
    if solves > 1 and not as_json:
        click.echo(summary_line(tally, solves, total_nodes, total_seconds, *loaded))


def summary_line(tally: dict, solves: int, nodes: int, seconds: float, load_seconds: float, compiled: int) -> str:
    per_mode = "; ".join(f"{m}: {c[WON]:,} won, {c[LOST]:,} lost, {c[UNKNOWN]:,} unknown" for m, c in tally.items())
    load = f"; {load_text(load_seconds, compiled)} before" if compiled or load_seconds >= 0.005 else ""
    return f"{counted(solves, 'solve')}: {per_mode} [{counted(nodes, 'node')}, {seconds:.3f} s searching{load}]"
