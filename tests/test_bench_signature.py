"""The bench signature is pinned: search behaviour changes only on purpose.

If this fails after a change that was meant to alter the search (move order,
pruning, node counting), update the number in the same commit and say so in its
message; if the change was not meant to, the change is wrong.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from signature import bench_signature, shortest_signature  # noqa: E402

PINNED_NODES = 335_328
PINNED_COUNTS = {"clear:lost": 179, "clear:won": 20, "clear:unknown": 1, "classic:lost": 181, "classic:won": 19}


def test_bench_signature_is_pinned():
    total, counts = bench_signature()
    assert counts == PINNED_COUNTS
    assert total == PINNED_NODES


# solve_shortest over SHORTEST_DEALS in both modes: the kernel's shortest_search counted node by node
PINNED_SHORTEST_NODES = 981_984
PINNED_SHORTEST_MOVES = 980
PINNED_SHORTEST_COUNTS = {"clear:won:proved": 9, "clear:won:shortened": 1, "classic:won:proved": 9, "classic:lost:": 1}


def test_shortest_signature_is_pinned():
    nodes, moves, counts = shortest_signature()
    assert counts == PINNED_SHORTEST_COUNTS
    assert moves == PINNED_SHORTEST_MOVES
    assert nodes == PINNED_SHORTEST_NODES
