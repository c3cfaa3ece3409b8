"""solve(): known verdicts, the reference twin, pruning soundness, limits, hand-built positions."""

from __future__ import annotations

import random
import threading
import time

import pytest

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import (
    TAIL,
    apply_move,
    is_lost,
    is_won,
    legal_moves,
    moves_text,
    parse_moves,
    replay,
    replay_positions,
)
from scorpion_solver.game.position_text import parse_position
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.solver import deadlock, driver, kernel
from scorpion_solver.solver.reductions import Reductions
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import jit_deadlocked, jit_legal_moves, max_table_entries, solve
from scorpion_solver.solver.search_twin import reference_solve

MODES = [CLEAR, CLASSIC]
WON_1_40 = {"clear": {5, 33, 37}, "classic": {5, 37}}
HARD_DEAL = 4929  # lost in clear after about 970,000 nodes


def jit(pos, rules, limits=Limits(), reductions=Reductions()):
    return solve(
        pos, rules, limits, engine="jit", polish=False, reductions=reductions
    )  # the reference twin has no polish


def assert_solution_wins(pos, result, rules):
    assert result.status == "won"
    moves = parse_moves(result.solution)
    assert result.solution_length == len(moves)
    assert moves_text(moves) == result.solution
    final = replay(pos, moves, rules)  # raises on an illegal move
    assert is_won(final, rules)
    return moves


@pytest.fixture(scope="module")
def verdicts_1_40():
    out = {}
    for rules in MODES:
        for number in range(1, 41):
            out[rules.name, number] = jit(deal(number, rules), rules)
    return out


@pytest.fixture(scope="module")
def winning_lines(verdicts_1_40):
    """(rules, deal number) -> the positions along the jit solver's winning line."""
    lines = {}
    for rules in MODES:
        for number in sorted(WON_1_40[rules.name]):
            start = deal(number, rules)
            lines[rules.name, number] = replay_positions(
                start, parse_moves(verdicts_1_40[rules.name, number].solution), rules
            )
    return lines


# ---------------------------------------------------------------------------
# known verdicts (docs/rules.md)


@pytest.mark.parametrize("rules", MODES, ids=lambda r: r.name)
def test_known_verdicts_1_to_40(rules, verdicts_1_40):
    won = {n for n in range(1, 41) if verdicts_1_40[rules.name, n].status == "won"}
    assert won == WON_1_40[rules.name]
    for number in range(1, 41):
        result = verdicts_1_40[rules.name, number]
        assert result.status in ("won", "lost"), (number, result)
        assert result.stopped_by == ""
        assert result.rules == rules.name
        if result.status == "won":
            assert_solution_wins(deal(number, rules), result, rules)
        else:
            assert result.solution == "" and result.solution_length == 0


def test_deal_33_shows_the_modes_differ(verdicts_1_40):
    assert verdicts_1_40["clear", 33].status == "won"
    assert verdicts_1_40["classic", 33].status == "lost"
    assert not verdicts_1_40["classic", 33].dead_at_root  # decided by search, not by the root test
    assert verdicts_1_40["classic", 33].nodes > 100


@pytest.mark.parametrize("rules", MODES, ids=lambda r: r.name)
def test_jit_equals_reference_on_1_to_40(rules, verdicts_1_40):
    """Same verdict, and the same nodes in the same order: node counts, depth, prunes and the solution agree."""
    for number in range(1, 41):
        got = verdicts_1_40[rules.name, number]
        want = reference_solve(deal(number, rules), rules)
        fields = (
            "status",
            "nodes",
            "moves_made",
            "max_depth",
            "deadlock_checks",
            "deadlock_prunes",
            "dead_at_root",
            "peak_entries",
            "solution",
            "solution_length",
            "stopped_by",
        )
        assert [getattr(got, f) for f in fields] == [getattr(want, f) for f in fields], number
        # solve(engine='reference') is the same search.
        assert solve(deal(number, rules), rules, engine="reference").nodes == want.nodes


