"""The exact solver: the jitted kernel, its validated front ``solve``, and their plain twins.

* ``kernel``: everything numba compiles for the search (jitted, for numba's cache), and
  ``deal_kernel``, the jitted deal generator;
* ``search``: the public front, ``solve(position, rules, limits) -> SolveResult`` (which
  replays every win in the reference engine before returning it), ``solve_deal``,
  ``screen_deals`` and ``solve_shortest``;
* ``compact``: a Position as the kernel's state vector and back, its checks, the rule flags;
* ``driver``: the one resumable loop over the kernel (slices, table and stack growth,
  node, time and memory stops) and every other call into it;
* ``lines``: a winning line decoded, cut of its detours, polished and checked;
* ``judge``: every legal move of a layout decided, the root solve's first move for free;
* plain-Python twins: ``search_twin`` (of ``kernel.search``), ``deadlock`` (of the
  kernel's deadlock section), ``shortest`` (of ``kernel.shortest_search`` and
  ``kernel.shorten_line``, with the argument for minimum length);
* ``result``: the typed result record and the limits (budgets) a search runs under;
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
