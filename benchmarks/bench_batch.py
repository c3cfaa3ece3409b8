"""A batch's CPU per deal, split by where it goes (issue 13: throughput).

Usage::

    python benchmarks/bench_batch.py                    # deals 1-20000, both modes
    python benchmarks/bench_batch.py --deals 1-100000   # the issue's full range
    git archive main | tar -x -C /tmp/main              # a baseline checkout, then
    python benchmarks/bench_batch.py --baseline /tmp/main --baseline-label main

Runs what a batch worker runs (``batch.backends.solve_pairs``: generate each
deal, solve it, build its row; then the chunk's rows written as a Parquet
file) in a worker process, over a range of deals in both modes, and reports per
mode the CPU per deal split into

* deal generation, search (the search kernel's calls), line (the kernels
  that cut a won line's detours and polish it: ``shorten_line``, and
  ``shortest_search`` for a line of many King moves), verification of each
  ``won``;
* everything else: conversion to the kernel's state, allocation, result and
  row building, the Parquet file, Python glue;

for the deals decided at the root (one node) and for the rest, and the ratio of
total to search time (and to search and line together).

How. The deals go in chunks of ``--chunk`` (as ``scorpion batch`` cuts them).
Each chunk is run twice, back to back, so that drift hits both alike:

1. *instrumented*: every deal alone through ``solve_pairs``, with the deal
   generator, the kernel's entry point and the verifier wrapped in CPU timers
   (``time.process_time_ns``; its own cost, calibrated on an empty wrapped
   call, is subtracted). This gives each deal's nodes and its CPU in the
   measured parts, and so which deals were decided at the root.
2. *plain*: the chunk's root deals, then its other deals, through one
   ``solve_pairs`` call each, as a batch does, their rows written to a
   Parquet file; CPU measured around each (``process_time``). This is the
   total; *other* is the total less the measured parts.

Each code base runs in a worker process of its own (``PYTHONPATH`` set to its
checkout); with ``--baseline`` two workers take the chunks in alternating
order (this, baseline; then baseline, this), so that the machine's drift hits
both alike and their ratio is a paired measurement. Then the root split
(``--split-calls``, on by default) times the pieces of one solve of a deal
decided at the root in isolation (the fastest mean CPU time of five rounds).
Compilation and loading are excluded (a warm-up solve in each mode and a
warm-up Parquet file first); the known verdicts of docs/rules.md are checked
before timing. JSON and markdown reports go to
``benchmarks/results/`` (``batch-FIRST-LAST-<date>``).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine_record, validate_known_verdicts, write_report  # noqa: E402

from scorpion_solver.batch import backends  # noqa: E402
from scorpion_solver.batch.folder import write_chunk  # noqa: E402
from scorpion_solver.game.rules import get_rules  # noqa: E402
from scorpion_solver.solver.result import Limits  # noqa: E402

MODES = ("clear", "classic")
PARTS = ("deal", "search", "line", "verify")

# The functions a batch worker's path calls, by the part of the split they belong to. A target
# that does not exist in the code under test is skipped, so the benchmark runs unchanged on older
# revisions (main before issue 13 has only the first of each part).
TIMED = (
    ("scorpion_solver.game.deal", "deal", "deal"),
    ("scorpion_solver.solver.deal_kernel", "DealWriter.deal_into", "deal"),
    ("scorpion_solver.solver.deal_kernel", "DealWriter.deal_many", "deal"),
    ("scorpion_solver.solver.kernel", "search", "search"),
    ("scorpion_solver.solver.kernel", "screen_roots", "search"),
    ("scorpion_solver.solver.kernel", "shorten_line", "line"),
    ("scorpion_solver.solver.kernel", "shortest_search", "line"),
    ("scorpion_solver.solver.search", "verify_solution", "verify"),
)


class Timers:
    """CPU nanoseconds per part, accumulated by wrappers around the TIMED functions."""

    def __init__(self) -> None:
        self.ns = dict.fromkeys(PARTS, 0)
        self.calls = dict.fromkeys(PARTS, 0)
        self.bias = 0  # ns the clock itself adds to one measured call
        self._saved: list[tuple[object, str, object]] = []

    def wrap(self, fn, part: str):
        ns, calls, clock = self.ns, self.calls, time.process_time_ns

        def timed(*args, **kwargs):
            t0 = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                ns[part] += clock() - t0
                calls[part] += 1

        return timed

    def install(self) -> list[str]:
        installed = []
        for module_name, attr, part in TIMED:
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                continue
            owner, _, name = attr.rpartition(".")
            holder = getattr(module, owner, None) if owner else module
            fn = getattr(holder, name, None)
            if fn is None:
                continue
            self._saved.append((holder, name, fn))
            setattr(holder, name, self.wrap(fn, part))
            installed.append(f"{module_name}.{attr} ({part})")
        return installed

    def uninstall(self) -> None:
        for module, attr, fn in reversed(self._saved):
            setattr(module, attr, fn)
        self._saved.clear()

    def calibrate(self, calls: int = 20000) -> None:
        """The clock's share of one measured call: what an empty wrapped call measures."""
        probe = Timers()
        empty = probe.wrap(lambda: None, "deal")
        best = None
        for _ in range(3):
            probe.ns["deal"] = 0
            for _ in range(calls):
                empty()
            mean = probe.ns["deal"] / calls
            best = mean if best is None else min(best, mean)
        self.bias = best

    def snapshot(self) -> dict[str, float]:
        """Accumulated ns per part, less the clock's bias per call."""
        return {p: max(0.0, self.ns[p] - self.bias * self.calls[p]) for p in PARTS}


