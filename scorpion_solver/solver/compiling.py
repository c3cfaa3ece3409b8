"""numba's compile of the kernels: which ones a program needs that numba's cache lacks, announced and counted.

Every jitted function is compiled with ``cache=True``: the first program that
calls it in a new checkout (or after its source changed) compiles it and
writes it to numba's cache, and every later program loads it in well under a
second. The compile is long: a one-deck solve's kernels take about half a
minute of CPU (``search`` most of it), a ten-column game's as much again, and
several times that in wall-clock time on a 2-core machine busy with other work. So a program that is about to compile says so first, and can show
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
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence

from numba.core import event, types

from . import deal_kernel, kernel

# The solver's kernels by job, each in the order a cold compile finishes them. A job is what one
# piece of work calls: a command loads the jobs of COMMAND_JOBS before its clock starts, and a job
# reached only now and then (a line polished by a small shortest search) is loaded when first
# needed, its compile kept out of the solve's seconds. A kernel for a new game shape is one more
# job (and its warm-up in search.WARM_UPS), named by the commands that call it.
WIDE = ":wide"  # a kernel's name with this suffix: its specialization for the wide layout's int16 states
JOBS: dict[str, tuple[str, ...]] = {
    "search": ("_column_hash", "compute_keys", "_deadlocked", "made_from", "search"),
    "rehash": ("rehash",),
    "lines": ("_move_list", "_child_on_line", "_furthest_grandchild", "shorten_line"),
    "shortest": ("made_from", "_move_list", "shortest_search"),
    "deals": ("_mt_seed", "_mt_twist", "_mt_output", "_shuffle", "shuffle_many", "write_deal", "write_deals"),
    "screen": ("screen_roots",),
    "perft": ("_column_hash", "compute_keys", "made_from", "_move_list", "perft"),
    # the ten-column games (Double Scorpion, its dealt layout, Three Blind Mice): the same kernels
    # compiled for the int16 states of the wide layout, each its own signature (``name:wide``),
    # compiled only when a command asks for one of those games
    "wide": tuple(
        name + WIDE
        for name in (
            "_column_hash",
            "compute_keys",
            "_deadlocked",
            "wide_root_dead",
            "made_from",
            "search",
            "_move_list",
            "_child_on_line",
            "_furthest_grandchild",
            "shorten_line",
        )
    ),
    "wide perft": tuple(name + WIDE for name in ("_column_hash", "compute_keys", "made_from", "_move_list", "perft")),
}
# The jobs a solve reaches only now and then, loaded when first needed: the shortest search (the
# polish of a line with many King moves) and the table's growth.
ON_FIRST_USE = ("shortest", "rehash")
# What each command loads before its work (the jobs of ON_FIRST_USE come later, if its work needs them).
COMMAND_JOBS: dict[str, tuple[str, ...]] = {
    "solve": ("search", "lines"),
    "solve --shortest": ("search", "lines", "shortest"),
    # a large batch polishes some line and grows some table: loaded ahead, so its workers find them cached
    "batch": ("search", "rehash", "lines", "shortest", "deals", "screen"),
    "batch --shortest": ("search", "lines", "shortest"),
    "hint": ("search", "lines"),
    "hint --fair": ("search", "lines"),
    "hint --exact": ("search",),
    "analyze": ("search", "lines"),
    "show": ("search", "lines"),
    "play": ("search", "lines"),
    "serve": ("search",),
    "perft": ("perft",),
}
# CPU seconds each job takes to compile from an empty cache, loaded in JOBS' order (a kernel two jobs
# share is paid by the first; perft and wide perft alone, as their commands load them), measured on this
# project's 2-core AMD EPYC machine with numba patched (solver/numba_patches.py):
# benchmarks/results/compile-20261208-005020-paired-patched.md, docs/design.md ("The compile"). Until
# 8 December 2026 these were a quiet Xeon's figures scaled by paired ratios, which the EPYC took about
# four times; a newcomer's machine is more likely to beat these than to fall short of them.
JOB_COST = {
    "search": 25,
    "rehash": 0.3,
    "lines": 13,
    "shortest": 5,
    "deals": 2,
    "screen": 0.6,
    "perft": 8,
    "wide": 44,
    "wide perft": 8,
}
# The jobs a command loads in place of the one-deck ones for the ten-column games (a command given both
# kinds of game loads both).
WIDE_JOBS = {"search": "wide", "rehash": "rehash", "lines": "wide", "perft": "wide perft"}


def command_jobs(command: str, narrow: bool = True, wide: bool = False) -> tuple[str, ...]:
    """The jobs ``command`` loads before its work (:data:`COMMAND_JOBS`), for one-deck games (``narrow``),
    ten-column ones (``wide``) or both: a wide game's jobs replace the one-deck search, lines and perft."""
    jobs = COMMAND_JOBS[command]
    chosen = list(jobs) if narrow else []
    if wide:
        chosen += [WIDE_JOBS[job] for job in jobs if job in WIDE_JOBS]
    return tuple(dict.fromkeys(chosen))


def kernels_of(jobs: Sequence[str]) -> tuple[str, ...]:
    """The kernels of ``jobs``, each once, in the jobs' order."""
    return tuple(dict.fromkeys(name for job in jobs for name in JOBS[job]))


def cost_of(jobs: Sequence[str]) -> str:
    """The announcement's words for what compiling ``jobs`` costs (from :data:`JOB_COST`)."""
    seconds = sum(JOB_COST[job] for job in jobs)
    about = "under a second" if seconds < 1 else f"about {seconds:.0f} s"
    return f"{about} of CPU, several times that on a busy machine"


