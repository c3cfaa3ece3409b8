"""solver/numba_inline.py: numba's inliner copies a callee's scope once per copy, and compiles the same code.

Each case compiles a small kernel of nested ``inline='always'`` functions in a
fresh process with an empty numba cache, numba's own way
(``SCORPION_NUMBA_STOCK_INLINE=1``) and patched: the patched inliner copies
the callees' scopes fewer times, and the two compiles give the same results
and the same assembly. ``benchmarks/inline_patch_check.py`` makes the same
comparison for every kernel of the solver.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from scorpion_solver.solver import kernel, numba_inline  # noqa: F401 (kernel applies the patch)

SCRIPT = textwrap.dedent("""
    import copy, hashlib, json
    import numba as nb
    import numpy as np
    from numba.core import ir
    from scorpion_solver.solver import numba_inline

    numba_inline.apply()
    copies = [0]

    def counted_copy(self, memo):  # what deepcopy does with a Scope, counted
        copies[0] += 1
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return new

    ir.Scope.__deepcopy__ = counted_copy

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
        return t

    @nb.njit
    def top(a):
        return middle(a) + 3 * middle(a[::-1]) + leaf(a, 0)

    values = [int(top(np.arange(n, dtype=np.int64) - 7)) for n in (1, 5, 9, 20)]
    text = numba_inline.masked_assembly(top.inspect_asm(top.signatures[0]))
    print(json.dumps({"patched": numba_inline.is_applied(), "copies": copies[0], "values": values,
                      "asm": hashlib.sha1(text.encode()).hexdigest()}))
""")


def compiled(tmp_path, stock: bool) -> dict:
    cache = tmp_path / ("stock" if stock else "patched")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), numba_inline.OFF: "1" if stock else "0"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_the_patch_is_applied_to_the_numba_it_was_written_for():
    if not numba_inline.matches_numba():
        pytest.skip("this numba's inline_ir is another one: the patch stays off, and numba inlines its own way")
    assert numba_inline.is_applied()
    assert numba_inline.apply()  # a second apply keeps the one patch
    from numba.core.inline_closurecall import InlineWorker

    assert not hasattr(InlineWorker.inline_ir.__wrapped__, "__wrapped__")


def test_the_patched_inliner_copies_less_and_compiles_the_same_code(tmp_path):
    if not numba_inline.is_applied():
        pytest.skip("the patch does not apply to this numba")
    stock, patched = compiled(tmp_path, stock=True), compiled(tmp_path, stock=False)
    assert (stock["patched"], patched["patched"]) == (False, True)
    # leaf's blocks each copied the whole scope; now each copy of a callee copies it once
    assert 0 < patched["copies"] < stock["copies"]
    assert patched["values"] == stock["values"]
    assert patched["asm"] == stock["asm"]


def test_the_values_are_the_plain_python_ones(tmp_path):
    import numpy as np

    def leaf(a, i):
        return a[i] * 2 if a[i] > 0 else (-a[i] if a[i] < -5 else 0)

    def middle(a):
        return sum(leaf(a, i) if i % 2 else -leaf(a, i) for i in range(a.size))

    expected = [int(middle(a) + 3 * middle(a[::-1]) + leaf(a, 0)) for a in (np.arange(n) - 7 for n in (1, 5, 9, 20))]
    assert compiled(tmp_path, stock=not numba_inline.is_applied())["values"] == expected
