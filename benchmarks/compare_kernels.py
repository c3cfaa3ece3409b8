"""Speed of this kernel against a baseline kernel, paired in one process.

    python benchmarks/compare_kernels.py --baseline fc2c7e1 [--rounds 5]

Loads ``scorpion_solver/solver/kernel.py`` as of the baseline git revision next to
the working tree's kernel, and solves each deal of the hard sets of
``common.py`` with each in turn, alternating the order (ABBA...), so both
see the same machine load. A kernel's time on a set is the sum over its
deals of the fastest of the rounds (the machine's other load only ever slows
a run down; taking the minimum per deal, not per set, keeps a slow spell in
one round from hiding a difference: this machine's speed drifts by tens of
percent within minutes). Reports nodes/s and the speed ratio; checks that
both kernels search the same number of nodes (a kernel change that should
not change the search must leave it equal).

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
from pathlib import Path

HERE = Path(__file__).resolve().parent
KERNEL_PATHS = ("scorpion_solver/solver/kernel.py", "scorpion_solver/kernel.py")
sys.path.insert(0, str(HERE))

from common import hard_deals  # noqa: E402
from pairing import RULES, run_paired, warm_up  # noqa: E402


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", required=True, help="git revision of the baseline kernel")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per kernel and set (default 5)")
    args = parser.parse_args()
    root = HERE.parent
    old = None
    for path in KERNEL_PATHS:  # the kernel's path at the baseline: it moved into solver/ with the layering
        run = subprocess.run(["git", "show", f"{args.baseline}:{path}"], cwd=root, capture_output=True, text=True)
        if run.returncode == 0:
            old = run.stdout
            break
    if old is None:
        raise SystemExit(f"error: cannot read the kernel at {args.baseline}: {run.stderr.strip()}")
    kernels = {
        "baseline": load_kernel(old, "kernel_baseline"),
        "current": load_kernel((root / KERNEL_PATHS[0]).read_text(), "kernel_current"),
    }
    stacks = {name: threading.local() for name in kernels}  # each kernel's own stack (frame sizes differ)
    warm_up(kernels, stacks)
    sets = hard_deals()
    best, results = run_paired(sets, args.rounds, kernels, stacks)
    nodes = {key: result.nodes for key, result in results.items()}
    print(f"baseline {args.baseline}, per deal the fastest of {args.rounds} rounds, CPU time, hard sets {sets}")
    for mode in RULES:
        old_s, new_s = (sum(best[name, mode, n] for n in sets[mode]) for name in ("baseline", "current"))
        old_n, new_n = (sum(nodes[name, mode, n] for n in sets[mode]) for name in ("baseline", "current"))
        same = (
            "same nodes"
            if all(nodes["baseline", mode, n] == nodes["current", mode, n] for n in sets[mode])
            else "NODES DIFFER"
        )
        print(
            f"{mode:8s} baseline {old_n / old_s:12,.0f} nodes/s   "
            f"current {new_n / new_s:12,.0f} nodes/s   speed-up x{old_s / new_s:.3f}   "
            f"({new_n:,} nodes, {same})"
        )


if __name__ == "__main__":
    main()
