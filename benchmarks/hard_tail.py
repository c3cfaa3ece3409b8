"""The hard tail: nodes of the hardest deals with a search reduction on, against the committed results.

Takes the Clear (or classic) deals of ``results/deals-1-1000000`` that needed
the most nodes (``--top``), or a range of deals (``--range 1-3000``), solves
each with the current build (``Reductions()``: every sound reduction on; pass
``--off`` for ``safe_leads=False``, ``--no-successor-above`` for the deadlock
test without that rule) and compares verdict and nodes with the
committed row (see results/README.md for the build each folder was solved with). Prints one line
per deal and the totals; a verdict that differs is reported and makes the exit
status 1. Nodes are machine-independent; the seconds are CPU seconds of this
run, for orientation only::

    nice -n 10 python benchmarks/hard_tail.py --top 100 --mode clear
    nice -n 10 python benchmarks/hard_tail.py --range 1-3000 --mode classic
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results" / "deals-1-1000000"


def committed_rows(mode: str):
    from scorpion_solver.batch import read_folder

    table = read_folder(RESULTS, columns=["deal", "mode", "status", "nodes"]).to_pandas()
    return table[table["mode"] == mode]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="clear", choices=["clear", "classic"])
    parser.add_argument("--top", type=int, help="the N deals that needed the most nodes")
    parser.add_argument("--range", dest="deal_range", help="deals A-B")
    parser.add_argument("--off", action="store_true", help="solve with safe_leads=False")
    parser.add_argument("--no-successor-above", action="store_true", help="solve with successor_above=False")
    parser.add_argument("--quiet", action="store_true", help="totals only")
    args = parser.parse_args()

    from scorpion_solver.game.deal import deal
    from scorpion_solver.game.rules import get_rules
    from scorpion_solver.solver.reductions import Reductions
    from scorpion_solver.solver.result import Limits
    from scorpion_solver.solver.search import solve

    rows = committed_rows(args.mode)
    if args.top:
        rows = rows.sort_values("nodes", ascending=False).head(args.top)
    elif args.deal_range:
        lo, hi = (int(x) for x in args.deal_range.split("-"))
        rows = rows[rows["deal"].between(lo, hi)].sort_values("deal")
    else:
        parser.error("give --top N or --range A-B")
    rules = get_rules(args.mode)
    limits = Limits()
    cuts = Reductions(safe_leads=not args.off, successor_above=not args.no_successor_above)
    solve(deal(1, rules), rules, limits, reductions=cuts)  # compile outside the timing
    before = after = 0
    seconds = 0.0
    differ = []
    for number, status, nodes in zip(rows["deal"], rows["status"], rows["nodes"]):
        start = time.process_time()
        result = solve(deal(int(number), rules), rules, limits, reductions=cuts)
        spent = time.process_time() - start
        seconds += spent
        before += int(nodes)
        after += result.nodes
        if result.status != status:
            differ.append((int(number), status, result.status))
        if not args.quiet:
            print(
                f"{number} {status} {nodes} -> {result.status} {result.nodes} ({result.nodes / nodes:.3f}) {spent:.2f} s",
                flush=True,
            )
    print(
        f"{args.mode} {len(rows)} deals: committed nodes {before}, now {after} "
        f"(x{before / max(after, 1):.3f} fewer), {seconds:.1f} s CPU; verdicts differ: {differ or 'none'}"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
