"""What every benchmark shares: the validation before timing, the machine stamp, the report files."""

from __future__ import annotations

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


# The deals that need the most nodes, the sets every speed measurement uses: the five Clear deals
# of 1-1000 and the five classic deals of 1-1,000,000 that need the most nodes (those of 1-1000
# need under 10,000), and the two Clear deals of 1-1,000,000 that need the most of all.
HARD_DEALS = {"clear": [674, 515, 103, 571, 230], "classic": [123387, 116173, 859501, 807766, 69188]}
HARD_REPEATS = 5
LARGEST_DEALS = {"clear": [700647, 190516]}

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


def write_report(out: str | Path, stem: str, report: dict, markdown: str) -> None:
    """Write REPORT as STEM-<date>.json and .md under OUT, and print the markdown."""
    import json

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    stamped = f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}"
    (folder / f"{stamped}.json").write_text(json.dumps(report, indent=1))
    (folder / f"{stamped}.md").write_text(markdown)
    print(markdown)
