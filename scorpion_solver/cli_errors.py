"""How the command line reports user mistakes: one line on stderr, exit status 2.

Shared by every module that defines ``scorpion`` commands, so none of them
needs to import ``cli`` (which imports them).
"""

from __future__ import annotations

import functools
import sys

import click

from .engine import MoveError
from .position_text import PositionError


class UserError(Exception):
    """A mistake in the user's input: reported as one line, exit status 2."""


def user_errors(func):
    """Turn user mistakes into one line on stderr and exit status 2."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (UserError, PositionError, MoveError, ValueError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper
