"""The game service of ``scorpion serve`` without HTTP (issue 37): the values a request carries in,
a STATE or a domain error out; games and lessons on one store; the private graded pool.

The routes (``serve/app.py``) are tested through HTTP in test_serve_api.py and test_serve_fairplay.py;
here the service is called as a library is, to show it needs no request.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from scorpion_solver.batch.deal_grades import GRADES, grade_deals, grade_layout, grade_modes
from scorpion_solver.game.deal import deal as layout_of
from scorpion_solver.game.deal import layout
from scorpion_solver.game.engine import Move
from scorpion_solver.game.rules import get_rules
from scorpion_solver.serve import pool as pool_module
from scorpion_solver.serve import service as service_module
from scorpion_solver.serve.config import Config
from scorpion_solver.serve.errors import BadRequest, Busy, Conflict, NeedsPeek, NotFound
from scorpion_solver.serve.games import GAMES, GRADED, PLAYABLE
from scorpion_solver.serve.helpers import Budget
from scorpion_solver.serve.lessons import LessonService, lessons
from scorpion_solver.serve.service import GameService
from scorpion_solver.serve.table import GameError
from scorpion_solver.solver.search import solve

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
    stats = games.stats()
    assert games.store.summaries() == [] and stats["modes"] == stats["chosen"] == {}  # a lesson is not a game


def test_the_graded_pool_is_stocked_in_the_background_and_each_pick_deals_an_undealt_secret_deal(tmp_path):
    """Issue 47 item 2: the server grades secret shuffles itself (a worker process), keeps them, and a graded
    pick deals one no game has dealt, graded as asked: the grade replays from the layout. Every game the server
    offers has its graded deals (issue 52); this pool stocks the one-deck games of 52 cards in 8 columns, whose
    layouts grade in hundredths of a second. Three Blind Mice's and Double Scorpion's gradings have their own
    tests below: a Mice pool of every grade took about 145 CPU s of grading (its medium and hard layouts are
    rare among secret shuffles), at the lowest priority, 3.5 minutes of the suite."""
    assert GRADED == PLAYABLE
    one_deck = tuple(m for m in GRADED if get_rules(m).decks == 1 and m != "mice")
    assert set(one_deck) == {"clear", "classic", "scorpion2", "wasp", "goodsol"}
    config = Config(db=tmp_path / "g.sqlite3", budget=BUDGET, pool_target=2, pool_modes=one_deck)
    service = GameService.open(config)
    service.start()
    try:
        # a spawned worker loads the solver, then grades ~0.02 s a layout; at the lowest priority it waits for
        # whatever else the machine runs (the other test worker), so the deadline is generous
        deadline = time.monotonic() + 900
        while pool_module.wanted(service.store.pool_stock(), one_deck, 2):
            assert service.stocker.running, service.stocker.error
            assert time.monotonic() < deadline, service.stocker.progress()
            time.sleep(0.2)
        costs = service.store.pool_costs()
        assert set(costs) == {(m, g) for m in one_deck for g in GRADES}
        assert all(n == 2 and cpu > 0 for n, cpu in costs.values())
        dealt = set()
        for mode in one_deck:
            for grade in GRADES:
                for _ in range(2):
                    row = service.row(service.create(mode, random=grade))
                    assert (row.deal, row.grade, row.mode) == (0, grade, mode) and row.secret_id not in dealt
                    dealt.add(row.secret_id)
                    state = service.state(row.token)
                    assert state["deal"] is None and state["secret"] is True and state["start"] is None
                    rules = get_rules(mode)
                    start = layout(service.store.secret_cards(row.secret_id), rules)
                    assert service.table(row).position_at(0) == start
                    if grade == "easy":  # greedy is deterministic: its win replays from the layout
                        assert grade_layout(start, rules).grade == "easy"
                    else:
                        assert solve(start, rules).status == "won"
    finally:
        service.close()
    assert not service.stocker.running


def test_a_graded_pick_from_an_empty_pool_says_why(tmp_path):
    service = GameService.open(Config(db=tmp_path / "g.sqlite3", budget=BUDGET))
    with pytest.raises(BadRequest, match="no hard deal remains in classic .*undealt: easy 0, medium 0, hard 0"):
        service.create("classic", random="hard")
    service.store.add_secret("classic", list(range(52)), "hard", 0.1)
    token = service.create("classic", random="hard")
    assert service.row(token).secret_id == 1
    with pytest.raises(BadRequest, match="no hard deal remains"):  # dealt once: never dealt again
        service.create("classic", random="hard")
    service.close()


@pytest.mark.parametrize("mode", ["double", "double-dealt"])
def test_double_scorpion_deals_by_number_at_random_and_graded(tmp_path, mode):
    """Issue 52: Double Scorpion is offered with all three kinds of deal; a graded pick deals a 104-card secret
    layout from the pool; STATE, the export, an import and the statistics name the game."""
    service = GameService.open(Config(db=tmp_path / "g.sqlite3", budget=BUDGET))
    try:
        numbered = service.state(service.create(mode, deal=1))
        assert numbered["rules"]["graded"] is True and numbered["rules"]["hint_samples"] == 10
        assert len([c for col in numbered["view"]["columns"] for c in col]) == 100 + 4 * (mode == "double-dealt")
        shuffled = service.state(service.create(mode, random="any"))
        assert shuffled["deal"] is None and shuffled["secret"] is True and shuffled["rules"]["decks"] == 2
        assert mode in GRADED and mode in service.config.pool_modes
        cards = list(range(103, -1, -1))  # two decks in reverse: a layout of its own, kept as graded
        service.store.add_secret(mode, cards, "easy", 0.1)
        graded = service.state(service.create(mode, random="easy"))
        assert graded["grade"] == "easy" and graded["secret"] is True and graded["mode"] == mode
        assert service.table(service.row(graded["id"])).position_at(0) == layout(cards, get_rules(mode))
        state = numbered
        for _ in range(3):  # three moves, exported and imported: the same position, the game named
            state = service.move(numbered["id"], state["version"], state["legal"][0]["move"])
        export, name = service.export(numbered["id"])
        assert export.startswith(f"# deal 1 mode {mode}\n") and name.endswith(f"-{mode}.txt")
        imported = service.state(service.create(mode, deal=1, moves=export))
        assert imported["view"] == state["view"] and imported["imported"] and imported["mode"] == mode
        stats = service.stats()
        assert stats["names"][mode] == GAMES[mode].name and stats["chosen"][mode]["games"] == 1  # the import apart
        assert stats["chosen"][mode]["imported"] == 1
    finally:
        service.close()


@pytest.mark.parametrize(("mode", "number"), [("double", 21), ("double-dealt", 25)])
def test_the_pool_grades_a_double_scorpion_layout_by_the_same_rule(mode, number):
    """The grading of the pool's worker on two decks: the exact search (at the two-deck budget) proves the layout
    winnable, and greedy, which reads both copies, wins it: easy. Deals 21 and 25 are such layouts."""
    from scorpion_solver.solver.result import Limits

    rules = get_rules(mode)
    graded = grade_layout(layout_of(number, rules), rules, 0, Limits(nodes=pool_module.TWO_DECK_GRADE_NODES))
    assert (graded.grade, graded.verdict) == ("easy", "won")


@pytest.mark.parametrize(("number", "grade"), [(3, "easy"), (48, "medium"), (25, "hard")])
def test_the_pool_grades_a_three_blind_mice_layout_by_the_same_rule(number, grade):
    """The pool's grading on Three Blind Mice, one layout of each grade (deals 3, 48 and 25): the exact search
    proves it winnable, then greedy wins it (easy), or the look-ahead player does (medium), or neither (hard)."""
    rules = get_rules("mice")
    graded = grade_layout(layout_of(number, rules), rules, 0)
    assert (graded.grade, graded.verdict) == (grade, "won")


def test_a_secret_three_blind_mice_shuffle_is_graded_as_its_layout_is():
    """What the pool's worker does for Three Blind Mice: a secret shuffle of the 52 cards, graded; the grade
    replays from the layout (greedy is deterministic, so an easy grade is easy again)."""
    rules = get_rules("mice")
    for seed in range(3):
        cards, grade, cpu = pool_module.grade_secret_deal("mice", seed)
        assert sorted(cards) == list(range(52)) and cpu > 0 and grade in (*GRADES, None)
        again = grade_layout(layout(cards, rules), rules, seed)
        assert again.grade == grade


def test_a_graded_pick_while_the_pool_is_stocked_asks_to_wait(tmp_path, monkeypatch):
    service = GameService.open(Config(db=tmp_path / "g.sqlite3", budget=BUDGET, pool_target=1))
    monkeypatch.setattr(type(service.stocker), "running", property(lambda self: True))
    with pytest.raises(Busy, match="no medium deal is ready in clear yet: the server is preparing graded deals"):
        service.create("clear", random="medium")
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

    old = SCHEMA.replace(",\n    secret_id   INTEGER REFERENCES secret_deals(id)", "").replace(
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
    assert store.setting("schema") == "4" and store.seen_deals() == {}
    row = store.game(1)
    assert (row.random, row.seen, row.finished) == (False, False, True)
    games = GameService(Config(db=path), store, None)
    assert games.summaries()[0]["deal"] == 9
    assert games.stats()["chosen"]["clear"]["lost"] == 1 and games.stats()["seen"] == {"clear": 0}
    store.close()


def test_a_database_from_before_secret_deals_moves_forward_with_every_game_and_statistic(tmp_path):
    """Issue 47 item 6: tests/data/serve-schema3.sqlite3 was written by the code of b5fc45b (schema 3): a
    numbered win (deal 5), a random deal lost (339564), a graded deal in play (1058, classic, medium) and an
    import. Opened now, every game keeps its deal number, marked numbered (no secret deal): their statistics
    add up as before, under the chosen deals' heading; the number of the random game in play stays hidden."""
    import shutil

    path = tmp_path / "old.sqlite3"
    shutil.copy(Path(__file__).parent / "data" / "serve-schema3.sqlite3", path)
    service = GameService.open(Config(db=path, budget=BUDGET))
    try:
        assert service.store.setting("schema") == "4"
        rows = [service.row(f"oldgame000{k}") for k in range(1, 5)]
        statuses = [service.table(r).status for r in rows]  # a game's status is its table's
        assert [(r.deal, r.mode, r.grade, s, r.secret_id) for r, s in zip(rows, statuses)] == [
            (5, "clear", None, "won", None),
            (339564, "clear", None, "lost", None),
            (1058, "classic", "medium", "playing", None),
            (6, "clear", None, "playing", None),
        ]
        assert [(g["id"], g["deal"]) for g in service.summaries()] == [
            ("oldgame0004", 6),
            ("oldgame0003", None),  # a random game of the old file still in play: its number is not told yet
            ("oldgame0002", 339564),
            ("oldgame0001", 5),
        ]
        stats = service.stats()
        assert stats["modes"] == {}  # no secret deal: nothing in the headline
        clear, classic = stats["chosen"]["clear"], stats["chosen"]["classic"]
        assert (clear["games"], clear["finished"], clear["won"], clear["lost"], clear["imported"]) == (2, 2, 1, 1, 1)
        assert (classic["games"], classic["finished"]) == (1, 0)
        assert stats["seen"] == {"classic": 0, "clear": 0}
        # the game in play plays on, and a new random game of the moved file is a secret deal
        state = service.state("oldgame0003")
        assert len(state["moves"]) == 3 and state["deal"] is None
        service.move("oldgame0003", state["version"], state["legal"][0]["move"])
        fresh = service.row(service.create("clear", random="any"))
        assert fresh.deal == 0 and fresh.secret_id is not None
    finally:
        service.close()