def test_unknown_engine_is_rejected():
    with pytest.raises(ValueError, match="unknown engine"):
        solve(deal(1), CLEAR, engine="fast")


@pytest.fixture(scope="module")
def twin_big():
    """A search big enough that the kernel's table grows (first growth at 32768 entries).

    Safe leads and the successor-above rule off: with either this deal needs too few nodes to
    grow the table (29,551 with safe leads; the twins' agreement with both on is in
    test_safe_leads.py and test 1-40 above)."""
    pos = deal(32246)  # won in clear after some 50000 nodes
    limits, reductions = Limits(), Reductions(safe_leads=False, successor_above=False)
    return pos, jit(pos, CLEAR, limits, reductions), reference_solve(pos, CLEAR, limits, reductions)


def test_jit_equals_reference_across_table_growth(twin_big):
    pos, got, want = twin_big
    assert got.nodes > 32768  # the table grew at least once
    assert (
        got.status,
        got.nodes,
        got.moves_made,
        got.max_depth,
        got.deadlock_checks,
        got.deadlock_prunes,
        got.peak_entries,
        got.solution,
    ) == (
        want.status,
        want.nodes,
        want.moves_made,
        want.max_depth,
        want.deadlock_checks,
        want.deadlock_prunes,
        want.peak_entries,
        want.solution,
    )
    assert_solution_wins(pos, got, CLEAR)


def test_every_classic_win_is_a_clear_win_1_to_200():
    classic_won, clear_won = set(), set()
    for number in range(1, 201):
        c = jit(deal(number, CLASSIC), CLASSIC)
        k = jit(deal(number, CLEAR), CLEAR)
        assert c.status in ("won", "lost") and k.status in ("won", "lost"), number
        if c.status == "won":
            assert_solution_wins(deal(number, CLASSIC), c, CLASSIC)
            classic_won.add(number)
        if k.status == "won":
            clear_won.add(number)
    assert classic_won <= clear_won, sorted(classic_won - clear_won)
    assert len(classic_won) >= 10  # the inclusion is not vacuous
    assert clear_won - classic_won  # and the modes really differ (deal 33 at least)


# ---------------------------------------------------------------------------
# pruning


def test_no_position_on_a_winning_line_is_pruned(winning_lines):
    checked = 0
    for (mode, number), line in winning_lines.items():
        rules = CLEAR if mode == "clear" else CLASSIC
        for i, pos in enumerate(line):
            assert not deadlock.is_deadlocked(pos, rules), (mode, number, i)
            assert jit_deadlocked(pos, rules)[0] is False, (mode, number, i)
            checked += 1
    assert checked > 250


def test_pruning_does_not_change_verdicts_off_the_winning_lines(winning_lines):
    """Every position one wrong move off a winning line: same verdict with and without pruning."""
    seen = {"won": 0, "lost": 0}
    pruned_helped = 0
    for (mode, number), line in winning_lines.items():
        rules = CLEAR if mode == "clear" else CLASSIC
        for i, pos in enumerate(line[:-1]):
            assert jit(pos, rules, Limits(), Reductions(prune=False)).status == "won", (mode, number, i)
            for move in legal_moves(pos, rules):
                child = apply_move(pos, move, rules)
                if child == line[i + 1]:
                    continue
                pruned = jit(child, rules)
                full = jit(child, rules, Limits(nodes=200_000), Reductions(prune=False))
                assert full.status != "unknown", (mode, number, i, moves_text([move]))
                assert pruned.status == full.status, (mode, number, i, moves_text([move]))
                assert pruned.deadlock_prunes == 0 or pruned.nodes <= full.nodes
                assert full.deadlock_prunes == 0 and not full.dead_at_root
                seen[full.status] += 1
                pruned_helped += pruned.nodes < full.nodes
    assert seen["won"] >= 100 and seen["lost"] >= 50, seen
    assert pruned_helped >= 20


