"""Analysis for players, decided by the exact solver: hints, where a game was lost, walkthroughs.

* ``hints``: every legal move of a position with its verdict;
* ``game_record``: the fatal move of a game record, found by bisection;
* ``walkthrough``: the position after every move of a line, as text.
"""

from .game_record import GameAnalysis, analyze, parse_record
from .hints import HintReport, MoveVerdict, hint
from .walkthrough import render_walkthrough

__all__ = ["GameAnalysis", "HintReport", "MoveVerdict", "analyze", "hint", "parse_record", "render_walkthrough"]
