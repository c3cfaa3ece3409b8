"""The lessons' part of the game database: where each lesson stands and whether it was ever finished.

One table of its own beside the games' (``store.SCHEMA``), in the same SQLite
file, through the games' store's public interface (``Store.add_schema``,
``Store.reading``, ``Store.transaction``), so a lesson
is kept as a game is: every change one transaction, committed before the
answer, with a ``version`` that a stale request must match. A lesson is a
handful of moves, so its current line is one JSON value (each move as the
games' ``moves`` table keeps it: the engine's move, the player's, the column
mapping after it); a restart empties it and counts an ``attempt``.

Its schema is :data:`LESSON_SCHEMA` (docs/serve.md quotes it; a test checks the quote).

A lesson never moved in has no row: it reads as version 0 at its start. A
lesson has no results, events or peeking, and is not counted in the statistics.

:class:`LessonStore` offers the game service (``serve.service``) the same
methods as ``store.Store`` does for games (``game``, ``play``, ``set_ply``,
``restart``, ``add_event``), keyed by the lesson's number.
"""

from __future__ import annotations

import json
import time

from .store import GameRow, Played, StaleVersion, Store

# a constant, not read from this docstring: ``python -OO`` drops docstrings, and the import must still work
LESSON_SCHEMA = """\
CREATE TABLE IF NOT EXISTS lessons (
    number      INTEGER PRIMARY KEY,     -- 1-4, lessons.toml's order
    version     INTEGER NOT NULL DEFAULT 0,
    attempt     INTEGER NOT NULL DEFAULT 0,
    ply         INTEGER NOT NULL DEFAULT 0,
    line        TEXT NOT NULL DEFAULT '[]',  -- [[move, shown, perm], ...]: played (ply of them) and redo stack
    started     REAL NOT NULL,
    updated     REAL NOT NULL,
    done        REAL                     -- when its goals were first all met; NULL: not yet
);
"""


class LessonStore:
    """The lessons table, through the app's :class:`Store` (its public transactions)."""

    def __init__(self, store: Store, modes: dict[int, str]) -> None:
        self.store, self.modes = store, modes  # modes: each lesson's rules preset
        store.add_schema(LESSON_SCHEMA)

    def _row(self, db, number: int):
        return db.execute("SELECT * FROM lessons WHERE number = ?", (number,)).fetchone()

    def game(self, number: int) -> GameRow:
        """The lesson as a game row: its public id (``token``) is ``lesson-N``; ``line`` its current moves."""
        with self.store.reading() as db:
            row = self._row(db, number)
        stored = json.loads(row["line"]) if row else []
        return GameRow(
            id=number,
            token=f"lesson-{number}",
            deal=0,  # no deal number: a lesson starts from its own position
            mode=self.modes[number],
            grade=None,
            version=row["version"] if row else 0,
            attempt=row["attempt"] if row else 0,
            ply=row["ply"] if row else 0,
            peek=False,
            line=tuple(Played.of_row(move, shown, perm) for move, shown, perm in stored),
            hints_asked=0,
            imported=False,
        )

    def finished(self, number: int) -> bool:
        with self.store.reading() as db:
            row = self._row(db, number)
        return bool(row and row["done"])

    def progress(self) -> dict[int, dict]:
        """number -> the lesson's row, for every lesson moved in at least once."""
        with self.store.reading() as db:
            rows = db.execute("SELECT * FROM lessons").fetchall()
        return {r["number"]: dict(r) for r in rows}

    def _save(self, number: int, version: int, edit) -> None:
        """One transaction on the lesson still at ``version``: ``edit(line, ply, attempt)`` gives the new three."""
        now = time.time()
        with self.store.transaction() as db:
            db.execute("INSERT OR IGNORE INTO lessons(number, started, updated) VALUES (?, ?, ?)", (number, now, now))
            row = self._row(db, number)
            if row["version"] != version:
                raise StaleVersion(number)
            line, ply, attempt = edit(json.loads(row["line"]), row["ply"], row["attempt"])
            db.execute(
                "UPDATE lessons SET line = ?, ply = ?, attempt = ?, version = version + 1, updated = ? "
                "WHERE number = ?",
                (json.dumps(line), ply, attempt, now, number),
            )

    # the games' Store interface (serve.service.GameService calls these); ``status`` is the lesson's to work out

    def play(self, number: int, version: int, played: Played, status: str) -> None:
        """A move after the current ply: the redo stack beyond it goes."""
        move = [*played.row()[:2], list(played.perm)]
        self._save(number, version, lambda line, ply, attempt: (line[:ply] + [move], ply + 1, attempt))

    def set_ply(self, number: int, version: int, ply: int, status: str) -> None:
        self._save(number, version, lambda line, _, attempt: (line, ply, attempt))

    def restart(self, number: int, version: int) -> None:
        self._save(number, version, lambda line, ply, attempt: ([], 0, attempt + 1))

    def add_event(self, *args, **kwargs) -> None:
        """Lessons keep no help events (the statistics count games only)."""

    def mark_done(self, number: int) -> None:
        """The lesson's goals are all met: kept for good (undo or restart do not take it back)."""
        now = time.time()
        with self.store.transaction() as db:
            db.execute("UPDATE lessons SET done = ? WHERE number = ? AND done IS NULL", (now, number))
