"""Each command loads (and on a first run compiles) the numba kernels its work calls, and no others.

A command loads its jobs' kernels before its clock starts
(``solver.compiling.COMMAND_JOBS``, each job by its warm-up in
``search.WARM_UPS``). Each command below runs twice in a fresh process:
as it is, and with every warm-up turned into nothing, so that only the
command's own work calls kernels. A kernel is loaded into a process only
when called (from numba's cache, or compiled on a first run); so the
jobs loaded the first way must be those the second way calls. A job loaded
ahead that the work never calls is one a first run compiles for nothing
(the command's job list is too wide); a job the work calls that the command
does not name is compiled in the middle of the work (too narrow), unless it
is one loaded on first use (``ON_FIRST_USE``: the polish's shortest search,
the table's growth), which both ways then load alike.

A kernel is named per layout (``compiling.compiled_name``): ``search`` for
the one-deck states, ``search:wide`` for the ten-column games' (the ``wide``
job), so a one-deck command that compiled a wide specialization, or a
ten-column one that compiled a one-deck kernel, fails the same checks.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import json, sys
    from numba.core.registry import CPUDispatcher
    from scorpion_solver.solver import compiling, deal_kernel, kernel, search  # search fills the warm-ups

    bare, out, args = sys.argv[1] == "bare", sys.argv[2], sys.argv[3:]
    if bare:
        assert sorted(compiling.WARM_UPS) == sorted(compiling.JOBS)
        for job in compiling.WARM_UPS:
            compiling.WARM_UPS[job] = lambda: None
    if args[0] == "batch-worker":  # what a batch worker does with its first chunk: warm up for its games, solve
        from scorpion_solver.batch.backends import _worker_init, solve_pairs
        from scorpion_solver.solver.result import Limits

        _worker_init()  # a local worker's start (it loaded the one-deck kernels, whatever the games, until 2026-12-07)

        # clear deal 65's line is polished by a small shortest search and deal 103's table grows (as in any
        # large batch)
        pairs = [(6560, "classic")] if "--shortest" in args else [(n, "clear") for n in range(60, 106)]
        if "--mice" in args:
            pairs = [(3, "mice"), (1860, "mice")]  # 3: a line the cut shortens; 1860: its table grows
        solve_pairs(pairs, Limits(), shortest="--shortest" in args)
    else:
        from scorpion_solver.cli import main

        main(args, standalone_mode=False)
    loaded = sorted(
        {
            compiling.compiled_name(function.py_func, signature)
            for module in (kernel, deal_kernel)
            for function in vars(module).values()
            if isinstance(function, CPUDispatcher)
            for signature in function.overloads
        }
    )
    with open(out, "w") as handle:
        json.dump(loaded, handle)
""")

# Inputs that reach every kernel of the command's jobs: classic deal 6560 is won by a line the
# detour cut shortens (decoded again by the compiled make), in a search whose table grows (rehash);
# Three Blind Mice deal 3 is won by a line the cut shortens (and 6561 by a search: its deal 6560 is dead at the
# root, decided by the plain deadlock test with no kernel). Each entry: the command of COMMAND_JOBS,
# its arguments, and whether it plays one-deck games and ten-column ones.
COMMANDS = {
    "solve": ("solve", ["solve", "6560", "--mode", "classic"], True, False),
    "solve --shortest": ("solve --shortest", ["solve", "6560", "--mode", "classic", "--shortest"], True, False),
    "batch": ("batch", ["batch-worker"], True, False),
    "batch --shortest": ("batch --shortest", ["batch-worker", "--shortest"], True, False),
    "batch --mode mice": ("batch", ["batch-worker", "--mice"], False, True),
    "hint": ("hint", ["hint", "6560", "--mode", "classic"], True, False),
    "hint --fair": ("hint --fair", ["hint", "6560", "--mode", "classic", "--fair", "--samples", "4"], True, False),
    "play": ("play", ["play", "6560", "--mode", "classic", "--policy", "hop", "--samples", "4"], True, False),
    "perft": ("perft", ["perft", "5", "--depth", "2"], True, False),
    "solve --mode mice": ("solve", ["solve", "3", "--mode", "mice"], False, True),
    "solve --mode classic,mice": ("solve", ["solve", "6560-6561", "--mode", "classic,mice"], True, True),
    "perft --mode mice": ("perft", ["perft", "3", "--mode", "mice", "--depth", "2"], False, True),
}


def loaded_kernels(tmp_path, how: str, args: list[str]) -> list[str]:
    out = tmp_path / f"{how}.json"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, how, str(out), *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


def jobs_touched(kernels: list[str]) -> set[str]:
    """The jobs one of whose own kernels (in no other job) is loaded."""
    from scorpion_solver.solver.compiling import JOBS

    return {
        job
        for job, names in JOBS.items()
        if any(name in kernels and all(name not in other for j, other in JOBS.items() if j != job) for name in names)
    }


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_loads_only_the_kernels_its_work_calls(command, tmp_path):
    from scorpion_solver.solver.compiling import JOBS, ON_FIRST_USE, command_jobs

    name, args, narrow, wide = COMMANDS[command]
    jobs = command_jobs(name, narrow, wide)
    ahead = loaded_kernels(tmp_path, "as-is", args)
    called = loaded_kernels(tmp_path, "bare", args)
    assert set(called) <= set(ahead)
    # a job's kernels are loaded together, and some only on some inputs (the line kernels: when the cut
    # shortens a line); so what the command loads ahead is compared job by job with what its work calls
    assert jobs_touched(ahead) == jobs_touched(called)
    assert set(jobs) <= jobs_touched(called)  # and it loads, ahead, every job it calls
    # the ten-column games' kernels only for those games, and the one-deck ones only for one-deck games
    assert ("wide" in jobs_touched(called)) == (wide and name != "perft")
    assert any(kernel.endswith(":wide") for kernel in called) == wide
    assert ("search" in called or "perft" in called) == narrow
    allowed = {name for job in jobs + (ON_FIRST_USE if narrow else ("rehash",)) for name in JOBS[job]}
    known = {name for names in JOBS.values() for name in names}
    assert set(ahead) & known <= allowed


def test_the_one_deck_budget_leaves_the_wide_kernels_out():
    """What a one-deck command announces (and its bar counts) is its own jobs' kernels: no wide one."""
    from scorpion_solver.solver.compiling import COMMAND_JOBS, command_jobs, cost_of, kernels_of

    for command, jobs in COMMAND_JOBS.items():
        assert command_jobs(command) == jobs
        assert not any(name.endswith(":wide") for name in kernels_of(jobs))
    assert command_jobs("solve", narrow=False, wide=True) == ("wide",)
    assert command_jobs("perft", narrow=False, wide=True) == ("wide perft",)
    assert command_jobs("batch", wide=True) == COMMAND_JOBS["batch"] + ("wide",)
    # the announcement's cost of a one-deck command is its own jobs', the wide job's apart
    assert cost_of(command_jobs("solve")) == cost_of(("search", "lines"))
    assert cost_of(command_jobs("solve", wide=True)) == cost_of(("search", "lines", "wide"))
