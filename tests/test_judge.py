"""One way to judge moves (``solver.judge``): the solves it runs, in order, and what it concludes."""

from __future__ import annotations

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, is_won, legal_moves, replay
from scorpion_solver.game.rules import CLEAR
from scorpion_solver.solver.judge import judge_moves
from scorpion_solver.solver.result import LOST, UNKNOWN, WON, Limits
from scorpion_solver.solver.search import solve


def counting(limits_of):
    """A solve that records the positions it is asked about; ``limits_of(position)`` gives its limits."""
    asked = []

    def run(position):
        asked.append(position)
        return solve(position, CLEAR, limits_of(position))

    return asked, run


def test_a_lost_layout_loses_every_move_after_one_solve():
    position = deal(1, CLEAR)
    moves = legal_moves(position, CLEAR)
    asked, run = counting(lambda p: Limits())
    root, judged = judge_moves(position, moves, CLEAR, run)
    assert root.status == LOST and asked == [position]
    assert len(moves) > 1 and [j.move for j in judged] == moves
    assert all(j.status == LOST and j.result is None and j.line == () for j in judged)


def test_the_first_move_of_the_win_needs_no_solve_of_its_own():
    position = deal(5, CLEAR)
    moves = legal_moves(position, CLEAR)
    asked, run = counting(lambda p: Limits())
    root, judged = judge_moves(position, moves, CLEAR, run, solve_known=False)
    first = root.line[0]
    assert root.status == WON and first in moves and len(moves) > 2
    assert asked == [position] + [apply_move(position, m, CLEAR) for m in moves if m != first]
    for j in judged:
        after = apply_move(position, j.move, CLEAR)
        if j.move == first:
            assert (j.status, j.line, j.result) == (WON, root.line[1:], None)
        else:
            assert j.status == solve(after, CLEAR).status and j.line == j.result.line
        if j.status == WON:
            assert is_won(replay(after, j.line, CLEAR), CLEAR)
    assert {j.status for j in judged} >= {WON, LOST}


def test_with_every_move_solved_the_shorter_win_is_kept():
    position = deal(5, CLEAR)
    moves = legal_moves(position, CLEAR)
    asked, run = counting(lambda p: Limits())
    root, judged = judge_moves(position, moves, CLEAR, run)
    assert asked == [position] + [apply_move(position, m, CLEAR) for m in moves]
    (on_line,) = [j for j in judged if j.move == root.line[0]]
    assert on_line.result.status == WON
    assert len(on_line.line) == min(len(on_line.result.line), len(root.line) - 1)


def test_a_move_its_own_solve_leaves_unknown_is_won_by_the_layouts_win():
    position = deal(5, CLEAR)
    moves = legal_moves(position, CLEAR)
    asked, run = counting(lambda p: Limits() if p == position else Limits(nodes=1))
    root, judged = judge_moves(position, moves, CLEAR, run)
    (on_line,) = [j for j in judged if j.move == root.line[0]]
    assert on_line.result.status == UNKNOWN and on_line.result.stopped_by == "nodes"
    assert on_line.status == WON and on_line.line == root.line[1:]
