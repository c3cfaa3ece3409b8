"""A cover: a no-peek strategy built to win every winnable arrangement, an exact lower bound on V that meets S.

Why. The exact expectimax (``play.exact``) finds V(view) by walking every
view reachable between reveals and bounding every revealing move with the
shares of its n! arrangements. At a whole Three Blind Mice deal (9 unseen
cards) that costs hours where S > 0, yet the exact endgame's own experience is
that most views have V = S: some commitment keeps every winnable arrangement
winnable. A cover looks for exactly that, starting from the lines that win:
if a strategy that never reads a hidden card wins every winnable arrangement,
then V = S, because no player beats the one who sees everything (V <= S) and
this one does as well. Where it falls short, the arrangements it does win
still give V a floor: ``won / n!`` is the win probability of a real strategy.

The construction, at a view with W, its arrangements still to be won, each
with a line that wins it (the solver's):

* one arrangement left (or none): play its line. The other arrangements of
  the view are lost whatever is played, so nothing is given up;
* a line that reveals nothing wins every arrangement: play it;
* otherwise each line starts with a commitment (its moves up to the first
  that turns a card up: ``play.commitment``); the arrangements are grouped by
  it (the position before the revealing move, and that move), and the
  biggest groups are tried first. Under a commitment c, the arrangements of
  its own group keep the rest of their lines; every other arrangement of W is
  solved after c (its new line is the solver's) and dropped when lost or
  undecided in ``solve_nodes``. The first commitment that drops none is
  taken; after ``tries`` without one, the one that dropped fewest. Its kept
  arrangements are split by the cards c turns up, and each outcome's view is
  covered the same way.

Why it is a no-peek strategy. Every choice above is a function of the view
and W; W at the deal is the view's winnable arrangements, and below it each
outcome's W is a function of the parent's W, the commitment and the cards
turned up, all of which the player has seen. The hidden cards are read only
as arrangements, each equally likely given the view, never as the deal's
own (``tests/test_cover.py`` builds the cover of a view made from two deals
with the same face-up cards and gets the same strategy).

What is proven. Each arrangement counted as won reaches a leaf whose line
the solver won (``won`` lines replay to a win in the plain engine), through
commitments whose moves are legal in every arrangement of their view (legal
moves never depend on a hidden card). :func:`replay_cover` plays the
strategy tree on one arrangement with the plain engine and says whether it
wins; the tests replay every counted arrangement. Nothing is guessed: an
arrangement a budget left undecided is simply not counted, so ``won / n!``
stays a lower bound, and only ``won / n! == S`` (S exact) makes V exact.

The strategy, drawn::

    Commit(moves=(m1, ..., mk), branches={
        ((slot, card), ...): Commit(...) | Play(line),   # one branch per cards turned up
        ...
    })

``moves`` reveal nothing until the last one; a branch's key is the slots the
last move turned up (``Observation.hidden_slots`` order) with their cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import factorial

from ..game.engine import Move, apply_move, is_won
from ..game.position import Position
from ..game.rules import Rules
from ..game.view import Observation
from ..solver.result import WON, Limits

DEFAULT_TRIES = 4  # commitments tried at a view before the one that dropped fewest is taken
DEFAULT_COVER_SOLVE_NODES = 200_000  # per solve of an arrangement after a commitment (a winnable one takes hundreds)
DEFAULT_COVER_BUDGET_NODES = 200_000_000  # for all the cover's solves of one view

Arrangement = tuple[int, ...]  # the cards of a view's hidden slots, in Observation.hidden_slots order
Line = tuple[Move, ...]


@dataclass(frozen=True)
class Play:
    """A leaf: play ``line`` to the end (it wins the one arrangement it was found for, or all when it reveals none)."""

    line: Line


@dataclass(frozen=True)
class Commit:
    """Play ``moves`` (only the last turns a card up), then go on by the cards it turned up."""

    moves: Line
    branches: dict = field(default_factory=dict)  # ((slot, card), ...) -> Commit | Play


class CoverBudgetSpent(Exception):
    """The cover's node budget ran out before the strategy was built (nothing of it is counted)."""


