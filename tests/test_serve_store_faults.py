"""The served game's store after a fault (issue 48 items 1 and 5): a failed COMMIT does not wedge the
connection, and closing the service closes the store's connection."""

from __future__ import annotations

import sqlite3

import pytest

from scorpion_solver.serve import Config
from scorpion_solver.serve.service import GameService
from scorpion_solver.serve.store import Store
from scorpion_solver.serve.table import PLAYING


def test_a_failed_commit_rolls_back_and_the_next_write_works(tmp_path):
    store = Store(tmp_path / "g.sqlite3")
    with pytest.raises(sqlite3.IntegrityError):
        with store.transaction() as db:
            # a deferred foreign key: the body succeeds, the COMMIT fails
            db.execute("PRAGMA defer_foreign_keys = ON")
            db.execute("INSERT INTO events(game_id, kind, ply, at) VALUES (999, 'fair', 0, 0)")
    # before the fix the connection stayed in the transaction: "cannot start a transaction within a transaction"
    game_id = store.create_game(5, "clear", None, [], PLAYING)
    assert store.game(game_id).deal == 5
    with store.reading() as db:
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0  # the failed write left nothing
    store.close()


def test_closing_the_service_closes_the_stores_connection(tmp_path):
    service = GameService.open(Config(db=tmp_path / "g.sqlite3"))
    service.close()
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        service.store.game_id("no-such-game-token")


def test_the_serve_package_imports_under_python_OO():
    """Docstrings are dropped under -OO: no value of the package may be read from one (issue 48 item 4)."""
    import subprocess
    import sys

    run = subprocess.run(
        [
            sys.executable,
            "-OO",
            "-c",
            "import scorpion_solver.serve; from scorpion_solver.serve.lesson_store "
            "import LESSON_SCHEMA; assert 'CREATE TABLE IF NOT EXISTS lessons' in LESSON_SCHEMA",
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr


class _WriteBetweenReads:
    """The store's connection, with another process's move landing right after the game's row is read."""

    def __init__(self, db, path, game_id):
        self._db, self._path, self._game_id, self.done = db, path, game_id, False

    def __getattr__(self, name):
        return getattr(self._db, name)

    def execute(self, sql, *args):
        cursor = self._db.execute(sql, *args)
        if sql.startswith("SELECT * FROM games") and not self.done:
            self.done = True
            other = sqlite3.connect(self._path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            other.execute(
                "INSERT INTO moves(game_id, attempt, seq, move, shown, perm, played) "
                "VALUES (?, 0, 1, 'tail', 'tail', '0123456', 0)",
                (self._game_id,),
            )
            other.execute("UPDATE games SET ply = 1, version = version + 1 WHERE id = ?", (self._game_id,))
            other.execute("COMMIT")
            other.close()
        return cursor


def test_a_games_reads_are_one_snapshot_while_another_process_writes(tmp_path):
    path = tmp_path / "g.sqlite3"
    store = Store(path)
    game_id = store.create_game(5, "clear", None, [], PLAYING)
    store._db = _WriteBetweenReads(store._db, str(path), game_id)
    row = store.game(game_id)
    assert store._db.done
    # the row as it was before the other write (version 0, ply 0, no move), never its row with the new line
    assert (row.version, row.ply, len(row.line)) == (0, 0, 0)
    after = store.game(game_id)
    assert (after.version, after.ply, len(after.line)) == (1, 1, 1)


def test_an_analysis_records_the_ply_it_was_asked_at_when_the_player_undoes_meanwhile(tmp_path):
    """Every value the analysis records is taken before its await (issue 48 item 3)."""
    import asyncio

    from scorpion_solver.serve.helpers import Budget

    service = GameService.open(Config(db=tmp_path / "g.sqlite3", budget=Budget(peek_nodes=20_000, seconds=None)))
    game = service.create(deal=5)
    for _ in range(3):
        state = service.state(game)
        service.move(game, state["version"], state["legal"][0]["move"])
    state = service.peek(game, True, service.state(game)["version"])
    assert state["ply"] == 3
    real_run = service.pool.run

    async def undo_while_it_runs(fn, *args, still_current=None):
        service.set_ply(game, service.state(game)["version"], "undo")  # the player undoes while the solver works
        return await real_run(fn, *args)

    service.pool.run = undo_while_it_runs
    asyncio.run(service.analysis(game))
    assert service.state(game)["ply"] == 2
    events = service.store.events(service.store.game_id(game))
    assert [(e["kind"], e["ply"]) for e in events if e["kind"].startswith("analysis")] == [("analysis_unfinished", 3)]
    service.close()
