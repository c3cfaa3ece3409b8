"""UB_1, the first information relaxation: an upper bound on any no-peek player, tighter than the thoughtful share.

The bound. Let V(view) be the best win probability of a player who cannot
peek (``play.exact``) and S(view) the thoughtful share, the chance that the
hidden cards lie so that the position is winnable with perfect information.
Give the player one piece of help: it chooses blind only until the first
card turns up, and sees every card from then on. Until that reveal it learns
nothing, so all it can choose is a *commitment*: a path of moves that reveal
nothing (the view's closure, ``play.exact.reveal_closure``) and the
revealing move that ends it. After it, seeing everything, it wins exactly
when the position is winnable. So its win probability is

    UB_1(view) = max over commitments c of P(the position after c is winnable),

and V(view) <= UB_1(view) <= S(view): a real player's first commitment is
one of the c's, and it cannot do better afterwards than a player who sees
everything; and a player who sees everything from the start may also pick
its first commitment by the layout (S), which UB_1's player may not.

Estimating it. K layouts of the hidden cards are sampled from the view
(exactly from the player's posterior, ``game.view``), and every commitment
is judged on all of them with the exact solver (common random numbers). Two
estimates come out:

* ``upper``: max over c of c's share of winnable layouts, counting a layout
  the node budget left undecided as winnable. Its expectation is at least
  UB_1 (the mean of a maximum is at least the maximum of the means, and
  undecided layouts only add), so averaged over deals it is an honest upper
  bound, looser than UB_1 by the noise it picks up;
* ``split``: c chosen on the first half of the layouts, its share measured
  on the second half (undecided counted lost). The value of one fixed
  commitment, so its expectation is at most UB_1: with ``upper`` it brackets
  UB_1, and the gap between them is what the sampling costs.

Over deals (a deal number is a uniform shuffle, so its view at the start is
a random view), the mean of ``upper`` with the upper end of its 95% interval
bounds every no-peek player's win rate; the mean of ``split`` says how much
of that is sampling noise.

Work shared as in ``play.commit``: a layout whose position is lost loses
every commitment (one solve); in a layout whose position is won, the
commitment the solver's line makes first wins without a solve of its own.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..game.rules import Rules
from ..game.view import Observation, sample_positions
from ..solver.result import Limits
from .commit import distinct_commitments, judge_commitments
from .exact import reveal_closure

DEFAULT_BOUND_SAMPLES = 100
DEFAULT_BOUND_NODES = 200_000  # per solve: a deal's start is decided in a few thousand nodes at p99


@dataclass(frozen=True)
class FirstRevealBound:
    """UB_1's two estimates at one view, with what they cost."""

    commitments: int  # distinct commitments of the view's closure
    samples: int
    root_won: int  # layouts whose position is winnable
    root_unknown: int  # layouts the budget left undecided at the root
    pair_unknown: int  # (layout, commitment) solves left undecided
    upper: float  # max share, undecided counted winnable
    split: float  # share on the second half of the commitment best on the first
    best: str  # the commitment of ``upper``: its path and revealing move
    solves: int
    nodes: int

    def as_dict(self) -> dict:
        return asdict(self)


def first_reveal_bound(
    view: Observation,
    rules: Rules,
    samples: int = DEFAULT_BOUND_SAMPLES,
    seed: int = 0,
    nodes: int = DEFAULT_BOUND_NODES,
) -> FirstRevealBound:
    """UB_1's estimates at ``view`` from ``samples`` layouts (module docstring); only the view is read."""
    from ..solver.search import solve  # numba loads on first use

    if samples < 2:
        raise ValueError("UB_1 needs at least two samples (one half chooses, the other measures)")
    limits = Limits(nodes=nodes, memory_mb=256)
    solves = total_nodes = 0

    def run(position):
        nonlocal solves, total_nodes
        result = solve(position, rules, limits, shorten=False)
        solves, total_nodes = solves + 1, total_nodes + result.nodes
        return result

    _, pairs = reveal_closure(view, rules)
    pairs = distinct_commitments(pairs, rules)
    judged = judge_commitments(view, pairs, sample_positions(view, samples, seed), rules, run)
    won, open_, root_won, root_unknown = judged.won, judged.undecided, judged.root_won, judged.root_undecided
    if not pairs:
        return FirstRevealBound(0, samples, root_won, root_unknown, 0, 0.0, 0.0, "", solves, total_nodes)
    upper_counts = (won | open_).sum(axis=0)
    best = int(np.argmax(upper_counts))  # ties: the nearest reveal
    half = samples // 2
    chooser = int(np.argmax(won[:half].sum(axis=0)))
    split = float(won[half:, chooser].mean())
    line = pairs[best].commitment
    return FirstRevealBound(
        len(pairs),
        samples,
        root_won,
        root_unknown,
        int(open_.sum()),
        float(upper_counts[best]) / samples,
        split,
        " ".join(map(str, line)),
        solves,
        total_nodes,
    )
