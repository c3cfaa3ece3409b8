"""Checking a solution move by move through the reference engine: the independent check of every ``won``.

:func:`check_solution` accepts exactly the move lists that ``engine.replay``
accepts, refuses the others with ``replay``'s own message, and returns the
same final position, because it is the engine's replay: each move is played
by ``engine.apply_move`` (settling included) once the engine's own move
generator has listed it. Only the listing is narrowed: a tableau move is
looked for among the moves into the column it names (``engine.moves_into``,
the part of ``legal_moves`` for that column, after ``engine.is_won``: a won
position has no move), not among every legal move, which made the check of
a 52-move solution cost milliseconds. The tail deal, and anything that names
no column, is looked for in ``legal_moves`` itself. Plain Python throughout;
it shares no code with the jitted kernel, whose solutions it checks.
"""

from __future__ import annotations

from typing import Iterable

from .engine import Move, MoveError, _why_illegal, apply_move, is_won, legal_moves, move_text, moves_into
from .position import NUM_COLUMNS, Position
from .rules import CLEAR, Rules


def is_legal(pos: Position, move: Move, rules: Rules = CLEAR) -> bool:
    """``move in legal_moves(pos, rules)``, listing only the moves into the column it names."""
    if move.is_tail or not 0 <= move.dst < NUM_COLUMNS:
        return move in legal_moves(pos, rules)
    return not is_won(pos, rules) and move in moves_into(pos, move.dst, rules)


def check_solution(pos: Position, moves: Iterable[Move], rules: Rules = CLEAR) -> Position:
    """Play a move list, checking each move; the final position.

    Accepts exactly what ``engine.replay`` accepts and returns the same
    position; MoveError naming the first illegal move (1-based) and why, in
    ``replay``'s words. Whether the final position is won is the caller's
    question (``is_won``).
    """
    for number, move in enumerate(moves, start=1):
        if not is_legal(pos, move, rules):
            raise MoveError(f"move {number}: {move_text(move)} is not legal here{_why_illegal(pos, move, rules)}")
        pos = apply_move(pos, move, rules)
    return pos


def solution_wins(pos: Position, moves: Iterable[Move], rules: Rules = CLEAR) -> bool:
    """Whether the move list is legal from ``pos`` and ends in a won position."""
    try:
        final = check_solution(pos, moves, rules)
    except MoveError:
        return False
    return is_won(final, rules)
