"""The game database of ``scorpion serve``: SQLite through the standard library, one file, WAL mode.

Everything a player did lives here, so closing the browser or restarting the
server loses nothing: every change is committed before the server answers.

Schema (``SCHEMA`` below is the source of truth; docs/serve.md shows it):

* ``games``: one row a game: ``token`` (the game's public id, random: what the
  addresses and the API call the game; ``id`` stays inside the database), deal,
  mode, ``imported`` (created from a move list: kept and replayable, never in
  the statistics), ``random`` (the server picked the deal: its number is not
  shown until the game's first finish), ``seen`` (created for a deal whose
  hidden cards the server had shown, ``seen_deals``: counted apart, never in
  the statistics), ``version`` (bumped by every change
  of the position: two tabs that disagree about it get a conflict), ``attempt``
  (bumped by a restart), ``ply`` (how many moves of the current line are
  played: the ones beyond are the redo stack), ``status``, ``peek``.
* ``moves``: every move ever played, per game and attempt, ``seq`` its place
  in the line; a move undone and then replaced by another is kept with
  ``dropped = 1`` (the undo history); ``move`` is the engine's canonical
  move, ``shown`` what the player played (the same unless a King went into
  another empty column), ``perm`` the column mapping after it.
* ``results``: the first finish (won or lost) of each attempt of a game.
* ``events``: hints asked, peeks switched on, analyses (what help was used, when).
* ``seen_deals``: every deal whose hidden cards an answer has shown (a peeking
  hint, an analysis: ``SHOWS_HIDDEN``), with the game that asked.
* ``secret_deals``: the deals the server dealt from a secret shuffle (``game.deal.secret_shuffle``): a
  random deal (``grade`` NULL) or one of the private graded pool (``grade`` easy, medium or hard, graded
  by the server itself, ``cpu`` the CPU seconds its grading took). ``cards``: the 52 cards in dealing
  order. A game of a secret deal has ``secret_id`` set and ``deal`` 0 (no deal number names it).
* ``seen_secrets``: the secret deals whose cards the player has been shown: by a peek or an analysis,
  as ``seen_deals``, and by the end of a game of it (the whole deal is shown then, and may be replayed).
* ``settings``: key/value pairs (the schema version).

Other modules reach the database through this class only: its reads and
writes, and :meth:`Store.transaction` / :meth:`Store.reading` (the public
transaction ``lesson_store`` builds on) and :meth:`Store.add_schema`.

A game's position is not stored: it is the deal replayed with the current line
(the engine is the one authority on what a move does).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..game.engine import Move, move_text, parse_move

# 2: games.token, games.imported; 3: games.random, games.seen, seen_deals; 4: secret deals (upgraded on open)
SCHEMA_VERSION = "4"

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    deal        INTEGER NOT NULL,
    mode        TEXT NOT NULL,
    grade       TEXT,
    created     REAL NOT NULL,
    updated     REAL NOT NULL,
    version     INTEGER NOT NULL DEFAULT 0,
    attempt     INTEGER NOT NULL DEFAULT 0,
    ply         INTEGER NOT NULL DEFAULT 0,
    status      TEXT NOT NULL DEFAULT 'playing',
    peek        INTEGER NOT NULL DEFAULT 0,
    token       TEXT,
    imported    INTEGER NOT NULL DEFAULT 0,
    random      INTEGER NOT NULL DEFAULT 0,
    seen        INTEGER NOT NULL DEFAULT 0,
    secret_id   INTEGER REFERENCES secret_deals(id)
);
CREATE TABLE IF NOT EXISTS moves (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    attempt     INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    move        TEXT NOT NULL,
    shown       TEXT NOT NULL,
    perm        TEXT NOT NULL,
    dropped     INTEGER NOT NULL DEFAULT 0,
    played      REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS moves_line ON moves(game_id, attempt, dropped, seq);
CREATE TABLE IF NOT EXISTS results (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    attempt     INTEGER NOT NULL,
    outcome     TEXT NOT NULL,
    ply         INTEGER NOT NULL,
    finished    REAL NOT NULL,
    UNIQUE (game_id, attempt)
);
CREATE TABLE IF NOT EXISTS events (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    kind        TEXT NOT NULL,
    ply         INTEGER NOT NULL,
    at          REAL NOT NULL,
    detail      TEXT
);
CREATE TABLE IF NOT EXISTS seen_deals (
    deal        INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id),
    at          REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS secret_deals (
    id          INTEGER PRIMARY KEY,
    mode        TEXT NOT NULL,
    cards       TEXT NOT NULL,
    grade       TEXT,
    cpu         REAL,
    created     REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS secret_pool ON secret_deals(mode, grade);
CREATE TABLE IF NOT EXISTS seen_secrets (
    secret_id   INTEGER PRIMARY KEY REFERENCES secret_deals(id),
    game_id     INTEGER NOT NULL REFERENCES games(id),
    at          REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settings (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL
);
"""

