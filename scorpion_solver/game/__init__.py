"""The game as data: cards, rules presets, deals, positions and their text, the reference engine.

Nothing here is compiled: ``engine`` is the plain-Python reference engine,
the oracle every faster part of the project is tested against.
"""

from .deal import deal
from .engine import Move, MoveError, apply_move, is_lost, is_won, legal_moves, parse_moves, perft, replay
from .position import Position
from .position_text import PositionError, format_position, parse_position
from .rules import CLASSIC, CLEAR, MODES, PRESETS, Rules, get_rules

__all__ = [
    "CLASSIC",
    "CLEAR",
    "MODES",
    "PRESETS",
    "Move",
    "MoveError",
    "Position",
    "PositionError",
    "Rules",
    "apply_move",
    "deal",
    "format_position",
    "get_rules",
    "is_lost",
    "is_won",
    "legal_moves",
    "parse_moves",
    "parse_position",
    "perft",
    "replay",
]
