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

from common import Worker, machine_record, validate_known_verdicts, write_report  # noqa: E402

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

    def install(self, parts: tuple[str, ...] = PARTS) -> list[str]:
        installed = []
        for module_name, attr, part in TIMED:
            if part not in parts:
                continue
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


def empty_class() -> dict:
    return {
        "deals": 0,
        "won": 0,
        "moves_verified": 0,
        "nodes": 0,
        "total_ns": 0,
        "check_ns": 0.0,  # the check's CPU in the plain pass (``verify`` is the instrumented pass's)
        **{p: 0.0 for p in PARTS},
    }


class CTwin:
    """The same search as native C (``c_kernel.load_c_kernel``), the CPU of its native calls alone; and,
    apart, of the line kernels its wins call (``shorten_line``, ``shortest_search``: numba, the batch's own)."""

    def __init__(self, bias: float) -> None:
        import threading

        from c_kernel import load_c_kernel

        self.ns = 0
        self.calls = 0
        self.bias = bias  # ns the clock adds to one measured call (Timers.calibrate)
        clock = time.process_time_ns

        def timed(native):
            def call(pointer):
                t0 = clock()
                try:
                    return native(pointer)
                finally:
                    self.ns += clock() - t0
                    self.calls += 1

            return call

        self.kernel = load_c_kernel(wrap_native=timed)
        self.stack = threading.local()  # its own stack and buffers, as compare_c.py gives each kernel
        self.line_ns = 0
        self.line_calls = 0

        def timed_line(kernel_fn):
            def call(*args):
                t0 = clock()
                try:
                    return kernel_fn(*args)
                finally:
                    self.line_ns += clock() - t0
                    self.line_calls += 1

            return call

        for name in ("shorten_line", "shortest_search"):
            setattr(self.kernel, name, timed_line(getattr(self.kernel, name)))

    def solve(self, pairs: list[tuple[int, str]], limits: Limits) -> tuple[list[tuple[str, int]], float, float]:
        """(status, nodes) of each pair, the native search's CPU ns for them all, and the line kernels'."""
        from scorpion_solver.solver import driver, search

        saved = driver.kernel, driver._reused
        ns, calls = self.ns, self.calls
        line_ns, line_calls = self.line_ns, self.line_calls
        driver.kernel, driver._reused = self.kernel, self.stack
        try:
            verdicts = []
            for n, mode in pairs:
                result = search.solve_deal(n, get_rules(mode), limits)
                verdicts.append((result.status, result.nodes))
        finally:
            driver.kernel, driver._reused = saved
        search_ns = max(0.0, (self.ns - ns) - self.bias * (self.calls - calls))
        return verdicts, search_ns, max(0.0, (self.line_ns - line_ns) - self.bias * (self.line_calls - line_calls))


def digest(row: dict) -> list:
    """What must be equal between two code bases that search alike: status, nodes and the solution (hashed)."""
    import hashlib

    return [row["status"], row["nodes"], hashlib.sha1(row["solution"].encode()).hexdigest()[:12]]


def bench_chunk(
    modes: tuple[str, ...], numbers: range, limits: Limits, timers: Timers, out: Path, c_twin: CTwin | None
) -> dict:
    """One chunk of one run: the instrumented pass, the plain pass by class, the C twin (module docstring)."""
    pairs = [(n, m) for n in numbers for m in modes]
    classes = {"root": empty_class(), "rest": empty_class()}
    verify_won = []  # (solution length, verify ns) per won deal
    kind = {}
    rows = {}
    timers.install()
    try:
        for pair in pairs:
            before = timers.snapshot()
            (row,) = backends.solve_pairs([pair], limits)
            after = timers.snapshot()
            rows[pair] = row
            k = kind[pair] = "root" if row["nodes"] <= 1 else "rest"
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
    check = Timers()  # the plain pass times the check alone (two clock reads a win: under 1% of its cost)
    check.bias = timers.bias
    check.install(parts=("verify",))
    try:
        for k in ("root", "rest"):
            chosen = [pair for pair in pairs if kind[pair] == k]
            if not chosen:
                continue
            before = check.snapshot()["verify"]
            t0 = time.process_time_ns()
            written = backends.solve_pairs(chosen, limits)
            write_chunk(out, f"chunk-{'+'.join(modes)}-{k}-{numbers[0]:08d}.parquet", written)
            classes[k]["total_ns"] += time.process_time_ns() - t0
            classes[k]["check_ns"] += check.snapshot()["verify"] - before
    finally:
        check.uninstall()
    twin = {"ns": 0.0, "line_ns": 0.0, "differ": []}
    if c_twin is not None:
        verdicts, twin["ns"], twin["line_ns"] = c_twin.solve(pairs, limits)
        twin["differ"] = [
            f"deal {n} ({mode}): batch {rows[n, mode]['status']} in {rows[n, mode]['nodes']} nodes,"
            f" C twin {status} in {nodes} nodes"
            for (n, mode), (status, nodes) in zip(pairs, verdicts)
            if (status, nodes) != (rows[n, mode]["status"], rows[n, mode]["nodes"])
        ]
    return {
        "classes": classes,
        "verify_won": verify_won,
        "c_twin": twin,
        "rows": {f"{n}:{mode}": digest(row) for (n, mode), row in rows.items()},
    }


