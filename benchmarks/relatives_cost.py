"""Nodes, CPU and memory a deal of the new relatives beside Scorpion's (issue 53 item 5), at the batch's budget.

    python benchmarks/relatives_cost.py [--clear 1-100] [--mice 1-100] [--double 1-10] [--nodes 50000000]

Solves deals of ``clear`` (Scorpion, one deck: the yardstick), ``mice``, ``double`` and ``double-dealt``
one by one with ``search.solve_deal`` under the batch's default limits (``Limits()``: 50 million nodes, a
1 GB table, every reduction the preset's proofs allow: ``Reductions.proven_for``) and reports, per preset,
the verdicts, the nodes and CPU seconds a deal (mean, median, max), the nodes a CPU second, and the
process's peak resident memory after the preset (``ru_maxrss``: the table at its largest plus the stack;
the presets run in the order above, so a figure is the largest so far). Each preset's kernels are loaded
before its clock starts. The report goes to benchmarks/results/relatives-cost-<stamp>.{md,json}; its
numbers are in docs/design.md, "Relatives: several game shapes in one search".
"""

from __future__ import annotations

import argparse
import statistics
import time

from common import machine_record, peak_rss_mb, write_report

from scorpion_solver.game.rules import get_rules
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import solve_deal

PRESETS = ("clear", "mice", "double", "double-dealt")


def span(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def measure(mode: str, numbers: range, limits: Limits) -> dict:
    rules = get_rules(mode)
    solve_deal(3, rules, Limits(nodes=100_000))  # loads (or compiles) the preset's kernels off the clock
    rows = []
    for number in numbers:
        cpu = time.process_time()
        result = solve_deal(number, rules, limits)
        rows.append({"deal": number, "status": result.status, "nodes": result.nodes, "cpu": time.process_time() - cpu})
        print(f"  {mode} {number}: {result.status} {result.nodes:,} nodes {rows[-1]['cpu']:.2f} s", flush=True)
    nodes = [r["nodes"] for r in rows]
    cpu = [r["cpu"] for r in rows]
    return {
        "mode": mode,
        "deals": f"{numbers.start}-{numbers.stop - 1}",
        "counts": {s: sum(r["status"] == s for r in rows) for s in ("won", "lost", "unknown")},
        "nodes": {"mean": statistics.mean(nodes), "median": statistics.median(nodes), "max": max(nodes)},
        "cpu": {"mean": statistics.mean(cpu), "median": statistics.median(cpu), "max": max(cpu)},
        "nodes_per_cpu_second": sum(nodes) / max(sum(cpu), 1e-9),
        "peak_rss_mb": peak_rss_mb(),
        "rows": rows,
    }


def markdown(report: dict) -> str:
    lines = [
        "# Nodes and CPU a deal: the new relatives beside Scorpion",
        "",
        f"`python benchmarks/relatives_cost.py {report['command']}`; budget {report['nodes']:,} nodes, "
        "a 1 GB table; CPU seconds of one process.",
        "",
        "| preset | deals | won | lost | unknown | nodes a deal: mean / median / max | CPU s a deal: mean / median / max "
        "| nodes a CPU s | peak RSS so far |",
        "|---|---|---:|---:|---:|---|---|---:|---:|",
    ]
    for p in report["presets"]:
        n, c, k = p["nodes"], p["cpu"], p["counts"]
        lines.append(
            f"| `{p['mode']}` | {p['deals']} | {k['won']} | {k['lost']} | {k['unknown']} "
            f"| {n['mean']:,.0f} / {n['median']:,.0f} / {n['max']:,} "
            f"| {c['mean']:.3f} / {c['median']:.3f} / {c['max']:.2f} "
            f"| {p['nodes_per_cpu_second']:,.0f} | {p['peak_rss_mb']:,.0f} MB |"
        )
    machine = report["machine"]
    lines += [
        "",
        f"Machine: {machine['cpu']}, {machine['cores']} cores, load {machine['load_average']}, "
        f"numba {machine['numba']}.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clear", default="1-100", help="deal range of clear (Scorpion)")
    parser.add_argument("--mice", default="1-100", help="deal range of mice")
    parser.add_argument("--double", default="1-10", help="deal range of double and double-dealt")
    parser.add_argument("--nodes", type=int, default=Limits().nodes)
    parser.add_argument("--out", default="benchmarks/results", help="folder of the report")
    args = parser.parse_args()
    limits = Limits(nodes=args.nodes)
    ranges = {"clear": args.clear, "mice": args.mice, "double": args.double, "double-dealt": args.double}
    presets = [measure(mode, span(ranges[mode]), limits) for mode in PRESETS]
    command = f"--clear {args.clear} --mice {args.mice} --double {args.double}" + (
        f" --nodes {args.nodes}" if args.nodes != Limits().nodes else ""
    )
    report = {"command": command, "nodes": args.nodes, "presets": presets, "machine": machine_record()}
    write_report(args.out, "relatives-cost", report, markdown(report))


if __name__ == "__main__":
    main()
