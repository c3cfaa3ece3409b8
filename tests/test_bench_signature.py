"""The bench signature is pinned: search behaviour changes only on purpose.

If this fails after a change that was meant to alter the search (move order,
pruning, node counting), update the number in the same commit and say so in its
message; if the change was not meant to, the change is wrong.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from signature import bench_signature  # noqa: E402

PINNED_NODES = 335_328
PINNED_COUNTS = {"clear:lost": 179, "clear:won": 20, "clear:unknown": 1, "classic:lost": 181, "classic:won": 19}


def test_bench_signature_is_pinned():
    total, counts = bench_signature()
    assert counts == PINNED_COUNTS
    assert total == PINNED_NODES
