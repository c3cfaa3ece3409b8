"""The deadlock test's successor-above rule (``deadlock``, kernel ``_successor_free``): verdicts and winning lines.

The rule is sound when no winnable position fails it: test_deadlock.py
searches small positions it decides exhaustively; here it is checked on real
deals. Verdicts are equal with the rule on and off (deals 1-300 in five
presets; the slow test: deals 1-3000 in both modes against the committed
rows, which were solved without it), no position on a winning line fails it
(every committed solution of deals 1-20000 in the slow test), and the search
runs the test after exactly the moves that can make it fail: checking after
every move prunes no more.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, parse_moves
from scorpion_solver.game.rules import CLASSIC, CLEAR, GOODSOL, SCORPION2, WASP, get_rules
from scorpion_solver.solver import kernel
from scorpion_solver.solver.reductions import Reductions
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import jit_deadlocked, solve

RESULTS = Path(__file__).resolve().parent.parent / "results" / "deals-1-1000000"
PRESETS = [CLEAR, CLASSIC, WASP, GOODSOL, SCORPION2]


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_verdicts_equal_on_and_off_1_to_300(rules):
    fewer = 0
    for number in range(1, 301):
        on = solve(deal(number, rules), rules, Limits(nodes=500_000))
        off = solve(deal(number, rules), rules, Limits(nodes=500_000), reductions=Reductions(successor_above=False))
        if "unknown" not in (on.status, off.status):
            assert on.status == off.status, number
        fewer += on.nodes < off.nodes
    assert fewer >= 5  # the rule bites in every preset


def test_the_rule_decides_deals_at_the_root_the_old_test_left_open():
    # Clear deal 202: 14,505 nodes without the rule, one with it.
    assert solve(deal(202), CLEAR, Limits(), reductions=Reductions(successor_above=False)).nodes == 14_505
    on = solve(deal(202), CLEAR)
    assert (on.status, on.nodes, on.dead_at_root) == ("lost", 1, True)


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=["clear", "classic"])
def test_checking_after_every_move_prunes_no_more(rules, monkeypatch):
    """Only a build whose group holds the successor of a card of its destination column can make
    the rule fail where the parent passed (``kernel._lands_over_predecessor``): running the test
    after every move (``PRUNE_EVERY_MOVE``) gives the same nodes, with more tests run."""
    normal = [solve(deal(n, rules), rules, Limits(nodes=500_000)) for n in range(1, 301)]
    bits = Reductions.kernel_bits
    monkeypatch.setattr(Reductions, "kernel_bits", lambda reductions: bits(reductions) | kernel.PRUNE_EVERY_MOVE)
    every = [solve(deal(n, rules), rules, Limits(nodes=500_000)) for n in range(1, 301)]
    for n, a, b in zip(range(1, 301), normal, every):
        assert (a.status, a.nodes, a.solution) == (b.status, b.nodes, b.solution), n
    assert sum(b.deadlock_checks for b in every) > 1.5 * sum(a.deadlock_checks for a in normal)


def winning_positions(rules, number, solution):
    pos = deal(number, rules)
    yield pos
    for move in parse_moves(solution):
        pos = apply_move(pos, move, rules)
        yield pos


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["clear", "classic"])
def test_no_position_on_a_committed_winning_line_fails_the_rule(mode):
    from scorpion_solver.batch import read_folder

    table = read_folder(RESULTS, columns=["deal", "mode", "status", "solution"]).to_pandas()
    won = table[(table["mode"] == mode) & (table["status"] == "won") & (table["deal"] <= 20_000)]
    rules = get_rules(mode)
    checked = 0
    for number, solution in zip(won["deal"], won["solution"]):
        for pos in winning_positions(rules, int(number), solution):
            assert jit_deadlocked(pos, rules)[0] is False, (mode, number)
            checked += 1
    assert checked > 100_000


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["clear", "classic"])
def test_verdicts_equal_the_committed_rows_1_to_3000(mode):
    """The committed rows of deals 1-3000 were solved without the rule."""
    from scorpion_solver.batch import read_folder

    table = read_folder(RESULTS, columns=["deal", "mode", "status"]).to_pandas()
    rows = table[(table["mode"] == mode) & (table["deal"] <= 3000)]
    rules = get_rules(mode)
    for number, status in zip(rows["deal"], rows["status"]):
        assert solve(deal(int(number), rules), rules).status == status, number
