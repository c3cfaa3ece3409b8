"""The kernel's compact state: conversion from and to a :class:`Position`, its checks, rule and prune flags.

The one-deck state vector's layout is in ``kernel``'s docstring: ``int8``, for
every seven-column game. The ten-column games (Double Scorpion, its dealt
layout, Three Blind Mice) take the wide layout (``kernel.WIDE``, ``int16``;
docs/design.md, "Relatives: several game shapes in one search"), and the
kernel reads which from the array's element type. Everything here is
plain Python over numpy arrays and calls no search: the only kernel function
used is ``compute_keys`` (a position's keys from scratch). ``driver`` makes
every other call into the kernel.
"""

from __future__ import annotations

import array

import numpy as np

from ..game.cards import NUM_CARDS
from ..game.engine import RESERVE, TAIL, UPPER_COPY, Move
from ..game.position import Position, frozen_floor, position_problems
from ..game.rules import SPACE_ANY, TAIL_WHEN_STUCK, Rules
from . import kernel

# the one-deck layout holds 7 columns with a tail of 3; the wide one 10 columns (docs/design.md, "Relatives")
_NOT_SCORPION_SHAPE = (
    "the solver's kernel plays seven columns with a tail of 3 and no reserves, or ten columns, not {what}"
)
# the wide layout's kernels play swept runs, Kings-only spaces and a tail dealt at any time (the three presets)
_NOT_WIDE_RULES = (
    "the solver's kernel plays ten-column games with swept runs, Kings-only spaces and the tail at any time"
)

W = kernel.WIDE


def is_wide(s: np.ndarray) -> bool:
    """Whether a compact state (or a stack of them) is in the wide layout."""
    return s.dtype == np.int16


def key_tables(s: np.ndarray) -> tuple[np.ndarray, ...]:
    """The key tables the kernel takes with state ``s`` (``KEY_TABLES``, or ``WIDE_KEY_TABLES``)."""
    return kernel.WIDE_KEY_TABLES if s.dtype == np.int16 else kernel.KEY_TABLES


def layout_of(s: np.ndarray) -> kernel.Layout:
    """The layout constants of a compact state (what ``kernel.layout`` answers at typing time)."""
    return W if s.dtype == np.int16 else kernel.NARROW


def state_dtype(rules: Rules) -> type:
    """The element type of the rules' compact states: int8 (seven columns) or int16 (ten, the wide layout)."""
    return np.int8 if rules.num_columns == 7 else np.int16


def to_compact(pos: Position) -> np.ndarray:
    """The kernel's state vector for a position (layout in kernel's docstring).

    Written into a ``bytearray`` (an int8 -1 is the byte 255) and viewed as
    int8 at the end: one numpy call, not one per card (a sampled layout's solve
    converts a position, and numpy's item assignments were most of its fixed cost).
    A ten-column position takes the wide layout (:func:`_to_wide`).
    """
    if len(pos.columns) == 10:
        return _to_wide(pos)
    if len(pos.columns) != 7 or pos.reserves:
        raise ValueError(_NOT_SCORPION_SHAPE.format(what=f"a position of {len(pos.columns)} columns"))
    s = bytearray(kernel.STATE_SIZE)
    loccol = [255] * NUM_CARDS  # -1: not on the table
    locidx = [0] * NUM_CARDS
    for col, cards in enumerate(pos.columns):
        if len(cards) > kernel.COL_CAP:
            raise ValueError(f"column {col + 1} holds {len(cards)} cards; the kernel allows {kernel.COL_CAP}")
        start = kernel.COLS + kernel.COL_CAP * col
        s[start : start + len(cards)] = bytes(cards)
        for i, c in enumerate(cards):
            loccol[c] = col
            locidx[c] = i
        s[kernel.LEN + col] = len(cards)
        s[kernel.HID + col] = pos.hidden[col]
        if pos.frozen:  # else the floor is 0
            s[kernel.FLOOR + col] = frozen_floor(pos, col)
    s[kernel.LOCCOL : kernel.LOCCOL + NUM_CARDS] = bytes(loccol)
    s[kernel.LOCIDX : kernel.LOCIDX + NUM_CARDS] = bytes(locidx)
    for t in range(3):
        s[kernel.TAIL + t] = pos.tail[t] if pos.tail else 255
    s[kernel.DEALT] = 0 if pos.tail else 1
    s[kernel.SWEPT] = len(pos.swept_suits())
    s[kernel.FROZEN] = sum(1 << suit for suit in pos.frozen)
    return np.frombuffer(s, dtype=np.int8)


