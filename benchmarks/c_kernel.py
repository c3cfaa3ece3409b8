"""The native C baseline of the search kernel, built with gcc and loaded with ctypes.

``load_c_kernel()`` returns a module-like object with every attribute of
``scorpion_solver.solver.kernel`` (constants, random tables, ``rehash``,
``compute_keys``, ...) except ``search``, which runs
``c_baseline/scorpion_search.c`` on the same arrays. So ``search.solve`` (through ``driver``) drives
it unchanged once ``driver.kernel`` is swapped for it (as ``compare_c.py`` does).

The shared library is built with ``gcc -O3 -march=native -shared -fPIC`` into
a cache directory under the system's temporary directory, named by a hash of
the source and the compiler command, so an edit of the C file rebuilds it.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
import types
import weakref
from pathlib import Path
from typing import Callable

import numpy as np

from scorpion_solver.solver import kernel

SOURCE = Path(__file__).resolve().parent / "c_baseline" / "scorpion_search.c"
CFLAGS = ["-O3", "-march=native", "-shared", "-fPIC", "-std=c11"]


def build(compiler: str = "gcc", source_path: Path = SOURCE, flags: list[str] = CFLAGS) -> Path:
    """Compile the C file unless a library built from the same source and flags is cached; return its path."""
    gcc = shutil.which(compiler)
    if gcc is None:
        raise RuntimeError(
            f"the C baseline needs a C compiler: '{compiler}' was not found on PATH "
            f"(install gcc, e.g. apt-get install gcc)"
        )
    source = Path(source_path).read_bytes()
    stamp = hashlib.sha256(source + " ".join([gcc, *flags]).encode()).hexdigest()[:16]
    folder = Path(tempfile.gettempdir()) / "scorpion-c-baseline"
    folder.mkdir(parents=True, exist_ok=True)
    lib = folder / f"scorpion_search-{stamp}.so"
    if not lib.exists():
        partial = folder / f"scorpion_search-{stamp}.{os.getpid()}.tmp.so"
        done = subprocess.run(
            [gcc, *flags, "-o", str(partial), str(source_path)], check=False, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise RuntimeError(f"building {source_path} failed:\n{done.stderr}")
        os.replace(partial, lib)  # atomic: a concurrent build never loads a half-written file
    return lib


def _check(name: str, arr, dtype: np.dtype, shape: tuple) -> None:
    """Raise unless arr is a C-contiguous numpy array of this dtype and shape (None: any size); 1-D or 2-D."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"{name}: expected a numpy array, got {type(arr).__name__}")
    if arr.dtype != dtype:
        raise TypeError(f"{name}: expected dtype {dtype}, got {arr.dtype}")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name}: must be C-contiguous")
    got = arr.shape
    if (
        len(got) != len(shape)
        or (shape[0] is not None and got[0] != shape[0])
        or (shape[-1] is not None and got[-1] != shape[-1])
    ):
        raise ValueError(f"{name}: expected shape {shape} (None: any size), got {got}")
    if len(got) == 1 and got[0] < _AT_LEAST.get(name, 0):
        raise ValueError(f"{name}: expected at least {_AT_LEAST[name]} entries, got {got[0]}")


def _address(arr: np.ndarray) -> int:
    try:
        return ctypes.addressof(ctypes.c_char.from_buffer(arr))  # a third of the cost of arr.ctypes.data
    except (TypeError, ValueError):  # read-only or empty
        return arr.ctypes.data


# The arrays of a call, in the order of search's arguments, with what each must be (None: any size).
_I8, _U16, _I64, _U64, _BOOL = (np.dtype(t) for t in (np.int8, np.uint16, np.int64, np.uint64, np.bool_))
_ARRAYS = (
    ("states", _I8, (None, kernel.STATE_SIZE)),
    ("keys", _U64, (None, kernel.KEYS_SIZE)),
    ("moves", _U16, (None, kernel.MAX_MOVES)),
    ("nmoves", _I64, (None,)),
    ("midx", _I64, (None,)),
    ("table", _U64, (None, 2)),
    ("counters", _I64, (kernel.COUNTERS_SIZE,)),
    ("z", _U64, (2, 52 * kernel.COL_CAP)),
    ("zh", _U64, (2, kernel.COL_CAP)),
    ("salt", _U64, (2, 8)),
    ("misc", _U64, (2, kernel.MISC_SIZE)),
    ("can_top", _BOOL, (None,)),
    ("found_keys", _U64, (2 * kernel.MAX_MOVES, 2)),
    ("dead_scratch", _I8, (None,)),
)
# The driver's buffers serve the two-deck kernel too, so these may be longer than the one-deck search reads.
_AT_LEAST = {"can_top": 52, "dead_scratch": kernel.DEAD_SCRATCH}
# where scorpion_search_packed expects each array's pointer, and the integers
_ARRAY_SLOTS = (0, 1, 2, 3, 4, 6, 8, 16, 17, 18, 19, 20, 21, 22)
_DEPTH, _TABLE_CAP, _NODE_LIMIT, _MAX_ENTRIES, _FLAGS = 5, 7, 9, 10, 11  # flags: 11..15
_NARGS = 23


