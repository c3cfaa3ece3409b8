"""The bench signature: total nodes over a fixed set of solves with a fixed budget.

Any change that alters search behaviour (move order, pruning, node counting)
changes this number; a change that should not alter it proves so by leaving it
equal. It is pinned in ``tests/test_bench_signature.py``; run this file to
print it::

    python benchmarks/signature.py
"""

from __future__ import annotations

SIGNATURE_DEALS = range(1, 201)
SIGNATURE_MODES = ("clear", "classic")
SIGNATURE_NODES = 300_000


def bench_signature() -> tuple[int, dict[str, int]]:
    """(total nodes, per-mode verdict counts) over the fixed set."""
    from scorpion_solver.game.deal import deal
    from scorpion_solver.game.rules import get_rules
    from scorpion_solver.solver.result import Limits
    from scorpion_solver.solver.search import solve

    total = 0
    counts: dict[str, int] = {}
    for name in SIGNATURE_MODES:
        rules = get_rules(name)
        for n in SIGNATURE_DEALS:
            result = solve(deal(n, rules), rules, Limits(nodes=SIGNATURE_NODES))
            total += result.nodes
            key = f"{name}:{result.status}"
            counts[key] = counts.get(key, 0) + 1
    return total, counts


if __name__ == "__main__":
    total, counts = bench_signature()
    print(f"bench signature: {total} nodes {counts}")
