"""Policies: players that see only what a player at the table sees.

A policy's one entry point is ``choose(view, history)``: ``view`` is an
:class:`~scorpion_solver.game.view.Observation` (never a Position, so the
hidden cards cannot reach it) and ``history`` the views seen and the moves
played so far in the game (:class:`History`). Its randomness comes from its
seed and the number of moves played, so the same seed and the same view give
the same move, whatever the hidden cards are (``tests/test_play.py`` re-deals
them to show it).

* ``random``: a uniform legal move, whole-column relocations excluded (they
  only go in circles);
* ``greedy``: the first move of the greedy order (``play.greedy``);
* ``hop``: hindsight optimisation. At each decision it samples K layouts of
  the hidden cards consistent with the view (the same K for every move:
  common random numbers, so the comparison of moves is paired), decides each
  move in each layout with the exact solver under a node budget (``unknown``
  counts as not winnable) and plays the move that keeps the most layouts
  winnable, ties and the case where no layout separates the moves going to
  the greedy order. Work is shared where the moves cannot differ: a layout
  whose position is lost loses with every move (one solve for all of them),
  and in a layout whose position is won, the first move of the solution found
  is winnable without a solve of its own. With ``bandit`` the layouts are
  spread among the moves adaptively (UCB1 on the share of winnable layouts,
  as lonelybot does for Klondike): each round gives one more layout to the
  move with the highest upper confidence bound, up to K layouts per move,
  and a move whose upper bound falls below the best lower bound is dropped.
  Once nothing is hidden (tail dealt, every face-down card turned) it plays
  the solver's solution, which is optimal. With ``exact_endgame`` N > 0
  (``scorpion play --exact-endgame N``; off by default, so the committed
  play folders reproduce), once 2 to N cards are unseen it plays the exact
  no-peek endgame instead (``play.exact``): the line of non-revealing moves
  and the revealing move that achieve V(view), the optimum of a player who
  cannot peek; where V is 0 (no arrangement can be won any more) or a budget
  leaves it unknown, it samples as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, Literal

import numpy as np

from ..game.engine import RESERVE, Move, lead_index
from ..game.rules import CLEAR, Rules
from ..game.view import Observation, sample_positions
from ..solver.judge import judge_move, judge_moves
from ..solver.reductions import Reductions, get_reductions
from ..solver.result import WON, Limits
from .exact import ExactEndgame
from .greedy import fresh_moves, greedy_order

DEFAULT_SAMPLES = 10
CHECKED_SAMPLED_WINS = 20  # a sampled layout's win replayed in the plain engine: one in this many (docs/play.md)
DEFAULT_NODES = 1000  # per solve of a sampled layout: most are decided in a few nodes
EXACT_BUDGET = 5_000_000  # nodes of all the exact endgame's solves for one decision (beyond: sample as before)
EXACT_VIEWS = 20_000  # views it may walk between reveals for one decision (about 10 s of plain Python)
# The search reductions a game is played with unless told (hop's solves, the harness's proofs): the preset
# the committed play folders were played with, which recorded no preset (``PolicySpec.reductions``). The
# others decide more samples within the same node budget, so they would change hop's choices.
PLAY_REDUCTIONS = "deadlock"


ShownInSettings = Literal["always", "when set", "never"]


def option(default: Any, shown: ShownInSettings = "always", recorded: bool = True) -> Any:
    """A field of a policy's options: its default, whether ``settings()`` reports it, and whether a play folder records it.

    ``shown``: "always"; "when set" (true or nonzero), so that the settings of
    policies made before the option existed read the same; or "never".
    ``recorded``: whether ``PolicyOptions.record`` holds it (every option
    whose value is plain data; the reductions are recorded by their preset's
    name, ``PolicySpec.record``).
    """
    return field(default=default, metadata={"shown": shown, "recorded": recorded})


@dataclass(frozen=True)
class PolicyOptions:
    """A policy's keyword options, declared once as the fields of a subclass (random and greedy take none).

    Each field is an option: its name, type and default (``option``); the
    subclass's ``__post_init__`` checks the values. A field with
    ``init=False`` is a fixed setting, not an option.
    """

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The names of the options, the fields a caller may set (``make_policy`` refuses any other name)."""
        return tuple(f.name for f in fields(cls) if f.init)

    def settings(self) -> dict:
        """The options that ``Policy.settings`` reports, in the order they are declared."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            shown = f.metadata.get("shown", "always")
            if f.init and (shown == "always" or (shown == "when set" and value)):
                out[f.name] = value
        return out

    def record(self) -> dict:
        """Every option, set or not, in the order declared: what a play folder records (``PolicySpec.record``)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init and f.metadata.get("recorded", True)}


