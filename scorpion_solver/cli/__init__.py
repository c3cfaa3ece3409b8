"""The ``scorpion`` command: a thin layer over the Python API, one module per command group.

* ``common``: error handling (one line, exit 2), the option sets every command shares
  (rules, budgets, moves, reductions, runs), the recorded command line, Ctrl-C and SIGTERM;
* ``game``: ``deal``, ``perft``, ``replay``;
* ``solve``: ``solve``;
* ``analysis``: ``hint``, ``analyze``;
* ``batch``: ``batch``, ``stats``;
* ``show``: ``show`` (a page of cards).
* ``play``: ``play``, ``deals``;
* ``serve``: ``serve`` (the game in a browser);
* ``dataset``: ``verify``, ``export``, ``publish`` (results/ as a published dataset).
"""

from __future__ import annotations

import re
import sys

import click

try:
    from click.exceptions import NoArgsIsHelpError
except ImportError:  # click before 8.2 prints the help itself
    NoArgsIsHelpError = ()

from ..game.deal import DEAL_NUMBER
from ..game.text_input import visible
from .analysis import analyze_command, hint_command
from .batch import batch_command, stats_command
from .common import UserError, load_start, quiet_broken_pipe, remember_arguments, resolve_rules, user_errors
from .dataset import export_command, publish_command, verify_command
from .game import deal_command, perft_command, replay_command
from .play import deals_command, play_command
from .serve import serve_command
from .show import show_command
from .solve import solve_command
from .studies import bound_command, losses_command, nopeek_command


class OneLineErrors(click.Group):
    """A click group whose usage errors (bad option value, unknown option) are one line, exit 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        remember_arguments(args)  # the command a folder or a page records (None: this process's own sys.argv)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            sys.stdout.flush()  # here, not at exit: a reader gone by now is a quiet stop, not a warning
        except NoArgsIsHelpError as exc:  # bare `scorpion`: the help is the answer, not an error
            click.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
            sys.exit(0)
        except BrokenPipeError:
            quiet_broken_pipe()
        except click.UsageError as exc:
            click.echo(f"error: {usage_message(exc)}", err=True)
            sys.exit(2)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(130)
        except click.ClickException as exc:
            click.echo(f"error: {visible(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def usage_message(exc: click.UsageError) -> str:
    """A usage error as one line; a negative number read as an option (``solve -1``) is told what a deal number is."""
    if isinstance(exc, click.NoSuchOption) and re.fullmatch(r"-[0-9][0-9-]*", exc.option_name):
        return f"'{exc.option_name}' is not a deal number ({DEAL_NUMBER})"
    where = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
    return f"{visible(exc.format_message())}{where}"


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="scorpion-solver")
def main() -> None:
    """Scorpion Solitaire: deals, rules engine, exact solver and statistics.

    Deal numbers are PySolFC game numbers: deal N here is Scorpion game N in PySolFC.
    Moves are written like '6C:5>2' (quote them: a shell reads > as a redirection).
    """


for _command in (
    deal_command,
    perft_command,
    replay_command,
    solve_command,
    batch_command,
    stats_command,
    hint_command,
    analyze_command,
    show_command,
    play_command,
    deals_command,
    serve_command,
    bound_command,
    losses_command,
    nopeek_command,
    verify_command,
    export_command,
    publish_command,
):
    main.add_command(_command)

__all__ = ["UserError", "load_start", "main", "resolve_rules", "user_errors"]


if __name__ == "__main__":  # pragma: no cover
    main()
