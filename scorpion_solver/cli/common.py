"""What every ``scorpion`` command shares: errors, the option sets, reading inputs, the recorded command.

Other commands build on these helpers; each is general and keeps one rule:

* **Errors.** Every user mistake (bad deal number, malformed position,
  illegal move, bad option value, an unwritable folder) ends as one line on
  stderr and exit status 2, never a traceback: commands raise
  :class:`UserError` (or a ``ValueError`` such as ``PositionError`` or
  ``MoveError``) and :func:`user_errors` reports it; an ``OSError`` or a
  ``MemoryError`` that escapes is reported the same way.
* **Rules presets.** :func:`rules_options` adds ``--mode`` and its alias
  ``--rules`` to a command and hands it ``rules``, resolved by
  :func:`resolve_rules`: one preset (or None), or for a command that takes
  several (``several=True``) a tuple from a comma list or ``both`` (clear
  and classic). Giving ``--mode`` and ``--rules`` with different names is
  refused.
* **Budgets.** :func:`budget_options` adds ``--nodes``, ``--memory`` and
  ``--time`` with one set of types (:data:`NODES`, :data:`MEGABYTES`,
  :data:`SECONDS`): whole numbers the batch's int64 columns can hold,
  finite positive seconds (``nan`` and ``inf`` are refused, they are not
  JSON).
* **Inputs.** :func:`load_start` reads a SOURCE (a deal number, a position
  file, ``-`` for standard input, text or the JSON of ``deal --json``);
  :func:`moves_options` adds ``--moves`` / ``--moves-file`` and hands the
  command ``moves``, read by the one move reader :func:`moves_from`.
* **Runs.** :func:`recorded_command` is the command line as typed (a results
  folder or a page states it); :func:`interruptible` ends a resumable run on
  Ctrl-C or SIGTERM alike, keeping what is finished.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import json
import math
import os
import shlex
import signal
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Callable, Sequence

import click
from click.core import ParameterSource

from ..analysis.sources import is_deal_number, load_blind_start, load_start, load_view
from ..batch import Interrupted
from ..batch.folder import finished_chunks
from ..game.engine import Move, read_moves
from ..game.rules import MODES, PRESETS, Rules, get_rules
from ..game.text_input import read_text, visible
from ..solver.reductions import PRESETS as REDUCTION_PRESETS
from ..solver.reductions import get_reductions
from ..solver.result import DEFAULT_MEMORY_MB, DEFAULT_NODES

INT64_MAX = 2**63 - 1
MAX_MEMORY_MB = 1 << 24  # 16 TB: any table beyond is refused by the machine anyway

__all__ = [
    "UserError",
    "budget_options",
    "interruptible",
    "is_deal_number",
    "load_blind_start",
    "load_solver_announced",
    "load_start",
    "load_view",
    "moves_from",
    "moves_options",
    "recorded_command",
    "reductions_options",
    "run_options",
    "shown_option",
    "backend_maker",
    "resolve_rules",
    "rules_options",
    "user_errors",
]


class UserError(Exception):
    """A mistake in the user's input: reported as one line, exit status 2."""


def fail(message: str, status: int = 2) -> None:
    """Print one ``error:`` line on stderr and exit (status 2 unless told).

    Control and invisible characters (a user's text quoted in the message)
    are shown as escapes, so the message is one visible line.
    """
    click.echo(f"error: {visible(message)}", err=True)
    sys.exit(status)


def quiet_broken_pipe() -> None:
    """The reader of our output went away (``scorpion solve 1-5 | head -1``): stop quietly, as a pipe should.

    Standard output is pointed at the null device first, so that the
    interpreter's last flush at exit cannot fail again; the status is the
    one a process killed by SIGPIPE has.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file behind sys.stdout (a test runner's capture)
        pass
    sys.exit(128 + 13)  # SIGPIPE


def user_errors(func):
    """Turn user mistakes (and system refusals) into one line on stderr and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except BrokenPipeError:
            quiet_broken_pipe()
        except (UserError, ValueError) as exc:  # PositionError, MoveError and SourceError are ValueErrors
            fail(str(exc))
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            fail(f"{where}{exc.strerror or exc}")
        except MemoryError:
            fail("the machine refused the memory this needs (give a smaller --memory or free memory)")

    return wrapper


