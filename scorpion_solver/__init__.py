"""scorpion-solver: an exact solver and research tool for Scorpion Solitaire.

The public API, one module per concept:

* ``cards``, ``rules``, ``deal``, ``position``, ``position_text``: the game's data.
* ``engine``: the plain-Python reference rules engine (the oracle).
* ``kernel``: the jitted compact state, move generation and search.
* ``search``: ``solve(position, rules, limits) -> SolveResult``.
"""

from .deal import deal
from .engine import Move, apply_move, is_lost, is_won, legal_moves, parse_moves, perft, replay
from .position import Position
from .position_text import format_position, parse_position
from .result import Limits, SolveResult
from .rules import CLASSIC, CLEAR, PRESETS, Rules, get_rules

__version__ = "0.1.0"

__all__ = [
    "CLASSIC", "CLEAR", "PRESETS", "Limits", "Move", "Position", "Rules", "SolveResult",
    "apply_move", "deal", "format_position", "get_rules", "is_lost", "is_won", "legal_moves",
    "parse_moves", "parse_position", "perft", "replay",
]
