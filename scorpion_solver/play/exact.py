"""The exact no-peek endgame: V(view), the best win probability of a player who cannot peek.

What V is. A player who sees only the view (an
:class:`~scorpion_solver.game.view.Observation`) chooses moves; the hidden
cards are uniform over the hidden slots given the view (``game.view``'s
docstring), and each time a move turns a hidden card up the player sees it
and chooses again. V(view) is the largest probability of winning over every
such strategy: a strategy may depend on everything seen, never on a card
not yet turned up.

Why the expectimax below is that optimum. A game seen by the player is a
sequence of views; between two reveals the player learns nothing, so what
they can do from a view is to pick a sequence of moves that reveal nothing
(each one's result is a function of the view alone: ``Observation.after``)
and then either stop at a win or play one move that reveals. The views
reachable without a reveal form a deterministic graph (the *closure* of the
view; it may have cycles: a card moved back and forth). So

* V(view) = 1 if the closure holds a won position;
* otherwise V(view) = max over the pairs (w, m) of a view w of the closure and
  a move m of w that reveals, of the chance value E[V(w after m)]: the
  average over the cards m can reveal, each equally likely. A flip reveals
  one slot: each unseen card lies there with probability 1/n. The tail deal
  reveals three slots at once: an ordered triple of distinct unseen cards,
  each with probability 1/(n(n-1)(n-2)). A sweep (Clear runs) can turn up a
  face-down card below the swept run; whether it happens may depend on a
  card just revealed (a tail card completing a run), so the outcomes are
  enumerated slot by slot: the slots a move reveals are found from the cards
  already fixed, each new slot takes each remaining unseen card with equal
  probability (the posterior is uniform over the permutations of the unseen
  cards into the hidden slots, so the card of one slot given the cards of
  others is uniform over the rest), until the move reveals no slot left open.
* A view with at most one unseen card is perfect information (one unseen
  card has one slot left for it): V is 1 or 0, the verdict of the exact
  solver (``solver.search.solve``) on the one position.

This is the optimum because any strategy, between two reveals, plays a
sequence of non-revealing moves fixed by the view (nothing else is known)
followed by a reveal or a win, and from each revealed view it can do no
better than that view's own optimum; the recursion ends because every
reveal removes at least one unseen card. Positions with no hidden card are
decided by the solver, which is exact (``won`` replays, ``lost`` is
exhaustive).

The cuts, and why they are sound. The *thoughtful share* S(view) is the
fraction of all n! arrangements of the unseen cards into the hidden slots
whose position is winnable with perfect information (each solved exactly).
A player without peeking cannot beat one who sees everything, so
V(view) <= S(view), and for a revealing pair (w, m) with outcomes o_i of
probability p_i, its chance value is at most B(w, m) = sum p_i S(o_i) (the
share of w's arrangements in which m keeps the game winnable). Hence:

* S(view) = 0 gives V = 0 without looking at a move; and S(view) = 0 needs
  no solve when the deadlock test, made blind (``solver.deadlock.
  dead_for_every_arrangement``: every unknown card given every chance),
  proves every arrangement lost at once (one-deck games; it decides about a
  fifth of Three Blind Mice's deals from their opening view);
* the pairs are tried in the closure's order (the nearest reveals first) and
  each is bounded before it is evaluated: one whose B is at most the best
  value found cannot beat it and is skipped; once the best reaches S(view)
  nothing can beat it and the search stops without bounding the pairs left
  (most views have V = S, and this is where the cost goes: sorting all pairs
  by B first cost 3 to 10 times more solves on real 6-unseen views);
* a whole deal's expectimax (``deal_value``) starts from the value of its
  cover (``play.cover``, a real no-peek strategy) instead of 0: V is the
  larger of that value and the best pair, so a pair whose bound is at most
  it is skipped, and a pair below it is cut, as below;
* inside a pair, the outcomes are evaluated one by one and the bound
  sum_done p_i V(o_i) + sum_rest p_i S(o_i) is kept; once it falls to the best
  value already found the pair stops: it cannot beat it. Its value is then
  only known to be at most that best, which is all the max needs.

Nothing else is cut, so the value returned is exact. The arrangements of an
outcome o_i are the arrangements of w with the move played, so the solves
that give B(w, m) also give every S(o_i); every solve is kept by position
(one solve per position for the whole computation).

Exact arithmetic. Values are :class:`fractions.Fraction`: every probability is
a product of 1/k's, so V is a rational with denominator dividing n!, and a
Fraction makes "exact" testable (a float sum of 720 terms would not be). A
solve stopped by its node budget, or a computation past its total budget,
makes the answer ``unknown``; nothing is guessed. Views with more unseen
cards than ``max_unseen`` are refused (:class:`TooManyUnseen`): the cost
grows about as n! times the number of revealing moves.

Only the view is read: the functions here take an Observation; the positions
they solve are the view's own arrangements, never the true position.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from ..game.engine import Move, apply_move, is_won, legal_moves, move_text
from ..game.position import frozen_floor
from ..game.rules import CLEAR, Rules
from ..game.view import UNKNOWN, Observation
from ..solver.deadlock import dead_for_every_arrangement
from ..solver.reductions import FULL
from ..solver.result import LOST, WON, Limits
from .commitment import RevealingPair

DEFAULT_MAX_UNSEEN = 6
DEFAULT_SOLVE_NODES = 200_000  # per solve of one arrangement: late positions are decided in a few hundred
DEFAULT_SOLVE_MEMORY_MB = 64  # per solve: the table a late position needs is small
DEFAULT_BUDGET_NODES = 50_000_000  # for all the solves of one call
DEFAULT_BUDGET_VIEWS = 1_000_000  # views walked between reveals in one call (the plain-Python part of the cost)
# A share's first pass solves every arrangement with at most this many nodes, then the few it left undecided
# with the whole budget: a budget that runs out then leaves most of them known (bounds), not a prefix
FIRST_PASS_NODES = 100_000
EXACT, UNDECIDED = "exact", "unknown"
ZERO, ONE = Fraction(0), Fraction(1)
ALL_LOST = "all lost"  # a view's verdict table when every arrangement is lost (none is stored one by one)


class TooManyUnseen(ValueError):
    """The view has more unseen cards than the exact endgame's limit."""


