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
a deal the server picks (random, graded) is a secret shuffle, which no deal number names (``serve.pool``
keeps the graded ones), shown whole once the game has ended; the number of a numbered game the server
picked in an older file is not shown before its first finish (:func:`deal_shown`); a game opened by an address (``GET /?deal=N``) is a draft, kept in memory only,
stored at its first change (a POST: the guard's same-origin rule holds), so a GET stores nothing.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
import time
from dataclasses import dataclass, replace

from ..analysis.hint_reasons import hint_reason
from ..batch.deal_grades import GRADES
from ..game.deal import layout
from ..game.engine import Move, move_text
from ..game.position import Position
from ..game.rules import PRESETS, get_rules
from ..game.view import Observation
from ..solver.lines import VerificationError
from . import helpers
from .config import Config
from .errors import BadRequest, Busy, Conflict, NeedsPeek, NotFound
from .games import GAMES, game_of
from .pool import PoolStocker
from .seal import Sealer, pack_draft, unpack_draft
from .statistics import statistics
from .store import GameRow, StaleVersion, Store, UnknownGame, looks_like_token
from .table import LOST, PLAYING, WON, Table, check_deal, check_mode, identity, import_line, shown_move

MAX_SAMPLES = 100  # as many as `scorpion hint --fair` takes by default; bounds a hint's work
DEFAULT_SAMPLES = 30
PEEK_KINDS = ("winnable", "peek", "line")
HINT_KINDS = ("fair", *PEEK_KINDS)
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


DRAFT_MODES = tuple(PRESETS)  # a sealed draft names its mode by its index here


def deal_shown(deal: int | None, random: bool, finished: bool) -> int | None:
    """The deal number a player may see: none for a secret deal (``deal`` 0: no number names it); a number
    the server picked (a random game of an older file) once the game has finished; a chosen one always."""
    if not deal:
        return None
    return deal if finished or not random else None


@dataclass(frozen=True)
class Draft:
    """A game opened by an address, not stored yet: its deal, mode, grade and whether the server picked it.

    A secret deal is ``deal`` 0 with a pool deal's ``secret_id`` (graded), or its ``cards`` (a random deal:
    kept in memory only, stored with the game at its first change)."""

    token: str
    deal: int
    mode: str
    grade: str | None
    random: bool
    secret_id: int | None = None
    cards: tuple[int, ...] | None = None

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
            peek=False,
            line=(),
            hints_asked=0,
            imported=False,
            random=self.random,
            secret_id=self.secret_id,
        )


class HintTimeout(Exception):
    """A fair hint ran past the service's overall deadline (Config.hint_deadline)."""