def _to_wide(pos: Position) -> np.ndarray:
    """The wide layout's state of a ten-column position.

    SWEPT counts the runs swept since the state was made and RUNS the runs
    that were still to sweep then (the cards in play, by thirteen): the game
    is won when the two are equal, which holds for both decks' games without
    the state naming its deck count. Written into a copy of a blank
    ``array.array`` and viewed as int16, as :func:`to_compact` writes a
    ``bytearray`` (a share of a deal solves 362,880 arrangements, and numpy's
    item assignments were most of each one's fixed cost).
    """
    if len(pos.tail) not in (0, W.NTAIL) or len(pos.reserves) > W.NRES or pos.frozen:
        raise ValueError(_NOT_SCORPION_SHAPE.format(what="this ten-column position"))
    s = array.array("h", _WIDE_BLANK)
    for col, cards in enumerate(pos.columns):
        if len(cards) > W.COL_CAP:
            raise ValueError(f"column {col + 1} holds {len(cards)} cards; the kernel allows {W.COL_CAP}")
        start = W.COLS + W.COL_CAP * col
        s[start : start + len(cards)] = array.array("h", cards)
        for i, card in enumerate(cards):
            s[W.LOCCOL + card] = col
            s[W.LOCIDX + card] = i
        s[W.LEN + col] = len(cards)
        s[W.HID + col] = pos.hidden[col]
    if pos.tail:
        s[W.TAIL : W.TAIL + W.NTAIL] = array.array("h", pos.tail)
    for slot, card in enumerate(pos.reserves):
        s[W.RESERVE + slot] = card
        s[W.LOCCOL + card] = kernel.RESERVE_COLUMN
        s[W.LOCIDX + card] = slot
    s[W.DEALT] = 0 if pos.tail else 1
    s[W.RUNS] = len(pos.cards_in_play()) // 13
    return np.frombuffer(s, dtype=np.int16)


def _wide_blank() -> array.array:
    """The wide state before a position is written in: no card anywhere, no tail, no reserve."""
    s = array.array("h", bytes(2 * W.STATE_SIZE))
    for start, size in ((W.LOCCOL, W.NCARDS), (W.TAIL, W.NTAIL), (W.RESERVE, W.NRES)):
        s[start : start + size] = array.array("h", [-1] * size)
    return s


_WIDE_BLANK = _wide_blank()


def _from_wide(s: np.ndarray) -> Position:
    columns = tuple(
        tuple(int(c) for c in s[W.COLS + W.COL_CAP * col : W.COLS + W.COL_CAP * col + int(s[W.LEN + col])])
        for col in range(W.NCOLS)
    )
    hidden = tuple(int(s[W.HID + col]) for col in range(W.NCOLS))
    tail = () if s[W.DEALT] else tuple(int(c) for c in s[W.TAIL : W.TAIL + W.NTAIL])
    reserves = tuple(int(c) for c in s[W.RESERVE : W.RESERVE + W.NRES] if c >= 0)
    return Position(columns, hidden, tail, frozenset(), reserves)


def from_compact(s: np.ndarray) -> Position:
    """The position a compact state holds (the inverse of :func:`to_compact`)."""
    if is_wide(s):
        return _from_wide(s)
    columns = tuple(
        tuple(
            int(c)
            for c in s[
                kernel.COLS + kernel.COL_CAP * col : kernel.COLS + kernel.COL_CAP * col + int(s[kernel.LEN + col])
            ]
        )
        for col in range(7)
    )
    hidden = tuple(int(s[kernel.HID + col]) for col in range(7))
    tail = () if s[kernel.DEALT] else tuple(int(s[kernel.TAIL + t]) for t in range(3))
    frozen = frozenset(suit for suit in range(4) if (int(s[kernel.FROZEN]) >> suit) & 1)
    return Position(columns, hidden, tail, frozen)


def compact_keys(s: np.ndarray) -> np.ndarray:
    """The state's keys computed from scratch (``kernel.compute_keys``)."""
    keys = np.zeros(layout_of(s).KEYS_SIZE, dtype=np.uint64)
    kernel.compute_keys(s, keys, *key_tables(s))
    return keys


def position_key(pos: Position) -> tuple[int, int]:
    """The kernel's two transposition keys of a position."""
    s = to_compact(pos)
    keys, lay = compact_keys(s), layout_of(s)
    return int(keys[lay.KEY1]), int(keys[lay.KEY2])


def state_problems(s: np.ndarray, keys: np.ndarray | None = None) -> list[str]:
    """Recompute everything derivable in a compact state from scratch and list mismatches.

    The ``pos_is_ok`` of this project: used by the tests after every move and
    by ``solve(..., debug=True)``.
    """
    problems = []
    lay = layout_of(s)
    pos = from_compact(s)
    rebuilt = to_compact(pos)
    checked = [
        ("LOCCOL", lay.LOCCOL, lay.LOCCOL + lay.NCARDS),
        ("LOCIDX", lay.LOCIDX, lay.LOCIDX + lay.NCARDS),
        ("FLOOR", lay.FLOOR, lay.FLOOR + lay.NCOLS),
    ]
    if lay.WIDE:  # runs still to sweep: RUNS - SWEPT (the rebuilt state has swept none)
        if int(s[lay.RUNS]) - int(s[lay.SWEPT]) != int(rebuilt[lay.RUNS]):
            problems.append("SWEPT disagrees with the cards in play")
    else:
        checked.append(("SWEPT", lay.SWEPT, lay.SWEPT + 1))
    for name, lo, hi in checked:
        where = s[lay.LOCCOL : lay.LOCCOL + lay.NCARDS]
        on_table = (where >= 0) & (where < lay.NCOLS)  # a reserve card keeps its slot, the rebuilt state packs them
        a, b = s[lo:hi], rebuilt[lo:hi]
        if name == "LOCIDX":
            a, b = a[on_table], b[on_table]
        if not np.array_equal(a, b):
            problems.append(f"{name} disagrees with the columns")
    for col in range(lay.NCOLS):
        if s[lay.LEN + col] and s[lay.HID + col] >= s[lay.LEN + col]:
            problems.append(f"column {col + 1} has a face-down top")
    if keys is not None and not np.array_equal(keys, compact_keys(s)):
        problems.append("incremental keys differ from keys computed from scratch")
    problems += position_problems(pos)
    return problems