@dataclass(frozen=True)
class Cover:
    """A cover of a view: the strategy, how many of the view's arrangements it wins, and what it cost."""

    strategy: Commit | Play | None
    won: int  # arrangements of the view's unseen cards the strategy wins
    arrangements: int  # all of them: n!
    solves: int
    nodes: int

    @property
    def value(self) -> Fraction:
        """The strategy's win probability: a lower bound on V(view)."""
        return Fraction(self.won, self.arrangements)


class _Builder:
    def __init__(self, rules: Rules, solve_nodes: int, budget_nodes: int, tries: int) -> None:
        self.rules = rules
        self.limits = Limits(nodes=solve_nodes, memory_mb=64)
        self.budget_nodes = budget_nodes
        self.tries = tries
        self.solves = 0
        self.nodes = 0
        self._moves: dict[Move, Move] = {}  # one Move object per move: the lines of 10^5 arrangements share them
        self._steps: dict = {}  # (stand-in position, move) -> (position after, whether it reveals)

    def line(self, line) -> Line:
        return tuple(self._moves.setdefault(m, m) for m in line)

    def winning_line(self, position: Position) -> Line | None:
        """The solver's line when it wins ``position`` within ``solve_nodes``; None when lost or undecided."""
        if is_won(position, self.rules):
            return ()
        if self.nodes >= self.budget_nodes:
            raise CoverBudgetSpent
        from ..solver.search import solve  # numba loads on first use

        result = solve(position, self.rules, self.limits, shorten=False)
        self.solves += 1
        self.nodes += result.nodes
        return self.line(result.line) if result.status == WON else None

    def _step(self, position: Position, move: Move, unknown: frozenset) -> tuple[Position, bool]:
        key = (position, move)
        found = self._steps.get(key)
        if found is None:
            after = apply_move(position, move, self.rules)
            if move.is_tail:
                reveals = any(i < 0 for i, _ in unknown)
            else:
                reveals = after.hidden != position.hidden and any(
                    (i, j) in unknown
                    for i in range(len(after.hidden))
                    for j in range(after.hidden[i], position.hidden[i])
                )
            found = self._steps[key] = (after, reveals)
        return found

    def first_reveal(self, view: Observation, line: Line) -> tuple[Position, int] | None:
        """The stand-in position before ``line`` first turns an unknown slot up, and that move's index."""
        unknown = frozenset(view.hidden_slots())
        position = view.stand_in()
        for n, move in enumerate(line):
            after, reveals = self._step(position, move, unknown)
            if reveals:
                return position, n
            position = after
        return None

    def cover(self, view: Observation, lines: dict[Arrangement, Line]) -> tuple[Commit | Play | None, int]:
        """The strategy for ``view`` and how many of ``lines``' arrangements it wins."""
        if not lines:
            return None, 0
        if len(lines) == 1:
            return Play(next(iter(lines.values()))), 1
        self._steps.clear()  # the stand-in positions of one view: keep the memo small
        groups: dict[tuple, tuple[Line, dict[Arrangement, int]]] = {}
        for cards, line in lines.items():
            found = self.first_reveal(view, line)
            if found is None:  # it wins and reveals nothing: the same moves win every arrangement
                return Play(line), len(lines)
            position, n = found
            # lines that reach the same position by other moves share the commitment: their rest still wins
            groups.setdefault((position, line[n]), (line[: n + 1], {}))[1][cards] = n + 1
        self._steps.clear()
        slots = view.hidden_slots()
        best = None  # (dropped, commitment, the view before its reveal, kept: cards -> (position after, rest))
        for key in sorted(groups, key=lambda k: -len(groups[k][1]))[: self.tries]:
            commitment, members = groups[key]
            before, move = key
            pre_view = view.masked(before)
            kept: dict[Arrangement, tuple[Position, Line]] = {}
            dropped = 0
            limit = best[0] if best is not None else len(lines)  # past it this commitment cannot be taken
            for cards, line in lines.items():
                after = apply_move(pre_view.filled(cards), move, self.rules)
                if cards in members:
                    kept[cards] = (after, line[members[cards] :])
                    continue
                rest = self.winning_line(after)
                if rest is None:
                    dropped += 1
                    if dropped >= limit:
                        break
                else:
                    kept[cards] = (after, rest)
            if dropped < limit or best is None:
                best = (dropped, commitment, pre_view, kept)
            if dropped == 0:
                break
        _, commitment, pre_view, kept = best
        outcomes: dict[tuple, tuple[Observation, dict[Arrangement, Line]]] = {}
        for cards, (after, rest) in kept.items():
            turned = turned_up(slots, commitment[-1], after)
            revealed = tuple((slots[k], cards[k]) for k in turned)
            outcome = outcomes.get(revealed)
            if outcome is None:
                child = pre_view.knowing(dict(revealed)).masked(after)
                outcome = outcomes[revealed] = (child, {})
            outcome[1][tuple(c for k, c in enumerate(cards) if k not in turned)] = rest
        branches, won = {}, 0
        for revealed, (child, child_lines) in outcomes.items():
            branches[revealed], wins = self.cover(child, child_lines)
            won += wins
        return Commit(commitment, branches), won