def _commit(folder: Path) -> str:
    """The git commit of a checkout (or 'unknown' outside git)."""
    import subprocess

    run = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=folder, capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else "unknown"


def parse_range(text: str) -> tuple[int, int]:
    first, _, last = text.partition("-")
    lo, hi = int(first), int(last or first)
    if not 1 <= lo <= hi:
        raise SystemExit(f"--deals {text}: expected FIRST-LAST with 1 <= FIRST <= LAST")
    return lo, hi


def empty_class() -> dict:
    return {"deals": 0, "won": 0, "moves_verified": 0, "nodes": 0, "total_ns": 0, **{p: 0.0 for p in PARTS}}


def bench_chunk(mode: str, numbers: range, limits: Limits, timers: Timers, out: Path) -> dict:
    """One chunk of one mode: the instrumented pass, then the plain pass by class (see the module docstring)."""
    classes = {"root": empty_class(), "rest": empty_class()}
    verify_won = []  # (solution length, verify ns) per won deal
    kind = {}
    timers.install()
    try:
        for n in numbers:
            before = timers.snapshot()
            (row,) = backends.solve_pairs([(n, mode)], limits)
            after = timers.snapshot()
            k = kind[n] = "root" if row["nodes"] <= 1 else "rest"
            c = classes[k]
            c["deals"] += 1
            c["nodes"] += row["nodes"]
            for p in PARTS:
                c[p] += after[p] - before[p]
            if row["status"] == "won":
                c["won"] += 1
                c["moves_verified"] += row["solution_length"]
                verify_won.append((row["solution_length"], after["verify"] - before["verify"]))
    finally:
        timers.uninstall()
    for k in ("root", "rest"):
        pairs = [(n, mode) for n in numbers if kind[n] == k]
        if not pairs:
            continue
        t0 = time.process_time_ns()
        rows = backends.solve_pairs(pairs, limits)
        write_chunk(out, f"chunk-{mode}-{k}-{numbers[0]:08d}.parquet", rows)
        classes[k]["total_ns"] += time.process_time_ns() - t0
    return {"classes": classes, "verify_won": verify_won}


