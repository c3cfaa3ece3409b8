"""The one place that drives the jitted kernel: its resumable loop, its memory, and every call into it.

A search runs in slices (``kernel.search`` and ``kernel.shortest_search``
return after a slice of nodes, or when the table or the stack is full, and
resume where they stopped): :func:`_drive` is the one loop over them for
``solve`` (:func:`run_search`) and the bounded shortest search
(:func:`run_bounded`, used by ``solve_shortest`` and the polish of a line).
Between slices it grows the transposition table inside the memory budget,
grows the stack, and stops at the node, time or memory limit (so a
wall-clock limit and Ctrl-C are honoured between slices). A table the
machine refuses to allocate ends the search, stopped by ``memory``.

The other kernel entries (make a move, list moves, the deadlock test, perft,
the detour cut, the chunk screen) are called here too, each in one small
function, so a change of the kernel's signatures is an edit of this file
(``compact.compact_keys`` is the one other caller, of ``compute_keys``).

``kernel`` and ``_reused`` are module attributes on purpose: the C baseline's
comparisons (benchmarks/pairing.py, tests/test_c_baseline.py) swap them for
the C kernel and its own stacks.
"""

from __future__ import annotations

import functools
import threading
import time
from typing import Callable

import numpy as np

from ..game.cards import NUM_CARDS
from ..game.engine import Move
from ..game.position import Position
from ..game.rules import CLEAR, Rules
from . import compiling, kernel
from .compact import (
    compact_keys,
    decode_move,
    from_compact,
    key_tables,
    layout_of,
    move_code,
    rule_bits,
    rule_flags,
    to_compact,
)
from .deal_kernel import DealWriter
from .reductions import FULL, Reductions
from .result import DEFAULT_NODES, Limits
from .shortest import fixed_length

ENTRY_BYTES = 16  # two uint64 per table entry
FIRST_TABLE = 1 << 12  # entries in a fresh table: 64 KB, as zeroing a bigger one would dominate
# a deal decided in a few nodes; below BIG_TABLE the table grows x4 from
# half full (from an even power of two, so it steps through the even powers)
BIG_TABLE = 1 << 24  # entries (256 MB) from which the table grows x2 and fills to 60% before
# growing: a big table's fresh memory costs page faults (about a second per
# GB on this machine) and its probes go to memory at any size, so room that
# will stay empty is pure cost (docs/design.md has the measurements)
FIRST_DEPTH = 512  # stack frames in a fresh stack
SLICE_NODES = 1 << 20  # nodes per kernel call (between Ctrl-C checks)
TIMED_SLICE_NODES = 1 << 14  # nodes per kernel call under a wall-clock limit (a few ms)


# ---------------------------------------------------------------------------
# memory: the stack, the table, the scratch buffers


class Stack:
    """The search's frames: one state, its keys and its move list per ply (``wide``: the wide layout's)."""

    def __init__(self, depth: int, wide: bool = False) -> None:
        # (one-deck sizes read from the kernel's module constants: the C baseline's comparisons swap in
        # kernels that know no wide layout)
        state_size, keys_size = (
            (kernel.WIDE.STATE_SIZE, kernel.WIDE.KEYS_SIZE) if wide else (kernel.STATE_SIZE, kernel.KEYS_SIZE)
        )
        self.wide = wide
        self.states = np.zeros((depth, state_size), dtype=np.int16 if wide else np.int8)
        self.keys = np.zeros((depth, keys_size), dtype=np.uint64)
        self.moves = np.zeros((depth, kernel.MAX_MOVES), dtype=np.uint16)
        self.nmoves = np.zeros(depth, dtype=np.int64)
        self.midx = np.zeros(depth, dtype=np.int64)

    def grown(self, used: int) -> "Stack":
        bigger = Stack(2 * self.states.shape[0], self.wide)
        for name in ("states", "keys", "moves", "nmoves", "midx"):
            getattr(bigger, name)[: used + 1] = getattr(self, name)[: used + 1]
        return bigger


