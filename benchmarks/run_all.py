"""The benchmark suite in one command: ``python benchmarks/run_all.py [--quick]``.

Validates first (known verdicts, the bench signature), then measures with
compilation excluded:

* nodes per second and deals per second per mode on deal sets: *easy*
  (deals 1-2000, mostly decided at the root: per-deal overhead) and *hard*
  (deals that need many nodes: for Clear runs the five of 1-1000 that need
  the most; for classic, whose deals of 1-1000 all need under 5,000 nodes,
  the five of 1-1,000,000 that need the most); the hard sets are timed five
  times, and the fastest and the median run are reported (the machine's
  other load only ever slows a run down, and on a shared machine it varies
  by 10-35% from minute to minute); and *largest* (the two Clear deals of
  1-1,000,000 that need the most nodes of all, whose table no longer fits
  any cache; timed once, not in ``--quick``). The sets are derived from the
  nodes column of the committed ``results/deals-1-1000000`` when the suite
  runs (``common.hard_deals``, ``common.largest_deals``), so they follow
  the search: on the results of a1b84d7, hard Clear 103, 515, 571, 230,
  872 (337,013 to 15,287 nodes), hard classic 116173, 807766, 45136,
  684970, 599207 (216,647 to 135,504), largest 375728 and 413785 (3.80
  and 2.97 million);
* the machine's memory latency just before and after the hard sets (a
  pointer chase over 64 MB): the gauge of how fast the machine was at the
  time, since on a shared virtual machine it drifts, and the search's table
  probes with it;
* the numba kernel against the native C implementation of the same search
  (``compare_c.py``) on the hard sets, paired: both nodes/s and the ratio,
  which does not drift with the machine as absolute numbers do (skipped,
  and said so, without a C compiler);
* scaling of ``scorpion batch`` from 1 worker to all cores on a fixed range;
* the speed-up of the jitted engine over the plain-Python reference engine on
  the same work (perft from the same positions; the same searches, which the
  twins run node for node).

Writes a machine-stamped JSON and markdown report to a folder outside the
repository (the system's temporary folder, ``scorpion-benchmarks``) unless
``--out DIR`` is given: ``--out benchmarks/results`` adds it to the tracked
reports, on purpose only.
Numbers are ratios within one run where possible, so they compare across
machines; absolute numbers depend on the machine and its load, which the
report records.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import (  # noqa: E402
    HARD_REPEATS,
    hard_deals,
    largest_deals,
    machine_record,
    memory_latency_ns,
    peak_rss_mb,
    validate_known_verdicts,
    write_report,
)
from signature import bench_signature  # noqa: E402

from scorpion_solver.game.deal import deal  # noqa: E402
from scorpion_solver.game.engine import perft  # noqa: E402
from scorpion_solver.game.rules import CLASSIC, CLEAR  # noqa: E402
from scorpion_solver.solver.result import Limits  # noqa: E402
from scorpion_solver.solver.search import jit_perft, solve  # noqa: E402
from scorpion_solver.solver.search_twin import reference_solve  # noqa: E402


def validate() -> dict:
    validate_known_verdicts()
    total, counts = bench_signature()
    return {"signature_nodes": total, "signature_counts": counts}


def deal_set(rules, deals, repeats: int = 1) -> dict:
    """Solve the deals (each run the same search); times of the fastest of ``repeats`` runs, and their median."""
    cpus, walls = [], []
    for _ in range(repeats):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        nodes = moves = 0
        statuses: dict[str, int] = {}
        for n in deals:
            result = solve(deal(n, rules), rules)
            nodes += result.nodes
            moves += result.moves_made
            statuses[result.status] = statuses.get(result.status, 0) + 1
        cpus.append(time.process_time() - cpu0)
        walls.append(time.perf_counter() - wall0)
    cpu, wall = min(cpus), min(walls)
    median_cpu = sorted(cpus)[len(cpus) // 2]
    return {
        "mode": rules.name,
        "deals": len(deals),
        "repeats": repeats,
        "statuses": statuses,
        "cpu_seconds": round(cpu, 3),
        "cpu_seconds_all": [round(c, 3) for c in cpus],
        "nodes_per_cpu_second_median": round(nodes / median_cpu),
        "wall_seconds": round(wall, 3),
        "deals_per_second": round(len(deals) / wall, 1),
        "deal_numbers": list(deals),
        "nodes": nodes,
        "nodes_per_cpu_second": round(nodes / cpu),
        "moves_made_per_cpu_second": round(moves / cpu),
    }


DEFAULT_OUT = Path(tempfile.gettempdir()) / "scorpion-benchmarks"


def _batch_wall(first: int, last: int, workers: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "scorpion_solver",
                "batch",
                f"{first}-{last}",
                "--workers",
                str(workers),
                "--out",
                str(Path(tmp) / "out"),
                "--no-progress",
            ],
            check=True,
            capture_output=True,
        )
        return time.perf_counter() - t


def scaling(first: int, last: int) -> list[dict]:
    """Wall time of a batch with 1 worker and with all cores, and its start-up alone.

    The start-up (a batch of one deal: the driver and its workers start and
    load the solver) is measured per worker count, so the report can say
    how much of a small run it is: on a few hundred deals it dominates.
    """
    rows = []
    cores = os.cpu_count() or 1
    for workers in sorted({1, cores}):
        startup = _batch_wall(first, first, workers)
        wall = _batch_wall(first, last, workers)
        rows.append(
            {
                "workers": workers,
                "deals": last - first + 1,
                "wall_seconds": round(wall, 2),
                "startup_seconds": round(startup, 2),
                "deals_per_second": round((last - first + 1) / wall, 1),
            }
        )
    base = rows[0]
    for row in rows:
        row["speed_up"] = round(base["wall_seconds"] / row["wall_seconds"], 2)
        work, base_work = row["wall_seconds"] - row["startup_seconds"], base["wall_seconds"] - base["startup_seconds"]
        row["speed_up_after_startup"] = round(base_work / work, 2) if work > 0 and base_work > 0 else None
    return rows


def scaling_note(rows: list[dict]) -> str:
    """What the scaling table means, from its own numbers (start-up's share of the wall time)."""
    share = max(row["startup_seconds"] / row["wall_seconds"] for row in rows if row["wall_seconds"] > 0)
    note = (
        f"Start-up (the driver and its workers starting and loading the solver, timed as a batch of one deal) "
        f"is up to {share:.0%} of these wall times"
    )
    if share >= 0.25:
        note += (
            ": on a run this small it dominates, so the speed-up understates what more workers give a long "
            "batch; the last column sets start-up aside"
        )
    return note + "."


def load_per_core() -> float | None:
    """How busy other processes kept the cores at start (1-minute load average over the cores)."""
    if not hasattr(os, "getloadavg"):
        return None
    return round(os.getloadavg()[0] / (os.cpu_count() or 1), 2)


def load_text(per_core: float | None) -> str:
    if per_core is None:
        return "other load not known"
    word = "quiet" if per_core < 0.25 else "partly busy" if per_core < 0.9 else "busy"
    return f"the machine was {word} with other work at the start (load {per_core:.2f} per core)"


def engine_speed_up(perft_deals, perft_depth: int, solve_deals, solve_nodes: int) -> dict:
    jit_perft(deal(1), 2)  # load the perft kernel before timing
    t = time.perf_counter()
    ref_counts = [perft(deal(n), perft_depth) for n in perft_deals]
    ref_perft = time.perf_counter() - t
    t = time.perf_counter()
    jit_counts = [jit_perft(deal(n), perft_depth) for n in perft_deals]
    jit_perft_s = time.perf_counter() - t
    if ref_counts != jit_counts:
        raise SystemExit("perft disagrees between engines")
    ref_s = jit_s = 0.0
    nodes = 0
    for rules in (CLEAR, CLASSIC):
        for n in solve_deals:
            t = time.perf_counter()
            a = reference_solve(deal(n, rules), rules, Limits(nodes=solve_nodes))
            ref_s += time.perf_counter() - t
            t = time.perf_counter()
            b = solve(deal(n, rules), rules, Limits(nodes=solve_nodes))
            jit_s += time.perf_counter() - t
            if (a.status, a.nodes) != (b.status, b.nodes):
                raise SystemExit(f"engines disagree on deal {n} {rules.name}")
            nodes += b.nodes
    return {
        "perft_positions": list(perft_deals),
        "perft_depth": perft_depth,
        "perft_leaves": sum(jit_counts),
        "perft_reference_seconds": round(ref_perft, 3),
        "perft_jit_seconds": round(jit_perft_s, 4),
        "perft_speed_up": round(ref_perft / jit_perft_s, 1),
        "search_deals": list(solve_deals),
        "search_budget": solve_nodes,
        "search_nodes": nodes,
        "search_reference_seconds": round(ref_s, 3),
        "search_jit_seconds": round(jit_s, 4),
        "search_speed_up": round(ref_s / jit_s, 1),
    }


def native_baseline(sets: dict[str, list[int]], rounds: int) -> dict:
    """The numba kernel against the native C implementation of the same search, paired (compare_c.py)."""
    import threading

    from c_kernel import load_c_kernel
    from pairing import NATIVE_NAMES as NAMES
    from pairing import differences, run_paired, warm_up

    from scorpion_solver.solver import driver, kernel

    try:
        kernels = {"numba": kernel, "C": load_c_kernel()}
    except RuntimeError as exc:  # no compiler: the report says so
        return {"skipped": str(exc)}
    stacks = {name: threading.local() for name in NAMES}
    saved = driver.kernel, driver._reused
    try:
        warm_up(kernels, stacks)
        best, results = run_paired(sets, rounds, kernels, stacks)
    finally:
        driver.kernel, driver._reused = saved  # the rest of the suite runs the numba kernel
    rows = []
    for mode, deals in sets.items():
        nodes = sum(results["numba", mode, n].nodes for n in deals)
        seconds = {name: sum(best[name, mode, n] for n in deals) for name in NAMES}
        rows.append(
            {
                "mode": mode,
                "deals": len(deals),
                "nodes": nodes,
                "numba_nodes_per_cpu_second": round(nodes / seconds["numba"]),
                "c_nodes_per_cpu_second": round(nodes / seconds["C"]),
                "numba_over_c": round(seconds["C"] / seconds["numba"], 3),
                "same_search": not any(differences(results, mode, n) for n in deals),
            }
        )
    return {"rounds": rounds, "rows": rows}


def markdown(report: dict) -> str:
    m = report["machine"]
    named: list[str] = []
    lines = [
        f"# Benchmark suite ({report['stamp']})",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, numba {m['numba']}; "
        f"{load_text(m.get('load_per_core'))}.",
        "",
        f"Memory latency (dependent random loads over 64 MB) before and after the hard sets: "
        f"{report['memory_latency_ns_before_hard']} and {report['memory_latency_ns_after_hard']} ns "
        f"({_drift(report['memory_latency_ns_before_hard'], report['memory_latency_ns_after_hard'])}); "
        "the nodes/s of searches whose table misses the caches follow it.",
        "",
        f"Bench signature: {report['validation']['signature_nodes']:,} nodes "
        f"({report['validation']['signature_counts']}).",
        "",
        "| set | mode | deals | nodes | CPU s | deals/s | nodes/CPU s | moves made/CPU s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name in ("easy", "hard", "largest"):
        for row in report.get(name, []):
            if name != "easy" and "deal_numbers" in row:
                named.append(f"{name} {row['mode']}: {', '.join(str(n) for n in row['deal_numbers'])}")
            several = row.get("repeats", 1) > 1
            best = f" (best of {row['repeats']})" if several else ""
            median = f" (median run {row['nodes_per_cpu_second_median']:,})" if several else ""
            lines.append(
                f"| {name} | {row['mode']} | {row['deals']} | {row['nodes']:,} | {row['cpu_seconds']}{best} | "
                f"{row['deals_per_second']} | {row['nodes_per_cpu_second']:,}{median} | "
                f"{row['moves_made_per_cpu_second']:,} |"
            )
    if named:
        lines += ["", "Deal sets, derived from the nodes column of results/deals-1-1000000: " + "; ".join(named) + "."]
    native = report.get("native")
    if native and "skipped" in native:
        lines += ["", f"Native C baseline: skipped ({native['skipped']})."]
    elif native:
        lines += [
            "",
            f"The numba kernel against the native C implementation of the same search "
            f"(`benchmarks/c_baseline`, gcc -O3 -march=native), paired deal by deal, per deal the fastest of "
            f"{native['rounds']} rounds: the speed target as a ratio, independent of the machine's phase.",
            "",
            "| set | mode | deals | nodes | numba nodes/CPU s | C nodes/CPU s | numba/C | same search |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for row in native["rows"]:
            lines.append(
                f"| hard | {row['mode']} | {row['deals']} | {row['nodes']:,} | "
                f"{row['numba_nodes_per_cpu_second']:,} | {row['c_nodes_per_cpu_second']:,} | "
                f"{row['numba_over_c']} | {'yes' if row['same_search'] else 'NO'} |"
            )
    lines += [
        "",
        "Scaling of `scorpion batch`:",
        "",
        "| workers | deals | wall s | of which start-up s | deals/s | speed-up | speed-up after start-up |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in report["scaling"]:
        after = row.get("speed_up_after_startup")
        lines.append(
            f"| {row['workers']} | {row['deals']} | {row['wall_seconds']} | {row.get('startup_seconds', '-')} | "
            f"{row['deals_per_second']} | {row['speed_up']} | {'-' if after is None else after} |"
        )
    if report["scaling"] and "startup_seconds" in report["scaling"][0]:
        lines += ["", scaling_note(report["scaling"])]
    e = report["engines"]
    lines += [
        "",
        "Jitted engine over the plain-Python reference engine, same work:",
        "",
        f"* perft depth {e['perft_depth']} from deals {e['perft_positions']}: {e['perft_leaves']:,} leaves, "
        f"reference {e['perft_reference_seconds']} s, jit {e['perft_jit_seconds']} s: **{e['perft_speed_up']}x**",
        f"* searching deals {e['search_deals']} in both modes with a budget of {e['search_budget']:,} nodes "
        f"({e['search_nodes']:,} nodes, identical in both): "
        f"reference {e['search_reference_seconds']} s, jit {e['search_jit_seconds']} s: **{e['search_speed_up']}x**",
        "",
        f"Peak RSS {report['peak_rss_mb']:.0f} MB"
        + (" (the largest set's transposition table included)." if report.get("largest") else "."),
    ]
    return "\n".join(lines) + "\n"


def _drift(before: float, after: float) -> str:
    if not before:
        return "no drift measured"
    change = (after - before) / before
    return f"{change:+.0%} during the hard sets" if abs(change) >= 0.01 else "steady during the hard sets"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sets (a smoke run, about a minute)")
    parser.add_argument(
        "--out",
        default=str(DEFAULT_OUT),
        help=f"report folder [default: {DEFAULT_OUT}; give benchmarks/results to add to the tracked reports]",
    )
    args = parser.parse_args()
    machine = machine_record()
    machine.pop("load_average", None)  # raw, it means little without the core count: per core instead
    machine["load_per_core"] = load_per_core()
    solve(deal(5))  # compile (or load from cache) before timing
    easy = range(1, 201) if args.quick else range(1, 2001)
    hard = hard_deals()
    search_deals = [5, 33, 37, *hard["clear"][:3]]  # known wins and the three hardest Clear deals of 1-1000
    if args.quick:
        hard = {k: v[:2] for k, v in hard.items()}
    report = {
        "stamp": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": machine,
        "validation": validate(),
        "easy": [deal_set(rules, list(easy)) for rules in (CLEAR, CLASSIC)],
        "memory_latency_ns_before_hard": round(memory_latency_ns(), 1),
        "hard": [deal_set(rules, hard[rules.name], HARD_REPEATS) for rules in (CLEAR, CLASSIC)],
        "memory_latency_ns_after_hard": round(memory_latency_ns(), 1),
        "largest": [] if args.quick else [deal_set(CLEAR, largest_deals()["clear"])],
        "native": native_baseline(hard, 1 if args.quick else 5),
        "scaling": scaling(1, 300 if args.quick else 2000),
        "engines": (
            engine_speed_up(range(1, 4), 5, search_deals[::3], 3_000)
            if args.quick
            else engine_speed_up(range(1, 6), 6, search_deals, 30_000)
        ),
    }
    report["peak_rss_mb"] = peak_rss_mb()
    write_report(args.out, "suite-quick" if args.quick else "suite", report, markdown(report))


if __name__ == "__main__":
    main()
