"""CPU per deal of a batch worker's rows, and of the rows decided at the root alone (issue 13).

Usage::

    python benchmarks/root_rows.py                  # deals 1-5000, both modes, best of 3
    python benchmarks/root_rows.py --deals 1-20000 --rounds 5

Calls ``batch.backends.solve_pairs`` (what a batch worker runs for a chunk:
generate, solve, build the rows) on the deals of each mode, then on the deals
of that list decided at the root alone (dead at the root: the chunk screen's
rows), and prints the CPU per deal of each, the best of ``--rounds`` rounds
(``time.process_time``; compilation and loading excluded by a warm-up). Run it
in two checkouts (``PYTHONPATH=...``) to compare builds; alternate the runs,
since the machine drifts.
"""

from __future__ import annotations

import argparse
import time

from scorpion_solver.batch import backends
from scorpion_solver.solver.result import Limits


def best_cpu(pairs: list[tuple[int, str]], limits: Limits, rounds: int) -> tuple[float, list[dict]]:
    best, rows = float("inf"), []
    for _ in range(rounds):
        start = time.process_time()
        rows = backends.solve_pairs(pairs, limits)
        best = min(best, time.process_time() - start)
    return best, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", default="1-5000", help="FIRST-LAST (default 1-5000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best is kept (default 3)")
    args = parser.parse_args()
    first, last = (int(x) for x in args.deals.split("-"))
    limits = Limits(nodes=50_000_000, memory_mb=1024)
    backends.warm_up()
    for mode in ("classic", "clear"):
        pairs = [(n, mode) for n in range(first, last + 1)]
        total, rows = best_cpu(pairs, limits, args.rounds)
        root = [(r["deal"], mode) for r in rows if r["dead_at_root"]]
        root_cpu, _ = best_cpu(root, limits, args.rounds)
        print(
            f"{mode}: {len(pairs)} deals, {total / len(pairs) * 1e6:.1f} us a deal; "
            f"the {len(root)} decided at the root alone: {root_cpu / len(root) * 1e6:.1f} us a deal"
        )


if __name__ == "__main__":
    main()
