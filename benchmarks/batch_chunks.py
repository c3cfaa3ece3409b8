"""bench_batch.py's measurements in a side's worker: one chunk in three passes, their sums, the root split.

``bench_chunk`` runs a chunk instrumented, plain and on the C twin
(``bench_batch``'s docstring says how); ``merge`` and ``summarise`` make a
run's figures of its chunks; ``root_split`` times the pieces of one solve of
a deal decided at the root.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

from batch_c_twin import CTwin
from batch_timers import PARTS, Timers

from scorpion_solver.batch import backends
from scorpion_solver.batch.folder import write_chunk
from scorpion_solver.game.rules import get_rules
from scorpion_solver.solver.result import Limits


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
