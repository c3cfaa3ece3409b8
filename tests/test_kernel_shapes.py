"""The kernel's search decides Double Scorpion and Three Blind Mice as the plain twin does (issue 53 item 2).

The ten-column games play in the kernel's wide layout (``int16`` states;
docs/design.md, "Relatives: several game shapes in one search"), without
safe leads (a one-deck proof) and with the deadlock test after every move in
Double Scorpion (``kernel._wide_deadlocked``), on the root only in Three
Blind Mice (``Reductions.proven_for``, ``Reductions.in_search``). So the
kernel's search must visit the same nodes in the same order as
``search_twin.reference_solve``, which searches these games with the same
cuts: the same verdict, node count and deadlock counts on deals
the twin decides and on small positions, a ``won`` line that replays to a win
in the plain engine, and ``lost`` only when exhaustive. Before this the kernel
refused the new shapes (a Mice position had converted into a corrupt state,
and ``solve_deal`` had dealt Scorpion's deal N under the new preset's name);
the deals here are the new games' own (``game.deal``).
"""

from __future__ import annotations

import random

import pytest
from test_twin_relatives import KING_TO_FIVE, STUCK, spade, ten

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, is_won, lead_index, legal_moves
from scorpion_solver.game.position import Position
from scorpion_solver.game.rules import get_rules
from scorpion_solver.game.verify import check_solution
from scorpion_solver.solver.reductions import FULL
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import screen_deals, solve, solve_deal, solve_shortest
from scorpion_solver.solver.search_twin import reference_solve, search_order

NEW_SHAPES = ("double", "double-dealt", "mice")

# deals the twin decides in a few thousand nodes (docs/design.md names the wins): (mode, number, verdict, nodes)
TWIN_DEALS = [
    ("mice", 3, "won", 173),
    ("mice", 4, "won", 241),
    ("mice", 7, "lost", 1),  # dead at the root: the deadlock test, which Three Blind Mice runs on the root only
    ("mice", 105, "lost", 8631),  # not dead at the root: lost by the exhaustive search
    ("double", 1, "won", 1430),
    ("double", 2, "won", 1746),
    ("double-dealt", 2, "won", 917),  # 919 before the deadlock test ran in Double Scorpion's search
    ("double-dealt", 3, "won", 2085),  # 2504 before
]


def assert_same_search(kernel_result, twin_result) -> None:
    assert (kernel_result.status, kernel_result.nodes) == (twin_result.status, twin_result.nodes)
    assert kernel_result.moves_made == twin_result.moves_made
    counters = ("deadlock_checks", "deadlock_prunes", "dead_at_root")
    assert [getattr(kernel_result, c) for c in counters] == [getattr(twin_result, c) for c in counters]
    # the deadlock test runs on Three Blind Mice's root only, after every move in Double Scorpion
    if kernel_result.rules == "mice":
        assert kernel_result.deadlock_checks == 1
    else:
        assert kernel_result.deadlock_checks >= 1


@pytest.mark.parametrize(("mode", "number", "verdict", "nodes"), TWIN_DEALS)
def test_the_kernel_decides_deals_as_the_twin_does(mode, number, verdict, nodes):
    rules = get_rules(mode)
    position = deal(number, rules)
    result = solve(position, rules, Limits(nodes=30_000), debug=True)
    assert (result.status, result.nodes) == (verdict, nodes)
    assert_same_search(result, reference_solve(position, rules, Limits(nodes=30_000)))
    if verdict == "won":
        assert is_won(check_solution(position, result.line, rules), rules)
    assert solve_deal(number, rules, Limits(nodes=30_000)).nodes == nodes  # the batch's path: the same deal


