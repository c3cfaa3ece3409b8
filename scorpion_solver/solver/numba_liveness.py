"""numba's live-variable analysis on bit sets: the same answer as numba's, without its set unions.

Why: numba recomputes which variables are live at the entry of each block
(``analysis.compute_live_map``) after most of its IR passes, about 500 times
in the search job's compile. Its fix point unions Python sets of variable
names along every edge of the control-flow graph, over and over; once the
kernel's helpers are inlined the search has thousands of blocks and
variables, and this analysis was the largest single item of a profile of the
search job's cold compile (``def_reach``, about a tenth of it).

What: :func:`compute_live_map` runs the same two fix points, over the same
block order, with each block's set of names held as one Python integer, bit
``i`` for the ``i``-th name met::

    names  ['$x.0', 'a', 'i.1', ...]        bit 0, 1, 2, ... of every set
    use    {block: 0b0110}                   'a' and 'i.1' used before being set
    reach  {block: 0b1111}                   defined or used on some path to it

Both fix points are monotone unions from the same start, so each has one
least solution, whatever the order of the updates: the one numba's loop
reaches. The live sets it returns, turned back into sets of names, are
numba's (``tests/test_numba_patches.py`` compares the two on every call of a
compile), so the IR numba builds from them, and the machine code, are the
same (``benchmarks/numba_patch_check.py``).

Applied with the other patches (``solver/numba_patches.py``), only when
numba's ``compute_live_map`` is the one written against (its ``def_reach``
and ``liveness`` fix points); ``SCORPION_NUMBA_STOCK_LIVENESS=1`` turns it off.
"""

from __future__ import annotations

import sys
from collections import defaultdict

from numba.core import analysis, ir_utils

from .numba_guard import turned_off, written_against

OFF = "SCORPION_NUMBA_STOCK_LIVENESS"  # set to 1: numba's own analysis, on sets of names
_MARKS = ("def def_reach(dct):", "def liveness(dct):", "fix_point(def_reach, def_reach_map)")

_stock = analysis.compute_live_map


def compute_live_map(cfg, blocks, var_use_map, var_def_map):
    """numba's ``analysis.compute_live_map``: the variables live at the entry of each block, as sets of names."""
    order = cfg.topo_order()
    bit_of: dict[str, int] = {}
    names: list[str] = []

    def bits(vars_) -> int:
        value = 0
        for name in vars_:
            index = bit_of.get(name)
            if index is None:
                index = bit_of[name] = len(names)
                names.append(name)
            value |= 1 << index
        return value

    use = {offset: bits(vars_) for offset, vars_ in var_use_map.items()}
    defined = {offset: bits(vars_) for offset, vars_ in var_def_map.items()}

    # the definitions that reach each block's entry: its own, and those of every block before it
    reach: defaultdict[int, int] = defaultdict(int)
    successors = {offset: [out for out, _ in cfg.successors(offset)] for offset in order}
    changed = True
    while changed:
        changed = False
        for offset in order:
            here = reach[offset] | defined[offset] | use[offset]
            if here != reach[offset]:
                reach[offset], changed = here, True
            for out in successors[offset]:
                grown = reach[out] | here
                if grown != reach[out]:
                    reach[out], changed = grown, True

    # live at a block's entry: used there, or live after it and reaching it, not defined in it
    live = {offset: use[offset] for offset in blocks}
    predecessors = {offset: [inc for inc, _ in cfg.predecessors(offset)] for offset in order}
    changed = True
    while changed:
        changed = False
        for offset in reversed(order):
            here = live[offset]
            for inc in predecessors[offset]:
                grown = live[inc] | (here & reach.get(inc, 0) & ~defined[inc])
                if grown != live[inc]:
                    live[inc], changed = grown, True
                    if inc == offset:  # numba's set is the same object: a loop onto itself sees the growth
                        here = grown

    def as_names(value: int) -> set[str]:
        found = set()
        while value:
            low = value & -value
            found.add(names[low.bit_length() - 1])
            value ^= low
        return found

    return {offset: as_names(value) for offset, value in live.items()}


def matches_numba() -> bool:
    """Whether this numba's ``compute_live_map`` is the one the patch was written against."""
    return written_against(_stock, _MARKS)


def applies() -> bool:
    return not turned_off(OFF) and matches_numba()


def is_applied() -> bool:
    return analysis.compute_live_map is compute_live_map


def apply() -> bool:
    """Put :func:`compute_live_map` where numba looks it up (once, if :func:`applies`); return whether it is."""
    if is_applied():
        return True
    if not applies():
        return False
    analysis.compute_live_map = compute_live_map
    ir_utils.compute_live_map = compute_live_map  # imported by name there, and in parfors if loaded
    parfor = sys.modules.get("numba.parfors.parfor")
    if parfor is not None and getattr(parfor, "compute_live_map", None) is _stock:
        parfor.compute_live_map = compute_live_map
    return True


def stock_compute_live_map(cfg, blocks, var_use_map, var_def_map):
    """numba's own analysis, kept for the tests that compare the two."""
    return _stock(cfg, blocks, var_use_map, var_def_map)
