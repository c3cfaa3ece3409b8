"""The numba kernel's wide layout (issue 53 item 2): Double Scorpion, its dealt layout and Three Blind Mice.

The kernel plays the ten-column games in ``int16`` states (docs/design.md,
"Relatives: several game shapes in one search"). Here it is held to the
plain engine: perft against tests/data/perft_relatives.txt and the engine's
own count on random positions; move lists compared move by move along random
games (a kernel move decoded into the engine's naming of copies); the state
after every kernel move equal to the engine's position and its incremental
keys equal to keys computed from scratch; a child's keys without making the
move equal to the keys after making it; and a position and its copy-swapped
twin sharing their keys (the two copies are one entry of the table).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from perft_table import RELATIVES, check_perft, kernel_divide
from test_relatives import MICE_HEARTS, TAIL_TO_DEAL, TWO_COPIES, WHOLE_COLUMN

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, legal_moves, perft
from scorpion_solver.game.position import Position, copy_blind
from scorpion_solver.game.position_text import parse_position
from scorpion_solver.game.rules import CLEAR, DOUBLE, DOUBLE_DEALT, MICE, Rules
from scorpion_solver.solver import kernel
from scorpion_solver.solver.compact import (
    compact_keys,
    decode_move,
    from_compact,
    key_tables,
    move_code,
    position_key,
    rule_bits,
    rule_flags,
    state_problems,
    to_compact,
)
from scorpion_solver.solver.driver import jit_legal_moves, jit_perft, make_move

WIDE_PRESETS = (DOUBLE, DOUBLE_DEALT, MICE)
HAND_MADE = (TWO_COPIES, TAIL_TO_DEAL, WHOLE_COLUMN, MICE_HEARTS)
W = kernel.WIDE


@pytest.mark.parametrize("record_id", sorted(RELATIVES))
def test_kernel_perft_is_the_stored_count(record_id):
    record = RELATIVES[record_id]
    for depth in sorted(record.counts):
        check_perft(record, depth, jit_perft(record.position(), depth, record.rules), kernel_divide)


def test_the_state_is_wide_and_converts_back():
    for rules in WIDE_PRESETS:
        pos = deal(1, rules)
        s = to_compact(pos)
        assert s.dtype == np.int16 and s.shape == (W.STATE_SIZE,)
        assert from_compact(s) == pos and state_problems(s, compact_keys(s)) == []
        assert s[W.RUNS] == rules.num_runs and s[W.DEALT] == (0 if pos.tail else 1)
    mice = to_compact(deal(1, MICE))
    reserves = deal(1, MICE).reserves
    assert [int(c) for c in mice[W.RESERVE : W.RESERVE + 2]] == list(reserves)
    assert [int(mice[W.LOCCOL + c]) for c in reserves] == [kernel.RESERVE_COLUMN] * 2
    assert (mice[W.LOCCOL + 52 : W.LOCCOL + 104] == -1).all()  # one deck: no second copies


def test_one_deck_states_keep_their_layout():
    s = to_compact(deal(1, CLEAR))
    assert s.dtype == np.int8 and s.shape == (kernel.STATE_SIZE,) and compact_keys(s).shape == (kernel.KEYS_SIZE,)
    assert kernel.NARROW.STATE_SIZE == 584 and kernel.NARROW.MOVE_BASE == 8 and kernel.NARROW.TAIL_CODE == 416


def check_position(pos: Position, rules: Rules) -> list:
    """Compare the kernel with the engine at one position; return the engine's moves."""
    expected = legal_moves(pos, rules)
    assert jit_legal_moves(pos, rules) == expected, f"{rules.name}:\n{pos}"
    s = to_compact(pos)
    keys = compact_keys(s)
    sweeps, freezes, _, _ = rule_flags(rules)
    scratch = np.zeros(W.STATE_SIZE, dtype=np.int16)
    scratch_keys = np.zeros(W.KEYS_SIZE, dtype=np.uint64)
    before = s.copy()
    for move in expected:
        code = move_code(move, s)
        assert decode_move(s, code) == move
        k1, k2 = kernel.child_keys(s, keys, code, scratch, scratch_keys, sweeps, freezes, *key_tables(s))
        assert np.array_equal(s, before)  # the parent is not touched
        child, child_keys = s.copy(), keys.copy()
        make_move(child, child_keys, move, rules)
        want = apply_move(pos, move, rules)
        assert from_compact(child) == want, f"{move} ({rules.name}) from:\n{pos}"
        assert state_problems(child, child_keys) == [], f"{move} ({rules.name}) from:\n{pos}"
        assert (int(k1), int(k2)) == (int(child_keys[W.KEY1]), int(child_keys[W.KEY2])), f"{move} from:\n{pos}"
    return expected