@dataclass(frozen=True)
class HopOptions(PolicyOptions):
    """hop's options.

    * ``samples``: K, the layouts of the hidden cards sampled at each decision (at least one);
    * ``nodes``, ``memory_mb``: the budget of each solve (``Limits``);
    * ``bandit``: spread the layouts among the moves by UCB1 instead of judging every move in every layout;
    * ``exact_endgame``: N, play the exact no-peek endgame once 2 to N cards are unseen (0: never);
    * ``exact_nodes``, ``exact_views``: the exact endgame's budget for one decision (nodes of all its
      solves, views walked between reveals); past it the decision is sampled as before;
    * ``reductions``: the search reductions of the solves (None: ``PLAY_REDUCTIONS``).
    """

    samples: int = option(DEFAULT_SAMPLES)
    nodes: int = option(DEFAULT_NODES)
    bandit: bool = option(False)
    exact_endgame: int = option(0, shown="when set")
    # Not in settings(), as before they were declared here (a play folder records them all: ``record``;
    # the reductions by their preset's name, ``PolicySpec.record``).
    memory_mb: int = option(64, shown="never")
    exact_nodes: int = option(EXACT_BUDGET, shown="never")
    exact_views: int = option(EXACT_VIEWS, shown="never")
    reductions: Reductions | None = option(None, shown="never", recorded=False)

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError("hop needs at least one sample")
        if min(self.nodes, self.memory_mb, self.exact_nodes, self.exact_views) < 1:
            raise ValueError("hop needs at least one node, megabyte, exact node and exact view")


@dataclass(frozen=True)
class History:
    """What the player remembers: the view before each move played, and the moves."""

    views: tuple[Observation, ...] = ()
    moves: tuple[Move, ...] = ()

    def seen(self) -> set:
        return {v.key() for v in self.views}


@dataclass
class Cost:
    """What a policy spent: decisions taken, solves run and their nodes."""

    decisions: int = 0
    solves: int = 0
    nodes: int = 0


def _solve(
    position, rules: Rules, limits: Limits, shorten: bool = True, reductions: Reductions | None = None, checks=None
):
    from ..solver.search import solve  # numba loads on first use

    reductions = reductions or get_reductions(PLAY_REDUCTIONS)
    return solve(position, rules, limits, shorten=shorten, reductions=reductions, checks=checks)


class Policy:
    """Base: a named player with a seed, its options (an ``Options``) and a cost counter."""

    name = "policy"
    Options: type[PolicyOptions] = PolicyOptions  # the options the policy takes, declared once
    OPTIONS: tuple[str, ...] = ()  # their names, which ``make_policy`` passes on: ``Options.names()``

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.OPTIONS = cls.Options.names()

    def __init__(self, rules: Rules = CLEAR, seed: int = 0, **options: Any) -> None:
        """``options``: fields of the policy's ``Options`` (an unknown one is a TypeError, a bad value a ValueError)."""
        self.rules = rules
        self.seed = seed
        self.options = self.Options(**options)
        self.cost = Cost()

    def rng(self, history: History) -> np.random.Generator:
        return np.random.default_rng([self.seed, len(history.moves)])

    def choose(self, view: Observation, history: History = History()) -> Move:
        """The move to play in ``view``; a Position is refused (it would show the hidden cards)."""
        if not isinstance(view, Observation):
            raise TypeError(f"a policy sees an Observation, not a {type(view).__name__}: use Observation.of(position)")
        moves = view.legal_moves(self.rules)
        if not moves:
            raise ValueError("no legal move: the game is over")
        self.cost.decisions += 1
        return self._choose(view, moves, history)

    def _choose(self, view: Observation, moves: list[Move], history: History) -> Move:
        raise NotImplementedError

    def settings(self) -> dict:
        """The policy's name, seed and options, as ``PolicyOptions.settings`` reports them."""
        return {"policy": self.name, "seed": self.seed, **self.options.settings()}


class RandomPolicy(Policy):
    name = "random"

    def _choose(self, view: Observation, moves: list[Move], history: History) -> Move:
        useful = [  # not a column's bottom card moved into a space: that changes nothing
            m
            for m in moves
            if m.is_tail or m.src == RESERVE or lead_index(view, m, view.decks) > 0 or view.columns[m.dst]
        ]
        pool = useful or moves
        return pool[int(self.rng(history).integers(len(pool)))]


class GreedyPolicy(Policy):
    name = "greedy"

    def _choose(self, view: Observation, moves: list[Move], history: History) -> Move:
        return greedy_order(view, fresh_moves(view, moves, history.seen(), self.rules), self.rules)[0]


