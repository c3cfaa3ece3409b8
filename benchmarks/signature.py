"""The bench signature: total nodes over a fixed set of solves with a fixed budget.

Any change that alters search behaviour (move order, pruning, node counting)
changes this number; a change that should not alter it proves so by leaving it
equal. The shortest signature does the same for ``solve_shortest`` (the
kernel's ``shortest_search``): its nodes, verdicts, proofs and line lengths
over a fixed set of deals won in both modes. Both are pinned in
``tests/test_bench_signature.py``; run this file to print them::

    python benchmarks/signature.py
"""

from __future__ import annotations

SIGNATURE_DEALS = range(1, 201)
SIGNATURE_MODES = ("clear", "classic")
SIGNATURE_NODES = 300_000
# the first ten deals of SIGNATURE_DEALS won under Clear runs (33 is lost under classic)
SHORTEST_DEALS = (5, 33, 37, 49, 56, 57, 58, 63, 65, 87)


def _fixed_solves(search, deals):
    """(mode name, result) of ``search(position, rules, limits)`` on each deal of ``deals`` in each mode."""
    from scorpion_solver.game.deal import deal
    from scorpion_solver.game.rules import get_rules
    from scorpion_solver.solver.result import Limits

    for name in SIGNATURE_MODES:
        rules = get_rules(name)
        for n in deals:
            yield name, search(deal(n, rules), rules, Limits(nodes=SIGNATURE_NODES))


def bench_signature() -> tuple[int, dict[str, int]]:
    """(total nodes, per-mode verdict counts) over the fixed set."""
    from scorpion_solver.solver.search import solve

    total = 0
    counts: dict[str, int] = {}
    for name, result in _fixed_solves(solve, SIGNATURE_DEALS):
        total += result.nodes
        key = f"{name}:{result.status}"
        counts[key] = counts.get(key, 0) + 1
    return total, counts


def shortest_signature() -> tuple[int, int, dict[str, int]]:
    """(total nodes, total solution length, per-mode counts of status and proof) of ``solve_shortest``."""
    from scorpion_solver.solver.search import solve_shortest

    nodes = length = 0
    counts: dict[str, int] = {}
    for name, result in _fixed_solves(solve_shortest, SHORTEST_DEALS):
        nodes += result.nodes
        length += result.solution_length or 0
        key = f"{name}:{result.status}:{result.shortest}"
        counts[key] = counts.get(key, 0) + 1
    return nodes, length, counts


if __name__ == "__main__":
    total, counts = bench_signature()
    print(f"bench signature: {total} nodes {counts}")
    nodes, length, shortest_counts = shortest_signature()
    print(f"shortest signature: {nodes} nodes, {length} moves {shortest_counts}")
