"""scorpion-solver: an exact solver and research tool for Scorpion Solitaire.

The package is layered; each layer imports only from the layers below it
(checked by the import-linter contract in ``pyproject.toml``)::

    cli                         the ``scorpion`` command
    batch | page                resumable parallel batches, statistics | pages of the game (HTML)
    analysis                    hints, game analysis, walkthroughs
    solver                      the jitted kernel and the validated ``solve``
    game                        cards, rules, deals, positions, the reference engine

The public API is re-exported here. ``solve`` (and what uses it) loads numba
on first use, not on ``import scorpion_solver``.
"""

__version__ = "0.1.0"

from .analysis import GameAnalysis, HintReport, analyze, hint  # noqa: E402
from .game import (  # noqa: E402
    CLASSIC,
    CLEAR,
    MODES,
    PRESETS,
    Move,
    MoveError,
    Position,
    PositionError,
    Rules,
    apply_move,
    deal,
    format_position,
    get_rules,
    is_lost,
    is_won,
    legal_moves,
    parse_moves,
    parse_position,
    perft,
    replay,
)
from .solver import LOST, UNKNOWN, WON, Limits, SolveResult  # noqa: E402

__all__ = [
    "CLASSIC",
    "CLEAR",
    "LOST",
    "MODES",
    "PRESETS",
    "UNKNOWN",
    "WON",
    "GameAnalysis",
    "HintReport",
    "Limits",
    "Move",
    "MoveError",
    "Position",
    "PositionError",
    "Rules",
    "SolveResult",
    "analyze",
    "apply_move",
    "deal",
    "format_position",
    "get_rules",
    "hint",
    "is_lost",
    "is_won",
    "legal_moves",
    "parse_moves",
    "parse_position",
    "perft",
    "replay",
    "solve",
]


def __getattr__(name: str):
    if name == "solve":
        from .solver.search import solve

        return solve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