def test_a_database_of_mains_code_reads_as_before_and_its_games_keep_counting_beside_the_relatives(tmp_path):
    """Issue 52: tests/data/serve-schema4.sqlite3 was written by main's code before the relatives
    (tests/data/make_serve_schema4.py, main at 903cd87): deal 5 won in Clear runs (chosen), a secret classic
    deal in play, a secret Clear runs deal lost after a fair hint. Opened now, its statistics are what main's
    code counted; the game in play plays on; a game of a relative counts beside them, under its own name."""
    import shutil

    path = tmp_path / "main.sqlite3"
    shutil.copy(Path(__file__).parent / "data" / "serve-schema4.sqlite3", path)
    service = GameService.open(Config(db=path, budget=BUDGET))
    try:
        stats = service.stats()
        counts = lambda s: (s["games"], s["finished"], s["won"], s["lost"], s["fair_hints"])  # noqa: E731
        assert {mode: counts(s) for mode, s in stats["modes"].items()} == {
            "classic": (1, 0, 0, 0, 0),
            "clear": (1, 1, 0, 1, 1),
        }
        assert {mode: counts(s) for mode, s in stats["chosen"].items()} == {"clear": (1, 1, 1, 0, 0)}
        assert stats["seen"] == {"classic": 0, "clear": 0}
        listed = {g["id"]: (g["mode"], g["name"], g["status"]) for g in service.summaries()}
        assert listed == {
            "maingame001": ("clear", "Scorpion, Clear runs", "won"),
            "maingame002": ("classic", "Scorpion, classic", "playing"),
            "maingame003": ("clear", "Scorpion, Clear runs", "lost"),
        }
        state = service.state("maingame002")
        assert state["ply"] == 3 and state["rules"]["name"] == "Scorpion, classic" and state["secret"]
        service.move("maingame002", state["version"], state["legal"][0]["move"])
        # a relative's game, won by the solver's line, counts under its own mode beside the old ones
        rules = get_rules("scorpion2")
        token = service.create("scorpion2", deal=5)
        for move in solve(layout_of(5, rules), rules).solution.split():
            service.move(token, service.state(token)["version"], move)
        assert service.state(token)["status"] == "won"
        after = service.stats()
        assert {mode: counts(s) for mode, s in after["chosen"].items()} == {
            "clear": (1, 1, 1, 0, 0),
            "scorpion2": (1, 1, 1, 0, 0),
        }
        assert after["modes"] == stats["modes"] and after["names"]["scorpion2"] == "Easy Scorpion"
    finally:
        service.close()


