"""Minimum-length solutions (solve_shortest) and the detour cut every solution gets.

The oracle is a plain breadth-first search of the reference engine over
canonical positions (``shortest.breadth_first_length``): no cost argument, no
pruning. It runs on hand-made positions with few cards left and on late
positions along real deals' solutions.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from scorpion_solver import deal, parse_position
from scorpion_solver.cli import main
from scorpion_solver.game.engine import apply_move, canonical_key, is_won, legal_moves, moves_text, parse_moves, replay
from scorpion_solver.game.rules import CLASSIC, CLEAR, GOODSOL, PRESETS, WASP
from scorpion_solver.solver import kernel, search
from scorpion_solver.solver.compact import move_codes
from scorpion_solver.solver.lines import decode_line
from scorpion_solver.solver.reductions import Reductions
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import jit_bounded_search, solve, solve_shortest
from scorpion_solver.solver.shortest import (
    bounded_search,
    breadth_first_length,
    cost_to_go,
    extra_cost,
    fixed_length,
    reference_shortest,
    shorten_line,
)

# Clear runs, three suits swept, the diamonds in three columns: KD must move once.
DIAMONDS = """
mode: clear
col1: 3D KD QD JD
col2: 2D TD 9D
col3: AD 8D 7D 6D 5D 4D
col4:
col5:
col6:
col7:
tail: -
"""

# Wasp: the 4D on the 3D on the 5D: only a space (Wasp: any card may enter one) frees them.
WASP_POS = """
mode: clear
col1: KD QD JD TD 9D 8D 7D
col2: 6D
col3: 5D 3D 4D
col4: AD 2D
col5:
col6:
col7:
tail: -
"""

# Classic, three runs complete on the table, the hearts scattered.
CLASSIC_POS = """
mode: classic
col1: KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC
col2: KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS
col3: KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD
col4: 5H KH QH JH TH 9H
col5: 8H 7H 6H 4H 3H
col6: 2H AH
col7:
tail: -
"""


def late(number, rules, remaining):
    """The position `remaining` moves before the end of deal number's solution."""
    start = deal(number, rules)
    line = parse_moves(solve(start, rules).solution)
    return replay(start, line[: len(line) - remaining], rules)


LATE = [(5, CLEAR, 14), (5, CLASSIC, 16), (57, CLASSIC, 18), (33, CLEAR, 12), (6560, CLASSIC, 14), (5, WASP, 12)]


def hand_made():
    return [
        (parse_position(DIAMONDS).position, CLEAR),
        (parse_position(DIAMONDS).position, WASP),
        (parse_position(WASP_POS).position, WASP),
        (parse_position(CLASSIC_POS).position, CLASSIC),
        (parse_position(CLASSIC_POS).position, GOODSOL),
    ]


def cases():
    out = hand_made()
    for number, rules, remaining in LATE:
        out.append((late(number, rules, remaining), rules))
    return out


@pytest.fixture(scope="module")
def positions():
    return cases()


def test_length_is_fixed_part_plus_extra_cost_on_real_solutions():
    for number, rules in [(5, CLEAR), (5, CLASSIC), (37, CLEAR), (6560, CLASSIC), (5, WASP)]:
        start = deal(number, rules)
        for line in (parse_moves(solve(start, rules).solution), parse_moves(solve_shortest(start, rules).solution)):
            assert len(line) == fixed_length(start) + extra_cost(start, line, rules)


def test_shortest_equals_breadth_first_search(positions):
    for pos, rules in positions:
        bfs = breadth_first_length(pos, rules)
        assert bfs is not None
        result = solve_shortest(pos, rules)
        assert result.status == "won" and result.shortest == "proved"
        assert result.solution_length == bfs, (rules.name, moves_text(parse_moves(result.solution)))
        assert is_won(replay(pos, parse_moves(result.solution), rules), rules)
        assert len(reference_shortest(pos, rules)) == bfs


def test_a_wasp_position_where_a_card_enters_a_space():
    pos = parse_position(WASP_POS).position
    line = parse_moves(solve_shortest(pos, WASP).solution)
    assert len(line) == breadth_first_length(pos, WASP) == 7
    assert extra_cost(pos, line, WASP) == 1  # the 4D into a space
    here, into_space = pos, []
    for m in line:
        if not here.columns[m.dst]:
            into_space.append(str(m)[:2])
        here = apply_move(here, m, WASP)
    assert into_space in (["4D"], ["3D"])  # one non-King card enters a space
    assert breadth_first_length(pos, CLEAR) is None  # no win where only Kings enter spaces


