"""The plain-Python twin of the kernel's search: same moves, same order, same nodes.

Depth-first search over the reference engine with a visited set keyed by the
canonical form of a position (interchangeable columns sorted). A position once
visited is never expanded again: in a one-player search, if it led to a win
the search would already have stopped. Deadlock pruning (see ``deadlock``) is
checked at the root and after the moves that can create a deadlock: the tail
deal, a move into an empty column, and a move that freezes a run. A build onto
a successor cannot create one: it covers only that successor, which no other
card needs, and frees the card it left.
"""

from __future__ import annotations

import time

from .deadlock import is_deadlocked
from .engine import TAIL, Move, apply_move, interchangeable_columns, is_won, legal_moves, moves_text
from .position import Position
from .result import LOST, UNKNOWN, WON, Limits, SolveResult
from .rules import CLEAR, Rules


def canonical_key(pos: Position) -> tuple:
    """Equal for positions equal up to the order of interchangeable columns."""
    free = interchangeable_columns(pos)
    fixed = tuple((pos.columns[i], pos.hidden[i]) for i in range(7) if i not in free)
    loose = tuple(sorted((pos.columns[i], pos.hidden[i]) for i in free))
    return fixed, loose, pos.tail, pos.frozen


def search_order(pos: Position, rules: Rules) -> list[Move]:
    """The legal moves in the order the search tries them (twin of the kernel's)."""
    return legal_moves(pos, rules)


def needs_deadlock_check(before: Position, move: Move, after: Position) -> bool:
    if move == TAIL:
        return True
    if not before.columns[move.dst]:
        return True
    return after.frozen != before.frozen


def reference_solve(pos: Position, rules: Rules = CLEAR, limits: Limits = Limits()) -> SolveResult:
    start = time.perf_counter()
    result = SolveResult(status=LOST, rules=rules.name, nodes=1)

    def finish(status: str, path: list[Move] | None = None, stopped_by: str = "") -> SolveResult:
        result.status = status
        result.stopped_by = stopped_by
        result.peak_entries = len(visited)
        if path is not None:
            result.solution = moves_text(path)
            result.solution_length = len(path)
        result.seconds = time.perf_counter() - start
        return result

    visited = {canonical_key(pos)}
    if is_won(pos, rules):
        return finish(WON, [])
    if limits.prune and is_deadlocked(pos, rules):
        result.dead_at_root = True
        result.deadlock_prunes = 1
        return finish(LOST)
    stack: list[tuple[Position, list[Move], int]] = [(pos, search_order(pos, rules), 0)]
    path: list[Move] = []
    while stack:
        here, moves, i = stack[-1]
        if i == len(moves):
            stack.pop()
            if path:
                path.pop()
            continue
        stack[-1] = (here, moves, i + 1)
        move = moves[i]
        child = apply_move(here, move, rules)
        key = canonical_key(child)
        if key in visited:
            continue
        if result.nodes >= limits.nodes:
            return finish(UNKNOWN, stopped_by="nodes")
        if limits.seconds is not None and result.nodes % 1024 == 0 and time.perf_counter() - start > limits.seconds:
            return finish(UNKNOWN, stopped_by="time")
        visited.add(key)
        result.nodes += 1
        if is_won(child, rules):
            return finish(WON, path + [move])
        if limits.prune and needs_deadlock_check(here, move, child) and is_deadlocked(child, rules):
            result.deadlock_prunes += 1
            continue
        stack.append((child, search_order(child, rules), 0))
        path.append(move)
        result.max_depth = max(result.max_depth, len(path))
    return finish(LOST)
