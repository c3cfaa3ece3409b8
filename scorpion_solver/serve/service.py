"""The game service of ``scorpion serve``: games (and, through ``lessons``, the lessons) played, helped
and counted. No HTTP here: a request's values come in, a STATE (a dict of JSON values) or a domain
error (``serve.errors``, ``table.GameError``) goes out; ``app`` turns them into answers.

The structure of ``serve/``, each module importing only the ones below it::

    lessons       the lessons as data, ``LessonService`` (this service on lesson tables), their routes
    app           routes: each reads its request (``body``), calls the service, writes the answer;
                  the statuses of the domain errors; the pages, in the one shell (``shell``);
                  ``game_routes``: the routes games and lessons share
    rules_page    docs/playing.md, then docs/rules.md, as a page
    service       GameService: create (a draft until its first change), state, move, undo, redo,
                  goto, restart, peek, hints, analysis, export, statistics
    statistics    the statistics from the database's rows
    config        the settings (the pool's budget, the names, the random source)
    helpers       the solver's help in a bounded pool, off the event loop; answers values (engine columns)
    table         one game in memory: the true position, the player's view, the column mapping
    lesson_store  the lessons' table, through store's public transactions
    store         the database (games, moves, results, events, seen deals)
    errors, body, guard, shell   the domain errors, a request's JSON, the checks before any
                  route, the page shell

A game's service methods all run alike: ``load`` (the row and its table), the version check (409
with the current STATE when stale), the rule checks (the table's), one store write (which turns a
draft into a stored game first), the new STATE. ``LessonService`` overrides ``row`` and ``table`` and adds the
lesson's part of the STATE; the store it writes to is ``lesson_store.LessonStore``, which offers the
same methods as ``store.Store``.

Fair play (docs/serve.md): no answer depends on a card the player has not seen unless peeking is on;
the number of a deal the server picked (random, graded) is not shown before the game's first finish
(:func:`deal_shown`); a game opened by an address (``GET /?deal=N``) is a draft, kept in memory only,
stored at its first change (a POST: the guard's same-origin rule holds), so a GET stores nothing.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path

from ..analysis.hint_reasons import hint_reason
from ..batch.deal_grades import GRADES, grade_modes
from ..game.engine import Move, apply_move, move_text
from ..game.rules import MODES
from ..game.view import Observation
from . import helpers
from .config import Config
from .errors import BadRequest, Busy, Conflict, NeedsPeek, NotFound
from .statistics import statistics
from .store import GameRow, StaleVersion, Store, UnknownGame, looks_like_token
from .table import IDENTITY, PLAYING, Table, check_deal, check_mode, import_line, shown_move, status_of

MAX_SAMPLES = 100  # as many as `scorpion hint --fair` takes by default; bounds a hint's work
DEFAULT_SAMPLES = 30
RANDOM_DEALS = 1_000_000  # "any" random deal: the deals the committed results cover
PEEK_KINDS = ("winnable", "peek", "line")
HINT_KINDS = ("fair", *PEEK_KINDS)
DRAFTS = 1024  # games opened by an address and not yet changed, kept in memory (the oldest is forgotten)
STALE = "the game changed in another tab or request: here is its current state"
MISSING = object()  # a field the request does not have


def whole(key: str, value, required: bool = True, default=None, low=None, high=None):
    """A request's whole number ``value`` (MISSING when absent), checked; BadRequest otherwise."""
    if value is MISSING:
        if required:
            raise BadRequest(f"'{key}' is missing")
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"'{key}' must be a whole number, got {json.dumps(value)[:60]}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadRequest(f"'{key}' must be between {low} and {high}, got {value}")
    return value


def deal_shown(deal: int | None, random: bool, finished: bool) -> int | None:
    """The deal number a player may see: a number the server picked is shown once the game has finished."""
    return deal if finished or not random else None


@dataclass(frozen=True)
class Draft:
    """A game opened by an address, not stored yet: its deal, mode, grade and whether the server picked it."""

    token: str
    deal: int
    mode: str
    grade: str | None
    random: bool

    def row(self) -> GameRow:
        return GameRow(
            id=None,
            token=self.token,
            deal=self.deal,
            mode=self.mode,
            grade=self.grade,
            version=0,
            attempt=0,
            ply=0,
            status=PLAYING,
            peek=False,
            line=(),
            hints_asked=0,
            imported=False,
            random=self.random,
        )