FINISHED = ("won", "lost")
# the events that are peeking help (each one asked counts once): the three peeking hints, and an analysis
# of a game not yet finished (after a finish the analysis is open to every game and not a peek)
PEEK_EVENTS = ("winnable", "peek", "line", "analysis_unfinished")
# the events whose answer showed hidden cards: the deal is seen from then on (``seen_deals``), in every mode
SHOWS_HIDDEN = (*PEEK_EVENTS, "analysis")


class StaleVersion(Exception):
    """The game changed since the version the request names (another tab moved)."""


class UnknownGame(LookupError):
    pass


@dataclass(frozen=True)
class Played:
    """One move of a game's line: the engine's move, the player's (in the columns shown), the mapping after it.

    Moves are values here; the database keeps them as text (``Played.row``, ``Played.of_row``), its edge.
    """

    move: Move
    shown: Move
    perm: tuple[int, ...]

    def row(self) -> tuple[str, str, str]:
        return move_text(self.move), move_text(self.shown), "".join(str(c) for c in self.perm)

    @classmethod
    def of_row(cls, move: str, shown: str, perm) -> "Played":
        return cls(parse_move(move), parse_move(shown), tuple(int(c) for c in perm))


def new_token() -> str:
    """A game's public id: 128 random bits, URL-safe (no one can guess another player's game)."""
    return secrets.token_urlsafe(16)


def _is_seen(db, deal: int, secret_id: int | None) -> bool:
    if secret_id is None:
        return db.execute("SELECT 1 FROM seen_deals WHERE deal = ?", (deal,)).fetchone() is not None
    return db.execute("SELECT 1 FROM seen_secrets WHERE secret_id = ?", (secret_id,)).fetchone() is not None


def looks_like_token(text: str) -> bool:
    return 8 <= len(text) <= 256 and text.isascii() and all(c.isalnum() or c in "-_" for c in text)


@dataclass(frozen=True)
class GameRow:
    id: int | None  # None: a draft, not stored yet (serve.service)
    token: str
    deal: int
    mode: str
    grade: str | None
    version: int
    attempt: int
    ply: int  # the game's status is its table's (``Table.status``), worked out from the position
    peek: bool
    line: tuple[Played, ...]  # the current attempt's line, redo stack included (``ply`` of them are played)
    hints_asked: int
    imported: bool
    random: bool = False  # the server picked the deal
    finished: bool = False  # the game has a result (its first finish): a random deal's number is shown from then
    seen: bool = False  # created for a deal whose hidden cards were shown (counted apart)
    secret_id: int | None = None  # a secret deal (``deal`` is 0 then): its cards are in ``secret_deals``


