"""The jitted core against its plain-Python twins, position by position.

Random playouts (seeded) from deals below and above 32000, and the winning
lines the solver finds, in every rules preset. At every visited position:

* ``jit_legal_moves`` equals ``engine.legal_moves`` (same moves, same order);
* for every legal move, the kernel's make (what ``jit_play`` runs) gives the
  position ``engine.apply_move`` gives, every meaningful byte of its compact
  state equals the documented layout of that position, and its incrementally
  updated keys equal keys computed from scratch (what ``state_problems``
  checks, and more);
* ``to_compact(pos)`` is the documented layout and decodes back to ``pos``;
* ``jit_deadlocked`` equals ``deadlock.is_deadlocked`` and ``can_become_top``;
* the kernel's won test equals ``engine.is_won``.

Keys: permuting interchangeable columns keeps the key; on everything visited,
canonical_key -> position_key is a bijection. perft against engine.perft and
the docs/rules.md table. The compact layout of the kernel's docstring.

The playouts decode and check the kernel's states with local helpers (an
independent reading of the documented layout, stricter than
``state_problems``) for every move, and run the public ``from_compact``,
``jit_play`` and ``state_problems`` on every position and one move of each.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from perft_table import TABLE, check_perft, divide_message, kernel_divide

from scorpion_solver.game import engine
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, interchangeable_columns, is_won, legal_moves, parse_moves
from scorpion_solver.game.position import Position, frozen_floor, position_problems
from scorpion_solver.game.rules import CLASSIC, CLEAR, GOODSOL, SCORPION2, WASP
from scorpion_solver.solver import deadlock, kernel
from scorpion_solver.solver.search import (
    compact_keys,
    from_compact,
    jit_deadlocked,
    jit_legal_moves,
    jit_perft,
    jit_play,
    position_key,
    rule_flags,
    solve,
    state_problems,
    to_compact,
)
from scorpion_solver.solver.search_twin import canonical_key

PRESETS = [CLEAR, CLASSIC, WASP, SCORPION2, GOODSOL]
IDS = [r.name for r in PRESETS]

_pick = random.Random(20240601)
DEALS = sorted(_pick.sample(range(1, 32000), 30)) + sorted(_pick.sample(range(32000, 2_000_000), 30))
PLAYOUT_LENGTH = 70
PLAYOUTS_PER_DEAL = {"wasp": 1}  # Wasp positions have many more moves; 2 elsewhere

# Deals the jitted solver wins in each preset, with short enough solutions to walk.
WON_LINES = {
    "clear": [5, 33, 37, 87],
    "classic": [5, 37, 65, 87],
    "wasp": [1],
    "scorpion2": [1, 5, 30],
    "goodsol": [5, 33, 58],
}

# canonical_key -> position_key and back, over everything any test here visits.
SEEN_KEYS: dict[tuple, tuple[int, int]] = {}
SEEN_CANON: dict[tuple[int, int], tuple] = {}


def record_key(pos: Position) -> tuple[int, int]:
    key = position_key(pos)
    canon = canonical_key(pos)
    assert SEEN_KEYS.setdefault(canon, key) == key, f"one canonical position, two keys:\n{pos}"
    assert SEEN_CANON.setdefault(key, canon) == canon, f"two different positions share key {key}:\n{pos}"
    return key


def permuted(pos: Position, rng: random.Random) -> Position:
    """The position with its interchangeable columns shuffled (face-down counts travel along)."""
    free = list(interchangeable_columns(pos))
    order = free[:]
    rng.shuffle(order)
    columns, hidden = list(pos.columns), list(pos.hidden)
    for a, b in zip(free, order):
        columns[a], hidden[a] = pos.columns[b], pos.hidden[b]
    return Position(tuple(columns), tuple(hidden), pos.tail, pos.frozen)


def swapped_fixed(pos: Position) -> Position | None:
    """Columns 1 and 2 exchanged before the tail deal (not interchangeable), if they differ."""
    if pos.tail_dealt or (pos.columns[0], pos.hidden[0]) == (pos.columns[1], pos.hidden[1]):
        return None
    columns, hidden = list(pos.columns), list(pos.hidden)
    columns[0], columns[1] = columns[1], columns[0]
    hidden[0], hidden[1] = hidden[1], hidden[0]
    return Position(tuple(columns), tuple(hidden), pos.tail, pos.frozen)


# ---------------------------------------------------------------------------
# An independent reading of the compact layout, with plain Python ints (the
# first from_compact overflowed under numpy 2: int8 + int stays int8).


def decode(s: np.ndarray) -> Position:
    columns, hidden = [], []
    for col in range(7):
        n = int(s[kernel.LEN + col])
        base = kernel.COLS + kernel.COL_CAP * col
        columns.append(tuple(int(c) for c in s[base : base + n]))
        hidden.append(int(s[kernel.HID + col]))
    dealt = int(s[kernel.DEALT])
    tail = () if dealt else tuple(int(s[kernel.TAIL + t]) for t in range(3))
    frozen = frozenset(suit for suit in range(4) if (int(s[kernel.FROZEN]) >> suit) & 1)
    return Position(tuple(columns), tuple(hidden), tail, frozen)


def kernel_play(pos: Position, move, rules) -> tuple[np.ndarray, np.ndarray]:
    """Play a move with kernel.make_move on the compact state; return the state and incremental keys."""
    s = to_compact(pos)
    keys = compact_keys(s)
    code = kernel.TAIL_CODE if move.is_tail else move.card * 8 + move.dst
    sweeps, freezes, _, _ = rule_flags(rules)
    kernel.make_move(s, keys, code, sweeps, freezes, kernel.Z, kernel.ZH, kernel.SALT, kernel.MISC)
    return s, keys


def layout(pos: Position) -> np.ndarray:
    """The compact state of a position, built here from the docstring's table (an oracle for to_compact)."""
    s = [0] * kernel.STATE_SIZE
    s[kernel.LOCCOL : kernel.LOCCOL + 52] = [-1] * 52
    present = set(pos.tail)
    for col, cards in enumerate(pos.columns):
        for i, c in enumerate(cards):
            s[kernel.COLS + kernel.COL_CAP * col + i] = c
            s[kernel.LOCCOL + c] = col
            s[kernel.LOCIDX + c] = i
            present.add(c)
        s[kernel.LEN + col] = len(cards)
        s[kernel.HID + col] = pos.hidden[col]
        s[kernel.FLOOR + col] = frozen_floor(pos, col) if pos.frozen else 0
    for t in range(3):
        s[kernel.TAIL + t] = pos.tail[t] if pos.tail else -1
    s[kernel.DEALT] = 0 if pos.tail else 1
    s[kernel.SWEPT] = 4 - len({c // 13 for c in present})
    s[kernel.FROZEN] = sum(1 << suit for suit in pos.frozen)
    return np.array(s, dtype=np.int8)


def meaningful(s: np.ndarray) -> np.ndarray:
    """Mask of the bytes of a state that carry information (stale cards above LEN and
    the LOCIDX of cards off the table are garbage)."""
    mask = np.ones(kernel.STATE_SIZE, dtype=bool)
    for col in range(7):
        base = kernel.COLS + kernel.COL_CAP * col
        mask[base + int(s[kernel.LEN + col]) : base + kernel.COL_CAP] = False
    mask[kernel.LOCIDX : kernel.LOCIDX + 52] = s[kernel.LOCCOL : kernel.LOCCOL + 52] >= 0
    return mask


def compact_problems(s: np.ndarray, keys: np.ndarray, want: Position | None = None) -> list[str]:
    """What state_problems checks, and more: every meaningful byte of s equals the layout of
    the position it should hold (``want``, or what it decodes to), and the keys equal keys
    computed from scratch."""
    problems = []
    pos = decode(s)
    if want is not None and pos != want:
        problems.append(f"the state holds\n{pos}\nnot\n{want}")
    expected = layout(want if want is not None else pos)
    mask = meaningful(s)
    if not np.array_equal(mask, meaningful(expected)):
        problems.append("LOCCOL says a different set of cards is on the table")
    bad = np.nonzero((s != expected) & mask)[0]
    if len(bad):
        problems.append(f"state bytes {list(bad[:10])} differ from the layout of the position")
    for col in range(7):
        if s[kernel.LEN + col] and s[kernel.HID + col] >= s[kernel.LEN + col]:
            problems.append(f"column {col + 1} has a face-down top")
    if not np.array_equal(keys, compact_keys(expected)):
        problems.append("incremental keys differ from keys computed from scratch")
    return problems


class Stats:
    def __init__(self) -> None:
        self.positions = self.children = self.dealt = self.spaces = self.swept = self.frozen = 0
        self.won = self.dead = self.dead_by_rule = self.no_moves = 0
        self.distinct: set[tuple[int, int]] = set()


def check_position(pos: Position, rules, rng: random.Random, stats: Stats) -> list:
    """Every differential check at one position; return the engine's legal moves."""
    stats.positions += 1
    stats.dealt += pos.tail_dealt
    stats.spaces += any(not c for c in pos.columns)
    stats.swept += bool(pos.swept_suits())
    stats.frozen += bool(pos.frozen)

    s = to_compact(pos)
    assert s.dtype == np.int8 and s.shape == (kernel.STATE_SIZE,)
    assert np.array_equal(s, layout(pos)), f"to_compact differs from the documented layout:\n{pos}"
    assert decode(s) == pos
    assert position_problems(pos) == []

    sweeps, _, _, _ = rule_flags(rules)
    won = is_won(pos, rules)
    assert bool(kernel._is_won(s, sweeps)) == won, f"won test differs:\n{pos}"
    stats.won += won

    moves = legal_moves(pos, rules)
    assert jit_legal_moves(pos, rules) == moves, f"move lists differ ({rules.name}):\n{pos}"
    stats.no_moves += not moves

    children = []
    for move in moves:
        want = apply_move(pos, move, rules)
        state, keys = kernel_play(pos, move, rules)
        assert compact_problems(state, keys, want) == [], f"{engine.move_text(move)} ({rules.name}) from:\n{pos}"
        children.append(want)
        stats.children += 1

    # The public front on the position and on one of its moves (all moves: test_public_front_along_playouts).
    assert from_compact(s) == pos
    assert state_problems(s, compact_keys(s)) == []
    if moves:
        j = rng.randrange(len(moves))
        got, state, keys = jit_play(pos, moves[j], rules)
        assert got == children[j]
        assert state_problems(state, keys) == []

    dead = {}
    for successor_above in (True, False):
        can_top, _ = deadlock.can_become_top(pos, rules, successor_above)
        dead[successor_above] = deadlock.is_deadlocked(pos, rules, successor_above)
        assert jit_deadlocked(pos, rules, successor_above) == (dead[successor_above], can_top), (
            f"deadlock test differs ({rules.name}, successor_above={successor_above}):\n{pos}"
        )
    assert dead[True] or not dead[False]  # the rule only adds proofs
    stats.dead += dead[True]
    stats.dead_by_rule += dead[True] and not dead[False]

    key = record_key(pos)
    stats.distinct.add(key)
    twin = permuted(pos, rng)
    assert canonical_key(twin) == canonical_key(pos)
    assert position_key(twin) == key, f"permuting interchangeable columns changed the key:\n{pos}\n--\n{twin}"
    other = swapped_fixed(pos)
    if other is not None:
        record_key(other)
    return moves


def check_position_public(pos: Position, rules) -> list:
    """The same checks through the public front: from_compact, jit_play, state_problems."""
    s = to_compact(pos)
    assert from_compact(s) == pos
    assert state_problems(s, compact_keys(s)) == []
    moves = legal_moves(pos, rules)
    assert jit_legal_moves(pos, rules) == moves
    for move in moves:
        got, state, keys = jit_play(pos, move, rules)
        assert got == apply_move(pos, move, rules)
        assert state_problems(state, keys) == []
    return moves


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_random_playouts_match_the_engine(rules):
    stats = Stats()
    for number in DEALS:
        for playout in range(PLAYOUTS_PER_DEAL.get(rules.name, 2)):
            rng = random.Random(f"{rules.name} {number} {playout}")
            pos = deal(number, rules)
            for _ in range(PLAYOUT_LENGTH):
                moves = check_position(pos, rules, rng, stats)
                if not moves:
                    break
                pos = apply_move(pos, rng.choice(moves), rules)
            else:
                check_position(pos, rules, rng, stats)
    assert stats.positions >= 1300, vars(stats)
    # The bijection canonical_key <-> position_key was checked over this many distinct positions.
    assert len(stats.distinct) >= 1000, len(stats.distinct)
    assert stats.children >= 6000, vars(stats)
    # The playouts reach the interesting states, not only fresh deals.
    assert stats.dealt >= 200 and stats.spaces >= 100, vars(stats)
    assert stats.dead >= 50 and stats.positions - stats.dead >= 50, vars(stats)
    assert stats.dead_by_rule >= 10, vars(stats)  # positions only the successor-above rule proves lost


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_winning_lines_match_the_engine(rules):
    """Walk solver solutions (sweeps, freezes, won positions) with short random side branches."""
    stats = Stats()
    for number in WON_LINES[rules.name]:
        start = deal(number, rules)
        result = solve(start, rules)
        assert result.status == "won", (number, result)
        rng = random.Random(number)
        pos = start
        for move in parse_moves(result.solution):
            moves = check_position(pos, rules, rng, stats)
            assert move in moves
            side = pos
            for _ in range(2):
                side_moves = legal_moves(side, rules)
                if not side_moves:
                    break
                side = apply_move(side, rng.choice(side_moves), rules)
                check_position(side, rules, rng, stats)
            pos = apply_move(pos, move, rules)
        assert check_position(pos, rules, rng, stats) == []
        assert is_won(pos, rules)
    assert stats.won >= len(WON_LINES[rules.name])
    if rules.sweeps:
        assert stats.swept >= 20, vars(stats)
    if rules.freezes:
        assert stats.frozen >= 20, vars(stats)


# ---------------------------------------------------------------------------
# keys


def test_golden_keys_of_deal_1():
    assert position_key(deal(1)) == (15114741239902333409, 1954998137612289505)
    assert position_key(deal(1, CLASSIC)) == (15114741239902333409, 1954998137612289505)
    # Scorpion II deals column 4 face up: a different position, a different key.
    assert position_key(deal(1, SCORPION2)) != position_key(deal(1))


def test_height_table_is_geometric_in_height():
    """The O(1) child keys rely on Z[card, h] = A[card] * R^h (mod 2^64), R^d for -64 < d < 64 in MISC,
    and R = 3 mod 8 (the collision bound of the kernel's docstring)."""
    z = kernel.Z.reshape(2, 52, kernel.COL_CAP)
    for k in range(2):
        power = {
            d: int(kernel.MISC[k, kernel.MISC_POW + kernel.COL_CAP + d])
            for d in range(1 - kernel.COL_CAP, kernel.COL_CAP)
        }
        r = power[1]
        assert r % 8 == 3 and power[0] == 1
        for d in range(1 - kernel.COL_CAP, kernel.COL_CAP):
            assert power[d] * pow(r, -d, 1 << 64) % (1 << 64) == 1  # R^d, negative d too
        for card in range(52):
            a = int(z[k, card, 0])
            assert [int(x) for x in z[k, card]] == [a * pow(r, h, 1 << 64) % (1 << 64) for h in range(kernel.COL_CAP)]
        # a block moved by d: its terms are multiplied by R^d
        assert int(z[k, 7, 40]) == int(z[k, 7, 3]) * power[37] % (1 << 64)
        assert int(z[k, 7, 3]) == int(z[k, 7, 40]) * power[-37] % (1 << 64)
    assert len(np.unique(z[:, :, 0])) == 2 * 52  # every card has its own A in each key set


def test_interchangeable_columns_every_permutation():
    """All 24 orders of columns 4-7 before the deal, and orders of all seven after it."""
    import itertools

    pos = deal(32000)
    key = position_key(pos)
    for order in itertools.permutations(range(3, 7)):
        columns = pos.columns[:3] + tuple(pos.columns[i] for i in order)
        hidden = pos.hidden[:3] + tuple(pos.hidden[i] for i in order)
        assert position_key(Position(columns, hidden, pos.tail, pos.frozen)) == key
    # Columns 1-3 are not interchangeable before the deal: swapping two changes the key.
    for a, b in ((0, 1), (0, 2), (1, 2), (0, 3), (2, 6)):
        columns, hidden = list(pos.columns), list(pos.hidden)
        columns[a], columns[b] = columns[b], columns[a]
        hidden[a], hidden[b] = hidden[b], hidden[a]
        assert position_key(Position(tuple(columns), tuple(hidden), pos.tail)) != key
    dealt = apply_move(pos, engine.TAIL, CLEAR)
    key = position_key(dealt)
    rng = random.Random(5)
    for _ in range(40):
        order = list(range(7))
        rng.shuffle(order)
        columns = tuple(dealt.columns[i] for i in order)
        hidden = tuple(dealt.hidden[i] for i in order)
        assert position_key(Position(columns, hidden, ())) == key


def test_key_sees_face_down_counts_and_frozen_suits():
    pos = deal(1)
    more_hidden = Position(pos.columns, (3, 3, 3, 3, 1, 0, 0), pos.tail)
    assert position_key(more_hidden) != position_key(pos)
    # Same table, one suit listed as frozen or not (classic): different positions.
    run = tuple(range(12, -1, -1))  # KC..AC
    rest = [c for c in range(13, 52)]
    columns = (run + tuple(rest[:3]),) + tuple(tuple(rest[3 + 6 * i : 9 + 6 * i]) for i in range(6))
    plain = Position(columns, (0,) * 7, ())
    frozen = Position(columns, (0,) * 7, (), frozenset({0}))
    assert position_key(plain) != position_key(frozen)


def test_key_sees_the_tail_order():
    pos = deal(1)
    reversed_tail = Position(pos.columns, pos.hidden, pos.tail[::-1])
    assert canonical_key(reversed_tail) != canonical_key(pos)
    assert position_key(reversed_tail) != position_key(pos)


# ---------------------------------------------------------------------------
# perft


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=["clear", "classic"])
def test_perft_deal_1_table(rules):
    """tests/data/perft.txt's counts (docs/rules.md's table), depths 1-6, from the kernel and the engine alike."""
    pos = deal(1, rules)
    record = TABLE[rules.name]
    assert sorted(record.counts) == [1, 2, 3, 4, 5, 6]
    for d in range(1, 7):
        check_perft(record, d, jit_perft(pos, d, rules), kernel_divide)
        check_perft(record, d, engine.perft(pos, d, rules), engine.perft_divide)
    assert jit_perft(pos, 0, rules) == 1


@pytest.mark.parametrize("name", sorted(TABLE))
def test_stored_divides_are_the_kernels(name):
    """Every divide of tests/data/perft.txt, move for move, from the kernel (jit_perft after each first move)."""
    record = TABLE[name]
    assert record.divides
    for depth, stored in record.divides.items():
        got = [(engine.move_text(m), n) for m, n in kernel_divide(record.position(), depth, record.rules)]
        assert got == stored, divide_message(record, depth, sum(n for _, n in got), kernel_divide)


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_perft_matches_engine(rules):
    numbers = [2, 3, 5, 33, 37, 100, 31999, 32000, 32001, 500_000]
    nonzero = 0
    for number in numbers:
        pos = deal(number, rules)
        for depth in range(1, 5):
            want = engine.perft(pos, depth, rules)
            assert jit_perft(pos, depth, rules) == want, (number, depth)
            nonzero += want > 0
    assert nonzero >= 30


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_perft_matches_engine_mid_game(rules):
    """From positions after the tail deal and with spaces, where move generation is richest."""
    rng = random.Random(99)
    checked = 0
    for number in DEALS[:40]:
        pos = deal(number, rules)
        for _ in range(25):
            children = [apply_move(pos, m, rules) for m in legal_moves(pos, rules)]
            alive = [child for child in children if legal_moves(child, rules)]
            if not alive:
                break
            pos = rng.choice(alive)
        if legal_moves(pos, rules):
            for depth in (1, 2, 3):
                assert jit_perft(pos, depth, rules) == engine.perft(pos, depth, rules), (number, depth, str(pos))
            checked += 1
    assert checked >= 30


# ---------------------------------------------------------------------------
# compact layout

LAYOUT_ROW = re.compile(r"^\s*(\d+)\s+(\d+(?:\s*\*\s*\d+)?)\s+([A-Za-z]+)\b")


def docstring_layout() -> list[tuple[int, int, str]]:
    doc = kernel.__doc__
    table = doc[doc.index("Compact state") : doc.index("Keys:")]
    rows = []
    for line in table.splitlines():
        m = LAYOUT_ROW.match(line)
        if m:
            size = 1
            for factor in m.group(2).split("*"):
                size *= int(factor)
            rows.append((int(m.group(1)), size, m.group(3)))
    return rows


def test_compact_layout_matches_docstring():
    assert kernel.STATE_SIZE == 584
    rows = docstring_layout()
    names = [name for _, _, name in rows]
    assert names == ["COLS", "LEN", "HID", "FLOOR", "LOCCOL", "LOCIDX", "TAIL", "DEALT", "SWEPT", "FROZEN", "padding"]
    assert "STATE_SIZE = 584" in kernel.__doc__
    end = 0
    for offset, size, name in rows:
        assert offset == end, f"{name} starts at {offset}, the previous region ends at {end} (gap or overlap)"
        if name != "padding":
            assert getattr(kernel, name) == offset, f"kernel.{name} = {getattr(kernel, name)}, docstring says {offset}"
        end = offset + size
    assert end == kernel.STATE_SIZE
    # The sizes the code relies on.
    assert kernel.LEN - kernel.COLS == 7 * kernel.COL_CAP
    assert kernel.LOCIDX - kernel.LOCCOL == 52 and kernel.TAIL - kernel.LOCIDX == 52
    assert kernel.DEALT - kernel.TAIL == 3
    assert (kernel.KEY1, kernel.KEY2, kernel.MIXED, kernel.BELOW_Z, kernel.KEYS_SIZE) == (14, 15, 16, 32, 136)
    assert kernel.KEYS_SIZE == kernel.BELOW_Z + 2 * 52
    assert "KEYS_SIZE = 136" in kernel.__doc__
    assert kernel.TAIL_CODE == 52 * 8 and kernel.TAIL_CODE < 2**15


def test_to_compact_fields_of_deal_1():
    pos = deal(1)
    s = to_compact(pos)
    assert list(s[kernel.LEN : kernel.LEN + 7]) == [7] * 7
    assert list(s[kernel.HID : kernel.HID + 7]) == [3, 3, 3, 3, 0, 0, 0]
    assert list(s[kernel.FLOOR : kernel.FLOOR + 7]) == [0] * 7
    assert list(s[kernel.TAIL : kernel.TAIL + 3]) == list(pos.tail)
    assert (s[kernel.DEALT], s[kernel.SWEPT], s[kernel.FROZEN]) == (0, 0, 0)
    for col, cards in enumerate(pos.columns):
        for i, c in enumerate(cards):
            assert s[kernel.COLS + kernel.COL_CAP * col + i] == c
            assert (s[kernel.LOCCOL + c], s[kernel.LOCIDX + c]) == (col, i)
    for c in pos.tail:
        assert s[kernel.LOCCOL + c] == -1
    assert not s[kernel.DEALT + 3 :].any()  # padding stays zero


@pytest.mark.parametrize("problems", [compact_problems, state_problems], ids=["compact_problems", "state_problems"])
def test_consistency_checks_notice_corruption(problems):
    """The playouts' consistency check and the debug mode's can fail (otherwise they would prove nothing)."""
    pos = apply_move(deal(1), engine.TAIL, CLEAR)
    s = to_compact(pos)
    keys = compact_keys(s)
    assert problems(s, keys) == []
    bad_keys = keys.copy()
    bad_keys[3] += np.uint64(1)
    assert problems(s, bad_keys)
    bad_keys = keys.copy()
    bad_keys[kernel.KEY2] ^= np.uint64(4)
    assert problems(s, bad_keys)
    bad = s.copy()
    bad[kernel.LOCIDX + pos.columns[4][2]] += 1
    assert problems(bad, keys)
    bad = s.copy()
    bad[kernel.FLOOR + 5] = 2
    assert problems(bad, compact_keys(bad))
    bad = s.copy()
    bad[kernel.HID + 0] = bad[kernel.LEN + 0]
    assert problems(bad, compact_keys(bad))
    # Garbage above a column's length is not a problem.
    fine = s.copy()
    fine[kernel.COLS + kernel.COL_CAP * 6 + 40] = 17
    assert problems(fine, keys) == []


def test_from_compact_round_trip():
    for rules in PRESETS:
        pos = deal(1, rules)
        assert from_compact(to_compact(pos)) == pos


def test_public_front_along_playouts():
    """The brief's per-step checks through the public functions, on a few playouts per preset."""
    for rules in PRESETS:
        for number in DEALS[::6]:
            rng = random.Random(number)
            pos = deal(number, rules)
            for _ in range(40):
                moves = check_position_public(pos, rules)
                if not moves:
                    break
                pos = apply_move(pos, rng.choice(moves), rules)


@pytest.mark.parametrize("rules", PRESETS, ids=IDS)
def test_child_keys_equal_make_move_keys(rules):
    """kernel.child_keys (keys of a child without making the move, used by the search to
    look children up) equals the keys make_move produces, for every move along playouts
    and winning lines (sweeps, freezes and the tail deal included)."""
    sweeps, freezes, _, _ = rule_flags(rules)
    scratch = np.zeros(kernel.STATE_SIZE, dtype=np.int8)
    scratch_keys = np.zeros(kernel.KEYS_SIZE, dtype=np.uint64)
    starts = [(deal(n, rules), None) for n in DEALS[::2]]
    for number in WON_LINES[rules.name][:2]:
        start = deal(number, rules)
        starts.append((start, parse_moves(solve(start, rules).solution)))
    checked = sweeping = 0
    for index, (pos, line) in enumerate(starts):
        rng = random.Random(index)
        for step in range(len(line) if line else 50):
            moves = legal_moves(pos, rules)
            if not moves:
                break
            s = to_compact(pos)
            keys = compact_keys(s)
            before = s.copy()
            for move in moves:
                code = kernel.TAIL_CODE if move.is_tail else move.card * 8 + move.dst
                k1, k2 = kernel.child_keys(
                    s, keys, code, scratch, scratch_keys, sweeps, freezes, kernel.Z, kernel.ZH, kernel.SALT, kernel.MISC
                )
                assert np.array_equal(s, before)  # the parent is not touched
                _, made = kernel_play(pos, move, rules)
                assert (int(k1), int(k2)) == (int(made[kernel.KEY1]), int(made[kernel.KEY2])), (
                    f"{engine.move_text(move)} ({rules.name}) from:\n{pos}"
                )
                child = apply_move(pos, move, rules)
                sweeping += child.frozen != pos.frozen or len(child.swept_suits()) != len(pos.swept_suits())
                checked += 1
            pos = apply_move(pos, line[step] if line else rng.choice(moves), rules)
    assert checked >= 800
    if rules.sweeps or rules.freezes:
        assert sweeping >= 4
