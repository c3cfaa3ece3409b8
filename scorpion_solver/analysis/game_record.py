"""Game analysis: where a game record lost the game.

:func:`analyze` takes a game record (a start position and the moves played)
and finds the first move after which the game could no longer be won (the
*fatal* move), the winning alternative at that point, and whether the final
position can still be won.

It rests on one fact of the rules: a move never makes a lost position
winnable (a position is winnable exactly when one of its moves leads to a
winnable position). So along a game the positions are winnable up to some
point and lost from then on, and the fatal move is found by bisection over the
prefixes of the record. ``unknown`` verdicts are kept as such: when they hide
the boundary the analysis says between which moves the fatal one lies.

Nothing here prints; ``cli.analysis`` turns the records into text and JSON.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..game.engine import Move, is_won, move_text, moves_text, read_moves, replay_positions
from ..game.position import Position
from ..game.rules import CLEAR, Rules
from ..solver.result import LOST, Limits
from .hints import ALREADY_WON, WINNABLE, json_status, position_verdict, solve_position


@dataclass(frozen=True)
class Probe:
    """One solve made by :func:`analyze`: the position after ``index`` moves of the record."""

    index: int
    verdict: str
    nodes: int
    seconds: float
    stopped_by: str = ""
    solution: tuple[Move, ...] = ()

    def as_dict(self) -> dict:
        return {
            "after_moves": self.index,
            "status": json_status(self.verdict),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "stopped_by": self.stopped_by,
        }


# What analyze found (GameAnalysis.finding).
FOUND_WON = "won"  # the record ends in a won position
FOUND_WINNABLE = "winnable"  # the final position can still be won: no fatal move
FOUND_FATAL = "fatal"  # the fatal move is located exactly
FOUND_LOST_AT_START = "lost_at_start"  # the start position was already lost: no move is to blame
FOUND_UNLOCATED = "unlocated"  # unknown verdicts hide where (or whether) the game was lost


@dataclass(frozen=True)
class GameAnalysis:
    """Where a game record lost the game.

    Positions are numbered by the moves played before them: 0 is the start,
    ``len(moves)`` the final position. ``last_winnable`` is the latest position
    known to be winnable (None if none is known) and ``first_lost`` the
    earliest known to be lost (None if none is known); the fatal move, if the
    game was lost, is one of moves ``last_winnable + 1 .. first_lost`` (1-based
    move numbers), exactly ``fatal_index`` when those bounds meet.
    ``alternative`` is the first move of ``alternative_solution``, a win from
    the position before the fatal move; it differs from the move played.
    """

    rules: str
    moves: tuple[Move, ...]
    finding: str
    final_status: str
    last_winnable: int | None
    first_lost: int | None
    fatal_index: int | None = None
    alternative_solution: tuple[Move, ...] = ()
    probes: tuple[Probe, ...] = field(default=())
    seconds: float = 0.0

    @property
    def fatal_move(self) -> Move | None:
        return self.moves[self.fatal_index - 1] if self.fatal_index else None

    @property
    def alternative(self) -> Move | None:
        return self.alternative_solution[0] if self.alternative_solution else None

    @property
    def located(self) -> bool:
        return self.finding != FOUND_UNLOCATED

    @property
    def nodes(self) -> int:
        return sum(p.nodes for p in self.probes)

    def suspects(self) -> tuple[int, int] | None:
        """(first, last) 1-based numbers of the moves among which the fatal one lies, when unlocated."""
        if self.finding != FOUND_UNLOCATED:
            return None
        first = (self.last_winnable + 1) if self.last_winnable is not None else 1
        last = self.first_lost if self.first_lost is not None else len(self.moves)
        return first, last

    def as_dict(self) -> dict:
        fatal, alt = self.fatal_move, self.alternative
        return {
            "mode": self.rules,
            "moves_played": len(self.moves),
            "finding": self.finding,
            "final_status": json_status(self.final_status),
            "last_winnable": self.last_winnable,
            "first_lost": self.first_lost,
            "fatal_index": self.fatal_index,
            "fatal_move": move_text(fatal) if fatal else None,
            "alternative": move_text(alt) if alt else None,
            "alternative_solution": moves_text(self.alternative_solution),
            "suspects": list(self.suspects()) if self.suspects() else None,
            "solves": len(self.probes),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "probes": [p.as_dict() for p in self.probes],
        }


def parse_record(text: str) -> list[Move]:
    """Moves of a game record: :func:`game.engine.read_moves` (space or line separated, ``#`` comments)."""
    return read_moves(text)


def _next_probe(lo: int, hi: int, tried: set[int]) -> int | None:
    """The untried index in (lo, hi) at the centre of the widest stretch of untried ones.

    Without unknown verdicts this is plain bisection; with them, the probes
    spread out instead of crowding around an unknown.
    """
    best, best_width = None, 0
    run_start = None
    for k in range(lo + 1, hi + 1):
        if k < hi and k not in tried:
            if run_start is None:
                run_start = k
            continue
        if run_start is not None:
            width = k - run_start
            if width > best_width:
                best, best_width = (run_start + k - 1) // 2, width
            run_start = None
    return best


def analyze(position: Position, moves: list[Move], rules: Rules = CLEAR, limits: Limits = Limits()) -> GameAnalysis:
    """Replay ``moves`` from ``position`` and find the fatal move, by bisection over prefixes.

    The record is checked first with the reference engine (MoveError naming
    the first illegal move, 1-based). The final position is solved first
    (when it is still winnable there is nothing to find); then the positions
    between the latest known winnable and the earliest known lost one are
    probed, about log2(len(moves)) solves when every verdict comes back, more
    when some are ``unknown`` (each solve runs under ``limits``).
    """
    start = time.perf_counter()
    moves = list(moves)
    positions = replay_positions(position, moves, rules)
    n = len(moves)
    probes: dict[int, Probe] = {}
    order: list[int] = []

    def probe(k: int) -> Probe:
        result = solve_position(positions[k], rules, limits)
        p = Probe(k, position_verdict(result.status), result.nodes, result.seconds, result.stopped_by, result.line)
        probes[k] = p
        order.append(k)
        return p

    def bounds() -> tuple[int, int]:
        lo = max((k for k, p in probes.items() if p.verdict == WINNABLE), default=-1)
        hi = min((k for k, p in probes.items() if p.verdict == LOST), default=n + 1)
        if lo >= hi:
            raise RuntimeError(f"solver inconsistency: position {lo} winnable but an earlier one ({hi}) lost")
        return lo, hi

    final = probe(n)
    lo, hi = bounds()
    while True:
        k = _next_probe(lo, min(hi, n + 1), set(probes))
        if k is None:
            break
        probe(k)
        lo, hi = bounds()

    final_status = ALREADY_WON if is_won(positions[n], rules) else final.verdict
    if hi <= n:
        final_status = LOST  # a lost position stays lost, whatever the final solve could decide
    common = dict(
        rules=rules.name,
        moves=tuple(moves),
        final_status=final_status,
        last_winnable=lo if lo >= 0 else None,
        first_lost=hi if hi <= n else None,
        probes=tuple(probes[k] for k in order),
    )
    if lo == n:
        finding = FOUND_WON if final_status == ALREADY_WON else FOUND_WINNABLE
        return GameAnalysis(finding=finding, seconds=time.perf_counter() - start, **common)
    if hi == 0:
        return GameAnalysis(finding=FOUND_LOST_AT_START, seconds=time.perf_counter() - start, **common)
    if lo >= 0 and hi == lo + 1:
        alternative = probes[lo].solution
        if not alternative or alternative[0] == moves[lo]:
            raise RuntimeError(
                f"solver inconsistency: the win from position {lo} starts with the move played, "
                "yet the position after it was proved lost"
            )
        return GameAnalysis(
            finding=FOUND_FATAL,
            fatal_index=hi,
            alternative_solution=alternative,
            seconds=time.perf_counter() - start,
            **common,
        )
    return GameAnalysis(finding=FOUND_UNLOCATED, seconds=time.perf_counter() - start, **common)