def merge(total: dict | None, part: dict) -> dict:
    if total is None:
        return part
    for k, c in part["classes"].items():
        for key, value in c.items():
            total["classes"][k][key] += value
    total["verify_won"] += part["verify_won"]
    total["c_twin"]["ns"] += part["c_twin"]["ns"]
    total["c_twin"]["line_ns"] += part["c_twin"]["line_ns"]
    total["c_twin"]["differ"] += part["c_twin"]["differ"]
    total["rows"].update(part["rows"])
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
    summary = {"run": result["run"]}
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
    summary["check"] = {
        "seconds": both["check_ns"] / 1e9,
        "us_per_won_deal": both["check_ns"] / len(won) / 1000 if won else None,
    }
    summary["check_share"] = both["check_ns"] / both["total_ns"] if both["total_ns"] else None
    twin = result["c_twin"]
    native = twin["ns"] + twin["line_ns"]
    summary["c_twin"] = {
        "seconds": twin["ns"] / 1e9 if twin["ns"] else None,
        "line_seconds": twin["line_ns"] / 1e9 if twin["ns"] else None,
        "total_over_c_twin": both["total_ns"] / twin["ns"] if twin["ns"] else None,
        "total_over_native": both["total_ns"] / native if twin["ns"] else None,
        "differ": twin["differ"],
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
        "| run | deals | count | deal | search | line | verify | other | total | total / search"
        " | total / (search + line) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in side["runs"]:
        for name in ("all", "root", "rest"):
            c = s[name]
            u = c["us_per_deal"]
            ratio = f"{u['total_over_search']:.2f}" if u["total_over_search"] else "-"
            ratio_line = f"{u['total_over_search_and_line']:.2f}" if u["total_over_search_and_line"] else "-"
            lines.append(
                f"| {s['run']} | {name} | {c['deals']} | {u['deal']:.1f} | {u['search']:.1f} | {u['line']:.1f}"
                f" | {u['verify']:.1f} | {u['other']:.1f} | {u['total']:.1f} | {ratio} | {ratio_line} |"
            )
    lines += [
        "",
        "Totals (CPU seconds) and verification of wins:",
        "",
        "| run | total s | search s | line s | deal s | verify s | wins | mean length | verify us/win"
        " | us per 52 moves |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def fmt(x, spec=".1f"):
        return "-" if x is None else format(x, spec)

    for s in side["runs"]:
        t, v = s["seconds"], s["verify"]
        lines.append(
            f"| {s['run']} | {t['total']:.2f} | {t['search']:.2f} | {t['line']:.2f} | {t['deal']:.2f}"
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


def _fmt(x, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def headline(report: dict) -> list[str]:
    """Per run and side: the batch against its C twin, the check's share and cost, the verdicts."""
    sides = report["sides"]
    lines = [
        "The batch's CPU (the plain pass) against its C twin's: the same search as native C, its native calls"
        " alone (*C search*), and with the line kernels its wins call (*+ line*: `shorten_line` and"
        " `shortest_search`, the batch's own numba kernels, which no C port has; numba runs the search at"
        " C's speed, `compare_c.py`). The check of the wins (`verify_solution`, timed in the plain pass) as"
        " a share of the batch's CPU:",
        "",
        "| run | code | deals | wins | batch CPU s | C search s | + line s | batch / C search"
        " | batch / (C search + line) | check s | check share | check us/win | verdicts |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for i, run in enumerate(report["runs"]):
        for side in sides:
            s = side["runs"][i]
            twin, t, v = s["c_twin"], s["seconds"], s["check"]
            same = "C twin: " + ("same" if not twin["differ"] else f"{len(twin['differ'])} DIFFER")
            if report["paired"]:
                same += ", sides: " + ("same" if not report["rows_differ"][run] else "DIFFER")
            lines.append(
                f"| {run} | {side['label']} | {s['all']['deals']} | {s['verify']['won_deals']} | {t['total']:.2f}"
                f" | {_fmt(twin['seconds'], '.2f')} | {_fmt(twin['line_seconds'], '.2f')}"
                f" | {_fmt(twin['total_over_c_twin'], '.2f')} | {_fmt(twin['total_over_native'], '.2f')}"
                f" | {v['seconds']:.2f} | {_fmt(s['check_share'] and 100 * s['check_share'], '.1f')}%"
                f" | {_fmt(v['us_per_won_deal'], '.1f')} | {same} |"
            )
    differ = [d for side in sides for s in side["runs"] for d in s["c_twin"]["differ"]]
    differ += [d for run in report["runs"] for d in report.get("rows_differ", {}).get(run, [])]
    if differ:
        lines += ["", "Differences (first 20):", ""] + [f"* {d}" for d in differ[:20]]
    return lines + [""]


def markdown(report: dict) -> str:
    lines = [
        f"# Batch throughput: {', '.join(report['runs'])}",
        "",
        f"Chunks of {report['chunk']} deals; node budget {report['nodes']:,}."
        + (
            " Sides run in separate processes, chunk by chunk in alternating order (paired)."
            if report["paired"]
            else ""
        ),
        "",
        *headline(report),
    ]
    if report["paired"]:
        this, base = report["sides"]
        lines += ["| run | baseline total s | this total s | baseline / this | this total / this search |"]
        lines += ["|---|---:|---:|---:|---:|"]
        for a, b in zip(this["runs"], base["runs"]):
            ta, tb = a["seconds"]["total"], b["seconds"]["total"]
            lines.append(
                f"| {a['run']} | {tb:.2f} | {ta:.2f} | {tb / ta:.2f} | {ta / max(a['seconds']['search'], 1e-12):.2f} |"
            )
        lines.append("")
    for side in report["sides"]:
        lines += side_markdown(side)
    m = report["machine"]
    lines += [f"Machine: {m['cpu']}, {m['cores']} cores, load {m['load_average']}, python {m['python']},"]
    lines += [f"numpy {m['numpy']}, numba {m['numba']}; wall {report['wall_seconds']:.0f} s."]
    return "\n".join(lines) + "\n"


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
