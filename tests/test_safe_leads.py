"""Safe leads (``kernel._safe_lead``, twin ``search_twin.safe_lead``): the rule, its lemma, its verdicts.

The reduction expands a position that has a safe lead a with that one move.
It is sound when the lemma in ``kernel._safe_lead`` holds: every win w from
the position contains a move of a's card, and playing a first, then w
without it (skipping moves of cards a swept), wins too. This is checked on
real winning lines: the solutions of deals the search wins (the committed
solutions of deals 1-3000 in the slow test). At every position on a line
where the rule offers a safe lead, a's card must move later on the line, and
the promoted line must replay to a win in the plain engine. Also: the two
twins agree on every move of playout positions, verdicts are equal with the
rule on and off, and the kernel and the reference search count the same
nodes with the rule on (the differential tests in test_solver.py).
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, is_won, legal_moves, parse_moves
from scorpion_solver.game.position import Position
from scorpion_solver.game.rules import CLASSIC, CLEAR, GOODSOL, SCORPION2, WASP, Rules, get_rules
from scorpion_solver.solver import kernel
from scorpion_solver.solver.reductions import Reductions
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import solve, to_compact
from scorpion_solver.solver.search_twin import reference_solve, safe_lead

RESULTS = Path(__file__).resolve().parent.parent / "results" / "deals-1-1000000"


def promoted_line_wins(pos: Position, line: list, first, rules: Rules) -> bool:
    """Play ``first``, then ``line`` without its move of first's card; True if that replays to a win.

    Moves of cards no longer on the table (swept) are skipped; every other
    move is matched by its card (a card's column may differ on the promoted
    line, and a King goes to whichever space the engine offers).
    """
    rest = list(line)
    rest.pop(next(j for j, m in enumerate(rest) if not m.is_tail and m.card == first.card))
    p = apply_move(pos, first, rules)
    for move in rest:
        if move.is_tail:
            return False  # no tail deal after a safe lead: it is offered only once the tail is dealt
        if not any(move.card in col for col in p.columns):
            continue
        same = [m for m in legal_moves(p, rules) if not m.is_tail and m.card == move.card]
        if not same:
            return False
        p = apply_move(p, same[0], rules)
    return is_won(p, rules)


def check_line(pos: Position, line: list, rules: Rules) -> int:
    """Assert the lemma at every position of a winning line; return how often the rule fired."""
    fired = 0
    for k, move in enumerate(line):
        safe = [m for m in legal_moves(pos, rules) if safe_lead(pos, m, rules)]
        if safe:
            fired += 1
            a = safe[0]
            assert any(not m.is_tail and m.card == a.card for m in line[k:]), (pos, a)
            assert promoted_line_wins(pos, line[k:], a, rules), (str(pos), a, line[k:])
        pos = apply_move(pos, move, rules)
    assert is_won(pos, rules)
    return fired


@pytest.mark.parametrize("rules", [CLEAR, GOODSOL, SCORPION2], ids=lambda r: r.name)
def test_lemma_holds_on_winning_lines(rules):
    """(Under classic rules it fails: see kernel._safe_lead; classic never asks for safe leads.)"""
    fired = lines = 0
    for number in range(1, 121):
        result = solve(deal(number, rules), rules, Limits(nodes=300_000), reductions=Reductions(safe_leads=False))
        if result.status == "won":
            lines += 1
            fired += check_line(deal(number, rules), parse_moves(result.solution), rules)
    assert lines >= 5 and fired > 10 * lines


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["clear"])
def test_lemma_holds_on_the_committed_solutions_1_to_3000(mode):
    from scorpion_solver.batch import read_folder

    table = read_folder(RESULTS, columns=["deal", "mode", "status", "solution"]).to_pandas()
    rows = table[(table["mode"] == mode) & (table["status"] == "won") & (table["deal"] <= 3000)]
    rules = get_rules(mode)
    assert len(rows) > 250
    for number, solution in zip(rows["deal"], rows["solution"]):
        check_line(deal(int(number), rules), parse_moves(solution), rules)


@pytest.mark.parametrize("rules", [CLEAR, GOODSOL, SCORPION2], ids=lambda r: r.name)
def test_kernel_and_twin_pick_the_same_safe_leads(rules):
    rng = random.Random(13)
    seen = fired = 0
    for number in rng.sample(range(1, 100_000), 100):
        pos = deal(number, rules)
        for _ in range(80):
            moves = legal_moves(pos, rules)
            if not moves:
                break
            s = to_compact(pos)
            for m in moves:
                code = kernel.TAIL_CODE if m.is_tail else m.card * 8 + m.dst
                twin = safe_lead(pos, m, rules)
                jit = pos.tail_dealt and bool(kernel._safe_lead(s, np.uint16(code)))
                seen += 1
                fired += twin
                assert jit == twin, (str(pos), m)
            pos = apply_move(pos, rng.choice(moves), rules)
    assert seen > 4000 and fired > 50


@pytest.mark.parametrize("rules", [CLASSIC, WASP], ids=["classic", "wasp"])
def test_no_safe_leads_with_frozen_runs_or_wasp_spaces(rules):
    for number in range(1, 41):
        on = solve(deal(number, rules), rules, Limits(nodes=100_000))
        off = solve(deal(number, rules), rules, Limits(nodes=100_000), reductions=Reductions(safe_leads=False))
        assert (on.status, on.nodes, on.solution) == (off.status, off.nodes, off.solution)


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=["clear", "classic"])
def test_verdicts_equal_on_and_off_1_to_300(rules):
    """Classic never asks for safe leads (see ``kernel._safe_lead``): the same search on and off."""
    for number in range(1, 301):
        on = solve(deal(number, rules), rules, Limits(nodes=500_000))
        off = solve(deal(number, rules), rules, Limits(nodes=500_000), reductions=Reductions(safe_leads=False))
        if "unknown" not in (on.status, off.status):
            assert on.status == off.status, number
        assert on.nodes <= off.nodes or on.status == "won", number
        if rules.freezes:
            assert (on.nodes, on.solution) == (off.nodes, off.solution)


def test_reference_search_cuts_the_same_nodes():
    """The plain twin applies the same rule: the same nodes as the kernel, on and off."""
    for rules, number in ((CLEAR, 202), (CLASSIC, 37), (CLEAR, 5), (GOODSOL, 33)):
        for cuts in (Reductions(), Reductions(safe_leads=False), Reductions(successor_above=False)):
            twin = reference_solve(deal(number, rules), rules, Limits(), cuts)
            jit = solve(deal(number, rules), rules, Limits(), reductions=cuts)
            assert (twin.status, twin.nodes, twin.solution) == (jit.status, jit.nodes, jit.solution)
    # without the successor-above rule, which proves deal 202 lost at the root
    on = solve(deal(202), CLEAR, Limits(), reductions=Reductions(successor_above=False))
    off = solve(deal(202), CLEAR, Limits(), reductions=Reductions(safe_leads=False, successor_above=False))
    assert (off.nodes, on.nodes) == (20572, 14505)
