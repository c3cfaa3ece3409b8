"""The ``scorpion`` command: a thin layer over the Python API.

Every user mistake (bad deal number, malformed position, illegal move, bad
option value) ends as one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
import sys

import click

from .cli_errors import UserError, user_errors
from .deal import check_deal_number, deal
from .engine import is_lost, is_won, parse_moves, perft, perft_divide, replay_positions, move_text
from .position import Position
from .position_text import format_position, position_json, read_position_file
from .result import DEFAULT_MEMORY_MB, DEFAULT_NODES, Limits
from .rules import MODES, PRESETS, Rules, get_rules


def rules_from(mode: str | None, rules_name: str | None = None) -> Rules | None:
    name = rules_name or mode
    return get_rules(name) if name else None


def load_start(source: str, rules: Rules | None) -> tuple[Position, Rules, int | None]:
    """A deal number or a position file; returns (position, rules, deal number or None)."""
    text = source.strip()
    if text.lstrip("-").isdigit():
        number = check_deal_number(int(text))
        rules = rules or get_rules("clear")
        return deal(number, rules), rules, number
    parsed = read_position_file(source, rules)
    return parsed.position, parsed.rules, None


MODE_OPTION = click.option(
    "--mode", "mode", type=click.Choice(sorted(PRESETS), case_sensitive=False), default=None,
    help="Rules: clear (default) or classic, or a relative (wasp, scorpion2, goodsol).",
)
RULES_OPTION = click.option(
    "--rules", "rules_name", type=click.Choice(sorted(PRESETS), case_sensitive=False), default=None,
    help="Same as --mode (for the relatives).",
)


class OneLineErrors(click.Group):
    """A click group whose usage errors (bad option value, unknown option) are one line, exit 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as exc:
            where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"error: {exc.format_message()}{where}", err=True)
            sys.exit(2)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="scorpion-solver")
def main() -> None:
    """Scorpion Solitaire: deals, rules engine, exact solver and statistics.

    Deal numbers are PySolFC game numbers: deal N here is Scorpion game N in PySolFC.
    """


@main.command("deal", context_settings={"ignore_unknown_options": True})
@click.argument("number", type=str)
@MODE_OPTION
@RULES_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of the position text.")
@user_errors
def deal_command(number: str, mode: str | None, rules_name: str | None, as_json: bool) -> None:
    """Print the starting position of deal NUMBER (a PySolFC game number)."""
    if not number.lstrip("-").isdigit():
        raise UserError(f"'{number}' is not a deal number (a whole number, 1 or more)")
    rules = rules_from(mode, rules_name) or get_rules("clear")
    position = deal(check_deal_number(int(number)), rules)
    if as_json:
        click.echo(position_json(position, rules))
    else:
        click.echo(format_position(position, rules), nl=False)


@main.command("perft")
@click.argument("source")
@click.option("--depth", "-d", type=click.IntRange(0, 12), required=True, help="Count sequences up to this many moves.")
@MODE_OPTION
@RULES_OPTION
@click.option("--divide", is_flag=True, help="Also print the count at the full depth per first move.")
@click.option("--engine", type=click.Choice(["jit", "reference"]), default="jit", show_default=True,
              help="The jitted kernel or the plain-Python reference engine.")
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
    from .search import jit_perft

    return jit_perft


@main.command("replay")
@click.argument("source")
@click.argument("moves", nargs=-1)
@click.option("--moves-file", type=click.Path(dir_okay=False), help="Read the moves from a file instead.")
@MODE_OPTION
@RULES_OPTION
@user_errors
def replay_command(source: str, moves: tuple[str, ...], moves_file: str | None, mode: str | None,
                   rules_name: str | None) -> None:
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


@main.command("solve")
@click.argument("source")
@click.option("--mode", "--rules", "mode", default=None,
              help="clear (default for deals), classic, both, or a relative (wasp, scorpion2, goodsol); "
                   "a position file's own mode line is used when omitted.")
@click.option("--nodes", type=click.IntRange(min=1), default=DEFAULT_NODES, show_default=True,
              help="Node budget per deal and mode (counted inside the kernel).")
@click.option("--memory", "memory_mb", type=click.IntRange(min=1), default=DEFAULT_MEMORY_MB, show_default=True,
              help="Transposition table budget in MB.")
@click.option("--time", "seconds", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Wall-clock limit in seconds per deal and mode.")
@click.option("--no-prune", is_flag=True, help="Switch off deadlock pruning (slower; same verdicts).")
@click.option("--debug", is_flag=True, help="Check the compact state from scratch at the root and along the solution.")
@click.option("--solution", is_flag=True, help="Print the winning move list.")
@click.option("--walkthrough", is_flag=True, help="Print the position after every move of the solution.")
@click.option("--color/--no-color", default=None, help="Suit colours in the walkthrough (default: when a terminal).")
@click.option("--layout", type=click.Choice(["rows", "columns"]), default="rows", show_default=True,
              help="Walkthrough layout: one line per column, or the columns side by side.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per deal and mode.")
@user_errors
def solve_command(source: str, mode: str | None, nodes: int, memory_mb: int, seconds: float | None, no_prune: bool,
                  debug: bool, solution: bool, walkthrough: bool, color: bool | None, layout: str, as_json: bool) -> None:
    """Decide whether SOURCE can be won: a deal number, a range N-M, or a position file.

    Prints the verdict (won / lost / unknown) with nodes and seconds per deal and mode.
    """
    from .search import solve
    from .walkthrough import render_walkthrough

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
            result = solve(position, used_rules, limits, debug=debug)
            result.deal = number
            label = f"deal {number}" if number is not None else target
            if as_json:
                click.echo(json.dumps(result.as_row()))
            else:
                extra = f", {result.solution_length} moves" if result.status == "won" else ""
                why = f" (stopped by the {result.stopped_by} limit)" if result.stopped_by else ""
                click.echo(f"{label} {used_rules.name}: {result.status}{why} "
                           f"[{result.nodes} nodes, {result.seconds:.3f} s{extra}]")
                if solution and result.status == "won":
                    click.echo(result.solution)
            if walkthrough and result.status == "won" and not as_json:
                click.echo(render_walkthrough(position, parse_moves(result.solution), used_rules, color=use_color,
                                              layout=layout), color=use_color)



# Commands living in their own modules (they import this one, hence the end).
from .analysis_cli import analyze_command, hint_command  # noqa: E402
from .batch_cli import batch_command, stats_command  # noqa: E402

for _command in (batch_command, stats_command, hint_command, analyze_command):
    main.add_command(_command)


if __name__ == "__main__":  # pragma: no cover
    main()
