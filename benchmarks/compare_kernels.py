"""Speed of this kernel against a baseline kernel, paired in one process.

    python benchmarks/compare_kernels.py --baseline fc2c7e1 [--rounds 5]

Loads ``scorpion_solver/kernel.py`` as of the baseline git revision next to
the working tree's kernel, and solves the hard sets of ``run_all.py`` with
each in turn, alternating the order every round (ABBA...), so both see the
same machine load. Reports the fastest round of each (the machine's other
load only ever slows a run down) and the speed ratio; checks that both
kernels search the same number of nodes (a kernel change that should not
change the search must leave it equal).

The wrapper (``search.solve``) is the working tree's for both, so the
baseline kernel must have the same kernel interface (the functions and
arguments ``search.py`` calls). Compilation is excluded (a warm-up solve per
kernel), and each kernel is compiled into its own cache directory under the
system's temporary directory.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from run_all import HARD_DEALS  # noqa: E402

from scorpion_solver import search  # noqa: E402
from scorpion_solver.deal import deal  # noqa: E402
from scorpion_solver.rules import CLASSIC, CLEAR  # noqa: E402

RULES = {"clear": CLEAR, "classic": CLASSIC}


def load_kernel(source: str, name: str):
    """Import kernel source text as module ``name`` (a stable file, so numba's cache works across runs)."""
    folder = Path(tempfile.gettempdir()) / "scorpion-compare-kernels" / name
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    if not path.exists() or path.read_text() != source:
        path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # numba's cache pickles functions by module name
    spec.loader.exec_module(module)
    return module


def solve_set(kernel, stack, mode: str) -> tuple[float, int]:
    search.K, search._reused = kernel, stack
    rules = RULES[mode]
    start = time.process_time()
    nodes = sum(search.solve(deal(n, rules), rules).nodes for n in HARD_DEALS[mode])
    return time.process_time() - start, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="git revision of the baseline kernel")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per kernel and set (default 5)")
    args = parser.parse_args()
    root = HERE.parent
    try:
        old = subprocess.run(["git", "show", f"{args.baseline}:scorpion_solver/kernel.py"], cwd=root, check=True,
                             capture_output=True, text=True).stdout
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"error: cannot read the kernel at {args.baseline}: {exc.stderr.strip()}") from None
    kernels = {"baseline": load_kernel(old, "kernel_baseline"),
               "current": load_kernel((root / "scorpion_solver" / "kernel.py").read_text(), "kernel_current")}
    stacks = {name: threading.local() for name in kernels}  # each kernel's own stack (frame sizes differ)
    for name, kernel in kernels.items():
        for mode in RULES:
            search.K, search._reused = kernel, stacks[name]
            search.solve(deal(5, RULES[mode]), RULES[mode])  # compile or load from the cache
    best: dict[tuple[str, str], float] = {}
    nodes: dict[tuple[str, str], int] = {}
    for round_ in range(args.rounds):
        for mode in RULES:
            order = ("baseline", "current") if round_ % 2 == 0 else ("current", "baseline")
            for name in order:
                seconds, count = solve_set(kernels[name], stacks[name], mode)
                best[name, mode] = min(best.get((name, mode), float("inf")), seconds)
                nodes[name, mode] = count
    print(f"baseline {args.baseline}, fastest of {args.rounds} rounds, CPU time, hard sets {HARD_DEALS}")
    for mode in RULES:
        old_s, new_s = best["baseline", mode], best["current", mode]
        same = "same nodes" if nodes["baseline", mode] == nodes["current", mode] else "NODES DIFFER"
        print(f"{mode:8s} baseline {nodes['baseline', mode] / old_s:12,.0f} nodes/s   "
              f"current {nodes['current', mode] / new_s:12,.0f} nodes/s   speed-up x{old_s / new_s:.3f}   "
              f"({nodes['current', mode]:,} nodes, {same})")


if __name__ == "__main__":
    main()
