"""The three patches that make numba compile the kernels faster, and the same machine code.

A cold compile of the solver is mostly numba's own Python work on the
kernels' IR, made large by the helpers inlined at numba's level (kernel.py,
"inlining"). Three parts of it grow with that size faster than they need to;
each patch does the same work another way:

======================  ===================================================  ================================
module                  what numba did                                       turned off alone by
======================  ===================================================  ================================
``numba_inline``        copied an inlined callee's scope once per block      ``SCORPION_NUMBA_STOCK_INLINE``
``numba_typing``        typed the same call on the same types at every copy  ``SCORPION_NUMBA_STOCK_TYPING``
``numba_liveness``      found live variables by unions of sets of names      ``SCORPION_NUMBA_STOCK_LIVENESS``
======================  ===================================================  ================================

``SCORPION_NUMBA_STOCK=1`` turns all three off. Each applies only to the
numba whose code it was written against (it reads that code first) and
otherwise leaves numba alone. None changes what numba compiles: every
kernel's assembly is the same with and without them
(``benchmarks/numba_patch_check.py``, :func:`masked_assembly`), so they
need no speed benchmark and cannot move the bench signature.
"""

from __future__ import annotations

import re

from . import numba_inline, numba_liveness, numba_typing
from .numba_guard import turned_off

STOCK = "SCORPION_NUMBA_STOCK"  # set to 1: numba compiles its own way, no patch
PATCHES = {"numba_inline": numba_inline, "numba_typing": numba_typing, "numba_liveness": numba_liveness}


def apply_all() -> dict[str, bool]:
    """Apply every patch that applies to this numba (before anything compiles), unless :data:`STOCK` is set;
    which ones are on."""
    if turned_off(STOCK):
        return applied()
    return {name: module.apply() for name, module in PATCHES.items()}


def applied() -> dict[str, bool]:
    """Which patches are on in this process (for the reports; nothing is applied)."""
    return {name: module.is_applied() for name, module in PATCHES.items()}


def masked_assembly(asm: str) -> str:
    """A kernel's assembly without its comments and the names that differ from process to process: labels,
    numba's mangled symbols (their unique ids, whose count of digits also sets the size of a constant string
    that spells a symbol), the constant byte strings' (after Python's per-process string hash). Two compiles
    of the same code give the same text (benchmarks/numba_patch_check.py)."""
    lines = [line for line in asm.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    masked = (re.sub(r'"?\.bytes\.-?\d+"?', "BYTES", line) for line in lines)
    masked = (re.sub(r"_ZN[\w$.]+", "SYM", re.sub(r"\.L[\w$.]+", "LBL", line)) for line in masked)
    return "\n".join(re.sub(r'(\.size\s+"[^"]*SYM[^"]*",\s*)\d+', r"\1SIZE", line) for line in masked)