def test_small_positions_are_decided_as_the_twin_does():
    double, mice = get_rules("double"), get_rules("mice")
    col1 = tuple(spade(r) for r in range(13, 3, -1)) + (spade(3, copy=1), spade(2))
    mixed_run = Position(columns=ten(col1, (spade(1),)), hidden=(0,) * 10, tail=())
    stuck = Position(columns=ten(STUCK, KING_TO_FIVE, (spade(1),)), hidden=(0,) * 10, tail=())
    run = tuple(spade(r) for r in range(13, 1, -1))
    reserve_wins = Position(columns=ten(run), hidden=(0,) * 10, tail=(), reserves=(spade(1),))
    reserve_stuck = Position(columns=ten(STUCK, KING_TO_FIVE), hidden=(0,) * 10, tail=(), reserves=(spade(1),))
    cases = [
        (mixed_run, double, "won"),
        (stuck, double, "lost"),
        (stuck, get_rules("double-dealt"), "lost"),
        (reserve_wins, mice, "won"),
        (reserve_stuck, mice, "lost"),
    ]
    for position, rules, verdict in cases:
        result = solve(position, rules, debug=True)
        assert result.status == verdict, f"{rules.name}:\n{position}"
        assert_same_search(result, reference_solve(position, rules))
    assert [str(m) for m in solve(mixed_run, double).line] == ["AS:2>1"]
    assert [str(m) for m in solve(reserve_wins, mice).line] == ["AS:r>1"]


@pytest.mark.parametrize("mode", NEW_SHAPES)
def test_positions_along_random_games_are_decided_as_the_twin_does(mode):
    rules = get_rules(mode)
    rng = random.Random(mode)
    decided = 0
    for number in (11, 12, 13, 14):
        pos = deal(number, rules)
        for ply in range(120):
            moves = legal_moves(pos, rules)
            if not moves:
                break
            pos = apply_move(pos, rng.choice(moves), rules)
            if ply % 15 == 14:
                limits = Limits(nodes=3_000)
                ours, twins = solve(pos, rules, limits), reference_solve(pos, rules, limits)
                assert ours.status == twins.status, f"{mode}:\n{pos}"
                if ours.status != "unknown":
                    assert_same_search(ours, twins)
                    decided += 1
                if ours.status == "won":
                    assert is_won(check_solution(pos, ours.line, rules), rules)
    assert decided >= 4


@pytest.mark.parametrize("mode", NEW_SHAPES)
def test_a_limit_gives_unknown_and_no_deal_is_screened_as_scorpion(mode):
    rules = get_rules(mode)
    hard = {"double": 7, "double-dealt": 1, "mice": 16}[mode]
    result = solve_deal(hard, rules, Limits(nodes=2_000))
    assert (result.status, result.stopped_by, result.line) == ("unknown", "nodes", ())
    assert 4_000 <= result.nodes < 4_000 + 2 * 256  # both move orders ran out of their 2,000 nodes
    # the batch's jitted root screen deals seven columns: nothing is decided there (a ten-column deal's root
    # is tested in its solve, Three Blind Mice's by the plain deadlock test)
    assert screen_deals([1, 2, 3, 4, 5], rules, Limits(), FULL) == {}


# Deals the first move order leaves unknown at these budgets and the second wins within them: (mode, number,
# budget, nodes of both searches, the first's included). Double deal 3 was unknown at 50M nodes in the
# committed batch and is won in 1,542 nodes in the second order. The budgets are below one probe's
# (``probes.PROBE_NODES``), so no probe runs between the two orders.
SECOND_ORDER_WINS = [("double", 3, 2_000, 3_542), ("double", 15, 3_000, 4_187)]


@pytest.mark.parametrize(("mode", "number", "budget", "nodes"), SECOND_ORDER_WINS)
def test_a_two_deck_search_out_of_nodes_tries_the_second_move_order(mode, number, budget, nodes):
    rules = get_rules(mode)
    position = deal(number, rules)
    limits = Limits(nodes=budget)
    result = solve(position, rules, limits, debug=True)
    assert (result.status, result.nodes) == ("won", nodes)
    assert result.nodes > budget  # the first order's nodes are counted in
    assert_same_search(result, reference_solve(position, rules, limits))
    assert is_won(check_solution(position, result.line, rules), rules)
    assert solve_deal(number, rules, limits).nodes == nodes