@pytest.mark.parametrize("rules", MODES, ids=lambda r: r.name)
def test_pruning_does_not_change_verdicts_near_the_end_of_lost_playouts(rules):
    compared = {"won": 0, "lost": 0}
    pruned_helped = 0
    for number in range(1, 41):
        rng = random.Random(number)
        path = [deal(number, rules)]
        while len(path) < 200:
            moves = legal_moves(path[-1], rules)
            if not moves:
                break
            path.append(apply_move(path[-1], rng.choice(moves), rules))
        for back in range(1, 12):
            if back >= len(path):
                break
            pos = path[-1 - back]
            full = jit(pos, rules, Limits(nodes=200_000), Reductions(prune=False))
            if full.status == "unknown":
                continue
            pruned = jit(pos, rules)
            assert pruned.status == full.status, (number, back, str(pos))
            compared[full.status] += 1
            pruned_helped += pruned.nodes < full.nodes
    assert compared["lost"] >= 300, compared
    assert pruned_helped >= 200


def test_reference_pruning_matches_jit_off_the_line(winning_lines):
    """Prune on and off, the twins agree node for node on the side positions of deal 5 in clear."""
    line = winning_lines["clear", 5]
    compared = 0
    for i, pos in enumerate(line[:-1:3]):
        for move in legal_moves(pos, CLEAR):
            child = apply_move(pos, move, CLEAR)
            for prune in (True, False):
                limits, reductions = Limits(nodes=5_000), Reductions(prune=prune)
                got, want = jit(child, CLEAR, limits, reductions), reference_solve(child, CLEAR, limits, reductions)
                if want.status == "unknown":
                    continue
                fields = (
                    "status",
                    "nodes",
                    "moves_made",
                    "max_depth",
                    "deadlock_checks",
                    "deadlock_prunes",
                    "solution",
                )
                assert [getattr(got, f) for f in fields] == [getattr(want, f) for f in fields], (
                    i,
                    moves_text([move]),
                    prune,
                )
                compared += 1
    assert compared >= 40


# ---------------------------------------------------------------------------
# limits


def test_node_budget():
    result = jit(deal(5), CLEAR, Limits(nodes=10))
    assert (result.status, result.stopped_by) == ("unknown", "nodes")
    # Checked before each expansion: the budget is passed by less than one expansion.
    assert 10 <= result.nodes < 10 + kernel.MAX_MOVES
    assert result.solution == ""
    want = reference_solve(deal(5), CLEAR, Limits(nodes=10))
    assert (want.status, want.stopped_by, want.nodes) == ("unknown", "nodes", result.nodes)