def random_games(rules: Rules, starts: list[Position], games: int, length: int, seed: int):
    """Positions along random games from each start (every position visited)."""
    rng = random.Random(seed)
    for start in starts:
        for _ in range(games):
            pos = start
            for _ in range(length):
                yield pos
                moves = legal_moves(pos, rules)
                if not moves:
                    break
                pos = apply_move(pos, rng.choice(moves), rules)


@pytest.mark.parametrize("rules", WIDE_PRESETS, ids=lambda r: r.name)
def test_moves_make_and_keys_match_the_engine_along_random_games(rules):
    starts = [deal(n, rules) for n in range(1, 6)]
    starts += [p.position for p in map(lambda t: parse_position(t, reachable=False), HAND_MADE) if p.rules == rules]
    positions = moves = 0
    for pos in random_games(rules, starts, 3, 60, 53):
        moves += len(check_position(pos, rules))
        positions += 1
    assert positions > 500 and moves > 2000


@pytest.mark.parametrize("rules", WIDE_PRESETS, ids=lambda r: r.name)
def test_kernel_perft_matches_the_engine_on_random_positions(rules):
    rng = random.Random(7)
    picked = [p for p in random_games(rules, [deal(n, rules) for n in (3, 4, 5)], 2, 40, 11) if rng.random() < 0.1]
    assert len(picked) >= 10
    for pos in picked:
        assert jit_perft(pos, 3, rules) == perft(pos, 3, rules), f"{rules.name}:\n{pos}"


def copy_swapped(pos: Position, faces: set[int]) -> Position:
    """The position with the two copies of each face in ``faces`` swapped."""

    def swap(c: int) -> int:
        return (c + 52) % 104 if c % 52 in faces else c

    return Position(
        tuple(tuple(swap(c) for c in col) for col in pos.columns),
        pos.hidden,
        tuple(swap(c) for c in pos.tail),
        pos.frozen,
        tuple(swap(c) for c in pos.reserves),
    )


@pytest.mark.parametrize("rules", (DOUBLE, DOUBLE_DEALT), ids=lambda r: r.name)
def test_a_position_and_its_copy_swapped_twin_have_equal_keys(rules):
    rng = random.Random(3)
    checked = 0
    for pos in random_games(rules, [deal(n, rules) for n in (1, 2)], 2, 40, 5):
        twin = copy_swapped(pos, set(rng.sample(range(52), 20)))
        assert copy_blind(twin) == copy_blind(pos)
        if twin != pos:
            assert position_key(twin) == position_key(pos)
            checked += 1
        # and the twin plays as the position does
        assert [m for m in jit_legal_moves(twin, rules)] == legal_moves(pos, rules)
    assert checked > 50


def test_keys_tell_different_positions_apart():
    pos = deal(1, DOUBLE)
    keys = {position_key(pos)}
    for move in legal_moves(pos, DOUBLE):
        keys.add(position_key(apply_move(pos, move, DOUBLE)))
    assert len(keys) == 1 + len(legal_moves(pos, DOUBLE))
    turned = Position(pos.columns, (3,) + pos.hidden[1:], pos.tail)  # one card fewer face down
    assert position_key(turned) != position_key(pos)
    # the tail's order and a reserve card count
    reordered = Position(pos.columns, pos.hidden, pos.tail[::-1])
    assert position_key(reordered) != position_key(pos)
    mice = deal(1, MICE)
    assert position_key(Position(mice.columns, mice.hidden, (), reserves=mice.reserves[::-1])) == position_key(mice)


def test_interchangeable_columns_share_keys():
    pos = deal(1, DOUBLE_DEALT)  # no tail: every column is interchangeable
    order = [3, 0, 9, 1, 2, 8, 4, 6, 5, 7]
    shuffled = Position(tuple(pos.columns[i] for i in order), tuple(pos.hidden[i] for i in order), ())
    assert position_key(shuffled) == position_key(pos)
    with_tail = deal(1, DOUBLE)  # columns 1-4 keep their places until the tail is dealt
    swapped = list(range(10))
    swapped[0], swapped[5] = 5, 0
    moved = Position(
        tuple(with_tail.columns[i] for i in swapped), tuple(with_tail.hidden[i] for i in swapped), with_tail.tail
    )
    assert position_key(moved) != position_key(with_tail)
    swapped = [0, 1, 2, 3, 9, 8, 7, 6, 5, 4]
    moved = Position(
        tuple(with_tail.columns[i] for i in swapped), tuple(with_tail.hidden[i] for i in swapped), with_tail.tail
    )
    assert position_key(moved) == position_key(with_tail)


def test_rules_the_wide_kernel_does_not_play_are_refused():
    odd = Rules(name="double-frozen", face_down=DOUBLE.face_down, decks=2, tail_size=4, runs="frozen")
    with pytest.raises(ValueError, match="ten-column games with swept runs"):
        rule_bits(odd)
    assert rule_bits(DOUBLE) & kernel.RULE_SWEEPS
