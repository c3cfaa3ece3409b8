"""Issue 48 item 6: one move is applied once and answered from the new state, not read back.

``benchmarks/bench_serve.py``'s ``one_move_work`` counts, over deal 5's winning line played through the
service, the engine calls the serve modules make and the SQL statements the store runs per move. Before
the fix a move made 6 ``legal_moves`` calls, applied the move twice and ran 11 reads in 10 transactions;
now it works out the legal moves of the new position once, applies the move once, and reads the game once
(one snapshot) and its version in the write.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_one_move_applies_once_lists_the_legal_moves_once_and_reads_the_game_once():
    # run as the benchmark runs (its own process: benchmarks/ has a module named ``common``, as notebooks/ has)
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_serve.py"), "--work-only"],
        capture_output=True,
        text=True,
        check=True,
    )
    work = json.loads(done.stdout)
    assert work["moves"] == 52  # deal 5's winning line in Clear runs
    most = work["most"]
    assert most["apply_move"] == 1 and most["legal_moves"] == 1
    # the game read in one snapshot (5 SELECTs), the version checked in the write, a finish's own reads
    assert most["sql_reads"] <= 7 and work["mean"]["sql_reads"] <= 6.1
    assert most["sql_transactions"] == 4  # one read, one write
