"""The game service of ``scorpion serve`` without HTTP (issue 37): the values a request carries in,
a STATE or a domain error out; games and lessons on one store; the graded deals read once.

The routes (``serve/app.py``) are tested through HTTP in test_serve_api.py and test_serve_fairplay.py;
here the service is called as a library is, to show it needs no request.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from scorpion_solver.batch.deal_grades import GRADES, grade_deals, grade_modes
from scorpion_solver.game.engine import Move
from scorpion_solver.serve import service as service_module
from scorpion_solver.serve.config import Config
from scorpion_solver.serve.errors import BadRequest, Conflict, NeedsPeek, NotFound
from scorpion_solver.serve.helpers import Budget
from scorpion_solver.serve.lessons import LessonService, lessons
from scorpion_solver.serve.service import GameService
from scorpion_solver.serve.table import GameError

BUDGET = Budget(fair_nodes=1_000, peek_nodes=20_000, seconds=None)
RESULTS = Path(__file__).resolve().parent.parent / "results"


@pytest.fixture
def games(tmp_path):
    service = GameService.open(Config(db=tmp_path / "g.sqlite3", budget=BUDGET, results_root=tmp_path))
    yield service
    service.close()


def test_a_game_is_played_through_the_service_with_domain_errors(games):
    token = games.create("clear", deal=5)
    state = games.state(token)
    assert (state["deal"], state["ply"], state["version"]) == (5, 0, 0)
    with pytest.raises(NotFound, match="no game 'nobody-at-all'"):
        games.state("nobody-at-all")
    with pytest.raises(BadRequest, match="'version' is missing"):
        games.move(token, service_module.MISSING, "9H:6>1")
    with pytest.raises(GameError) as refused:
        games.move(token, 0, "KS:2>6")
    assert refused.value.rule is not None and "not legal here" in str(refused.value)
    first = state["legal"][0]["move"]
    state = games.move(token, 0, first)
    assert (state["ply"], state["version"], state["moves"]) == (1, 1, [first])
    with pytest.raises(Conflict) as stale:
        games.move(token, 0, first)
    assert stale.value.extra["game"] == state  # the current STATE travels with the refusal
    with pytest.raises(NeedsPeek, match="switch peeking on"):
        asyncio.run(games.analysis(token))  # a game in play: the analysis would read the hidden cards
    # the line is kept as values: the engine's Move and the player's
    played = games.row(token).line[0]
    assert isinstance(played.move, Move) and isinstance(played.shown, Move)


def test_a_draft_is_a_game_of_the_service_until_its_first_change(games):
    token = games.draft("classic", random="any")
    assert games.store.summaries() == [] and games.state(token)["deal"] is None
    state = games.state(token)
    games.move(token, 0, state["legal"][0]["move"])
    assert [g["id"] for g in games.summaries()] == [token] and games.summaries()[0]["deal"] is None


def test_lessons_share_the_games_store_and_pool_through_its_public_interface(games):
    learning = LessonService(games)
    assert learning.pool is games.pool and learning.store.store is games.store
    state = learning.state(1)
    assert (state["id"], state["deal"], state["lesson"]["number"]) == ("lesson-1", None, 1)
    first = lessons()[0]
    assert state["title"] == f"Lesson 1: {first.title}"
    with pytest.raises(GameError) as refused:
        learning.move(1, 0, "5H:3>2")  # lesson 1 invites the wrong join first
    assert refused.value.rule is not None
    assert games.store.summaries() == [] and games.stats()["modes"] == {}  # a lesson is not a game


def test_the_graded_deals_are_read_once_when_the_server_starts(tmp_path, monkeypatch):
    calls = []

    def graded(modes, root, exact, graded_only):
        calls.append((modes, graded_only))
        return {mode: {5: "easy", 6: "hard"} for mode in modes}

    monkeypatch.setattr(service_module, "grade_modes", graded)
    service = GameService.open(Config(db=tmp_path / "g.sqlite3", grade_at_start=True))
    service.start()
    for _ in range(400):  # the start's thread reads them in the background
        if calls:
            break
        time.sleep(0.01)
    assert calls == [(("clear", "classic"), True)]  # both modes in one reading of the play folders
    token = service.create("classic", random="easy")
    assert service.row(token).deal == 5 and service.state(token)["grade"] == "easy"
    assert calls == [(("clear", "classic"), True)]  # the pick did not read them again
    service.close()


def test_closing_while_the_grades_are_read_waits_for_the_reading(tmp_path, monkeypatch):
    """A reading thread still inside pyarrow when the interpreter finalizes aborts the process (SIGABRT,
    seen as `scorpion serve` stopped by SIGTERM within a second of its start): close() ends it first."""
    reading, release, finished = threading.Event(), threading.Event(), []

    def graded(modes, root, exact, graded_only):
        reading.set()
        release.wait(10)
        finished.append(modes)
        return {mode: {} for mode in modes}

    monkeypatch.setattr(service_module, "grade_modes", graded)
    service = GameService.open(Config(db=tmp_path / "g.sqlite3", grade_at_start=True))
    service.start()
    assert reading.wait(10)
    threading.Timer(0.2, release.set).start()  # the reading ends while close() waits
    service.close()
    assert finished == [("clear", "classic")]  # close() returned only after the reading had ended


def test_a_service_not_told_to_grade_at_start_reads_the_grades_at_the_first_graded_pick(tmp_path, monkeypatch):
    calls = []

    def graded(modes, *args, **kwargs):
        calls.append(modes)
        return {mode: {7: "hard"} for mode in modes}

    monkeypatch.setattr(service_module, "grade_modes", graded)
    service = GameService.open(Config(db=tmp_path / "g.sqlite3"))
    service.start()
    assert calls == []
    assert service.row(service.create("classic", random="hard")).deal == 7 and calls == [("classic", "clear")]
    assert service.row(service.create("clear", random="hard")).deal == 7 and calls == [("classic", "clear")]
    service.close()


@pytest.mark.skipif(not (RESULTS / "deals-1-1000000").is_dir(), reason="the committed results are not here")
def test_the_graded_deals_read_alone_are_the_graded_deals_of_the_whole_reading():
    exact = RESULTS / "deals-1-1000000"
    fast = grade_modes(("clear", "classic"), RESULTS, exact, graded_only=True)  # each file read once for both
    whole = grade_deals("classic", RESULTS, exact)
    assert fast["classic"] == {d: g for d, g in whole.items() if g in GRADES}
    assert fast["clear"] == grade_deals("clear", RESULTS, exact, graded_only=True) != fast["classic"]
    assert set(fast["clear"].values()) == set(fast["classic"].values()) == set(GRADES)


def test_a_version_2_database_is_upgraded_and_its_games_count_as_before(tmp_path):
    """A file written before issue 37 (no games.random, games.seen, seen_deals): opened, it gains them
    empty; its finished game still counts, its deal number is still shown."""
    import sqlite3

    from scorpion_solver.serve.store import SCHEMA, Store

    old = SCHEMA.replace(
        ",\n    random      INTEGER NOT NULL DEFAULT 0,\n    seen        INTEGER NOT NULL DEFAULT 0", ""
    )
    old = (
        old[: old.index("CREATE TABLE IF NOT EXISTS seen_deals")]
        + old[old.index("CREATE TABLE IF NOT EXISTS settings") :]
    )
    assert "random" not in old and "seen" not in old
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(old)
        db.execute("INSERT INTO settings VALUES ('schema', '2')")
        db.execute(
            "INSERT INTO games(id, token, deal, mode, grade, created, updated, status, version, ply) "
            "VALUES (1, 'oldgame-token-1', 9, 'clear', 'easy', 0, 0, 'lost', 3, 3)"
        )
        db.execute("INSERT INTO results(game_id, attempt, outcome, ply, finished) VALUES (1, 0, 'lost', 3, 1)")
    db.close()
    store = Store(path)
    assert store.setting("schema") == "3" and store.seen_deals() == {}
    row = store.game(1)
    assert (row.random, row.seen, row.finished) == (False, False, True)
    games = GameService(Config(db=path), store, None)
    assert games.summaries()[0]["deal"] == 9
    assert games.stats()["modes"]["clear"]["lost"] == 1 and games.stats()["seen"] == {"clear": 0}
    store.close()