class HintTimeout(Exception):
    """A fair hint ran past the service's overall deadline (Config.hint_deadline)."""


class GameService:
    """Games: made, played, helped and counted, over a store and the help pool (both shared with lessons)."""

    def __init__(self, config: Config, store, pool: helpers.HelpPool) -> None:
        self.config, self.store, self.pool = config, store, pool
        self._tables: dict[int, tuple[int, int, Table]] = {}  # id -> (version, attempt, table): a cache
        self._drafts: OrderedDict[str, Draft] = OrderedDict()
        self._grades: dict[str, dict[int, str]] = {}
        self._grading = threading.Lock()  # one reading of the grades at a time (the start's, or a pick's)
        self._grader: threading.Thread | None = None
        self._closing = threading.Event()

    @classmethod
    def open(cls, config: Config) -> "GameService":
        store = Store(config.db, tokens=config.tokens)
        pool = helpers.HelpPool(config.workers, config.queue, config.wait_seconds, config.budget)
        return cls(config, store, pool)

    def start(self) -> None:
        """When the server starts: read the deals' grades in the background (``grade_at_start``)."""
        if self.config.grade_at_start:
            self._grader = threading.Thread(target=self._grade_at_start, name="scorpion-grades", daemon=True)
            self._grader.start()

    def _grade_at_start(self) -> None:
        if not self._closing.is_set():
            self.grades(MODES[0])  # reads every mode's at once

    def close(self) -> None:
        self.pool.shutdown()  # queued solver calls are dropped; a running one ends with its time budget
        self._closing.set()
        if self._grader is not None:
            # a thread still inside pyarrow when the interpreter finalizes aborts the process (SIGABRT):
            # the shutdown waits for the reading under way, about a second
            self._grader.join()
        self.store.close()

    # -- finding a game -------------------------------------------------------------

    def row(self, ref) -> GameRow:
        """The game whose public id is ``ref`` (stored, or a draft); NotFound otherwise."""
        if isinstance(ref, str) and looks_like_token(ref):
            try:
                return self.store.game(self.store.game_id(ref))
            except UnknownGame:
                if ref in self._drafts:
                    return self._drafts[ref].row()
        raise NotFound(f"no game {str(ref)[:40]!r}")

    def table(self, row: GameRow) -> Table:
        """The game's table: the deal replayed with its line (kept in a cache while its version holds)."""
        cached = self._tables.get(row.id)  # a draft (id None) is never cached: it has no move to replay
        if cached and cached[0] == row.version and cached[1] == row.attempt:
            return cached[2]
        table = Table.replayed(row.deal, check_mode(row.mode), row.line, row.ply)
        if row.id is not None:
            self._remember(row.id, row.version, row.attempt, table)
        return table

    def _remember(self, game_id: int, version: int, attempt: int, table: Table) -> None:
        self._tables[game_id] = (version, attempt, table)
        if len(self._tables) > 256:
            self._tables.pop(next(iter(self._tables)))

    def load(self, ref) -> tuple[GameRow, Table]:
        row = self.row(ref)
        return row, self.table(row)

    def exists(self, ref) -> None:
        """NotFound unless ``ref`` names a game, stored or a draft."""
        if isinstance(ref, str) and looks_like_token(ref):
            if ref in self._drafts:
                return
            with contextlib.suppress(UnknownGame):
                self.store.game_id(ref)
                return
        raise NotFound(f"no game {str(ref)[:40]!r}")

    def _stored(self, row: GameRow) -> int:
        """The game's database id; a draft is stored now (its first change), under its public id."""
        if row.id is not None:
            return row.id
        with contextlib.suppress(UnknownGame):  # stored meanwhile (a change while a hint was worked out)
            return self.store.game_id(row.token)
        draft = self._drafts.pop(row.token, None)
        if draft is None:  # forgotten meanwhile (DRAFTS newer ones)
            raise NotFound(f"no game {row.token[:40]!r}")
        return self.store.create_game(draft.deal, draft.mode, draft.grade, [], PLAYING, draft.random, draft.token)

    # -- what the player sees -------------------------------------------------------------

    def state(self, ref) -> dict:
        return self._state(*self.load(ref))

    def _state(self, row: GameRow, table: Table) -> dict:
        status = table.status
        deal = deal_shown(row.deal, row.random, row.finished)
        return {
            "id": row.token,
            "deal": deal,
            "mode": row.mode,
            "grade": row.grade,
            "version": row.version,
            "status": status,
            "ply": table.ply,
            "moves": table.shown_moves(),
            "can_undo": table.ply > 0,
            "can_redo": table.ply < len(table.line),
            "peek": row.peek,
            "view": table.view(),
            "legal": table.legal() if status == PLAYING else [],
            "tail_locked": table.tail_locked(),
            "last": table.last(),
            "hints_asked": row.hints_asked,
            "peeked": row.peek,
            "imported": row.imported,
            "seen": row.seen if deal is not None else None,  # a bit of the deal's number: told with it
        }

    def summaries(self) -> list[dict]:
        """The stored games, the most recently changed first, each deal number as a player may see it."""
        out = []
        for game in self.store.summaries():
            deal = deal_shown(game["deal"], game.pop("random"), game.pop("finished"))
            out.append(game | {"deal": deal, "seen": game["seen"] if deal is not None else None})
        return out

    def stats(self) -> dict:
        return statistics(self.store.finished_games(), self.store.help_counts())

    def export(self, ref) -> tuple[str, str]:
        """The move file of the line played (the engine's moves) and its file name."""
        row, table = self.load(ref)
        deal = deal_shown(row.deal, row.random, row.finished)
        if deal is None:
            lines = [
                f"# a random deal (its number is shown when the game ends) mode {row.mode}",
                f"# scorpion analyze DEAL --mode {row.mode} --moves-file F",
            ]
            name = f"scorpion-random-{row.mode}.txt"
        else:
            lines = [f"# deal {deal} mode {row.mode}", f"# scorpion analyze {deal} --mode {row.mode} --moves-file F"]
            name = f"scorpion-deal{deal}-{row.mode}.txt"
        return "\n".join(lines + [str(m) for m in table.engine_moves()]) + "\n", name

    # -- new games --------------------------------------------------------------------------

    def _deal(self, mode, deal, random) -> tuple[str, int, str | None, bool]:
        """(mode, deal, grade, picked by the server) of a new game's request."""
        rules = check_mode(mode)
        if random is not MISSING:
            if deal is not MISSING:
                raise BadRequest("give 'deal' or 'random', not both")
            return (rules.name, *self.random_deal(random, rules.name), True)
        return rules.name, check_deal(whole("deal", deal)), None, False

    def create(self, mode="clear", deal=MISSING, random=MISSING, moves=MISSING) -> str:
        """A new stored game (``moves``: a move file's text, an import); its public id."""
        mode, number, grade, picked = self._deal(mode, deal, random)
        rules = check_mode(mode)
        line = []
        if moves is not MISSING:
            if not isinstance(moves, str):
                raise BadRequest("'moves' must be the text of a move file")
            line = import_line(number, rules, moves)
        table = Table.replayed(number, rules, line, len(line))
        game_id = self.store.create_game(number, mode, grade, line, table.status, picked)
        return self.store.game(game_id).token

    def draft(self, mode="clear", deal=MISSING, random=MISSING) -> str:
        """A new game kept in memory only (an address opened it): stored at its first change."""
        mode, number, grade, picked = self._deal(mode, deal, random)
        token = self.config.tokens()
        self._drafts[token] = Draft(token, number, mode, grade, picked)
        while len(self._drafts) > DRAFTS:
            self._drafts.popitem(last=False)
        return token

    def random_deal(self, kind, mode: str) -> tuple[int, str | None]:
        if kind == "any":
            return self.config.chance.randint(1, RANDOM_DEALS), None
        if kind not in GRADES:
            raise BadRequest(f"'random' must be any, {', '.join(GRADES)}; got {json.dumps(kind)[:40]}")
        pool = sorted(d for d, g in self.grades(mode).items() if g == kind)
        if not pool:
            raise BadRequest(f"no {kind} deal is known in {mode} (the committed play results are not here)")
        return self.config.chance.choice(pool), kind

    def grades(self, mode: str) -> dict[int, str]:
        """The graded deals of ``mode`` (``batch.deal_grades``), read once, with those of every mode not read yet
        (the play folders hold both modes: one reading costs what one mode's does)."""
        with self._grading:
            if mode not in self._grades:
                root = Path(self.config.results_root)
                modes = (mode, *(m for m in MODES if m != mode and m not in self._grades))
                try:
                    self._grades.update(grade_modes(modes, root, root / "deals-1-1000000", graded_only=True))
                except (OSError, ValueError):
                    self._grades.update({m: {} for m in modes})
            return self._grades[mode]

    # -- changes ----------------------------------------------------------------------------------

    def _expect(self, version, row: GameRow, table: Table) -> int:
        version = whole("version", version)
        if version != row.version:
            raise Conflict(STALE, game=self._state(row, table))
        return version

    def _stale(self, ref) -> Conflict:
        return Conflict(STALE, game=self.state(ref))

    def _playable(self, row: GameRow, table: Table) -> None:
        if table.status != PLAYING:
            raise Conflict(
                f"the game is over ({table.status}): undo, go back or restart to play on", game=self._state(row, table)
            )

    def move(self, ref, version, move=MISSING) -> dict:
        row, table = self.load(ref)
        self._expect(version, row, table)
        self._playable(row, table)
        if move is MISSING:
            raise BadRequest("'move' is missing")
        played = table.resolve(move)
        after = apply_move(table.position, played.move, table.rules)
        game_id = self._stored(row)
        try:
            self.store.play(game_id, row.version, played, status_of(after, table.rules))
        except StaleVersion:
            raise self._stale(ref) from None
        table.push(played)  # the cached table follows the database (moves run one at a time on the event loop)
        self._remember(game_id, row.version + 1, row.attempt, table)
        return self.state(ref)

    def set_ply(self, ref, version, how: str, ply=MISSING) -> dict:
        """Undo, redo or go to ``ply`` (``how``: undo, redo, goto)."""
        row, table = self.load(ref)
        self._expect(version, row, table)
        if how == "undo":
            if table.ply == 0:
                raise BadRequest("nothing to undo")
            ply = table.ply - 1
        elif how == "redo":
            if table.ply >= len(table.line):
                raise BadRequest("nothing to redo")
            ply = table.ply + 1
        else:
            ply = whole("ply", ply, low=0, high=len(table.line))
        status = status_of(table.position_at(ply), table.rules)
        game_id = self._stored(row)
        try:
            self.store.set_ply(game_id, row.version, ply, status)
        except StaleVersion:
            raise self._stale(ref) from None
        table.ply = ply
        self._remember(game_id, row.version + 1, row.attempt, table)
        return self.state(ref)

    def restart(self, ref, version) -> dict:
        row, table = self.load(ref)
        self._expect(version, row, table)
        try:
            self.store.restart(self._stored(row), row.version)
        except StaleVersion:
            raise self._stale(ref) from None
        return self.state(ref)

    def peek(self, ref, on, version) -> dict:
        row, table = self.load(ref)
        if on is not True:
            raise BadRequest('peeking can only be switched on ({"on": true}); it stays on for the game')
        version = self._expect(version, row, table)
        try:
            self.store.peek_on(self._stored(row), version, table.ply)
        except StaleVersion:
            raise self._stale(ref) from None
        return self.state(ref)

    # -- the solver's help ----------------------------------------------------------------------------

    async def hint(self, ref, kind, version, samples, seed, gone: threading.Event) -> dict:
        """A hint of ``kind``; ``gone`` is set when its client went away (the fair hint then stops)."""
        row, table = self.load(ref)
        if kind not in HINT_KINDS:
            raise BadRequest(f"'kind' must be one of {', '.join(HINT_KINDS)}, got {json.dumps(kind)[:40]}")
        self._expect(version, row, table)
        if kind in PEEK_KINDS and not row.peek:
            raise NeedsPeek(f"'{kind}' reads the hidden cards: switch peeking on for this game first")
        samples = whole("samples", samples, required=False, default=DEFAULT_SAMPLES, low=1, high=MAX_SAMPLES)
        seed = whole("seed", seed, required=False, default=row.version, low=0, high=2**32 - 1)
        budget, rules, perm = self.config.budget, table.rules, table.perm
        deadline = time.monotonic() + self.config.hint_deadline

        def current() -> bool:
            return not gone.is_set() and self.row(ref).version == row.version

        def in_time() -> bool:
            if time.monotonic() > deadline:
                raise HintTimeout()
            return current()

        if kind == "fair":
            call = (helpers.fair, Observation.of(table.position), rules, samples, seed, budget.fair(), in_time)
        elif kind == "line":
            call = (helpers.line, table.position, rules, budget.peek())
        elif kind == "winnable":
            call = (helpers.winnable, table.position, rules, budget.peek())
        else:
            call = (helpers.peek, table.position, rules, budget.peek())

        result = await self._help(call, current, ref)
        if self.row(ref).version != row.version:
            raise self._stale(ref)  # the player moved while the solver worked: the answer is for nobody
        # counted once answered: a refused or dropped request gave the player nothing
        self.store.add_event(self._stored(row), kind, table.ply, {"samples": samples} if kind == "fair" else None)
        return {"hint": _hint_answer(kind, result, perm, call[1], rules), "kind": kind, "version": row.version}

    async def analysis(self, ref, version=MISSING) -> dict:
        """``scorpion analyze`` of the line played: open once the game is over, peeking help before."""
        row, table = self.load(ref)
        finished = table.status != PLAYING
        if not finished and not row.peek:
            raise NeedsPeek(
                "the analysis of a game in play reads the hidden cards: switch peeking on for this game first "
                "(after the game ends it is open)"
            )
        if version is not MISSING:
            self._expect(version, row, table)
        # what the answer is written from, taken now: the table may move on while the solver works
        played, moves, start, rules = table.line[: table.ply], table.engine_moves(), table.position_at(0), table.rules
        ply = table.ply  # the ply asked at: an undo while the solver works must not change what is recorded
        result = await self._help((helpers.analysis, start, moves, rules, self.config.budget.peek()), None, ref)
        # it shows hidden cards: the deal is seen from now on (store.SHOWS_HIDDEN)
        self.store.add_event(self._stored(row), "analysis" if finished else "analysis_unfinished", ply)
        # in the columns the player saw: the moves as played, the alternative from the position before the fatal one
        index = result.fatal_index
        before = played[index - 2].perm if index and index > 1 else IDENTITY
        result = replace(
            result,
            moves=tuple(p.shown for p in played),
            alternative_solution=_shown_moves(result.alternative_solution, before),
        )
        return {"analysis": result.as_dict(), "version": row.version}

    async def _help(self, call: tuple, current, ref):
        """Run a solver call in the pool; the refusals it may end in as domain errors."""
        try:
            return await self.pool.run(*call, still_current=current or (lambda: True))
        except helpers.PoolFull as exc:
            raise Busy(str(exc), retry=True) from None
        except HintTimeout:
            raise Busy(
                f"the hint did not finish in {self.config.hint_deadline:g} s: ask with fewer samples", retry=True
            ) from None
        except helpers.Stale:
            raise self._stale(ref) from None


def _shown_moves(moves, perm) -> tuple[Move, ...]:
    """Moves of the solver (engine columns, from the position the mapping ``perm`` belongs to) as shown."""
    return tuple(shown_move(m, perm) for m in moves)


def _hint_answer(kind: str, result, perm, view: Observation, rules) -> dict:
    """A hint's answer (the helper's value, engine columns) in the columns the player sees, as JSON."""
    if kind == "fair":
        reason = hint_reason(view, result.best.move if result.best else None, rules)  # the top move's, on the view
        moves = tuple(replace(m, move=shown_move(m.move, perm)) for m in result.moves)
        return replace(result, moves=moves).as_dict() | {"reason": reason}
    if kind == "peek":
        moves = tuple(
            replace(m, move=shown_move(m.move, perm), solution=_shown_moves(m.solution, perm)) for m in result.moves
        )
        return replace(result, moves=moves).as_dict()
    if kind == "winnable":
        return result
    status, moves = result
    return {"status": status, "line": [move_text(m) for m in _shown_moves(moves, perm)]}
