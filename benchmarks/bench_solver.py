"""Solve a fixed range of PySolFC deals in both modes and report speed (issue: fast exact solver).

Usage::

    python benchmarks/bench_solver.py                 # deals 1-1000, both modes
    python benchmarks/bench_solver.py --last 200      # a quicker look
    python benchmarks/bench_solver.py --cold          # also measure compilation from scratch

The run first validates (known verdicts of deals 1-40 from docs/rules.md), then
times the solves with compilation excluded (one warm-up solve first; with
``--cold`` the compile time is measured separately in a fresh numba cache).
It reports per mode: won / lost / unknown, CPU and wall seconds (total,
median), nodes per second on the deals that need many nodes, the per-deal
overhead on deals decided at the root, the hardest deals with their peak
memory, and the machine. A JSON and a markdown report go to
``benchmarks/results/``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine_record, peak_rss_mb, validate_known_verdicts, write_report  # noqa: E402

from scorpion_solver.game.deal import deal  # noqa: E402
from scorpion_solver.game.rules import CLASSIC, CLEAR  # noqa: E402
from scorpion_solver.solver.result import Limits  # noqa: E402
from scorpion_solver.solver.search import ENTRY_BYTES, solve  # noqa: E402

MANY_NODES = 100_000


def compile_seconds_cold() -> float:
    """Time to import and compile the kernels in a fresh process with an empty numba cache."""
    code = (
        "import time; t=time.perf_counter(); from scorpion_solver.solver.search import solve; "
        "from scorpion_solver.game.deal import deal; solve(deal(5)); print(time.perf_counter()-t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def bench_mode(rules, first: int, last: int, nodes: int) -> dict:
    rows = []
    for n in range(first, last + 1):
        position = deal(n, rules)
        c0, w0 = time.process_time(), time.perf_counter()
        result = solve(position, rules, Limits(nodes=nodes))
        rows.append(
            {
                "deal": n,
                "status": result.status,
                "nodes": result.nodes,
                "moves_made": result.moves_made,
                "cpu": time.process_time() - c0,
                "wall": time.perf_counter() - w0,
                "kernel_seconds": result.seconds,
                "peak_entries": result.peak_entries,
                "dead_at_root": result.dead_at_root,
            }
        )
    heavy = [r for r in rows if r["nodes"] >= MANY_NODES]
    root = [r for r in rows if r["nodes"] == 1]
    hardest = sorted(rows, key=lambda r: -r["nodes"])[:5]
    count = {s: sum(r["status"] == s for r in rows) for s in ("won", "lost", "unknown")}
    return {
        "mode": rules.name,
        "deals": len(rows),
        **count,
        "cpu_seconds": sum(r["cpu"] for r in rows),
        "wall_seconds": sum(r["wall"] for r in rows),
        "median_seconds": statistics.median(r["wall"] for r in rows),
        "total_nodes": sum(r["nodes"] for r in rows),
        "total_moves_made": sum(r["moves_made"] for r in rows),
        "nodes_per_second_heavy": (sum(r["nodes"] for r in heavy) / sum(r["cpu"] for r in heavy)) if heavy else None,
        "moves_per_second_heavy": (sum(r["moves_made"] for r in heavy) / sum(r["cpu"] for r in heavy))
        if heavy
        else None,
        "heavy_deals": len(heavy),
        "root_decided": len(root),
        "overhead_ms_per_root_deal": (1000 * sum(r["wall"] for r in root) / len(root)) if root else None,
        "hardest": [
            {
                "deal": r["deal"],
                "status": r["status"],
                "nodes": r["nodes"],
                "seconds": round(r["wall"], 3),
                "table_mb": round(r["peak_entries"] * ENTRY_BYTES / 2**20, 1),
            }
            for r in hardest
        ],
        "won_deals": [r["deal"] for r in rows if r["status"] == "won"],
    }


def markdown(report: dict) -> str:
    lines = [
        f"# Solver benchmark, deals {report['first']}-{report['last']}",
        "",
        f"Machine: {report['machine']['cpu']}, {report['machine']['cores']} cores, "
        f"Python {report['machine']['python']}, numba {report['machine']['numba']}; "
        f"load average at start {report['machine']['load_average']}.",
        f"Node budget {report['nodes']:,} per deal. Warm-up (first solve: compile or cache load): "
        f"{report['warmup_seconds']:.2f} s."
        + (f" Cold compile: {report['cold_compile_seconds']:.1f} s." if report.get("cold_compile_seconds") else ""),
        "",
        "| mode | won | lost | unknown | CPU s | median ms | nodes/s (heavy) | moves made/s (heavy) | ms per root-decided deal |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for m in report["modes"]:
        nps = f"{m['nodes_per_second_heavy']:,.0f}" if m["nodes_per_second_heavy"] else "-"
        mps = f"{m['moves_per_second_heavy']:,.0f}" if m["moves_per_second_heavy"] else "-"
        ovh = f"{m['overhead_ms_per_root_deal']:.3f}" if m["overhead_ms_per_root_deal"] else "-"
        lines.append(
            f"| {m['mode']} | {m['won']} | {m['lost']} | {m['unknown']} | {m['cpu_seconds']:.2f} | "
            f"{1000 * m['median_seconds']:.3f} | {nps} | {mps} | {ovh} |"
        )
    lines += [
        "",
        f"Total CPU, both modes: {sum(m['cpu_seconds'] for m in report['modes']):.2f} s. "
        f"Peak RSS {report['peak_rss_mb']:.0f} MB.",
        "",
        "Hardest deals:",
        "",
    ]
    for m in report["modes"]:
        for h in m["hardest"]:
            lines.append(
                f"* {m['mode']} deal {h['deal']}: {h['status']}, {h['nodes']:,} nodes, {h['seconds']} s, "
                f"table entries {h['table_mb']} MB"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=50_000_000)
    parser.add_argument("--cold", action="store_true", help="also time compilation into an empty numba cache")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    args = parser.parse_args()

    machine = machine_record()
    t = time.perf_counter()
    solve(deal(5))
    warmup = time.perf_counter() - t
    validate_known_verdicts()
    report = {
        "first": args.first,
        "last": args.last,
        "nodes": args.nodes,
        "machine": machine,
        "warmup_seconds": warmup,
        "cold_compile_seconds": compile_seconds_cold() if args.cold else None,
        "modes": [bench_mode(rules, args.first, args.last, args.nodes) for rules in (CLEAR, CLASSIC)],
        "peak_rss_mb": peak_rss_mb(),
    }
    write_report(args.out, f"solver-{args.first}-{args.last}", report, markdown(report))


if __name__ == "__main__":
    main()