def refuse_given(names: Sequence[str], needs: str) -> None:
    """Refuse the first option of ``names`` (parameter names) that the command line gave: it is an option of ``needs``.

    An option that would be silently ignored (``hint --samples`` without
    ``--fair``) is a mistake, said in one line, rather than a default
    changed for nothing; an option left at its default is not "given".
    """
    ctx = click.get_current_context()
    for param in ctx.command.params:
        if param.name in names and ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE:
            # a --x/--no-x switch is named as typed: --no-progress is not --progress
            off = getattr(param, "secondary_opts", None) and ctx.params.get(param.name) is False
            raise UserError(f"{(param.secondary_opts if off else param.opts)[0]} is an option of {needs}")


def _options(func, options: Sequence) -> Callable:
    """Apply click options so that they are listed in the order given."""
    for option in reversed(options):
        func = option(func)
    return func


def shown_option(flag: str, type_, default, help_text: str, *names: str, **extra):
    """An option whose default is shown in the help (the common case of a count or a choice)."""
    return click.option(flag, *names, type=type_, default=default, show_default=True, help=help_text, **extra)


# ---------------------------------------------------------------------------
# the command line as typed

_ARGUMENTS: contextvars.ContextVar[tuple[str, ...] | None] = contextvars.ContextVar("scorpion_arguments", default=None)


def remember_arguments(args: Sequence[str] | None) -> contextvars.Token:
    """Keep the arguments ``scorpion`` was started with (``main`` calls this), for :func:`recorded_command`."""
    return _ARGUMENTS.set(None if args is None else tuple(str(a) for a in args))


def recorded_command() -> str:
    """The command as typed (``scorpion`` and its arguments, quoted for a shell): what a folder or a page records."""
    args = _ARGUMENTS.get()
    return shlex.join(["scorpion", *(sys.argv[1:] if args is None else args)])


# ---------------------------------------------------------------------------
# budgets


class FiniteSeconds(click.ParamType):
    """A positive, finite number of seconds (``nan`` and ``inf`` are not limits, nor JSON)."""

    name = "SECONDS"

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            number = value
        else:
            try:
                number = float(value)
            except (TypeError, ValueError):
                self.fail(f"'{value}' is not a number of seconds", param, ctx)
        if not math.isfinite(number) or number <= 0:
            self.fail(f"'{value}' is not a positive, finite number of seconds", param, ctx)
        return number


NODES = click.IntRange(1, INT64_MAX)
# How exact a node budget is (docs/rules.md, "what a node is"): the end of every --nodes help.
NODES_GRANULARITY = (
    "Checked before each expansion: a solve it stops may count up to one position's new children past it "
    "(fewer than 256, the same count on any machine)."
)
MEGABYTES = click.IntRange(1, MAX_MEMORY_MB)
SECONDS = FiniteSeconds()


def budget_options(
    nodes: int | None = DEFAULT_NODES,
    memory: int | None = DEFAULT_MEMORY_MB,
    nodes_help: str = "Node budget per solve (counted inside the kernel).",
    memory_help: str = "Transposition table budget per solve, MB.",
    time_help: str = "Wall-clock limit per solve, seconds.",
):
    """``--nodes``, ``--memory`` and ``--time``: the command receives ``nodes``, ``memory_mb`` and ``seconds``.

    A default of None means the command decides (its help then says what);
    a number is shown as the default.
    """
    return functools.partial(
        _options,
        options=[
            click.option(
                "--nodes",
                type=NODES,
                default=nodes,
                show_default=nodes is not None,
                help=f"{nodes_help} {NODES_GRANULARITY}",
            ),
            click.option(
                "--memory",
                "memory_mb",
                type=MEGABYTES,
                default=memory,
                show_default=memory is not None,
                help=memory_help,
            ),
            click.option("--time", "seconds", type=SECONDS, default=None, help=time_help),
        ],
    )


# ---------------------------------------------------------------------------
# search reductions

# The switch that turns each reduction off (a reduction without one is set through a --reductions preset).
REDUCTION_SWITCHES = {
    "prune": ("--no-prune", "Switch off deadlock pruning (slower; same verdicts)"),
    "safe_leads": ("--no-safe-leads", "Switch off the safe-leads cut (more nodes; same verdicts)"),
    "successor_above": (
        "--no-successor-above",
        "Switch off the deadlock test's successor-above rule (more nodes; same verdicts)",
    ),
}


