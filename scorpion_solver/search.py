"""solve(): the public front of the search (temporary: reference engine only)."""
from __future__ import annotations

from .position import Position
from .reference_search import reference_solve
from .result import Limits, SolveResult
from .rules import CLEAR, Rules


def solve(position: Position, rules: Rules = CLEAR, limits: Limits = Limits(), engine: str = "jit") -> SolveResult:
    return reference_solve(position, rules, limits)


def jit_perft(position, depth, rules):
    from .engine import perft
    return perft(position, depth, rules)