DEALS = [(57, CLASSIC), (56, CLASSIC), (6560, CLASSIC)]  # whole deals, the tail still to deal


def test_kernel_and_plain_bounded_search_visit_the_same_nodes(positions):
    for pos, rules in positions + [(deal(n, r), r) for n, r in DEALS]:
        h = cost_to_go(pos, rules, frozenset(pos.tail))
        for bound in range(h, h + 4):
            jit_line, jit_nodes = jit_bounded_search(pos, rules, bound)
            ref_line, ref_nodes = bounded_search(pos, rules, bound)
            assert jit_nodes == ref_nodes
            assert jit_line == ref_line


def test_no_win_below_the_minimum(positions):
    for pos, rules in positions:
        line = parse_moves(solve_shortest(pos, rules).solution)
        least = extra_cost(pos, line, rules)
        if least > 0:
            assert bounded_search(pos, rules, least - 1)[0] is None


def test_cost_to_go_is_a_lower_bound_along_shortest_lines(positions):
    for pos, rules in positions + [(deal(n, r), r) for n, r in DEALS]:
        line = parse_moves(solve_shortest(pos, rules).solution)
        tail_cards = frozenset(pos.tail)
        here = pos
        for i in range(len(line)):
            assert cost_to_go(here, rules, tail_cards) <= extra_cost(here, line[i:], rules, tail_cards)
            here = apply_move(here, line[i], rules)


# Clear runs: KD lies on 2C with QD and JD further down; 4C leads onto 5C and KD rides along, off
# the diamonds, so KD never has to move (a bound that counted it hid this deal's 50-move win).
RIDING_KING_DEAL = 1758


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC, WASP, GOODSOL, PRESETS["scorpion2"]], ids=lambda r: r.name)
def test_cost_to_go_is_a_lower_bound_along_every_found_win(rules):
    """Admissibility along lines the bound played no part in (solve's first-found wins), not only shortest ones."""
    checked = 0
    for number in [*range(1, 301), RIDING_KING_DEAL]:
        start = deal(number, rules)
        result = solve(start, rules, Limits(nodes=200_000))
        if result.status != "won":
            continue
        line = parse_moves(result.solution)
        tail_cards = frozenset(start.tail)
        here = start
        for i in range(len(line)):
            assert cost_to_go(here, rules, tail_cards) <= extra_cost(here, line[i:], rules, tail_cards), (number, i)
            here = apply_move(here, line[i], rules)
        checked += 1
    assert checked >= 20


def test_deal_1758_clear_has_a_50_move_minimum():
    start = deal(RIDING_KING_DEAL, CLEAR)
    for safe_leads in (False, True):
        result = solve_shortest(start, CLEAR, Limits(), Reductions(safe_leads=safe_leads))
        assert (result.solution_length, result.shortest) == (50, "proved")
        assert is_won(replay(start, parse_moves(result.solution), CLEAR), CLEAR)
        assert sum(m.card % 13 == 12 for m in parse_moves(result.solution) if not m.is_tail) == 1


def test_kernel_cost_and_bound_match_the_plain_ones(positions):
    from scorpion_solver.solver.shortest import move_cost

    for pos, rules in positions:
        tail = np.zeros(52, dtype=np.bool_)
        tail_cards = frozenset(pos.tail)
        for c in tail_cards:
            tail[c] = True
        s = search.to_compact(pos)
        assert kernel.cost_to_go(s, int(rules.sweeps), tail) == cost_to_go(pos, rules, tail_cards)
        for move in legal_moves(pos, rules):
            code = kernel.TAIL_CODE if move.is_tail else move.card * 8 + move.dst
            assert kernel.move_cost(s, code, tail) == move_cost(pos, move, tail_cards)


# ---------------------------------------------------------------------------
# the detour cut


def reference_line(number, rules):
    """The reference search's line before its detour cut."""
    from unittest import mock

    with mock.patch("scorpion_solver.solver.search_twin.shortened", lambda pos, path, rules: path):
        return parse_moves(search.solve(deal(number, rules), rules, engine="reference").solution)


def test_kernel_and_plain_shorten_line_agree():
    for number, rules in [(6560, CLASSIC), (57, CLASSIC), (49, CLASSIC)]:
        start = deal(number, rules)
        line = reference_line(number, rules)
        plain = shorten_line(start, line, rules)
        root = search.to_compact(start)
        out = np.zeros(len(line), dtype=np.uint16)
        n = kernel.shorten_line(
            root, search.compact_keys(root), move_codes(line), out, 1, search.rule_bits(rules), kernel.KEY_TABLES
        )
        assert decode_line(start, out[:n], rules) == plain
        assert is_won(replay(start, plain, rules), rules)
        assert len(plain) <= len(line)