@pytest.mark.parametrize("rules", MODES, ids=lambda r: r.name)
def test_node_budgets_stop_the_twins_at_the_same_node(rules):
    """For every budget the kernel and the reference stop at the same node with the same verdict."""
    pos = deal(5 if rules is CLEAR else 33, rules)
    full = jit(pos, rules)
    assert full.status in ("won", "lost") and full.nodes > 100
    budgets = sorted({1, 2, 3, 7, 10, 25, 50, full.nodes // 2, full.nodes - 1, full.nodes, full.nodes + 1})
    for budget in budgets:
        limits = Limits(nodes=budget)
        got, want = jit(pos, rules, limits), reference_solve(pos, rules, limits)
        assert (got.status, got.stopped_by, got.nodes, got.moves_made, got.solution) == (
            want.status,
            want.stopped_by,
            want.nodes,
            want.moves_made,
            want.solution,
        ), budget
        if got.status == "unknown":
            assert got.stopped_by == "nodes" and budget <= got.nodes < budget + kernel.MAX_MOVES
        else:
            assert (got.status, got.nodes, got.solution) == (full.status, full.nodes, full.solution)
    # A budget with room for one more expansion than the search needs always decides.
    assert jit(pos, rules, Limits(nodes=full.nodes + kernel.MAX_MOVES)).status == full.status


def test_memory_budget():
    assert max_table_entries(1) == 1 << 16  # 1 MB of 16-byte entries
    assert max_table_entries(1024) == 1 << 26
    assert max_table_entries(3) == 1 << 17
    result = jit(deal(HARD_DEAL), CLEAR, Limits(memory_mb=1))
    assert (result.status, result.stopped_by) == ("unknown", "memory")
    assert 0 < result.peak_entries <= max_table_entries(1)
    assert result.nodes == result.peak_entries
    assert result.solution == ""


@pytest.fixture(scope="module")
def timed_out():
    start = time.perf_counter()
    result = jit(deal(HARD_DEAL), CLEAR, Limits(seconds=0.05))
    return result, time.perf_counter() - start


def test_time_limit(timed_out):
    result, _ = timed_out
    assert (result.status, result.stopped_by) == ("unknown", "time")
    assert result.solution == ""
    assert result.nodes < 1_915_163  # stopped before the full search (which decides 'lost')


def test_time_limit_is_honoured_promptly(timed_out):
    _, elapsed = timed_out
    assert elapsed < 0.5


def test_reference_time_limit():
    result = reference_solve(deal(HARD_DEAL), CLEAR, Limits(seconds=0.05))
    assert (result.status, result.stopped_by) == ("unknown", "time")
    assert result.seconds < 2


# ---------------------------------------------------------------------------
# hand-built positions

SWEPT_ALL_BUT_SPADES = """\
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
col2: AS
col3:
col4:
col5:
col6:
col7:
tail: -
"""

CLASSIC_ONE_MOVE = """\
mode: classic
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
col2: AS
col3: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
col4: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
col5: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
col6:
col7:
tail: -
"""

NO_MOVES = """\
col1: KS AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS
col2:
col3:
col4:
col5:
col6:
col7:
tail: -
"""

NEEDS_TAIL = """\
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S
col2:
col3:
col4:
col5:
col6:
col7:
tail: 3S 2S AS
"""

CLASSIC_NEEDS_TAIL = """\
mode: classic
col1: KS QS JS TS 9S 8S 7S 6S 5S 4S
col2: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
col3: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
col4: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
col5:
col6:
col7:
tail: 3S 2S AS
"""

CLASSIC_STACKED = """\
mode: classic
col1: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
col2: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
col3: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
col4: TS 9S 8S 7S 6S 5S 4S 3S 2S AS
col5:
col6:
col7:
tail: KS QS JS
"""


def both_engines(pos, rules, limits=Limits(), reductions=Reductions()):
    got = jit(pos, rules, limits, reductions)
    want = reference_solve(pos, rules, limits, reductions)
    assert (got.status, got.nodes, got.solution) == (want.status, want.nodes, want.solution)
    return got


def test_one_move_win_clear():
    pos = parse_position(SWEPT_ALL_BUT_SPADES).position
    result = both_engines(pos, CLEAR)
    assert result.solution == "AS:2>1"
    final = replay(pos, parse_moves(result.solution), CLEAR)
    assert final.columns == ((),) * 7  # the spade run was swept


def test_one_move_win_classic():
    parsed = parse_position(CLASSIC_ONE_MOVE)
    assert parsed.rules == CLASSIC and parsed.position.frozen == {0, 2, 3}
    result = both_engines(parsed.position, CLASSIC)
    assert result.solution == "AS:2>1"
    assert replay(parsed.position, parse_moves(result.solution), CLASSIC).frozen == {0, 1, 2, 3}


@pytest.mark.parametrize("prune", [True, False])
def test_lost_with_no_moves(prune):
    pos = parse_position(NO_MOVES).position
    assert legal_moves(pos, CLEAR) == [] and jit_legal_moves(pos, CLEAR) == []
    assert is_lost(pos, CLEAR)
    result = both_engines(pos, CLEAR, Limits(), Reductions(prune=prune))
    assert (result.status, result.nodes, result.solution, result.max_depth) == ("lost", 1, "", 0)
    assert result.dead_at_root == reference_solve(pos, CLEAR, Limits(), Reductions(prune=prune)).dead_at_root


def test_win_needs_the_tail_deal_clear():
    pos = parse_position(NEEDS_TAIL).position
    assert any(m != TAIL for m in legal_moves(pos, CLEAR))  # the King may wander first
    result = both_engines(pos, CLEAR)
    moves = assert_solution_wins(pos, result, CLEAR)
    assert TAIL in moves
    # The tail cards are needed: with the tail still to deal nothing is ever won.
    assert all(replay(pos, moves[:i], CLEAR).tail for i in range(moves.index(TAIL) + 1))


def test_win_needs_the_tail_deal_classic_onto_frozen_runs():
    parsed = parse_position(CLASSIC_NEEDS_TAIL)
    pos = parsed.position
    assert pos.frozen == {0, 2, 3}
    moves = legal_moves(pos, CLASSIC)
    assert TAIL in moves  # only King relocations remain, and they do not lock the tail
    assert all(m == TAIL or pos.columns[m.src][0] == m.card for m in moves)
    result = both_engines(pos, CLASSIC)
    solution = assert_solution_wins(pos, result, CLASSIC)
    assert TAIL in solution


def test_classic_win_by_stacked_runs():
    parsed = parse_position(CLASSIC_STACKED)
    pos = parsed.position
    assert legal_moves(pos, CLASSIC) == [TAIL]  # nothing else moves: the tail may be dealt
    result = both_engines(pos, CLASSIC)
    moves = assert_solution_wins(pos, result, CLASSIC)
    final = replay(pos, moves, CLASSIC)
    assert sorted(len(col) for col in final.columns) == [0, 0, 0, 0, 13, 13, 26]  # KS..AS on top of AC
    assert final.frozen == {0, 1, 2, 3}
    assert result.solution == "tail QS:2>1 JS:3>1 TS:4>1"


def test_search_stack_grows_and_is_reused(monkeypatch):
    """solve() reuses one stack per thread; a stack too small for the search grows and stays grown,
    and leftovers of earlier searches change nothing (same verdicts, nodes and solutions)."""
    cases = [(n, rules) for rules in MODES for n in (5, 33, 103, 37)]

    def run(order=cases):
        return {
            (n, rules.name): (r.status, r.nodes, r.solution, r.max_depth)
            for n, rules in order
            for r in [solve(deal(n, rules), rules)]
        }

    monkeypatch.setattr(driver, "_reused", threading.local())
    expected = run()
    deepest = max(depth for *_, depth in expected.values())
    assert deepest > 8
    monkeypatch.setattr(driver, "_reused", threading.local())
    monkeypatch.setattr(driver, "FIRST_DEPTH", 4)
    assert run() == expected  # grown from 4 frames, several times
    grown = driver._reused.stack
    assert grown.states.shape[0] > deepest
    assert run(cases[::-1]) == expected  # again, in the other order, on the leftovers of the first run
    assert driver._reused.stack is grown  # big enough now: not replaced


def test_the_flags_word_carries_each_rule_and_reduction_in_its_own_bit():
    """The kernel reads back from ``flags`` exactly the rule switches compact.py packs (layout: kernel's docstring)."""
    from scorpion_solver.game.rules import PRESETS
    from scorpion_solver.solver.compact import rule_bits, rule_flags
    from scorpion_solver.solver.reductions import FULL, Reductions

    for rules in (rules for rules in PRESETS.values() if rules.is_scorpion_shape):  # the others: test_kernel_shapes
        packed = rule_bits(rules) | FULL.kernel_bits()
        assert tuple(kernel._rules_of(packed)) == rule_flags(rules), rules.name
        assert (
            packed & kernel.PRUNE_BITS == kernel.PRUNE_DEADLOCK | kernel.PRUNE_SAFE_LEADS | kernel.PRUNE_SUCCESSOR_ABOVE
        )
    assert Reductions(prune=False, safe_leads=False, successor_above=False).kernel_bits() == 0
    bits = [kernel.PRUNE_DEADLOCK, kernel.PRUNE_SAFE_LEADS, kernel.PRUNE_SUCCESSOR_ABOVE, kernel.PRUNE_EVERY_MOVE]
    bits += [kernel.RULE_SWEEPS, kernel.RULE_FREEZES, kernel.RULE_SPACE_ANY, kernel.RULE_TAIL_WHEN_STUCK]
    assert bits == [1 << i for i in range(8)]
