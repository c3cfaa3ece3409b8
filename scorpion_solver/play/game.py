"""The game harness: a policy plays one game from a true position it never sees.

The harness holds the true position, shows the policy only its view
(``Observation.of``), plays the chosen move on the true position and records
the game. A game ends

* ``won``: the record replays to a win in the reference engine (checked
  here: a winning record that does not replay is a bug and raises);
* ``lost``: no legal move (``no-move``), or the solver proved the true
  position lost (``proved-lost``: the harness may know it, the policy does
  not; it only saves playing out a lost game);
* ``capped``: the move cap was reached.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..game.engine import Move, apply_move, is_won, legal_moves, moves_text, replay
from ..game.position import Position
from ..game.rules import Rules
from ..game.view import Observation
from ..solver.reductions import Reductions, get_reductions
from ..solver.result import LOST, Limits
from .policies import PLAY_REDUCTIONS, History, Policy

WON, LOST_GAME, CAPPED = "won", "lost", "capped"
NO_MOVE, PROVED_LOST, MOVE_CAP = "no-move", "proved-lost", "move-cap"
DEFAULT_MOVE_CAP = 400
DEFAULT_PROOF_NODES = 20_000  # per proof attempt on the true position (unknown: play on)


class PolicyError(RuntimeError):
    """A policy chose an illegal move: a bug."""


@dataclass(frozen=True)
class GameRecord:
    outcome: str  # won | lost | capped
    reason: str  # "" (won) | no-move | proved-lost | move-cap
    moves: tuple[Move, ...]
    decisions: int
    solves: int  # the policy's solves
    nodes: int  # the policy's nodes
    proof_solves: int  # the harness's solves of the true position
    seconds: float  # wall clock
    cpu_seconds: float  # CPU time of this process (the cost on a loaded machine)

    @property
    def text(self) -> str:
        return moves_text(self.moves)

    def as_dict(self) -> dict:
        return {
            "outcome": self.outcome,
            "reason": self.reason,
            "moves": self.text,
            "n_moves": len(self.moves),
            "decisions": self.decisions,
            "solves": self.solves,
            "nodes": self.nodes,
            "proof_solves": self.proof_solves,
            "seconds": round(self.seconds, 6),
            "cpu_seconds": round(self.cpu_seconds, 6),
        }


def play_game(
    position: Position,
    rules: Rules,
    policy: Policy,
    move_cap: int = DEFAULT_MOVE_CAP,
    proof_nodes: int | None = DEFAULT_PROOF_NODES,
    reductions: Reductions | None = None,
) -> GameRecord:
    """Let ``policy`` play from ``position``; ``proof_nodes=None`` never consults the solver.

    ``reductions``: those of the harness's proofs that the true position is lost (None: the preset
    ``PLAY_REDUCTIONS``, which the committed play folders were proved with; others end some games earlier).
    """
    from ..solver.search import solve

    start, cpu_start = time.perf_counter(), time.process_time()
    views: list[Observation] = []
    moves: list[Move] = []
    proof_solves = 0
    pos = position
    outcome, reason = CAPPED, MOVE_CAP
    proof_limits = Limits(nodes=proof_nodes, memory_mb=64) if proof_nodes else None
    reductions = reductions or get_reductions(PLAY_REDUCTIONS)
    while len(moves) < move_cap:
        if is_won(pos, rules):
            outcome, reason = WON, ""
            break
        legal = legal_moves(pos, rules)
        if not legal:
            outcome, reason = LOST_GAME, NO_MOVE
            break
        if proof_limits is not None:
            proof_solves += 1
            if solve(pos, rules, proof_limits, reductions=reductions).status == LOST:
                outcome, reason = LOST_GAME, PROVED_LOST
                break
        view = Observation.of(pos, rules.decks)
        move = policy.choose(view, History(tuple(views), tuple(moves)))
        if move not in legal:
            raise PolicyError(f"{policy.name} chose {move}, which is not legal here")
        views.append(view)
        moves.append(move)
        pos = apply_move(pos, move, rules)
    else:
        if is_won(pos, rules):
            outcome, reason = WON, ""
    if outcome == WON and not is_won(replay(position, moves, rules), rules):
        raise PolicyError("a winning record does not replay to a win")  # pragma: no cover - a bug
    return GameRecord(
        outcome,
        reason,
        tuple(moves),
        policy.cost.decisions,
        policy.cost.solves,
        policy.cost.nodes,
        proof_solves,
        time.perf_counter() - start,
        time.process_time() - cpu_start,
    )
