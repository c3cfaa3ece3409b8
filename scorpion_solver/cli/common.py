"""What every ``scorpion`` command shares: errors, the rules and budget options, reading inputs.

Other commands build on these helpers; each is general and keeps one rule:

* **Errors.** Every user mistake (bad deal number, malformed position,
  illegal move, bad option value, an unwritable folder) ends as one line on
  stderr and exit status 2, never a traceback: commands raise
  :class:`UserError` (or a ``ValueError`` such as ``PositionError`` or
  ``MoveError``) and :func:`user_errors` reports it; an ``OSError`` or a
  ``MemoryError`` that escapes is reported the same way.
* **Rules presets.** :func:`rules_options` adds ``--mode`` and its alias
  ``--rules`` to a command; :func:`resolve_rules` reads them: one preset
  name, or for a command that takes several (``several=True``) a comma list
  or ``both`` (clear and classic). Giving ``--mode`` and ``--rules`` with
  different names is refused.
* **Budgets.** :data:`NODES`, :data:`MEGABYTES` and :data:`SECONDS` are the
  click types of ``--nodes``, ``--memory`` and ``--time``: whole numbers the
  batch's int64 columns can hold, finite positive seconds (``nan`` and
  ``inf`` are refused, they are not JSON).
* **Inputs.** :func:`load_start` reads a SOURCE (a deal number, a position
  file, ``-`` for standard input, text or the JSON of ``deal --json``);
  :func:`moves_from` reads a move record given on the command line or in a
  file (one or the other, never both).
"""

from __future__ import annotations

import functools
import json
import math
import os
import sys
from typing import Sequence

import click

from ..game.deal import check_deal_number, deal
from ..game.engine import Move, read_moves, replay
from ..game.position import Position
from ..game.position_text import read_position_source
from ..game.rules import MODES, PRESETS, Rules, get_rules
from ..game.text_input import read_text, visible
from ..game.view import MissingReveal, Observation
from ..game.view_text import read_view_source

INT64_MAX = 2**63 - 1
MAX_MEMORY_MB = 1 << 24  # 16 TB: any table beyond is refused by the machine anyway


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
        except (UserError, ValueError) as exc:  # PositionError and MoveError are ValueErrors
            fail(str(exc))
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            fail(f"{where}{exc.strerror or exc}")
        except MemoryError:
            fail("the machine refused the memory this needs (give a smaller --memory or free memory)")

    return wrapper


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
MEGABYTES = click.IntRange(1, MAX_MEMORY_MB)
SECONDS = FiniteSeconds()


# ---------------------------------------------------------------------------
# rules presets

PRESET_NAMES = ", ".join(PRESETS)


def rules_options(several: bool = False, default_text: str = "clear"):
    """``--mode NAME`` and its alias ``--rules NAME`` (read them with :func:`resolve_rules`).

    ``several``: the command solves in several presets at once, so a comma
    list and ``both`` (clear and classic) are accepted.
    """
    what = (
        f"Rules preset(s): a comma list of {PRESET_NAMES}, or both (= clear,classic)"
        if several
        else f"Rules preset: one of {PRESET_NAMES}"
    )
    help_text = f"{what} [default: {default_text}]."

    def decorate(func):
        func = click.option("--rules", "rules_name", metavar="NAME", default=None, help="Same as --mode.")(func)
        return click.option(
            "--mode", "mode", metavar="NAME" + (",..." if several else ""), default=None, help=help_text
        )(func)

    return decorate


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


# The two options one by one, for commands written before rules_options (same names and checks).
MODE_OPTION = click.option("--mode", "mode", metavar="NAME", default=None, help=f"Rules preset: one of {PRESET_NAMES}.")
RULES_OPTION = click.option("--rules", "rules_name", metavar="NAME", default=None, help="Same as --mode.")


def one_rules(mode: str | None, rules_name: str | None) -> Rules | None:
    """The one preset ``--mode`` / ``--rules`` name, or None (see :func:`resolve_rules`)."""
    found = resolve_rules(mode, rules_name)
    return found[0] if found else None


def rules_from(mode: str | None, rules_name: str | None = None) -> Rules | None:
    """Kept for callers of the earlier API: same as :func:`one_rules`."""
    return one_rules(mode, rules_name)


# ---------------------------------------------------------------------------
# inputs


def is_deal_number(text: str) -> bool:
    digits = text.strip().lstrip("-")
    return digits.isascii() and digits.isdigit()


def load_start(source: str, rules: Rules | None) -> tuple[Position, Rules, int | None]:
    """A deal number, a position file (text or JSON) or ``-`` (standard input).

    Returns (position, rules, deal number or None). ``rules`` (if given)
    overrides a file's own ``mode``.
    """
    if is_deal_number(source):
        number = check_deal_number(int(source.strip()))
        rules = rules or get_rules("clear")
        return deal(number, rules), rules, number
    parsed = read_position_source(source, rules)
    return parsed.position, parsed.rules, None


def load_view(
    source: str, rules: Rules | None, moves: Sequence[Move] = (), revealed: Sequence[int] = ()
) -> tuple[Observation, Rules, int | None]:
    """What a player sees of SOURCE after ``moves``: (view, rules, deal number or None).

    A deal number is played with its true cards, and the view knows only the
    cards those moves turned up. A file (or ``-``) is read as every source is
    (:func:`~scorpion_solver.game.view_text.read_view_source`): a view with
    ``??``, or a position whose face-down and tail cards count as unseen; a
    move that turns up a card then needs that card in ``revealed`` (the order
    of ``Observation.advance``).
    """
    if is_deal_number(source):
        if revealed:
            raise UserError("--reveal is for a view typed by hand: a deal number knows the cards its moves turn up")
        position, rules, number = load_start(source, rules)
        return Observation.of(replay(position, moves, rules)), rules, number
    view, rules = read_view_source(source, rules)
    try:
        return view.advance(moves, revealed, rules), rules, None
    except MissingReveal as exc:
        raise UserError(f"{exc}: `scorpion replay VIEW MOVES --reveal CARD` takes the cards a move turns up") from None
    except ValueError as exc:
        raise UserError(str(exc)) from None


def moves_from(command_line: str | None, moves_file: str | None, required: bool = True) -> list[Move]:
    """The moves of a record given on the command line or in a file (``-``: standard input).

    Both at once are refused (which would be played?); neither is refused
    when ``required``, else it is no move at all.
    """
    if command_line is not None and moves_file is not None:
        raise UserError("give the moves on the command line or with --moves-file, not both")
    if moves_file is not None:
        return read_moves(read_text(moves_file), source=moves_file)
    if command_line is None:
        if required:
            raise UserError("give the moves played with --moves MOVES or --moves-file FILE (one of them)")
        return []
    return read_moves(command_line)


def echo_json(data, indent: int | None = None) -> None:
    """One JSON value (on one line unless ``indent``); NaN or infinity would not be JSON, so they are refused."""
    click.echo(json.dumps(data, allow_nan=False, indent=indent))
