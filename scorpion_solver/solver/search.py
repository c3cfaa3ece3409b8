"""solve(): the validated public front of the jitted search.

Converts a :class:`Position` to the compact state of ``kernel``, runs the
search kernel in slices (so a wall-clock limit and Ctrl-C are honoured between
slices), grows the transposition table and the stack inside the memory budget,
turns the winning path into the move notation of docs/rules.md with real
column numbers, and replays every ``won`` in plain Python before returning it
(``game.verify.check_solution``, which accepts exactly what the reference
engine's ``replay`` accepts, move by move, without listing every legal move
at every step): a replay failure is a bug and raises.

The compiled kernel is loaded (or compiled, on a first run) by
:func:`load_solver` before the first solve's clock starts, so a solve's
``seconds`` are its search alone. A table the machine refuses to allocate
ends the search as ``unknown``, stopped by ``memory``.
"""

from __future__ import annotations

import functools
import threading
import time

import numpy as np

from ..game.cards import NUM_CARDS, card_text
from ..game.deal import deal
from ..game.engine import TAIL, Move, is_won, moves_text, parse_moves
from ..game.position import Position, frozen_floor
from ..game.rules import CLASSIC, CLEAR, SPACE_ANY, TAIL_WHEN_STUCK, Rules
from ..game.verify import check_solution
from . import kernel as K
from .reference_search import reference_solve
from .result import DEFAULT_NODES, LOST, UNKNOWN, WON, Limits, SolveResult

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


class VerificationError(RuntimeError):
    """A solution the kernel reported does not replay to a win: a bug."""


# ---------------------------------------------------------------------------
# compact state


def to_compact(pos: Position) -> np.ndarray:
    """The kernel's state vector for a position (layout in kernel's docstring)."""
    s = np.zeros(K.STATE_SIZE, dtype=np.int8)
    s[K.LOCCOL : K.LOCCOL + NUM_CARDS] = -1
    for col, cards in enumerate(pos.columns):
        if len(cards) > K.COL_CAP:
            raise ValueError(f"column {col + 1} holds {len(cards)} cards; the kernel allows {K.COL_CAP}")
        for i, c in enumerate(cards):
            s[K.COLS + K.COL_CAP * col + i] = c
            s[K.LOCCOL + c] = col
            s[K.LOCIDX + c] = i
        s[K.LEN + col] = len(cards)
        s[K.HID + col] = pos.hidden[col]
        s[K.FLOOR + col] = frozen_floor(pos, col)
    for t in range(3):
        s[K.TAIL + t] = pos.tail[t] if pos.tail else -1
    s[K.DEALT] = 0 if pos.tail else 1
    s[K.SWEPT] = len(pos.swept_suits())
    s[K.FROZEN] = sum(1 << suit for suit in pos.frozen)
    return s


def from_compact(s: np.ndarray) -> Position:
    columns = tuple(
        tuple(int(c) for c in s[K.COLS + K.COL_CAP * col : K.COLS + K.COL_CAP * col + int(s[K.LEN + col])])
        for col in range(7)
    )
    hidden = tuple(int(s[K.HID + col]) for col in range(7))
    tail = () if s[K.DEALT] else tuple(int(s[K.TAIL + t]) for t in range(3))
    frozen = frozenset(suit for suit in range(4) if (int(s[K.FROZEN]) >> suit) & 1)
    return Position(columns, hidden, tail, frozen)


def compact_keys(s: np.ndarray) -> np.ndarray:
    keys = np.zeros(K.KEYS_SIZE, dtype=np.uint64)
    K.compute_keys(s, keys, K.Z, K.ZH, K.SALT, K.MISC)
    return keys


