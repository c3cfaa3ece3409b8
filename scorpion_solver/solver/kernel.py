"""The jitted core: compact state, move generation, make, keys, deadlock test, search, perft.

Everything numba compiles lives in this one module (numba's cache does not see
edits across files). Hot code uses plain numpy arrays only, no typed
containers, and allocates nothing per node. Each kernel has a plain-Python
twin: ``engine`` (moves, make, perft), ``deadlock`` and ``search_twin``.

Compact state: one ``int8`` vector per position (``STATE_SIZE`` bytes)::

    offset  size        field
    0       7 * 64      COLS     cards of column c at COLS + 64*c + i, i = 0 is the bottom
    448     7           LEN      number of cards in each column
    455     7           HID      face-down cards at the bottom of each column
    462     7           FLOOR    cards at the bottom that can never move (classic frozen runs
                                 and everything under them); 0 elsewhere
    469     52          LOCCOL   column of each card, -1 when in the tail or swept
    521     52          LOCIDX   height of each card in its column
    573     3           TAIL     the tail cards in dealing order, -1 once dealt
    576     1           DEALT    1 once the tail has been dealt
    577     1           SWEPT    number of runs swept (Clear runs)
    578     1           FROZEN   bit s set when suit s has a frozen run (classic)
    579     5           padding  (STATE_SIZE = 584)

Keys: one ``uint64`` vector per position (``KEYS_SIZE`` entries)::

    0..6     column hashes under key set 1    7..13    the same under key set 2
    14       key 1                            15       key 2
    16..22   the key 1 terms of the columns   23..29   the key 2 terms
    30..31   padding
    32..83   BELOW_Z: for each card on the table, the sum of Z over the cards
             under it in its column (set 1)                84..135 (set 2)
             (cards off the table have 0 in BELOW_Z; KEYS_SIZE = 136)

A column hash is ``sum Z[card, height] + ZH[face-down count]`` (mod 2^64),
with ``Z[card, height] = A[card] * R^height`` for random A and a random odd
R (one per key set). A move lifts a block of cards by ``d = j - i`` heights
(from height i in one column to height j in another), which multiplies the
block's hash by ``R^d`` (R is odd, so it has an inverse mod 2^64 and d may be
negative; the powers are in MISC); with the BELOW sum of the block's first
card, the two new column hashes follow in O(1), whatever the block's size:
the height change is a factor, so one sum per card (BELOW_Z) is all a move
needs. A position key
is ``sum F(column hash + SALT[slot])`` plus terms for the tail cards in their
order and for frozen suits, where F is the splitmix64 finaliser and ``slot``
is the column number for columns 1-3 before the tail deal and one shared slot
for all interchangeable columns (docs/rules.md, "Spaces"): permuting
interchangeable columns permutes equal terms of a sum, so such positions get
equal keys; F makes the sum non-linear in the cards. Each column's term
``F(hash + SALT[slot])`` is kept in the key vector, so a move or a child's key
costs two calls of F per key set, not four.

Why a wrong ``lost`` is (practically) impossible. Two key sets from
independent random tables are kept and a table entry matches only when both
agree. A false match is the only way the search could call a won position
lost. For one key set, two different positions get equal keys only if (a)
two different column contents get equal column hashes, or (b) the sums of F
terms coincide (chance 2^-64, taking F as random). For (a): contents with
different cards or face-down counts differ by a uniformly random A or ZH
term (chance 2^-64; ``R^h`` is odd, so ``A * R^h`` is uniform); the same
cards at other heights differ by ``A[card] * R^h * (R^d - 1)`` for some card,
with 0 < |d| < 64, which is uniform over the multiples of 2^v, v the number
of times 2 divides ``R^d - 1``. R is drawn with ``R = 3 mod 8``: then v = 1
for odd d and v = 2 + (the times 2 divides d) <= 7 for even d, so the chance
is at most 2^-57; over the 49 pairs of columns that is below 2^-51. So one
key set collides with chance below 2^-51, both below 2^-102 (the table also
forces the low bit of key 2 to 1 to reserve 0 as "empty", so say 2^-101).
With at most N stored positions and M probes the chance that any probe
wrongly matches is below N*M / 2^101, under 1e-12 for the largest searches
this tool runs (N, M < 1e9).

The wide layout (Double Scorpion, its dealt layout, Three Blind Mice): the
same fields in an ``int16`` vector of ``W_STATE_SIZE`` elements, ten columns of
``W_COL_CAP`` = 128, 104 cards (two copies of each face, ids 0..103), a tail
of four, two reserve slots (``W_RESERVE``; a reserve card's LOCCOL is
``RESERVE_COLUMN`` = 10 and its LOCIDX its slot) and ``W_RUNS``, the runs
to sweep for a win; keys of ``W_KEYS_SIZE`` with their own tables
(``WIDE_KEY_TABLES``), read by face so the copies of a face are one entry;
moves ``card * 16 + destination``. Every kernel reads the constants of its
state's layout through ``layout(s)``, answered by numba from the element
type when it compiles, so the one-deck kernels fold the constants above as
before and the wide ones are compiled only when a wide state is passed. The
table of offsets and the reasons are in docs/design.md, "Relatives: several
game shapes in one search".

Moves: a ``uint16`` code ``card * 8 + destination column``; ``TAIL_CODE`` is
the tail deal. The source column is the card's LOCCOL before the move.
(Unsigned on purpose: numba guards every array index that may be negative
with a wraparound select, and indices derived from an unsigned code need
none.)

Flags: the rules and the search's reductions travel together as one ``int64``
bit field (``flags``; ``rule_bits`` and ``prune_bits`` in ``search.py`` build it)::

    bit  value  name                   meaning
    0    1      PRUNE_DEADLOCK         the deadlock test prunes children (``_deadlocked``)
    1    2      PRUNE_SAFE_LEADS       after the tail deal, a safe lead is a node's only child
    2    4      PRUNE_SUCCESSOR_ABOVE  the deadlock test's successor-above rule
    3    8      PRUNE_EVERY_MOVE       tests only: the deadlock test after every move
    4    16     RULE_SWEEPS            complete runs are swept (Clear runs, Wasp, ...)
    5    32     RULE_FREEZES           complete runs freeze (classic)
    6    64     RULE_SPACE_ANY         any card may enter a space (Wasp), not only Kings
    7    128    RULE_TAIL_WHEN_STUCK   the tail may be dealt only when no other move is left

(``int64`` throughout: numba turns a mix of uint64 and int64 into float64.)
The key tables travel as one tuple too, ``KEY_TABLES = (Z, ZH, SALT, MISC)``.

Make and unmake: every ply of the search owns a state frame and a key
vector; a move is made on a copy of its parent's (584 + 1088 bytes, a few
tens of nanoseconds) and unmade by returning to the parent's. That is exact
by construction, with no undo bookkeeping for flips, sweeps and freezes.

The design choices, and the alternatives measured against them, are in
docs/design.md.
"""

from __future__ import annotations

from typing import NamedTuple

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic, overload

from . import numba_patches

numba_patches.apply_all()  # before anything here compiles: numba compiles faster, to the same machine code

# Kernels run without numba's reference counting (_nrt=False): on the search's
# hot path the atomic reference-count updates numba adds for every array view
# and argument cost more than the work itself. Such kernels may not allocate;
# the few that must (small public helpers) use ALLOC. Functions on the hot path
# are also inlined at numba's IR level: a call between jitted functions passes
# every array as a bundle of words, and LLVM does not inline a large one. A
# numba-level inline is paid at every call site, though (its IR copied, typed
# and optimized again there, inside every kernel that inlines the caller): the
# one-liners (_u at 44 sites, _face, _mix, _slot, _rules_of, _card_bit, _home)
# and the rare steps (_keys_by_making, _decide_root) are plain JIT functions,
# which LLVM inlines or calls. That took the search job's cold compile from 67.6
# to 49.4 CPU s (paired) at the same speed (docs/design.md, "Compiling less"); numba_inline.py then
# trims what numba's inliner spends copying a callee at each site.
JIT = dict(cache=True, nogil=True, _nrt=False)
ALLOC = dict(cache=True, nogil=True)
INLINE = dict(cache=True, nogil=True, _nrt=False, inline="always")

COL_CAP = 64
COLS = 0
LEN = 448
HID = 455
FLOOR = 462
LOCCOL = 469
LOCIDX = 521
TAIL = 573
DEALT = 576
SWEPT = 577
FROZEN = 578
STATE_SIZE = 584

KEY1 = 14
KEY2 = 15
MIXED = 16
BELOW_Z = 32
KEYS_SIZE = 136

TAIL_CODE = 52 * 8
MAX_MOVES = 256

# bits of the search's ``prune`` argument (each a sound reduction, switchable)
PRUNE_DEADLOCK = 1  # deadlock pruning (``_deadlocked``)
PRUNE_SAFE_LEADS = 2  # after the tail deal, a safe lead is a node's only child (``_safe_lead``)
PRUNE_SUCCESSOR_ABOVE = 4  # the deadlock test's successor-above rule (``_successor_free``)
PRUNE_EVERY_MOVE = 8  # tests only: the deadlock test after every move (the same nodes: tests/test_successor_above.py)
PRUNE_BITS = 15
# The wide search's second move order (docs/design.md, "Two move orders"): moves whose group lies on a
# face-down card first. The driver searches a two-deck position in this order when the first, the
# generation order, runs out of nodes. Not a reduction: every move is still tried.
ORDER_REVEALS_FIRST = 256
# bits of the rules in the same ``flags`` word (the layout is in the module docstring)
RULE_SWEEPS = 16
RULE_FREEZES = 32
RULE_SPACE_ANY = 64
RULE_TAIL_WHEN_STUCK = 128

# search status codes
S_WON = 1
S_LOST = 2
S_NODES = 3  # node budget (or the slice of it) used up; call again to continue
S_GROW = 4  # transposition table needs to grow; grow it and call again
S_DEEPER = 5  # stack needs to grow; grow it and call again

# per-card facts in the deadlock test
F_ON_TABLE = 1
F_STUCK = 2  # in or under a frozen run
F_DOWN = 4  # face down
F_BOTTOM = 8  # lowest card of its column
F_QUEEN_ON = 16  # a King with its Queen directly on it
F_LEFT = 32  # already found able to leave
DEAD_SCRATCH = 2 * 64 + 256  # int8 scratch of the deadlock test: flags, card under, worklist

# search counters (an int64 vector the caller owns)
C_NODES = 0
C_ENTRIES = 1
C_PRUNES = 2
C_MAXDEPTH = 3
C_SP = 4
C_DEAD_ROOT = 5
C_MAKES = 6  # moves made, including those leading to known positions
C_CHECKS = 7  # deadlock tests run
C_SAFE = 8  # expansions cut to a safe lead (PRUNE_SAFE_LEADS)
COUNTERS_SIZE = 9

_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_ONE = np.uint64(1)


MISC_TAIL = 8
MISC_POW = MISC_TAIL + 3 * 52  # R^d at MISC_POW + COL_CAP + d, -COL_CAP < d < COL_CAP
MISC_SIZE = MISC_POW + 2 * COL_CAP


