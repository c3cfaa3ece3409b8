"""Commitments: the commit player, UB_1 and the decision losses judge what a blind player can choose.

A commitment is a path of moves that reveal nothing and the revealing move
that ends it. These tests check the pieces against plain recomputations:
the closure's commitments are what they claim, the shortcuts of
``judge_commitments`` (a lost layout loses all, the solver's own first
commitment is free, slots filled without replaying the path) agree with
replaying each path on each layout and solving, UB_1 computed over every
arrangement lies between the exact no-peek value and the thoughtful share,
and the committed commit folder reproduces.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from scorpion_solver.batch import Execution, studies
from scorpion_solver.batch.backends import LocalBackend
from scorpion_solver.batch.plan import parse_range
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, parse_moves, replay
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.game.view import Observation, sample_positions
from scorpion_solver.play import History, make_policy, play_game
from scorpion_solver.play.bounds import first_reveal_bound
from scorpion_solver.play.commit import distinct_commitments, judge_commitments
from scorpion_solver.play.exact import ExactEndgame, reveal_closure
from scorpion_solver.play.losses import decision_losses, move_kind
from scorpion_solver.solver.result import WON, Limits
from scorpion_solver.solver.search import solve

ROOT = Path(__file__).resolve().parent.parent
COMMIT_FOLDER = ROOT / "results" / "play-1-2000-clear+classic-commit-k100-n1000-x5-s0"
LIMITS = Limits(nodes=200_000, memory_mb=64)


def _late_view(number, rules, unseen):
    """The view on deal ``number``'s winning line where ``unseen`` cards are still unseen."""
    position = deal(number, rules)
    for move in parse_moves(solve(position, rules).solution):
        view = Observation.of(position)
        if len(view.hidden_slots()) == unseen:
            return view
        position = apply_move(position, move, rules)
    raise AssertionError(f"deal {number} never has {unseen} unseen cards on its line")


def _commitments(view, rules):
    _, pairs = reveal_closure(view, rules)
    return distinct_commitments(pairs, rules)


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC])
def test_a_commitment_reveals_nothing_until_its_last_move(rules):
    view = Observation.of(deal(5, rules))
    pairs = _commitments(view, rules)
    assert len(pairs) > 5
    for pair in pairs:
        current = view
        for move in pair.path:
            assert not current.reveals(move, rules)
            current = current.after(move, rules)
        assert current == pair.view
        assert current.reveals(pair.move, rules)


@pytest.mark.parametrize("rules, number", [(CLEAR, 5), (CLASSIC, 49)])
def test_judging_commitments_agrees_with_replaying_each_path_and_solving(rules, number):
    view = Observation.of(deal(number, rules))
    pairs = _commitments(view, rules)
    layouts = sample_positions(view, 12, seed=number)
    judged = judge_commitments(view, pairs, layouts, rules, lambda p: solve(p, rules, LIMITS, shorten=False))
    assert judged.root_won > 0  # the shortcuts are exercised
    assert not judged.undecided.any()
    for row, layout in enumerate(layouts):
        for col, pair in enumerate(pairs):
            after = replay(layout, [*pair.path, pair.move], rules)
            assert judged.won[row, col] == (solve(after, rules, LIMITS).status == WON), (row, str(pair.move))


@pytest.mark.parametrize("rules, number, unseen", [(CLEAR, 5, 4), (CLASSIC, 49, 4), (CLEAR, 56, 5)])
def test_ub1_over_every_arrangement_lies_between_the_exact_value_and_the_thoughtful_share(rules, number, unseen):
    view = _late_view(number, rules, unseen)
    every = [view.filled(cards) for cards in itertools.permutations(view.unseen)]
    pairs = _commitments(view, rules)
    judged = judge_commitments(view, pairs, every, rules, lambda p: solve(p, rules, LIMITS, shorten=False))
    assert not judged.undecided.any()
    ub1 = Fraction(int(judged.won.sum(axis=0).max()), len(every))
    endgame = ExactEndgame(rules, max_unseen=unseen)
    value, share = endgame.value(view), endgame.thoughtful_share(view)
    assert value is not None and share is not None
    assert value <= ub1 <= share
    assert share == Fraction(judged.root_won, len(every))


def test_first_reveal_bound_brackets_and_is_reproducible():
    view = Observation.of(deal(5, CLEAR))
    one = first_reveal_bound(view, CLEAR, samples=20, seed=3)
    assert one == first_reveal_bound(view, CLEAR, samples=20, seed=3)
    assert one.commitments == len(_commitments(view, CLEAR))
    assert 0 < one.upper <= one.root_won / 20 + one.root_unknown / 20
    assert 0 <= one.split <= 1
    assert one.best  # the commitment of the upper estimate, as moves
    with pytest.raises(ValueError, match="two samples"):
        first_reveal_bound(view, CLEAR, samples=1)