def state_problems(s: np.ndarray, keys: np.ndarray | None = None) -> list[str]:
    """Recompute everything derivable in a compact state from scratch and list mismatches.

    The ``pos_is_ok`` of this project: used by the tests after every move and
    by ``solve(..., debug=True)``.
    """
    problems = []
    pos = from_compact(s)
    rebuilt = to_compact(pos)
    for name, lo, hi in (
        ("LOCCOL", K.LOCCOL, K.LOCCOL + 52),
        ("LOCIDX", K.LOCIDX, K.LOCIDX + 52),
        ("FLOOR", K.FLOOR, K.FLOOR + 7),
        ("SWEPT", K.SWEPT, K.SWEPT + 1),
    ):
        on_table = s[K.LOCCOL : K.LOCCOL + 52] >= 0
        a, b = s[lo:hi], rebuilt[lo:hi]
        if name == "LOCIDX":
            a, b = a[on_table], b[on_table]
        if not np.array_equal(a, b):
            problems.append(f"{name} disagrees with the columns")
    for col in range(7):
        if s[K.LEN + col] and s[K.HID + col] >= s[K.LEN + col]:
            problems.append(f"column {col + 1} has a face-down top")
    if keys is not None and not np.array_equal(keys, compact_keys(s)):
        problems.append("incremental keys differ from keys computed from scratch")
    from ..game.position import position_problems

    problems += position_problems(pos)
    return problems


def rule_bits(rules: Rules) -> int:
    """The rules' bits of the kernel's ``flags`` word (layout in kernel's docstring)."""
    known = _rule_bits.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    sweeps, freezes, space_any, when_stuck = rule_flags(rules)
    bits = sweeps * K.RULE_SWEEPS | freezes * K.RULE_FREEZES | space_any * K.RULE_SPACE_ANY
    bits |= when_stuck * K.RULE_TAIL_WHEN_STUCK
    _rule_bits[id(rules)] = (rules, bits)  # the rules object is kept, so its id is not reused
    return bits


_rule_bits: dict[int, tuple[Rules, int]] = {}


def rule_flags(rules: Rules) -> tuple[int, int, int, int]:
    """(sweeps, freezes, space_any, tail_when_stuck) as the kernel takes them."""
    known = _rule_flags.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    flags = (int(rules.sweeps), int(rules.freezes), int(rules.space == SPACE_ANY), int(rules.tail == TAIL_WHEN_STUCK))
    _rule_flags[id(rules)] = (rules, flags)  # the rules object is kept, so its id is not reused
    return flags


_rule_flags: dict[int, tuple[Rules, tuple[int, int, int, int]]] = {}


def decode_move(s: np.ndarray, code: int) -> Move:
    if code == K.TAIL_CODE:
        return TAIL
    card, dst = divmod(int(code), 8)
    return Move(card, int(s[K.LOCCOL + card]), dst)


def jit_legal_moves(pos: Position, rules: Rules = CLEAR) -> list[Move]:
    """The kernel's move list for a position, decoded (for comparison with the engine)."""
    s = to_compact(pos)
    out = np.zeros(K.MAX_MOVES, dtype=np.uint16)
    sweeps, _, space_any, when_stuck = rule_flags(rules)
    n = K.generate_moves(s, out, space_any, when_stuck, sweeps)
    return [decode_move(s, c) for c in out[:n]]


def jit_play(pos: Position, move: Move, rules: Rules = CLEAR) -> tuple[Position, np.ndarray, np.ndarray]:
    """Play a move with the kernel; return the new position, its state and incremental keys."""
    s = to_compact(pos)
    keys = compact_keys(s)
    code = K.TAIL_CODE if move.is_tail else move.card * 8 + move.dst
    sweeps, freezes, _, _ = rule_flags(rules)
    K.make_move(s, keys, code, sweeps, freezes, K.Z, K.ZH, K.SALT, K.MISC)
    return from_compact(s), s, keys


def position_key(pos: Position) -> tuple[int, int]:
    keys = compact_keys(to_compact(pos))
    return int(keys[K.KEY1]), int(keys[K.KEY2])


def prune_bits(limits: Limits) -> int:
    """The reduction bits of the kernel's ``flags`` word for these limits (``rule_bits`` has the rules')."""
    return (
        int(limits.prune) * K.PRUNE_DEADLOCK
        | int(limits.safe_leads) * K.PRUNE_SAFE_LEADS
        | int(limits.successor_above) * K.PRUNE_SUCCESSOR_ABOVE
    )