class _Undecided(Exception):
    """A solve (or the whole computation) ran out of budget: the value is unknown."""

    def __init__(self, stopped_by: str) -> None:
        super().__init__(stopped_by)
        self.stopped_by = stopped_by


@dataclass(frozen=True)
class ExactMove:
    """One legal move with its exact value: the win probability of playing it, then playing best."""

    move: Move
    value: Fraction | None  # None: unknown (a budget cut it short)
    reveals: bool

    @property
    def text(self) -> str:
        return move_text(self.move)

    def as_dict(self) -> dict:
        return {"move": self.text, "exact_value": _number(self.value), "exact_fraction": _fraction(self.value)}


@dataclass(frozen=True)
class ExactReport:
    """The exact no-peek value of a view, its thoughtful share, and each legal move's value (best first)."""

    rules: str
    unseen: int
    status: str  # exact | unknown
    value: Fraction | None
    share: Fraction | None
    moves: tuple[ExactMove, ...]
    solves: int
    nodes: int
    seconds: float
    stopped_by: str = ""

    @property
    def best(self) -> ExactMove | None:
        """The move of highest value; None when no move wins any arrangement (or none is known)."""
        return self.moves[0] if self.moves and self.moves[0].value else None

    def as_dict(self) -> dict:
        return {
            "mode": self.rules,
            "unseen": self.unseen,
            "stopped_by": self.stopped_by,
            "exact_value": _number(self.value),
            "exact_fraction": _fraction(self.value),
            "thoughtful_share": _number(self.share),
            "thoughtful_fraction": _fraction(self.share),
            "best": self.best.text if self.best else None,
            "moves": [m.as_dict() for m in self.moves],
            "solves": self.solves,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def _number(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def _fraction(value: Fraction | None) -> str | None:
    """The exact value as text (``"163/360"``): JSON numbers are floats."""
    return None if value is None else str(value)


class ExactEndgame:
    """The exact no-peek value of views (module docstring); keeps its solves and values between calls.

    ``max_unseen`` refuses bigger views; ``solve_nodes`` and ``solve_memory_mb``
    are the node and table budgets of each solve of an arrangement,
    ``budget_nodes`` of all the solves of one call, ``budget_views`` of the
    views one call walks between reveals and ``seconds`` the wall-clock limit
    of one call (any one running out makes the answer unknown, stopped by that
    limit; what was decided before is kept, and exact).
    """

    def __init__(
        self,
        rules: Rules = CLEAR,
        max_unseen: int = DEFAULT_MAX_UNSEEN,
        solve_nodes: int = DEFAULT_SOLVE_NODES,
        budget_nodes: int = DEFAULT_BUDGET_NODES,
        budget_views: int = DEFAULT_BUDGET_VIEWS,
        solve_memory_mb: int = DEFAULT_SOLVE_MEMORY_MB,
        seconds: float | None = None,
    ) -> None:
        self.rules = rules
        self.max_unseen = max_unseen
        self.limits = Limits(nodes=solve_nodes, memory_mb=solve_memory_mb)
        self.seconds = seconds
        self._deadline: float | None = None  # time.perf_counter() at which this call's time is spent
        self.budget_nodes = budget_nodes
        self._stop_at = budget_nodes  # self.nodes at which this call's budget is spent
        self.budget_views = budget_views
        self.views = 0  # views walked between reveals
        self._views_stop = budget_views
        self.solves = 0
        self.nodes = 0
        self._won: dict = {}  # position -> winnable (perfect information)
        self._lines: dict | None = None  # position -> the solver's winning line, when kept (``keep_lines``)
        self._partial: tuple = ((), {})  # (view key, {arrangement: winnable}) of the share being computed
        self._value: dict = {}  # view key -> exact V
        self._share: dict = {}  # view key -> thoughtful share
        self._verdicts: dict = {}  # view key -> {((slot, card), ...) sorted: winnable} over its arrangements
        self._chance: dict = {}  # (view key, move) -> exact chance value
        self._ceiling: dict = {}  # (view key, move) -> an upper bound when the pair was cut
        self._best: dict = {}  # view key -> the best line: non-revealing moves, then the revealing move
        self._lower: dict = {}  # view key -> the best exact pair value found so far: V is at least this
        # the deadlock test made blind (solver.deadlock.dead_for_every_arrangement): a share of 0 with no solve
        self._blind_test = rules.decks == 1 and FULL.proven_for(rules).prune

    # -- the public front ------------------------------------------------

    def check(self, view: Observation) -> None:
        """Refuse what is not a view, or a view with more unseen cards than the limit; start a call's budget."""
        self._stop_at = self.nodes + self.budget_nodes
        self._views_stop = self.views + self.budget_views
        self._deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        if not isinstance(view, Observation):
            raise TypeError(f"the exact endgame sees an Observation, not a {type(view).__name__}")
        n = len(view.hidden_slots())
        if n > self.max_unseen:
            raise TooManyUnseen(
                f"the view has {n} unseen cards; the exact endgame takes at most {self.max_unseen} "
                f"(its cost grows about as n! times the revealing moves)"
            )

    def value(self, view: Observation) -> Fraction | None:
        """V(view), or None when a budget cut the computation short."""
        return self._unless_undecided(view, lambda: self._v(view))

    def best_line(self, view: Observation) -> tuple[Fraction, tuple[Move, ...]] | None:
        """V(view) and a line that achieves it: non-revealing moves, then one revealing move (or a won line).

        None when a budget cut it short. The line is empty when V is 0 (every
        move loses) or the view is perfect information (the solver's line is
        the caller's business). Play its moves in order: they reveal nothing
        until the last one.
        """
        value = self._unless_undecided(view, lambda: self._v(view))
        return None if value is None else (value, self._best.get(view.key(), ()))

    def report(self, view: Observation) -> ExactReport:
        """Every legal move's exact value, V and the thoughtful share (unknown when a budget ran out)."""
        self.check(view)
        start = time.perf_counter()
        solves, nodes = self.solves, self.nodes
        n = len(view.hidden_slots())
        status, stopped_by = EXACT, ""
        value = share = None
        judged: list[ExactMove] = []
        try:
            share = self._thoughtful(view)
            value = self._v(view)
        except _Undecided as exc:
            status, stopped_by = UNDECIDED, exc.stopped_by
        for move in view.legal_moves(self.rules):
            reveals = view.reveals(move, self.rules)
            try:
                v = self._move_value(view, move, reveals)
            except _Undecided as exc:
                v, stopped_by = None, stopped_by or exc.stopped_by
            judged.append(ExactMove(move, v, reveals))
        order = {m.move: i for i, m in enumerate(judged)}
        judged.sort(key=lambda m: (m.value is None, -(m.value or 0), order[m.move]))
        return ExactReport(
            self.rules.name,
            n,
            status,
            value,
            share,
            tuple(judged),
            self.solves - solves,
            self.nodes - nodes,
            time.perf_counter() - start,
            stopped_by,
        )

    def move_value(self, view: Observation, move: Move) -> Fraction | None:
        """One legal move's exact value: play it, then play best (None when a budget cut it short)."""
        return self._unless_undecided(view, lambda: self._move_value(view, move, view.reveals(move, self.rules)))

    def thoughtful_share(self, view: Observation) -> Fraction | None:
        """S(view): the share of all arrangements of the unseen cards that are winnable (None: unknown)."""
        return self._unless_undecided(view, lambda: self._thoughtful(view))

    def _unless_undecided(self, view: Observation, compute: Callable[[], Fraction]) -> Fraction | None:
        """``compute()`` for a view this endgame takes (``check``); None when a budget cut it short."""
        self.check(view)
        try:
            return compute()
        except _Undecided:
            return None

    # -- perfect information ----------------------------------------------

    def _winnable(self, position, first_pass: bool = False) -> bool | None:
        """Whether the position can be won (perfect information), solved once and kept.

        ``first_pass``: solve with at most ``FIRST_PASS_NODES`` and return None
        when that does not decide it (nothing kept, nothing raised).
        """
        known = self._won.get(position)
        if known is not None:
            return known
        if is_won(position, self.rules):
            self._won[position] = True
            return True
        if self.nodes >= self._stop_at:
            raise _Undecided("budget")
        limits = self.limits
        if first_pass and limits.nodes > FIRST_PASS_NODES:
            limits = dataclasses.replace(limits, nodes=FIRST_PASS_NODES)
        else:
            first_pass = False  # the whole budget already: an undecided solve is final
        if self._deadline is not None:
            left = self._deadline - time.perf_counter()
            if left <= 0:
                raise _Undecided("time")
            limits = dataclasses.replace(limits, seconds=left)  # no solve runs past the call's own limit
        from ..solver.search import solve  # numba loads on first use

        result = solve(position, self.rules, limits, shorten=False)
        self.solves += 1
        self.nodes += result.nodes
        if result.status not in (WON, LOST):
            if first_pass and result.stopped_by == "nodes":
                return None
            raise _Undecided(result.stopped_by or "nodes")
        self._won[position] = result.status == WON
        if self._lines is not None and result.status == WON:
            self._lines[position] = result.line
        return self._won[position]

    def keep_lines(self) -> None:
        """Keep the winning line of every arrangement solved from now on (a cover starts from them)."""
        if self._lines is None:
            self._lines = {}

    def winning_lines(self, view: Observation, table: dict | None = None) -> dict[tuple[int, ...], tuple[Move, ...]]:
        """Each winnable arrangement of ``view`` (its cards in hidden_slots order) and a line that wins it.

        After :meth:`thoughtful_share` of the view with lines kept (or from
        ``table``, the verdicts known so far); a won position (no move
        needed) has the empty line.
        """
        table = self._verdicts.get(view.key()) if table is None else table
        if table is None or table is ALL_LOST:
            return {}
        lines = {}
        for assignment, winnable in table.items():
            if winnable:
                cards = tuple(card for _, card in assignment)
                position = view.filled(cards)
                lines[cards] = () if is_won(position, self.rules) else self._lines[position]
        return lines

    def _thoughtful(self, view: Observation, parent: tuple | None = None) -> Fraction:
        """S(view), keeping each arrangement's verdict (by its slots and cards) for the views below it.

        ``parent`` is (key of a view, the slots and cards a reveal fixed since
        it): an arrangement whose extension was lost there is lost here too
        (this view's positions are reached from those by legal moves), so it
        needs no solve.
        """
        key = view.key()
        if key not in self._share:
            above = self._verdicts.get(parent[0]) if parent else None
            if above is ALL_LOST or self._dead_everywhere(view):
                self._verdicts[key] = ALL_LOST  # every arrangement lost: nothing to solve, here or below
                self._share[key] = ZERO
                return ZERO
            slots = view.hidden_slots()
            found: dict = {}
            hard = []  # arrangements the first pass left undecided: solved with the whole budget after the others
            order = []  # every arrangement, in permutation order
            self._partial = (key, found)  # what is known if a budget stops it
            for cards in itertools.permutations(view.unseen):
                assignment = tuple(zip(slots, cards))
                order.append(assignment)
                if above is not None and not above.get(tuple(sorted(assignment + parent[1])), True):
                    found[assignment] = False
                    continue
                verdict = self._winnable(view.filled(cards), first_pass=True)
                if verdict is None:
                    hard.append((assignment, cards))
                else:
                    found[assignment] = verdict
            for assignment, cards in hard:
                found[assignment] = self._winnable(view.filled(cards))
            # in the arrangements' own order: what is built from the table does not depend on which were hard
            table = {assignment: found[assignment] for assignment in order}
            self._verdicts[key] = table
            self._share[key] = Fraction(sum(table.values()), len(table))
        return self._share[key]

    def _dead_everywhere(self, view: Observation) -> bool:
        """Whether the deadlock test, made blind, proves every arrangement of the view lost (one-deck games)."""
        if not self._blind_test:
            return False
        stand_in = view.stand_in()
        floors = [frozen_floor(stand_in, i) for i in range(len(view.columns))]
        return dead_for_every_arrangement(
            view.columns, view.hidden, view.tail, view.reserves, view.unseen, self.rules, floors
        )

    # -- the expectimax ------------------------------------------------------

    def _v(self, view: Observation, floor: Fraction = ZERO) -> Fraction:
        """V(view). ``floor``: the value of a strategy known to exist from this view (the cover's), so
        that only the pairs that can beat it are evaluated; V is the larger of it and the best pair."""
        key = view.key()
        if key in self._value:
            return self._value[key]
        if len(view.hidden_slots()) <= 1:
            value = ONE if self._winnable(view.filled(view.unseen)) else ZERO
            self._value[key] = value
            return value
        share = self._thoughtful(view)
        best, line = floor, ()
        if share > 0:
            won_line, pairs = self._closure(view)
            if won_line is not None:
                best, line = ONE, won_line
            else:
                for pair in pairs:  # closure order: the nearest reveals first
                    if best >= share:
                        break  # nothing beats the share: no need even to bound the pairs left
                    pair.outcomes = self._outcomes(pair.view, pair.move)
                    pair.bound = sum((p * self._thoughtful(o, (key, c)) for p, o, c in pair.outcomes), ZERO)
                    if pair.bound <= best:
                        continue  # it cannot beat the best
                    value = self._pair_value(pair.view, pair.move, pair.outcomes, best, key)
                    if value > best:  # above the floor it was given, a pair's value is exact
                        best, line = value, pair.commitment
                        self._lower[key] = best
        self._value[key] = best
        self._best[key] = line
        return best

    def _closure(self, view: Observation) -> tuple[tuple[Move, ...] | None, list[RevealingPair]]:
        """The revealing pairs of the view's closure, or a line to a win (``reveal_closure``)."""
        return reveal_closure(view, self.rules, self._count_view)

    def _count_view(self) -> None:
        self.views += 1
        if self.views >= self._views_stop:
            raise _Undecided("views")
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            raise _Undecided("time")

    def _outcomes(self, view: Observation, move: Move) -> list[tuple[Fraction, Observation, tuple]]:
        """The views a revealing move can lead to, with their probabilities and the (slot, card)s revealed.

        Slot by slot (module docstring).
        """
        out: list[tuple[Fraction, Observation, tuple]] = []

        def branch(w: Observation, p: Fraction, chosen: tuple) -> None:
            position = apply_move(w.stand_in(), move, self.rules)
            slots = _revealed_slots(w, move, position)
            if not slots:
                out.append((p, _masked(w, position), chosen))  # nothing unknown is revealed any more
                return
            unseen = w.unseen
            for card in unseen:
                branch(_with_card(w, slots[0], card), p / len(unseen), chosen + ((slots[0], card),))

        branch(view, ONE, ())
        return out

    def _pair_value(self, view: Observation, move: Move, outcomes, floor: Fraction, view_key=None) -> Fraction:
        """The chance value of a revealing move, exact when it beats ``floor``; else an upper bound <= floor.

        ``view_key`` names a view above ``view`` with the same unknown slots
        whose arrangements are judged (the closure's root), for the shares.
        """
        key = (view.key(), move)
        if key in self._chance:
            return self._chance[key]
        if key in self._ceiling and self._ceiling[key] <= floor:
            return self._ceiling[key]
        bound = sum((p * self._thoughtful(o, (view_key, c)) for p, o, c in outcomes), ZERO)
        for p, o, _ in outcomes:
            if bound <= floor:
                self._ceiling[key] = bound
                return bound
            share = self._thoughtful(o)
            if share:
                bound -= p * (share - self._v(o))
        self._chance[key] = bound  # every outcome evaluated: the bound is the value
        return bound

    def _move_value(self, view: Observation, move: Move, reveals: bool) -> Fraction:
        """One legal move's value: the chance value of a revealing move, V of the view after any other."""
        if len(view.hidden_slots()) <= 1:
            return ONE if self._winnable(apply_move(view.filled(view.unseen), move, self.rules)) else ZERO
        if reveals:
            return self._pair_value(view, move, self._outcomes(view, move), Fraction(-1), view.key())
        after = view.after(move, self.rules)
        if is_won(after.stand_in(), self.rules):
            return ONE
        self._thoughtful(after, (view.key(), ()))  # the same slots: a lost arrangement stays lost
        return self._v(after)


def reveal_closure(
    view: Observation, rules: Rules, count_view: Callable[[], None] | None = None
) -> tuple[tuple[Move, ...] | None, list[RevealingPair]]:
    """The views reachable from ``view`` without a reveal (breadth first) and their revealing moves; or a won line.

    Walked on the view's stand-in position: between reveals the unknown
    slots keep their stand-in cards, which no move reads, so a stand-in
    position stands for exactly one view of the closure (and is cheaper
    to step than an Observation). Views equal up to the order of their
    interchangeable columns are explored once (``symmetric_key``).
    ``count_view`` is called for each new view walked (it may raise to stop
    the walk: a budget).
    """
    unknown = set(view.hidden_slots())
    tail_unknown = any(slot[0] < 0 for slot in unknown)
    start = view.stand_in()
    seen = {symmetric_key(start)}
    queue = deque([(start, ())])
    pairs: list[RevealingPair] = []
    while queue:
        position, path = queue.popleft()
        for move in legal_moves(position, rules):
            if move.is_tail and tail_unknown:  # it reveals: the position after it is not needed
                pairs.append(RevealingPair(view, move, path, position))
                continue
            after = apply_move(position, move, rules)
            if after.hidden != position.hidden and any(  # most moves turn nothing up: skip the slot test
                (i, j) in unknown for i in range(len(after.hidden)) for j in range(after.hidden[i], position.hidden[i])
            ):
                pairs.append(RevealingPair(view, move, path, position))
                continue
            if is_won(after, rules):
                return path + (move,), []
            after_key = symmetric_key(after)
            if after_key not in seen:
                if count_view is not None:
                    count_view()
                seen.add(after_key)
                queue.append((after, path + (move,)))
    return None, pairs


def symmetric_key(position) -> tuple:
    """The position up to the order of its interchangeable columns (no face-down card; 4-7 until the tail deal).

    The rules treat such columns alike (the tail lands on columns 1-3 only),
    so two closure views that differ by their order have the same value and
    the same revealing moves up to the renaming of columns: exploring one is
    enough.
    """
    columns, hidden = position.columns, position.hidden
    fixed = list(columns)
    free = []
    for i in range(len(position.tail), len(columns)):  # the tail lands on the first columns, one card each
        if not hidden[i]:
            free.append(columns[i])
            fixed[i] = None
    free.sort()
    return tuple(fixed), tuple(free), hidden, position.tail, position.frozen, position.reserves


def _revealed_slots(view: Observation, move: Move, position) -> list[tuple[int, int]]:
    """The unknown slots ``move`` turns up (``position``: the stand-in after it), the tail's first.

    The tail's come first because its cards decide whether a sweep turns up
    more (the stand-in's tail cards are arbitrary until they are fixed).
    """
    if move.is_tail and any(c == UNKNOWN for c in view.tail):
        return [(-1, t) for t, c in enumerate(view.tail) if c == UNKNOWN]
    return [
        (i, j)
        for i, col in enumerate(view.columns)
        for j in range(position.hidden[i], view.hidden[i])
        if col[j] == UNKNOWN
    ]


def _masked(view: Observation, position) -> Observation:
    """``view.masked(position)`` for a move that revealed no unknown slot, with the swept suits found cheaply."""
    before = sum(map(len, view.columns)) + len(view.tail) + len(view.reserves)
    after = sum(map(len, position.columns)) + len(position.tail) + len(position.reserves)
    return view.masked(position, view.swept if after == before else None)  # only a sweep removes cards


def _with_card(view: Observation, slot: tuple[int, int], card: int) -> Observation:
    """The view with ``card`` known to lie in ``slot`` (still face down or in the tail)."""
    i, j = slot
    if i < 0:
        tail = view.tail[:j] + (card,) + view.tail[j + 1 :]
        return Observation(view.columns, view.hidden, tail, view.swept, view.frozen, view.reserves, view.decks)
    col = view.columns[i][:j] + (card,) + view.columns[i][j + 1 :]
    columns = view.columns[:i] + (col,) + view.columns[i + 1 :]
    return Observation(columns, view.hidden, view.tail, view.swept, view.frozen, view.reserves, view.decks)


@dataclass(frozen=True)
class DealValue:
    """The exact no-peek value of a whole deal's view, or the bounds on it that a budget left.

    ``share`` is S (the thoughtful share: the winnable arrangements of the
    unseen cards) and ``value`` V, each None when a budget cut it short;
    ``covered`` is the win probability of the deal's cover (``play.cover``:
    a no-peek strategy built from the winning lines; None when not built).
    ``lower`` and ``upper`` always bound V: the best of the cover and the
    best line the expectimax evaluated (each a strategy that wins that
    often), and S (when a budget cut S short: the share of the arrangements
    not known lost, and the cover is built from those known won). With V
    known, both equal it.
    """

    unseen: int
    status: str  # exact | unknown
    share: Fraction | None
    value: Fraction | None
    lower: Fraction
    upper: Fraction
    stopped_by: str
    solves: int
    nodes: int
    views: int
    covered: Fraction | None = None
    by: str = ""  # what made V exact: "dead" (S = 0), "cover" (the cover wins S), "expectimax"

    def as_dict(self) -> dict:
        return {
            "unseen": self.unseen,
            "status": self.status,
            "value": _fraction(self.value),
            "share": _fraction(self.share),
            "lower": str(self.lower),
            "upper": str(self.upper),
            "value_float": _number(self.value),
            "lower_float": float(self.lower),
            "upper_float": float(self.upper),
            "stopped_by": self.stopped_by,
            "solves": self.solves,
            "nodes": self.nodes,
            "views": self.views,
            "covered": _fraction(self.covered),
            "by": self.by,
        }


def deal_value(
    view: Observation,
    rules: Rules,
    seconds: float | None = None,
    cover_solve_nodes: int | None = None,
    cover_budget_nodes: int | None = None,
    **options,
) -> DealValue:
    """V of a view as large as a whole deal's (Three Blind Mice's 9 unseen cards), with bounds when cut short.

    S is computed first (every arrangement solved, its winning line kept:
    the upper bound and the pruning's base; first each with at most
    ``FIRST_PASS_NODES``, then the few left with the whole budget, so a
    budget that runs out leaves most verdicts known). Then the cover (``play.cover``)
    is built from those lines: where it wins every winnable arrangement, V = S
    and nothing more is searched. Otherwise the expectimax searches V from the
    cover's value as its floor (the cover is a strategy, so V is the larger of
    its value and the best revealing pair, and only the pairs whose bound is
    above it are evaluated), under the budgets, both under one wall-clock
    limit of ``seconds`` (a fresh endgame, nothing kept from another view).
    """
    from .cover import DEFAULT_COVER_BUDGET_NODES, DEFAULT_COVER_SOLVE_NODES, CoverBudgetSpent, cover

    unseen = len(view.hidden_slots())
    engine = ExactEndgame(rules, max_unseen=max(unseen, DEFAULT_MAX_UNSEEN), seconds=seconds, **options)
    engine.check(view)
    engine.keep_lines()
    share = value = covered = None
    stopped_by = by = ""
    spent = [0, 0]  # the cover's solves and nodes

    def covering(lines) -> Fraction | None:
        """The cover's value from these winning lines; None when its own budget ran out."""
        try:
            found = cover(
                view,
                lines,
                rules,
                solve_nodes=cover_solve_nodes or DEFAULT_COVER_SOLVE_NODES,
                budget_nodes=cover_budget_nodes or DEFAULT_COVER_BUDGET_NODES,
            )
        except CoverBudgetSpent:
            return None
        spent[0], spent[1] = found.solves, found.nodes
        return found.value

    upper = ONE
    try:
        share = engine._thoughtful(view)
        if share == 0:
            value, by = ZERO, "dead"
        else:
            covered = covering(engine.winning_lines(view))
            engine._lines = None  # the lines are no longer needed: the expectimax keeps only verdicts
            if covered == share:
                value, by = share, "cover"
            else:
                # the cover is a strategy: V is the larger of its value and the best pair that beats it
                value, by = engine._v(view, covered or ZERO), "expectimax"
    except _Undecided as exc:
        stopped_by = exc.stopped_by
        key, known = engine._partial
        if share is None and key == view.key() and known:
            # S cut short: the arrangements known lost bound V from above, those known won feed a cover
            arrangements = factorial(unseen)
            upper = Fraction(arrangements - sum(not won for won in known.values()), arrangements)
            won = engine.winning_lines(view, known)
            covered = covering(won) if won else None
    if value is not None:
        lower = upper = value
    else:
        lower = max(engine._lower.get(view.key(), ZERO), covered or ZERO)
        upper = share if share is not None else upper
    return DealValue(
        unseen,
        EXACT if value is not None else UNDECIDED,
        share,
        value,
        lower,
        upper,
        stopped_by,
        engine.solves + spent[0],
        engine.nodes + spent[1],
        engine.views,
        covered,
        by if value is not None else "",
    )


def exact_report(view: Observation, rules: Rules = CLEAR, **options) -> ExactReport:
    """``ExactEndgame(rules, **options).report(view)``: the exact value of every legal move of ``view``."""
    return ExactEndgame(rules, **options).report(view)
