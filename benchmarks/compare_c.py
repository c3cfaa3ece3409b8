"""Speed of the numba kernel against the native C baseline, paired in one process.

    python benchmarks/compare_c.py [--rounds 5] [--largest]
    python benchmarks/compare_c.py --deals 1-300 [--nodes 5000] [--memory-mb 1]

The C baseline (``c_baseline/scorpion_search.c``, loaded by ``c_kernel.py``)
is the same search as ``kernel.search`` written as plain C, so both visit the
very same nodes. Each deal of the hard sets of ``run_all.py`` is solved with
each kernel in turn under the same wrapper (``search.solve``), alternating
which goes first deal by deal (ABBA...), so both see the same machine load.
A kernel's time on a set is the sum over its deals of the fastest of the
rounds, in CPU time (this machine's speed drifts by tens of percent within
minutes; the minimum per deal keeps a slow spell in one round from hiding a
difference). Reports each kernel's nodes/s and the ratio numba/C (the numba
kernel's speed as a fraction of the C baseline's), and checks that both give
the same result: status, nodes, moves made, deadlock checks and prunes,
peak entries, depth, solution (a difference means the two searches are no
longer the same one: the numba kernel changed since the C port, or a bug).

``--largest`` adds the largest deals of ``run_all.py`` (one round; a few
seconds each). The sets are derived from the committed results
(``common.hard_deals``, ``common.largest_deals``). ``--deals A-B`` solves that range in both modes
instead of the hard sets (for checking equality on many deals; one round
unless ``--rounds`` is given); ``--nodes`` and ``--memory-mb`` set the
limits (small budgets exercise the resumable paths: node slices, table
growth, the memory stop). Exits with status 1 when any result differs.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from c_kernel import load_c_kernel  # noqa: E402
from common import hard_deals, largest_deals  # noqa: E402
from pairing import NATIVE_NAMES as NAMES  # noqa: E402
from pairing import RULES, differences, run_paired, warm_up  # noqa: E402

from scorpion_solver.solver import kernel as numba_kernel  # noqa: E402
from scorpion_solver.solver.result import Limits  # noqa: E402


def parse_range(text: str) -> list[int]:
    try:
        first, _, last = text.partition("-")
        a, b = int(first), int(last or first)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a deal range A-B, got '{text}'") from None
    if a < 1 or b < a:
        raise argparse.ArgumentTypeError(f"bad deal range '{text}'")
    return list(range(a, b + 1))


def report(label: str, sets: dict[str, list[int]], best: dict, results: dict, per_deal: bool) -> bool:
    """Print the set's lines; return True when every result agrees."""
    all_same = True
    for mode, deals in sets.items():
        if per_deal:
            for n in deals:
                r = results["numba", mode, n]
                tn, tc = best["numba", mode, n], best["C", mode, n]
                print(
                    f"  {mode:8s} {n:>8d} {r.status:8s} {r.nodes:>11,d} nodes   numba {tn:7.3f} s   "
                    f"C {tc:7.3f} s   numba/C x{tc / tn:.3f}"
                )
        t_numba = sum(best["numba", mode, n] for n in deals)
        t_c = sum(best["C", mode, n] for n in deals)
        n_numba = sum(results["numba", mode, n].nodes for n in deals)
        n_c = sum(results["C", mode, n].nodes for n in deals)
        bad = {n: d for n in deals if (d := differences(results, mode, n))}
        all_same &= not bad
        same = "same nodes" if not bad else "NODES DIFFER"
        statuses: dict[str, int] = {}
        for n in deals:
            statuses[results["numba", mode, n].status] = statuses.get(results["numba", mode, n].status, 0) + 1
        print(
            f"{label:8s} {mode:8s} numba {n_numba / t_numba:12,.0f} nodes/s   C {n_c / t_c:12,.0f} nodes/s   "
            f"numba/C x{t_c / t_numba:.3f}   ({len(deals)} deals, {n_numba:,} nodes, {statuses}, {same})"
        )
        for n, d in list(bad.items())[:20]:
            print(f"    deal {n}: " + "; ".join(d))
        if len(bad) > 20:
            print(f"    ... and {len(bad) - 20} more deals differ")
    return all_same


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2],
    )
    parser.add_argument(
        "--rounds", type=int, default=None, help="rounds per kernel and deal (default 5; 1 with --deals)"
    )
    parser.add_argument("--largest", action="store_true", help="also the largest deals of run_all.py (one round)")
    parser.add_argument(
        "--deals",
        type=parse_range,
        metavar="A-B",
        help="solve this range of deals in both modes instead of the hard sets",
    )
    parser.add_argument("--nodes", type=int, default=None, help="node limit per solve (default: Limits' default)")
    parser.add_argument(
        "--memory-mb", type=int, default=None, help="table memory limit per solve in MB (default: Limits' default)"
    )
    args = parser.parse_args()
    rounds = args.rounds if args.rounds is not None else (1 if args.deals else 5)
    if rounds < 1:
        parser.error("--rounds must be at least 1")
    limit_args = {}
    if args.nodes is not None:
        limit_args["nodes"] = args.nodes
    if args.memory_mb is not None:
        limit_args["memory_mb"] = args.memory_mb
    try:
        limits = Limits(**limit_args)
    except ValueError as exc:
        parser.error(str(exc))
    try:
        c_kernel = load_c_kernel()
    except RuntimeError as exc:
        raise SystemExit(f"error: {exc}") from None
    kernels = {"numba": numba_kernel, "C": c_kernel}
    stacks = {name: threading.local() for name in NAMES}  # each kernel's own stack
    warm_up(kernels, stacks)
    sets = {mode: args.deals for mode in RULES} if args.deals else hard_deals()
    where = f"deals {args.deals[0]}-{args.deals[-1]}" if args.deals else f"hard sets {sets}"
    print(
        f"numba kernel vs C baseline, {where}, per deal the fastest of {rounds} round(s), CPU time, "
        f"limits nodes={limits.nodes:,} memory_mb={limits.memory_mb}"
    )
    best, results = run_paired(sets, rounds, kernels, stacks, limits)
    ok = report("deals" if args.deals else "hard", sets, best, results, per_deal=not args.deals)
    if args.largest:
        largest = largest_deals()
        best, results = run_paired(largest, 1, kernels, stacks, limits)
        ok &= report("largest", largest, best, results, per_deal=True)
    if not ok:
        print("RESULTS DIFFER between the numba kernel and the C baseline")
        sys.exit(1)


if __name__ == "__main__":
    main()
