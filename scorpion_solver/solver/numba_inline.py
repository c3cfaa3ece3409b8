"""numba's inlining of ``inline='always'`` functions, made to copy each callee's scope once instead of once a block.

Why: the kernels inline their helpers (kernel.py, "inlining"), and numba's
``InlineWorker.inline_ir`` copies the callee's IR at every call site, block by
block, each block with a ``copy.deepcopy`` of its own. Every variable in a
block holds the function's ``Scope``, which holds every variable of the
function; so each block's copy copies the whole scope again, and a callee of
B blocks and V variables costs B x V (``_expand``, with its own helpers
inlined into it, has hundreds of both). In a profile of the search job's cold
compile this copying was about half of numba's Python time (numba issues 8989
and 9204 describe the same cost; numba-cuda's PR 689 trims it another way).

What: for the length of one ``inline_ir`` call, the blocks of one scope are
copied with one shared ``deepcopy`` memo, so the scope and the variables it
holds are copied once per IR copy. The copy is the same IR: a fresh numba IR
shares each variable object among its blocks, as this copy does (the block
by block copy gave each block copies of its own). Nothing else changes: the
inlined code, its types and the machine code are numba's.

Applied with the other patches (``solver/numba_patches.py``) on import of
``solver.kernel``, before anything compiles, only when numba's ``inline_ir``
is the one it was written against (it copies with
``copy.deepcopy(the_ir.blocks[block_label])``); with another numba it does
nothing, and ``SCORPION_NUMBA_STOCK_INLINE=1`` turns it off. The cold compile
with and without it: benchmarks/compile_table.py, docs/design.md ("The compile").
"""

from __future__ import annotations

import copy
import types

from numba.core import inline_closurecall, ir

from .numba_guard import turned_off, written_against

OFF = "SCORPION_NUMBA_STOCK_INLINE"  # set to 1: numba's own copying, block by block
_MARK = "copy.deepcopy(the_ir.blocks[block_label])"  # the line of numba's copy_ir this replaces the memo of

_memos: list[dict[int, dict]] = []  # one entry per inline_ir in progress: id(scope) -> the deepcopy memo


def _deepcopy(value, memo=None):
    """``copy.deepcopy``, but a block copied with no memo inside an ``inline_ir`` shares its scope's memo."""
    if memo is None and _memos and isinstance(value, ir.Block):
        memo = _memos[-1].setdefault(id(value.scope), {})
    return copy.deepcopy(value, memo)


class _CopyModule(types.ModuleType):
    """The ``copy`` module as inline_closurecall sees it: its own, with :func:`_deepcopy`."""

    def __getattr__(self, name):
        return getattr(copy, name)


def _with_scope_memos(inline_ir):
    def patched(self, *args, **kwargs):
        _memos.append({})  # a memo lives for one inline_ir: the next call site copies the callee afresh
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            _memos.pop()

    patched.__wrapped__ = inline_ir
    patched.__doc__ = inline_ir.__doc__
    return patched


def matches_numba() -> bool:
    """Whether this numba's ``inline_ir`` is the one the patch was written against (it copies block by block)."""
    worker = getattr(inline_closurecall, "InlineWorker", None)
    return written_against(getattr(worker, "inline_ir", None), (_MARK,))


def applies() -> bool:
    """Whether the patch is to be applied: this numba is the one it was written for, and it is not turned off."""
    if turned_off(OFF):
        return False
    return getattr(inline_closurecall, "copy", None) is copy and matches_numba()


def is_applied() -> bool:
    return isinstance(getattr(inline_closurecall, "copy", None), _CopyModule)


def apply() -> bool:
    """Patch numba's inliner (once, if :func:`applies`); return whether it is patched."""
    if is_applied():
        return True
    if not applies():
        return False
    module = _CopyModule("copy")
    module.deepcopy = _deepcopy
    inline_closurecall.copy = module
    worker = inline_closurecall.InlineWorker
    worker.inline_ir = _with_scope_memos(worker.inline_ir)
    return True
