"""The suite's compile of the numba kernels, in two processes side by side (``tests/conftest.py`` runs it).

A fresh checkout compiles every kernel the suite calls before the tests start
(about two minutes of CPU). Two cores compile it in less wall-clock time as
two halves that share only small kernels:

* this process (:func:`compile_the_solver`): ``search.load_solver``, the
  search, the line kernels and the deal kernels;
* a second one (:func:`compile_the_rest`, ``python tests/compile_kernels.py``):
  ``shortest_search``, ``perft``, the kernels the tests call from Python and
  the ten-column games' kernels (the jobs ``wide`` and ``wide perft``): tests
  of those games sit in both workers and in their subprocesses, which would
  otherwise compile them side by side, minutes each.

The first loads every job of the solver but the shortest search (and
compiles its jobs but the search in a process beside it, ``compiling.load``);
the second compiles the shortest search. Each half works alone: when the
second fails or is slow, a test that needs what it left compiles it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def compile_the_rest() -> None:
    """``shortest_search``, then ``perft`` and the tests' kernels (generate_moves, the deadlock test), then the
    ten-column games' jobs, one at a time (one process: the other half has the second core)."""
    from scorpion_solver.game.deal import deal
    from scorpion_solver.game.rules import CLASSIC
    from scorpion_solver.solver import compiling
    from scorpion_solver.solver.driver import jit_bounded_search
    from scorpion_solver.solver.search import jit_deadlocked, jit_legal_moves, jit_perft

    position = deal(1)
    jit_bounded_search(deal(1, CLASSIC), CLASSIC, 0)
    jit_perft(position, 1)
    jit_legal_moves(position)
    jit_deadlocked(position)
    for job in WIDE_JOBS:
        compiling.load((job,), notify=print)


WIDE_JOBS = ("wide", "wide perft")


def compile_the_solver() -> None:
    """Every job of the solver but the shortest search, which the second process compiles meanwhile
    (``load_solver`` itself compiles the search here and the other jobs beside it, on a free core)."""
    from scorpion_solver.solver.search import ALL_JOBS, load_solver

    load_solver(notify=print, jobs=tuple(job for job in ALL_JOBS if job != "shortest"))


def compile_every_kernel() -> None:
    """Both halves at once: the rest in a second process, the solver in this one."""
    print("\nconftest: compiling the kernels numba's cache lacks in two processes, before the tests start", flush=True)
    start = time.perf_counter()
    rest = subprocess.Popen([sys.executable, str(Path(__file__))])
    try:
        compile_the_solver()
    finally:
        code = rest.wait()
    if code:
        print(f"conftest: the second compile process failed (exit {code}); compiling here what it left", flush=True)
        compile_the_rest()
    print(f"conftest: compiled in {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    compile_the_rest()