_reused = threading.local()


def search_stack(wide: bool = False) -> Stack:
    """This thread's search stack, reused from solve to solve (one for each layout).

    A fresh stack is most of a megabyte of zeros (1 KB of keys per ply), and
    allocating one would take a large share of the time of a deal decided at
    the root. The search reads no frame it has not written, so a used stack
    needs no clearing; one solve at a time runs per thread.
    """
    name = "wide_stack" if wide else "stack"
    stack = getattr(_reused, name, None)
    if stack is None:
        stack = Stack(FIRST_DEPTH, wide)
        setattr(_reused, name, stack)
    return stack


class Buffers:
    """What a solve needs besides the stack and the table, reused from solve to solve (one per thread).

    Refilled with zeros before each solve, so every solve starts from the
    same memory as with fresh arrays; reusing them saves the allocations
    (together with the conversion and the result building, they were most of
    the cost of a deal decided at the root).
    """

    def __init__(self) -> None:
        self.counters = np.zeros(kernel.COUNTERS_SIZE, dtype=np.int64)
        self.can_top = np.zeros(kernel.W_NUM_CARDS, dtype=np.bool_)  # a wide state's cards: the most
        self.found_keys = np.zeros((2 * kernel.MAX_MOVES, 2), dtype=np.uint64)
        self.dead_scratch = np.zeros(max(kernel.DEAD_SCRATCH, kernel.W_DEAD_SCRATCH), dtype=np.int8)
        self.deals = DealWriter()

    def fresh(self) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        self.counters.fill(0)
        self.counters[kernel.C_SP] = -1
        self.can_top.fill(False)
        self.found_keys.fill(0)
        self.dead_scratch.fill(0)
        return self.counters, (self.can_top, self.found_keys, self.dead_scratch)


def buffers() -> Buffers:
    """This thread's buffers (see :class:`Buffers`)."""
    found = getattr(_reused, "buffers", None)
    if found is None:
        found = _reused.buffers = Buffers()
    return found


@functools.lru_cache(maxsize=64)
def max_table_entries(memory_mb: int) -> int:
    """Largest power-of-two table that fits the memory budget."""
    cap = FIRST_TABLE
    while 2 * cap * ENTRY_BYTES <= memory_mb * (1 << 20):
        cap *= 2
    return cap


class _Table:
    """A transposition table and how it grows up to ``top_cap`` entries.

    ``search``'s table holds two words per entry and grows x4 while small,
    filling to half, then x2 filling to 60%, and to 90% once at its cap; the
    shortest search's (``costs``: three words per entry, the cost is the
    third) grows x4 while that fits under the cap, else x2, at 60%.
    """

    def __init__(self, top_cap: int, costs: bool) -> None:
        self.top_cap, self.costs = top_cap, costs
        self.cap = min(FIRST_TABLE, top_cap)
        self.array = self._zeros(self.cap)

    def _zeros(self, cap: int) -> np.ndarray:
        return np.zeros(3 * cap, dtype=np.uint64) if self.costs else np.zeros((cap, 2), dtype=np.uint64)

    def load(self) -> int:
        """The entries the kernel may hold before it asks for a bigger table."""
        cap = self.cap
        if self.costs:
            return cap * 3 // 5
        return (cap * 9) // 10 if cap >= self.top_cap else (cap * 3) // 5 if cap >= BIG_TABLE else cap // 2

    def grow(self) -> bool:
        """A bigger table with the entries rehashed; False when the budget or the machine refuses it."""
        cap = self.cap
        if cap >= self.top_cap:
            return False
        if self.costs:
            grown = cap * (4 if cap * 4 <= self.top_cap else 2)
        else:
            grown = cap * (4 if cap < BIG_TABLE and cap * 4 <= self.top_cap else 2)
        try:
            bigger = self._zeros(grown)
        except MemoryError:  # the machine refused what the budget allows: a memory stop
            return False
        if not self.costs:
            compiling.load(("rehash",))  # a search reaches it only when its table grows: loaded on first use
        (kernel.rehash_costs if self.costs else kernel.rehash)(self.array, bigger)
        self.cap, self.array = grown, bigger
        return True


