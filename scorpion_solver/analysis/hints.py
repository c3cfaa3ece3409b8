"""Hints: which moves keep a game winnable, decided by the exact solver.

:func:`hint` gives, for a position, every legal move with its verdict (the
position after it is ``winnable``, ``lost`` or ``unknown`` within the
budget), the best move first, and whether the position itself can still be
won. The verdicts come from ``solver.solve`` and are never guessed.

A move never makes a lost position winnable (a position is winnable exactly
when one of its moves leads to a winnable position), so the verdict of the
position follows from its moves' verdicts wherever one of them is known.

Nothing here prints; ``cli.analysis`` turns the reports into text and JSON.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..game.engine import Move, is_won, legal_moves, move_text, moves_text
from ..game.position import Position
from ..game.rules import CLEAR, Rules
from ..solver.judge import judge_moves
from ..solver.result import LOST, UNKNOWN, WON, Limits, SolveResult

# Verdicts on a position (and on a move: the verdict on the position after it).
WINNABLE = "winnable"  # a win exists (the solver found one)
# LOST and UNKNOWN as in result: proved lost, or a limit stopped the search.
#: The position itself is already won (no moves are left to make).
ALREADY_WON = "won"

_RANK = {WINNABLE: 0, UNKNOWN: 1, LOST: 2}


def json_status(verdict: str) -> str:
    """A verdict in the JSON vocabulary (docs/output.md): ``won`` (a win exists or is made), ``lost``, ``unknown``."""
    return WON if verdict in (WINNABLE, ALREADY_WON) else verdict


def position_verdict(status: str) -> str:
    """A solve's status as a verdict on a position."""
    return WINNABLE if status == WON else status


def solve_position(position: Position, rules: Rules, limits: Limits) -> SolveResult:
    """The solver's result on ``position`` (hints and game records judge positions with it)."""
    from ..solver.search import solve  # numba loads on first use, not on import

    return solve(position, rules, limits)


# --------------------------------------------------------------------------
# hint


@dataclass(frozen=True)
class MoveVerdict:
    """One legal move and what is known of the position it leads to.

    ``solution`` is a known win from the position after the move (empty when
    the move wins at once, or when none is known). ``nodes`` and ``seconds``
    are the cost of the solve of that position (0 when the verdict followed
    from the position before the move, see ``note``).
    """

    move: Move
    verdict: str
    solution: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    stopped_by: str = ""
    note: str = ""

    @property
    def text(self) -> str:
        return move_text(self.move)

    @property
    def moves_to_win(self) -> int | None:
        """Length of the known win counting this move, None unless winnable."""
        return 1 + len(self.solution) if self.verdict == WINNABLE else None

    def as_dict(self) -> dict:
        return {
            "move": self.text,
            "status": json_status(self.verdict),
            "moves_to_win": self.moves_to_win,
            "solution": moves_text(self.solution),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "stopped_by": self.stopped_by,
            "note": self.note,
        }


@dataclass(frozen=True)
class HintReport:
    """Every legal move of a position with its verdict, the best first.

    ``status`` is the verdict on the position itself: ``won`` (already won,
    no moves), ``winnable``, ``lost`` or ``unknown``. ``reason`` says in words
    how the status is known. Moves are ordered: winnable by the length of the
    known win (shortest first), then unknown, then lost; ties in the canonical
    move order. ``best`` is the first move when it keeps the game winnable.
    """

    rules: str
    status: str
    reason: str
    moves: tuple[MoveVerdict, ...]
    solves: int
    nodes: int
    seconds: float

    @property
    def best(self) -> MoveVerdict | None:
        return self.moves[0] if self.moves and self.moves[0].verdict == WINNABLE else None

    def as_dict(self) -> dict:
        best = self.best
        to_win = 0 if self.status == ALREADY_WON else best.moves_to_win if best else None
        return {
            "mode": self.rules,
            "status": json_status(self.status),
            "reason": self.reason,
            "best": best.text if best else None,
            "moves_to_win": to_win,
            "moves": [m.as_dict() for m in self.moves],
            "solves": self.solves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def hint(position: Position, rules: Rules = CLEAR, limits: Limits = Limits()) -> HintReport:
    """Judge every legal move of ``position`` with one solve each (``limits`` per solve).

    The position itself is solved first: when it is lost, every move loses
    and no move needs a solve of its own. Otherwise each move's resulting
    position is solved (``solver.judge.judge_moves``). The position's status then follows from the moves
    (winnable when one move is), and a move left ``unknown`` inherits what
    the position's own solve proved (the first move of its win is winnable).
    """
    start = time.perf_counter()
    if is_won(position, rules):
        return HintReport(
            rules.name, ALREADY_WON, "the game is won: nothing is left to play", (), 0, 0, time.perf_counter() - start
        )
    moves = legal_moves(position, rules)
    if not moves:
        return HintReport(rules.name, LOST, "no legal move is left", (), 0, 0, time.perf_counter() - start)

    root, judged = judge_moves(position, moves, rules, lambda p: solve_position(p, rules, limits))
    if root.status == LOST:
        verdicts = [MoveVerdict(m, LOST, note="the position before it is lost") for m in moves]
        return HintReport(
            rules.name,
            LOST,
            "the position is lost: no sequence of moves wins",
            tuple(verdicts),
            1,
            root.nodes,
            time.perf_counter() - start,
        )
    solves, nodes = 1 + len(judged), root.nodes + sum(j.result.nodes for j in judged)
    verdicts = []
    for j in judged:
        result = j.result
        note = ""
        if j.status == WON and result.status == UNKNOWN:
            note = "winnable: the solve of the position before it found a win this way"
        verdicts.append(
            MoveVerdict(
                j.move, position_verdict(j.status), j.line, result.nodes, result.seconds, result.stopped_by, note
            )
        )

    order = {m: i for i, m in enumerate(moves)}
    verdicts.sort(key=lambda v: (_RANK[v.verdict], v.moves_to_win or 0, order[v.move]))
    if verdicts[0].verdict == WINNABLE:
        status, reason = WINNABLE, "winnable: at least one move keeps a win open"
    elif all(v.verdict == LOST for v in verdicts):
        status, reason = LOST, "lost: every move loses"
    else:
        status = UNKNOWN
        why = f"stopped by the {root.stopped_by} limit" if root.stopped_by else "undecided"
        reason = f"unknown: no move is known to keep a win open and the solve of the position was {why}"
    return HintReport(rules.name, status, reason, tuple(verdicts), solves, nodes, time.perf_counter() - start)
