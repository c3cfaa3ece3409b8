"""The rule presets beyond the two Scorpion modes: wasp, scorpion2, goodsol.

Pinned perft counts of deal 1 per preset (both engines), the Scorpion II deal
pattern, preset-specific rules on hand-made positions, and the solver in every
preset: wins replay, and deadlock pruning never changes a verdict (checked
against unpruned searches, and on every deadlocked child of winning lines).

Deadlock pruning and the relatives (deadlock.py has the argument): the
argument uses only facts shared by every preset (cards land only on tops, a
card lying on another stays until it leads a move or is swept, a non-King
leads only onto its successor or, under Wasp, into a space) plus the preset's
own flags (space_any for Wasp, swept Kings only when runs sweep, frozen floors
only in classic), and the win of every preset needs every face-down card
turned up and every non-King on its successor. Scorpion II changes only the
deal. So it is sound for all five presets, and the tests below check that.
"""

from __future__ import annotations

import pytest
from perft_table import TABLE, check_perft, divide_message, kernel_divide

from scorpion_solver import deal
from scorpion_solver.game.cards import parse_card
from scorpion_solver.game.engine import (
    Move,
    apply_move,
    is_won,
    legal_moves,
    move_text,
    parse_moves,
    perft,
    perft_divide,
    replay,
    replay_positions,
)
from scorpion_solver.game.position_text import parse_position
from scorpion_solver.game.rules import CLASSIC, CLEAR, GOODSOL, PRESETS, SCORPION2, WASP, get_rules
from scorpion_solver.solver.reductions import Reductions
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import jit_deadlocked, jit_perft, solve

# The presets the numba kernel plays: Scorpion's shape (the ten-column relatives of issue 53 are the plain engine's
# until the kernel plays them).
KERNEL_PRESETS = sorted(name for name, rules in PRESETS.items() if rules.is_scorpion_shape)

# perft(deal 1, d) for d = 1..5 per preset, from tests/data/perft.txt (docs/rules.md's table; the relatives
# were computed with engine.perft and agree with search.jit_perft, which the test checks).
DEPTHS = range(1, 6)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_perft_deal_1(name):
    record = TABLE[name]
    rules = get_rules(name)
    position = deal(1, rules)
    for depth in DEPTHS:
        check_perft(record, depth, perft(position, depth, rules), perft_divide)
        check_perft(record, depth, jit_perft(position, depth, rules), kernel_divide)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_stored_divides_are_the_engines(name):
    """Every divide of tests/data/perft.txt: the reference engine's, move for move, summing to the stored count."""
    record = TABLE[name]
    assert set(record.divides) == set(record.counts) - {1}, "a divide for every depth from 2"
    for depth, stored in record.divides.items():
        assert sum(n for _, n in stored) == record.counts[depth], (name, depth)
        got = [(move_text(m), n) for m, n in perft_divide(record.position(), depth, record.rules)]
        assert got == stored, divide_message(record, depth, sum(n for _, n in got), perft_divide)


def test_every_preset_cites_its_source():
    assert set(PRESETS) == {"clear", "classic", "wasp", "scorpion2", "goodsol", "double", "double-dealt", "mice"}
    for rules in PRESETS.values():
        assert rules.source, rules.name
    assert "185" in WASP.source
    assert "672" in SCORPION2.source
    assert "Goodsol" in GOODSOL.source or "Pretty Good" in GOODSOL.source
    assert "511" in PRESETS["double"].source and "305" in PRESETS["mice"].source


@pytest.mark.parametrize("number", [1, 2, 5, 37, 1000, 31999, 32000, 123456])
def test_scorpion2_deal_differs_only_in_column_4_face_down(number):
    easy, plain = deal(number, SCORPION2), deal(number)
    assert easy.columns == plain.columns
    assert easy.tail == plain.tail
    assert plain.hidden == (3, 3, 3, 3, 0, 0, 0)
    assert easy.hidden == (3, 3, 3, 0, 0, 0, 0)
    # wasp and goodsol deal exactly like Scorpion
    assert deal(number, WASP) == plain == deal(number, GOODSOL)


# --------------------------------------------------------------------------
# preset rules on hand-made positions

