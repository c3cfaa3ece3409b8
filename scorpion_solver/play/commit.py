"""``commit``: hindsight optimisation over commitments, a player that does not assume it will know everything.

hop (``play.policies``) judges each legal move by the share of sampled
layouts in which the position after it is winnable, as if every hidden card
were known right after the move (strategy fusion: Frank and Basin 1998). For
a move that reveals nothing that is the wrong question: the player learns
nothing from it, so what it can do next is fixed by the view, not by the
layout. hop scores such a move by the best continuation *of each layout*,
which no player can follow.

``commit`` asks the question at the level where information arrives. From a
view, the moves that reveal nothing form a deterministic graph (the view's
*closure*, ``play.exact.reveal_closure``); whatever a player does until the
next card turns up is a path in it followed by one revealing move (a flip or
the tail deal): a *commitment* (lonelybot's word for Klondike: the first
irreversible move reachable through reversible play). ``commit`` judges every
commitment of the closure on the same K sampled layouts (common random
numbers): its score is the share of layouts in which the position after the
revealing move is winnable. It plays the path and the revealing move of the
best one, sees the card(s) turned up, and decides again. So it is blind,
exactly as the player is, until the next reveal, and clairvoyant only after
it: one level of information more than hop (which is clairvoyant at once).
Its score for a commitment is an upper bound on what playing it can win,
like hop's for a move, but a tighter one.

Work shared, as in hop: a layout whose position is lost loses every
commitment (one solve); in a layout whose position is won, the commitment
the solver's own line makes first is winnable without a solve. The layouts
are judged in rounds: after the first ``screen`` layouts with a winnable
position (``SCREEN``, 8), only the ``keep`` best commitments (``KEEP``, 6) (ties: nearest reveal first)
go on to the rest, which bounds the cost of a closure with hundreds of
commitments; the choice is among those. A closure larger than
``max_views`` views, or one with no revealing move, is left to hop's
move-by-move judgement. Ties go to the nearest reveal (the closure is walked
breadth first). Once 2 to N cards are unseen it can play the exact no-peek
endgame (``exact_endgame``, as hop), and once nothing is hidden the solver's
line.

Only the view is read: the layouts are sampled from it (``sample_positions``),
and the seed with the number of moves played fixes them, so the same view
gives the same move whatever the hidden cards are (``tests/test_play.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..game.engine import Move, apply_move
from ..game.rules import CLEAR, Rules
from ..game.view import Observation, sample_positions
from ..solver.result import LOST, WON
from .commitment import Commitment, RevealingPair, after_commitment, first_reveal, slot_cards
from .exact import reveal_closure, symmetric_key
from .policies import History, HopOptions, HopPolicy, option

DEFAULT_MAX_VIEWS = 2_000  # views of one closure walked before the decision goes to hop (plain Python)
SCREEN = 8  # layouts with a winnable position that judge every commitment
KEEP = 6  # commitments that go on to the remaining layouts


class _ClosureTooBig(Exception):
    pass


@dataclass(frozen=True)
class CommitOptions(HopOptions):
    """commit's options: hop's but ``bandit``, and its own.

    * ``samples``, ``nodes``, ``exact_endgame``, ``memory_mb``, ``reductions``: as hop's (``HopOptions``);
    * ``max_views``: the most views of a closure walked; a larger closure leaves the decision to hop;
    * ``screen``, ``keep``: after ``screen`` layouts with a winnable position, only the ``keep`` best
      commitments go on to the rest of the layouts (``judge_commitments``);
    * ``rejudge_tail``: when a commitment chosen earlier reaches its tail deal, judge the view again
      instead of dealing (nothing was learned on the way, but the tail is the costliest reveal to
      commit to in advance: ``benchmarks/tail_decisions.py``). Off by default: the committed folders
      were played without it.
    * ``value_ties``: break a tie for the most layouts won by the learned value of the views after the
      commitments (``play.view_value``) instead of by the nearest reveal. Off by default.
    """

    # Where commit leaves a decision to hop, hop judges every move in every layout: the bandit is
    # always off, and no option of commit (``make_policy`` refuses it).
    bandit: bool = field(default=False, init=False)
    max_views: int = option(DEFAULT_MAX_VIEWS)
    rejudge_tail: bool = option(False, shown="when set")
    value_ties: bool = option(False, shown="when set")
    screen: int = option(SCREEN, shown="never")
    keep: int = option(KEEP, shown="never")

    def __post_init__(self) -> None:
        super().__post_init__()
        if min(self.max_views, self.screen, self.keep) < 1:
            raise ValueError("commit needs at least one view, screening layout and commitment kept")
        if self.value_ties not in (0, 1):  # `scorpion play --option value_ties=1` gives an integer
            raise ValueError(f"value_ties is on or off (1 or 0), not {self.value_ties!r}")
        object.__setattr__(self, "value_ties", bool(self.value_ties))


class CommitPolicy(HopPolicy):
    name = "commit"
    Options = CommitOptions
    options: CommitOptions
    # decisions taken over commitments, the others went to hop (a class default, as commit2's
    # deep_decisions: the first count makes it the policy's own)
    commitments = 0

    def __init__(self, rules: Rules = CLEAR, seed: int = 0, **options: Any) -> None:
        """``options``: those of ``CommitOptions``."""
        super().__init__(rules, seed, **options)
        self._commit_plan: dict = {}  # view key -> the rest of a chosen commitment (path, then the reveal)

    def _choose(self, view: Observation, moves: list[Move], history: History) -> Move:
        planned = self._commit_plan.pop(view.key(), None)
        if planned is not None and not (self.options.rejudge_tail and planned[0].is_tail):
            return self._follow(view, planned)
        if len(view.hidden_slots()) <= 1 or 2 <= len(view.hidden_slots()) <= self.options.exact_endgame:
            return super()._choose(view, moves, history)  # perfect information, or the exact endgame
        line = self._best_commitment(view, history)
        if line is None:
            return super()._choose(view, moves, history)
        self.commitments += 1
        return self._follow(view, line)

    def _follow(self, view: Observation, line: Commitment) -> Move:
        if len(line) > 1:
            after = view.after(line[0], self.rules)  # the path reveals nothing before its last move
            self._commit_plan[after.key()] = line[1:]
        return line[0]

    def _best_commitment(self, view: Observation, history: History) -> Commitment | None:
        walked = 0

        def count() -> None:
            nonlocal walked
            walked += 1
            if walked > self.options.max_views:
                raise _ClosureTooBig

        try:
            _, pairs = reveal_closure(view, self.rules, count)
        except _ClosureTooBig:
            return None
        pairs = distinct_commitments(pairs, self.rules)
        if not pairs:
            return None
        if len(pairs) == 1:
            return pairs[0].commitment
        layouts = sample_positions(view, self.options.samples, int(self.rng(history).integers(2**63)))
        judged = judge_commitments(
            view,
            pairs,
            layouts,
            self.rules,
            self._run,
            screen=(self.options.screen, self.options.keep),
            judge_undecided_root=False,
        )
        order = ranked(judged, self._tie_values(view, pairs, layouts, judged))
        best = self._pick(view, pairs, layouts, judged, order, history)
        return pairs[best].commitment

    def _pick(
        self, view: Observation, pairs: list[RevealingPair], layouts: list, judged: Judged, order: list[int], history
    ) -> int:
        """The index of the commitment to play: the first of ``order`` (the most layouts won, ``ranked``)."""
        return order[0]

    def _tie_values(self, view: Observation, pairs: list[RevealingPair], layouts: list, judged: Judged) -> dict | None:
        """With ``value_ties``, the learned value of each commitment tied for the most layouts won (if any won)."""
        if not self.options.value_ties:
            return None
        wins = judged.won.sum(axis=0)
        top = max(wins[i] for i in judged.alive)
        tied = [i for i in judged.alive if wins[i] == top]
        if top == 0 or len(tied) < 2:
            return None
        from .view_value import VALUE_LAYOUTS, learned_value

        return learned_values(learned_value(self.rules.name), view, pairs, tied, layouts[:VALUE_LAYOUTS], self.rules)


@dataclass
class Judged:
    """Every commitment judged on every layout: ``won[layout, commitment]`` and ``undecided`` (budget)."""

    won: np.ndarray
    undecided: np.ndarray
    alive: list[int]  # the commitments judged on every layout (all, without a screen)
    root_won: int = 0
    root_undecided: int = 0


def judge_commitments(
    view: Observation,
    pairs: list[RevealingPair],
    layouts: list,
    rules: Rules,
    run: Callable,
    screen: tuple[int, int] | None = None,
    judge_undecided_root: bool = True,
) -> Judged:
    """Whether each layout stays winnable after each commitment; ``run(position)`` solves (a SolveResult).

    A layout whose position is lost loses every commitment (one solve); in a
    won one, the commitment the solver's own line makes first is won without
    a solve. With ``screen`` (n, k), after n layouts with a winnable position
    only the k best commitments so far (ties: the nearest) are judged on the
    rest; the others keep what they had. A layout whose own solve the budget
    left undecided is judged commitment by commitment, or, with
    ``judge_undecided_root`` false, counted lost for all (hop's rule).
    """
    by_key = {_after_key(p, rules): i for i, p in enumerate(pairs)}
    slots = view.hidden_slots()
    won = np.zeros((len(layouts), len(pairs)), dtype=bool)
    undecided = np.zeros((len(layouts), len(pairs)), dtype=bool)
    alive = list(range(len(pairs)))
    judged = Judged(won, undecided, alive)
    for row, layout in enumerate(layouts):
        root = run(layout)
        if root.status == LOST:
            continue
        free = None
        if root.status == WON:
            judged.root_won += 1
            free = by_key.get(_first_commitment_key(view, root.line, rules))
        else:
            judged.root_undecided += 1
            if not judge_undecided_root:
                continue
        cards = slot_cards(layout, slots)
        for col in judged.alive:
            if col == free:
                won[row, col] = True
                continue
            result = run(after_commitment(pairs[col], cards, rules))
            won[row, col] = result.status == WON
            undecided[row, col] = result.status not in (WON, LOST)
        if screen and judged.root_won == screen[0] and root.status == WON and len(judged.alive) > screen[1]:
            judged.alive = ranked(judged)[: screen[1]]
    return judged


def learned_values(model, view: Observation, pairs: list[RevealingPair], indices, layouts: list, rules: Rules) -> dict:
    """For each commitment of ``indices``, ``model``'s mean value (``view_value``) of the views after it in ``layouts``."""
    slots = view.hidden_slots()
    fills = [slot_cards(layout, slots) for layout in layouts]
    return {
        i: model.value([Observation.of(after_commitment(pairs[i], cards, rules)) for cards in fills], rules)
        for i in indices
    }


def ranked(judged: Judged, values: dict | None = None) -> list[int]:
    """The commitments judged on every layout, the most layouts won first.

    Ties: the higher of ``values`` first, where it has both (the learned value, ``value_ties``), then the
    nearest reveal.
    """
    wins = judged.won.sum(axis=0)
    values = values or {}
    return sorted(judged.alive, key=lambda i: (-wins[i], -values.get(i, 0.0), i))


def _after_key(pair: RevealingPair, rules: Rules) -> tuple:
    return symmetric_key(apply_move(pair.position, pair.move, rules))


def distinct_commitments(pairs: list[RevealingPair], rules: Rules) -> list[RevealingPair]:
    """One pair for each position their commitments lead to (the first: the nearest), in the closure's order."""
    seen: set = set()
    out = []
    for pair in pairs:
        key = _after_key(pair, rules)
        if key not in seen:
            seen.add(key)
            out.append(pair)
    return out


def _first_commitment_key(view: Observation, line: tuple[Move, ...], rules: Rules) -> tuple | None:
    """The position (up to interchangeable columns) the first commitment of ``line`` reaches, on the stand-in;
    None if the line reveals nothing (compared with ``_after_key`` of a pair)."""
    found = first_reveal(view, line, rules)
    if found is None:
        return None
    before, length = found
    return symmetric_key(apply_move(before.stand_in(), line[length - 1], rules))