def merge(total: dict | None, part: dict) -> dict:
    if total is None:
        return part
    for k, c in part["classes"].items():
        for key, value in c.items():
            total["classes"][k][key] += value
    total["verify_won"] += part["verify_won"]
    return total


def per_deal_us(c: dict) -> dict:
    d = max(1, c["deals"])
    parts = {p: c[p] / d / 1000 for p in PARTS}
    total = c["total_ns"] / d / 1000
    return {
        **parts,
        "other": total - sum(parts.values()),
        "total": total,
        "total_over_search": (total / parts["search"]) if parts["search"] else None,
        "total_over_search_and_line": (total / (parts["search"] + parts["line"])) if parts["search"] else None,
    }


def summarise(result: dict) -> dict:
    classes = result["classes"]
    both = {key: classes["root"][key] + classes["rest"][key] for key in classes["root"]}
    summary = {"mode": result["mode"]}
    for name, c in (("all", both), ("root", classes["root"]), ("rest", classes["rest"])):
        summary[name] = {"deals": c["deals"], "won": c["won"], "nodes": c["nodes"], "us_per_deal": per_deal_us(c)}
    won = result["verify_won"]
    moves = sum(length for length, _ in won)
    ns = sum(t for _, t in won)
    summary["verify"] = {
        "won_deals": len(won),
        "mean_solution_length": moves / len(won) if won else None,
        "us_per_won_deal": ns / len(won) / 1000 if won else None,
        "us_per_move": ns / moves / 1000 if moves else None,
        "us_per_52_moves": 52 * ns / moves / 1000 if moves else None,
    }
    summary["seconds"] = {
        "total": both["total_ns"] / 1e9,
        "search": both["search"] / 1e9,
        **{p: both[p] / 1e9 for p in ("deal", "line", "verify")},
    }
    return summary