@pytest.mark.parametrize("mode", PLAYABLE)
def test_every_game_deals_by_number_at_random_and_graded_and_names_itself(games, mode):
    """Issue 52 item 1: each game the server offers opens by number, as a secret shuffle and from its graded
    pool; STATE, the list and the export name the game; its layout is the preset's own."""
    rules = get_rules(mode)
    numbered = games.state(games.create(mode, deal=7))
    assert numbered["mode"] == mode and numbered["rules"]["name"] == GAMES[mode].name
    assert numbered["view"]["hidden"] == list(rules.face_down)  # Easy Scorpion: column 4 face up
    export, name = games.export(numbered["id"])
    assert export.startswith(f"# deal 7 mode {mode}\n# scorpion analyze 7 --mode {mode}") and name.endswith(
        f"-{mode}.txt"
    )
    secret = games.state(games.create(mode, random="any"))
    assert secret["secret"] and secret["deal"] is None and secret["rules"]["name"] == GAMES[mode].name
    graded_cards = list(range(rules.num_cards - 1, -1, -1))  # the decks in reverse: a layout of its own, kept as graded
    games.store.add_secret(mode, graded_cards, "medium", 0.1)
    graded = games.state(games.create(mode, random="medium"))
    assert graded["grade"] == "medium" and graded["mode"] == mode
    assert games.table(games.row(graded["id"])).position_at(0) == layout(graded_cards, rules)
    listed = {g["id"]: (g["mode"], g["name"]) for g in games.summaries()}
    assert set(listed.values()) == {(mode, GAMES[mode].name)} and len(listed) == 3