def reductions_options(switches: Sequence[str] = tuple(REDUCTION_SWITCHES), note: str = ""):
    """``--reductions PRESET`` and the ``--no-...`` switch of each reduction in ``switches``.

    The command receives ``reductions``: the preset (``full`` unless given)
    with the switched-off reductions off. ``note`` ends each switch's help
    (instead of a full stop).
    """

    def decorate(func):
        @functools.wraps(func)
        def resolved(*args, reductions_name: str, **kwargs):
            chosen = get_reductions(reductions_name)
            off = {name: False for name in switches if kwargs.pop(f"no_{name}")}
            return func(*args, reductions=dataclasses.replace(chosen, **off), **kwargs)

        options = [
            click.option(
                "--reductions",
                "reductions_name",
                type=click.Choice(list(REDUCTION_PRESETS)),
                default="full",
                show_default=True,
                help="The search's sound cuts, a named set (scorpion_solver/solver/reductions.py); "
                "the --no-... switches turn single ones off.",
            )
        ]
        for name in switches:
            flag, help_text = REDUCTION_SWITCHES[name]
            options.append(click.option(flag, f"no_{name}", is_flag=True, help=help_text + (note or ".")))
        return _options(resolved, options)

    return decorate


def reduction_switches(names: Sequence[str]) -> str:
    """The switches that turn these reductions off, as a command line would give them."""
    return " ".join(REDUCTION_SWITCHES[name][0] for name in names)


# ---------------------------------------------------------------------------
# rules presets

PRESET_NAMES = ", ".join(PRESETS)


def rules_options(several: bool = False, default_text: str = "clear", help_text: str | None = None):
    """``--mode NAME`` and its alias ``--rules NAME``; the command receives ``rules``, read by :func:`resolve_rules`.

    ``rules`` is one preset or None (neither option given); with ``several``
    (the command works in several presets at once: a comma list and ``both``
    are accepted) a tuple of presets or None.
    """
    what = (
        f"Rules preset(s): a comma list of {PRESET_NAMES}, or both (= clear,classic)"
        if several
        else f"Rules preset: one of {PRESET_NAMES}"
    )
    help_text = help_text or f"{what} [default: {default_text}]."

    def decorate(func):
        @functools.wraps(func)
        def resolved(*args, mode: str | None, rules_name: str | None, **kwargs):
            found = resolve_rules(mode, rules_name, several)
            refuse_without_kernel(found or (), kwargs.get("engine"))
            return func(*args, rules=found if several or found is None else found[0], **kwargs)

        return _options(
            user_errors(resolved),
            [
                click.option(
                    "--mode", "mode", metavar="NAME" + (",..." if several else ""), default=None, help=help_text
                ),
                click.option("--rules", "rules_name", metavar="NAME", default=None, help="Same as --mode."),
            ],
        )

    return decorate


# the commands that play the ten-column games (issue 53): plain Python, or the kernel's wide layout
TEN_COLUMN_COMMANDS = ("deal", "replay", "perft", "solve", "batch", "stats", "hint")


def refuse_without_kernel(presets, engine: str | None = None) -> None:
    """UserError for a ten-column preset (the relatives of issue 53) in a command that does not play them yet:
    deal, replay, perft, solve (not --shortest), batch and stats do; the hints, players and the game's
    analyses are one-deck arguments (the deadlock test, the no-peek views) not yet redone for them."""
    context = click.get_current_context(silent=True)
    command = context.info_name if context is not None else None
    if command in TEN_COLUMN_COMMANDS:
        return
    for rules in presets:
        if not rules.is_scorpion_shape:
            raise UserError(
                f"--mode {rules.name}: `scorpion {command}` does not play {rules.name} yet; "
                f"{', '.join(TEN_COLUMN_COMMANDS)} do"
            )


def resolve_rules(mode: str | None, rules_name: str | None, several: bool = False) -> tuple[Rules, ...] | None:
    """The presets ``--mode`` / ``--rules`` name, in the order given; None when neither is given.

    One preset unless ``several``; then a comma list or ``both``. UserError
    for an unknown name, a list where one is expected, or two options that
    disagree.
    """
    given = [(option, value) for option, value in (("--mode", mode), ("--rules", rules_name)) if value is not None]
    if not given:
        return None
    parsed = [(option, value, _preset_names(option, value)) for option, value in given]
    if len(parsed) == 2 and parsed[0][2] != parsed[1][2]:
        raise UserError(
            f"--mode {parsed[0][1]} and --rules {parsed[1][1]} name different rules; give one of them "
            "(--rules is another name for --mode)"
        )
    option, value, names = parsed[0]
    if len(names) > 1 and not several:
        raise UserError(
            f"{option} {value}: this command takes one rules preset ({PRESET_NAMES}); solve and batch take several"
        )
    return tuple(get_rules(name) for name in names)