def best_us(fn, calls: int, rounds: int = 5) -> float:
    """Fastest mean CPU time over ROUNDS rounds of CALLS calls, in microseconds."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - t0) / calls)
    return best * 1e6


def root_split(mode: str, number: int, calls: int) -> dict:
    """The pieces of one solve of a deal decided at the root, each timed alone (microseconds)."""
    import numpy as np

    from scorpion_solver.game.deal import deal
    from scorpion_solver.solver import kernel, search

    rules = get_rules(mode)
    limits = Limits()
    position = deal(number, rules)
    result = search.solve(position, rules, limits)
    if result.nodes > 1:
        raise SystemExit(f"root split: deal {number} ({mode}) needs {result.nodes} nodes, not one")
    split = {"deal": number, "mode": mode}
    split["deal generation (game.deal.deal)"] = best_us(lambda: deal(number, rules), calls)
    split["to_compact"] = best_us(lambda: search.to_compact(position), calls)
    state = search.to_compact(position)
    split["compact_keys"] = best_us(lambda: search.compact_keys(state), calls)
    split["table allocation (np.zeros, 4096 entries)"] = best_us(
        lambda: np.zeros((search.FIRST_TABLE, 2), dtype=np.uint64), calls
    )
    split["solve (whole)"] = best_us(lambda: search.solve(position, rules, limits), calls)
    split["result building (SolveResult, as_row)"] = best_us(
        lambda: search.SolveResult(status=result.status, rules=rules.name, nodes=result.nodes).as_row(), calls
    )
    split["solve_pairs, one deal (generate, solve, row)"] = best_us(
        lambda: backends.solve_pairs([(number, mode)], limits), calls
    )
    fast = getattr(search, "solve_deal", None)
    if fast is not None:
        split["search.solve_deal (generate and solve)"] = best_us(lambda: fast(number, rules, limits), calls)
    kernel_deal = importlib.util.find_spec("scorpion_solver.solver.deal_kernel")
    if kernel_deal is not None:
        from scorpion_solver.solver import deal_kernel

        buffer = np.zeros(kernel.STATE_SIZE, dtype=np.int8)
        writer = deal_kernel.DealWriter()
        split["deal_kernel.DealWriter.deal_into (jitted deal into the compact state)"] = best_us(
            lambda: writer.deal_into(number, rules.face_down, buffer), calls
        )
    return split


def side_markdown(side: dict) -> list[str]:
    lines = [
        f"## {side['label']}",
        "",
        f"Code: `{side['code']}`; timer bias {side['timer_bias_ns']:.0f} ns per measured call (subtracted).",
        f"Timed functions: {', '.join(side['timed'])}.",
        "",
        "CPU microseconds per deal (deal generation, search = the search kernel's calls, line = the"
        " kernels that cut a won line's detours and polish it, verification of wins, other = the rest of"
        " `solve_pairs` and the Parquet chunk):",
        "",
        "| mode | deals | count | deal | search | line | verify | other | total | total / search"
        " | total / (search + line) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in side["modes"]:
        for name in ("all", "root", "rest"):
            c = s[name]
            u = c["us_per_deal"]
            ratio = f"{u['total_over_search']:.2f}" if u["total_over_search"] else "-"
            ratio_line = f"{u['total_over_search_and_line']:.2f}" if u["total_over_search_and_line"] else "-"
            lines.append(
                f"| {s['mode']} | {name} | {c['deals']} | {u['deal']:.1f} | {u['search']:.1f} | {u['line']:.1f}"
                f" | {u['verify']:.1f} | {u['other']:.1f} | {u['total']:.1f} | {ratio} | {ratio_line} |"
            )
    lines += [
        "",
        "Totals (CPU seconds) and verification of wins:",
        "",
        "| mode | total s | search s | line s | deal s | verify s | wins | mean length | verify us/win"
        " | us per 52 moves |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def fmt(x, spec=".1f"):
        return "-" if x is None else format(x, spec)

    for s in side["modes"]:
        t, v = s["seconds"], s["verify"]
        lines.append(
            f"| {s['mode']} | {t['total']:.2f} | {t['search']:.2f} | {t['line']:.2f} | {t['deal']:.2f}"
            f" | {t['verify']:.2f}"
            f" | {v['won_deals']} | {fmt(v['mean_solution_length'])} | {fmt(v['us_per_won_deal'])}"
            f" | {fmt(v['us_per_52_moves'])} |"
        )
    if side.get("root_split"):
        lines += ["", "One solve of a deal decided at the root, piece by piece (fastest mean, microseconds):", ""]
        for split in side["root_split"]:
            lines.append(f"* deal {split['deal']} ({split['mode']}):")
            lines += [f"  * {k}: {v:.2f}" for k, v in split.items() if k not in ("deal", "mode")]
    return lines + [""]


def markdown(report: dict) -> str:
    lines = [
        f"# Batch throughput, deals {report['first']}-{report['last']}",
        "",
        f"Chunks of {report['chunk']} deals; node budget {report['nodes']:,}."
        + (
            " Sides run in separate processes, chunk by chunk in alternating order (paired)."
            if report["paired"]
            else ""
        ),
        "",
    ]
    if report["paired"]:
        this, base = report["sides"]
        lines += ["| mode | baseline total s | this total s | baseline / this | this total / this search |"]
        lines += ["|---|---:|---:|---:|---:|"]
        for a, b in zip(this["modes"], base["modes"]):
            ta, tb = a["seconds"]["total"], b["seconds"]["total"]
            lines.append(
                f"| {a['mode']} | {tb:.2f} | {ta:.2f} | {tb / ta:.2f} | {ta / max(a['seconds']['search'], 1e-12):.2f} |"
            )
        lines.append("")
    for side in report["sides"]:
        lines += side_markdown(side)
    m = report["machine"]
    lines += [f"Machine: {m['cpu']}, {m['cores']} cores, load {m['load_average']}, python {m['python']},"]
    lines += [f"numpy {m['numpy']}, numba {m['numba']}; wall {report['wall_seconds']:.0f} s."]
    return "\n".join(lines) + "\n"


def serve(limits: Limits) -> None:
    """A side's worker process: JSON requests on stdin, one JSON answer a line on stdout."""
    import json

    import scorpion_solver

    reply = sys.stdout
    sys.stdout = sys.stderr  # nothing else may write to the answer stream
    validate_known_verdicts()
    backends.warm_up(MODES)
    timers = Timers()
    timers.calibrate()
    timed = timers.install()
    timers.uninstall()
    with tempfile.TemporaryDirectory() as tmp:
        write_chunk(Path(tmp), "warm-up.parquet", backends.solve_pairs([(1, m) for m in MODES], limits))  # pyarrow
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
                answer = bench_chunk(request["mode"], numbers, limits, timers, Path(tmp))
            print(json.dumps(answer), file=reply, flush=True)


