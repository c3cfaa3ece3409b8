#!/usr/bin/env python3
"""What the exact no-peek value of a whole Three Blind Mice deal would cost: the plan, measured on 10 deals.

Three Blind Mice deals only 9 cards face down (3 under each of columns 8-10)
and has no tail, so the exact no-peek value (``play.exact``) could in
principle be taken from the deal itself. This measures what that costs
before anyone runs it on 1,000 deals (issue 53 item 4):

* **the root**: for each deal, the view at the deal (9 unseen cards), the
  size of its closure (views reachable without a reveal, and the revealing
  pairs among them: each one a chance node V must bound or evaluate), and a
  sample of perfect-information solves of random arrangements of the unseen
  cards (CPU and nodes a solve; the share of them won estimates the
  thoughtful share S). V's computation begins with S(root) = the verdicts of
  all 9! = 362,880 arrangements, so 9! times the mean solve is a floor on
  its cost (the expectimax below the root comes on top);
* **the growth**: for the first deals the solver wins (``--won-deals``), the exact V at the first
  view with k unseen cards on the winning line, for k = 1, 2, ... up to
  ``--max-unseen``, each with a wall-clock limit (``--seconds``): CPU, solves and
  whether it finished, by k, so the factor each extra unseen card costs is
  read off measured values, not assumed.

CPU seconds of this process (``time.process_time``); the solver is loaded
and compiled before the clock starts. The report (markdown and JSON) goes to
``benchmarks/results/mice-exact-plan-<date>``.

    python benchmarks/mice_exact_plan.py                 # deals 1-10, about 20-40 minutes of CPU
    python benchmarks/mice_exact_plan.py --deals 3 --samples 10 --max-unseen 5
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_exact import late_views  # noqa: E402
from common import machine_record, write_report  # noqa: E402

from scorpion_solver.game.deal import deal  # noqa: E402
from scorpion_solver.game.rules import get_rules  # noqa: E402
from scorpion_solver.game.view import Observation  # noqa: E402
from scorpion_solver.play.exact import ExactEndgame, reveal_closure  # noqa: E402
from scorpion_solver.solver.result import WON, Limits  # noqa: E402
from scorpion_solver.solver.search import solve  # noqa: E402

SOLVE_LIMITS = Limits(nodes=20_000_000, memory_mb=256)


def root_row(number: int, rules, samples: int) -> dict:
    """The deal's root view: its closure, and ``samples`` solves of random arrangements of its unseen cards."""
    view = Observation.of(deal(number, rules))
    walked = [0]

    def count() -> None:
        walked[0] += 1

    start = time.process_time()
    won_line, pairs = reveal_closure(view, rules, count)
    closure_cpu = time.process_time() - start
    rng = random.Random(number)
    cpu, nodes, won, unknown = [], [], 0, 0
    for _ in range(samples):
        cards = list(view.unseen)
        rng.shuffle(cards)
        start = time.process_time()
        result = solve(view.filled(cards), rules, SOLVE_LIMITS, shorten=False)
        cpu.append(time.process_time() - start)
        nodes.append(result.nodes)
        won += result.status == WON
        unknown += result.status not in ("won", "lost")
    unseen = len(view.hidden_slots())
    return {
        "deal": number,
        "unseen": unseen,
        "closure_views": walked[0] + 1,
        "revealing_pairs": len(pairs),
        "closure_cpu_seconds": round(closure_cpu, 3),
        "samples": samples,
        "sampled_won": won,
        "sampled_unknown": unknown,
        "solve_cpu_mean": round(statistics.fmean(cpu), 4),
        "solve_nodes_mean": round(statistics.fmean(nodes)),
        "share_floor_cpu_minutes": round(math.factorial(unseen) * statistics.fmean(cpu) / 60, 1),
    }