def _preset_names(option: str, value: str) -> tuple[str, ...]:
    names: list[str] = []
    for token in value.split(","):
        token = token.strip().lower()
        if not token:
            raise UserError(f"{option} '{value}': an empty name in the list")
        expanded = MODES if token == "both" else (token,)
        for name in expanded:
            if name not in PRESETS:
                raise UserError(f"{option}: unknown rules '{token}' (known: {PRESET_NAMES}, or both)")
            if name not in names:
                names.append(name)
    return tuple(names)


# ---------------------------------------------------------------------------
# moves


def moves_options(
    required: bool = False,
    moves_help: str = "Moves to play first, e.g. '9H:6>1 tail' (quoted).",
    file_help: str = "Read the moves from FILE (- for standard input).",
):
    """``--moves MOVES`` and ``--moves-file FILE``; the command receives ``moves`` (a list of ``Move``).

    Read by :func:`moves_from`; the command's SOURCE and the moves cannot
    both come from standard input.
    """

    def decorate(func):
        @functools.wraps(func)
        def read(*args, moves_text: str | None, moves_file: str | None, **kwargs):
            return func(*args, moves=moves_from(moves_text, moves_file, required, kwargs.get("source")), **kwargs)

        return _options(
            user_errors(read),
            [
                click.option("--moves", "moves_text", metavar="MOVES", default=None, help=moves_help),
                click.option("--moves-file", metavar="FILE", default=None, help=file_help),
            ],
        )

    return decorate


def moves_from(
    command_line: str | None, moves_file: str | None, required: bool = True, source: str | None = None
) -> list[Move]:
    """The moves of a record given on the command line or in a file (``-``: standard input).

    Both at once are refused (which would be played?); neither is refused
    when ``required``, else it is no move at all. ``source``: the position's
    SOURCE, which cannot be standard input too.
    """
    if source == "-" and moves_file == "-":
        raise UserError("the position and the moves cannot both come from standard input")
    if command_line is not None and moves_file is not None:
        raise UserError("give the moves on the command line or with --moves-file, not both")
    if moves_file is not None:
        return read_moves(read_text(moves_file), source=moves_file)
    if command_line is None:
        if required:
            raise UserError("give the moves played with --moves MOVES or --moves-file FILE (one of them)")
        return []
    return read_moves(command_line)


# ---------------------------------------------------------------------------
# resumable runs


def run_options(func):
    """Where and how a resumable run (``batch``, ``play``) goes: its folder, chunking, workers and progress bar."""
    return _options(
        func,
        [
            click.option(
                "--workers",
                type=click.IntRange(1, 4096),
                default=None,
                help="Local worker processes [default: all cores].",
            ),
            click.option(
                "--scheduler",
                metavar="ADDRESS",
                default=None,
                help="Run on a running Dask scheduler, e.g. tcp://HOST:8786 (needs scorpion-solver[dask]).",
            ),
            click.option(
                "--dask-local",
                type=click.IntRange(1),
                default=None,
                metavar="N",
                help="Run on a local Dask cluster of N worker processes (needs scorpion-solver[dask]).",
            ),
            click.option(
                "--progress/--no-progress",
                default=None,
                help="Show the progress bar [default: when stderr is a terminal].",
            ),
        ],
    )


def backend_maker(workers: int | None, scheduler: str | None, dask_local: int | None) -> Callable:
    """What makes the run's backend (made by the run once it knows it has work), as ``run_options`` chose it."""
    from ..batch import BatchError, make_backend

    if scheduler and dask_local:
        raise BatchError("give --scheduler or --dask-local, not both")
    if (scheduler or dask_local) and workers is not None:
        raise BatchError("--workers is for local processes; a Dask cluster has its own workers")
    return functools.partial(make_backend, workers=workers, scheduler=scheduler, dask_local=dask_local)