def test_a_refusal_names_the_games_own_rule_and_its_part_of_the_rules_page(games):
    """Wasp's empty column takes any card (legal there, refused in Clear runs with space-king); a rule a game
    changes links to the game's own part of the rules page."""
    wasp = games.create("wasp", deal=3)
    clear = games.create("clear", deal=3)
    for token in (wasp, clear):
        state = games.state(token)
        while not any(not col for col in state["view"]["columns"]):
            state = games.move(token, state["version"], state["legal"][0]["move"])
    state = games.state(wasp)
    empty = next(i for i, col in enumerate(state["view"]["columns"]) if not col) + 1
    into_space = [m for m in state["legal"] if m["to"] == empty and not m["card"].startswith("K")]
    assert into_space and all(m["kind"] == "space" for m in into_space)  # any card may go there
    clear_state = games.state(clear)
    assert clear_state["view"] == state["view"]  # the same first moves on the same cards: the same table
    with pytest.raises(GameError) as refused:
        games.move(clear, clear_state["version"], into_space[0]["move"])
    assert (refused.value.rule, refused.value.section) == ("space-king", "empty-columns")


def test_the_pool_fills_the_one_deck_games_before_double_scorpion():
    """A Double Scorpion layout takes seconds to grade where a one-deck one takes hundredths: the worker grades
    the emptiest one-deck bucket first, Double's emptiest only once every one-deck bucket is full."""
    needed = [("double", "easy"), ("clear", "medium"), ("mice", "hard")]
    assert pool_module.emptiest(needed, {("clear", "medium"): 9, ("mice", "hard"): 4}) == "mice"
    assert pool_module.emptiest([("double-dealt", "hard"), ("double", "easy")], {("double", "easy"): 1}) == (
        "double-dealt"
    )
