"""The kernel's compact state: conversion from and to a :class:`Position`, its checks, rule and prune flags.

The state vector's layout is in ``kernel``'s docstring. Everything here is
plain Python over numpy arrays and calls no search: the only kernel function
used is ``compute_keys`` (a position's keys from scratch). ``driver`` makes
every other call into the kernel.
"""

from __future__ import annotations

import numpy as np

from ..game.cards import NUM_CARDS
from ..game.engine import TAIL, Move
from ..game.position import Position, frozen_floor, position_problems
from ..game.rules import SPACE_ANY, TAIL_WHEN_STUCK, Rules
from . import kernel

# the kernel's layout holds one deck in 7 columns with a tail of 3 (docs/design.md, "Relatives: several game shapes")
_NOT_SCORPION_SHAPE = (
    "the solver's kernel plays Scorpion's shape only (one deck, 7 columns, a tail of 3, no reserves), not {what}"
)


def to_compact(pos: Position) -> np.ndarray:
    """The kernel's state vector for a position (layout in kernel's docstring).

    Written into a ``bytearray`` (an int8 -1 is the byte 255) and viewed as
    int8 at the end: one numpy call, not one per card (a sampled layout's solve
    converts a position, and numpy's item assignments were most of its fixed cost).
    """
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


def from_compact(s: np.ndarray) -> Position:
    """The position a compact state holds (the inverse of :func:`to_compact`)."""
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
    keys = np.zeros(kernel.KEYS_SIZE, dtype=np.uint64)
    kernel.compute_keys(s, keys, kernel.Z, kernel.ZH, kernel.SALT, kernel.MISC)
    return keys


def position_key(pos: Position) -> tuple[int, int]:
    """The kernel's two transposition keys of a position."""
    keys = compact_keys(to_compact(pos))
    return int(keys[kernel.KEY1]), int(keys[kernel.KEY2])


def state_problems(s: np.ndarray, keys: np.ndarray | None = None) -> list[str]:
    """Recompute everything derivable in a compact state from scratch and list mismatches.

    The ``pos_is_ok`` of this project: used by the tests after every move and
    by ``solve(..., debug=True)``.
    """
    problems = []
    pos = from_compact(s)
    rebuilt = to_compact(pos)
    for name, lo, hi in (
        ("LOCCOL", kernel.LOCCOL, kernel.LOCCOL + 52),
        ("LOCIDX", kernel.LOCIDX, kernel.LOCIDX + 52),
        ("FLOOR", kernel.FLOOR, kernel.FLOOR + 7),
        ("SWEPT", kernel.SWEPT, kernel.SWEPT + 1),
    ):
        on_table = s[kernel.LOCCOL : kernel.LOCCOL + 52] >= 0
        a, b = s[lo:hi], rebuilt[lo:hi]
        if name == "LOCIDX":
            a, b = a[on_table], b[on_table]
        if not np.array_equal(a, b):
            problems.append(f"{name} disagrees with the columns")
    for col in range(7):
        if s[kernel.LEN + col] and s[kernel.HID + col] >= s[kernel.LEN + col]:
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
    if not rules.is_scorpion_shape:
        raise ValueError(_NOT_SCORPION_SHAPE.format(what=f"'{rules.name}'"))
    flags = (int(rules.sweeps), int(rules.freezes), int(rules.space == SPACE_ANY), int(rules.tail == TAIL_WHEN_STUCK))
    _rule_flags[id(rules)] = (rules, flags)  # the rules object is kept, so its id is not reused
    return flags


_rule_flags: dict[int, tuple[Rules, tuple[int, int, int, int]]] = {}


def move_code(move: Move) -> int:
    """The kernel's code of a move (``card * 8 + dst``, or ``TAIL_CODE``)."""
    return kernel.TAIL_CODE if move.is_tail else move.card * 8 + move.dst


def move_codes(path: list[Move]) -> np.ndarray:
    """The kernel's codes of a line, as the uint16 array its line functions take."""
    return np.array([move_code(m) for m in path], dtype=np.uint16)


def decode_move(s: np.ndarray, code: int) -> Move:
    """The move of kernel code ``code`` from state ``s`` (its source column read from ``s``)."""
    if code == kernel.TAIL_CODE:
        return TAIL
    card, dst = divmod(int(code), 8)
    return Move(card, int(s[kernel.LOCCOL + card]), dst)