def interruptible(operation: Callable, folder: Path, kind: str = "results"):
    """Run ``operation()`` (a resumable run into ``folder``, a ``kind`` folder) so that Ctrl-C and SIGTERM end
    it alike, and a folder that cannot be written, or a worker that died, is one line.

    Either signal stops it cleanly (the run's record says which,
    ``interrupted``), prints how many finished chunks the folder keeps and
    exits 130 (Ctrl-C) or 143 (SIGTERM); rerunning the same command finishes
    the rest. A write that fails is one ``error:`` line (exit 2) naming the
    folder once and what it keeps; a worker process that died, one line and
    exit 1.
    """

    def terminate(signum, frame) -> None:
        raise Interrupted(signal.Signals(signum).name)

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        return operation()
    except KeyboardInterrupt as exc:
        name = getattr(exc, "signal_name", "SIGINT")
        click.echo(
            f"\ninterrupted: {kept_chunks(folder)}; rerun the same command to finish the rest"
            + ("" if name == "SIGINT" else f" (stopped by {name})"),
            err=True,
        )
        sys.exit(130 if name == "SIGINT" else 128 + signal.SIGTERM)
    except OSError as exc:
        fail(write_failure(exc, folder, kind))
    except BrokenProcessPool as exc:
        fail(f"a worker process died ({exc}); {kept_chunks(folder)}; rerun the same command to finish the rest", 1)
    finally:
        signal.signal(signal.SIGTERM, previous)


def kept_chunks(folder: Path, named: bool = True) -> str:
    """What a stopped run leaves in ``folder``, said as it is: 'the 3 finished chunks in out are kept', or that
    none was finished (without the folder's name when ``named`` is false: a message that names it already)."""
    try:
        count = len(finished_chunks(folder))
    except OSError:  # a folder that cannot even be listed keeps nothing this run can count on
        count = 0
    if count == 0:
        return f"no chunk{f' in {folder}' if named else ''} was finished, so none is kept"
    where = f"in {folder}" if named else "in it"
    return f"the {counted(count, 'finished chunk')} {where} {'is' if count == 1 else 'are'} kept"


def write_failure(exc: OSError, folder: Path, kind: str) -> str:
    """One line for a write that failed during a run into ``folder``: the folder named once, the file inside it
    (or outside it, as numba's compile cache beside the package) when another, the system's reason, what is kept."""
    reason = exc.strerror or str(exc)
    where = Path(exc.filename) if exc.filename else folder
    if not where.resolve().is_relative_to(folder.resolve()):
        return (
            f"cannot write {where}: {reason} (outside the {kind} folder {folder}: {kept_chunks(folder, False)}): "
            "fix this and rerun the same command"
        )
    inside = "" if where.resolve() == folder.resolve() else f" ({where.resolve().relative_to(folder.resolve())})"
    return (
        f"cannot write the {kind} folder {folder}{inside}: {reason}; {kept_chunks(folder, False)}: "
        "fix this and rerun the same command"
    )


def counted(n: int, noun: str) -> str:
    """A count as text: ``counted(1, "move")`` is '1 move', ``counted(12345, "node")`` '12,345 nodes'."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def echo_json(data, indent: int | None = None) -> None:
    """One JSON value (on one line unless ``indent``); NaN or infinity would not be JSON, so they are refused."""
    click.echo(json.dumps(data, allow_nan=False, indent=indent))


def notify_loading(message: str) -> None:
    """Where loading (or compiling) the solver is announced: standard error, so the output stays clean."""
    click.echo(message, err=True)


def load_solver_announced(command: str) -> tuple[float, int]:
    """Load the solver's kernels that ``command`` calls before any clock starts: (seconds, kernels compiled).

    ``command`` names an entry of ``solver.compiling.COMMAND_JOBS``. A first
    run's compile is announced on standard error, with a bar that counts the
    kernels on a terminal (``solver.compiling``); so is a job loaded later.
    """
    from ..solver.compiling import COMMAND_JOBS, compile_bar, kernels_of, missing
    from ..solver.search import load_solver

    jobs = COMMAND_JOBS[command]
    compiled = len(missing(kernels_of(jobs)))
    return load_solver(notify=notify_loading, progress=compile_bar(), jobs=jobs), compiled


def after_loading(report) -> str:
    """The end of a run's summary: the time it spent making the solver ready before its work (a run report's)."""
    if not report.compiled and report.load_seconds < 0.05:
        return ""
    return f", after {load_text(report.load_seconds, report.compiled)}"


def load_text(seconds: float, compiled: int) -> str:
    """How the solver was made ready, for a summary that keeps it apart from the work's own time."""
    if compiled:
        return f"{seconds:.1f} s compiling the solver ({counted(compiled, 'kernel')}; first run only)"
    return f"{seconds:.2f} s loading the solver"
