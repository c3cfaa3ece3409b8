#!/usr/bin/env python3
"""The exact no-peek endgame's cost by number of unseen cards (issue 24 item 6).

For each of the first winnable deals of a mode (the exact results say which:
``results/deals-1-1000000``, or the known deals 5, 33, 37 without that folder)
it solves the deal, walks its winning line and takes the player's view at the
first position with 1, 2, ..., 6 unseen cards (face-down and tail cards),
then computes V(view) with a fresh ``ExactEndgame`` (nothing kept between
views) after a warm-up (compile time excluded). Times are CPU seconds of this
process (``time.process_time``): a loaded machine slows the wall clock, not
the figures (much: the solves are short and cache-bound). It prints, by
unseen cards, the views measured, the median and the largest CPU seconds, the
median and largest solves per V, and how many views a budget left unknown;
``--out FILE.md`` writes the table and every view's row.

    python benchmarks/bench_exact.py                        # 8 winnable deals, clear
    python benchmarks/bench_exact.py --mode classic --deals 5 --max-unseen 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from common import machine_record, winnable_deals  # noqa: E402

from scorpion_solver.game.deal import deal  # noqa: E402
from scorpion_solver.game.engine import apply_move, parse_moves  # noqa: E402
from scorpion_solver.game.rules import get_rules  # noqa: E402
from scorpion_solver.game.view import Observation  # noqa: E402
from scorpion_solver.play.exact import DEFAULT_BUDGET_NODES, ExactEndgame  # noqa: E402
from scorpion_solver.solver.result import WON, Limits  # noqa: E402
from scorpion_solver.solver.search import solve  # noqa: E402


def late_views(number: int, rules, most: int) -> dict[int, Observation]:
    """The view at the first position of the deal's winning line with n unseen cards, for n = 1..most."""
    position = deal(number, rules)
    result = solve(position, rules, Limits(nodes=20_000_000))
    views: dict[int, Observation] = {}
    if result.status != WON:
        return views
    for move in parse_moves(result.solution):
        view = Observation.of(position)
        n = len(view.hidden_slots())
        if 1 <= n <= most and n not in views:
            views[n] = view
        position = apply_move(position, move, rules)
    return views


def measure(view: Observation, rules, budget: int) -> dict:
    engine = ExactEndgame(rules, max_unseen=len(view.hidden_slots()), budget_nodes=budget)
    start, wall = time.process_time(), time.perf_counter()
    value = engine.value(view)
    cpu = time.process_time() - start
    share = engine.thoughtful_share(view) if value is not None else None
    return {
        "unseen": len(view.hidden_slots()),
        "value": None if value is None else str(value),
        "share": None if share is None else str(share),
        "cpu_seconds": round(cpu, 3),
        "wall_seconds": round(time.perf_counter() - wall, 3),
        "solves": engine.solves,
        "nodes": engine.nodes,
    }


def table(rows: list[dict], most: int) -> list[str]:
    lines = [
        "| unseen | views | median CPU s | max CPU s | median solves | max solves | unknown | V < share |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for n in range(1, most + 1):
        got = [r for r in rows if r["unseen"] == n]
        if not got:
            continue
        cpu = [r["cpu_seconds"] for r in got]
        solves = [r["solves"] for r in got]
        unknown = sum(r["value"] is None for r in got)
        below = sum(r["value"] is not None and r["value"] != r["share"] for r in got)
        lines.append(
            f"| {n} | {len(got)} | {statistics.median(cpu):.2f} | {max(cpu):.2f} | "
            f"{statistics.median(solves):.0f} | {max(solves)} | {unknown} | {below} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mode", default="clear")
    parser.add_argument("--deals", type=int, default=8, help="winnable deals (the first ones)")
    parser.add_argument("--max-unseen", type=int, default=6)
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET_NODES, help="nodes per V (all its solves)")
    parser.add_argument("--out", type=Path, default=None, help="write the report (markdown) here")
    args = parser.parse_args()
    rules = get_rules(args.mode)
    measure(late_views(5, rules, 3)[3], rules, args.budget)  # warm-up: the solver is loaded and compiled
    rows = []
    for number in winnable_deals(args.mode, args.deals):
        for _, view in sorted(late_views(number, rules, args.max_unseen).items()):
            row = {"deal": number, **measure(view, rules, args.budget)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    lines = [
        f"# exact no-peek endgame: cost by unseen cards ({args.mode}, {args.deals} winnable deals)",
        "",
        f"`python benchmarks/bench_exact.py --mode {args.mode} --deals {args.deals} "
        f"--max-unseen {args.max_unseen}`; one view per deal and unseen count (the first on the deal's "
        "winning line), V computed from scratch; CPU seconds of the process.",
        "",
        *table(rows, args.max_unseen),
        "",
        "machine: `" + json.dumps(machine_record()) + "`",
        "",
        "rows:",
        "",
        "```",
        *(json.dumps(r) for r in rows),
        "```",
    ]
    print("\n".join(table(rows, args.max_unseen)))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
