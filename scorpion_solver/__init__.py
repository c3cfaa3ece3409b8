"""scorpion-solver: an exact solver and research tool for Scorpion Solitaire.

The package is layered; each layer imports only from the layers below it
(checked by the import-linter contract in ``pyproject.toml``)::

    cli                         the ``scorpion`` command
    batch | page                resumable parallel batches, statistics | pages of the game (HTML)
    analysis | play             hints, game analysis, walkthroughs | policies that cannot peek, fair hints
    solver                      the jitted kernel and the validated ``solve``
    game                        cards, rules, deals, positions, the reference engine

The public API is re-exported here. ``solve`` (and what uses it) loads numba
on first use, not on ``import scorpion_solver``.
"""

__version__ = "0.1.0"

from . import solver  # noqa: E402
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
from .game.view import Observation, sample_positions  # noqa: E402
from .game.view_text import format_view, parse_view  # noqa: E402
from .play import make_policy, play_game  # noqa: E402
from .play.fair import fair_hint  # noqa: E402
from .solver import LOST, UNKNOWN, WON, Limits, Reductions, SolveResult  # noqa: E402

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
    "Observation",
    "Position",
    "PositionError",
    "Reductions",
    "Rules",
    "SolveResult",
    "analyze",
    "apply_move",
    "deal",
    "fair_hint",
    "format_position",
    "format_view",
    "get_rules",
    "hint",
    "is_lost",
    "is_won",
    "legal_moves",
    "make_policy",
    "parse_moves",
    "parse_position",
    "parse_view",
    "perft",
    "play_game",
    "replay",
    "sample_positions",
    "solve",
]


def __getattr__(name: str):
    if name == "solve":  # lazily, as ``solver`` does: the search loads numba
        return solver.solve
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
