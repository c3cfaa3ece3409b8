"""The lessons' part of the game database: where each lesson stands and whether it was ever finished.

Two tables of their own beside the games' (``store.SCHEMA``), in the same
SQLite file and through the same connection and lock (``store.Store``), so a
lesson is kept as a game is: every change one transaction, committed before
the answer, with a ``version`` that a stale request must match.

```sql
CREATE TABLE IF NOT EXISTS lessons (
    number      INTEGER PRIMARY KEY,     -- 1-4, lessons.toml's order
    version     INTEGER NOT NULL DEFAULT 0,
    attempt     INTEGER NOT NULL DEFAULT 0,
    ply         INTEGER NOT NULL DEFAULT 0,
    started     REAL NOT NULL,
    updated     REAL NOT NULL,
    done        REAL                     -- when its goals were first all met; NULL: not yet
);
CREATE TABLE IF NOT EXISTS lesson_moves (
    id          INTEGER PRIMARY KEY,
    lesson      INTEGER NOT NULL REFERENCES lessons(number),
    attempt     INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    move        TEXT NOT NULL,
    shown       TEXT NOT NULL,
    perm        TEXT NOT NULL,
    dropped     INTEGER NOT NULL DEFAULT 0,
    played      REAL NOT NULL
);
```

A lesson never opened has no row: it reads as version 0 at its start, and
its row is written with its first move. The columns mean what the games'
do (docs/serve.md, "The database"); a lesson has no results, events or
peeking, and is not counted in the statistics.
"""

from __future__ import annotations

import time

from .store import GameRow, Played, StaleVersion, Store

LESSON_SCHEMA = __doc__.split("```sql\n")[1].split("```")[0]


class LessonStore:
    """The lesson tables, through the app's :class:`Store` (its connection, lock and transactions)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store._lock:
            store._db.executescript(LESSON_SCHEMA)

    def _row(self, db, number: int):
        return db.execute("SELECT * FROM lessons WHERE number = ?", (number,)).fetchone()

    def game(self, number: int, mode: str) -> GameRow:
        """The lesson as a game row: ``id`` is ``lesson-N``, ``line`` its current attempt's moves."""
        with self.store._lock:
            db = self.store._db
            row = self._row(db, number)
            version, attempt, ply = (row["version"], row["attempt"], row["ply"]) if row else (0, 0, 0)
            moves = db.execute(
                "SELECT move, shown, perm FROM lesson_moves WHERE lesson = ? AND attempt = ? AND dropped = 0 "
                "ORDER BY seq",
                (number, attempt),
            ).fetchall()
        line = tuple(Played(m["move"], m["shown"], tuple(int(c) for c in m["perm"])) for m in moves)
        return GameRow(f"lesson-{number}", None, mode, None, version, attempt, ply, "playing", False, line, 0)

    def finished(self, number: int) -> bool:
        with self.store._lock:
            row = self._row(self.store._db, number)
        return bool(row and row["done"])

    def progress(self) -> dict[int, dict]:
        """number -> the lesson's row, for every lesson opened (moved in) at least once."""
        with self.store._lock:
            rows = self.store._db.execute("SELECT * FROM lessons").fetchall()
        return {r["number"]: dict(r) for r in rows}

    # -- writing: each a transaction on the lesson still at ``version`` ------------

    def _change(self, number: int, version: int, fn) -> None:
        now = time.time()

        def run(db):
            db.execute("INSERT OR IGNORE INTO lessons(number, started, updated) VALUES (?, ?, ?)", (number, now, now))
            row = self._row(db, number)
            if row["version"] != version:
                raise StaleVersion(number)
            fn(db, row, now)

        self.store._write(run)

    def play(self, number: int, version: int, played: Played, status: str) -> None:
        """A move after the current ply (the redo stack beyond it is kept as dropped history)."""

        def run(db, row, now):
            attempt, ply = row["attempt"], row["ply"]
            db.execute(
                "UPDATE lesson_moves SET dropped = 1 WHERE lesson = ? AND attempt = ? AND dropped = 0 AND seq > ?",
                (number, attempt, ply),
            )
            db.execute(
                "INSERT INTO lesson_moves(lesson, attempt, seq, move, shown, perm, played) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (number, attempt, ply + 1, played.move, played.shown, "".join(map(str, played.perm)), now),
            )
            self._update(db, number, ply + 1, row["attempt"], now)

        self._change(number, version, run)

    def set_ply(self, number: int, version: int, ply: int, status: str) -> None:
        self._change(number, version, lambda db, row, now: self._update(db, number, ply, row["attempt"], now))

    def restart(self, number: int, version: int) -> None:
        self._change(number, version, lambda db, row, now: self._update(db, number, 0, row["attempt"] + 1, now))

    def _update(self, db, number: int, ply: int, attempt: int, now: float) -> None:
        db.execute(
            "UPDATE lessons SET ply = ?, attempt = ?, version = version + 1, updated = ? WHERE number = ?",
            (ply, attempt, now, number),
        )

    def mark_done(self, number: int) -> None:
        """The lesson's goals are all met: kept for good (undo or restart do not take it back)."""
        now = time.time()
        self.store._write(
            lambda db: db.execute("UPDATE lessons SET done = ? WHERE number = ? AND done IS NULL", (now, number))
        )

    def add_event(self, *args, **kwargs) -> None:
        """Lessons keep no help events (the statistics count games only)."""