def growth_rows(number: int, rules, most: int, seconds: float) -> list[dict]:
    """The exact V at the first view with k unseen cards on the deal's winning line, k = 1..most (a CPU limit each)."""
    rows = []
    for k, view in sorted(late_views(number, rules, most).items()):
        engine = ExactEndgame(rules, max_unseen=k, seconds=seconds, budget_nodes=10**12, budget_views=10**9)
        start = time.process_time()
        value = engine.value(view)
        rows.append(
            {
                "deal": number,
                "unseen": k,
                "value": None if value is None else str(value),
                "finished": value is not None,
                "cpu_seconds": round(time.process_time() - start, 3),
                "solves": engine.solves,
                "views": engine.views,
            }
        )
        print(json.dumps(rows[-1]), flush=True)
        if value is None:
            break  # a bigger view of the same deal would not finish either
    return rows


def growth_table(rows: list[dict], most: int) -> list[str]:
    lines = [
        "| unseen | views measured | finished | median CPU s | max CPU s | median solves | max solves |",
        "|---|---|---|---|---|---|---|",
    ]
    for k in range(1, most + 1):
        got = [r for r in rows if r["unseen"] == k]
        if not got:
            continue
        done = [r for r in got if r["finished"]]
        cpu = [r["cpu_seconds"] for r in got]
        solves = [r["solves"] for r in got]
        lines.append(
            f"| {k} | {len(got)} | {len(done)} | {statistics.median(cpu):.2f} | {max(cpu):.2f} | "
            f"{statistics.median(solves):.0f} | {max(solves)} |"
        )
    return lines


def root_table(rows: list[dict]) -> list[str]:
    lines = [
        "| deal | unseen | closure views | revealing pairs | closure CPU s | sampled won | CPU a solve | "
        "nodes a solve | 9! solves, CPU min |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['deal']} | {r['unseen']} | {r['closure_views']:,} | {r['revealing_pairs']:,} | "
            f"{r['closure_cpu_seconds']:.2f} | {r['sampled_won']}/{r['samples']} | {r['solve_cpu_mean']:.4f} | "
            f"{r['solve_nodes_mean']:,} | {r['share_floor_cpu_minutes']:,} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mode", default="mice", help="a game with few face-down cards [default: mice]")
    parser.add_argument("--deals", type=int, default=10, help="deals 1..N [default: 10]")
    parser.add_argument("--samples", type=int, default=40, help="random arrangements solved a root [default: 40]")
    parser.add_argument("--max-unseen", type=int, default=7, help="largest view of the growth table [default: 7]")
    parser.add_argument("--won-deals", type=int, default=5, help="winnable deals in the growth table [default: 5]")
    parser.add_argument("--seconds", type=float, default=600, help="wall-clock limit of one exact V [default: 600]")
    parser.add_argument("--out", default=str(HERE / "results"), help="report folder [default: benchmarks/results]")
    args = parser.parse_args()
    rules = get_rules(args.mode)
    solve(deal(1, rules), rules, Limits(nodes=10_000), shorten=False)  # compile or load before the clocks
    roots = []
    for number in range(1, args.deals + 1):
        roots.append(root_row(number, rules, args.samples))
        print(json.dumps(roots[-1]), flush=True)
    growth, number, won = [], 0, 0
    while won < args.won_deals:
        number += 1
        rows = growth_rows(number, rules, args.max_unseen, args.seconds)
        won += bool(rows)
        growth += rows
    floor = statistics.median(r["share_floor_cpu_minutes"] for r in roots)
    report = {"mode": args.mode, "roots": roots, "growth": growth, "machine": machine_record()}
    markdown = "\n".join(
        [
            f"# The exact no-peek value of a whole {args.mode} deal: what it would cost",
            "",
            f"`python benchmarks/mice_exact_plan.py --deals {args.deals} --samples {args.samples} "
            f"--won-deals {args.won_deals} --max-unseen {args.max_unseen} --seconds {args.seconds:g}`; "
            "CPU seconds of one process.",
            "",
            "## The root: the deal's own view",
            "",
            *root_table(roots),
            "",
            f"Median floor for S(root) alone (9! solves at the sampled mean): **{floor:,} CPU minutes a deal**.",
            "",
            f"## The growth: exact V on the winning line's views, by unseen cards (the first {args.won_deals} "
            "winnable deals)",
            "",
            *growth_table(growth, args.max_unseen),
            "",
            "machine: `" + json.dumps(machine_record()) + "`",
        ]
    )
    write_report(args.out, "mice-exact-plan", report, markdown + "\n")


if __name__ == "__main__":
    main()