class Side:
    """One code base measured in its own process (``PYTHONPATH`` points at its checkout)."""

    def __init__(self, label: str, root: Path, nodes: int) -> None:
        import json
        import os
        import subprocess

        self.label = label
        env = dict(os.environ, PYTHONPATH=str(root))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", "--nodes", str(nodes)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=str(root),
        )
        hello = json.loads(self.process.stdout.readline())
        self.code, self.timed, self.bias = hello["code"], hello["timed"], hello["bias"]
        self.results: dict[str, dict | None] = {}
        self.splits: list[dict] = []

    def ask(self, request: dict) -> dict:
        import json

        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)

    def record(self) -> dict:
        return {
            "label": self.label,
            "code": self.code,
            "timed": self.timed,
            "timer_bias_ns": self.bias,
            "modes": [summarise({"mode": m, **r}) for m, r in self.results.items()],
            "root_split": self.splits,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-20000", help="FIRST-LAST (default 1-20000; the issue's range: 1-100000)")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--chunk", type=int, default=1000, help="deals per chunk (scorpion batch's for 100000 deals)")
    parser.add_argument("--nodes", type=int, default=Limits().nodes, help="node budget per solve")
    parser.add_argument("--split-calls", type=int, default=2000, help="calls per round in the root split (0: skip)")
    parser.add_argument("--baseline", help="a checkout of other code (e.g. git archive main) measured paired with this")
    parser.add_argument("--label", default="this checkout", help="what this code is (recorded in the report)")
    parser.add_argument("--baseline-label", default="baseline")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"))
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    limits = Limits(nodes=args.nodes)
    if args.serve:
        serve(limits)
        return
    first, last = parse_range(args.deals)
    modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    wall = time.perf_counter()
    sides = [Side(args.label, Path(__file__).resolve().parent.parent, args.nodes)]
    if args.baseline:
        sides.append(Side(args.baseline_label, Path(args.baseline).resolve(), args.nodes))
    for mode in modes:
        print(f"{mode}: deals {first}-{last} ...", file=sys.stderr, flush=True)
        for i, start in enumerate(range(first, last + 1, args.chunk)):
            request = {"mode": mode, "first": start, "last": min(last, start + args.chunk - 1)}
            for side in sides if i % 2 == 0 else sides[::-1]:
                side.results[mode] = merge(side.results.get(mode), side.ask(request))
    if args.split_calls:
        for mode in modes:
            for side in sides:
                side.splits.append(side.ask({"split": mode, "calls": args.split_calls}))
    for side in sides:
        side.close()
    report = {
        "first": first,
        "last": last,
        "chunk": args.chunk,
        "nodes": args.nodes,
        "paired": len(sides) == 2,
        "sides": [side.record() for side in sides],
        "machine": machine_record(),
        "wall_seconds": time.perf_counter() - wall,
    }
    write_report(args.out, f"batch-{first}-{last}", report, markdown(report))


if __name__ == "__main__":
    main()