# ---------------------------------------------------------------------------
# the resumable loop


def _drive(
    step: Callable[[np.ndarray, int, int], int],
    table: _Table,
    counters: np.ndarray,
    node_limit: int,
    slice_nodes: int,
    seconds: float | None,
    start: float,
    grow_stack: Callable[[], bool],
) -> tuple[int, str]:
    """Call ``step(table, slice node limit, table load)`` (one kernel slice) until the kernel decides
    or a limit stops it; returns (status, stopped_by: "" when decided, else nodes, time or memory)."""
    while True:
        slice_limit = min(node_limit, int(counters[kernel.C_NODES]) + slice_nodes)
        status = step(table.array, slice_limit, table.load())
        if status in (kernel.S_WON, kernel.S_LOST):
            return status, ""
        if status == kernel.S_DEEPER:
            if not grow_stack():
                return status, "memory"
        elif status == kernel.S_GROW:
            if not table.grow():
                return status, "memory"
        elif counters[kernel.C_NODES] >= node_limit:
            return status, "nodes"
        if seconds is not None and time.perf_counter() - start > seconds:
            return status, "time"


def root_keys(stack: Stack) -> None:
    """Compute the keys of the root frame ``stack.states[0]`` into ``stack.keys[0]``."""
    stack.keys[0].fill(0)  # as a fresh vector: compute_keys leaves the terms of cards off the table alone
    kernel.compute_keys(stack.states[0], stack.keys[0], *key_tables(stack.states))


def run_search(
    stack: Stack,
    rules: Rules,
    limits: Limits,
    start: float,
    reductions: Reductions = FULL,
    reveals_first: bool = False,
) -> tuple[int, list[int], str, Stack]:
    """Run ``kernel.search`` from the root frame of ``stack`` (keys computed: :func:`root_keys`) to a
    verdict or a limit, making the cuts of ``reductions``: (status, the counters as ints, stopped_by,
    the stack, grown perhaps). ``reveals_first``: the wide search's second move order
    (``kernel.ORDER_REVEALS_FIRST``; no effect on a one-deck stack)."""
    table = _Table(max(FIRST_TABLE, max_table_entries(limits.memory_mb)), costs=False)
    counters, scratch = buffers().fresh()
    flags = rule_bits(rules) | reductions.kernel_bits() | (kernel.ORDER_REVEALS_FIRST if reveals_first else 0)
    frames = [stack]

    def step(table: np.ndarray, slice_limit: int, load: int) -> int:
        s = frames[0]
        return kernel.search(
            s.states,
            s.keys,
            s.moves,
            s.nmoves,
            s.midx,
            table,
            counters,
            slice_limit,
            load,
            flags,
            tables,
            *scratch,
        )

    tables = key_tables(stack.states)

    def grow_stack() -> bool:
        try:
            frames[0] = frames[0].grown(int(counters[kernel.C_SP]))
            setattr(_reused, "wide_stack" if frames[0].wide else "stack", frames[0])
        except MemoryError:
            return False
        return True

    slice_nodes = SLICE_NODES if limits.seconds is None else TIMED_SLICE_NODES
    status, stopped_by = _drive(step, table, counters, limits.nodes, slice_nodes, limits.seconds, start, grow_stack)
    return status, counters.tolist(), stopped_by, frames[0]  # Python ints at once, not one numpy scalar each