SOLVER_KERNELS = kernels_of(("search", "rehash", "lines", "shortest", "deals", "screen"))  # what load_solver() loads
PERFT_KERNELS = JOBS["perft"]
SOLVER_COST = cost_of(("search", "rehash", "lines", "shortest", "deals", "screen"))
PERFT_COST = cost_of(("perft",))

COMPILE_NOTE = (
    "compiling {what} ({count} kernel{s}): first run only, {cost}; later runs load it from numba's cache in "
    "about a second"
)


def _dispatcher(name: str):
    name = name.removesuffix(WIDE)
    return getattr(kernel, name, None) or getattr(deal_kernel, name)


def _takes_wide(args) -> bool:
    """Whether a signature's argument types include a wide state (an int16 array)."""
    return any(isinstance(t, types.Array) and t.dtype == types.int16 for t in args)


def compiled_name(function, args) -> str:
    """The name of a kernel's compile in the jobs' lists: its own, with :data:`WIDE` for a wide state's."""
    return function.__name__ + (WIDE if _takes_wide(args) else "")


def is_cached(name: str) -> bool:
    """Whether numba's cache holds compiled code of the kernel ``name`` (of ``kernel`` or ``deal_kernel``),
    for the one-deck layout (or, for a name ending in :data:`WIDE`, the wide one)."""
    wide = name.endswith(WIDE)
    try:
        index = _dispatcher(name)._cache._cache_file._load_index()
        return any(_takes_wide(getattr(key[0], "args", key[0])) == wide for key in index)
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
        name = compiled_name(function, ev.data["args"])
        if function.__module__ in (kernel.__name__, deal_kernel.__name__) and name in self.left:
            self.left.discard(name)
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


WARM_UPS: dict[str, Callable[[], object]] = {}  # job -> code that calls its kernels once (search.py fills it)
_loaded_jobs: set[str] = set()  # the jobs whose kernels this process has loaded
_announce: tuple = (None, None)  # the notify and progress of lazy loads (announce_with)
seconds_loading = 0.0  # every load's seconds in this process: a solve takes a lazy load out of its own


def announce_with(notify: Callable[[str], None] | None, progress: Callable[[int], object] | None) -> None:
    """How a job loaded later (when first needed) announces its compile: as the command's own load did."""
    global _announce
    _announce = (notify, progress)


def job_words(jobs: Sequence[str]) -> str:
    """``the solver's search and lines kernels``: what an announcement says it compiles."""
    names = [job.replace("wide", "ten-column games'") for job in jobs]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"the solver's {listed} kernels"


def load(jobs: Sequence[str], notify: Callable[[str], None] | None = None, progress=None) -> float:
    """Load the kernels of ``jobs`` into this process (compiling those numba's cache lacks); the seconds spent.

    Jobs loaded already are skipped (0 s when all are). Without ``notify`` and ``progress``, those of
    :func:`announce_with` announce the compile. Each job is loaded by its warm-up (:data:`WARM_UPS`),
    which calls its kernels once on a small input. When two jobs or more must compile and the machine
    has more than one core, the first is compiled here and the others beside it in other processes
    (:func:`compile_beside`), then loaded here from numba's cache.
    """
    global seconds_loading
    todo = [job for job in dict.fromkeys(jobs) if job not in _loaded_jobs]
    if not todo:
        return 0.0
    if notify is None and progress is None:
        notify, progress = _announce
    start = time.perf_counter()
    _loaded_jobs.update(todo)  # first: a warm-up calls code that loads its own jobs
    try:
        with compiling(kernels_of(todo), job_words(todo), cost_of(todo), notify, progress) as cold:
            beside = compile_beside([job for job in todo if set(JOBS[job]) & set(cold)])
            for job in todo:
                if job not in beside.jobs:
                    WARM_UPS[job]()
            beside.wait()  # then its jobs load from the cache (or compile here, if a process failed)
            for job in beside.jobs:
                WARM_UPS[job]()
    except BaseException:
        _loaded_jobs.difference_update(todo)
        raise
    spent = time.perf_counter() - start
    seconds_loading += spent
    return spent


class Beside:
    """Processes compiling jobs into numba's cache beside this one (:func:`compile_beside`)."""

    def __init__(self, jobs: list[str], processes: list) -> None:
        self.jobs = jobs
        self.processes = processes

    def wait(self) -> None:
        for process in self.processes:
            process.wait()


def compile_beside(cold: list[str]) -> Beside:
    """Start compiling every cold job but the first in other processes, one a free core (none on one core).

    The first is the one this process compiles (the callers list the search, the largest, first); a
    job compiled beside writes numba's cache, which this process then reads. ``SCORPION_COMPILE_PROCESSES=1``
    keeps the whole compile in this process.
    """
    cores = os.cpu_count() or 1
    if len(cold) < 2 or cores < 2 or os.environ.get("SCORPION_COMPILE_PROCESSES") == "1":
        return Beside([], [])
    others = cold[1:]
    ways = min(len(others), cores - 1)
    groups = [others[i::ways] for i in range(ways)]
    # search fills WARM_UPS and loads through this module (importing it here would be a circle)
    command = [
        sys.executable,
        "-c",
        "import sys; from scorpion_solver.solver.search import load_solver; load_solver(jobs=tuple(sys.argv[1:]))",
    ]
    env = dict(os.environ, SCORPION_COMPILE_PROCESSES="1")  # each compiles its own jobs alone
    processes = [
        subprocess.Popen(command + group, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        for group in groups
    ]
    return Beside(others, processes)


def is_loaded(jobs: Sequence[str]) -> bool:
    """Whether this process has loaded every job of ``jobs``."""
    return all(job in _loaded_jobs for job in jobs)


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