def jit_deadlocked(pos: Position, rules: Rules = CLEAR, successor_above: bool = True) -> tuple[bool, list[bool]]:
    s = to_compact(pos)
    can_top = np.zeros(52, dtype=np.bool_)
    sweeps, _, space_any, _ = rule_flags(rules)
    dead = K.is_deadlocked(s, can_top, sweeps, space_any, successor_above)
    K.can_become_top(s, can_top, sweeps, space_any, successor_above)
    return bool(dead), [bool(x) for x in can_top]


class _Stack:
    def __init__(self, depth: int) -> None:
        self.states = np.zeros((depth, K.STATE_SIZE), dtype=np.int8)
        self.keys = np.zeros((depth, K.KEYS_SIZE), dtype=np.uint64)
        self.moves = np.zeros((depth, K.MAX_MOVES), dtype=np.uint16)
        self.nmoves = np.zeros(depth, dtype=np.int64)
        self.midx = np.zeros(depth, dtype=np.int64)

    def grown(self, used: int) -> "_Stack":
        bigger = _Stack(2 * self.states.shape[0])
        for name in ("states", "keys", "moves", "nmoves", "midx"):
            getattr(bigger, name)[: used + 1] = getattr(self, name)[: used + 1]
        return bigger


_reused = threading.local()


def _search_stack() -> _Stack:
    """This thread's search stack, reused from solve to solve.

    A fresh stack is most of a megabyte of zeros (1 KB of keys per ply), and
    allocating one would take a large share of the time of a deal decided at
    the root. The search reads no frame it has not written, so a used stack
    needs no clearing; one solve at a time runs per thread.
    """
    stack = getattr(_reused, "stack", None)
    if stack is None:
        stack = _reused.stack = _Stack(FIRST_DEPTH)
    return stack


def jit_perft(pos: Position, depth: int, rules: Rules = CLEAR) -> int:
    stack = _Stack(depth + 2)
    stack.states[0] = to_compact(pos)
    stack.keys[0] = compact_keys(stack.states[0])
    return int(
        K.perft(stack.states, stack.keys, stack.moves, stack.nmoves, stack.midx, depth, rule_bits(rules), K.KEY_TABLES)
    )


_loaded = False  # whether this process has loaded the compiled kernel (load_solver)
COMPILE_NOTE = "compiling the solver (first run only, about a minute; later runs load it from numba's cache)..."