def load_c_kernel(
    compiler: str = "gcc",
    source_path: Path = SOURCE,
    flags: list[str] = CFLAGS,
    wrap_native: Callable[[Callable[[int], int]], Callable[[int], int]] | None = None,
) -> types.SimpleNamespace:
    """The kernel module's namespace with ``search`` replaced by the C implementation.

    ``source_path`` and ``flags`` are there for experiments on variants of the C file.
    ``wrap_native`` wraps the native call alone (the ctypes call, without this module's
    argument handling): ``bench_batch.py`` times the C search with it.
    """
    lib = ctypes.CDLL(str(build(compiler, source_path, flags)))
    fn = lib.scorpion_search_packed
    fn.argtypes = [ctypes.c_void_p]
    fn.restype = ctypes.c_int64
    if wrap_native is not None:
        fn = wrap_native(fn)
    args = (ctypes.c_int64 * _NARGS)()
    args_pointer = ctypes.addressof(args)
    # Data pointers of checked arrays, remembered per array object: arr.ctypes.data and the
    # checks cost microseconds per array, 14 arrays a call, which was more than the whole solve
    # of a deal decided in a few nodes (the numba dispatcher takes about 3 us a call). An array
    # object's dtype, contiguity and buffer do not change (barring an in-place resize, which
    # nothing here does), so it is checked once; a weak reference tells a live array from a new
    # one that reuses a dead one's id. The sizes that vary (stack depth, table size) are read
    # on every call.
    known: dict[int, tuple[weakref.ref, int]] = {}

    def learn(index: int, arr) -> tuple[weakref.ref, int]:
        nonlocal known
        name, dtype, shape = _ARRAYS[index]
        _check(name, arr, dtype, shape)
        if len(known) > 256:  # forget the dead
            known = {k: v for k, v in known.items() if v[0]() is not None}
        entry = known[id(arr)] = (weakref.ref(arr), _address(arr))
        return entry

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
        """kernel.search, run by the C baseline (same arguments, same effect on them, same status)."""
        z, zh, salt, misc = tables
        arrays = (
            states,
            keys,
            moves,
            nmoves,
            midx,
            table,
            counters,
            z,
            zh,
            salt,
            misc,
            can_top,
            found_keys,
            dead_scratch,
        )
        for index, arr in enumerate(arrays):
            entry = known.get(id(arr))
            if entry is None or entry[0]() is not arr:
                entry = learn(index, arr)
            args[_ARRAY_SLOTS[index]] = entry[1]
        depth = states.shape[0]
        if not keys.shape[0] == moves.shape[0] == nmoves.shape[0] == midx.shape[0] == depth:
            raise ValueError(
                f"stack arrays of different depths: states {states.shape}, keys {keys.shape}, "
                f"moves {moves.shape}, nmoves {nmoves.shape}, midx {midx.shape}"
            )
        cap = table.shape[0]
        if cap < 1 or cap & (cap - 1):
            raise ValueError(f"table: capacity must be a power of two, got {cap}")
        args[_DEPTH] = depth
        args[_TABLE_CAP] = cap
        args[_NODE_LIMIT] = int(node_limit)
        args[_MAX_ENTRIES] = int(max_entries)
        flags = int(flags)  # the kernel's flags word (kernel's docstring), unpacked for the C signature
        rule_bits = [kernel.RULE_SWEEPS, kernel.RULE_FREEZES, kernel.RULE_SPACE_ANY, kernel.RULE_TAIL_WHEN_STUCK]
        args[_FLAGS : _FLAGS + 5] = [int(flags & bit != 0) for bit in rule_bits] + [flags & kernel.PRUNE_BITS]
        return fn(args_pointer)

    namespace = {name: value for name, value in vars(kernel).items() if not name.startswith("__")}
    namespace["search"] = search
    namespace["c_library"] = lib
    return types.SimpleNamespace(**namespace)