def test_6560_classic_solution_is_short_and_without_detours():
    start = deal(6560, CLASSIC)
    assert len(reference_line(6560, CLASSIC)) == 150  # the unshortened search line
    line = parse_moves(solve(start, CLASSIC, polish=False).solution)  # the detour cut alone
    assert len(line) <= 70
    positions = [start]
    for move in line:
        positions.append(apply_move(positions[-1], move, CLASSIC))
    index = {canonical_key(p): j for j, p in enumerate(positions)}
    assert len(index) == len(positions)  # no position twice
    for i, here in enumerate(positions[:-1]):
        for move in legal_moves(here, CLASSIC):
            child = apply_move(here, move, CLASSIC)
            assert index.get(canonical_key(child), -1) <= i + 1  # no later position one move away
            for move2 in legal_moves(child, CLASSIC) if not is_won(child, CLASSIC) else []:
                j = index.get(canonical_key(apply_move(child, move2, CLASSIC)), -1)
                assert j <= i + 2  # nor two moves away


def test_solve_without_shorten_returns_the_search_line_and_the_same_counters():
    """``shorten=False`` (hop's sampled layouts): the 150-move line as found, replayed to a win; the same search."""
    start = deal(6560, CLASSIC)
    raw = solve(start, CLASSIC, shorten=False)
    tidy = solve(start, CLASSIC)
    assert parse_moves(raw.solution) == reference_line(6560, CLASSIC)
    assert raw.solution_length == 150 and tidy.solution_length < 150
    assert is_won(replay(start, parse_moves(raw.solution), CLASSIC), CLASSIC)
    assert (raw.status, raw.nodes, raw.moves_made, raw.peak_entries) == (
        tidy.status,
        tidy.nodes,
        tidy.moves_made,
        tidy.peak_entries,
    )


def test_polish_gives_6560_classic_its_minimum():
    start = deal(6560, CLASSIC)
    line = parse_moves(solve(start, CLASSIC).solution)
    assert len(line) == solve_shortest(start, CLASSIC).solution_length == 49
    assert sum(1 for m in line if not m.is_tail and m.card % 13 == 12) <= 4  # 22 after the detour cut alone


def test_the_detour_cut_changes_no_verdict_or_nodes():
    for number, rules in [(5, CLEAR), (6560, CLASSIC)]:
        ref = search.solve(deal(number, rules), rules, engine="reference")
        jit = solve(deal(number, rules), rules, polish=False)
        assert (jit.status, jit.nodes, jit.solution) == (ref.status, ref.nodes, ref.solution)
        assert jit.solution_length <= len(reference_line(number, rules))


# ---------------------------------------------------------------------------
# commands


def test_cli_solve_6560_classic_prints_a_short_line():
    out = CliRunner().invoke(main, ["solve", "6560", "--mode", "classic", "--solution"])
    assert out.exit_code == 0, out.output
    line = out.output.strip().splitlines()[1].split()
    assert len(line) == 49 and "tail" in line


def test_cli_solve_shortest():
    out = CliRunner().invoke(main, ["solve", "6560", "--mode", "classic", "--shortest", "--json"])
    assert out.exit_code == 0, out.output
    row = json.loads(out.output)
    assert row["shortest"] == "proved" and row["status"] == "won"
    assert row["solution_length"] == len(row["solution"].split()) == 49
    text = CliRunner().invoke(main, ["solve", "6560", "--mode", "classic", "--shortest"]).output
    assert "49 moves, minimum proved" in text


def test_cli_batch_shortest(tmp_path):
    from scorpion_solver.batch import read_folder

    out = CliRunner().invoke(
        main, ["batch", "57-58", "--mode", "classic", "--shortest", "--workers", "1", "--out", str(tmp_path / "r")]
    )
    assert out.exit_code == 0, out.output
    rows = read_folder(tmp_path / "r").to_pylist()
    assert [(r["deal"], r["shortest"]) for r in rows] == [(57, "proved"), (58, "proved")]
    for r in rows:
        assert r["solution_length"] == solve_shortest(deal(r["deal"], CLASSIC), CLASSIC).solution_length
    meta = json.loads((tmp_path / "r" / "_batch.json").read_text())
    assert meta["limits"]["shortest"] is True
