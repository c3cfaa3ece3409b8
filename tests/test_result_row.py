"""The winning line is a value (``SolveResult.line``) and the batch's row keeps its text: the
Parquet schema written now is the schema of the committed chunks, column for column."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from scorpion_solver.batch.folder import COLUMNS, SCHEMA
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import Move, parse_moves, replay
from scorpion_solver.game.rules import CLEAR
from scorpion_solver.solver.result import ROW_FIELDS, SolveResult
from scorpion_solver.solver.search import solve

RESULTS = Path(__file__).resolve().parent.parent / "results"


def test_the_schema_written_now_is_a_committed_chunks():
    chunk = RESULTS / "deals-1-100000-goodsol" / "chunk-00000001-00001000.parquet"
    committed = pq.read_schema(chunk).remove_metadata()
    assert committed.names == list(COLUMNS)
    assert committed.equals(SCHEMA), (committed, SCHEMA)


def test_a_won_result_holds_its_line_as_moves_and_derives_the_text():
    result = solve(deal(5, CLEAR), CLEAR)
    assert result.status == "won"
    assert all(isinstance(move, Move) for move in result.line)
    assert parse_moves(result.solution) == list(result.line)
    assert result.solution_length == len(result.line) > 0
    replay(deal(5, CLEAR), result.line, CLEAR)  # raises unless every move is legal


def test_the_row_is_todays_columns_in_todays_order():
    row = SolveResult(status="won", rules="clear", line=(Move(0, 1, 2),), deal=7).as_row()
    assert tuple(row) == ROW_FIELDS
    assert "line" not in row
    assert row["solution"] == "AC:2>3" and row["solution_length"] == 1
    middle = tuple(f for f in ROW_FIELDS if f not in ("rules", "deal"))
    assert COLUMNS == ("deal", "mode", *middle, "budget_nodes", "budget_memory_mb", "budget_seconds")
