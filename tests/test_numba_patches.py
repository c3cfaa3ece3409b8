"""solver/numba_patches.py: numba compiles faster with the three patches, and compiles the same code.

The compile cases build a small kernel of nested ``inline='always'``
functions in a fresh process with an empty numba cache, numba's own way
(``SCORPION_NUMBA_STOCK=1``) and patched: the patched inliner copies the
callees' scopes fewer times, repeated typings are remembered, the live
variables found on bit sets are numba's at every call, and the two compiles
give the same results and the same assembly. ``benchmarks/numba_patch_check.py``
makes the same comparison for every kernel of the solver. The liveness
analysis is also compared with numba's on the IR of plain functions and on
random control-flow graphs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorpion_solver.solver import kernel, numba_inline, numba_liveness, numba_patches, numba_typing  # noqa: F401

SCRIPT = textwrap.dedent("""
    import copy, hashlib, json
    import numba as nb
    import numpy as np
    from numba.core import analysis, ir, ir_utils
    from scorpion_solver.solver import numba_liveness, numba_patches, numba_typing

    patched = numba_patches.apply_all()
    copies = [0]
    live = {"calls": 0, "differing": 0}

    def counted_copy(self, memo):  # what deepcopy does with a Scope, counted
        copies[0] += 1
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new

    ir.Scope.__deepcopy__ = counted_copy

    if patched["numba_liveness"]:
        def compared(cfg, blocks, usemap, defmap):  # both analyses at every call: the answers must be equal
            ours = numba_liveness.compute_live_map(cfg, blocks, usemap, defmap)
            live["calls"] += 1
            live["differing"] += ours != numba_liveness.stock_compute_live_map(cfg, blocks, usemap, defmap)
            return ours

        analysis.compute_live_map = ir_utils.compute_live_map = compared

    @nb.njit(inline="always")
    def leaf(a, i):
        if a[i] > 0:
            return a[i] * 2
        elif a[i] < -5:
            return -a[i]
        return 0

    @nb.njit(inline="always")
    def middle(a):
        t = 0
        for i in range(a.size):
            if i % 2:
                t += leaf(a, i)
            else:
                t -= leaf(a, i)
        while t > 100:
            t -= np.int64(7) * (t // 50)
        return t

    @nb.njit
    def top(a):
        return middle(a) + 3 * middle(a[::-1]) + leaf(a, 0)

    values = [int(top(np.arange(n, dtype=np.int64) - 7)) for n in (1, 5, 9, 20, 60)]
    text = numba_patches.masked_assembly(top.inspect_asm(top.signatures[0]))
    print(json.dumps({"patched": patched, "copies": copies[0], "values": values, "typings": numba_typing.counts,
                      "live": live, "asm": hashlib.sha1(text.encode()).hexdigest()}))
""")


def compiled(tmp_path, stock: bool) -> dict:
    cache = tmp_path / ("stock" if stock else "patched")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), numba_patches.STOCK: "1" if stock else "0"}
    for own in (numba_inline.OFF, numba_typing.OFF, numba_liveness.OFF):
        env.pop(own, None)
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def all_apply() -> bool:
    return numba_inline.matches_numba() and numba_typing.matches_numba() and numba_liveness.matches_numba()


def test_the_patches_are_applied_to_the_numba_they_were_written_for():
    if not all_apply():
        pytest.skip("this numba is another one: the patches stay off, and numba compiles its own way")
    assert numba_patches.apply_all() == {"numba_inline": True, "numba_typing": True, "numba_liveness": True}
    from numba.core.inline_closurecall import InlineWorker
    from numba.core.types.functions import BaseFunction

    # a second apply keeps the one patch
    assert not hasattr(InlineWorker.inline_ir.__wrapped__, "__wrapped__")
    assert not hasattr(BaseFunction.get_call_type.__wrapped__, "__wrapped__")


def test_the_patched_numba_does_less_work_and_compiles_the_same_code(tmp_path):
    if not all_apply():
        pytest.skip("the patches do not apply to this numba")
    stock, patched = compiled(tmp_path, stock=True), compiled(tmp_path, stock=False)
    assert not any(stock["patched"].values()) and all(patched["patched"].values())
    # leaf's blocks each copied the whole scope; now each copy of a callee copies it once
    assert 0 < patched["copies"] < stock["copies"]
    # the inlined copies type the same operations on the same types: most typings are repeats
    assert stock["typings"] == {"typed": 0, "repeated": 0}
    assert patched["typings"]["repeated"] > patched["typings"]["typed"] > 0
    # the bit-set liveness answered every one of numba's questions as numba's own does
    assert patched["live"]["calls"] > 10 and patched["live"]["differing"] == 0
    assert patched["values"] == stock["values"]
    assert patched["asm"] == stock["asm"]


def test_the_values_are_the_plain_python_ones(tmp_path):
    import numpy as np

    def leaf(a, i):
        return a[i] * 2 if a[i] > 0 else (-a[i] if a[i] < -5 else 0)

    def middle(a):
        t = sum(leaf(a, i) if i % 2 else -leaf(a, i) for i in range(a.size))
        while t > 100:
            t -= 7 * (t // 50)
        return t

    arrays = (np.arange(n) - 7 for n in (1, 5, 9, 20, 60))
    expected = [int(middle(a) + 3 * middle(a[::-1]) + leaf(a, 0)) for a in arrays]
    assert compiled(tmp_path, stock=not all_apply())["values"] == expected


def test_a_call_that_does_not_type_fails_as_before_when_remembered():
    """A failure is not remembered: the second try fails again, with numba's error."""
    import numba as nb
    from numba.core.errors import TypingError

    if not numba_typing.is_applied():
        pytest.skip("the typing patch does not apply to this numba")

    @nb.njit
    def bad(x):
        return x + "a"

    for _ in range(2):
        with pytest.raises(TypingError, match="add"):
            bad(1)


# the liveness analysis beside numba's own


def _loops(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        j = i
        while j > 0:
            j //= 2
            if j == 5:
                break
            total += j
    else:
        total -= 1
    return total


def _branches(a, b):
    if a:
        x = 1
    elif b:
        y = 2
        x = y
    else:
        return b
    try:
        z = x / a
    except ZeroDivisionError:
        z = 0
    return z


def _live_maps(function):
    from numba.core import analysis, compiler

    func_ir = compiler.run_frontend(function)
    blocks = func_ir.blocks
    cfg = analysis.compute_cfg_from_blocks(blocks)
    usedefs = analysis.compute_use_defs(blocks)
    args = (cfg, blocks, usedefs.usemap, usedefs.defmap)
    return numba_liveness.compute_live_map(*args), numba_liveness.stock_compute_live_map(*args)


@pytest.mark.parametrize("function", [_loops, _branches, numba_liveness.compute_live_map])
def test_the_live_variables_of_plain_functions_are_numbas(function):
    if not numba_liveness.matches_numba():
        pytest.skip("this numba's liveness analysis is another one")
    ours, numbas = _live_maps(function)
    assert ours == numbas
    assert any(ours.values())  # the functions have variables live across blocks


class _Graph:
    """What compute_live_map asks of numba's CFG: an order of the blocks, and each block's edges."""

    def __init__(self, order, edges):
        self.order, self.edges = order, edges

    def topo_order(self):
        return list(self.order)

    def successors(self, block):
        return [(out, None) for (inc, out) in self.edges if inc == block]

    def predecessors(self, block):
        return [(inc, None) for (inc, out) in self.edges if out == block]


@st.composite
def _graphs(draw):
    size = draw(st.integers(1, 9))
    blocks = list(range(0, 10 * size, 10))
    edges = draw(st.sets(st.tuples(st.sampled_from(blocks), st.sampled_from(blocks)), max_size=3 * size))
    names = [f"v{i}" for i in range(7)]
    use = {b: set(draw(st.sets(st.sampled_from(names), max_size=3))) for b in blocks}
    define = {b: set(draw(st.sets(st.sampled_from(names), max_size=3))) for b in blocks}
    order = draw(st.permutations(blocks))
    return _Graph(order, sorted(edges)), {b: None for b in blocks}, use, define


@settings(max_examples=300, deadline=None)
@given(_graphs())
def test_the_live_variables_of_random_graphs_are_numbas(case):
    """Any graph, loops onto a block itself included, and any order of the blocks: numba's answer."""
    if not numba_liveness.matches_numba():
        pytest.skip("this numba's liveness analysis is another one")
    assert numba_liveness.compute_live_map(*case) == numba_liveness.stock_compute_live_map(*case)