class GameService:
    """Games: made, played, helped and counted, over a store and the help pool (both shared with lessons)."""

    def __init__(self, config: Config, store, pool: helpers.HelpPool) -> None:
        self.config, self.store, self.pool = config, store, pool
        self._tables: dict[int, tuple[int, int, Table]] = {}  # id -> (version, attempt, table): a cache
        self._sealer = Sealer()  # a draft lives in its own id, sealed (serve.seal): nothing in memory to evict
        self._storing = threading.Lock()  # a draft's first change stores it once
        self._starts: dict[int, list[int]] = {}  # secret deal id -> its cards (a cache)
        self.stocker = PoolStocker(store, config.pool_target, config.pool_modes)

    @classmethod
    def open(cls, config: Config) -> "GameService":
        store = Store(config.db, tokens=config.tokens)
        pool = helpers.HelpPool(config.workers, config.queue, config.wait_seconds, config.budget)
        return cls(config, store, pool)

    def start(self) -> None:
        """When the server starts: stock the graded pool in the background (``Config.pool_target``)."""
        self.stocker.start()

    def close(self) -> None:
        self.pool.shutdown()  # queued solver calls are dropped; a running one ends with its time budget
        self.stocker.stop()  # a grading under way is dropped with its worker process; nothing half-kept
        self.store.close()

    # -- finding a game -------------------------------------------------------------

    def row(self, ref) -> GameRow:
        """The game whose public id is ``ref`` (stored, or a draft); NotFound otherwise."""
        if isinstance(ref, str) and looks_like_token(ref):
            try:
                return self.store.game_by_token(ref)
            except UnknownGame:
                draft = self._draft(ref)
                if draft is not None:  # seen as its first move would store it: a deal whose cards were shown
                    return replace(draft.row(), seen=self.store.is_seen(draft.deal, draft.secret_id))
        raise NotFound(f"no game {str(ref)[:40]!r}")

    def table(self, row: GameRow) -> Table:
        """The game's table: the deal replayed with its line (kept in a cache while its version holds)."""
        cached = self._tables.get(row.id)  # a draft (id None) is never cached: it has no move to replay
        if cached and cached[0] == row.version and cached[1] == row.attempt:
            return cached[2]
        rules = check_mode(row.mode)
        table = Table.replayed(row.deal, rules, row.line, row.ply, self._start(row, rules))
        if row.id is not None:
            self._remember(row.id, row.version, row.attempt, table)
        return table

    def _start(self, row: GameRow, rules) -> Position | None:
        """A secret deal's starting position (None: a numbered deal, dealt by its number)."""
        if row.secret_id is not None:
            if row.secret_id not in self._starts:
                self._starts[row.secret_id] = self.store.secret_cards(row.secret_id)
            return layout(self._starts[row.secret_id], rules)
        draft = self._draft(row.token) if row.id is None else None
        if draft is not None and draft.cards is not None:
            return layout(list(draft.cards), rules)
        return None

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
            if self._draft(ref) is not None:
                return
            with contextlib.suppress(UnknownGame):
                self.store.game_id(ref)
                return
        raise NotFound(f"no game {str(ref)[:40]!r}")

    def _stored(self, row: GameRow) -> int:
        """The game's database id; a draft is stored now (its first change), under its public id."""
        if row.id is not None:
            return row.id
        with self._storing:
            with contextlib.suppress(UnknownGame):  # stored meanwhile (a change while a hint was worked out)
                return self.store.game_id(row.token)
            draft = self._draft(row.token)
            if draft is None:
                raise NotFound(f"no game {row.token[:40]!r}")
            secret_id = draft.secret_id
            if draft.cards is not None:
                secret_id = self.store.add_secret(draft.mode, list(draft.cards))
            return self.store.create_game(
                draft.deal, draft.mode, draft.grade, [], PLAYING, draft.random, draft.token, secret_id
            )

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
            "rules": game_of(row.mode).about(),  # the game's name and shape (serve.games)
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
            "secret": row.secret_id is not None or self._is_secret_draft(row),
            # a bit of the deal's number: told with it
            # (a secret deal's tells nothing of its cards: only a replay of an ended game is one)
            "seen": row.seen if deal is not None or row.secret_id is not None else None,
            # the whole deal, once a game of a secret deal has ended: to look at, replay or analyze
            "start": str(table.position_at(0)) if row.secret_id is not None and row.finished else None,
        }

    def _is_secret_draft(self, row: GameRow) -> bool:
        draft = self._draft(row.token) if row.id is None else None
        return draft is not None and draft.cards is not None

    def summaries(self) -> list[dict]:
        """The stored games, the most recently changed first, each deal number as a player may see it."""
        out = []
        for game in self.store.summaries():
            finished = game.pop("finished")
            deal = deal_shown(game["deal"], game.pop("random"), finished)
            told = deal is not None or game["secret"]
            name = GAMES[game["mode"]].name if game["mode"] in GAMES else game["mode"]
            out.append(game | {"deal": deal, "seen": game["seen"] if told else None, "name": name})
        return out

    def stats(self) -> dict:
        counted = statistics(self.store.finished_games(), self.store.help_counts())
        return counted | {"names": {mode: game.name for mode, game in GAMES.items()}}

    def export(self, ref) -> tuple[str, str]:
        """The move file of the line played (the engine's moves) and its file name."""
        row, table = self.load(ref)
        deal = deal_shown(row.deal, row.random, row.finished)
        if row.secret_id is not None or self._is_secret_draft(row):
            if row.finished:
                # the whole deal is the player's now: its starting position, to save as a position file
                start = str(table.position_at(0)).splitlines()
                lines = [f"# a secret deal, mode {row.mode}: its starting position (save it as START.txt)"]
                lines += [f"#   {line}" for line in start]
                lines += [f"# scorpion analyze START.txt --mode {row.mode} --moves-file F"]
            else:
                lines = [f"# a secret deal (its cards are shown when the game ends) mode {row.mode}"]
            name = f"scorpion-secret-{row.mode}.txt"
        elif deal is None:
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

    def _deal(self, mode, deal, random) -> Draft:
        """A new game's deal, from its request (as a draft with no token yet): a deal chosen by number, or one
        the server picks, a secret deal (a random shuffle, or one of the graded pool)."""
        rules = check_mode(mode)
        if random is not MISSING:
            if deal is not MISSING:
                raise BadRequest("give 'deal' or 'random', not both")
            return self.random_deal(random, rules.name)
        return Draft("", check_deal(whole("deal", deal)), rules.name, None, False)

    def create(self, mode="clear", deal=MISSING, random=MISSING, moves=MISSING, replay=MISSING) -> str:
        """A new stored game (``moves``: a move file's text, an import; ``replay``: the id of an ended game
        of a secret deal, whose deal a new game deals again, counted as seen); its public id."""
        if replay is not MISSING:
            if deal is not MISSING or random is not MISSING or moves is not MISSING:
                raise BadRequest("give 'replay' alone (the game it names has its deal and mode)")
            return self._replay(replay)
        picked = self._deal(mode, deal, random)
        rules = check_mode(picked.mode)
        line = []
        if moves is not MISSING:
            if not isinstance(moves, str):
                raise BadRequest("'moves' must be the text of a move file")
            if random is not MISSING:
                raise BadRequest("an import names its deal by number ('deal'), not 'random'")
            line = import_line(picked.deal, rules, moves)
        secret_id = picked.secret_id
        if picked.cards is not None:
            secret_id = self.store.add_secret(picked.mode, list(picked.cards))
        start = layout(self.store.secret_cards(secret_id), rules) if secret_id is not None else None
        table = Table.replayed(picked.deal, rules, line, len(line), start)
        game_id = self.store.create_game(
            picked.deal, picked.mode, picked.grade, line, table.status, picked.random, secret_id=secret_id
        )
        return self.store.game(game_id).token

    def _replay(self, ref) -> str:
        if not isinstance(ref, str):
            raise BadRequest("'replay' must be a game's id")
        row = self.row(ref)
        if row.secret_id is None or not row.finished:
            raise BadRequest(
                "only a game of a secret deal that has ended can be replayed (a numbered deal opens by its number)"
            )
        game_id = self.store.create_game(0, row.mode, row.grade, [], PLAYING, True, secret_id=row.secret_id)
        return self.store.game(game_id).token

    def draft(self, mode="clear", deal=MISSING, random=MISSING) -> str:
        """A new game that an address opened: not stored until its first change, and kept nowhere meanwhile
        but in its id, which seals its deal (``serve.seal``)."""
        draft = self._deal(mode, deal, random)
        grade = 0 if draft.grade is None else 1 + GRADES.index(draft.grade)
        payload = pack_draft(
            DRAFT_MODES.index(draft.mode), grade, draft.random, draft.deal, draft.secret_id or 0, draft.cards
        )
        return self._sealer.seal(payload)

    def _draft(self, ref: str) -> Draft | None:
        """The draft whose id is ``ref``, or None (not a draft this server sealed)."""
        opened = self._sealer.open(ref)
        fields = unpack_draft(opened) if opened is not None else None
        if fields is None:
            return None
        mode, grade, random, deal, secret_id, cards = fields
        return Draft(
            ref, deal, DRAFT_MODES[mode], None if grade == 0 else GRADES[grade - 1], random, secret_id or None, cards
        )

    def random_deal(self, kind, mode: str) -> Draft:
        """A secret deal the server picks: a new secure shuffle (``any``), or an undealt deal of the graded pool."""
        if kind == "any":
            return Draft("", 0, mode, None, True, cards=tuple(self.config.shuffle(get_rules(mode).num_cards)))
        if kind not in GRADES:
            raise BadRequest(f"'random' must be any, {', '.join(GRADES)}; got {json.dumps(kind)[:40]}")
        if not game_of(mode).graded:
            raise BadRequest(
                f"{game_of(mode).name} has no graded deals: the players that grade a deal play one deck only; "
                "ask for any random deal of it, or a deal by number"
            )
        secret_id = self.store.pool_pick(mode, kind, secrets.choice)
        if secret_id is None:
            ready = self.store.pool_stock()
            if self.stocker.running:
                raise Busy(
                    f"no {kind} deal is ready in {mode} yet: the server is preparing graded deals in the background "
                    f"({self.stocker.progress(mode)}); try again in a minute",
                    retry=True,
                )
            counts = ", ".join(f"{g} {ready.get((mode, g), 0)}" for g in GRADES)
            raise BadRequest(
                f"no {kind} deal remains in {mode} that has not been dealt here (undealt: {counts}); "
                "`scorpion serve --pool N` grades more in the background"
            )
        return Draft("", 0, mode, kind, True, secret_id=secret_id)

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
        game_id = self._stored(row)
        status = table.play(played)  # the move applied once; the cached table follows the database
        try:
            self.store.play(game_id, row.version, played, status)
        except StaleVersion:
            self._tables.pop(game_id, None)  # another change came first: this table is not the game's
            raise self._stale(ref) from None
        except BaseException:
            self._tables.pop(game_id, None)
            raise
        self._remember(game_id, row.version + 1, row.attempt, table)
        # the answer is the new state, as the database now holds it, without reading it back
        after = replace(
            row,
            id=game_id,
            version=row.version + 1,
            ply=table.ply,
            line=tuple(table.line),
            finished=row.finished or status in (WON, LOST),
        )
        return self._state(after, table)

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
        status = table.status_at(ply)
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
        default = GAMES[row.mode].hint_samples if row.mode in GAMES else DEFAULT_SAMPLES  # the game's own
        samples = whole("samples", samples, required=False, default=default, low=1, high=MAX_SAMPLES)
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
            call = (
                helpers.fair,
                Observation.of(table.position, rules.decks),
                rules,
                samples,
                seed,
                budget.fair(),
                in_time,
            )
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
        before = played[index - 2].perm if index and index > 1 else identity(rules)
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
        except VerificationError as exc:  # the solver's own check of a line it found failed: say so, no 500
            raise Busy(f"the solver's answer did not check out ({exc}): no answer this time", retry=False) from None


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