def turned_up(slots, move: Move, after: Position) -> tuple[int, ...]:
    """The indexes in ``slots`` (hidden slots, ``Observation.hidden_slots`` order) that ``move`` turned up.

    ``after`` is the position after it: a column's face-down slot is turned
    up when its index is no longer below the column's count of face-down
    cards; the tail deal turns up every tail slot.
    """
    return tuple(k for k, (i, j) in enumerate(slots) if (move.is_tail if i < 0 else j >= after.hidden[i]))


def cover(
    view: Observation,
    lines: dict[Arrangement, Line],
    rules: Rules,
    solve_nodes: int = DEFAULT_COVER_SOLVE_NODES,
    budget_nodes: int = DEFAULT_COVER_BUDGET_NODES,
    tries: int = DEFAULT_TRIES,
) -> Cover:
    """A cover of ``view`` (module docstring) from the winning ``lines`` of its winnable arrangements.

    ``lines`` maps each arrangement to win (its cards in
    ``view.hidden_slots()`` order) to a line that wins it from
    ``view.filled(cards)``. Raises :class:`CoverBudgetSpent` when the solves
    pass ``budget_nodes``.
    """
    builder = _Builder(rules, solve_nodes, budget_nodes, tries)
    lines = {tuple(cards): builder.line(line) for cards, line in lines.items()}
    strategy, won = builder.cover(view, lines)
    return Cover(strategy, won, factorial(len(view.hidden_slots())), builder.solves, builder.nodes)


def replay_cover(view: Observation, strategy: Commit | Play | None, cards: Arrangement, rules: Rules) -> bool:
    """Whether ``strategy`` wins the arrangement ``cards`` of ``view``, played in the plain engine.

    The strategy is followed as a player would: each commitment's moves are
    checked legal and played, the cards its last move turned up choose the
    branch (the player sees them), and a leaf's line is played to the end.
    An illegal move, a branch the strategy lacks, or a line that ends unwon
    is a loss.
    """
    from ..game.engine import MoveError, replay

    position = view.filled(cards)
    slots = dict(zip(view.hidden_slots(), cards))  # the slots still hidden, in hidden_slots order
    node = strategy
    while isinstance(node, Commit):
        try:
            after = replay(position, node.moves, rules)
        except MoveError:
            return False
        order = list(slots)
        turned = tuple((order[k], slots.pop(order[k])) for k in turned_up(order, node.moves[-1], after))
        node, position = node.branches.get(turned), after
    if node is None:
        return False
    try:
        return is_won(replay(position, node.line, rules), rules)
    except MoveError:
        return False