# Deals the first move order leaves unknown at 3,000 nodes and a probe wins, with probes of 1,000 nodes
# (three of them): (mode, number, nodes of the first order and the probes up to the winning one's win).
PROBE_WINS = [("double", 32, 3_992), ("double", 43, 3_783), ("double-dealt", 12, 4_918)]


@pytest.mark.parametrize(("mode", "number", "nodes"), PROBE_WINS)
def test_a_probe_wins_what_the_first_move_order_left_unknown(monkeypatch, mode, number, nodes):
    from scorpion_solver.solver import probes

    monkeypatch.setattr(probes, "PROBE_NODES", 1_000)
    rules = get_rules(mode)
    position = deal(number, rules)
    limits = Limits(nodes=3_000)
    result = solve(position, rules, limits, debug=True)
    assert (result.status, result.nodes) == ("won", nodes)
    assert_same_search(result, reference_solve(position, rules, limits))
    assert is_won(check_solution(position, result.line, rules), rules)
    # the line as found: one probe's random moves, then its search's line, which won from there
    found = solve(position, rules, limits, shorten=False).line
    starts = [moves for moves, _ in probes.probe_starts(position, rules, probes.probe_count(limits))]
    assert len(starts) == 3 and any(found[: len(moves)] == tuple(moves) for moves in starts)
    assert reference_solve(position, rules, limits).line == found


def test_probes_turn_nothing_into_lost_and_cost_one_budget(monkeypatch):
    from scorpion_solver.solver import probes

    monkeypatch.setattr(probes, "PROBE_NODES", 1_000)
    rules = get_rules("double")
    position = deal(7, rules)
    limits = Limits(nodes=3_000)
    result = solve(position, rules, limits)
    # the first order, three probes and the second order, each stopped by its budget (or lost, for a probe)
    assert (result.status, result.stopped_by, result.nodes) == ("unknown", "nodes", 9_004)
    assert_same_search(result, reference_solve(position, rules, limits))


# With a scout of 1,000 nodes before the probes (``probes.SCOUT_NODES``; 100,000 in a real solve) and probes
# of 1,000 at a budget of 3,000: (mode, number, one probe in how many comes before the first order's long
# search (``probes.EARLY_PROBES``), verdict, nodes of every try up to the deciding one, what decided it).
# The scout's 1,000 come first; then the early probes (none of 3 at 10, one at 3); then the first order
# with the whole budget; then the other probes; then the second order.
SCOUTED = [
    ("double", 32, 10, "won", 4_993, "a probe"),  # the scout, the first order (3,000), then the first probe
    ("double", 32, 3, "won", 1_992, "a probe"),  # the same probe, now before the first order
    ("double", 1, 10, "won", 2_432, "the first order again"),  # the scout (1,000), then 1,432
    ("double", 7, 10, "unknown", 10_005, "nothing"),  # the scout, the first order, 3 probes, the second order
]


@pytest.mark.parametrize(("mode", "number", "early", "status", "nodes", "decider"), SCOUTED)
def test_a_short_first_try_comes_before_the_probes(monkeypatch, mode, number, early, status, nodes, decider):
    from scorpion_solver.solver import probes

    monkeypatch.setattr(probes, "PROBE_NODES", 1_000)
    monkeypatch.setattr(probes, "SCOUT_NODES", 1_000)
    monkeypatch.setattr(probes, "EARLY_PROBES", early)
    rules = get_rules(mode)
    position = deal(number, rules)
    limits = Limits(nodes=3_000)
    result = solve(position, rules, limits, debug=True)
    assert (result.status, result.nodes) == (status, nodes)
    assert_same_search(result, reference_solve(position, rules, limits))
    if status == "won":
        assert is_won(check_solution(position, result.line, rules), rules)
        found = solve(position, rules, limits, shorten=False).line
        starts = [tuple(moves) for moves, _ in probes.probe_starts(position, rules, probes.probe_count(limits))]
        assert any(found[: len(moves)] == moves for moves in starts) == (decider == "a probe")


