"""The suite's compile of the numba kernels, in three processes side by side (``tests/conftest.py`` runs it).

A fresh checkout compiles every kernel the suite calls before the tests start
(about two minutes of CPU on a Xeon, four on an EPYC). Two cores compile it in
less wall-clock time as parts that share only small kernels:

* this process (:func:`compile_the_solver`): ``search.load_solver``, the
  search, the line kernels and the deal kernels;
* a second one (:func:`compile_the_rest`, ``python tests/compile_kernels.py rest``):
  ``shortest_search``, ``perft`` and the kernels the tests call from Python;
* a third (:func:`compile_the_ten_column_games`, ``python tests/compile_kernels.py wide``):
  the ten-column games' jobs (``wide``, ``wide perft``), whose tests sit in
  both workers and in their subprocesses, which would otherwise compile them
  side by side, minutes each. In the second process after its own work, they
  made the compile 189 s of wall time on the EPYC, the last 100 s on one core.

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
    """``shortest_search``, then ``perft`` and the tests' kernels (generate_moves, the deadlock test)."""
    from scorpion_solver.game.deal import deal
    from scorpion_solver.game.rules import CLASSIC
    from scorpion_solver.solver.driver import jit_bounded_search
    from scorpion_solver.solver.search import jit_deadlocked, jit_legal_moves, jit_perft

    position = deal(1)
    jit_bounded_search(deal(1, CLASSIC), CLASSIC, 0)
    jit_perft(position, 1)
    jit_legal_moves(position)
    jit_deadlocked(position)


WIDE_JOBS = ("wide", "wide perft")


def compile_the_ten_column_games() -> None:
    """The ten-column games' jobs, one at a time (one process: the other parts have the cores)."""
    from scorpion_solver.solver import compiling, search  # noqa: F401 - search fills compiling.WARM_UPS

    for job in WIDE_JOBS:
        compiling.load((job,), notify=print)


def compile_the_solver() -> None:
    """Every job of the solver but the shortest search, which the second process compiles meanwhile
    (``load_solver`` itself compiles the search here and the other jobs beside it, on a free core)."""
    from scorpion_solver.solver.search import ALL_JOBS, load_solver

    load_solver(notify=print, jobs=tuple(job for job in ALL_JOBS if job != "shortest"))


PARTS = {"rest": compile_the_rest, "wide": compile_the_ten_column_games}  # the other processes' parts


def compile_every_kernel() -> None:
    """Every part at once: the solver in this process, the others beside it."""
    print(
        "\nconftest: compiling the kernels numba's cache lacks in three processes, before the tests start", flush=True
    )
    start = time.perf_counter()
    beside = {name: subprocess.Popen([sys.executable, str(Path(__file__)), name]) for name in PARTS}
    try:
        compile_the_solver()
    finally:
        codes = {name: process.wait() for name, process in beside.items()}
    for name, code in codes.items():
        if code:
            print(f"conftest: the compile process of '{name}' failed (exit {code}); compiling it here", flush=True)
            PARTS[name]()
    print(f"conftest: compiled in {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    PARTS[sys.argv[1] if len(sys.argv) > 1 else "rest"]()
