"""How numba can compile the one search once per game shape: four ways, tried.

Double Scorpion (10 columns, 104 cards, a tail of 4) and Three Blind Mice
(10 columns, 52 cards, 2 reserves) need the search kernel at other sizes
than Scorpion's (7 columns, 52 cards, a tail of 3). The search must stay
written once, each shape's kernels must be compiled only when that shape is
asked for, and the one-deck kernels must keep their constants (column count,
field offsets) folded into the machine code. This script tries the four
ways numba offers on a toy kernel that sums one field per column (the
pattern of every loop in ``solver/kernel.py``), each in fresh processes
sharing one empty ``NUMBA_CACHE_DIR``, and prints what each does:

* ``literal``: the shape is a small integer argument made a compile-time
  constant with ``numba.literally``; per-shape constants are module tuples
  indexed by it. Prints the signatures compiled, the cache hits of a second
  process, and whether the loop over the columns became constant offsets.
* ``typed``: the shape follows from the state array's element type (``int8``
  for one deck, ``int16`` for a wider layout) through an ``overload`` that
  returns a constant at typing time; the one-deck signatures do not change,
  so neither do the one-deck callers. Also tried in the search's own
  pattern: a kernel without reference counting (``_nrt=False``) copying
  frames of a 2-D state array with ``kernel._copy_into``.
* ``closure``: a factory whose closure holds the shape's constants and the
  sibling kernels it calls. numba's cache index key hashes the pickled
  closure (``numba/core/caching.py``, ``_index_key``); a dispatcher pickles
  with a fresh random uuid in every process, so such a kernel never hits
  the cache and each run adds files to it.
* ``globals``: one source file imported twice under two module names with
  other module constants. numba names the cache file after the file's base
  name and the function, and its index key ignores globals: the second
  shape loads the first shape's machine code and returns its answer.

Run: ``python benchmarks/shape_specialization.py`` (about 5 s of CPU). What it
printed on 5 December 2026 (numba 0.68.1) is in docs/design.md, "Relatives:
several game shapes in one search".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

KERNELS = textwrap.dedent(
    """
    import numba as nb
    from numba import types
    from numba.extending import overload

    from scorpion_solver.solver.kernel import _copy_into

    NCOLS = (7, 10, 10)      # columns of each shape
    LEN_AT = (448, 1040, 1040)  # offset of the column lengths in each shape's state

    @nb.njit(cache=True, nogil=True, inline="always")
    def _columns(shape):
        return NCOLS[shape]

    @nb.njit(cache=True, nogil=True)
    def _lengths_below(s, shape):
        t = 0
        for c in range(NCOLS[shape]):
            t += s[LEN_AT[shape] + c]
        return t

    @nb.njit(cache=True, nogil=True)
    def literal_entry(s, shape):
        nb.literally(shape)
        t = 0
        for c in range(_columns(shape)):
            t += s[LEN_AT[shape] + c]
        return t + _lengths_below(s, shape)

    def shape_of(s):
        # the shape code of a state array, from its element type (typing only)
        raise NotImplementedError


    @overload(shape_of, inline="always")
    def _shape_of_typed(s):
        code = {types.int8: 0, types.int16: 1}[s.dtype]
        return lambda s: code


    @nb.njit(cache=True, nogil=True)
    def typed_entry(s):
        shape = shape_of(s)
        t = 0
        for c in range(NCOLS[shape]):
            t += s[LEN_AT[shape] + c]
        return t + _lengths_below(s, shape)


    @nb.njit(cache=True, nogil=True, _nrt=False, inline="always")
    def _lengths_inline(s):
        shape = shape_of(s)
        t = 0
        for c in range(NCOLS[shape]):
            t += s[LEN_AT[shape] + c]
        return t


    @nb.njit(cache=True, nogil=True, _nrt=False)
    def typed_frames(states, depth):
        # the search's pattern: without reference counting, each ply's frame a copy of its parent's
        t = 0
        for sp in range(1, depth):
            _copy_into(states[sp], states[sp - 1])
            states[sp, LEN_AT[shape_of(states[sp])]] += 1
            t += _lengths_inline(states[sp])
        return t


    def make_closure_entry(ncols, len_at):
        @nb.njit(cache=True, nogil=True)
        def lengths(s):
            t = 0
            for c in range(ncols):
                t += s[len_at + c]
            return t

        @nb.njit(cache=True, nogil=True)
        def entry(s):
            return 2 * lengths(s)

        return entry
    """
)

GLOBALS_KERNEL = textwrap.dedent(
    """
    import numba as nb
    import builtins

    NCOLS = getattr(builtins, "_SHAPE_NCOLS", 7)

    @nb.njit(cache=True, nogil=True)
    def entry(s):
        t = 0
        for c in range(NCOLS):
            t += s[c]
        return t
    """
)

PROBE = textwrap.dedent(
    """
    import builtins, importlib.util, json, re, sys
    import numpy as np
    sys.path.insert(0, sys.argv[1])
    import toy_kernels as k

    s = np.ones(2000, dtype=np.int8)
    out = {}
    out["literal"] = {
        "one_deck_answer": int(k.literal_entry(s, 0)),
        "signatures_after_one_deck": [str(sig[1]) for sig in k.literal_entry.signatures],
        "two_deck_answer": int(k.literal_entry(s, 1)),
        "cache_hits": sum(k.literal_entry.stats.cache_hits.values()),
    }
    if sum(k.literal_entry.stats.cache_hits.values()) == 0:
        ir = k.literal_entry.inspect_llvm()
        two = [text for sig, text in ir.items() if "Literal[int](1)" in str(sig)][0]
        # loads of the 10 column lengths at constant offsets 1040-1049: the loop unrolled
        out["literal"]["two_deck_constant_offsets"] = len(re.findall(r"i64 10[4][0-9]\\b", two))

    wide = np.ones(2000, dtype=np.int16)
    out["typed"] = {
        "answers (int8 state, int16 state)": [int(k.typed_entry(s)), int(k.typed_entry(wide))],
        "signatures": [str(sig[0].dtype) for sig in k.typed_entry.signatures],
        "cache_hits": sum(k.typed_entry.stats.cache_hits.values()),
    }
    # four plies, the first length raised by one each ply: 8+9+10+11 and 11+12+13+14
    out["typed"]["frames (int8, int16)"] = [
        int(k.typed_frames(np.ones((5, 2000), dtype=np.int8), 5)),
        int(k.typed_frames(np.ones((5, 2000), dtype=np.int16), 5)),
    ]
    if out["typed"]["cache_hits"] == 0:
        ir = k.typed_entry.inspect_llvm()
        two = [text for sig, text in ir.items() if "int16" in str(sig)][0]
        out["typed"]["two_deck_constant_offsets"] = len(re.findall(r"i64 (20[89][0-9]|2080)\\b", two))

    one = k.make_closure_entry(7, 448)
    two = k.make_closure_entry(10, 1040)
    out["closure"] = {
        "answers": [int(one(s)), int(two(s))],
        "cache_hits": sum(one.stats.cache_hits.values()) + sum(two.stats.cache_hits.values()),
    }

    answers = []
    for name, ncols in (("shape_seven", 7), ("shape_ten", 10)):
        builtins._SHAPE_NCOLS = ncols
        spec = importlib.util.spec_from_file_location(name, sys.argv[1] + "/globals_kernel.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        answers.append(int(module.entry(s)))
    out["globals"] = {"answers (7 then 10 columns of ones)": answers}
    print(json.dumps(out))
    """
)


def probe_twice() -> list[dict]:
    """What the probe found in each of two fresh processes sharing one empty numba cache."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "toy_kernels.py").write_text(KERNELS)
        (root / "globals_kernel.py").write_text(GLOBALS_KERNEL)
        (root / "probe.py").write_text(PROBE)
        cache = root / "cache"
        package = str(Path(__file__).resolve().parents[1])
        path = os.pathsep.join(filter(None, [package, os.environ.get("PYTHONPATH")]))
        env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=path)
        runs = []
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, str(root / "probe.py"), str(root)],
                env=env,
                capture_output=True,
                text=True,
            )
            if done.returncode:
                raise RuntimeError(done.stderr)
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
            runs[-1]["closure_cache_files"] = len(list(cache.rglob("*make_closure_entry*.nbc")))
        return runs


def main() -> None:
    for i, run in enumerate(probe_twice(), 1):
        print(f"process {i}:")
        print(json.dumps(run, indent=2))


if __name__ == "__main__":
    main()
