"""numba's compile of the kernels: which ones a program needs that numba's cache lacks, announced and counted.

Every jitted function is compiled with ``cache=True``: the first program that
calls it in a new checkout (or after its source changed) compiles it and
writes it to numba's cache, and every later program loads it in well under a
second. The compile is long: the solver's 19 kernels take about 1.5 minutes of CPU
(``search``, ``shortest_search`` and ``shorten_line`` most of it), and up to
8.5 minutes of wall-clock time were measured on a 2-core machine busy with
other work. So a program that is about to compile says so first, and can show
a bar that advances kernel by kernel.

:func:`compiling` does both around the code that triggers the compile: it
asks numba's cache which of the named kernels it lacks, and listens to
numba's ``numba:compile`` events (sent only for a real compile, never for a
cache load) to count them as each is done. The lists say which kernels a
job compiles: :data:`SOLVER_KERNELS` for ``search.load_solver`` (the search,
the line kernels, the deal and screen kernels), :data:`PERFT_KERNELS` for
``perft``; ``tests/test_solver_loading.py`` checks each list against the
kernels its job loads.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence

from numba.core import event

from . import deal_kernel, kernel

# The kernels search.load_solver compiles, in the order a cold compile finishes them.
SOLVER_KERNELS = (
    "_column_hash",
    "compute_keys",
    "_deadlocked",
    "_keys_by_making",
    "search",
    "_made_from",
    "_furthest_grandchild",
    "shorten_line",
    "make_move",
    "shortest_search",
    "_mt_seed",
    "_mt_twist",
    "_mt_output",
    "_shuffle",
    "shuffle_many",
    "write_deal",
    "write_deals",
    "screen_roots",
    "rehash",
)
PERFT_KERNELS = ("_column_hash", "compute_keys", "perft")
# What each costs to compile, from an empty cache, measured on 2 cores: the solver 82 s of CPU on a quiet
# machine (139 s before shorten_line stopped inlining make_move at five call sites; that version took
# 513 s of wall-clock time at a load of 10), perft 12 s.
SOLVER_COST = "about 1.5 minutes of CPU, up to 10 minutes on a busy machine"
PERFT_COST = "under a minute"

COMPILE_NOTE = (
    "compiling {what} ({count} kernel{s}): first run only, {cost}; later runs load it from numba's cache in "
    "about a second"
)


def _dispatcher(name: str):
    return getattr(kernel, name, None) or getattr(deal_kernel, name)


def is_cached(name: str) -> bool:
    """Whether numba's cache holds compiled code of the kernel ``name`` (of ``kernel`` or ``deal_kernel``)."""
    try:
        return bool(_dispatcher(name)._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - a numba without these internals: assume cached, say nothing
        return True


def missing(names: Sequence[str]) -> list[str]:
    """The kernels of ``names`` that numba's cache lacks (what the job will compile), in order."""
    return [name for name in names if not is_cached(name)]


class _Counter(event.Listener):
    """Advances ``bar`` by one as each kernel of ``names`` is compiled for the first time."""

    def __init__(self, names: set[str], bar) -> None:
        self.left = set(names)
        self.bar = bar

    def on_start(self, ev: event.Event) -> None:
        pass

    def on_end(self, ev: event.Event) -> None:
        function = ev.data["dispatcher"].py_func
        if function.__module__ in (kernel.__name__, deal_kernel.__name__) and function.__name__ in self.left:
            self.left.discard(function.__name__)
            self.bar.update(1)


@contextlib.contextmanager
def compiling(
    names: Sequence[str],
    what: str,
    cost: str,
    notify: Callable[[str], None] | None = None,
    progress: Callable[[int], object] | None = None,
) -> Iterator[list[str]]:
    """Around code that uses the kernels ``names``: say what it will compile, count the kernels as they are done.

    When numba's cache lacks some of them, ``notify`` gets one message
    (:data:`COMPILE_NOTE`, naming ``what`` and its ``cost``) and ``progress(total)`` makes the bar (tqdm's
    ``update`` and ``close``) that advances as each is compiled. Yields the
    missing kernels (empty when all are cached: nothing is said).
    """
    todo = missing(names)
    if not todo:
        yield todo
        return
    if notify is not None:
        notify(COMPILE_NOTE.format(what=what, count=len(todo), s="" if len(todo) == 1 else "s", cost=cost))
    if progress is None:
        yield todo
        return
    bar = progress(len(todo))
    try:
        with event.install_listener("numba:compile", _Counter(set(todo), bar)):
            yield todo
    finally:
        bar.close()


def compile_bar(disable: bool | None = None) -> Callable[[int], object]:
    """A ``progress`` for :func:`compiling`: a tqdm bar on standard error counting kernels (None: on a terminal)."""

    def make(total: int):
        from tqdm.auto import tqdm

        return tqdm(
            total=total,
            desc="compiling",
            bar_format="{desc}: {n_fmt}/{total_fmt} kernels |{bar}| {elapsed}",
            file=sys.stderr,
            disable=disable,
            leave=False,
        )

    return make
