"""Issue 48 item 6: one move is applied once and answered from the new state, not read back.

``benchmarks/bench_serve.py``'s ``one_move_work`` counts, over deal 5's winning line played through the
service, the engine calls the serve modules make and the SQL statements the store runs per move. Before
the fix a move made 6 ``legal_moves`` calls, applied the move twice and ran 11 reads in 10 transactions;
now it works out the legal moves of the new position once, applies the move once, and reads the game once
(one snapshot) and its version in the write.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_serve  # noqa: E402  (benchmarks/bench_serve.py)

from scorpion_solver.game.deal import deal  # noqa: E402
from scorpion_solver.game.rules import get_rules  # noqa: E402
from scorpion_solver.solver.search import solve  # noqa: E402


def test_one_move_applies_once_lists_the_legal_moves_once_and_reads_the_game_once():
    clear = get_rules("clear")
    line = solve(deal(5, clear), clear).solution.split()
    work = bench_serve.one_move_work(line)
    assert work["moves"] == len(line)
    most = work["most"]
    assert most["apply_move"] == 1 and most["legal_moves"] == 1
    # the game read in one snapshot (5 SELECTs), the version checked in the write, a finish's own reads
    assert most["sql_reads"] <= 7 and work["mean"]["sql_reads"] <= 6.1
    assert most["sql_transactions"] == 4  # one read, one write