def _random_tables() -> tuple[np.ndarray, ...]:
    rng = np.random.Generator(np.random.PCG64(0x5C0F1105))  # fixed: keys are pinned in tests

    def draw(n: int) -> np.ndarray:
        return rng.integers(0, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + rng.integers(
            0, 2, size=n, dtype=np.uint64
        )

    # z[k, card * COL_CAP + h] = A[k, card] * R[k]^h (mod 2^64): a block of cards
    # moving up or down by d has its hash multiplied by R^d, which makes a
    # child's key O(1) (see the module docstring, also for why R = 3 mod 8).
    a = draw(2 * 52).reshape(2, 52)
    r = [int(x) // 8 * 8 + 3 for x in draw(2)]
    zh = draw(2 * COL_CAP).reshape(2, COL_CAP)
    salt = draw(2 * 8).reshape(2, 8)
    # [0] tail not dealt, [1..4] frozen suit, [8 + 52 * t + card] card in tail slot t,
    # [MISC_POW + COL_CAP + d] R^d
    misc = draw(2 * MISC_SIZE).reshape(2, MISC_SIZE)
    z = np.zeros((2, 52 * COL_CAP), dtype=np.uint64)
    for k in range(2):
        for d in range(1 - COL_CAP, COL_CAP):
            misc[k, MISC_POW + COL_CAP + d] = pow(r[k], d, 1 << 64)
        for card in range(52):
            for h in range(COL_CAP):
                z[k, card * COL_CAP + h] = int(a[k, card]) * pow(r[k], h, 1 << 64) % (1 << 64)
    return z, zh, salt, misc


Z, ZH, SALT, MISC = _random_tables()
KEY_TABLES = (Z, ZH, SALT, MISC)  # what the entry points take as ``tables``


# ---------------------------------------------------------------------------
# the wide layout (Double Scorpion, its dealt layout, Three Blind Mice): int16 states
#
# The search is written once. Every kernel reads its layout's constants through
# ``layout(s)``, which numba answers from the state array's element type at
# typing time: an int8 state gets ``NARROW`` (the one-deck constants above, so the
# one-deck kernels fold the very constants they always did), an int16 state gets
# ``WIDE``. The layout is in docs/design.md, "Relatives: several game shapes in one
# search"; what differs in play (two copies of a face, reserve cards) is guarded by
# ``L.WIDE`` and ``L.NRES``, constants that fold away in the one-deck kernels.

W_COL_CAP = 128
W_COLS = 0
W_LEN = 1280
W_HID = 1290
W_FLOOR = 1300
W_LOCCOL = 1310
W_LOCIDX = 1414
W_TAIL = 1518
W_RESERVE = 1522
W_DEALT = 1524
W_SWEPT = 1525
W_FROZEN = 1526
W_RUNS = 1527  # the runs to sweep for a win: 8 (Double Scorpion) or 4 (Three Blind Mice)
W_STATE_SIZE = 1528
W_KEY1 = 20
W_KEY2 = 21
W_MIXED = 22
W_BELOW_Z = 48
W_KEYS_SIZE = 256
W_NUM_CARDS = 104
W_TAIL_CODE = W_NUM_CARDS * 16
RESERVE_COLUMN = 10  # a reserve card's LOCCOL: the plain engine's ``RESERVE`` source
W_MISC_TAIL = 8
W_MISC_RESERVE = W_MISC_TAIL + 4 * 52  # a reserve card's term, by face
W_MISC_POW = W_MISC_RESERVE + 52
W_MISC_SIZE = W_MISC_POW + 2 * W_COL_CAP


class Layout(NamedTuple):
    """The constants of one state layout (offsets in elements of the state or key vector)."""

    WIDE: bool  # two copies of a face may be in play (cards 0..103), reserves, a tail of four
    NCOLS: int
    NCARDS: int  # card ids 0..NCARDS-1
    NTAIL: int  # tail cards (columns 1..NTAIL are kept apart until the deal)
    NRES: int  # reserve slots
    COL_CAP: int
    COLS: int
    LEN: int
    HID: int
    FLOOR: int
    LOCCOL: int
    LOCIDX: int
    TAIL: int
    RESERVE: int
    DEALT: int
    SWEPT: int
    FROZEN: int
    RUNS: int  # -1: four runs win (one deck)
    STATE_SIZE: int
    MOVE_BASE: int  # a move is card * MOVE_BASE + destination
    TAIL_CODE: int
    KEY1: int
    KEY2: int
    MIXED: int
    BELOW_Z: int
    KEYS_SIZE: int
    SHARED_SLOT: int  # the salt slot of every interchangeable column
    MISC_TAIL: int
    MISC_RESERVE: int
    MISC_POW: int


NARROW = Layout(
    False, 7, 52, 3, 0, COL_CAP, COLS, LEN, HID, FLOOR, LOCCOL, LOCIDX, TAIL, -1, DEALT, SWEPT, FROZEN, -1,
    STATE_SIZE, 8, TAIL_CODE, KEY1, KEY2, MIXED, BELOW_Z, KEYS_SIZE, 7, MISC_TAIL, -1, MISC_POW,
)  # fmt: skip
WIDE = Layout(
    True, 10, W_NUM_CARDS, 4, 2, W_COL_CAP, W_COLS, W_LEN, W_HID, W_FLOOR, W_LOCCOL, W_LOCIDX, W_TAIL, W_RESERVE,
    W_DEALT, W_SWEPT, W_FROZEN, W_RUNS, W_STATE_SIZE, 16, W_TAIL_CODE, W_KEY1, W_KEY2, W_MIXED, W_BELOW_Z,
    W_KEYS_SIZE, 10, W_MISC_TAIL, W_MISC_RESERVE, W_MISC_POW,
)  # fmt: skip


def _wide_tables() -> tuple[np.ndarray, ...]:
    """The wide layout's key tables: indexed by face (``card % 52``), never by copy, so a position and its
    copy-swapped twin have equal keys; heights up to W_COL_CAP (docs/design.md has the collision bound)."""
    rng = np.random.Generator(np.random.PCG64(0x5C0F2106))  # fixed: keys are pinned in tests

    def draw(n: int) -> np.ndarray:
        return rng.integers(0, 2**63, size=n, dtype=np.uint64) * np.uint64(2) + rng.integers(
            0, 2, size=n, dtype=np.uint64
        )

    a = draw(2 * 52).reshape(2, 52)
    r = [int(x) // 8 * 8 + 3 for x in draw(2)]
    zh = draw(2 * W_COL_CAP).reshape(2, W_COL_CAP)
    salt = draw(2 * 16).reshape(2, 16)
    misc = draw(2 * W_MISC_SIZE).reshape(2, W_MISC_SIZE)
    z = np.zeros((2, 52 * W_COL_CAP), dtype=np.uint64)
    for k in range(2):
        for d in range(1 - W_COL_CAP, W_COL_CAP):
            misc[k, W_MISC_POW + W_COL_CAP + d] = pow(r[k], d, 1 << 64)
        for face in range(52):
            for h in range(W_COL_CAP):
                z[k, face * W_COL_CAP + h] = int(a[k, face]) * pow(r[k], h, 1 << 64) % (1 << 64)
    return z, zh, salt, misc


WIDE_KEY_TABLES = _wide_tables()  # what the entry points take as ``tables`` for a wide state


def layout(s):
    """The layout of a state array (typing time only: see ``_layout_of``)."""
    raise NotImplementedError("layout is answered by numba from the state's element type")


@overload(layout, inline="always")
def _layout_of(s):
    constants = WIDE if s.dtype == nb.types.int16 else NARROW
    return lambda s: constants


# A branch on ``L.WIDE`` folds away in LLVM, after numba has typed and lowered both sides: a wide-only
# helper called there is compiled into every one-deck kernel too (the two-deck deadlock test, called
# from the search, was a separate int8 compile of about 6 s of CPU). The calls below are chosen by the
# state's element type at typing time instead, like ``layout``: a one-deck kernel sees only the
# one-deck answer (issue 50: the one-deck commands' compile does not grow with the two-deck games).


def _wide_cut(child, can_top, scratch, sweeps, space_any, successor_above):
    """Whether the two-deck deadlock test (stopping early) finds the wide state ``child`` lost; False
    for a one-deck state, whose test is ``_deadlock_cut``'s own."""
    raise NotImplementedError("_wide_cut is chosen by numba from the state's element type")


@overload(_wide_cut, inline="always")
def _wide_cut_of(child, can_top, scratch, sweeps, space_any, successor_above):
    if child.dtype != nb.types.int16:
        return lambda child, can_top, scratch, sweeps, space_any, successor_above: False
    return lambda child, can_top, scratch, sweeps, space_any, successor_above: _wide_deadlocked(
        child, can_top, scratch, sweeps, space_any, successor_above, np.bool_(True)
    )


def _copies_onto(s, out, n, dst, length):
    """``_push_copies`` for a wide state; n unchanged for a one-deck state (never called there)."""
    raise NotImplementedError("_copies_onto is chosen by numba from the state's element type")


@overload(_copies_onto, inline="always")
def _copies_onto_of(s, out, n, dst, length):
    if s.dtype != nb.types.int16:
        return lambda s, out, n, dst, length: n
    return lambda s, out, n, dst, length: _push_copies(s, out, n, dst, length)


def _wide_order(s, out, n, flags):
    """With ORDER_REVEALS_FIRST, a wide state's moves reordered for the search (``_reveals_first``);
    nothing for a one-deck state."""
    raise NotImplementedError("_wide_order is chosen by numba from the state's element type")


@overload(_wide_order, inline="always")
def _wide_order_of(s, out, n, flags):
    if s.dtype != nb.types.int16:
        return lambda s, out, n, flags: None

    def reorder(s, out, n, flags):
        if flags & ORDER_REVEALS_FIRST:
            _reveals_first(s, out, n)

    return reorder


def _remap_wide(orig, actual, code):
    """``_remap_copies`` for a wide state; the code unchanged for a one-deck state (never called there)."""
    raise NotImplementedError("_remap_wide is chosen by numba from the state's element type")


@overload(_remap_wide, inline="always")
def _remap_wide_of(orig, actual, code):
    if orig.dtype != nb.types.int16:
        return lambda orig, actual, code: code
    return lambda orig, actual, code: _remap_copies(orig, actual, code)


# ---------------------------------------------------------------------------
# small helpers


@nb.njit(**JIT)
def _mix(x):
    """splitmix64 finaliser: a bijection of uint64 that scrambles every bit."""
    x = (x ^ (x >> _S30)) * _M1
    x = (x ^ (x >> _S27)) * _M2
    return x ^ (x >> _S31)


@nb.njit(**JIT)
def _u(i):
    """An array index known not to be negative, as unsigned.

    numba guards every signed index with a select that wraps negative values
    around; an unsigned index has none. On the hot path the indices come from
    int8 state fields known not to be negative, so those selects would be
    pure overhead in the innermost loops.
    """
    return np.uint64(i)


@intrinsic
def _copy_into(typingctx, dst, src):
    """dst[:len(src)] = src for C-contiguous 1-D arrays of one dtype, as one llvm.memcpy.

    One call copies a whole frame (libc's memcpy, for this size), where numba
    compiles an element loop to a long series of small moves. No bounds
    check: the callers copy a frame row into another row of the same shape.
    """

    def one_d(t):
        return isinstance(t, nb.types.Array) and t.ndim == 1 and t.layout == "C"

    if not (one_d(dst) and one_d(src) and dst.dtype == src.dtype):
        return None

    def codegen(context, builder, sig, args):
        dst_ty, src_ty = sig.args
        a = context.make_array(dst_ty)(context, builder, args[0])
        b = context.make_array(src_ty)(context, builder, args[1])
        count = builder.extract_value(b.shape, 0)
        itemsize = context.get_abi_sizeof(context.get_data_type(src_ty.dtype))
        cgutils.raw_memcpy(builder, a.data, b.data, count, itemsize, align=8)
        return context.get_dummy_value()

    return nb.types.void(dst, src), codegen


@nb.njit(**JIT)
def _rules_of(flags):
    """(sweeps, freezes, space_any, tail_when_stuck) of a ``flags`` word, each 0 or 1 (int64)."""
    return (
        (flags >> 4) & 1,
        (flags >> 5) & 1,
        (flags >> 6) & 1,
        (flags >> 7) & 1,
    )


@nb.njit(**JIT)
def _face(s, c):
    """The face of card c (its copy forgotten): c itself in a one-deck layout."""
    if layout(s).WIDE:
        return c % 52
    return c


@nb.njit(**JIT)
def _slot(s, col):
    L = layout(s)
    if s[L.DEALT] == 0 and col < L.NTAIL:
        return col
    return L.SHARED_SLOT


@nb.njit(**JIT)
def _column_hash(s, keys, col, k, z, zh):
    """Column hash from scratch; also fills the column's BELOW_Z entries."""
    L = layout(s)
    below_z = np.uint64(0)
    base = L.COLS + L.COL_CAP * col
    for i in range(s[L.LEN + col]):
        c = s[base + i]
        keys[L.BELOW_Z + L.NCARDS * k + c] = below_z
        below_z += z[k, _face(s, c) * L.COL_CAP + i]
    return zh[k, s[L.HID + col]] + below_z


@nb.njit(**INLINE)
def _key_from_columns(s, keys, k, salt, misc):
    L = layout(s)
    key = np.uint64(0)
    for col in range(L.NCOLS):
        term = _mix(keys[L.NCOLS * k + col] + salt[k, _slot(s, col)])
        keys[L.MIXED + L.NCOLS * k + col] = term
        key += term
    if s[L.DEALT] == 0:
        key += misc[k, 0]
        for t in range(L.NTAIL):
            key += misc[k, L.MISC_TAIL + 52 * t + _face(s, s[L.TAIL + t])]
    for r in range(L.NRES):  # a sum: the reserves' order does not matter
        c = s[L.RESERVE + r]
        if c >= 0:
            key += misc[k, L.MISC_RESERVE + _face(s, c)]
    for suit in range(4):
        if (s[L.FROZEN] >> suit) & 1:
            key += misc[k, 1 + suit]
    return key


@nb.njit(**JIT)
def compute_keys(s, keys, z, zh, salt, misc):
    """Column hashes and both keys from scratch (the incremental update must agree)."""
    L = layout(s)
    for i in range(L.KEYS_SIZE):
        keys[i] = 0
    for k in range(2):
        for col in range(L.NCOLS):
            keys[L.NCOLS * k + col] = _column_hash(s, keys, col, k, z, zh)
        keys[L.KEY1 + k] = _key_from_columns(s, keys, k, salt, misc)


# ---------------------------------------------------------------------------
# move generation


@nb.njit(**INLINE)
def _push_cards_kings(s, out, n, dst, space_any):
    """Moves into the empty column dst, by source column then height."""
    L = layout(s)
    if space_any == 0:
        return _push_kings(s, out, n, dst)
    for src in range(L.NCOLS):
        length = s[L.LEN + src]
        start = s[L.HID + src]
        if s[L.FLOOR + src] > start:
            start = s[L.FLOOR + src]
        base = L.COLS + L.COL_CAP * src
        for i in range(start, length):
            if i == 0 and (s[L.DEALT] == 1 or (src >= L.NTAIL and dst >= L.NTAIL)):
                continue  # relocating a whole column changes nothing
            out[n] = s[base + i] * L.MOVE_BASE + dst
            n += 1
    for r in range(L.NRES):
        c = s[L.RESERVE + r]
        if c >= 0:
            out[n] = c * L.MOVE_BASE + dst
            n += 1
    return n


@nb.njit(**INLINE)
def _push_kings(s, out, n, dst):
    """King-led moves into the empty column dst, by source column then height.

    Looks at the Kings only (not every card), then orders the few found. A
    reserve King's LOCCOL is RESERVE_COLUMN and its LOCIDX its reserve slot,
    so it sorts after the columns' Kings, in the reserves' order (the
    engine's canonical order).
    """
    L = layout(s)
    first = n
    for king in range(12, L.NCARDS, 13):
        src = s[L.LOCCOL + king]
        if src < 0:
            continue
        i = s[L.LOCIDX + king]
        if not (L.NRES > 0 and src == RESERVE_COLUMN):
            if i < s[L.HID + src] or i < s[L.FLOOR + src]:
                continue
            if i == 0 and (s[L.DEALT] == 1 or (src >= L.NTAIL and dst >= L.NTAIL)):
                continue  # relocating a whole column changes nothing
        order = src * L.COL_CAP + i
        j = n
        while j > first:  # insertion sort on (source column, height)
            prev = out[j - 1] // L.MOVE_BASE
            if s[L.LOCCOL + prev] * L.COL_CAP + s[L.LOCIDX + prev] <= order:
                break
            out[j] = out[j - 1]
            j -= 1
        out[j] = king * L.MOVE_BASE + dst
        n += 1
    return n


@nb.njit(**INLINE)
def generate_moves(s, out, space_any, tail_when_stuck, won_by_sweeps):
    """Write the legal moves of state s into out in canonical order; return the count.

    Canonical order (as ``engine.legal_moves``): by destination column, then
    source column, then height; the tail deal last. A won position has none.
    """
    L = layout(s)
    if _is_won(s, won_by_sweeps):
        return 0
    n = 0
    free_seen = False  # an interchangeable empty column already took moves (only the first one does)
    for dst in range(L.NCOLS):
        length = s[L.LEN + dst]
        if length > 0 and L.WIDE:
            n = _copies_onto(s, out, n, dst, length)
        elif length > 0:
            # Branch-free: whether the card one below the top can land here
            # is data the branch predictor cannot learn, and a mispredicted
            # branch costs more than these few loads.
            # Reads for a card that cannot move stay inside the state vector
            # (c = -1 under an Ace of card 0, src = -1 off the table) and are
            # masked out by ``ok``.
            t = s[COLS + COL_CAP * dst + length - 1]
            c = t - 1
            src = s[LOCCOL + c]
            i = s[LOCIDX + c]
            floor = max(s[HID + src], s[FLOOR + src])
            ok = (t % 13 != 0) & (src >= 0) & (src != dst) & (i >= floor)
            out[n] = c * 8 + dst
            n += np.int64(ok)
        else:
            if s[L.DEALT] == 1 or dst >= L.NTAIL:
                if free_seen:
                    continue
                free_seen = True
            n = _push_cards_kings(s, out, n, dst, space_any)
    if s[L.DEALT] == 0:
        if tail_when_stuck == 0:
            out[n] = L.TAIL_CODE
            n += 1
        else:
            stuck = True  # no move but whole-column relocations into a space
            for j in range(n):
                c = out[j] // L.MOVE_BASE
                if s[L.LOCIDX + c] != 0 or s[L.LEN + out[j] % L.MOVE_BASE] != 0:
                    stuck = False
                    break
            if stuck:
                out[n] = L.TAIL_CODE
                n += 1
    return n


@nb.njit(**INLINE)
def _push_copies(s, out, n, dst, length):
    """The wide layout's moves onto the top of column dst: a group led by either copy of the face one
    below the top (or a reserve card of that face), by source column then height."""
    L = layout(s)
    top = _face(s, s[L.COLS + L.COL_CAP * dst + length - 1])
    if top % 13 == 0:
        return n  # nothing builds on an Ace
    first = n
    for copy in range(2):
        c = top - 1 + 52 * copy
        src = np.int64(s[L.LOCCOL + c])
        if src < 0 or src == dst:
            continue
        i = np.int64(s[L.LOCIDX + c])
        if src != RESERVE_COLUMN and i < s[L.HID + src]:
            continue
        if n > first:  # the other copy came first: order the two by (source column, height)
            prev = out[first] // L.MOVE_BASE
            if s[L.LOCCOL + prev] * L.COL_CAP + s[L.LOCIDX + prev] > src * L.COL_CAP + i:
                out[n] = out[first]
                out[first] = c * L.MOVE_BASE + dst
                n += 1
                continue
        out[n] = c * L.MOVE_BASE + dst
        n += 1
    return n


@nb.njit(**INLINE)
def _is_won(s, won_by_sweeps):
    L = layout(s)
    if L.WIDE and won_by_sweeps:
        return s[L.SWEPT] == s[L.RUNS]
    if won_by_sweeps:
        return s[SWEPT] == 4
    if s[DEALT] == 0:
        return False
    for col in range(7):
        length = s[LEN + col]
        if length == 0:
            continue
        if length % 13 != 0 or s[HID + col] != 0:
            return False
        if s[COLS + COL_CAP * col + length - 1] % 13 != 0:
            return False
    for col in range(7):
        base = COLS + COL_CAP * col
        for start in range(0, s[LEN + col], 13):
            king = s[base + start]
            if king % 13 != 12:
                return False
            for k in range(13):
                if s[base + start + k] != king - k:
                    return False
    return True


# ---------------------------------------------------------------------------
# make


@nb.njit(**INLINE)
def _settle(s, keys, col, sweeps, freezes, z, zh):
    """Flip a face-down top; sweep (repeatedly) or freeze a complete top run (by faces: with two decks a
    run may mix copies)."""
    L = layout(s)
    base = L.COLS + L.COL_CAP * col
    kc = _u(col)  # a column number, not negative
    while True:
        length = s[L.LEN + kc]
        if length > 0 and s[L.HID + kc] >= length:
            for k in range(2):
                keys[L.NCOLS * k + kc] += zh[k, _u(length - 1)] - zh[k, _u(s[L.HID + kc])]
            s[L.HID + kc] = length - 1
        if length - s[L.HID + kc] < 13 or length - s[L.FLOOR + kc] < 13:
            return
        ace = _face(s, s[_u(base + length - 1)])
        if ace % 13 != 0:
            return
        for k in range(1, 13):
            if _face(s, s[base + length - 1 - k]) != ace + k:
                return
        if sweeps:
            for i in range(length - 13, length):
                c = s[base + i]
                for k in range(2):
                    keys[L.NCOLS * k + col] -= z[k, _face(s, c) * L.COL_CAP + i]
                    keys[L.BELOW_Z + L.NCARDS * k + c] = 0
                s[L.LOCCOL + c] = -1
            s[L.LEN + col] = length - 13
            s[L.SWEPT] += 1
            continue
        if freezes:
            s[L.FLOOR + col] = length
            s[L.FROZEN] |= 1 << (ace // 13)
        return


@nb.njit(**INLINE)
def _play_reserve(s, keys, c, dst, sweeps, freezes, z, zh, salt, misc):
    """Play reserve card c onto column dst (the wide layout's reserve move), in place."""
    L = layout(s)
    kd = _u(dst)
    j = s[L.LEN + kd]
    s[_u(L.COLS + L.COL_CAP * dst + j)] = c
    s[L.RESERVE + s[L.LOCIDX + c]] = -1
    s[L.LOCCOL + c] = dst
    s[L.LOCIDX + c] = j
    s[L.LEN + kd] = j + 1
    face = _face(s, c)
    for k in range(2):
        keys[L.BELOW_Z + L.NCARDS * k + c] = keys[L.NCOLS * k + kd] - zh[k, _u(s[L.HID + kd])]
        keys[L.NCOLS * k + kd] += z[k, face * L.COL_CAP + j]
    _settle(s, keys, dst, sweeps, freezes, z, zh)
    ds = _u(_slot(s, dst))
    for k in range(2):
        new_dst = _mix(keys[L.NCOLS * k + kd] + salt[k, ds])
        keys[L.KEY1 + k] += new_dst - keys[L.MIXED + L.NCOLS * k + kd] - misc[k, L.MISC_RESERVE + face]
        keys[L.MIXED + L.NCOLS * k + kd] = new_dst


@nb.njit(**INLINE)
def make_move(s, keys, code, sweeps, freezes, z, zh, salt, misc):
    """Play the move ``code`` on state s and its keys, in place."""
    L = layout(s)
    NC = L.NCOLS  # column hashes of key set k are at NC * k, their key terms at MIXED + NC * k
    if code == L.TAIL_CODE:
        for col in range(L.NTAIL):
            c = s[L.TAIL + col]
            i = s[L.LEN + col]
            s[L.COLS + L.COL_CAP * col + i] = c
            s[L.LOCCOL + c] = col
            s[L.LOCIDX + c] = i
            s[L.LEN + col] = i + 1
            s[L.TAIL + col] = -1
            for k in range(2):
                keys[L.BELOW_Z + L.NCARDS * k + c] = keys[NC * k + col] - zh[k, s[L.HID + col]]
                keys[NC * k + col] += z[k, _face(s, c) * L.COL_CAP + i]
        s[L.DEALT] = 1
        for col in range(L.NTAIL):
            _settle(s, keys, col, sweeps, freezes, z, zh)
        for k in range(2):
            keys[L.KEY1 + k] = _key_from_columns(s, keys, k, salt, misc)
    else:
        c = code // L.MOVE_BASE
        dst = code % L.MOVE_BASE
        src = s[L.LOCCOL + c]  # the moving block is on the table: src, i, length, j and its cards are not negative
        if L.NRES > 0 and src == RESERVE_COLUMN:
            _play_reserve(s, keys, c, dst, sweeps, freezes, z, zh, salt, misc)
            return
        i = s[L.LOCIDX + c]
        length = s[_u(L.LEN + src)]
        j = s[L.LEN + dst]
        sbase = L.COLS + L.COL_CAP * src
        dbase = L.COLS + L.COL_CAP * dst
        ks, kd = _u(src), _u(dst)
        old_frozen = s[L.FROZEN]
        pow_at = _u(L.MISC_POW + L.COL_CAP + j - i)  # where R^(j - i) is: j - i is the block's height change
        pow1, pow2 = misc[0, pow_at], misc[1, pow_at]
        # the block's sums from the BELOW entries of its first card c, before they change
        below_z1, below_z2 = keys[L.BELOW_Z + c], keys[L.BELOW_Z + L.NCARDS + c]
        dst_z1 = keys[kd] - zh[0, _u(s[L.HID + dst])]
        dst_z2 = keys[NC + kd] - zh[1, _u(s[L.HID + dst])]
        # one pass over the block for the cards and both key sets (one loop exit to predict, not three)
        for a in range(i, length):
            card = s[_u(sbase + a)]
            kc = _u(card)
            keys[L.BELOW_Z + kc] = dst_z1 + (keys[L.BELOW_Z + kc] - below_z1) * pow1
            keys[L.BELOW_Z + L.NCARDS + kc] = dst_z2 + (keys[L.BELOW_Z + L.NCARDS + kc] - below_z2) * pow2
            b = j + a - i
            s[_u(dbase + b)] = card
            s[L.LOCCOL + kc] = dst
            s[L.LOCIDX + kc] = b
        hid = _u(s[_u(L.HID + src)])
        for k in range(2):
            below_z = below_z1 if k == 0 else below_z2
            block_z = keys[NC * k + ks] - zh[k, hid] - below_z
            keys[NC * k + ks] -= block_z
            keys[NC * k + kd] += block_z * (pow1 if k == 0 else pow2)
        s[_u(L.LEN + src)] = i
        s[L.LEN + dst] = j + length - i
        _settle(s, keys, src, sweeps, freezes, z, zh)
        _settle(s, keys, dst, sweeps, freezes, z, zh)
        # only two column terms of the key sums change (the tail state, hence the slots, does not)
        ss, ds = _u(_slot(s, src)), _u(_slot(s, dst))
        for k in range(2):
            new_src = _mix(keys[NC * k + ks] + salt[k, ss])
            new_dst = _mix(keys[NC * k + kd] + salt[k, ds])
            keys[L.KEY1 + k] += (new_src - keys[L.MIXED + NC * k + ks]) + (new_dst - keys[L.MIXED + NC * k + kd])
            keys[L.MIXED + NC * k + ks] = new_src
            keys[L.MIXED + NC * k + kd] = new_dst
        if s[L.FROZEN] != old_frozen:
            for suit in range(4):
                if ((s[L.FROZEN] >> suit) & 1) and not ((old_frozen >> suit) & 1):
                    keys[L.KEY1] += misc[0, 1 + suit]
                    keys[L.KEY2] += misc[1, 1 + suit]


@nb.njit(**INLINE)
def child_keys(s, keys, code, scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc):
    """The two keys of the position after ``code``, without making the move on s.

    Most children of a node are positions seen before, so the search learns a
    child's keys this cheap way first. Moves that may sweep or freeze a run
    (an Ace comes to lie on top of a column with the King of its suit twelve
    cards below) and the tail deal are made in full on the scratch frame
    instead, as is a reserve card's move (two at most a position). Must equal
    make_move's keys (tested).
    """
    L = layout(s)
    NC = L.NCOLS
    if code == L.TAIL_CODE:
        return _keys_by_making(s, keys, code, scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc)
    c = code // L.MOVE_BASE
    dst = code % L.MOVE_BASE
    src = s[L.LOCCOL + c]  # the moving card is on the table: src, i, length, j, hid are not negative
    if L.NRES > 0 and src == RESERVE_COLUMN:
        return _keys_by_making(s, keys, code, scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc)
    i = s[L.LOCIDX + c]
    length = s[_u(L.LEN + src)]
    sbase = L.COLS + L.COL_CAP * src
    j = s[L.LEN + dst]
    if sweeps or freezes:
        # A run can complete only where an Ace comes to lie on top with its King
        # twelve cards below; then make the move in full (rare).
        top = _face(s, s[_u(sbase + length - 1)])
        king_at = j + length - i - 13  # height of the would-be King in dst after the move
        if top % 13 == 0 and king_at >= 0:
            if king_at >= j:
                king = s[_u(sbase + i + king_at - j)]
            else:
                king = s[_u(L.COLS + L.COL_CAP * dst + king_at)]
            if _face(s, king) == top + 12:
                return _keys_by_making(s, keys, code, scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc)
        if (
            i >= 13
            and _face(s, s[_u(sbase + i - 1)]) % 13 == 0
            and _face(s, s[_u(sbase + i - 13)]) == _face(s, s[_u(sbase + i - 1)]) + 12
        ):
            return _keys_by_making(s, keys, code, scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc)
    # O(1) in the block's size: the block leaves src with the hash sum below its
    # first card, and lands in dst multiplied by R^(j - i) (see the module docstring).
    pow_at = _u(L.MISC_POW + L.COL_CAP + j - i)  # where R^(j - i) is
    below_z1, below_z2 = keys[L.BELOW_Z + c], keys[L.BELOW_Z + L.NCARDS + c]
    hid = s[_u(L.HID + src)]
    ks, kd = _u(src), _u(dst)
    hd1 = keys[kd] + (keys[ks] - zh[0, _u(hid)] - below_z1) * misc[0, pow_at]
    hd2 = keys[NC + kd] + (keys[NC + ks] - zh[1, _u(hid)] - below_z2) * misc[1, pow_at]
    # src keeps the cards under c; its new top flips when all of them are face down
    # (branch-free: that is data the branch predictor cannot learn)
    hid -= np.int64((i > 0) & (hid == i))
    hs1 = zh[0, _u(hid)] + below_z1
    hs2 = zh[1, _u(hid)] + below_z2
    ss, ds = _u(_slot(s, src)), _u(_slot(s, dst))
    k1 = keys[L.KEY1] + (
        (_mix(hs1 + salt[0, ss]) - keys[L.MIXED + ks]) + (_mix(hd1 + salt[0, ds]) - keys[L.MIXED + kd])
    )
    k2 = keys[L.KEY2] + (
        (_mix(hs2 + salt[1, ss]) - keys[L.MIXED + NC + ks]) + (_mix(hd2 + salt[1, ds]) - keys[L.MIXED + NC + kd])
    )
    return k1, k2


# make_move is large, and each copy inlined costs seconds of compile: it is inlined once, in the
# search's inner loop, and everything else (the rare makes of child_keys, the line kernels, the
# shortest search, perft, the driver's calls from Python) calls this one compiled copy. The code is
# an int64 everywhere, so that it is compiled for one signature (a layout).


@nb.njit(**JIT)
def made_from(dst, dst_keys, s, keys, code, flags, tables):
    """dst / dst_keys = the position after ``code`` from s / keys (dst may be s: the move made in place)."""
    sweeps, freezes, _, _ = _rules_of(flags)
    z, zh, salt, misc = tables
    if dst.ctypes.data != s.ctypes.data:
        _copy_into(dst, s)
        _copy_into(dst_keys, keys)
    make_move(dst, dst_keys, code, sweeps, freezes, z, zh, salt, misc)


@nb.njit(**JIT)
def _keys_by_making(s, keys, code, scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc):
    """child_keys by making the move in full on the scratch frame (its rare cases)."""
    L = layout(s)
    flags = sweeps * RULE_SWEEPS + freezes * RULE_FREEZES
    made_from(scratch, scratch_keys, s, keys, np.int64(code), flags, (z, zh, salt, misc))
    return scratch_keys[L.KEY1], scratch_keys[L.KEY2]


# ---------------------------------------------------------------------------
# deadlock detection (twin: deadlock.py, where the argument is written out)


@nb.njit(**ALLOC)
def can_become_top(s, can_top, sweeps, space_any, successor_above):
    """Fill can_top (52 booleans) as deadlock.can_become_top; return the space flag."""
    scratch = np.zeros(DEAD_SCRATCH, dtype=np.int8)
    return _can_become_top(s, can_top, scratch, sweeps, space_any, False, False, successor_above) == LFP_SPACE


LFP_NO_SPACE = 0
LFP_SPACE = 1
LFP_PASSES = 2  # stopped early: the deadlock test's answer is known to be "not deadlocked"


@nb.njit(**INLINE)
def _can_become_top(s, can_top, scratch, sweeps, space_any, stop_when_met, stop_at_space, successor_above):
    """can_become_top with caller-owned scratch (DEAD_SCRATCH int8), where it
    leaves per-card facts: scratch[:64] the F_* flags (0 off the table),
    scratch[64:128] the card directly under each card. Returns LFP_SPACE or
    LFP_NO_SPACE (the space flag), or LFP_PASSES.

    The same least fixed point as the twin, over per-card facts gathered
    first; a card found able to leave is not examined again. Written as flat
    loops: helper calls and tuple returns cost more here than the logic.

    With stop_when_met it also tracks the cards ``_deadlocked`` will require
    to become tops (face-down cards, and the successor of every card not on
    it) and stops with LFP_PASSES, can_top unfinished, once all of them are
    marked: can_top only grows, so the test's answer is then "not deadlocked".
    With stop_at_space it also stops with LFP_PASSES when the space flag is
    derived; the search asks for that only where it is known to mean "not
    deadlocked" (after a move took the last space: see ``_space_by_chains``).

    With successor_above a non-King card whose successor lies above it in
    its own column leaves only once a card from just above it up to the
    successor has left (``_successor_free``); a card waiting for that is
    kept in a mask and looked at again whenever the worklist runs dry. Then
    the test also requires every card not on its successor to leave
    (F_LEFT), which stop_when_met tracks too.
    """
    info = scratch[:64]
    under = scratch[64:128]
    for c in range(52):
        can_top[c] = False
        info[c] = 0
    space = False
    one = np.uint64(1)
    required = np.uint64(0)  # bit c: card c must become a top (stop_when_met only)
    required_left = np.uint64(0)  # bit c: card c must leave (successor_above and stop_when_met only)
    for col in range(7):
        length = s[LEN + col]
        base = COLS + COL_CAP * col
        if length == 0:
            space = True
            continue
        hid = s[HID + col]
        floor = s[FLOOR + col]
        # Branch-free: these facts are data the branch predictor cannot learn,
        # and a mispredicted branch costs more than the masks. The card read
        # above the top is a leftover, inside the state vector, and masked out.
        below = np.int64(-1)  # the card under y; -1 under the bottom card (then never read)
        for idx in range(length):
            y = np.int64(s[_u(base + idx)])
            ky = _u(y)  # a card on the table
            down = idx < hid
            queen_on = (idx + 1 < length) & (s[_u(base + idx + 1)] == y - 1)
            info[ky] = (
                F_ON_TABLE
                | (F_STUCK * (idx < floor))
                | (F_DOWN * down)
                | (F_BOTTOM * (idx == 0))
                | (F_QUEEN_ON * queen_on)
            )
            under[ky] = below
            off_successor = (y % 13 != 12) & (below != y + 1)
            required |= (np.uint64(down) << np.uint64(y)) | (np.uint64(off_successor) << np.uint64(y + 1))
            required_left |= np.uint64(off_successor and successor_above) << np.uint64(y)
            below = y
    for t in range(3):
        c = s[TAIL + t]
        if c >= 0 and c % 13 != 12:
            required |= one << np.uint64(c + 1)
    # Worklist: a card's leaving depends only on can_top of its successor, of
    # itself (face down, or a King to be swept) and on the space flag; so a
    # newly marked card t re-examines t and t - 1, and the space flag turning
    # on re-examines the Kings (every card under Wasp rules). The first marks
    # (column tops, tail cards) start it off the same way, plus the Kings (a
    # King with its Queen on it leaves by sweeping whatever else holds) and,
    # with a space, what the space flag re-examines.
    pending = scratch[2 * 64 :]  # at most 20 + 4 + 52 to start, 2 per marked card and 52 for the space flag
    n = 0
    for col in range(10):
        if col < 7:
            length = s[LEN + col]
            if length == 0:
                continue
            t = np.int64(s[COLS + COL_CAP * col + length - 1])
        else:
            t = np.int64(s[TAIL + col - 7])
            if t < 0:
                continue
        can_top[t] = True
        required &= ~(one << np.uint64(t))
        pending[n] = t
        n += 1
        if t % 13 != 0:
            pending[n] = t - 1
            n += 1
    if stop_when_met and required == 0 and required_left == 0:
        return LFP_PASSES
    for king in range(12, 52, 13):
        pending[n] = king
        n += 1
    if space and space_any == 1:
        for k in range(52):
            pending[n] = k
            n += 1
    blocked = np.uint64(0)  # bit y: y + 1 can become a top, but only above y in y's column (successor_above)
    while True:
        if n == 0 and blocked != 0:
            for y in range(52):
                if (blocked >> np.uint64(y)) & one:
                    if _successor_free(s, info, y):
                        blocked &= ~(one << np.uint64(y))
                        pending[n] = y
                        n += 1
        if n == 0:
            break
        while n > 0:
            n -= 1
            y = np.int64(pending[n])
            flags = info[y]
            if flags == 0 or (flags & (F_STUCK | F_LEFT)):
                continue
            if (flags & F_DOWN) and not can_top[y]:
                continue
            bottom = (flags & F_BOTTOM) != 0
            if y % 13 == 12:
                leaves = (sweeps and (can_top[y] or (flags & F_QUEEN_ON) != 0)) or (space and not bottom)
            else:
                leaves = can_top[y + 1] and (not successor_above or _successor_free(s, info, y))
                if successor_above and can_top[y + 1] and not leaves:
                    blocked |= one << np.uint64(y)
                leaves = leaves or (space_any == 1 and space and not bottom)
            if not leaves:
                continue
            info[y] = flags | F_LEFT
            if stop_when_met and required_left != 0:
                required_left &= ~(one << np.uint64(y))
                if required == 0 and required_left == 0:
                    return LFP_PASSES
            if bottom:
                if not space:
                    if stop_at_space:
                        return LFP_PASSES
                    space = True
                    for k in range(52):
                        if (k % 13 == 12 or space_any == 1) and info[k] and not (info[k] & F_LEFT):
                            pending[n] = k
                            n += 1
            else:
                x = np.int64(under[y])
                if not can_top[x]:
                    can_top[x] = True
                    if stop_when_met:
                        required &= ~(one << np.uint64(x))
                        if required == 0 and required_left == 0:
                            return LFP_PASSES
                    pending[n] = x
                    n += 1
                    if x % 13 != 0:
                        pending[n] = x - 1
                        n += 1
    return LFP_SPACE if space else LFP_NO_SPACE


@nb.njit(**INLINE)
def _successor_free(s, info, y):
    """The successor-above rule: may y's successor be a top somewhere y can lead onto it?

    Not when y + 1 lies above y in y's own column and none of the cards from
    just above y up to y + 1 has been found able to leave (F_LEFT). Why that
    is sound (the argument in full: ``deadlock``): y leads onto y + 1 only
    with y + 1 in another column (a group never lands on a card of its
    own); nothing lands between two cards of a column, y riding in a group
    carries y + 1 above it, and a sweep or freeze of a card between them
    would take y + 1 too (and then y could never reach it); so y + 1 leaves
    y's column only in a group led by one of those cards, whose leading the
    fixed point over-approximates."""
    t = y + 1
    col = s[LOCCOL + t]
    if col < 0 or col != s[LOCCOL + y]:
        return True
    lo = np.int64(s[LOCIDX + y])
    hi = np.int64(s[LOCIDX + t])
    if hi < lo:
        return True
    base = COLS + COL_CAP * np.int64(col)
    for h in range(lo + 1, hi + 1):
        if info[_u(s[_u(base + h)])] & F_LEFT:
            return True
    return False


@nb.njit(**INLINE)
def _lands_over_predecessor(s, code):
    """Does the group of move ``code`` (a build, made from s) hold the successor of a card of its
    destination column? Only such a build can make the successor-above rule fail where it passed."""
    c = np.int64(code // 8)
    dst = code % 8
    src = np.int64(s[LOCCOL + c])
    base = COLS + COL_CAP * src
    for k in range(np.int64(s[LOCIDX + c]), np.int64(s[LEN + src])):
        g = np.int64(s[_u(base + k)])
        if g % 13 != 0 and s[LOCCOL + g - 1] == dst:
            return True
    return False


CHAIN_STEPS = 12  # links followed from a column's bottom card before leaving it to the full test


@nb.njit(**INLINE)
def _space_by_chains(s, sweeps, successor_above):
    """Does the deadlock test surely derive "a column can become empty"?

    True when some column's bottom card is face up, not frozen, and can leave
    by the test's own rules, following the one chain of facts that decides
    it: a non-King bottom card b leaves when b + 1 can become a top; a card t
    can become a top when it is a column top or a tail card, or when the card
    y lying directly on it can leave, which (for a face-up, unfrozen
    non-King) is again "y + 1 can become a top"; with swept runs a King
    leaves when it is a top or has its Queen on it. Every link is a step the
    test itself takes, so a chain found here is a derivation of the test's
    least fixed point; a chain that meets anything else (a face-down or
    frozen card, a King otherwise, CHAIN_STEPS links) gives no answer. With
    successor_above a card whose successor lies above it in its own column
    ends the chain too (the test then wants more than the successor a top).

    Used after a move that took the last empty column (and changed nothing
    else the test reads): the parent passed the test with a space available,
    the move only freed the card it left, so once the space flag is derived
    again the child passes too. So the full test is skipped exactly when its
    answer is known to be "not deadlocked"; verdicts and node counts do not
    change. A chain costs a few loads per link, the full test a pass over
    every card on the table.
    """
    for col in range(7):
        length = s[LEN + col]
        if length == 0 or s[HID + col] > 0 or s[FLOOR + col] > 0:
            continue
        base = COLS + COL_CAP * col
        b = np.int64(s[base])
        if b % 13 == 12:
            if sweeps and (length == 1 or s[base + 1] == b - 1):
                return True
            continue
        t = b + 1
        if successor_above and s[LOCCOL + t] == col:
            continue
        for _ in range(CHAIN_STEPS):
            where = s[LOCCOL + t]
            if where < 0:
                if s[TAIL] == t or s[TAIL + 1] == t or s[TAIL + 2] == t:
                    return True
                break
            above = s[LOCIDX + t] + 1
            if above == s[LEN + where]:
                return True  # t is a top
            if above < s[HID + where] or above < s[FLOOR + where]:
                break
            y = np.int64(s[COLS + COL_CAP * where + above])
            if y % 13 == 12:
                if sweeps and (above + 1 == s[LEN + where] or s[COLS + COL_CAP * where + above + 1] == y - 1):
                    return True  # y leaves by sweeping: it is a top, or its Queen is on it
                break
            t = y + 1
            if successor_above and s[LOCCOL + t] == where and s[LOCIDX + t] > above:
                break
    return False


@nb.njit(**ALLOC)
def is_deadlocked(s, can_top, sweeps, space_any, successor_above):
    """True when the position is provably lost (twin of deadlock.is_deadlocked)."""
    scratch = np.zeros(DEAD_SCRATCH, dtype=np.int8)
    return _deadlocked(s, can_top, scratch, sweeps, space_any, np.bool_(False), successor_above)


@nb.njit(**JIT)
def _deadlocked(s, can_top, scratch, sweeps, space_any, took_last_space, successor_above):
    """is_deadlocked with caller-owned scratch (DEAD_SCRATCH int8).

    took_last_space: s comes from a move that took the last empty column
    (and froze nothing) from a position that passes; then deriving the space
    flag again settles the answer (see ``_space_by_chains``)."""
    if _can_become_top(s, can_top, scratch, sweeps, space_any, True, took_last_space, successor_above) == LFP_PASSES:
        return False
    info = scratch[:64]
    under = scratch[64:128]
    for y in range(52):
        flags = info[y]
        if flags == 0:
            continue  # tail cards are checked below; swept cards need nothing
        if flags & F_DOWN and not can_top[y]:
            return True  # a face-down card that can never be turned up
        if y % 13 == 12:
            continue
        if not (flags & F_BOTTOM) and under[y] == y + 1:
            continue  # already on its successor
        if can_top[y + 1] and (not successor_above or (flags & F_LEFT)):
            continue
        return True  # its successor can never again be a top (or, by the successor-above rule, it never leaves)
    for t in range(3):
        c = np.int64(s[TAIL + t])
        if c >= 0 and c % 13 != 12 and not can_top[c + 1]:
            return True
    return False


assert W_RESERVE == W_TAIL + 4  # _wide_deadlocked reads the tail and the reserve as one row
# int8 scratch of the wide deadlock test: can_leave, present, then the worklist (at most 3 + 8 + 104 to
# start, 3 a card marked a top, 104 when the space flag turns on, 104 a look at the blocked cards; 7 x 104
# is room for all of them with room to spare)
W_DEAD_SCRATCH = 2 * W_NUM_CARDS + 7 * W_NUM_CARDS


@nb.njit(**INLINE)
def _wide_successor_free(s, can_leave, col, idx, t):
    """The successor-above rule for one copy t of the successor of the card at (col, idx): may that
    card lead onto t? Not when t lies above it in its own column and no card from just above it up
    to t has been found able to leave (the argument: ``_successor_free``, which holds per copy: a
    sweep of a card between them takes t, and the card may still reach the other copy)."""
    L = layout(s)
    if s[L.LOCCOL + t] != col or s[L.LOCIDX + t] < idx:
        return True
    base = L.COLS + L.COL_CAP * np.int64(col)
    for h in range(idx + 1, np.int64(s[L.LOCIDX + t]) + 1):
        if can_leave[_u(s[_u(base + h)])]:
            return True
    return False


@nb.njit(**JIT)
def _card_bit(c):
    """Card c's bit in a pair of uint64 words (ids 0-63 in the first, 64-103 in the second): (word, bit)."""
    return c >> 6, np.uint64(1) << np.uint64(c & 63)


@nb.njit(**JIT)
def _wide_deadlocked(s, can_top, scratch, sweeps, space_any, successor_above, stop_when_met):
    """The deadlock test on a wide state (twin: ``deadlock.is_deadlocked``, whose docstring has the
    argument, for two copies of a face and for reserve cards): the least fixed point of can_top /
    can_leave over the cards on the table, found by a worklist (the one-deck ``_can_become_top``'s).

    A non-King card leaves when some copy of its successor is present, can become a top and (with
    successor_above) is not held above it in its own column; a King when it may be swept (a top,
    or its Queen on it) or a column can become empty. Lost when a face-down card never becomes a
    top, a non-King card not on a copy of its successor has no such copy that can become a top
    (or, with successor_above, never leaves), or a reserve King has no column that can become empty.
    It runs after every move of a two-deck search, where a build can newly fail the test (the
    other copy of the group's card lost the top it was counting on).

    With stop_when_met the requirements are gathered first (the face-down cards, the faces some
    copy of which must become a top, the cards that must leave, a column that must empty) as bit
    masks and cleared as the fixed point marks them; once none is left the answer is "not dead"
    and the fixed point stops unfinished (can_top only grows). Without it can_top is complete
    (the tests compare it with the twin's). can_top: W_NUM_CARDS booleans; scratch: W_DEAD_SCRATCH.
    """
    L = layout(s)
    can_leave = scratch[:W_NUM_CARDS]
    present = scratch[W_NUM_CARDS : 2 * W_NUM_CARDS]
    for c in range(W_NUM_CARDS):
        can_top[c] = False
        can_leave[c] = 0
        present[c] = 0
    zero = np.uint64(0)
    down0, down1 = zero, zero  # face-down cards, which must become tops
    leave0, leave1 = zero, zero  # cards off their successor, which must leave (successor_above)
    faces = zero  # bit f: some copy of face f must become a top
    space = False
    need_space = False
    for col in range(L.NCOLS):
        length = np.int64(s[L.LEN + col])
        base = L.COLS + L.COL_CAP * col
        if length == 0:
            space = True
            continue
        hid = np.int64(s[L.HID + col])
        below = np.int64(-1)
        for idx in range(length):
            c = np.int64(s[_u(base + idx)])
            present[c] = 1
            word, bit = _card_bit(c)
            if idx < hid:
                if word == 0:
                    down0 |= bit
                else:
                    down1 |= bit
            face = c % 52
            if face % 13 != 12 and (below < 0 or below % 52 != face + 1):
                faces |= np.uint64(1) << np.uint64(face + 1)
                if successor_above:
                    if word == 0:
                        leave0 |= bit
                    else:
                        leave1 |= bit
            below = c
    for t in range(L.NTAIL + L.NRES):  # the tail and the reserve slots lie next to each other
        c = np.int64(s[L.TAIL + t])
        if c >= 0:
            present[c] = 1
            face = c % 52
            if face % 13 != 12:
                faces |= np.uint64(1) << np.uint64(face + 1)
            elif t >= L.NTAIL:
                need_space = True  # a reserve King leaves only into an empty column
    if need_space and space:
        need_space = False
    # Worklist: a card's leaving depends on can_top of itself (face down, or a King to be swept) and
    # of the copies of its successor, on the space flag and (successor-above rule) on cards above it
    # leaving. So a card newly marked a top re-examines itself and both copies of its predecessor;
    # the space flag re-examines the Kings (every card under Wasp rules); a card waiting only for the
    # successor-above rule is kept in ``blocked`` and looked at again when the worklist runs dry.
    pending = scratch[2 * W_NUM_CARDS :]
    n = 0
    for col in range(L.NCOLS + L.NTAIL + L.NRES):  # the first tops: column tops, the tail, the reserve
        if col < L.NCOLS:
            length = np.int64(s[L.LEN + col])
            if length == 0:
                continue
            x = np.int64(s[_u(L.COLS + L.COL_CAP * col + length - 1)])
        else:
            x = np.int64(s[L.TAIL + col - L.NCOLS])
            if x < 0:
                continue
        can_top[x] = True
        word, bit = _card_bit(x)
        if word == 0:
            down0 &= ~bit
        else:
            down1 &= ~bit
        faces &= ~(np.uint64(1) << np.uint64(x % 52))
        pending[n] = x
        n += 1
        if x % 13 != 0:
            pending[n] = x % 52 - 1
            pending[n + 1] = x % 52 + 51
            n += 2
    for king in range(12, W_NUM_CARDS, 13):  # a King with its Queen on it leaves by sweeping
        pending[n] = king
        n += 1
    if space and space_any != 0:
        for k in range(W_NUM_CARDS):
            pending[n] = k
            n += 1
    blocked0, blocked1 = zero, zero
    while True:
        if stop_when_met and (down0 | down1 | leave0 | leave1 | faces) == zero and not need_space:
            return False
        if n == 0:
            if (blocked0 | blocked1) == zero:
                break
            for y in range(W_NUM_CARDS):  # look again at the cards waiting for the successor-above rule
                word, bit = _card_bit(y)
                if ((blocked0 if word == 0 else blocked1) & bit) != zero:
                    pending[n] = y
                    n += 1
            blocked0, blocked1 = zero, zero
            progress = False
        else:
            progress = True
        while n > 0:
            n -= 1
            y = np.int64(pending[n])
            col = np.int64(s[L.LOCCOL + y])
            if col < 0 or col >= L.NCOLS or can_leave[y]:
                continue  # off the table, in the tail or the reserve, or known already
            idx = np.int64(s[L.LOCIDX + y])
            if idx < s[L.FLOOR + col] or (idx < s[L.HID + col] and not can_top[y]):
                continue
            base = L.COLS + L.COL_CAP * col
            face = y % 52
            if face % 13 == 12:
                queen_on = idx + 1 < s[L.LEN + col] and np.int64(s[_u(base + idx + 1)]) % 52 == face - 1
                leaves = (sweeps != 0 and (can_top[y] or queen_on)) or (space and idx > 0)
            else:
                leaves = space_any != 0 and space and idx > 0
                waiting = False
                for t in (face + 1, face + 53):
                    if not leaves and present[t] and can_top[t]:
                        if not successor_above or _wide_successor_free(s, can_leave, col, idx, t):
                            leaves = True
                        else:
                            waiting = True
                if waiting and not leaves:
                    word, bit = _card_bit(y)
                    if word == 0:
                        blocked0 |= bit
                    else:
                        blocked1 |= bit
            if not leaves:
                continue
            progress = True
            can_leave[y] = 1
            word, bit = _card_bit(y)
            if word == 0:
                leave0 &= ~bit
            else:
                leave1 &= ~bit
            if idx > 0:
                x = np.int64(s[_u(base + idx - 1)])
                if not can_top[x]:
                    can_top[x] = True
                    word, bit = _card_bit(x)
                    if word == 0:
                        down0 &= ~bit
                    else:
                        down1 &= ~bit
                    faces &= ~(np.uint64(1) << np.uint64(x % 52))
                    pending[n] = x
                    n += 1
                    if x % 13 != 0:
                        pending[n] = x % 52 - 1
                        pending[n + 1] = x % 52 + 51
                        n += 2
            elif not space:
                space = True
                need_space = False
                for k in range(W_NUM_CARDS):
                    if (k % 13 == 12 or space_any != 0) and not can_leave[k]:
                        pending[n] = k
                        n += 1
        if not progress:
            break
    for col in range(L.NCOLS):
        length = np.int64(s[L.LEN + col])
        base = L.COLS + L.COL_CAP * col
        hid = np.int64(s[L.HID + col])
        for idx in range(length):
            c = np.int64(s[_u(base + idx)])
            if idx < hid and not can_top[c]:
                return True  # a face-down card that can never be turned up
            face = c % 52
            if face % 13 == 12:
                continue
            if idx > 0 and np.int64(s[_u(base + idx - 1)]) % 52 == face + 1:
                continue  # already on a copy of its successor
            if (can_top[face + 1] or can_top[face + 53]) and (not successor_above or can_leave[c]):
                continue
            return True
    for t in range(L.NTAIL + L.NRES):
        c = np.int64(s[L.TAIL + t])
        if c < 0:
            continue
        face = c % 52
        if face % 13 != 12:
            if not (can_top[face + 1] or can_top[face + 53]):
                return True
        elif t >= L.NTAIL and not space:
            return True  # a reserve King leaves only into an empty column
    return False


@nb.njit(**ALLOC)
def wide_is_deadlocked(s, sweeps, space_any, successor_above):
    """``_wide_deadlocked`` with its own scratch, for the tests: its answer as the search gets it (with
    the early stop), its answer and can_top in full (without)."""
    can_top = np.zeros(W_NUM_CARDS, dtype=np.bool_)
    scratch = np.zeros(W_DEAD_SCRATCH, dtype=np.int8)
    early = _wide_deadlocked(s, can_top, scratch, sweeps, space_any, successor_above, np.bool_(True))
    dead = _wide_deadlocked(s, can_top, scratch, sweeps, space_any, successor_above, np.bool_(False))
    return early, dead, can_top


@nb.njit(**ALLOC)
def wide_root_dead(s, sweeps, space_any, successor_above):
    """``_wide_deadlocked`` on a wide root (with the early stop), for ``search.solve``: the test a
    ten-column solve runs before searching, which in plain Python cost two thirds of a Three Blind
    Mice solve that a won line or the test itself settles at once."""
    can_top = np.zeros(W_NUM_CARDS, dtype=np.bool_)
    scratch = np.zeros(W_DEAD_SCRATCH, dtype=np.int8)
    return _wide_deadlocked(s, can_top, scratch, sweeps, space_any, successor_above, np.bool_(True))


# ---------------------------------------------------------------------------
# safe leads (twin: search_twin.safe_lead, where the rule is tested on winning lines)


@nb.njit(**INLINE)
def _safe_lead(s, code):
    """Is ``code`` a safe lead: a move that may be played first, before any other?

    Asked only once the tail is dealt, with King-only spaces (not Wasp) and
    without frozen runs (not classic: there a run completed earlier than on
    the winning line, for instance once c's group no longer covers an Ace,
    freezes what lies under it for good; found on deal 37's solution).
    A safe lead is a non-King card c moving onto its successor c + 1 (in
    column Y, from column X) where, with "run" meaning cards each lying on
    its successor:

    (A) c leads a run c, c - 1, ..., t to the top of X, and t is an Ace or
        c lies on a run (possibly of one card) going down to t - 1; or
    (B) c + 1 lies on a run c + 2, ..., l down Y, under which lie only cards
        that never move (face down or frozen) or nothing, and l is a King or
        c lies directly on l + 1.

    Why such a move a may be played first. Every win from here contains a:
    a non-King card is swept (or ends in a complete run) only lying on its
    successor, and gets there only by leading onto it, once. Take a win
    w = w1 a w2 with a not in w1. Until a is played: a card lying on its
    successor never leads; c's group (in A) keeps its top t, as nothing
    lands on an Ace, and t - 1 stays in X under c (the cards between them
    lie on their successors, so none of them leads) and can lead only onto
    t, in its own column; in (B) the cards from l up to c + 1 never leave Y
    except as l's group, which lands only in an empty column (l a King) or
    on l + 1, which cannot become a top while c lies on it. (A card under c
    that some other card separates from c could: so the cards between must
    lie on their successors.) (1) So a stays legal all through w1: c stays face
    up, c + 1 stays a top (only c lands on it), and a group holding c + 1
    never lands on the top of c's column (that would need t - 1 to lead,
    in A, or a card under c + 1 to lead onto X, in B), so c + 1 never lies
    above c. (2) Each move b of w1, played after a, is still legal and gives
    the position b then a gives: b = d onto d + 1 could fail after a only if
    d + 1 were the top of c's group and d lay under c + 1 (the group would
    land on d's own column), the case just excluded; a King's move into a
    space still has its space (a fills none) and its King is not at a
    column's bottom; each move changes the card under one card only, so the
    two orders give the same columns, flips and sweeps (empty columns are
    interchangeable once the tail is dealt). The one exception: a completes
    its suit's run, which is swept, and b moves a card of it (the King into
    a space) or carries it; then a alone, or b with fewer riders, gives what
    b then a gives. So a w1' w2 (w1' = w1 without moves of cards a swept)
    is a win too, no longer than w. (A run that a's leaving lets complete
    earlier on the way, say on the card under c, is likewise swept earlier,
    which only turns up a card and frees a column sooner.) By induction on the length of a
    shortest win, a search that expands only a(s) at a position s with a
    safe lead finds a win whenever one exists (a position's children depend
    on the position alone, so the transposition table does not break this).
    """
    if code == TAIL_CODE:
        return False
    c = np.int64(code // 8)
    if c % 13 == 12:
        return False  # a King into a space
    dst = code % 8
    src = s[LOCCOL + c]
    i = np.int64(s[LOCIDX + c])
    xbase = COLS + COL_CAP * src
    top = np.int64(s[LEN + src]) - 1
    group_run = True  # c's group is a run c, c - 1, ..., t
    for k in range(i + 1, top + 1):
        if s[xbase + k] != c - (k - i):
            group_run = False
            break
    t = c - (top - i)
    ybase = COLS + COL_CAP * dst
    h = np.int64(s[LEN + dst]) - 1  # c + 1 (the move is legal)
    while h > 0 and s[ybase + h - 1] == s[ybase + h] + 1:
        h -= 1
    low = np.int64(s[ybase + h])  # c + 1 lies on a run down to low, at height h
    if group_run:
        if t % 13 == 0:
            return True  # (A), down to an Ace
        # (A), t - 1 under c with a run from it up to the card c lies on
        g = i - 1
        while g > 0 and s[xbase + g - 1] == s[xbase + g] + 1:
            g -= 1
        if s[LOCCOL + t - 1] == src and s[LOCIDX + t - 1] >= g and s[LOCIDX + t - 1] < i:
            return True
    if h > s[HID + dst] and h > s[FLOOR + dst]:
        return False  # a card that may still move lies under the run
    if low % 13 == 12:
        return True  # (B), down to a King
    return i > 0 and s[xbase + i - 1] == low + 1  # (B), c lies on low + 1


# ---------------------------------------------------------------------------
# transposition table


@intrinsic
def _prefetch(typingctx, table, i):
    """Ask the CPU to start loading table[i] (a 1-D array) into cache (x86 prefetcht0).

    Only a hint: it changes no value, so a wrong address merely wastes it.
    numba has no prefetch of its own; this emits LLVM's ``llvm.prefetch``
    (a read prefetch into all cache levels).
    """

    def codegen(context, builder, sig, args):
        arrty = sig.args[0]
        arr = context.make_array(arrty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, arrty, arr, [args[1]], wraparound=False)
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), (ptr.type, i32, i32, i32))
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, (ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)))
        return context.get_dummy_value()

    return nb.types.void(table, i), codegen


@nb.njit(**JIT)
def _home(table, k1):
    """Where in the flat table (see _probe_insert) the entry of first key k1 is looked for first:
    2 * (k1 mod capacity)."""
    return (k1 << _ONE) & np.uint64(table.shape[0] - 1)


@nb.njit(**INLINE)
def _probe_insert(table, k1, k2):
    """Insert (k1, k2) unless present; return True when it was already there.

    ``table`` is the flat view (``reshape(2 * capacity)``) of a uint64 array
    of shape (capacity, 2), capacity a power of two; entry i is a position's
    two keys side by side at 2i and 2i + 1 (one cache line holds both), an
    empty slot has 0 as its second key (stored second keys have their low
    bit forced to 1). Open addressing with linear probing from ``k1 mod
    capacity``. Entries are never removed: an entry means "this position has
    been reached; do not expand it again". (Flat because numba indexes a 2-D
    array through its run-time row length, a multiply on every probe.)
    """
    k2 = k2 | np.uint64(1)
    i = _home(table, k1)
    step = np.uint64(2)
    wrap = np.uint64(table.shape[0] - 1)
    zero = np.uint64(0)
    while True:
        b = table[i + _ONE]
        if b == zero:
            table[i] = k1
            table[i + _ONE] = k2
            return False
        if b == k2 and table[i] == k1:
            return True
        i = (i + step) & wrap


@nb.njit(**JIT)
def rehash(old, new):
    """Move every entry of the old table into the (larger, empty) new one."""
    zero = np.uint64(0)
    flat = new.reshape(new.size)
    for i in range(old.shape[0]):
        if old[i, 1] != zero:
            _probe_insert(flat, old[i, 0], old[i, 1])


# ---------------------------------------------------------------------------
# search


@nb.njit(**INLINE)
def _copy_frame(states, keys, sp):
    """states[sp + 1] = states[sp], keys likewise, one memcpy per row (see _copy_into).

    A straight copy of the whole frame: one contiguous copy is cheaper than
    restoring the scattered bytes a move changed.
    """
    _copy_into(states[sp + 1], states[sp])
    _copy_into(keys[sp + 1], keys[sp])


@nb.njit(**INLINE)
def _probe_rest(table, moves, nmoves, counters, found_keys, level, start, n):
    """Insert the children start..n-1 of the node at ``level`` and keep the new ones.

    Their keys are in that level's half of found_keys (see ``_expand``).
    """
    base = (level & 1) * MAX_MOVES
    kept = nmoves[level]
    row = moves[level]
    for j in range(start, n):
        new = not _probe_insert(table, found_keys[2 * (base + j)], found_keys[2 * (base + j) + 1])
        row[kept] = row[j]  # branch-free keep (kept <= j)
        kept += np.int64(new)
    counters[C_NODES] += kept - nmoves[level]
    counters[C_ENTRIES] += kept - nmoves[level]
    nmoves[level] = kept


@nb.njit(**INLINE)
def _expand(
    states,
    keys,
    moves,
    nmoves,
    midx,
    table,
    counters,
    sp,
    found_keys,
    pend_level,
    pend_from,
    pend_n,
    flags,
    tables,
):
    """Generate the moves of states[sp] and keep those leading to positions not seen yet.

    First every child's keys (``child_keys``, no move is made), then each
    child is inserted in the table and kept if it was not there: two loops,
    because a table probe that misses the cache would otherwise stall the key
    work behind it. Each child's table slot is prefetched as soon as its key
    is known, so the cache misses of the probes overlap the key work. A
    child is a node the moment it is inserted, and it stays pending on the
    stack until it is expanded, so no inserted position goes unexplored.

    Deferred probes: the probe loop stops at the first new child, which the
    search pops next; the children after it are probed later (returned as
    the pending level, first index and count), at the latest here in the
    next expansion, between its key loop and its own probes. By then their
    table rows have long arrived (probed at once, the last children would
    make the probe loop wait for their prefetched rows), and the table sees
    exactly the same inserts in the same order as without deferring: the
    pending children go in before any grandchild is probed. The search resolves
    them itself wherever the table or the counts are read before that.
    """
    sweeps, freezes, space_any, tail_when_stuck = _rules_of(flags)
    z, zh, salt, misc = tables
    s = states[sp]
    s_keys = keys[sp]
    out = moves[sp]
    n = generate_moves(s, out, space_any, tail_when_stuck, sweeps)
    _wide_order(s, out, n, flags)
    # (the safe-lead proof is a one-deck proof: off for the wide layout, docs/design.md)
    if not layout(s).WIDE and (flags & PRUNE_SAFE_LEADS) and s[DEALT] == 1 and space_any == 0 and freezes == 0:
        for j in range(n):
            if _safe_lead(s, out[j]):
                out[0] = out[j]  # the first safe lead in move order is the only child
                n = 1
                counters[C_SAFE] += 1
                break
    scratch = states[sp + 1]
    scratch_keys = keys[sp + 1]
    base = (sp & 1) * MAX_MOVES  # this level's half of found_keys: the parent's pending keys are in the other
    for j in range(n):
        k1, k2 = child_keys(s, s_keys, out[j], scratch, scratch_keys, sweeps, freezes, z, zh, salt, misc)
        found_keys[2 * (base + j)] = k1
        found_keys[2 * (base + j) + 1] = k2
        _prefetch(table, _home(table, k1))
    # The first child popped next starts from a copy of this frame: made here,
    # it overlaps the probes' cache misses (the scratch use above is over).
    _copy_frame(states, keys, sp)
    if pend_level >= 0:
        _probe_rest(table, moves, nmoves, counters, found_keys, pend_level, pend_from, pend_n)
    counters[C_MAKES] += n
    nmoves[sp] = 0
    midx[sp] = 0
    for j in range(n):
        if _probe_insert(table, found_keys[2 * (base + j)], found_keys[2 * (base + j) + 1]):
            continue
        out[0] = out[j]
        nmoves[sp] = 1
        counters[C_NODES] += 1
        counters[C_ENTRIES] += 1
        if j + 1 < n:
            return sp, j + 1, n
        break
    return -1, 0, 0


@nb.njit(**JIT)
def _decide_root(s, counters, can_top, dead_scratch, flags, out_of_bound):
    """The root step of ``search``, ``shortest_search`` and ``screen_roots``: the root counts as a
    node; S_WON if it is won, S_LOST if ``out_of_bound`` (the shortest search's cost bound rules
    it out) or the deadlock test (with PRUNE_DEADLOCK) proves it lost, else 0."""
    sweeps, _, space_any, _ = _rules_of(flags)
    counters[C_NODES] = 1
    counters[C_ENTRIES] = 1
    if _is_won(s, sweeps):
        counters[C_SP] = 0
        return S_WON
    if out_of_bound:
        counters[C_SP] = 0
        return S_LOST
    if not layout(s).WIDE and flags & PRUNE_DEADLOCK:  # a one-deck proof: off for the wide layout
        counters[C_CHECKS] += 1
        # np.bool_: a plain False would be typed as the literal False, a second compile of _deadlocked
        no_space_taken = np.bool_(False)
        if _deadlocked(
            s, can_top, dead_scratch, sweeps, space_any, no_space_taken, (flags & PRUNE_SUCCESSOR_ABOVE) != 0
        ):
            counters[C_PRUNES] += 1
            counters[C_DEAD_ROOT] = 1
            counters[C_SP] = 0
            return S_LOST
    return 0


@nb.njit(**JIT)
def _move_list(s, out, flags):
    """generate_moves under ``flags``: its one compiled copy off the search's hot path (the search
    inlines its own), for the shortest search, perft and the line kernels."""
    sweeps, _, space_any, tail_when_stuck = _rules_of(flags)
    return generate_moves(s, out, space_any, tail_when_stuck, sweeps)


@nb.njit(**INLINE)
def _list_moves(states, moves, nmoves, midx, sp, flags):
    """Ply sp's moves: generated into moves[sp], none tried yet."""
    nmoves[sp] = _move_list(states[sp], moves[sp], flags)
    midx[sp] = 0


@nb.njit(**INLINE)
def _limit_status(counters, sp, depth_cap, entries_ahead, max_entries, node_limit):
    """The request a resumable search returns before going on from ply sp, or 0: S_DEEPER when the
    stack is full, S_GROW when ``entries_ahead`` more entries would pass max_entries, S_NODES at
    node_limit (then counters[C_SP] = sp, where the next call resumes)."""
    status = 0
    if sp + 2 >= depth_cap:
        status = S_DEEPER
    elif counters[C_ENTRIES] + entries_ahead > max_entries:
        status = S_GROW
    elif counters[C_NODES] >= node_limit:
        status = S_NODES
    if status:
        counters[C_SP] = sp
    return status


@nb.njit(**INLINE)
def _deadlock_cut(parent, child, code, flags, counters, can_top, dead_scratch):
    """Whether the deadlock test prunes ``child``, reached from ``parent`` by the move ``code``.

    With PRUNE_DEADLOCK the test runs where it can newly fail, the parent
    having passed it: after the tail deal, a freeze, the last space taken
    by a move that left cards behind, and (with PRUNE_SUCCESSOR_ABOVE) a
    build onto a column holding a predecessor of a card of its group
    (``_lands_over_predecessor``); with PRUNE_EVERY_MOVE after every move.
    After the last space was taken, a column that can plainly empty again
    (``_space_by_chains``) passes without the full test. In the wide layout
    the test (``_wide_deadlocked``) runs after every move. Counts the tests
    run (C_CHECKS) and the prunes (C_PRUNES). Twin: ``deadlock.needs_deadlock_check``
    then ``deadlock.is_deadlocked``.
    """
    if not (flags & PRUNE_DEADLOCK):
        return False
    sweeps, _, space_any, _ = _rules_of(flags)
    successor_above = (flags & PRUNE_SUCCESSOR_ABOVE) != 0
    if layout(parent).WIDE:  # after every move: which moves cannot newly fail is a one-deck argument
        counters[C_CHECKS] += 1
        if _wide_cut(child, can_top, dead_scratch, sweeps, space_any, successor_above):
            counters[C_PRUNES] += 1
            return True
        return False
    check = False
    took_last_space = False
    if code == TAIL_CODE or (flags & PRUNE_EVERY_MOVE):
        check = True
    else:
        dst = code % 8
        if child[FROZEN] != parent[FROZEN]:
            check = True
        elif successor_above and _lands_over_predecessor(parent, code):
            check = True
        elif parent[LEN + dst] == 0 and parent[LOCIDX + code // 8] > 0:
            # into a space, leaving cards behind; only worse when it took the last space
            took_last_space = True
            for col in range(7):
                if child[LEN + col] == 0:
                    took_last_space = False
                    break
            check = took_last_space
    if not check:
        return False
    counters[C_CHECKS] += 1
    if took_last_space and _space_by_chains(child, sweeps, successor_above):
        return False  # took the last space, but a column can plainly empty again: passes
    if _deadlocked(child, can_top, dead_scratch, sweeps, space_any, took_last_space, successor_above):
        counters[C_PRUNES] += 1
        return True
    return False


@nb.njit(**INLINE)
def _deeper(counters, sp):
    """Ply sp + 1 becomes the top of the stack: sp + 1, with the deepest ply counted."""
    sp += 1
    if sp > counters[C_MAXDEPTH]:
        counters[C_MAXDEPTH] = sp
    return sp


@nb.njit(**JIT)
def search(
    states,
    keys,
    moves,
    nmoves,
    midx,
    table,
    counters,
    node_limit,
    max_entries,
    flags,
    tables,
    can_top,
    found_keys,
    dead_scratch,
):
    """Depth-first search for a win from states[0]; resumable.

    Preconditions: states[0] / keys[0] hold the root with correct keys; the
    table has room for max_entries entries (the caller keeps its load low);
    can_top (52 bool), found_keys (2 * MAX_MOVES x 2 uint64) and dead_scratch
    (DEAD_SCRATCH int8) are scratch space (the kernel allocates nothing).
    On the first call counters[C_SP] is -1: the kernel inserts the root and
    starts. It returns a status code: S_WON (the path is moves[d, midx[d]-1]
    for d < counters[C_SP]), S_LOST (every position reachable from the root
    was visited or pruned by a sound rule), or a request to be called again
    after the caller has acted: S_NODES (counters[C_NODES] reached
    node_limit), S_GROW (the table would pass max_entries; give a bigger one),
    S_DEEPER (the stack is full; give a bigger one). Nothing is lost between
    calls. The limits are checked before each expansion, so a search may pass
    node_limit by less than MAX_MOVES nodes.

    ``flags`` holds the rules and the switches of the sound reductions
    (the bit layout is in the module docstring): PRUNE_DEADLOCK (children
    that fail the deadlock test are not expanded, ``_deadlock_cut``) and
    PRUNE_SAFE_LEADS (a position with a safe lead, ``_safe_lead``, has that
    one child). ``tables`` is ``KEY_TABLES``.

    A position is a node when it is inserted in the table, which happens when
    its parent is expanded; a position found in the table is never inserted
    or expanded again: in a one-player search, had it led to a win the search
    would already have stopped (or will, from where it is pending).
    """
    depth_cap = states.shape[0]
    sweeps, freezes, _, _ = _rules_of(flags)
    z, zh, salt, misc = tables
    flat = table.reshape(table.size)  # flat views: see _probe_insert
    flat_keys = found_keys.reshape(found_keys.size)
    sp = counters[C_SP]
    if sp < 0:
        L = layout(states)
        _probe_insert(flat, keys[0, L.KEY1], keys[0, L.KEY2])
        decided = _decide_root(states[0], counters, can_top, dead_scratch, flags, False)
        if decided:
            return decided
        sp = 0
        expand = True
    else:
        expand = False
    fresh = False
    pend_level, pend_from, pend_n = -1, 0, 0  # children not yet probed (see _expand)
    while True:
        if expand:  # one call site: the inlined expansion is compiled once
            pend_level, pend_from, pend_n = _expand(
                states,
                keys,
                moves,
                nmoves,
                midx,
                flat,
                counters,
                sp,
                flat_keys,
                pend_level,
                pend_from,
                pend_n,
                flags,
                tables,
            )
            expand = False
            fresh = True  # states[sp + 1] / keys[sp + 1] hold a copy of the frame at sp
        if pend_level >= 0:
            # Probe the pending children now unless the next step is popping the
            # first new child of the node just expanded, and the limits below
            # cannot be reached even if every pending child is new.
            waiting = pend_n - pend_from
            if (
                not fresh
                or sp + 2 >= depth_cap
                or counters[C_ENTRIES] + waiting + MAX_MOVES > max_entries
                or counters[C_NODES] + waiting >= node_limit
            ):
                _probe_rest(flat, moves, nmoves, counters, flat_keys, pend_level, pend_from, pend_n)
                pend_level = -1
        if midx[sp] == nmoves[sp]:
            sp -= 1
            fresh = False
            if sp < 0:
                counters[C_SP] = 0
                return S_LOST
            continue
        stop = _limit_status(counters, sp, depth_cap, MAX_MOVES, max_entries, node_limit)
        if stop:
            return stop
        code = moves[sp, midx[sp]]
        midx[sp] += 1
        if not fresh:
            _copy_frame(states, keys, sp)
        fresh = False
        child = states[sp + 1]
        make_move(child, keys[sp + 1], code, sweeps, freezes, z, zh, salt, misc)
        if _is_won(child, sweeps):
            if pend_level >= 0:  # for exact counts
                _probe_rest(flat, moves, nmoves, counters, flat_keys, pend_level, pend_from, pend_n)
            counters[C_SP] = sp + 1
            return S_WON
        if _deadlock_cut(states[sp], child, code, flags, counters, can_top, dead_scratch):
            continue
        sp = _deeper(counters, sp)
        expand = True


# ---------------------------------------------------------------------------
# perft


@nb.njit(**JIT)
def perft(states, keys, moves, nmoves, midx, depth, flags, tables):
    """Number of move sequences of length depth from states[0] (twin: engine.perft)."""
    if depth == 0:
        return 1
    total = 0
    _list_moves(states, moves, nmoves, midx, 0, flags)
    sp = 0
    while sp >= 0:
        if sp == depth - 1:
            total += nmoves[sp]
            sp -= 1
            continue
        if midx[sp] == nmoves[sp]:
            sp -= 1
            continue
        code = moves[sp, midx[sp]]
        midx[sp] += 1
        made_from(states[sp + 1], keys[sp + 1], states[sp], keys[sp], np.int64(code), flags, tables)
        sp += 1
        _list_moves(states, moves, nmoves, midx, sp, flags)
    return total


# ---------------------------------------------------------------------------
# shortest solutions (twin: shortest.py, where the argument is written out)
#
# A move's *extra cost* (``move_cost``): 1 for a King-led move and for a
# move led by a card that started in the tail; 0 for the tail deal and for
# a non-King card of the table leading onto its successor; a non-King card
# of the table leading into a space costs 2 when it left its successor, 1
# otherwise (only where any card may enter a space). Every win then has
# length ``fixed + extra`` with ``fixed`` set by the root alone, so the
# shortest win is the one of least extra cost: ``shortest_search`` looks for
# a win of extra cost at most ``bound``, depth first, with a table that
# remembers the least extra cost each position was reached with. Table rows
# are (key 1, key 2, cost) in a flat uint64 array of 3 * capacity entries.


@nb.njit(**INLINE)
def move_cost(s, code, is_tail_card):
    """The extra cost of the move ``code`` from state s (see above)."""
    if code == TAIL_CODE:
        return 0
    c = code // 8
    if c % 13 == 12 or is_tail_card[c]:
        return 1
    dst = code % 8
    if s[LEN + dst] > 0:
        return 0
    src = s[LOCCOL + c]
    i = s[LOCIDX + c]
    if i > 0 and s[COLS + COL_CAP * src + i - 1] == c + 1:
        return 2
    return 1


@nb.njit(**INLINE)
def cost_to_go(s, sweeps, is_tail_card):
    """A lower bound on the extra cost still to pay: the Kings that must still
    lead and the tail cards that must still lead (the argument is in its twin,
    ``shortest.cost_to_go``)."""
    n = 0
    for king in range(12, 52, 13):
        col = s[LOCCOL + king]
        if col < 0:
            continue
        i = s[LOCIDX + king]
        if i == 0:
            continue
        under = s[COLS + COL_CAP * col + i - 1]
        if under // 13 == king // 13 or (not sweeps and under % 13 != 0):
            n += 1
    if s[DEALT] == 1:
        for c in range(52):
            if is_tail_card[c] and c % 13 != 12:
                col = s[LOCCOL + c]
                if col < 0:
                    continue
                i = s[LOCIDX + c]
                if i == 0 or s[COLS + COL_CAP * col + i - 1] != c + 1:
                    n += 1
    return n


@nb.njit(**INLINE)
def _probe_cost(table, k1, k2, g):
    """Record that the position (k1, k2) was reached with extra cost g.

    Returns 0 when it was already recorded with a cost <= g (nothing to do),
    1 when a higher cost was lowered to g, 2 when the position is new.
    """
    k2 = k2 | np.uint64(1)
    cap = np.uint64(table.shape[0] // 3)
    i = (k1 & (cap - _ONE)) * np.uint64(3)
    wrap = cap * np.uint64(3)
    zero = np.uint64(0)
    gu = np.uint64(g)
    while True:
        b = table[i + _ONE]
        if b == zero:
            table[i] = k1
            table[i + _ONE] = k2
            table[i + np.uint64(2)] = gu
            return 2
        if b == k2 and table[i] == k1:
            if table[i + np.uint64(2)] <= gu:
                return 0
            table[i + np.uint64(2)] = gu
            return 1
        i += np.uint64(3)
        if i >= wrap:
            i = zero


@nb.njit(**JIT)
def rehash_costs(old, new):
    """Move every row of the old cost table into the (larger, empty) new one."""
    zero = np.uint64(0)
    for i in range(0, old.shape[0], 3):
        if old[i + 1] != zero:
            _probe_cost(new, old[i], old[i + 1], np.int64(old[i + 2]))


@nb.njit(**JIT)
def shortest_search(
    states,
    keys,
    moves,
    nmoves,
    midx,
    costs,
    table,
    counters,
    node_limit,
    max_entries,
    bound,
    is_tail_card,
    flags,
    tables,
    can_top,
    dead_scratch,
):
    """Depth-first search for a win of extra cost at most ``bound`` from states[0]; resumable.

    The same calling convention and status codes as ``search`` (costs[d] is
    the extra cost of the path to depth d). A child is searched only when its
    cost plus ``cost_to_go`` stays within the bound and the table has not
    seen it with a cost as low or lower; a position reached again more cheaply
    is searched again. So every position of least cost g <= bound is expanded
    with cost g, and S_LOST means: no win of extra cost <= bound. The deadlock
    test (with PRUNE_DEADLOCK) runs where ``search`` runs it, by the same
    ``_deadlock_cut`` (root, tail deal, freeze, last space), but as the plain
    test: of ``flags``' reductions only PRUNE_DEADLOCK is kept here, as in the
    twin ``shortest.bounded_search`` (without the successor-above rule).
    """
    depth_cap = states.shape[0]
    flags &= ~(PRUNE_BITS ^ PRUNE_DEADLOCK)
    sweeps, _, _, _ = _rules_of(flags)
    sp = counters[C_SP]
    if sp < 0:
        _probe_cost(table, keys[0, KEY1], keys[0, KEY2], 0)
        out_of_bound = cost_to_go(states[0], sweeps, is_tail_card) > bound
        decided = _decide_root(states[0], counters, can_top, dead_scratch, flags, out_of_bound)
        if decided:
            return decided
        costs[0] = 0
        _list_moves(states, moves, nmoves, midx, 0, flags)
        sp = 0
    while True:
        if midx[sp] == nmoves[sp]:
            sp -= 1
            if sp < 0:
                counters[C_SP] = 0
                return S_LOST
            continue
        stop = _limit_status(counters, sp, depth_cap, 1, max_entries, node_limit)
        if stop:
            return stop
        code = moves[sp, midx[sp]]
        midx[sp] += 1
        g = costs[sp] + move_cost(states[sp], code, is_tail_card)
        if g > bound:
            continue
        counters[C_MAKES] += 1
        child = states[sp + 1]
        made_from(child, keys[sp + 1], states[sp], keys[sp], np.int64(code), flags, tables)
        if _is_won(child, sweeps):
            counters[C_SP] = sp + 1
            return S_WON
        if g + cost_to_go(child, sweeps, is_tail_card) > bound:
            continue
        seen = _probe_cost(table, keys[sp + 1, KEY1], keys[sp + 1, KEY2], g)
        if seen == 0:
            continue
        counters[C_NODES] += 1
        if seen == 2:
            counters[C_ENTRIES] += 1
        if _deadlock_cut(states[sp], child, code, flags, counters, can_top, dead_scratch):
            continue
        sp = _deeper(counters, sp)
        costs[sp] = g
        _list_moves(states, moves, nmoves, midx, sp, flags)


# ---------------------------------------------------------------------------
# shortening a found line (twin: shortest.shorten_line)


@nb.njit(**INLINE)
def _line_index(sorted_k1, order, line_keys, k1, k2):
    """The last index j of the line whose position has keys (k1, k2), or -1."""
    lo = np.searchsorted(sorted_k1, k1)
    best = -1
    n = sorted_k1.shape[0]
    while lo < n and sorted_k1[lo] == k1:
        j = order[lo]
        if line_keys[j, 1] == k2 and j > best:
            best = j
        lo += 1
    return best


@nb.njit(**INLINE)
def _remap(orig, actual, code):
    """The move ``code`` of state orig, for the state actual equal to it up to the
    order of interchangeable columns: the same card onto the column that now holds
    the same top card, or into the leftmost interchangeable space."""
    L = layout(orig)
    if code == L.TAIL_CODE:
        return code
    if L.WIDE:
        return _remap_wide(orig, actual, code)
    c = code // L.MOVE_BASE
    dst = code % L.MOVE_BASE
    length = orig[L.LEN + dst]
    if length > 0:
        top = orig[L.COLS + L.COL_CAP * dst + length - 1]
        return c * L.MOVE_BASE + actual[L.LOCCOL + top]
    if actual[L.DEALT] == 0 and dst < L.NTAIL:
        return code
    for col in range(L.NCOLS):
        if actual[L.LEN + col] == 0 and (actual[L.DEALT] == 1 or col >= L.NTAIL):
            return c * L.MOVE_BASE + col
    return code


@nb.njit(**INLINE)
def _same_column(s, col, t, other):
    """Do column col of s and column other of t hold the same faces, with as many face down?"""
    L = layout(s)
    length = s[L.LEN + col]
    if t[L.LEN + other] != length or t[L.HID + other] != s[L.HID + col]:
        return False
    for i in range(length):
        if s[L.COLS + L.COL_CAP * col + i] % 52 != t[L.COLS + L.COL_CAP * other + i] % 52:
            return False
    return True


@nb.njit(**INLINE)
def _twin_column(orig, col, actual, skip):
    """The column of actual (not ``skip``) that holds what column col of orig holds, by faces: col itself
    when it is kept apart until the tail deal, else the first interchangeable one; -1 if none."""
    L = layout(orig)
    if actual[L.DEALT] == 0 and col < L.NTAIL:
        return col
    for other in range(L.NCOLS):
        if other != skip and (actual[L.DEALT] == 1 or other >= L.NTAIL) and _same_column(orig, col, actual, other):
            return other
    return -1


@nb.njit(**INLINE)
def _reveals_first(s, out, n):
    """Moves out[:n] of a wide state reordered, stably: first those whose group lies on a face-down card
    (twin: ``search_twin.search_order``). In place, by insertion: a node has a few dozen moves."""
    L = layout(s)
    k = 0
    for j in range(n):
        m = out[j]
        if m == L.TAIL_CODE:
            continue
        c = m // L.MOVE_BASE
        src = s[L.LOCCOL + c]
        if src == RESERVE_COLUMN:
            continue
        idx = s[L.LOCIDX + c]
        if idx > 0 and idx == s[L.HID + src]:
            for i in range(j, k, -1):
                out[i] = out[i - 1]
            out[k] = m
            k += 1


@nb.njit(**JIT)  # called, not inlined: inlined into _remap_wide's overload, numba's SSA check warned on its locals
def _remap_copies(orig, actual, code):
    """``_remap`` in the wide layout, where the line's positions are matched by keys that read faces: actual
    equals orig up to the order of interchangeable columns and the copies of each face. The move's group
    is found by its column's contents and height, its target column likewise."""
    L = layout(orig)
    c = code // L.MOVE_BASE
    dst = code % L.MOVE_BASE
    src = orig[L.LOCCOL + c]
    lead = c
    a = np.int64(-1)
    if src != RESERVE_COLUMN:
        a = _twin_column(orig, src, actual, -1)
        if a < 0:
            return code
        lead = actual[L.COLS + L.COL_CAP * a + orig[L.LOCIDX + c]]
    if orig[L.LEN + dst] > 0:
        b = _twin_column(orig, dst, actual, a)
        return lead * L.MOVE_BASE + (dst if b < 0 else b)
    if actual[L.DEALT] == 0 and dst < L.NTAIL:
        return lead * L.MOVE_BASE + dst
    for col in range(L.NCOLS):
        if actual[L.LEN + col] == 0 and (actual[L.DEALT] == 1 or col >= L.NTAIL):
            return lead * L.MOVE_BASE + col
    return code


# shorten_line is off the hot path (once a won line), and make_move, generate_moves and child_keys are
# large: inlined at each of its call sites (make_move at five) they made it the slowest kernel to
# compile, nearly half of the solver's compile from an empty cache. So it calls compiled helpers
# (made_from and those below), each compiled once.


@nb.njit(**JIT)
def _child_on_line(s, keys, code, scratch, scratch_k, sorted_k1, order, line_keys, flags, tables):
    """The last line index j whose position is the child of s by ``code`` (by its keys), or -1."""
    sweeps, freezes, _, _ = _rules_of(flags)
    z, zh, salt, misc = tables
    k1, k2 = child_keys(s, keys, code, scratch, scratch_k, sweeps, freezes, z, zh, salt, misc)
    return _line_index(sorted_k1, order, line_keys, k1, k2)


@nb.njit(**JIT)
def _furthest_grandchild(
    s, keys, code, child, child_k, moves, scratch, scratch_k, sorted_k1, order, line_keys, flags, tables
):
    """(j, b): the furthest line index j of a position two moves from s, ``code`` then b, and the first b
    that reaches it; (-1, -1) when none is on the line or ``code`` wins."""
    sweeps, _, _, _ = _rules_of(flags)
    made_from(child, child_k, s, keys, code, flags, tables)
    best_j, best_b = np.int64(-1), np.int64(-1)
    if _is_won(child, sweeps):
        return best_j, best_b
    n = _move_list(child, moves, flags)
    for b in range(n):
        j = _child_on_line(child, child_k, moves[b], scratch, scratch_k, sorted_k1, order, line_keys, flags, tables)
        if j > best_j:
            best_j, best_b = j, np.int64(moves[b])
    return best_j, best_b


@nb.njit(**ALLOC)
def shorten_line(root, root_keys, codes, out, two_moves, flags, tables):
    """Shorten the winning line ``codes`` from root; write it to out, return its length.

    Along the line, from each position P_i kept, look among the positions one
    move (and with two_moves, two moves) away for the furthest P_j of the
    line (equal up to interchangeable columns, by key) and jump there: the
    moves in between were a detour. The kept moves are remapped to the
    columns of the position actually reached.
    """
    L = layout(root)
    n = codes.shape[0]
    states = np.zeros((n + 1, L.STATE_SIZE), dtype=root.dtype)
    kvs = np.zeros((n + 1, L.KEYS_SIZE), dtype=np.uint64)
    states[0] = root
    kvs[0] = root_keys
    line_keys = np.zeros((n + 1, 2), dtype=np.uint64)
    line_keys[0, 0] = root_keys[L.KEY1]
    line_keys[0, 1] = root_keys[L.KEY2]
    for i in range(n):
        made_from(states[i + 1], kvs[i + 1], states[i], kvs[i], np.int64(codes[i]), flags, tables)
        line_keys[i + 1, 0] = kvs[i + 1, L.KEY1]
        line_keys[i + 1, 1] = kvs[i + 1, L.KEY2]
    order = np.argsort(line_keys[:, 0])
    sorted_k1 = line_keys[order, 0].copy()
    moves1 = np.zeros(MAX_MOVES, dtype=np.uint16)
    moves2 = np.zeros(MAX_MOVES, dtype=np.uint16)
    child = np.zeros(L.STATE_SIZE, dtype=root.dtype)
    child_k = np.zeros(L.KEYS_SIZE, dtype=np.uint64)
    scratch = np.zeros(L.STATE_SIZE, dtype=root.dtype)
    scratch_k = np.zeros(L.KEYS_SIZE, dtype=np.uint64)
    actual = root.copy()
    actual_k = root_keys.copy()
    m = 0
    i = 0
    while i < n:
        best_j, first, second = i + 1, np.int64(codes[i]), np.int64(-1)
        best_gain = 0
        n1 = _move_list(states[i], moves1, flags)
        for a in range(n1):
            j = _child_on_line(
                states[i], kvs[i], moves1[a], scratch, scratch_k, sorted_k1, order, line_keys, flags, tables
            )
            if j - i - 1 > best_gain:
                best_gain, best_j, first, second = j - i - 1, j, np.int64(moves1[a]), np.int64(-1)
            if two_moves:
                j, b = _furthest_grandchild(
                    states[i],
                    kvs[i],
                    np.int64(moves1[a]),
                    child,
                    child_k,
                    moves2,
                    scratch,
                    scratch_k,
                    sorted_k1,
                    order,
                    line_keys,
                    flags,
                    tables,
                )
                if j - i - 2 > best_gain:
                    best_gain, best_j, first, second = j - i - 2, j, np.int64(moves1[a]), b
        # play the chosen moves on the actual position (equal to states[i] up to column order)
        code = _remap(states[i], actual, first)
        out[m] = code
        m += 1
        if second >= 0:
            made_from(child, child_k, states[i], kvs[i], first, flags, tables)
            made_from(actual, actual_k, actual, actual_k, code, flags, tables)
            code = _remap(child, actual, second)
            out[m] = code
            m += 1
        made_from(actual, actual_k, actual, actual_k, code, flags, tables)
        i = best_j
    return m


@nb.njit(**JIT)
def screen_roots(states, counters, statuses, flags, can_top, dead_scratch):
    """``search``'s root step for every state of a chunk, in one call (a batch's deals decided at the root).

    For each i: counters[i] and statuses[i] as ``search`` would leave them
    after its root step on states[i] from fresh counters and scratch
    (S_WON, S_LOST or 0 for "search on"). Most deals are dead at the root,
    and for them this replaces a whole solve (its conversion, allocations,
    table and result building) by a few microseconds. Returns how many
    roots were decided. Twin: ``deadlock.is_deadlocked`` on each deal.
    """
    decided = 0
    for i in range(states.shape[0]):
        counters[i, :] = 0
        counters[i, C_SP] = -1
        can_top[:] = False
        dead_scratch[:] = 0
        statuses[i] = _decide_root(states[i], counters[i], can_top, dead_scratch, flags, False)
        if statuses[i]:
            decided += 1
    return decided


# ---------------------------------------------------------------------------
# a deal's starting state (the shuffled deck comes from ``deal_kernel``, which keeps no copy of the layout)


@nb.njit(**ALLOC)
def write_deal(deck, face_down, state):
    """Write into ``state`` the starting position dealt from the shuffled ``deck`` (52 cards, dealt
    from its end): seven rows of seven, ``face_down[col]`` cards face down in column col, then the
    three tail cards (as ``game.deal``; tests/test_deal_kernel.py compares every byte)."""
    state[:] = 0
    for k in range(49):
        card = deck[51 - k]
        col, height = k % 7, k // 7
        state[COLS + COL_CAP * col + height] = card
        state[LOCCOL + card] = col
        state[LOCIDX + card] = height
    for col in range(7):
        state[LEN + col] = 7
        state[HID + col] = face_down[col]
    for t in range(3):
        card = deck[2 - t]
        state[TAIL + t] = card
        state[LOCCOL + card] = -1


@nb.njit(**ALLOC)
def write_deals(decks, face_down, states):
    """``write_deal`` for every row: deck ``decks[i]`` into ``states[i]``."""
    for i in range(decks.shape[0]):
        write_deal(decks[i], face_down, states[i])