def solver_is_cached() -> bool:
    """Whether numba's cache holds the compiled search for this kernel source (a first run compiles)."""
    try:
        return bool(K.search._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - a numba without these internals: assume cached, say nothing
        return True


def load_solver(notify=None) -> float:
    """Load the compiled kernel into this process (compile it if numba's cache is empty).

    ``notify(message)`` is called once, before compiling, when the cache is
    empty. Returns the seconds spent (0 when already loaded). :func:`solve`
    calls it before starting its clock.
    """
    global _loaded
    if _loaded:
        return 0.0
    start = time.perf_counter()
    if notify is not None and not solver_is_cached():
        notify(COMPILE_NOTE)
    from ..game.deal import deal

    _loaded = True  # before the warm-up solve, which calls solve() itself
    try:
        _timed_solve(deal(1), CLEAR, Limits(nodes=1000, memory_mb=16), debug=False)
        # a win whose line gets the detour cut and the polish (a small shortest search), and the
        # chunk screen: each is jitted code of its own, compiled or loaded on first use, which
        # would otherwise land in the seconds of the first won deal or chunk a process solves
        _timed_solve(deal(6560, CLASSIC), CLASSIC, Limits(nodes=200_000, memory_mb=16), debug=False)
        screen_deals([1, 2], CLEAR, Limits(nodes=1000, memory_mb=16))
        small, bigger = np.zeros((4, 2), dtype=np.uint64), np.zeros((16, 2), dtype=np.uint64)
        K.rehash(small, bigger)
    except BaseException:
        _loaded = False
        raise
    return time.perf_counter() - start


@functools.lru_cache(maxsize=64)
def max_table_entries(memory_mb: int) -> int:
    """Largest power-of-two table that fits the memory budget."""
    cap = FIRST_TABLE
    while 2 * cap * ENTRY_BYTES <= memory_mb * (1 << 20):
        cap *= 2
    return cap


class _Buffers:
    """What a solve needs besides the stack and the table, reused from solve to solve (one per thread).

    Refilled with zeros before each solve, so every solve starts from the
    same memory as with fresh arrays; reusing them saves the allocations
    (together with the conversion and the result building, they were most of
    the cost of a deal decided at the root).
    """

    def __init__(self) -> None:
        from .deal_kernel import DealWriter

        self.counters = np.zeros(K.COUNTERS_SIZE, dtype=np.int64)
        self.can_top = np.zeros(52, dtype=np.bool_)
        self.found_keys = np.zeros((2 * K.MAX_MOVES, 2), dtype=np.uint64)
        self.dead_scratch = np.zeros(K.DEAD_SCRATCH, dtype=np.int8)
        self.deals = DealWriter()

    def fresh(self) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        self.counters.fill(0)
        self.counters[K.C_SP] = -1
        self.can_top.fill(False)
        self.found_keys.fill(0)
        self.dead_scratch.fill(0)
        return self.counters, (self.can_top, self.found_keys, self.dead_scratch)


def _buffers() -> _Buffers:
    buffers = getattr(_reused, "buffers", None)
    if buffers is None:
        buffers = _reused.buffers = _Buffers()
    return buffers


def solve(
    position: Position,
    rules: Rules = CLEAR,
    limits: Limits = Limits(),
    engine: str = "jit",
    debug: bool = False,
    polish: bool = True,
    shorten: bool = True,
) -> SolveResult:
    """Decide whether the position can be won.

    ``won`` comes with a solution replayed to a win in plain Python
    (``game.verify.check_solution``, equal to the reference engine's
    replay); ``lost`` means the search was exhaustive (sound pruning aside);
    ``unknown`` says which limit stopped it (``stopped_by``). With ``debug``
    the compact state is checked from scratch (``state_problems``) at the root
    and after every kernel move of a winning line, and every kernel position
    on it is compared with the reference engine's; a disagreement raises.
    The winning line is cut of its detours (``shorten_path``) and, with
    ``polish``, one with many King moves is replaced by a minimum one when a
    small shortest search finds it (``polish_path``); neither changes the
    verdict or the counters. ``shorten=False`` keeps the line as the search
    found it (no cut, no polish: for callers that use only the verdict and
    the first move, such as hop's sampled layouts, where the two were most
    of the cost of a solve).
    """
    if engine == "reference":
        return reference_solve(position, rules, limits)
    if engine != "jit":
        raise ValueError(f"unknown engine '{engine}' (jit or reference)")
    load_solver()
    return _timed_solve(position, rules, limits, debug, polish, shorten)


def _timed_solve(
    position: Position, rules: Rules, limits: Limits, debug: bool, polish: bool = True, shorten: bool = True
) -> SolveResult:
    start = time.perf_counter()
    stack = _search_stack()
    stack.states[0] = to_compact(position)
    return _solve_from_root(stack, position, 0, rules, limits, start, debug, polish, shorten)


def solve_deal(number: int, rules: Rules = CLEAR, limits: Limits = Limits()) -> SolveResult:
    """``solve(deal(number, rules), rules, limits)``, the batch's fast path: the same search and result.

    The jitted generator (``deal_kernel``) writes the deal straight into the
    root frame, so no ``Position`` is built for a deal that is not won; a
    ``won`` is replayed on the plain generator's deal (``game.deal``), so the
    check stays independent of both the kernel and the jitted generator.
    Numbers from 2^64 on take the plain path.
    """
    load_solver()
    start = time.perf_counter()
    stack = _search_stack()
    if not _buffers().deals.deal_into(number, rules.face_down, stack.states[0]):
        return solve(deal(number, rules), rules, limits)
    return _solve_from_root(stack, None, number, rules, limits, start, False)


def _solve_from_root(
    stack: _Stack,
    position: Position | None,
    number: int,
    rules: Rules,
    limits: Limits,
    start: float,
    debug: bool,
    polish: bool = True,
    shorten: bool = True,
) -> SolveResult:
    """Search from the state in ``stack.states[0]`` (the position, or deal ``number`` when it is None)."""
    flags = rule_bits(rules) | prune_bits(limits)
    stack.keys[0].fill(0)  # as a fresh vector: compute_keys leaves the terms of cards off the table alone
    K.compute_keys(stack.states[0], stack.keys[0], K.Z, K.ZH, K.SALT, K.MISC)
    if debug:
        _debug_check(position, stack.states[0], stack.keys[0], "the root")
    top_cap = max(FIRST_TABLE, max_table_entries(limits.memory_mb))
    cap = min(FIRST_TABLE, top_cap)
    table = np.zeros((cap, 2), dtype=np.uint64)
    counters, scratch = _buffers().fresh()
    stopped_by = ""
    slice_nodes = SLICE_NODES if limits.seconds is None else TIMED_SLICE_NODES
    while True:
        slice_limit = min(limits.nodes, int(counters[K.C_NODES]) + slice_nodes)
        load = (cap * 9) // 10 if cap >= top_cap else (cap * 3) // 5 if cap >= BIG_TABLE else cap // 2
        status = K.search(
            stack.states,
            stack.keys,
            stack.moves,
            stack.nmoves,
            stack.midx,
            table,
            counters,
            slice_limit,
            load,
            flags,
            K.KEY_TABLES,
            *scratch,
        )
        if status in (K.S_WON, K.S_LOST):
            break
        if status == K.S_DEEPER:
            try:
                stack = _reused.stack = stack.grown(int(counters[K.C_SP]))
            except MemoryError:
                stopped_by = "memory"
                break
        elif status == K.S_GROW:
            if cap >= top_cap:
                stopped_by = "memory"
                break
            grown = cap * (4 if cap < BIG_TABLE and cap * 4 <= top_cap else 2)
            try:
                bigger = np.zeros((grown, 2), dtype=np.uint64)
            except MemoryError:  # the machine refused what the budget allows: a memory stop
                stopped_by = "memory"
                break
            cap = grown
            K.rehash(table, bigger)
            table = bigger
        elif counters[K.C_NODES] >= limits.nodes:
            stopped_by = "nodes"
            break
        if limits.seconds is not None and time.perf_counter() - start > limits.seconds:
            stopped_by = "time"
            break
    counted = counters.tolist()  # Python ints at once, not one numpy scalar per field
    result = _counted_result(status, counted, rules, stopped_by)
    if status == K.S_WON:
        path = winning_path(stack, counted[K.C_SP])
        if position is None:
            position = deal(number, rules)
        if shorten:
            path = shorten_path(position, path, rules, (stack.states[0], stack.keys[0]))
            if polish:
                path = polish_path(position, path, rules, limits.prune)
        verify_solution(position, path, rules)
        if debug:
            _debug_line(position, path, rules)
        result.solution = " ".join(
            "tail" if m.card < 0 else f"{_CARD_TEXT[m.card]}:{m.src + 1}>{m.dst + 1}" for m in path
        )
        result.solution_length = len(path)
    result.seconds = time.perf_counter() - start
    return result


def _counted_result(status: int, counted: list[int], rules: Rules, stopped_by: str) -> SolveResult:
    """A SolveResult from the kernel's status and counters (the line and the seconds are the caller's)."""
    return SolveResult(
        status=WON if status == K.S_WON else LOST if status == K.S_LOST else UNKNOWN,
        rules=rules.name,
        nodes=counted[K.C_NODES],
        moves_made=counted[K.C_MAKES],
        peak_entries=counted[K.C_ENTRIES],
        max_depth=counted[K.C_MAXDEPTH],
        deadlock_checks=counted[K.C_CHECKS],
        deadlock_prunes=counted[K.C_PRUNES],
        dead_at_root=bool(counted[K.C_DEAD_ROOT]),
        stopped_by=stopped_by,
    )


SCREEN_LIMIT = (1 << 63) - 1  # deal numbers up to this go through screen_deals' int64 arrays


def screen_deals(numbers: list[int], rules: Rules = CLEAR, limits: Limits = Limits()) -> dict[int, SolveResult]:
    """The results of the deals of ``numbers`` that are lost at the root, found in two jitted calls.

    A batch's fast path for the deals the deadlock test decides before any
    move (about 85-86% of them): ``deal_kernel.DealWriter.deal_many`` deals the chunk,
    ``kernel.screen_roots`` runs ``search``'s own root step on each; a deal it
    decides gets the result ``solve_deal`` would give (the same counters:
    tests/test_screen.py compares them), with ``seconds`` the chunk's time
    shared equally among them. The other deals are left out of the result,
    to be solved one by one. Nothing is decided without the deadlock test
    (``limits.prune`` off) or for numbers past ``SCREEN_LIMIT``.
    """
    if not limits.prune:
        return {}
    load_solver()
    start = time.perf_counter()
    numbers = [n for n in numbers if n <= SCREEN_LIMIT]
    array = np.array(numbers, dtype=np.int64)
    buffers = _buffers()
    states = np.zeros((len(numbers), K.STATE_SIZE), dtype=np.int8)
    buffers.deals.deal_many(array, rules.face_down, states)
    counters = np.zeros((len(numbers), K.COUNTERS_SIZE), dtype=np.int64)
    statuses = np.zeros(len(numbers), dtype=np.int64)
    _, (can_top, _, dead_scratch) = buffers.fresh()
    flags = rule_bits(rules) | prune_bits(limits)
    decided = K.screen_roots(states, counters, statuses, flags, can_top, dead_scratch)
    out: dict[int, SolveResult] = {}
    if not decided:
        return out
    share = (time.perf_counter() - start) / decided
    for number, status, counted in zip(numbers, statuses.tolist(), counters.tolist()):
        if status == K.S_LOST:
            result = out[number] = _counted_result(status, counted, rules, "")
            result.seconds = share
    return out


_CARD_TEXT = tuple(card_text(card) for card in range(NUM_CARDS))


def winning_path(stack: _Stack, depth: int) -> list[Move]:
    """The moves the search made from the root to ply ``depth`` (decode_move of every frame, at once)."""
    plies = np.arange(depth)
    codes = stack.moves[plies, stack.midx[:depth] - 1].astype(np.int64)
    cards = codes // 8
    sources = stack.states[plies, K.LOCCOL + np.minimum(cards, NUM_CARDS - 1)]
    return [
        TAIL if code == K.TAIL_CODE else Move(card, src, code % 8)
        for code, card, src in zip(codes.tolist(), cards.tolist(), sources.tolist())
    ]


def _debug_check(expected: Position, s: np.ndarray, keys: np.ndarray, where: str) -> None:
    problems = state_problems(s, keys)
    if from_compact(s) != expected:
        problems.append("the compact state is not the reference engine's position")
    if problems:
        raise VerificationError(f"debug: at {where}: " + "; ".join(problems))


def _debug_line(position: Position, path: list[Move], rules: Rules) -> None:
    """Play the line with the kernel's make_move and check every state from scratch."""
    from ..game.engine import apply_move

    sweeps, freezes, _, _ = rule_flags(rules)
    s = to_compact(position)
    keys = compact_keys(s)
    for number, move in enumerate(path, start=1):
        code = K.TAIL_CODE if move.is_tail else move.card * 8 + move.dst
        K.make_move(s, keys, code, sweeps, freezes, K.Z, K.ZH, K.SALT, K.MISC)
        position = apply_move(position, move, rules)
        _debug_check(position, s, keys, f"move {number} ({move})")


def verify_solution(position: Position, path: list[Move], rules: Rules) -> None:
    """Replay in plain Python (``verify.check_solution``); raise VerificationError unless it wins."""
    try:
        final = check_solution(position, path, rules)
    except ValueError as exc:
        raise VerificationError(f"solution does not replay: {exc}") from exc
    if not is_won(final, rules):
        raise VerificationError(f"solution {moves_text(path)} replays but does not win")


# ---------------------------------------------------------------------------
# shorter solutions (the argument is in ``shortest``)


def _codes(path: list[Move]) -> np.ndarray:
    return np.array([K.TAIL_CODE if m.is_tail else m.card * 8 + m.dst for m in path], dtype=np.uint16)


def _root_state(position: Position, root: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray]:
    """A fresh copy of the position's compact state and keys: of ``root`` when given (the search's
    own root frame, the same state), else converted."""
    if root is not None:
        return root[0].copy(), root[1].copy()
    s = to_compact(position)
    return s, compact_keys(s)


def _decode_line(
    position: Position, codes: np.ndarray, rules: Rules, root: tuple[np.ndarray, np.ndarray] | None = None
) -> list[Move]:
    sweeps, freezes, _, _ = rule_flags(rules)
    s, keys = _root_state(position, root)
    path = []
    for code in codes:
        path.append(decode_move(s, int(code)))
        K.make_move(s, keys, code, sweeps, freezes, K.Z, K.ZH, K.SALT, K.MISC)
    return path


def shorten_path(
    position: Position, path: list[Move], rules: Rules, root: tuple[np.ndarray, np.ndarray] | None = None
) -> list[Move]:
    """The winning line without its detours (``kernel.shorten_line``, twin
    ``shortest.shorten_line``): repeated while it gets shorter. The result is a
    line of the same positions' game, replayed by the caller's verification.
    ``root``: the position's compact state and keys when the caller has them
    (``solve`` passes its root frame: a conversion costs more than the cut)."""
    if len(path) < 3:
        return path
    state, keys = _root_state(position, root)
    codes = _codes(path)
    while True:
        out = np.zeros(len(codes), dtype=np.uint16)
        n = K.shorten_line(state, keys, codes, out, 1, rule_bits(rules), K.KEY_TABLES)
        if n >= len(codes):
            break
        codes = out[:n]
    return path if len(codes) == len(path) else _decode_line(position, codes, rules, root)


POLISH_KINGS = 8  # a line with more King moves than this gets a small shortest search
POLISH_NODES = 20_000  # its node budget (all iterations together)


def polish_path(position: Position, path: list[Move], rules: Rules, prune: bool = True) -> list[Move]:
    """A minimum-length win instead of ``path`` when ``path`` makes more than
    POLISH_KINGS King moves and ``solve_shortest``'s iterations find one within
    POLISH_NODES nodes; else ``path``. Keeps the King shuttles that the detour
    cut cannot see (moves between fixed columns interleaved with other moves)
    out of printed and stored solutions at a bounded cost."""
    from .shortest import cost_to_go, fixed_length

    if sum(1 for m in path if not m.is_tail and m.card % 13 == 12) <= POLISH_KINGS:
        return path
    fixed = fixed_length(position)
    budget = POLISH_NODES
    start = time.perf_counter()
    for bound in range(cost_to_go(position, rules, frozenset(position.tail)), len(path) - fixed):
        status, found, used = _bounded_search(position, rules, bound, fixed, Limits(prune=prune), budget, start)
        budget -= used
        if status == K.S_WON:
            return found
        if status != K.S_LOST or budget <= 0:
            break
    return path


def solve_shortest(position: Position, rules: Rules = CLEAR, limits: Limits = Limits()) -> SolveResult:
    """Decide the position and, when won, return a win of minimum length, proved minimal.

    First ``solve`` (its shortened line gives an upper bound U on the extra
    cost), then ``kernel.shortest_search`` for bound = h, h + 1, ..., U - 1
    (h: ``shortest.cost_to_go`` at the root) until a win appears; when none does,
    the line of ``solve`` is minimal. Why a least extra cost is a least length
    in every preset: ``shortest``. The node and time limits cover the whole;
    when one stops the proof the shortest line found is returned with
    ``shortest = "shortened"``. ``nodes`` adds the iterations' nodes to the
    solve's; the winning line is replayed by the reference engine.
    """
    from .shortest import cost_to_go, fixed_length

    start = time.perf_counter()
    result = solve(position, rules, limits, polish=False)
    if result.status != WON:
        return result
    line = parse_moves(result.solution)
    fixed = fixed_length(position)
    upper = len(line) - fixed  # the line's extra cost
    proved = "proved"
    nodes = result.nodes
    for bound in range(cost_to_go(position, rules, frozenset(position.tail)), upper):
        status, found, used = _bounded_search(position, rules, bound, fixed, limits, limits.nodes - nodes, start)
        nodes += used
        if status == K.S_WON:
            line = found
            break
        if status != K.S_LOST:
            proved = "shortened"
            break
    verify_solution(position, line, rules)
    result.solution = moves_text(line)
    result.solution_length = len(line)
    result.nodes = nodes
    result.shortest = proved
    result.seconds = time.perf_counter() - start
    return result


def jit_bounded_search(position: Position, rules: Rules, bound: int) -> tuple[list[Move] | None, int]:
    """One iteration of ``solve_shortest``: a win of extra cost <= bound or None, and the
    nodes (twin: ``shortest.bounded_search``, same nodes)."""
    from .shortest import fixed_length

    status, line, nodes = _bounded_search(
        position, rules, bound, fixed_length(position), Limits(), DEFAULT_NODES, time.perf_counter()
    )
    if status not in (K.S_WON, K.S_LOST):
        raise RuntimeError("the default limits stopped a bounded search")
    return line, nodes


def _bounded_search(
    position: Position, rules: Rules, bound: int, fixed: int, limits: Limits, node_budget: int, start: float
) -> tuple[int, list[Move] | None, int]:
    """Run ``kernel.shortest_search`` for one bound to the end or to a limit: (status, line, nodes)."""
    flags = rule_bits(rules) | prune_bits(limits)  # the kernel keeps only PRUNE_DEADLOCK of the reductions
    is_tail_card = np.zeros(NUM_CARDS, dtype=np.bool_)
    for c in position.tail:
        is_tail_card[c] = True
    top_cap = max(FIRST_TABLE, max_table_entries(limits.memory_mb) * 2 // 3)
    # a line within the bound has at most fixed + bound / 2 cost-0 moves (each
    # extra one follows a cost-2 move) and at most bound others
    stack = _Stack(fixed + 2 * bound + 8)
    costs = np.zeros(stack.states.shape[0], dtype=np.int64)
    stack.states[0] = to_compact(position)
    stack.keys[0] = compact_keys(stack.states[0])
    cap = FIRST_TABLE
    table = np.zeros(3 * cap, dtype=np.uint64)
    counters = np.zeros(K.COUNTERS_SIZE, dtype=np.int64)
    counters[K.C_SP] = -1
    can_top = np.zeros(52, dtype=np.bool_)
    dead_scratch = np.zeros(K.DEAD_SCRATCH, dtype=np.int8)
    while True:
        slice_limit = min(node_budget, int(counters[K.C_NODES]) + SLICE_NODES)
        status = K.shortest_search(
            stack.states,
            stack.keys,
            stack.moves,
            stack.nmoves,
            stack.midx,
            costs,
            table,
            counters,
            slice_limit,
            cap * 3 // 5,
            bound,
            is_tail_card,
            flags,
            K.KEY_TABLES,
            can_top,
            dead_scratch,
        )
        if status in (K.S_WON, K.S_LOST):
            break
        if status == K.S_GROW and cap < top_cap:
            cap *= 4 if cap * 4 <= top_cap else 2
            bigger = np.zeros(3 * cap, dtype=np.uint64)
            K.rehash_costs(table, bigger)
            table = bigger
            continue
        if status == K.S_NODES and counters[K.C_NODES] < node_budget:
            if limits.seconds is None or time.perf_counter() - start <= limits.seconds:
                continue
        break  # a limit: nodes, memory or time (the stack is sized for the bound)
    line = None
    if status == K.S_WON:
        line = [decode_move(stack.states[d], stack.moves[d, stack.midx[d] - 1]) for d in range(int(counters[K.C_SP]))]
    return status, line, int(counters[K.C_NODES])
