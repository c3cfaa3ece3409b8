"""What every numba patch checks before it applies: that numba's code is the code it was written against,
and that no one turned it off (solver/numba_patches.py lists the patches)."""

from __future__ import annotations

import inspect
import os


def written_against(function, marks: tuple[str, ...]) -> bool:
    """Whether ``function`` (or, once patched, the function it wraps) has every line of ``marks`` in its source."""
    function = getattr(function, "__wrapped__", function)
    if function is None:
        return False
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        return False
    return all(mark in source for mark in marks)


def turned_off(variable: str) -> bool:
    """Whether the environment variable ``variable`` asks for numba's own way (set, and not to 0)."""
    return os.environ.get(variable, "") not in ("", "0")
