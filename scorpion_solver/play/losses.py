"""Where the wins are lost: the loss of each decision of a game played without peeking.

A decision is a move played from a view. Its *sampled loss* is measured on K
layouts of the hidden cards sampled from that view (the player's posterior,
``game.view``): the number of layouts whose position is winnable before the
move, minus the number still winnable after it, on the same layouts. In one
layout a move can only keep or lose the win (a win after it is a win
before it), so the loss is the share of layouts the move throws away: a
clairvoyant's loss, which charges the move with what no blind player could
have kept as well as with real mistakes. Its *exact loss*, where the view
has few enough unseen cards for the exact endgame (``play.exact``), is
V(view) minus the move's exact value: what the move costs a player who
cannot peek and plays best afterwards, zero for an optimal move; beside it
the view's thoughtful share S, so that S - V says what not peeking costs
from there even for a perfect player.

A reveal between two decisions re-weighs the layouts (the share can rise or
fall with the card seen) but, averaged over the cards it can show, leaves it
unchanged: over games on uniformly random deals the sampled losses add up,
in expectation, to the thoughtful share at the start minus the win rate.
(Games chosen by their deal's verdict, as a play folder's played games are,
are not such a sample: there the reveals lean towards a win, and the losses
add up to less.) Grouping them by the number of unseen cards and by the kind
of move shows where a player's wins go. Kinds: ``tail`` (the tail deal),
``flip`` (a move that turns a face-down card up), ``king-space`` (a King's
group into an empty column), ``build`` (any other move).

Only the views are read: each decision's layouts are sampled from the view
the player had, with a seed fixed by the game and the step.
"""

from __future__ import annotations

import zlib
from fractions import Fraction

from ..game.cards import is_king
from ..game.deal import deal
from ..game.engine import Move, apply_move, parse_moves
from ..game.rules import Rules, get_rules
from ..game.view import Observation, sample_positions
from ..solver.judge import judge_move
from ..solver.result import LOST, WON, Limits
from .exact import ExactEndgame

DEFAULT_LOSS_SAMPLES = 50
DEFAULT_LOSS_NODES = 20_000
DEFAULT_EXACT_UNSEEN = 5
KINDS = ("build", "flip", "king-space", "tail")


def move_kind(view: Observation, move: Move, rules: Rules) -> str:
    """``tail``, ``flip``, ``king-space`` or ``build`` (module docstring)."""
    if move.is_tail:
        return "tail"
    if view.reveals(move, rules):
        return "flip"
    if not view.columns[move.dst] and is_king(move.card):
        return "king-space"
    return "build"


def decision_losses(
    position,
    moves: list[Move],
    rules: Rules,
    samples: int = DEFAULT_LOSS_SAMPLES,
    seed: int = 0,
    nodes: int = DEFAULT_LOSS_NODES,
    exact_unseen: int = DEFAULT_EXACT_UNSEEN,
    kinds: tuple[str, ...] = KINDS,
) -> list[dict]:
    """One row per move of ``kinds`` of the game from ``position``: its view's size, kind and losses (module docstring).

    A decision's layouts depend on the game's seed and its step only, so a row
    is the same whether the other kinds are measured or not.
    """
    from ..solver.search import solve  # numba loads on first use

    limits = Limits(nodes=nodes, memory_mb=64)

    def run(position):
        return solve(position, rules, limits, shorten=False)

    endgame = ExactEndgame(rules, max_unseen=exact_unseen)
    rows = []
    for step, move in enumerate(moves):
        view = Observation.of(position)
        kind = move_kind(view, move, rules)
        if kind not in kinds:
            position = apply_move(position, move, rules)
            continue
        unseen = len(view.hidden_slots())
        layouts = sample_positions(view, 1 if unseen <= 1 else samples, seed + step)
        before = after = unknown = 0
        for layout in layouts:
            root = run(layout)
            if root.status == LOST:
                continue
            if root.status != WON:
                unknown += 1
                continue
            before += 1
            judged = judge_move(layout, move, root, rules, run, solve_known=False)  # the root's own move: no solve
            after += judged.status == WON
            unknown += judged.status not in (WON, LOST)
        exact_before = exact_after = exact_share = None
        if 2 <= unseen <= exact_unseen:
            exact_before = endgame.value(view)
            if exact_before is not None:
                exact_after = endgame.move_value(view, move)
                exact_share = endgame.thoughtful_share(view)  # computed on the way to V: no new solve
        rows.append(
            {
                "step": step,
                "unseen": unseen,
                "kind": kind,
                "samples": len(layouts),
                "before": before,
                "after": after,
                "unknown": unknown,
                "exact_before": _float(exact_before),
                "exact_after": _float(exact_after),
                "exact_share": _float(exact_share),
            }
        )
        position = apply_move(position, move, rules)
    return rows


def _float(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def game_loss_rows(
    games: list[tuple[int, str, str, str]], samples: int, nodes: int, exact_unseen: int, kinds: tuple[str, ...] = KINDS
) -> list[dict]:
    """The rows of a chunk of games (deal, mode, policy, moves text); runs in a worker process."""
    rows = []
    for number, mode, policy, moves in games:
        rules = get_rules(mode)
        seed = number * 1_000 + zlib.crc32(mode.encode())
        position = deal(number, rules)
        for row in decision_losses(position, parse_moves(moves), rules, samples, seed, nodes, exact_unseen, kinds):
            rows.append({"deal": number, "mode": mode, "policy": policy, **row})
    return rows