class HopPolicy(Policy):
    name = "hop"
    Options = HopOptions
    options: HopOptions

    def __init__(self, rules: Rules = CLEAR, seed: int = 0, **options: Any) -> None:
        """``options``: those of ``HopOptions``."""
        super().__init__(rules, seed, **options)
        self.limits = Limits(nodes=self.options.nodes, memory_mb=self.options.memory_mb)
        self.reductions = self.options.reductions or get_reductions(PLAY_REDUCTIONS)
        self._plan: dict = {}  # view key -> the rest of a known win (perfect information only)
        self._endgame = None  # the exact endgame, made on first use; it keeps its values through the game
        self._exact_plan: dict = {}  # view key -> the rest of an exact line (non-revealing moves, then a reveal)
        self._sampled_checks = None  # made on first use (search.SampledWinChecks): numba loads with the solver

    def _run(self, position, shorten: bool = False):
        # A sampled layout's solve gives a verdict and a first move: its line is not cut or polished
        # (that was most of the cost of a solve), and one of its wins in CHECKED_SAMPLED_WINS is replayed;
        # the plan played once nothing is hidden is cut, polished and replayed.
        if self._sampled_checks is None:
            from ..solver.search import SampledWinChecks

            self._sampled_checks = SampledWinChecks(CHECKED_SAMPLED_WINS)
        checks = None if shorten else self._sampled_checks
        result = _solve(position, self.rules, self.limits, shorten, self.reductions, checks)
        self.cost.solves += 1
        self.cost.nodes += result.nodes
        return result

    def _choose(self, view: Observation, moves: list[Move], history: History) -> Move:
        if view.fully_known:
            planned = self._follow_plan(view)
            if planned is not None:
                return planned
        if 2 <= len(view.hidden_slots()) <= self.options.exact_endgame:
            exact = self._exact_move(view)
            if exact is not None:
                return exact
        candidates = greedy_order(view, fresh_moves(view, moves, history.seen(), self.rules), self.rules)
        if len(candidates) == 1:
            return candidates[0]
        k = 1 if view.fully_known else self.options.samples
        layouts = sample_positions(view, k, int(self.rng(history).integers(2**63)))
        wins = self._bandit(layouts, candidates) if self.options.bandit else self._all(layouts, candidates)
        best = max(wins.values())
        return next(m for m in candidates if wins[m] == best)  # candidates are in greedy order

    def _follow_plan(self, view: Observation) -> Move | None:
        key = view.key()
        if key not in self._plan:
            result = self._run(view.stand_in(), shorten=True)
            self._plan[key] = result.line if result.status == WON else ()
        line = self._plan.pop(key)
        if not line:
            return None
        after = view.after(line[0], self.rules)
        if after is not None and len(line) > 1:
            self._plan[after.key()] = line[1:]
        return line[0]

    def _exact_move(self, view: Observation) -> Move | None:
        """The next move of the exact endgame's best line; None where it does not decide (V = 0 or unknown)."""
        key = view.key()
        line = self._exact_plan.pop(key, None)
        if line is None:
            if self._endgame is None:
                self._endgame = ExactEndgame(
                    self.rules,
                    max_unseen=self.options.exact_endgame,
                    budget_nodes=self.options.exact_nodes,
                    budget_views=self.options.exact_views,
                )
            solves, nodes = self._endgame.solves, self._endgame.nodes
            found = self._endgame.best_line(view)
            self.cost.solves += self._endgame.solves - solves
            self.cost.nodes += self._endgame.nodes - nodes
            if found is None or not found[0] or not found[1]:
                return None
            line = found[1]
        if len(line) > 1:
            after = view.after(line[0], self.rules)  # the line reveals nothing before its last move
            self._exact_plan[after.key()] = line[1:]
        return line[0]

    def _judge(self, layout, root, move: Move) -> bool:
        """Whether ``move`` keeps ``layout`` winnable (``root`` is the layout's own solve)."""
        return judge_move(layout, move, root, self.rules, self._run, solve_known=False).status == WON

    def _all(self, layouts, candidates: list[Move]) -> dict:
        wins = dict.fromkeys(candidates, 0)
        for layout in layouts:
            # a lost layout loses with every move, and the first move of its win needs no solve
            _, judged = judge_moves(layout, candidates, self.rules, self._run, solve_known=False)
            for j in judged:
                wins[j.move] += j.status == WON
        return wins

    def _bandit(self, layouts, candidates: list[Move]) -> dict:
        """UCB1 over the moves, with elimination: each round one more layout for the move of highest bound.

        Layouts are taken in the common order (move m's i-th layout is every
        move's i-th), each move gets at most K, and a move whose upper bound
        falls below the best lower bound is dropped, which is where the
        bandit saves solves over judging every move in every layout.
        """
        roots: dict[int, object] = {}
        tried = dict.fromkeys(candidates, 0)
        wins = dict.fromkeys(candidates, 0)
        alive = list(candidates)
        total = 0

        def radius(m: Move) -> float:
            return math.sqrt(2 * math.log(total + 1) / tried[m]) if tried[m] else math.inf

        def mean(m: Move) -> float:
            return wins[m] / tried[m] if tried[m] else 0.0

        while True:
            open_moves = [m for m in alive if tried[m] < len(layouts)]
            if not open_moves or len(alive) == 1:
                break
            move = max(open_moves, key=lambda m: mean(m) + radius(m))  # ties: the greedy order
            i = tried[move]
            if i not in roots:
                roots[i] = self._run(layouts[i])
            wins[move] += self._judge(layouts[i], roots[i], move)
            tried[move] += 1
            total += 1
            if all(tried[m] for m in alive):
                floor = max(mean(m) - radius(m) for m in alive)
                alive = [m for m in alive if mean(m) + radius(m) >= floor]
        return {m: (mean(m) if m in alive else -1.0) for m in candidates}