def run_bounded(
    position: Position,
    rules: Rules,
    bound: int,
    fixed: int,
    limits: Limits,
    node_budget: int,
    start: float,
    prune: bool = True,
) -> tuple[int, list[Move] | None, int]:
    """Run ``kernel.shortest_search`` for one bound to the end or to a limit: (status, line, nodes).

    ``prune``: the deadlock test (the one reduction the shortest search makes).

    ``fixed``: ``shortest.fixed_length(position)``. The table may use two
    thirds of the memory budget (an entry is three words).
    """
    compiling.load(("shortest",))  # the polish reaches it for a few lines only: loaded on first use
    flags = rule_bits(rules) | (kernel.PRUNE_DEADLOCK if prune else 0)
    is_tail_card = np.zeros(NUM_CARDS, dtype=np.bool_)
    for c in position.tail:
        is_tail_card[c] = True
    # a line within the bound has at most fixed + bound / 2 cost-0 moves (each
    # extra one follows a cost-2 move) and at most bound others
    stack = Stack(fixed + 2 * bound + 8)
    costs = np.zeros(stack.states.shape[0], dtype=np.int64)
    stack.states[0] = to_compact(position)
    stack.keys[0] = compact_keys(stack.states[0])
    table = _Table(max(FIRST_TABLE, max_table_entries(limits.memory_mb) * 2 // 3), costs=True)
    counters = np.zeros(kernel.COUNTERS_SIZE, dtype=np.int64)
    counters[kernel.C_SP] = -1
    can_top = np.zeros(52, dtype=np.bool_)
    dead_scratch = np.zeros(kernel.DEAD_SCRATCH, dtype=np.int8)

    def step(table: np.ndarray, slice_limit: int, load: int) -> int:
        return kernel.shortest_search(
            stack.states,
            stack.keys,
            stack.moves,
            stack.nmoves,
            stack.midx,
            costs,
            table,
            counters,
            slice_limit,
            load,
            bound,
            is_tail_card,
            flags,
            kernel.KEY_TABLES,
            can_top,
            dead_scratch,
        )

    # the stack is sized for the bound: a full one is not grown
    status, _ = _drive(step, table, counters, node_budget, SLICE_NODES, limits.seconds, start, lambda: False)
    line = None
    if status == kernel.S_WON:
        line = [
            decode_move(stack.states[d], stack.moves[d, stack.midx[d] - 1]) for d in range(int(counters[kernel.C_SP]))
        ]
    return status, line, int(counters[kernel.C_NODES])


# ---------------------------------------------------------------------------
# single kernel calls


def make_move(s: np.ndarray, keys: np.ndarray, move: Move, rules: Rules) -> None:
    """Play ``move`` on the compact state ``s`` and its keys, in place (``kernel.make_move``)."""
    make_code(s, keys, move_code(move, s), rules)


def make_code(s: np.ndarray, keys: np.ndarray, code: int, rules: Rules) -> None:
    """:func:`make_move` for a kernel move code (by ``kernel.made_from``, the search's compiled make)."""
    kernel.made_from(s, keys, s, keys, int(code), rule_bits(rules), key_tables(s))


def shorten_codes(state: np.ndarray, keys: np.ndarray, codes: np.ndarray, rules: Rules) -> np.ndarray:
    """The line of ``codes`` from ``state`` cut of its detours (``kernel.shorten_line``, one and two
    moves away), repeated while it gets shorter."""
    flags = rule_bits(rules)
    while True:
        out = np.zeros(len(codes), dtype=np.uint16)
        n = kernel.shorten_line(state, keys, codes, out, 1, flags, key_tables(state))
        if n >= len(codes):
            return codes
        codes = out[:n]


def screen(numbers: list[int], rules: Rules, reductions: Reductions = FULL) -> tuple[int, list[int], list[list[int]]]:
    """Deal ``numbers`` (``deal_kernel``) and run ``search``'s root step on each (``kernel.screen_roots``):
    (how many it decided, the status of each, the counters of each)."""
    rule_bits(rules)  # first: refuses a shape the kernel does not play
    states = np.zeros((len(numbers), kernel.STATE_SIZE), dtype=np.int8)
    buffers().deals.deal_many(np.array(numbers, dtype=np.int64), rules.face_down, states)
    return screen_states(states, rules, reductions)


def screen_states(
    states: np.ndarray, rules: Rules, reductions: Reductions = FULL
) -> tuple[int, list[int], list[list[int]]]:
    """``kernel.screen_roots`` on compact states dealt already (:func:`screen` without the jitted dealer,
    which the screen's warm-up must not compile: it is the deals job's)."""
    flags = rule_bits(rules) | reductions.kernel_bits()
    counters = np.zeros((len(states), kernel.COUNTERS_SIZE), dtype=np.int64)
    statuses = np.zeros(len(states), dtype=np.int64)
    _, (can_top, _, dead_scratch) = buffers().fresh()
    decided = kernel.screen_roots(states, counters, statuses, flags, can_top, dead_scratch)
    return decided, statuses.tolist(), counters.tolist()


def compile_rehash() -> None:
    """Load (or compile) ``kernel.rehash``, which a search first calls when its table grows."""
    small, bigger = np.zeros((4, 2), dtype=np.uint64), np.zeros((16, 2), dtype=np.uint64)
    kernel.rehash(small, bigger)


# ---------------------------------------------------------------------------
# the kernel's parts on a Position (for the tests, perft and the game commands)


def jit_legal_moves(pos: Position, rules: Rules = CLEAR) -> list[Move]:
    """The kernel's move list for a position, decoded (for comparison with the engine)."""
    s = to_compact(pos)
    out = np.zeros(kernel.MAX_MOVES, dtype=np.uint16)
    sweeps, _, space_any, when_stuck = rule_flags(rules)
    n = kernel.generate_moves(s, out, space_any, when_stuck, sweeps)
    return [decode_move(s, c) for c in out[:n]]


def jit_play(pos: Position, move: Move, rules: Rules = CLEAR) -> tuple[Position, np.ndarray, np.ndarray]:
    """Play a move with the kernel; return the new position, its state and incremental keys."""
    s = to_compact(pos)
    keys = compact_keys(s)
    make_move(s, keys, move, rules)
    return from_compact(s), s, keys


def jit_deadlocked(pos: Position, rules: Rules = CLEAR, successor_above: bool = True) -> tuple[bool, list[bool]]:
    """The kernel's deadlock verdict for a position, and which cards can become a top."""
    s = to_compact(pos)
    can_top = np.zeros(52, dtype=np.bool_)
    sweeps, _, space_any, _ = rule_flags(rules)
    dead = kernel.is_deadlocked(s, can_top, sweeps, space_any, successor_above)
    kernel.can_become_top(s, can_top, sweeps, space_any, successor_above)
    return bool(dead), [bool(x) for x in can_top]


def jit_perft(pos: Position, depth: int, rules: Rules = CLEAR) -> int:
    """The number of move sequences of ``depth`` moves from ``pos`` (``kernel.perft``)."""
    flags = rule_bits(rules)  # first: refuses rules the kernel does not play
    state = to_compact(pos)
    stack = Stack(depth + 2, wide=layout_of(state).WIDE)
    stack.states[0] = state
    stack.keys[0] = compact_keys(stack.states[0])
    return int(
        kernel.perft(
            stack.states, stack.keys, stack.moves, stack.nmoves, stack.midx, depth, flags, key_tables(stack.states)
        )
    )


def jit_bounded_search(position: Position, rules: Rules, bound: int) -> tuple[list[Move] | None, int]:
    """One iteration of ``solve_shortest``: a win of extra cost <= bound or None, and the
    nodes (twin: ``shortest.bounded_search``, same nodes)."""
    status, line, nodes = run_bounded(
        position, rules, bound, fixed_length(position), Limits(), DEFAULT_NODES, time.perf_counter()
    )
    if status not in (kernel.S_WON, kernel.S_LOST):
        raise RuntimeError("the default limits stopped a bounded search")
    return line, nodes
