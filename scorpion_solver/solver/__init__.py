"""The exact solver: the jitted kernel, its validated front ``solve``, and their plain twins.

* ``kernel``: everything numba compiles (the only jitted module, for numba's cache);
* ``search``: ``solve(position, rules, limits) -> SolveResult``, which replays every win
  in the reference engine before returning it;
* ``deadlock`` and ``reference_search``: the plain-Python twins of the kernel's deadlock
  test and search;
* ``result``: the typed result record and the limits a search runs under;
* ``reductions``: the sound cuts a search makes, one value with named presets.

Importing this package does not load numba: ``solve`` is imported on first use.
"""

from .reductions import Reductions
from .result import DEFAULT_MEMORY_MB, DEFAULT_NODES, LOST, UNKNOWN, WON, Limits, SolveResult

__all__ = [
    "DEFAULT_MEMORY_MB",
    "DEFAULT_NODES",
    "LOST",
    "UNKNOWN",
    "WON",
    "Limits",
    "Reductions",
    "SolveResult",
    "solve",
]


def __getattr__(name: str):
    if name == "solve":
        from .search import solve

        return solve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