def rule_bits(rules: Rules) -> int:
    """The rules' bits of the kernel's ``flags`` word (layout in kernel's docstring; ``Reductions.kernel_bits``
    has the reductions')."""
    known = _rule_bits.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    sweeps, freezes, space_any, when_stuck = rule_flags(rules)
    bits = sweeps * kernel.RULE_SWEEPS | freezes * kernel.RULE_FREEZES | space_any * kernel.RULE_SPACE_ANY
    bits |= when_stuck * kernel.RULE_TAIL_WHEN_STUCK
    _rule_bits[id(rules)] = (rules, bits)  # the rules object is kept, so its id is not reused
    return bits


_rule_bits: dict[int, tuple[Rules, int]] = {}


def rule_flags(rules: Rules) -> tuple[int, int, int, int]:
    """(sweeps, freezes, space_any, tail_when_stuck) as the kernel takes them.

    Every call into the kernel takes its rules through here, so rules of a
    shape the kernel does not play are refused here, before a deal is
    searched as a Scorpion deal.
    """
    known = _rule_flags.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    if rules.num_columns != 7:
        if not (rules.sweeps and rules.space != SPACE_ANY and rules.tail != TAIL_WHEN_STUCK):
            raise ValueError(_NOT_WIDE_RULES)
    elif not rules.is_scorpion_shape:
        raise ValueError(_NOT_SCORPION_SHAPE.format(what=f"'{rules.name}'"))
    flags = (int(rules.sweeps), int(rules.freezes), int(rules.space == SPACE_ANY), int(rules.tail == TAIL_WHEN_STUCK))
    _rule_flags[id(rules)] = (rules, flags)  # the rules object is kept, so its id is not reused
    return flags


_rule_flags: dict[int, tuple[Rules, tuple[int, int, int, int]]] = {}


def move_code(move: Move, s: np.ndarray | None = None) -> int:
    """The kernel's code of a move (``card * 8 + dst``, or ``TAIL_CODE``).

    In the wide layout (``s`` the state it is played from) ``card * 16 + dst``
    where the card is the copy the move names: the engine's two-deck move
    names a face and whether it is the upper of two face-up copies in its
    source column (``engine.UPPER_COPY``); the kernel's names the card.
    """
    if s is None or not is_wide(s):
        return kernel.TAIL_CODE if move.is_tail else move.card * 8 + move.dst
    if move.is_tail:
        return W.TAIL_CODE
    if move.src == RESERVE:
        return move.card * W.MOVE_BASE + move.dst
    face, nth = move.card % UPPER_COPY, move.card // UPPER_COPY
    base = W.COLS + W.COL_CAP * move.src
    copies = [int(c) for c in s[base + int(s[W.HID + move.src]) : base + int(s[W.LEN + move.src])] if c % 52 == face]
    if nth >= len(copies):
        raise ValueError(f"no move {move} in this state")
    return copies[nth] * W.MOVE_BASE + move.dst


def move_codes(path: list[Move]) -> np.ndarray:
    """The kernel's codes of a one-deck line, as the uint16 array its line functions take."""
    return np.array([move_code(m) for m in path], dtype=np.uint16)


def decode_move(s: np.ndarray, code: int) -> Move:
    """The move of kernel code ``code`` from state ``s`` (its source column read from ``s``).

    In the wide layout the kernel's card becomes the engine's naming: the face, plus ``UPPER_COPY`` when
    the other copy lies face up lower in the same column; a reserve card's source is ``RESERVE``."""
    if not is_wide(s):
        if code == kernel.TAIL_CODE:
            return TAIL
        card, dst = divmod(int(code), 8)
        return Move(card, int(s[kernel.LOCCOL + card]), dst)
    if code == W.TAIL_CODE:
        return TAIL
    card, dst = divmod(int(code), W.MOVE_BASE)
    src = int(s[W.LOCCOL + card])
    if src == kernel.RESERVE_COLUMN:
        return Move(card, RESERVE, dst)
    other = (card + 52) % W.NCARDS
    other_at = int(s[W.LOCIDX + other])
    upper = int(s[W.LOCCOL + other]) == src and int(s[W.HID + src]) <= other_at < int(s[W.LOCIDX + card])
    return Move(card % 52 + (UPPER_COPY if upper else 0), src, dst)