def test_the_scout_changes_no_verdict(monkeypatch):
    # every try of the order without the scout is still made, with the same budget and draws
    from scorpion_solver.solver import probes

    monkeypatch.setattr(probes, "PROBE_NODES", 1_000)
    limits = Limits(nodes=3_000)
    for mode in ("double", "double-dealt"):
        rules = get_rules(mode)
        for number in range(1, 13):
            monkeypatch.setattr(probes, "SCOUT_NODES", 1_000)
            scouted = solve_deal(number, rules, limits)
            monkeypatch.setattr(probes, "SCOUT_NODES", 3_000)  # no bigger than the budget: no scout
            plain = solve_deal(number, rules, limits)
            assert scouted.status == plain.status, f"{mode} {number}"
            assert scouted.nodes != plain.nodes or scouted.nodes <= 1_000, f"{mode} {number}: the scout ran"


def test_the_probes_are_drawn_from_the_root_alone():
    from scorpion_solver.solver.probes import PROBE_MOVES, probe_starts

    rules = get_rules("double")
    position = deal(7, rules)
    drawn = list(probe_starts(position, rules, 5))
    assert drawn == list(probe_starts(deal(7, rules), rules, 5))  # the same position, the same probes
    assert [m for m, _ in drawn] != [m for m, _ in probe_starts(deal(8, rules), rules, 5)]
    for moves, here in drawn:
        assert len(moves) == PROBE_MOVES
        assert check_solution(position, moves, rules) == here  # legal moves, leading where the probe searches


def test_the_second_move_order_puts_the_moves_that_turn_a_card_first():
    rules = get_rules("double")
    position = deal(3, rules)
    first, second = search_order(position, rules), search_order(position, rules, reveals_first=True)
    assert sorted(first) == sorted(second) and first != second
    turning = [m for m in first if not m.is_tail and lead_index(position, m, 2) == position.hidden[m.src] > 0]
    assert turning == [second[0]] and second[1:] == [m for m in first if m not in turning]
    scorpion = get_rules("clear")
    assert search_order(deal(3, scorpion), scorpion, reveals_first=True) == search_order(deal(3, scorpion), scorpion)


@pytest.mark.parametrize("mode", NEW_SHAPES)
def test_the_shortest_search_refuses_the_ten_column_games(mode):
    rules = get_rules(mode)
    with pytest.raises(ValueError, match=f"shortest search plays the seven-column games only, not {mode}"):
        solve_shortest(deal(3, rules), rules)


def test_a_wide_line_is_shortened_with_the_wide_key_tables(monkeypatch):
    # The cut of detours matches the line's positions by key: read with the one-deck tables, a wide state's
    # keys came from past the end of those arrays (numba checks no bounds), so two different positions could
    # match and the cut line did not replay (double deal 2: "move 181: TC:9>1 is not legal here").
    from scorpion_solver.solver import kernel

    rules = get_rules("double")
    position = deal(2, rules)
    unshortened = solve(position, rules, Limits(nodes=30_000), shorten=False)
    seen = []
    shorten_line = kernel.shorten_line

    def spy(state, keys, codes, out, two_moves, flags, tables):
        seen.append(tables)
        return shorten_line(state, keys, codes, out, two_moves, flags, tables)

    monkeypatch.setattr(kernel, "shorten_line", spy)
    result = solve(position, rules, Limits(nodes=30_000))
    assert seen and all(tables is kernel.WIDE_KEY_TABLES for tables in seen)
    assert len(result.line) < len(unshortened.line)  # a cut made
    assert is_won(check_solution(position, result.line, rules), rules)
