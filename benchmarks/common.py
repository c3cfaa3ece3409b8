"""What every benchmark shares: the validation before timing, the machine stamp, the report files."""

from __future__ import annotations

import functools
import os
import platform
import resource
import sys
import time
from pathlib import Path


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_record() -> dict:
    import numba
    import numpy

    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def memory_latency_ns(megabytes: int = 64, steps: int = 2_000_000) -> float:
    """Nanoseconds per dependent random load over a table of this size (a pointer chase).

    A gauge of the machine's state at the time of a run: on a shared virtual
    machine the memory latency drifts (measured here between roughly 100 and
    180 ns for 64 MB, the table size of the hardest Clear deal of 1-1000),
    and the search, whose table probes miss every cache, follows it.
    """
    import numba
    import numpy as np

    @numba.njit(cache=False)
    def chase(following, count):
        i = 0
        for _ in range(count):
            i = following[i]
        return i

    n = megabytes * (1 << 20) // 8
    order = np.random.default_rng(1).permutation(n)
    following = np.empty(n, dtype=np.int64)
    following[order[:-1]] = order[1:]
    following[order[-1]] = order[0]  # one cycle through every slot
    chase(following, 10)  # compile
    start = time.perf_counter()
    chase(following, steps)
    return (time.perf_counter() - start) / steps * 1e9


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# The deal sets every speed measurement uses, derived from the committed exact results (the nodes
# column of results/deals-1-1000000, solved with today's search) rather than written down: a search
# change that decides a deal at the root would otherwise leave a "hard" set timing one node a deal.
# hard: the five Clear deals of 1-1000 and the five classic deals of 1-1,000,000 that need the most
# nodes (classic's deals of 1-1000 all need under 5,000); largest: the two Clear deals of
# 1-1,000,000 that need the most of all. Rebuild the results folder after a change to the search
# (results/README.md gives the command), and the sets follow.
RESULTS = Path(__file__).resolve().parent.parent / "results" / "deals-1-1000000"
HARD_SETS = {"clear": (1000, 5), "classic": (1_000_000, 5)}  # mode: (last deal searched, how many)
LARGEST_SETS = {"clear": (1_000_000, 2)}
HARD_REPEATS = 5


@functools.lru_cache(maxsize=None)
def hardest_deals(mode: str, count: int, last: int | None = None, results: Path = RESULTS) -> tuple[int, ...]:
    """The COUNT deals of MODE (up to deal LAST) that needed the most nodes in RESULTS, the most first.

    Reads only the deal, mode and nodes columns, and only MODE's rows (about a second for the
    two million rows of results/deals-1-1000000). Ties go to the smaller deal number.
    """
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    if not results.is_dir():
        raise SystemExit(f"no committed results at {results}: the benchmark deal sets are derived from them")
    wanted = pc.field("mode") == mode
    if last is not None:
        wanted = wanted & (pc.field("deal") <= last)
    table = ds.dataset(results, format="parquet").to_table(columns=["deal", "nodes"], filter=wanted)
    order = pc.sort_indices(table, sort_keys=[("nodes", "descending"), ("deal", "ascending")])
    return tuple(int(d) for d in table.column("deal").take(order[:count]).to_pylist())


def hard_deals() -> dict[str, list[int]]:
    """The hard sets, per mode (HARD_SETS), the hardest first."""
    return {mode: list(hardest_deals(mode, count, last)) for mode, (last, count) in HARD_SETS.items()}


def largest_deals() -> dict[str, list[int]]:
    """The largest set (LARGEST_SETS), the hardest first."""
    return {mode: list(hardest_deals(mode, count, last)) for mode, (last, count) in LARGEST_SETS.items()}


KNOWN_WON = {"clear": {5, 33, 37}, "classic": {5, 37}}  # docs/rules.md, "Verdicts", deals 1-40


def validate_known_verdicts() -> None:
    """Refuse to time a solver that gets the known verdicts of deals 1-40 wrong."""
    from scorpion_solver.game.deal import deal
    from scorpion_solver.game.rules import get_rules
    from scorpion_solver.solver.search import solve

    for name, expected in KNOWN_WON.items():
        rules = get_rules(name)
        won = {n for n in range(1, 41) if solve(deal(n, rules), rules).status == "won"}
        if won != expected:
            raise SystemExit(f"validation failed: {name} won {sorted(won)}, expected {sorted(expected)}")


def write_report(out: str | Path, stem: str, report: dict, markdown: str, label: str = "") -> None:
    """Write REPORT as STEM-<date>.json and .md under OUT (STEM-<date>-LABEL: a run of a before/after pair),
    and print the markdown."""
    import json

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    stamped = f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}" + (f"-{label}" if label else "")
    (folder / f"{stamped}.json").write_text(json.dumps(report, indent=1))
    (folder / f"{stamped}.md").write_text(markdown)
    print(markdown)


def winnable_deals(mode: str, count: int) -> list[int]:
    if not (RESULTS / "_batch.json").exists():
        return [5, 37] if mode == "classic" else [5, 33, 37]
    import pyarrow.parquet as pq

    rows = pq.read_table(RESULTS / "chunk-00000001-00001000.parquet", columns=["deal", "mode", "status"]).to_pylist()
    return [r["deal"] for r in rows if r["mode"] == mode and r["status"] == "won"][:count]


class Worker:
    """A benchmark's side in a process of its own: ``SCRIPT --serve ARGS`` with ``PYTHONPATH`` set to
    the checkout ``root`` (run from there), one JSON request a line on its stdin, one JSON answer a
    line on its stdout; its first line (``hello``) says what it runs."""

    def __init__(self, script: str, root: Path, args: list[str]) -> None:
        import json
        import subprocess

        env = dict(os.environ, PYTHONPATH=str(root))
        command = [sys.executable, script, "--serve", *args]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=str(root)
        )
        self.hello = json.loads(self.process.stdout.readline())

    def ask(self, request: dict) -> dict:
        import json

        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)
