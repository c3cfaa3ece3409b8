"""Fair hints: which move to play knowing only what a player sees.

:func:`fair_hint` takes a view (an :class:`~scorpion_solver.game.view.Observation`,
which may hold unknown cards) and samples K layouts of the hidden cards
consistent with it (``sample_positions``: exact, see ``game.view``). In each
layout it decides the position and every legal move with the exact solver
(``unknown`` within the budget is counted as not winnable, and reported);
a move's share is the fraction of layouts in which it keeps the game
winnable, with a 95% Wilson interval, and the position's own share is its
chance of being winnable. Every move is judged on the same layouts (common
random numbers), so the comparison between moves is paired.

Work shared where the moves cannot differ: a layout whose position is lost
loses with every move (one solve), as ``analysis.hints`` does: both judge a
layout's moves with ``solver.judge.judge_moves``.

Ranking: by share of winnable layouts, then by share of unknown layouts
(a chance left open), then by the mean length of the known wins (shortest
first), ties in the canonical move order. With no unknown card the K layouts
are all the same position, which is solved once: every share is 0 or 1 and
the ranking is that of ``scorpion hint`` (winnable by the length of the
known win, then unknown, then lost).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..game.engine import Move, is_won, move_text
from ..game.rules import CLEAR, Rules
from ..game.view import Observation, sample_positions
from ..solver.judge import judge_moves
from ..solver.result import LOST, UNKNOWN, WON, Limits
from .intervals import wilson_interval

DEFAULT_FAIR_SAMPLES = 100


class _SampledShare:
    """The share of ``samples`` layouts that are ``wins``, with its 95% Wilson interval."""

    wins: int
    samples: int

    @property
    def share(self) -> float:
        return self.wins / self.samples if self.samples else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.samples)


@dataclass(frozen=True)
class FairMove(_SampledShare):
    move: Move
    wins: int  # layouts in which the move keeps the game winnable
    unknown: int  # layouts the budget left undecided
    samples: int
    total_win_moves: int  # summed lengths of the known wins (this move included)

    @property
    def text(self) -> str:
        return move_text(self.move)

    @property
    def mean_win_moves(self) -> float | None:
        return self.total_win_moves / self.wins if self.wins else None

    def as_dict(self) -> dict:
        low, high = self.interval
        return {
            "move": self.text,
            "share": self.share,
            "low": low,
            "high": high,
            "wins": self.wins,
            "unknown": self.unknown,
            "samples": self.samples,
            "mean_moves_to_win": self.mean_win_moves,
        }


@dataclass(frozen=True)
class FairHint(_SampledShare):
    rules: str
    samples: int  # layouts judged (1 when nothing is hidden)
    unseen: int  # cards the player has not seen
    wins: int  # layouts whose position is winnable
    unknown: int
    moves: tuple[FairMove, ...]  # best first
    solves: int
    nodes: int
    seconds: float
    seed: int

    @property
    def best(self) -> FairMove | None:
        return self.moves[0] if self.moves else None

    def as_dict(self) -> dict:
        """The JSON of ``hint --fair``; with nothing unseen there is one layout and no interval (null)."""
        low, high = self.interval if self.unseen else (None, None)
        moves = [m.as_dict() for m in self.moves]
        if not self.unseen:
            for move in moves:
                move["low"] = move["high"] = None
        return {
            "mode": self.rules,
            "samples": self.samples,
            "unseen": self.unseen,
            "seed": self.seed,
            "winnable_share": self.share,
            "low": low,
            "high": high,
            "wins": self.wins,
            "unknown": self.unknown,
            "best": self.best.text if self.best else None,
            "moves": moves,
            "solves": self.solves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


class HintAbandoned(Exception):
    """The caller no longer wants the hint (``keep_going`` said so between two layouts)."""


def fair_hint(
    view: Observation,
    rules: Rules = CLEAR,
    samples: int = DEFAULT_FAIR_SAMPLES,
    seed: int = 0,
    limits: Limits = Limits(nodes=100_000),
    keep_going: Callable[[], bool] | None = None,
) -> FairHint:
    """Judge every legal move of ``view`` over ``samples`` layouts of its hidden cards (module docstring).

    ``keep_going`` is asked before each layout; when it answers False the hint
    stops there with :class:`HintAbandoned` (a player who moved on: the work
    left would answer a question nobody asks any more).
    """
    from ..solver.search import solve  # numba loads on first use, not on import

    start = time.perf_counter()
    moves = view.legal_moves(rules)
    layouts = [view.stand_in()] if view.fully_known else sample_positions(view, samples, seed)
    wins = dict.fromkeys(moves, 0)
    unknown = dict.fromkeys(moves, 0)
    lengths = dict.fromkeys(moves, 0)
    root_wins = root_unknown = solves = nodes = 0
    for layout in layouts:
        if keep_going is not None and not keep_going():
            raise HintAbandoned(f"abandoned after {solves} solves")
        if is_won(layout, rules):
            root_wins += 1
            continue
        root, judged = judge_moves(layout, moves, rules, lambda p: solve(p, rules, limits))
        solves, nodes = solves + 1, nodes + root.nodes
        if root.status == LOST:
            continue  # every move loses in this layout
        layout_won, layout_open = root.status == WON, False
        for j in judged:
            solves, nodes = solves + 1, nodes + j.result.nodes
            if j.status == WON:
                wins[j.move] += 1
                lengths[j.move] += 1 + len(j.line)
                layout_won = True  # a move that keeps it winnable makes the layout winnable
            elif j.status == UNKNOWN:
                unknown[j.move] += 1
                layout_open = True
        root_wins += layout_won
        root_unknown += layout_open and not layout_won  # every move lost: the layout is lost
    judged = [FairMove(m, wins[m], unknown[m], len(layouts), lengths[m]) for m in moves]
    order = {m: i for i, m in enumerate(moves)}
    judged.sort(key=lambda f: (-f.wins, -f.unknown, f.mean_win_moves or 0.0, order[f.move]))
    return FairHint(
        rules.name,
        len(layouts),
        len(view.unseen),
        root_wins,
        root_unknown,
        tuple(judged),
        solves,
        nodes,
        time.perf_counter() - start,
        seed,
    )
