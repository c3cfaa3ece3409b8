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

*The decision that lost a game* (``fatal``): in a game lost on a deal whose
own cards could be won, the first move after which they no longer could
(each position of the game solved with its true cards, :func:`fatal_step`).
It is the one decision that lost this game; its exact loss says whether it
was a mistake (V before above the move's value) or a fair chance that went
wrong (equal). Where the view has more unseen cards than the endgame takes
(Three Blind Mice's first decisions have 9), V and the move's value come from
``exact.deal_value``, the whole-deal computation, of the view and of each
view the move can lead to (:func:`whole_view_loss`).
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

FATAL_SOLVE_NODES = 5_000_000  # a solve of a game's own position, to find the move that lost it
# deal_value's budgets for a view past the endgame's reach: the nopeek study's (batch.studies)
WHOLE_VIEW_BUDGET = {"solve_nodes": 50_000_000, "solve_memory_mb": 512, "budget_nodes": 300_000_000}
WHOLE_VIEW_VIEWS = 300_000
WHOLE_VIEW_MOST_UNSEEN = 9  # every arrangement is solved: 9! of them (Three Blind Mice's deal), not Scorpion's 15!
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
    fatal: bool = False,
) -> list[dict]:
    """One row per move of ``kinds`` of the game from ``position``: its view's size, kind and losses (module docstring).

    A decision's layouts depend on the game's seed and its step only, so a row
    is the same whether the other kinds are measured or not. ``fatal``: only
    the move that lost the game (:func:`fatal_step`; no row when there is
    none), its exact loss from 2 to 9 unseen cards: the endgame's up to
    ``exact_unseen``, past it :func:`whole_view_loss`.
    """
    from ..solver.search import solve  # numba loads on first use

    limits = Limits(nodes=nodes, memory_mb=64)

    def run(position):
        return solve(position, rules, limits, shorten=False)

    only = fatal_step(position, moves, rules) if fatal else None
    if fatal and only is None:
        return []
    endgame = ExactEndgame(rules, max_unseen=exact_unseen)
    rows = []
    for step, move in enumerate(moves):
        view = Observation.of(position)
        kind = move_kind(view, move, rules)
        if kind not in kinds or (fatal and step != only):
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
        elif fatal and exact_unseen < unseen <= WHOLE_VIEW_MOST_UNSEEN:
            exact_before, exact_after, exact_share = whole_view_loss(view, move, rules)
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


def fatal_step(position, moves: list[Move], rules: Rules, nodes: int = FATAL_SOLVE_NODES) -> int | None:
    """The index of the move after which the game's own position (its true cards) could no longer be won.

    None when the start could not be won, when every position stayed
    winnable, or when a solve was undecided (nothing is guessed).
    """
    from ..solver.search import solve  # numba loads on first use

    limits = Limits(nodes=nodes, memory_mb=256)
    if solve(position, rules, limits, shorten=False).status != WON:
        return None
    for step, move in enumerate(moves):
        position = apply_move(position, move, rules)
        status = solve(position, rules, limits, shorten=False).status
        if status != WON:
            return step if status == LOST else None
    return None


def whole_view_loss(
    view: Observation, move: Move, rules: Rules, views: int = WHOLE_VIEW_VIEWS
) -> tuple[Fraction | None, Fraction | None, Fraction | None]:
    """V(view), the move's exact value and S(view), each None where a budget left it unknown.

    V and S from ``exact.deal_value`` of the view (up to 9 unseen cards); the
    move's value is V of the view after it, or, when it turns cards up, the
    average of V over the views it can lead to (each as likely as the
    arrangements behind it: ``ExactEndgame._outcomes``).
    """
    from .exact import deal_value

    def valued(w: Observation):
        return deal_value(w, rules, budget_views=views, **WHOLE_VIEW_BUDGET)

    before = valued(view)
    if view.reveals(move, rules):
        outcomes = [(p, w) for p, w, _ in ExactEndgame(rules, max_unseen=len(view.unseen))._outcomes(view, move)]
    else:
        outcomes = [(Fraction(1), view.after(move, rules))]
    after: Fraction | None = Fraction(0)
    for p, w in outcomes:
        v = valued(w).value
        if v is None:
            after = None
            break
        after += p * v
    return before.value, after, before.share


def _float(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def game_loss_rows(
    games: list[tuple[int, str, str, str]],
    samples: int,
    nodes: int,
    exact_unseen: int,
    kinds: tuple[str, ...] = KINDS,
    fatal: bool = False,
) -> list[dict]:
    """The rows of a chunk of games (deal, mode, policy, moves text); runs in a worker process."""
    rows = []
    for number, mode, policy, moves in games:
        rules = get_rules(mode)
        seed = number * 1_000 + zlib.crc32(mode.encode())
        position = deal(number, rules)
        measured = decision_losses(
            position, parse_moves(moves), rules, samples, seed, nodes, exact_unseen, kinds, fatal
        )
        for row in measured:
            rows.append({"deal": number, "mode": mode, "policy": policy, **row})
    return rows
