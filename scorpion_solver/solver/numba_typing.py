"""numba's typing of a call to one of its own functions or operators, done once per argument types in a compile.

Why: to type ``a + b`` or ``np.uint64(x)`` numba tries the function's
templates one by one (``BaseFunction.get_call_type``); most fail, each
failure is recorded, and the ``@overload`` templates among them hash the
compile's flags on every try. The search's helpers are inlined at numba's IR
level, so the same operation on the same types is typed again at every copy:
in the search job's compile about 10,000 such typings, 9,300 of them repeats
of one already done in the same compile, about a sixth of its cold compile.

What: a successful typing is remembered, keyed by the function type, the
argument types (literal ones included) and the typing context and flags it
was made under (by identity: the flags are copied for each function
compiled, so a remembered typing is used only inside the compile that made
it). A repeat returns the same signature and records the same
implementation key, as numba's own typing does each time
(``self._impl_keys[sig.args]``, which lowering reads). A failure is not
remembered: it is typed again, numba's way, and raises as before. numba's
templates are pure functions of these for a repeat inside one compile: the
remembered signatures give the same typed IR and the same machine code
(``benchmarks/numba_patch_check.py``: every kernel's assembly compared).

Applied with the other patches (``solver/numba_patches.py``), only when
numba's ``get_call_type`` is the one written against;
``SCORPION_NUMBA_STOCK_TYPING=1`` turns it off.
"""

from __future__ import annotations

from numba.core import targetconfig
from numba.core.types import functions

from .numba_guard import turned_off, written_against

OFF = "SCORPION_NUMBA_STOCK_TYPING"  # set to 1: every call typed afresh, numba's way
_MARKS = ("self._impl_keys[sig.args] = temp.get_impl_key(sig)", "failures.raise_error()")

# (id of the function type, of the context, of the flags, argument types, keywords)
#   -> (signature, implementation key, the function type, context and flags, held so their ids stay theirs)
_typed: dict[tuple, tuple] = {}
counts = {"typed": 0, "repeated": 0}  # for the tests: how many typings were done, and how many remembered


def _remembering(get_call_type):
    def patched(self, context, args, kws):
        flags = targetconfig.ConfigStack.top_or_none()
        key = (id(self), id(context), id(flags), tuple(args), tuple(kws.items()))
        try:
            known = _typed.get(key)
        except TypeError:  # an unhashable argument type: numba's way
            return get_call_type(self, context, args, kws)
        if known is not None:
            signature, impl_key = known[0], known[1]
            self._impl_keys[signature.args] = impl_key
            counts["repeated"] += 1
            return signature
        signature = get_call_type(self, context, args, kws)
        counts["typed"] += 1
        _typed[key] = (signature, self._impl_keys[signature.args], self, context, flags)
        return signature

    patched.__wrapped__ = get_call_type
    patched.__doc__ = get_call_type.__doc__
    return patched


def matches_numba() -> bool:
    """Whether this numba's ``BaseFunction.get_call_type`` is the one the patch was written against."""
    return written_against(functions.BaseFunction.get_call_type, _MARKS)


def applies() -> bool:
    return not turned_off(OFF) and matches_numba()


def is_applied() -> bool:
    return hasattr(functions.BaseFunction.get_call_type, "__wrapped__")


def apply() -> bool:
    """Remember numba's typings of calls (once, if :func:`applies`); return whether it does."""
    if is_applied():
        return True
    if not applies():
        return False
    functions.BaseFunction.get_call_type = _remembering(functions.BaseFunction.get_call_type)
    return True
