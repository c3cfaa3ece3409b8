"""A batch's CPU per deal, split by where it goes, and against its C twin (issues 13 and 32).

Usage::

    python benchmarks/bench_batch.py        # classic 1-20000, Clear 1-20000, both modes 1-10000
    python benchmarks/bench_batch.py --runs clear:1-100000 --split-calls 0
    git archive main | tar -x -C /tmp/main  # a baseline checkout, then
    python benchmarks/bench_batch.py --baseline /tmp/main --baseline-label main

Runs what a batch worker runs (``batch.backends.solve_pairs``: generate each
deal, solve it, build its row; then the chunk's rows written as a Parquet
file) in a worker process, over each run of ``--runs`` (``MODES:FIRST-LAST``;
``clear+classic`` takes every deal in both modes, as ``scorpion batch``
does), and reports per run the CPU per deal split into

* deal generation, search (the search kernel's calls), line (the kernels
  that cut a won line's detours and polish it: ``shorten_line``, and
  ``shortest_search`` for a line of many King moves), the check of each
  ``won`` (``verify_solution``: the line replayed by the reference engine;
  the plain generator's deal that the check replays from counts as deal);
* everything else: conversion to the kernel's state, allocation, result and
  row building, the Parquet file, Python glue;

for the deals decided at the root (one node) and for the rest, the ratio of
total to search time (and to search and line together), the check's share
of the total, and the total against the *C twin*: the same search written as
native C (``c_baseline/``, built by ``c_kernel.py``: needs gcc), run on the
same deals through ``search.solve_deal`` with ``driver.kernel`` swapped (as
``compare_c.py`` does), of which only the native calls are timed: what a C
program searching these deals spends (its deal and row cost next to
nothing). Two ratios: to the C search alone, and to the C search plus the
line kernels its wins call (the batch's own numba ``shorten_line`` and
``shortest_search``, timed in the same pass): a native solver that returns
the same lines does that work too, and no C port of it exists (numba runs
the search at C's speed: ``compare_c.py``). The check's share is measured
in the plain pass (its calls timed alone), so it is the share of the batch
as it runs. Every deal's verdict and node count from the C twin must equal the
batch's (the same search), and with ``--baseline`` every deal's row (status,
nodes, solution) must be the same on both sides; a difference is printed and
makes the exit status 1.

How. The deals go in chunks of ``--chunk`` (as ``scorpion batch`` cuts them).
Each chunk is run three times, back to back, so that drift hits all alike:

1. *instrumented*: every deal alone through ``solve_pairs``, with the deal
   generator, the kernel's entry point and the verifier wrapped in CPU timers
   (``time.process_time_ns``; its own cost, calibrated on an empty wrapped
   call, is subtracted). This gives each deal's nodes and its CPU in the
   measured parts, and so which deals were decided at the root.
2. *plain*: the chunk's root deals, then its other deals, through one
   ``solve_pairs`` call each, as a batch does, their rows written to a
   Parquet file; CPU measured around each (``process_time``). This is the
   total; *other* is the total less the measured parts. Only the check
   (``verify_solution``) is wrapped in a timer here: the check's share.
3. *C twin*: every deal through ``solve_deal`` on the C kernel, the native
   calls timed as above, and the line kernels' calls apart.

Each code base runs in a worker process of its own (``PYTHONPATH`` set to its
checkout); with ``--baseline`` two workers take the chunks in alternating
order (this, baseline; then baseline, this), so that the machine's drift hits
both alike and their ratio is a paired measurement. Then the root split
(``--split-calls``, on by default) times the pieces of one solve of a deal
decided at the root in isolation (the fastest mean CPU time of five rounds).
Compilation and loading are excluded (a warm-up solve in each mode and a
warm-up Parquet file first); the known verdicts of docs/rules.md are checked
before timing. JSON and markdown reports go to
``benchmarks/results/`` (``batch-FIRST-LAST-<date>``, the widest range of the runs).

The parts, each in its own file beside this one: ``batch_timers.py`` (the
timers of the split), ``batch_c_twin.py`` (the C twin), ``batch_chunks.py``
(a chunk's three passes, a run's sums, the root split) and
``batch_report.py`` (the markdown report); this file parses the runs and
drives the sides' worker processes.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch_c_twin import CTwin  # noqa: E402
from batch_chunks import bench_chunk, merge, root_split, summarise  # noqa: E402
from batch_report import markdown  # noqa: E402
from batch_timers import MODES, Timers  # noqa: E402
from common import Worker, machine_record, validate_known_verdicts, write_report  # noqa: E402

from scorpion_solver.batch import backends  # noqa: E402
from scorpion_solver.batch.folder import write_chunk  # noqa: E402
from scorpion_solver.solver.result import Limits  # noqa: E402


def _commit(folder: Path) -> str:
    """The git commit of a checkout (or 'unknown' outside git)."""
    import subprocess

    run = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=folder, capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else "unknown"


DEFAULT_RUNS = "classic:1-20000,clear:1-20000,clear+classic:1-10000"


def parse_runs(text: str) -> list[tuple[tuple[str, ...], int, int]]:
    """``MODES:FIRST-LAST,...`` (MODES: ``clear``, ``classic`` or ``clear+classic``) as (modes, first, last)."""
    runs = []
    for item in text.split(","):
        modes_text, _, deals = item.strip().partition(":")
        modes = tuple(m.strip() for m in modes_text.split("+"))
        first, _, last = deals.partition("-")
        try:
            lo, hi = int(first), int(last or first)
        except ValueError:
            lo = hi = 0
        if (
            not deals
            or not 1 <= lo <= hi
            or not modes
            or any(m not in MODES for m in modes)
            or len(set(modes)) < len(modes)
        ):
            raise SystemExit(
                f"--runs: '{item.strip()}' is not a run (expected MODES:FIRST-LAST, MODES one of clear, classic,"
                " clear+classic, 1 <= FIRST <= LAST; e.g. classic:1-20000)"
            )
        runs.append((modes, lo, hi))
    return runs


def run_label(modes: tuple[str, ...], first: int, last: int) -> str:
    return f"{'+'.join(modes)} {first}-{last}"


def serve(limits: Limits, with_c_twin: bool) -> None:
    """A side's worker process: JSON requests on stdin, one JSON answer a line on stdout."""
    import json

    import scorpion_solver

    reply = sys.stdout
    sys.stdout = sys.stderr  # nothing else may write to the answer stream
    validate_known_verdicts()
    backends.warm_up(MODES)
    timers = Timers()
    timers.calibrate()
    c_twin = CTwin(timers.bias) if with_c_twin else None  # before any timer is installed: it copies the kernel
    timed = timers.install()
    timers.uninstall()
    with tempfile.TemporaryDirectory() as tmp:
        write_chunk(Path(tmp), "warm-up.parquet", backends.solve_pairs([(1, m) for m in MODES], limits))  # pyarrow
        if c_twin is not None:
            c_twin.solve([(n, m) for n in (1, 5) for m in MODES], limits)  # warm up its path
        package = Path(scorpion_solver.__file__).resolve().parent
        # the checkout's own folder name and the commit, not a machine's absolute path
        code = f"{package.parent.name}/{package.name} at {_commit(package.parent)}"
        print(json.dumps({"code": code, "timed": timed, "bias": timers.bias}), file=reply, flush=True)
        for line in sys.stdin:
            request = json.loads(line)
            if "split" in request:
                answer = root_split(request["split"], 1, request["calls"])
            else:
                numbers = range(request["first"], request["last"] + 1)
                answer = bench_chunk(tuple(request["modes"]), numbers, limits, timers, Path(tmp), c_twin)
            print(json.dumps(answer), file=reply, flush=True)


