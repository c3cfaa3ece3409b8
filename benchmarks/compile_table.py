"""The cold compile of the solver's numba kernels: each kernel's CPU seconds, by job, and what each command pays.

Usage::

    python benchmarks/compile_table.py      # about 1.5-2 minutes of CPU: every kernel compiled once

A worker process with an empty ``NUMBA_CACHE_DIR`` loads the jobs of
``solver.compiling.JOBS`` one by one, in that order (each job's warm-up,
``search.WARM_UPS``), and numba's ``numba:compile`` events time each kernel's
compile in CPU seconds (``time.process_time``), a kernel's own time without
the kernels compiled inside it (a callee compiled on first use counts once,
for the first job that reaches it: ``compute_keys`` for the search, not for
perft). A job's row is the CPU of its whole load (typing, warm-up calls and
the cache's writes included). The commands' rows add the jobs each loads
before its work (``COMMAND_JOBS``); the jobs of ``ON_FIRST_USE`` are paid by
the first solve that needs them. The machine's load is recorded: on a busy
2-core machine the CPU seconds stay close, the wall-clock time does not.
Reports go to ``benchmarks/results/compile-<date>``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine_record, write_report  # noqa: E402


def measure() -> dict:
    """In this process (its numba cache empty): every job loaded in turn, each kernel's compile timed."""
    from numba.core import event

    from scorpion_solver.solver import compiling, search  # noqa: F401 - search fills compiling.WARM_UPS

    kernels: dict[str, dict] = {}
    open_compiles: list[list] = []  # [name, started, inner seconds]
    current_job = [""]

    class Timer(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            name = compiling.compiled_name(ev.data["dispatcher"].py_func, ev.data["args"])
            open_compiles.append([name, time.process_time(), 0.0])

        def on_end(self, ev: event.Event) -> None:
            name, started, inner = open_compiles.pop()
            spent = time.process_time() - started
            if open_compiles:
                open_compiles[-1][2] += spent
            entry = kernels.setdefault(name, {"job": current_job[0], "cpu_seconds": 0.0, "signatures": []})
            entry["cpu_seconds"] += spent - inner
            entry["signatures"].append(str(ev.data["args"]))  # a kernel compiled twice shows here

    jobs = {}
    with event.install_listener("numba:compile", Timer()):
        for job in compiling.JOBS:
            current_job[0] = job
            started = time.process_time()
            compiling.load((job,))
            jobs[job] = time.process_time() - started
    from scorpion_solver.solver import numba_patches

    return {"kernels": kernels, "jobs": jobs, "patches": numba_patches.applied()}


WIDE_ROWS = ("solve", "batch", "perft")  # the commands that play the ten-column games


def markdown(report: dict) -> str:
    from scorpion_solver.solver.compiling import COMMAND_JOBS, JOBS, ON_FIRST_USE, command_jobs, kernels_of

    jobs, kernels = report["jobs"], report["kernels"]
    lines = [
        "# The cold compile of the solver's kernels",
        "",
        "CPU seconds from an empty numba cache, jobs loaded in the order below (a kernel shared by two jobs is"
        " paid by the first). Kernels of the solver's jobs; others compiled inside them are their helpers.",
        "",
        "| job | kernels (own compile, CPU s) | job's load, CPU s |",
        "|---|---|---:|",
    ]
    for job, names in JOBS.items():
        listed = ", ".join(
            f"`{n}` {kernels[n]['cpu_seconds']:.1f}" for n in names if n in kernels and kernels[n]["job"] == job
        )
        lines.append(
            f"| {job}{' (on first use)' if job in ON_FIRST_USE else ''} | {listed or '(loaded before)'} | {jobs[job]:.1f} |"
        )
    lines += [
        "",
        "A command's cold compile: the loads of its jobs, and the kernels it shares with jobs loaded before"
        " them in the table (``perft`` alone compiles the make and the move list the search's jobs paid for).",
        "",
        "| command | jobs loaded before its work | CPU s, cold | + on first use |",
        "|---|---|---:|---|",
    ]
    rows = [(command, COMMAND_JOBS[command]) for command in COMMAND_JOBS]
    rows += [(f"{command} --mode mice", command_jobs(command, narrow=False, wide=True)) for command in WIDE_ROWS]
    for command, names in rows:
        shared = sum(
            kernels[n]["cpu_seconds"] for n in kernels_of(names) if n in kernels and kernels[n]["job"] not in names
        )
        # (the shortest search is one-deck only; a table grows in either layout)
        first_use = ON_FIRST_USE if "search" in names else ("rehash",) if "wide" in names else ()
        later = ", ".join(f"{j} {jobs[j]:.1f} s" for j in first_use if j not in names)
        lines.append(
            f"| `scorpion {command}` | {', '.join(names)} | {sum(jobs[j] for j in names) + shared:.0f} | {later or '-'} |"
        )
    m = report["machine"]
    lines += ["", f"All jobs: {sum(jobs.values()):.0f} s of CPU. Machine: {m['cpu']}, {m['cores']} cores, load"]
    lines += [f"{report['load_before']} before and {m['load_average']} after, numba {m['numba']}."]
    patches = report.get("patches", {})
    on = [name for name, applied in patches.items() if applied]
    lines += [
        "",
        f"numba patches (solver/numba_patches.py): {', '.join(on) if on else 'none (numba compiled its own way)'}.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure()))
        return
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        done = subprocess.run(
            [sys.executable, __file__, "--measure"], env=env, capture_output=True, text=True, check=False
        )
    if done.returncode:
        raise SystemExit(f"the measuring process failed:\n{done.stderr}")
    report = {**json.loads(done.stdout.splitlines()[-1]), "machine": machine_record(), "load_before": load_before}
    write_report(args.out, "compile", report, markdown(report))


if __name__ == "__main__":
    main()
