"""Nodes and CPU a deal of the ten-column relatives (issue 53 item 5), at the batch's default budget.

    python benchmarks/relatives_cost.py [--double 1-10] [--mice 1-100] [--nodes 50000000]

Solves deals of ``mice``, ``double`` and ``double-dealt`` one by one with
``search.solve_deal`` under the batch's default limits (``Limits()``: 50
million nodes, a 1 GB table) and prints, per preset, the verdicts, the
nodes and CPU seconds a deal (mean, median, max) and the process's peak
resident memory after each preset (``ru_maxrss``: the table at its largest
plus the stack). The kernels are loaded before the clock starts. The
numbers go into docs/design.md, "Relatives: several game shapes in one
search". The deadlock test and safe leads are off for these games (their
proofs are one-deck proofs), so a lost deal is searched to the end.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from scorpion_solver.game.rules import get_rules
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import solve_deal


def span(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mice", default="1-100", help="deal range of mice")
    parser.add_argument("--double", default="1-10", help="deal range of double and double-dealt")
    parser.add_argument("--nodes", type=int, default=Limits().nodes)
    args = parser.parse_args()
    limits = Limits(nodes=args.nodes)
    for mode, numbers in (("mice", args.mice), ("double", args.double), ("double-dealt", args.double)):
        rules = get_rules(mode)
        solve_deal(3, rules, Limits(nodes=100_000))  # loads (or compiles) the wide kernels off the clock
        rows = []
        for number in span(numbers):
            cpu = time.process_time()
            result = solve_deal(number, rules, limits)
            rows.append((number, result.status, result.nodes, time.process_time() - cpu))
            print(f"  {mode} {number}: {result.status} {result.nodes:,} nodes {rows[-1][3]:.2f} s", flush=True)
        nodes = [r[2] for r in rows]
        cpu = [r[3] for r in rows]
        counts = {s: sum(r[1] == s for r in rows) for s in ("won", "lost", "unknown")}
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{mode} deals {numbers}: {counts}; nodes a deal mean {statistics.mean(nodes):,.0f} "
            f"median {statistics.median(nodes):,.0f} max {max(nodes):,}; CPU s a deal mean {statistics.mean(cpu):.2f} "
            f"median {statistics.median(cpu):.2f} max {max(cpu):.2f}; peak RSS so far {peak_mb:,.0f} MB",
            flush=True,
        )


if __name__ == "__main__":
    main()