def test_the_commit_player_plays_whole_commitments_and_is_reproducible():
    rules = CLEAR
    truth = deal(57, rules)
    first = play_game(truth, rules, make_policy("commit", rules, seed=11, samples=8, nodes=500))
    again = play_game(truth, rules, make_policy("commit", rules, seed=11, samples=8, nodes=500))
    assert first.moves == again.moves
    assert first.outcome in ("won", "lost")
    policy = make_policy("commit", rules, seed=11, samples=8, nodes=500)
    view = Observation.of(truth)
    line = policy._best_commitment(view, History())
    assert line is not None and len(line) >= 1
    assert policy.choose(view, History()) == line[0]  # then it follows the rest without a new judgement


def test_the_committed_commit_folder_reproduces():
    """The first won games of the committed folder replay move for move with the same seed."""
    if not COMMIT_FOLDER.is_dir():
        pytest.skip("the commit play folder is not in this checkout")
    table = pd.read_parquet(COMMIT_FOLDER)
    won = table[table.outcome == "won"].sort_values(["deal", "mode"]).head(2)
    assert len(won) == 2
    for row in won.itertuples():
        rules = CLEAR if row.mode == "clear" else CLASSIC
        policy = make_policy("commit", rules, seed=int(row.game_seed), samples=100, nodes=1000, exact_endgame=5)
        record = play_game(deal(int(row.deal), rules), rules, policy)
        assert record.text == row.moves


def test_decision_losses_are_paired_and_exact_where_small():
    rules = CLEAR
    truth = deal(56, rules)
    line = parse_moves(solve(truth, rules).solution)
    rows = decision_losses(truth, line, rules, samples=6, seed=1, nodes=20_000, exact_unseen=4)
    assert [r["step"] for r in rows] == list(range(len(line)))
    assert rows[0]["unseen"] == 15 and rows[-1]["unseen"] == 0
    for r in rows:
        assert 0 <= r["after"] <= r["before"] <= r["samples"]  # a win after the move was a win before it
        if 2 <= r["unseen"] <= 4:
            assert r["exact_before"] is not None and r["exact_after"] <= r["exact_before"] <= r["exact_share"]
        else:
            assert r["exact_before"] is None
    assert rows[-1]["before"] == rows[-1]["after"] == 1  # the solver's line keeps a known win
    kinds = {r["kind"] for r in rows}
    assert {"flip", "build", "tail"} <= kinds


def test_the_losses_of_one_kind_are_those_rows_of_the_whole_measure():
    rules = CLEAR
    truth = deal(56, rules)
    line = parse_moves(solve(truth, rules).solution)
    whole = decision_losses(truth, line, rules, samples=6, seed=1, nodes=20_000, exact_unseen=0)
    tail = decision_losses(truth, line, rules, samples=6, seed=1, nodes=20_000, exact_unseen=0, kinds=("tail",))
    assert len(tail) == 1 and tail == [r for r in whole if r["kind"] == "tail"]


def test_move_kinds():
    view = Observation.of(deal(5, CLEAR))
    kinds = {str(m): move_kind(view, m, CLEAR) for m in view.legal_moves(CLEAR)}
    assert kinds["tail"] == "tail"
    assert set(kinds.values()) <= {"tail", "flip", "build", "king-space"}
    for text, kind in kinds.items():
        move = parse_moves(text)[0]
        assert (kind in ("flip", "tail")) == view.reveals(move, CLEAR)


def test_studies_resume_and_refuse_other_settings(tmp_path):
    settings = studies.BoundSettings(parse_range("5-6"), ("clear",), samples=4, nodes=20_000)
    out = tmp_path / "bound"
    how = Execution(lambda: LocalBackend(1), progress=False)
    first = studies.run_study(studies.bound_study(settings, chunk=1), out, how)
    assert (first.written, first.already, first.complete) == (2, 0, True)
    again = studies.run_study(studies.bound_study(settings, chunk=1), out, how)
    assert (again.written, again.already, again.complete) == (0, 2, True)
    runs = json.loads((out / "_batch.json").read_text())["runs"]
    assert [r["kind"] for r in runs] == ["bound"] and runs[0][
        "stopped_early"
    ] is False  # a finished folder starts no run
    rows = studies.read_study_folder(out).to_pylist()
    assert [r["deal"] for r in rows] == [5, 6]
    other = studies.BoundSettings(parse_range("5-6"), ("clear",), samples=6, nodes=20_000)
    with pytest.raises(studies.BatchError, match="other settings"):
        studies.run_study(studies.bound_study(other, chunk=1), out, how)
    (summary,) = studies.bound_summary(out, {(5, "clear"): "won", (6, "clear"): "lost"})
    assert summary.deals == 2 and summary.thoughtful == 0.5
    assert summary.upper == pytest.approx(sum(r["upper"] for r in rows) / 2)
