"""One way to judge moves: every legal move of a layout decided, the root solve's line for free.

``analysis.hints`` (the hint of a known position), ``play.fair`` (a fair
hint over sampled layouts) and the hop policy (``play.policies``) all judge
the moves of a layout the same way, with :func:`judge_moves` (or one move at
a time, :func:`judge_move`):

* the layout itself is solved first; when it is lost every move loses, with
  no solve of its own (a move never makes a lost position winnable);
* the first move of the layout's winning line keeps it winnable, and the
  rest of that line is a known win after it: with ``solve_known`` off that
  move gets no solve of its own (hop, which wants only the verdict); with it
  on it is solved too and the shorter of the two wins is kept (the hints,
  which report every move's own solve);
* every other move is decided by a solve of the position after it.

The caller passes its ``solve`` (its limits, what it counts), so the solves
run, their order and their results are the caller's; nothing is guessed: a
move's status is ``won`` only with a win in hand, ``lost`` only when proved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..game.engine import Move, apply_move
from ..game.position import Position
from ..game.rules import Rules
from .result import LOST, WON, SolveResult

Solve = Callable[[Position], SolveResult]


@dataclass(frozen=True)
class Judged:
    """What is known of one move: ``status`` of the position after it (won, lost or unknown), ``line`` the
    shortest known win from there (empty unless won, or when the move wins at once), ``result`` the solve
    of that position (None when the layout's own solve decided the move without one)."""

    move: Move
    status: str
    line: tuple[Move, ...] = ()
    result: SolveResult | None = None


def judge_move(
    position: Position, move: Move, root: SolveResult, rules: Rules, solve: Solve, solve_known: bool = True
) -> Judged:
    """Judge ``move`` of ``position`` given ``root``, the solve of ``position`` (see the module docstring)."""
    if root.status == LOST:
        return Judged(move, LOST)
    on_root_line = root.status == WON and root.line[:1] == (move,)
    if on_root_line and not solve_known:
        return Judged(move, WON, root.line[1:])
    result = solve(apply_move(position, move, rules))
    if not on_root_line:
        return Judged(move, result.status, result.line, result)
    known = root.line[1:]
    shorter = result.status == WON and len(result.line) <= len(known)
    return Judged(move, WON, result.line if shorter else known, result)


def judge_moves(
    position: Position, moves: list[Move], rules: Rules, solve: Solve, solve_known: bool = True
) -> tuple[SolveResult, list[Judged]]:
    """Solve ``position``, then judge each of ``moves`` in order: (the position's solve, the judgements)."""
    root = solve(position)
    return root, [judge_move(position, move, root, rules, solve, solve_known) for move in moves]
