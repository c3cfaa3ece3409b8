"""Loading the compiled solver: before the first solve's clock starts, announced once when it compiles.

A solve's seconds never include numba's compilation or its cache load; a run
that compiles says so once on stderr; an empty numba cache is detected.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

from scorpion_cli import run

# ---------------------------------------------------------------------------
# 10. timings: the solver is loaded before the first solve's clock starts


def test_the_kernel_is_loaded_when_the_first_solve_starts_its_clock():
    script = textwrap.dedent("""
        import time
        from scorpion_solver.solver import kernel as K, search
        from scorpion_solver.game.deal import deal
        seen = []
        real = time.perf_counter
        def clock():
            seen.append(len(K.search.overloads))
            return real()
        search.time.perf_counter = clock
        search.solve(deal(5))
        search.time.perf_counter = real
        print(seen[-2], len(seen))
    """)
    # seen[-2] is the solve's own start: by then the kernel must be loaded (one overload)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    loaded_at_start, _ = done.stdout.split()
    assert loaded_at_start == "1"


def test_a_first_run_says_once_that_the_solver_is_being_compiled(monkeypatch):
    from scorpion_solver.solver import compiling

    monkeypatch.setattr(compiling, "_loaded_jobs", set())
    monkeypatch.setattr(compiling, "missing", lambda names: list(names))  # as if numba's cache were empty
    result = run("solve", "4-6")
    assert result.exit_code == 0
    # solve loads its own jobs only: the search and the line kernels, not the deal, screen or perft kernels
    assert compiling.COMMAND_JOBS["solve"] == ("search", "lines")
    count = len(compiling.kernels_of(("search", "lines")))
    note = compiling.COMPILE_NOTE.format(
        what="the solver's search and lines kernels", count=count, s="s", cost=compiling.cost_of(("search", "lines"))
    )
    assert result.stderr == note + "\n"
    assert note == (
        f"compiling the solver's search and lines kernels ({count} kernels): first run only, "
        f"about {compiling.JOB_COST['search'] + compiling.JOB_COST['lines']:.0f} s of CPU, several times that "
        "on a busy machine; later runs load it from numba's cache in about a second"
    )
    # the summary keeps the compile apart from the searches
    assert re.fullmatch(
        r"3 solves: clear: 1 won, 2 lost, 0 unknown \[[0-9,]+ nodes, [0-9.]+ s searching; [0-9.]+ s compiling "
        rf"the solver \({count} kernels; first run only\) before\]",
        result.stdout.splitlines()[-1],
    )
    monkeypatch.undo()
    result = run("solve", "4-6")  # loaded now: nothing said
    assert result.stderr == ""
    assert result.stdout.splitlines()[-1].endswith(" s searching]")


def test_an_empty_numba_cache_is_detected(tmp_path):
    code = "from scorpion_solver.solver.search import solver_is_cached; print(solver_is_cached())"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    empty = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert empty.stdout.strip() == "False", empty.stderr
    normal = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert normal.stdout.strip() == "True", normal.stderr