# A complete heart run on top of a face-down 2C, and three spaces.
RUN_ON_TOP = """\
col1: 2C* KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH
col2: AC 3C 4C 5C 6C 7C 8C 9C TC JC QC KC
col3: AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS
col4:
col5: AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD
col6:
col7:
tail: -
"""


def card(text):
    return parse_card(text)[0]


def test_goodsol_runs_stay_but_move():
    position = parse_position(RUN_ON_TOP, GOODSOL).position
    assert position.columns[0][-1] == card("AH") and not position.frozen
    king_run = Move(card("KH"), 0, 3)
    assert king_run in legal_moves(position, GOODSOL)
    after = apply_move(position, king_run, GOODSOL)
    assert after.columns[0] == (card("2C"),) and after.hidden[0] == 0  # the 2C turned up
    assert len(after.columns[3]) == 13


def test_classic_freezes_and_clear_sweeps_the_same_run():
    classic = parse_position(RUN_ON_TOP, CLASSIC).position
    assert classic.frozen == {2}
    assert all(m.card != card("KH") for m in legal_moves(classic, CLASSIC))
    clear = parse_position(RUN_ON_TOP, CLEAR).position
    assert clear.columns[0] == (card("2C"),) and clear.hidden[0] == 0


def test_wasp_any_card_into_a_space():
    position = parse_position(RUN_ON_TOP, WASP).position  # the heart run is swept (wasp sweeps)
    moves = legal_moves(position, WASP)
    assert Move(card("5S"), 2, 3) in moves  # any face-up card may lead into a space
    assert Move(card("5S"), 2, 3) not in legal_moves(position, CLEAR)
    assert all(m.dst == 3 for m in moves if not position.columns[m.dst])  # the leftmost space only


# --------------------------------------------------------------------------
# the solver in every preset

QUICK_DEALS = range(1, 61)
UNPRUNED = Limits(nodes=50_000)
NO_PRUNE = Reductions(prune=False)


@pytest.mark.parametrize("name", KERNEL_PRESETS)
def test_wins_replay_and_pruning_keeps_verdicts(name):
    rules = get_rules(name)
    decided = won = 0
    for number in QUICK_DEALS:
        start = deal(number, rules)
        pruned = solve(start, rules, Limits(nodes=2_000_000))
        assert pruned.status != "unknown", (name, number)
        if pruned.status == "won":
            won += 1
            assert is_won(replay(start, parse_moves(pruned.solution), rules), rules)
        plain = solve(start, rules, UNPRUNED)
        if plain.status == "unknown":
            continue
        decided += 1
        assert plain.status == pruned.status, (name, number, plain.status, pruned.status)
        if plain.status == "won":
            assert is_won(replay(start, parse_moves(plain.solution), rules), rules)
    assert decided >= 10, f"{name}: only {decided} deals decided without pruning"
    assert won >= 1, f"{name}: no win among deals {QUICK_DEALS}"


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNEL_PRESETS)
def test_pruning_keeps_verdicts_deals_1_to_60(name):
    rules = get_rules(name)
    for number in range(1, 61):
        plain = solve(deal(number, rules), rules, Limits(nodes=200_000), reductions=NO_PRUNE)
        if plain.status != "unknown":
            assert solve(deal(number, rules), rules).status == plain.status, (name, number)


# Deals each preset wins quickly (found with the solver).
WINNING = {
    "clear": (5, 33, 37),
    "classic": (5, 37),
    "wasp": (1, 26, 44),
    "scorpion2": (1, 5, 30),
    "goodsol": (5, 33, 37),
}


@pytest.mark.parametrize("name", sorted(WINNING))
def test_deadlock_test_is_sound_along_winning_lines(name):
    """On a winning line no position is deadlocked, and no deadlocked child can be won."""
    rules = get_rules(name)
    flagged = 0
    for number in WINNING[name]:
        start = deal(number, rules)
        result = solve(start, rules)
        assert result.status == "won"
        for position in replay_positions(start, parse_moves(result.solution), rules):
            assert not jit_deadlocked(position, rules)[0]
            for move in legal_moves(position, rules):
                child = apply_move(position, move, rules)
                if jit_deadlocked(child, rules)[0]:
                    flagged += 1
                    assert solve(child, rules, UNPRUNED).status != "won", (name, number, str(move))
    assert flagged > 0