class Side(Worker):
    """One code base measured in its own process (``PYTHONPATH`` points at its checkout)."""

    def __init__(self, label: str, root: Path, nodes: int, with_c_twin: bool) -> None:
        self.label = label
        args = ["--nodes", str(nodes)] + ([] if with_c_twin else ["--no-c-twin"])
        super().__init__(str(Path(__file__).resolve()), root, args)
        hello = self.hello
        self.code, self.timed, self.bias = hello["code"], hello["timed"], hello["bias"]
        self.results: dict[str, dict] = {}
        self.splits: list[dict] = []

    def record(self) -> dict:
        return {
            "label": self.label,
            "code": self.code,
            "timed": self.timed,
            "timer_bias_ns": self.bias,
            "runs": [summarise({"run": run, **r}) for run, r in self.results.items()],
            "root_split": self.splits,
        }


def rows_differ(this: dict, base: dict) -> list[str]:
    """The deals whose rows (status, nodes, solution) differ between two sides of one run."""
    return [
        f"deal {key.replace(':', ' (')}): this {this[key][:2]}, baseline {base.get(key, ['missing'])[:2]}"
        + (" (solutions differ)" if this[key][:2] == base.get(key, [None])[:2] else "")
        for key in this
        if this[key] != base.get(key)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--runs",
        default=DEFAULT_RUNS,
        help=f"MODES:FIRST-LAST,... with MODES clear, classic or clear+classic (default {DEFAULT_RUNS})",
    )
    parser.add_argument("--chunk", type=int, default=1000, help="deals per chunk (scorpion batch's for 100000 deals)")
    parser.add_argument("--nodes", type=int, default=Limits().nodes, help="node budget per solve")
    parser.add_argument("--split-calls", type=int, default=2000, help="calls per round in the root split (0: skip)")
    parser.add_argument("--baseline", help="a checkout of other code (e.g. git archive main) measured paired with this")
    parser.add_argument("--label", default="this checkout", help="what this code is (recorded in the report)")
    parser.add_argument("--baseline-label", default="baseline")
    parser.add_argument("--no-c-twin", action="store_true", help="skip the C twin (it needs gcc)")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.chunk < 1:
        parser.error("--chunk must be at least 1")
    limits = Limits(nodes=args.nodes)
    if args.serve:
        serve(limits, not args.no_c_twin)
        return
    runs = parse_runs(args.runs)
    if not args.no_c_twin:
        from c_kernel import build

        try:
            build()  # once, here: a missing gcc is one clear line, not a worker's traceback
        except RuntimeError as exc:
            raise SystemExit(f"error: {exc} (or run with --no-c-twin)") from None
    wall = time.perf_counter()
    here = Path(__file__).resolve().parent.parent
    sides = [Side(args.label, here, args.nodes, not args.no_c_twin)]
    if args.baseline:
        sides.append(Side(args.baseline_label, Path(args.baseline).resolve(), args.nodes, not args.no_c_twin))
    labels = []
    for modes, first, last in runs:
        label = run_label(modes, first, last)
        labels.append(label)
        print(f"{label} ...", file=sys.stderr, flush=True)
        for i, start in enumerate(range(first, last + 1, args.chunk)):
            request = {"modes": modes, "first": start, "last": min(last, start + args.chunk - 1)}
            for side in sides if i % 2 == 0 else sides[::-1]:
                side.results[label] = merge(side.results.get(label), side.ask(request))
    if args.split_calls:
        for mode in dict.fromkeys(m for modes, _, _ in runs for m in modes):
            for side in sides:
                side.splits.append(side.ask({"split": mode, "calls": args.split_calls}))
    for side in sides:
        side.close()
    differ = {}
    if len(sides) == 2:
        differ = {
            label: rows_differ(sides[0].results[label]["rows"], sides[1].results[label]["rows"]) for label in labels
        }
    report = {
        "runs": labels,
        "chunk": args.chunk,
        "nodes": args.nodes,
        "paired": len(sides) == 2,
        "rows_differ": differ,
        "sides": [side.record() for side in sides],
        "machine": machine_record(),
        "wall_seconds": time.perf_counter() - wall,
    }
    first = min(first for _, first, _ in runs)
    last = max(last for _, _, last in runs)
    write_report(args.out, f"batch-{first}-{last}", report, markdown(report))
    if any(differ.values()) or any(s["c_twin"]["differ"] for side in report["sides"] for s in side["runs"]):
        print("VERDICTS DIFFER (see the report)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