def default_path() -> Path:
    """The database in the user's data directory (XDG_DATA_HOME, else ~/.local/share)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "scorpion-solver" / "games.sqlite3"


class Store:
    """The database, shared by the server's threads: one connection, one writer at a time (a lock).

    Every write is one transaction (``BEGIN IMMEDIATE``): the version check and
    the change commit together, so two tabs cannot both apply a move.
    """

    def __init__(self, path: Path | str, tokens: Callable[[], str] = new_token) -> None:
        path = Path(path)
        self._new_token = tokens
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=10)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: a commit survives a crash of the server
        self._db.execute("PRAGMA foreign_keys=ON")
        with self._lock:
            self._db.executescript(SCHEMA)
            self._upgrade()
            self._db.execute("INSERT OR IGNORE INTO settings(key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,))

    def _upgrade(self) -> None:
        """An older file: add the columns it lacks (version 1: token, imported; 2: random, seen; 3: secret_id).

        Its games keep their deal numbers: a random or graded game of an older file is a numbered game
        (``secret_id`` NULL), counted with the chosen deals (docs/serve.md, "Fair play")."""
        columns = {r["name"] for r in self._db.execute("PRAGMA table_info(games)")}
        self._db.execute("BEGIN IMMEDIATE")
        try:
            if "secret_id" not in columns:
                self._db.execute("ALTER TABLE games ADD COLUMN secret_id INTEGER REFERENCES secret_deals(id)")
            for name in ("random", "seen"):
                if name not in columns:
                    self._db.execute(f"ALTER TABLE games ADD COLUMN {name} INTEGER NOT NULL DEFAULT 0")
            if "token" not in columns:
                self._db.execute("ALTER TABLE games ADD COLUMN token TEXT")
            if "imported" not in columns:
                self._db.execute("ALTER TABLE games ADD COLUMN imported INTEGER NOT NULL DEFAULT 0")
                self._db.execute(
                    "UPDATE games SET imported = 1 WHERE id IN (SELECT game_id FROM events WHERE kind = 'import')"
                )
            for (game_id,) in self._db.execute("SELECT id FROM games WHERE token IS NULL").fetchall():
                self._db.execute("UPDATE games SET token = ? WHERE id = ?", (self._new_token(), game_id))
            self._db.execute("CREATE UNIQUE INDEX IF NOT EXISTS games_token ON games(token)")
            self._db.execute("UPDATE settings SET value = ? WHERE key = 'schema'", (SCHEMA_VERSION,))
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- transactions: the public interface other tables of the file build on (lesson_store) -------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``), committed at the end, rolled back on any exception."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                # a failed COMMIT (SQLITE_BUSY, a deferred constraint) leaves the transaction open: end it,
                # or every later write fails with "cannot start a transaction within a transaction"
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The connection for reads, while no other thread uses it: one snapshot (a read transaction under
        WAL), so the reads inside see one state of the file even while another process writes."""
        with self._lock:
            if self._db.in_transaction:  # inside this thread's write transaction: its view is the snapshot
                yield self._db
                return
            self._db.execute("BEGIN")
            try:
                yield self._db
            finally:
                if self._db.in_transaction:
                    self._db.execute("COMMIT")

    def add_schema(self, sql: str) -> None:
        """Create another module's tables in this file (``CREATE TABLE IF NOT EXISTS``)."""
        with self._lock:
            self._db.executescript(sql)

    def _write(self, fn):
        with self.transaction() as db:
            return fn(db)

    def _check(self, db: sqlite3.Connection, game_id: int, version: int) -> sqlite3.Row:
        row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        if row["version"] != version:
            raise StaleVersion(game_id)
        return row

    def _change(self, game_id: int, version: int, fn) -> None:
        """One write transaction on a game still at ``version``: ``fn(db, row, now)`` with its row checked."""
        now = time.time()
        self._write(lambda db: fn(db, self._check(db, game_id, version), now))

    # -- reading -------------------------------------------------------------

    def game_id(self, token: str) -> int:
        """The database id of the game whose public id is ``token`` (UnknownGame otherwise)."""
        with self.reading() as db:
            row = db.execute("SELECT id FROM games WHERE token = ?", (token,)).fetchone()
        if row is None:
            raise UnknownGame(token)
        return row["id"]

    def game_by_token(self, token: str) -> GameRow:
        """The game whose public id is ``token``, read in one snapshot (UnknownGame otherwise)."""
        with self.reading():
            return self.game(self.game_id(token))

    def game(self, game_id: int) -> GameRow:
        with self.reading() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise UnknownGame(game_id)
            moves = db.execute(
                "SELECT move, shown, perm FROM moves WHERE game_id = ? AND attempt = ? AND dropped = 0 ORDER BY seq",
                (game_id, row["attempt"]),
            ).fetchall()
            hints = db.execute(
                "SELECT COUNT(*) FROM events WHERE game_id = ? AND kind = 'fair'", (game_id,)
            ).fetchone()[0]
            finished = db.execute("SELECT 1 FROM results WHERE game_id = ? LIMIT 1", (game_id,)).fetchone()
        line = tuple(Played.of_row(m["move"], m["shown"], m["perm"]) for m in moves)
        return GameRow(
            row["id"],
            row["token"],
            row["deal"],
            row["mode"],
            row["grade"],
            row["version"],
            row["attempt"],
            row["ply"],
            bool(row["peek"]),
            line,
            hints,
            bool(row["imported"]),
            bool(row["random"]),
            finished is not None,
            bool(row["seen"]),
            row["secret_id"],
        )

    def summaries(self, limit: int = 500) -> list[dict]:
        """The games, the most recently changed first (at most ``limit``), with ``random`` and ``finished``
        (whether the deal's number may be shown is the caller's to decide, ``service.deal_shown``)."""
        with self.reading() as db:
            rows = db.execute(
                "SELECT token AS id, deal, mode, grade, status, ply, peek, imported, seen, random, created, updated, "
                "secret_id IS NOT NULL AS secret, "
                "EXISTS (SELECT 1 FROM results r WHERE r.game_id = games.id) AS finished FROM games "
                "ORDER BY updated DESC, games.id DESC LIMIT ?",
                (limit,),
            ).fetchall()
        flags = ("peek", "imported", "seen", "random", "finished", "secret")
        return [dict(r) | {k: bool(r[k]) for k in flags} for r in rows]

    def finished_games(self) -> list[dict]:
        """Every game played on the board with a result: its first finish, oldest game first (imports and
        games of seen deals left out)."""
        with self.reading() as db:
            rows = db.execute(
                """SELECT g.id, g.mode, g.peek, g.secret_id IS NOT NULL AS secret, r.outcome, r.finished
                   FROM games g JOIN results r ON r.game_id = g.id
                   WHERE r.id = (SELECT MIN(id) FROM results WHERE game_id = g.id) AND g.imported = 0 AND g.seen = 0
                   ORDER BY r.finished, g.id"""
            ).fetchall()
        return [dict(r) | {"secret": bool(r["secret"]), "peek": bool(r["peek"])} for r in rows]

    def help_counts(self) -> dict[str, dict[str, dict[str, int]]]:
        """kind (``secret``: secret deals, the server's random and graded deals; ``chosen``: deals opened by
        number, and the random and graded games of older files) -> mode -> {games, fair, peeks, peeked_games,
        imported, seen}: games played on the board, finished or not
        (``peeks``: the peeking help asked, PEEK_EVENTS); ``imported``: the imported games and ``seen`` the
        games of a deal whose hidden cards were shown before (not imported), each counted apart. A random
        deal's game in play stays with the others until its first finish: counting it apart sooner would
        tell that its deal is one already shown (something of the number it must not tell yet)."""
        kinds = ", ".join(f"'{k}'" for k in PEEK_EVENTS)
        seen = "(g.seen = 1 AND (g.random = 0 OR EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id)))"
        counted = f"(g.imported = 0 AND NOT {seen})"
        with self.reading() as db:
            rows = db.execute(
                f"""SELECT g.mode, SUM({counted}) AS games, SUM(g.imported) AS imported,
                          SUM({seen} AND g.imported = 0) AS seen,
                          SUM(g.peek * {counted}) AS peeked_games,
                          SUM({counted} * (SELECT COUNT(*) FROM events e
                                WHERE e.game_id = g.id AND e.kind = 'fair')) AS fair,
                          SUM({counted} * (SELECT COUNT(*) FROM events e
                                WHERE e.game_id = g.id AND e.kind IN ({kinds}))) AS peeks
                          , g.secret_id IS NOT NULL AS secret
                   FROM games g GROUP BY g.mode, g.secret_id IS NOT NULL"""
            ).fetchall()
        keys = ("games", "peeked_games", "fair", "peeks", "imported", "seen")
        out: dict[str, dict[str, dict[str, int]]] = {"secret": {}, "chosen": {}}
        for r in rows:
            out["secret" if r["secret"] else "chosen"][r["mode"]] = {k: int(r[k] or 0) for k in keys}
        return out

    def events(self, game_id: int) -> list[dict]:
        with self.reading() as db:
            rows = db.execute(
                "SELECT kind, ply, at, detail FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
        return [dict(r) for r in rows]

    def seen_deals(self) -> dict[int, int]:
        """deal -> the database id of the game whose help first showed its hidden cards."""
        with self.reading() as db:
            return {r["deal"]: r["game_id"] for r in db.execute("SELECT deal, game_id FROM seen_deals")}

    def is_seen(self, deal: int, secret_id: int | None) -> bool:
        """Whether a game of this deal (a number, or a secret deal's id) would be counted as seen."""
        with self.reading() as db:
            return _is_seen(db, deal, secret_id)

    def setting(self, key: str) -> str | None:
        with self.reading() as db:
            row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return row["value"] if row else None

    # -- writing -------------------------------------------------------------

    def create_game(
        self,
        deal: int,
        mode: str,
        grade: str | None,
        line: list[Played],
        status: str,
        random: bool = False,
        token: str | None = None,
        secret_id: int | None = None,
    ) -> int:
        """A new game (``token``: its public id, a new one by default); ``line`` (an imported record, already
        checked by the engine) is played, and marks the game imported (never in the statistics). A game of a
        deal in ``seen_deals`` is marked ``seen``, in the same transaction."""
        now = time.time()

        def run(db):
            seen = _is_seen(db, deal, secret_id)
            cur = db.execute(
                "INSERT INTO games(token, deal, mode, grade, created, updated, ply, status, imported, random, seen, "
                "secret_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    token or self._new_token(),
                    deal,
                    mode,
                    grade,
                    now,
                    now,
                    len(line),
                    status,
                    int(bool(line)),
                    int(random),
                    int(seen),
                    secret_id,
                ),
            )
            game_id = cur.lastrowid
            db.executemany(
                "INSERT INTO moves(game_id, attempt, seq, move, shown, perm, played) VALUES (?, 0, ?, ?, ?, ?, ?)",
                [(game_id, i + 1, *p.row(), now) for i, p in enumerate(line)],
            )
            if line:
                db.execute(
                    "INSERT INTO events(game_id, kind, ply, at, detail) VALUES (?, 'import', ?, ?, ?)",
                    (game_id, len(line), now, None),
                )
            self._finish(db, game_id, 0, status, len(line), now)
            return game_id

        return self._write(run)

    def _finish(self, db, game_id: int, attempt: int, status: str, ply: int, now: float) -> None:
        if status in FINISHED:
            db.execute(
                "INSERT OR IGNORE INTO results(game_id, attempt, outcome, ply, finished) VALUES (?, ?, ?, ?, ?)",
                (game_id, attempt, status, ply, now),
            )
            # a finished game of a secret deal shows the whole deal (it may be replayed): seen from now on
            # (a numbered deal's number tells its cards anyway: it is seen by a peek or an analysis only)
            if db.execute("SELECT secret_id FROM games WHERE id = ?", (game_id,)).fetchone()[0] is not None:
                self._mark_seen(db, game_id, now)

    def _mark_seen(self, db, game_id: int, now: float) -> None:
        """The game's deal is seen (its hidden cards were shown): the other games of it not yet finished, and
        every later one, count apart (``games.seen``). A secret deal by its id, a numbered one by its number."""
        deal, secret_id = db.execute("SELECT deal, secret_id FROM games WHERE id = ?", (game_id,)).fetchone()
        if secret_id is None:
            db.execute("INSERT OR IGNORE INTO seen_deals(deal, game_id, at) VALUES (?, ?, ?)", (deal, game_id, now))
            same = "deal = ? AND secret_id IS NULL"
            key = deal
        else:
            db.execute(
                "INSERT OR IGNORE INTO seen_secrets(secret_id, game_id, at) VALUES (?, ?, ?)", (secret_id, game_id, now)
            )
            same, key = "secret_id = ?", secret_id
        db.execute(
            f"UPDATE games SET seen = 1 WHERE {same} AND id != ? "
            "AND NOT EXISTS (SELECT 1 FROM results r WHERE r.game_id = games.id)",
            (key, game_id),
        )

    def play(self, game_id: int, version: int, played: Played, status: str) -> None:
        """Play a move after the current ply: the redo stack beyond it is dropped (kept as history)."""

        def run(db, row, now):
            attempt, ply = row["attempt"], row["ply"]
            db.execute(
                "UPDATE moves SET dropped = 1 WHERE game_id = ? AND attempt = ? AND dropped = 0 AND seq > ?",
                (game_id, attempt, ply),
            )
            db.execute(
                "INSERT INTO moves(game_id, attempt, seq, move, shown, perm, played) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, attempt, ply + 1, *played.row(), now),
            )
            self._update(db, game_id, ply + 1, status, now)
            self._finish(db, game_id, attempt, status, ply + 1, now)

        self._change(game_id, version, run)

    def _update(self, db, game_id: int, ply: int, status: str, now: float, attempt: int | None = None) -> None:
        if attempt is None:
            db.execute(
                "UPDATE games SET ply = ?, status = ?, version = version + 1, updated = ? WHERE id = ?",
                (ply, status, now, game_id),
            )
        else:
            db.execute(
                "UPDATE games SET ply = ?, status = ?, attempt = ?, version = version + 1, updated = ? WHERE id = ?",
                (ply, status, attempt, now, game_id),
            )

    def set_ply(self, game_id: int, version: int, ply: int, status: str) -> None:
        """Undo, redo or go to a ply of the current line (the line itself is unchanged)."""

        def run(db, row, now):
            self._update(db, game_id, ply, status, now)
            self._finish(db, game_id, row["attempt"], status, ply, now)

        self._change(game_id, version, run)

    def restart(self, game_id: int, version: int) -> None:
        """The same deal from the start: a new attempt; the earlier moves stay in the table."""

        def run(db, row, now):
            self._update(db, game_id, 0, "playing", now, attempt=row["attempt"] + 1)

        self._change(game_id, version, run)

    def peek_on(self, game_id: int, version: int, ply: int) -> None:
        """Switch peeking on for good (the game still at ``version``; it does not change the version)."""

        def run(db, row, now):
            if row["peek"]:
                return
            db.execute("UPDATE games SET peek = 1, updated = ? WHERE id = ?", (now, game_id))
            db.execute(
                "INSERT INTO events(game_id, kind, ply, at, detail) VALUES (?, 'peek_on', ?, ?, NULL)",
                (game_id, ply, now),
            )

        self._change(game_id, version, run)

    def add_event(self, game_id: int, kind: str, ply: int, detail: dict | None = None) -> None:
        """Keep that help was given. An answer that showed hidden cards (``SHOWS_HIDDEN``) makes the deal
        seen, in the same transaction: every game of it not yet finished (but this one, whose own help
        is counted) and every later one counts apart (``games.seen``)."""
        now = time.time()

        def run(db):
            db.execute(
                "INSERT INTO events(game_id, kind, ply, at, detail) VALUES (?, ?, ?, ?, ?)",
                (game_id, kind, ply, now, json.dumps(detail) if detail is not None else None),
            )
            if kind in SHOWS_HIDDEN:
                self._mark_seen(db, game_id, now)

        self._write(run)

    # -- secret deals: random deals and the private graded pool ----------------------------------------

    def add_secret(self, mode: str, cards: list[int], grade: str | None = None, cpu: float | None = None) -> int:
        """Keep a secret deal (its 52 cards in dealing order); ``grade``: a deal of the graded pool."""
        text = " ".join(str(c) for c in cards)
        return self._write(
            lambda db: (
                db.execute(
                    "INSERT INTO secret_deals(mode, cards, grade, cpu, created) VALUES (?, ?, ?, ?, ?)",
                    (mode, text, grade, cpu, time.time()),
                ).lastrowid
            )
        )

    def secret_cards(self, secret_id: int) -> list[int]:
        with self.reading() as db:
            row = db.execute("SELECT cards FROM secret_deals WHERE id = ?", (secret_id,)).fetchone()
        if row is None:
            raise UnknownGame(f"secret deal {secret_id}")
        return [int(c) for c in row["cards"].split()]

    def pool_pick(self, mode: str, grade: str, choose: Callable[[list[int]], int]) -> int | None:
        """A deal of the graded pool that no game has dealt yet (``choose`` picks among them), or None."""
        with self.reading() as db:
            ids = [
                r[0]
                for r in db.execute(
                    "SELECT id FROM secret_deals s WHERE mode = ? AND grade = ? "
                    "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.secret_id = s.id)",
                    (mode, grade),
                )
            ]
        return choose(ids) if ids else None

    def pool_stock(self) -> dict[tuple[str, str], int]:
        """(mode, grade) -> the pool's deals that no game has dealt yet."""
        with self.reading() as db:
            rows = db.execute(
                "SELECT mode, grade, COUNT(*) FROM secret_deals s WHERE grade IS NOT NULL "
                "AND NOT EXISTS (SELECT 1 FROM games g WHERE g.secret_id = s.id) GROUP BY mode, grade"
            ).fetchall()
        return {(r[0], r[1]): r[2] for r in rows}

    def pool_costs(self) -> dict[tuple[str, str], tuple[int, float]]:
        """(mode, grade) -> (deals graded, their grading's CPU seconds in all), the whole pool."""
        with self.reading() as db:
            rows = db.execute(
                "SELECT mode, grade, COUNT(*), SUM(cpu) FROM secret_deals WHERE grade IS NOT NULL GROUP BY mode, grade"
            ).fetchall()
        return {(r[0], r[1]): (r[2], r[3] or 0.0) for r in rows}
