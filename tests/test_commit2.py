"""commit2: commitments judged two levels deep (``play.commit2``), checked against plain recomputations.

The inner layouts are conditioned on the revealed cards by transposition:
over every arrangement of the unseen cards, each arrangement that agrees with
the revealed cards comes out equally often (an exact sample). The best
second commitment, found with its shortcuts (a commitment free where the
solver's line makes it, a candidate dropped once it cannot win), is the best
of the same candidates judged by replaying each on each layout and solving.
The player sees only the view (``tests/test_play.py`` re-deals it with every
policy) and replays its games from its seed.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from scorpion_solver.batch.plan import parse_range
from scorpion_solver.batch.play_runs import PlaySettings, default_play_out
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, parse_moves
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.game.view import Observation, sample_positions
from scorpion_solver.play import History, PolicySpec, make_policy, play_game
from scorpion_solver.play.commit import distinct_commitments
from scorpion_solver.play.commit2 import _condition
from scorpion_solver.play.commitment import first_commitment, play_commitment, slot_cards
from scorpion_solver.play.exact import reveal_closure
from scorpion_solver.solver.result import WON
from scorpion_solver.solver.search import solve


def _view_on_line(number, rules, unseen):
    """The first view on deal ``number``'s winning line with at most ``unseen`` cards still unseen."""
    position = deal(number, rules)
    for move in parse_moves(solve(position, rules).solution):
        view = Observation.of(position)
        if len(view.hidden_slots()) <= unseen:
            return view
        position = apply_move(position, move, rules)
    raise AssertionError(f"deal {number} never has {unseen} or fewer unseen cards on its line")


@pytest.mark.parametrize("fixed", [1, 2])
def test_conditioning_by_transposition_gives_every_agreeing_arrangement_equally_often(fixed):
    view = _view_on_line(56, CLEAR, 5)
    slots = view.hidden_slots()
    unseen = view.unseen
    revealed = dict(zip(slots[:fixed], reversed(unseen)))  # the last cards into the first slots
    counts = Counter()
    for arrangement in itertools.permutations(unseen):
        conditioned = _condition(view, slots, view.filled(arrangement), revealed)
        counts[tuple(slot_cards(conditioned, slots))] += 1
    agreeing = [a for a in itertools.permutations(unseen) if all(a[k] == c for k, c in enumerate(revealed.values()))]
    assert sorted(counts) == sorted(agreeing)  # only arrangements that show the revealed cards, and all of them
    assert set(counts.values()) == {len(list(itertools.permutations(unseen))) // len(agreeing)}


@pytest.mark.parametrize("rules, number, unseen", [(CLEAR, 49, 9), (CLASSIC, 57, 11)])
def test_the_best_second_commitment_is_the_best_candidate_replayed_and_solved(rules, number, unseen):
    policy = make_policy("commit2", rules, seed=3, nodes=1000)
    view = _view_on_line(number, rules, unseen)
    positions = sample_positions(view, 6, seed=5)
    value = policy._best_second(view, positions)
    lines = [policy._run(p).line for p in positions]
    candidates = {first_commitment(view, line, rules) for line, p in zip(lines, positions) if line}
    candidates.discard(None)

    def kept(commitment):
        return sum(solve(play_commitment(p, commitment, rules), rules, policy.limits).status == WON for p in positions)

    best_candidate = max((kept(c) for c in candidates), default=0)
    assert 0 < value * len(positions) == best_candidate
    _, pairs = reveal_closure(view, rules)
    every = max(kept(p.commitment) for p in distinct_commitments(pairs, rules))
    assert best_candidate <= every  # the candidates are some of the closure's commitments


def test_commit2_plays_whole_commitments_judges_deeper_and_is_reproducible():
    rules = CLEAR
    truth = deal(57, rules)
    options = {"samples": 12, "nodes": 500, "outer": 4, "inner": 3}
    first_policy = make_policy("commit2", rules, seed=11, **options)
    first = play_game(truth, rules, first_policy)
    again = play_game(truth, rules, make_policy("commit2", rules, seed=11, **options))
    assert first.moves == again.moves
    assert first.outcome in ("won", "lost")
    assert first_policy.deep_decisions > 0  # the second level decided something
    policy = make_policy("commit2", rules, seed=11, **options)
    view = Observation.of(truth)
    line = policy._best_commitment(view, History())
    assert line is not None
    assert policy.choose(view, History()) == line[0]  # then it follows the rest without a new judgement


def test_commit2_takes_commits_options_and_its_own():
    policy = make_policy("commit2", CLEAR, seed=2, samples=5, nodes=400, max_views=7, top=2, outer=6, inner=4)
    options = policy.options
    assert (options.samples, options.max_views, options.top, options.outer, options.inner) == (5, 7, 2, 6, 4)
    assert policy.settings()["policy"] == "commit2"
    with pytest.raises(ValueError, match="'bandit' is an option of hop, not of commit2"):
        make_policy("commit2", CLEAR, bandit=True)
    with pytest.raises(ValueError, match="at least one"):
        make_policy("commit2", CLEAR, inner=0)


@pytest.mark.parametrize("name", ["commit", "commit2"])
def test_rejudge_tail_judges_again_where_an_earlier_commitment_would_deal_the_tail(name):
    rules = CLEAR
    view = Observation.of(deal(49, rules))
    (tail,) = [m for m in view.legal_moves(rules) if m.is_tail]
    options = {"samples": 8, "nodes": 500}
    fresh = make_policy(name, rules, seed=11, **options).choose(view, History())
    assert not fresh.is_tail  # so that the two rules differ here
    following, rejudging = (make_policy(name, rules, seed=11, rejudge_tail=r, **options) for r in (False, True))
    for policy in (following, rejudging):
        policy._commit_plan[view.key()] = (tail,)  # as if an earlier commitment's path ended here with the tail
    assert following.choose(view, History()) == tail
    assert rejudging.choose(view, History()) == fresh
    assert rejudging.settings()["rejudge_tail"] is True and "rejudge_tail" not in following.settings()


def test_rejudge_tail_is_recorded_and_names_the_folder():
    spec = PolicySpec("commit2", samples=100, rejudge_tail=True, exact_endgame=5)
    assert spec.record()["rejudge_tail"] is True and PolicySpec("commit2").record()["rejudge_tail"] is False
    assert spec.build(CLEAR, 3).options.rejudge_tail
    out = default_play_out(PlaySettings(parse_range("1-20"), ("clear",), spec))
    assert out.name == "play-1-20-clear-commit2-k100-n1000-x5-rt-s0"
