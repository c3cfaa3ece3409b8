"""What every ``scorpion`` command shares: error handling, the rules options, loading a start.

Every user mistake (bad deal number, malformed position, illegal move, bad
option value) ends as one line on stderr and exit status 2, never a
traceback: commands raise :class:`UserError` (or a ``ValueError`` such as
``PositionError`` or ``MoveError``) and :func:`user_errors` reports it.
"""

from __future__ import annotations

import functools
import sys

import click

from ..game.deal import check_deal_number, deal
from ..game.position import Position
from ..game.position_text import read_position_file
from ..game.rules import PRESETS, Rules, get_rules


class UserError(Exception):
    """A mistake in the user's input: reported as one line, exit status 2."""


def user_errors(func):
    """Turn user mistakes into one line on stderr and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (UserError, ValueError) as exc:  # PositionError and MoveError are ValueErrors
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper


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
    "--mode",
    "mode",
    type=click.Choice(sorted(PRESETS), case_sensitive=False),
    default=None,
    help="Rules: clear (default) or classic, or a relative (wasp, scorpion2, goodsol).",
)
RULES_OPTION = click.option(
    "--rules",
    "rules_name",
    type=click.Choice(sorted(PRESETS), case_sensitive=False),
    default=None,
    help="Same as --mode (for the relatives).",
)
