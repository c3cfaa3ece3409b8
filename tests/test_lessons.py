"""Learn to play (``scorpion serve``): the four lessons, the hint's reason and the rules page, in process.

Every expectation comes from the engine: a lesson's line is checked move by
move with ``game.engine.play``, a refused move's sentence and rule are
``game.refusals.refusal`` of the lesson's start, a hint's reason is
``analysis.hint_reasons`` of the view. Bad input is refused with a 4xx and
the whole database is compared before and after: nothing changed.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from scorpion_solver.analysis.hint_reasons import hint_reason
from scorpion_solver.game.cards import card_text
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import legal_moves, move_text, parse_move, parse_moves, play
from scorpion_solver.game.position_text import parse_position
from scorpion_solver.game.refusals import refusal
from scorpion_solver.game.rules import get_rules
from scorpion_solver.game.view import Observation
from scorpion_solver.serve import Config, create_app
from scorpion_solver.serve.games import RULE_SECTIONS
from scorpion_solver.serve.helpers import Budget
from scorpion_solver.serve.lesson_store import LESSON_SCHEMA
from scorpion_solver.serve.lessons import lessons
from scorpion_solver.serve.rules_page import SHIPPED, render_rules, slug

CLEAR, CLASSIC = get_rules("clear"), get_rules("classic")
SMALL = Budget(fair_nodes=2_000, peek_nodes=300_000, seconds=None)
BASE = "http://127.0.0.1:8765"  # a name the server answers to (serve/guard.py)
DOCS_RULES = Path(__file__).resolve().parents[1] / "docs" / "rules.md"

# each lesson: the wrong move its page invites, and a line that meets every goal (the page's own sentences say it)
WRONG = {1: "5H:3>2", 2: "3D:2>1", 3: "2S:1>6", 4: "5S:4>3"}
WRONG_RULE = {1: "same-suit", 2: "same-suit", 3: "space-king", 4: "one-rank-up"}
LINES = {1: "5H:3>1", 2: "9C:2>1", 3: "KS:1>5", 4: "2H:2>1 tail 3S:2>1 AS:3>2 6S:4>3 4S:1>3 2S:2>3"}


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db):
    with TestClient(create_app(Config(db=db, budget=SMALL)), base_url=BASE) as c:
        yield c


def dump(db) -> list[str]:
    """Every row of every table: the database as a whole, to compare before and after a refusal."""
    with sqlite3.connect(db) as con:
        return list(con.iterdump())


def lesson_move(client, number: int, state: dict, move: str, expect: int = 200) -> dict:
    r = client.post(f"/api/lessons/{number}/move", json={"move": move, "version": state["version"]})
    assert r.status_code == expect, r.text
    return r.json()


# --------------------------------------------------------------------------
# the lessons as data


def test_every_lesson_line_meets_its_goals_in_order_and_only_at_its_end():
    assert [lesson.number for lesson in lessons()] == [1, 2, 3, 4]
    for lesson in lessons():
        position = lesson.start
        assert lesson.progress(position) == (0, False)
        assert parse_move(WRONG[lesson.number]) not in legal_moves(position, lesson.rules)
        moves = parse_moves(LINES[lesson.number])
        for k, move in enumerate(moves, start=1):
            position = play(position, move, lesson.rules)
            assert lesson.progress(position)[1] == (k == len(moves)), (lesson.number, k)
        assert lesson.progress(position) == (len(lesson.steps), True)
    # lesson 4's three steps come in order: hearts swept, then the tail, then the win
    four = lessons()[3]
    position = four.start
    seen = []
    for move in parse_moves(LINES[4]):
        position = play(position, move, four.rules)
        seen.append(four.progress(position)[0])
    assert seen == [1, 2, 2, 2, 2, 2, 3]


def test_a_lesson_position_is_small_and_face_up():
    for lesson in lessons():
        cards = lesson.start.cards_in_play()
        assert len(cards) == 26, lesson.number  # two suits; the other two are already swept
        assert sum(lesson.start.hidden) == 0
        assert lesson.rules is CLEAR  # swept suits exist only in Clear runs


# --------------------------------------------------------------------------
# the lessons through the API


def test_the_four_lessons_played_through_the_api_with_one_refused_move_each(client, db):
    listing = client.get("/api/lessons").json()
    assert [item["status"] for item in listing["lessons"]] == ["new"] * 4
    assert listing["next"] == 1 and listing["full_game"] == {"random": "easy", "mode": "clear"}
    for lesson in lessons():
        n = lesson.number
        state = client.get(f"/api/lessons/{n}").json()["game"]
        assert state["id"] == f"lesson-{n}" and state["deal"] is None and state["status"] == "playing"
        assert state["lesson"]["say"] == lesson.steps[0].say
        assert state["lesson"]["highlight"] == list(lesson.steps[0].highlight)
        assert state["lesson"]["try"] == lesson.invite and not state["lesson"]["done"]
        # the wrong move: 400, the rule it breaks and its sentence (game.refusals), and nothing stored
        before = dump(db)
        why = refusal(lesson.start, parse_move(WRONG[n]), lesson.rules)
        answer = lesson_move(client, n, state, WRONG[n], expect=400)
        assert answer == {
            "error": f"{WRONG[n]} is not legal here: {why.sentence}",
            "rule": WRONG_RULE[n],
            "section": RULE_SECTIONS[WRONG_RULE[n]],  # the rules page's part that says it (serve/games.py)
        }
        assert dump(db) == before
        for move in LINES[n].split():
            state = lesson_move(client, n, state, move)["game"]
        assert state["status"] == ("won" if n == 4 else "done")
        assert state["lesson"]["done"] and state["lesson"]["say"] == lesson.done
        assert state["lesson"]["highlight"] == [] and state["legal"] == []
        assert state["moves"] == LINES[n].split()
    listing = client.get("/api/lessons").json()
    assert [item["status"] for item in listing["lessons"]] == ["done"] * 4 and listing["next"] is None


def test_lesson_4_shows_no_tail_card_before_the_tail_is_dealt(client):
    tail = {card_text(c) for c in lessons()[3].start.tail}
    assert tail == {"4S", "3S", "AS"}
    state = client.get("/api/lessons/4").json()["game"]
    state = lesson_move(client, 4, state, "2H:2>1")["game"]
    for part in (state["view"], state["legal"], state["last"], state["lesson"]["highlight"]):
        assert not tail & set(re.findall(r"\b[2-9TJQKA][CSHD]\b", json.dumps(part))), part
    assert state["view"]["tail"] == 3
    state = lesson_move(client, 4, state, "tail")["game"]
    assert state["last"]["revealed"] == ["4S", "3S", "AS"]  # dealt: now seen, onto columns 1, 2 and 3


def test_undo_redo_and_restart_inside_a_lesson(client):
    state = client.get("/api/lessons/4").json()["game"]
    for move in ("2H:2>1", "tail"):
        state = lesson_move(client, 4, state, move)["game"]
    assert state["view"]["tail"] == 0 and state["lesson"]["step"] == 2
    assert [c["card"] for c in state["view"]["columns"][0]] == ["4S"]  # the tail's first card, on column 1
    state = client.post("/api/lessons/4/undo", json={"version": state["version"]}).json()["game"]
    assert state["view"]["tail"] == 3 and state["lesson"]["step"] == 1 and state["can_redo"]
    assert state["lesson"]["say"] == lessons()[3].steps[1].say and state["lesson"]["highlight"] == ["tail"]
    state = client.post("/api/lessons/4/redo", json={"version": state["version"]}).json()["game"]
    assert state["view"]["tail"] == 0 and state["ply"] == 2
    state = client.post("/api/lessons/4/restart", json={"version": state["version"]}).json()["game"]
    assert state["ply"] == 0 and state["moves"] == [] and state["lesson"]["step"] == 0
    assert state["view"] == client.get("/api/lessons/4").json()["game"]["view"]
    assert client.get("/api/lessons").json()["lessons"][3]["status"] == "started"


def test_a_finished_lesson_stays_done_after_undo_and_refuses_moves_until_undone(client, db):
    state = lesson_move(client, 1, client.get("/api/lessons/1").json()["game"], "5H:3>1")["game"]
    before = dump(db)
    answer = lesson_move(client, 1, state, "4H:4>3", expect=409)
    assert answer["error"] == "lesson 1 is finished: restart it (or undo) to play it again, or go on to the next"
    assert answer["game"]["version"] == state["version"]
    assert dump(db) == before
    state = client.post("/api/lessons/1/undo", json={"version": state["version"]}).json()["game"]
    assert state["status"] == "playing" and not state["lesson"]["done"] and state["lesson"]["finished_before"]
    assert client.get("/api/lessons").json()["lessons"][0]["status"] == "done"  # finished once: for good
    lesson_move(client, 1, state, "4H:4>3")


@pytest.mark.parametrize(
    "method, path, body, status",
    [
        ("GET", "/api/lessons/0", None, 404),
        ("GET", "/api/lessons/5", None, 404),
        ("GET", "/api/lessons/one", None, 404),
        ("POST", "/api/lessons/9/move", {"move": "5H:3>1", "version": 0}, 404),
        ("POST", "/api/lessons/1/move", {"move": "5H:3>1"}, 400),  # no version
        ("POST", "/api/lessons/1/move", {"move": "5H:3>1", "version": 7}, 409),  # stale
        ("POST", "/api/lessons/1/move", {"move": "ZZ:1>2", "version": 0}, 400),
        ("POST", "/api/lessons/1/undo", {"version": 0}, 400),  # nothing to undo
        ("POST", "/api/lessons/1/hint", {"kind": "peek", "version": 0}, 403),  # a lesson never peeks
        ("GET", "/learn/5", None, 404),
        ("GET", "/learn/lesson-1", None, 404),
        ("GET", "/api/games/lesson-1", None, 404),  # a lesson id in a game URL
        ("POST", "/api/games/lesson-1/move", {"move": "5H:3>1", "version": 0}, 404),
        ("POST", "/api/games/lesson-1/restart", {"version": 0}, 404),
        ("GET", "/game/lesson-1", None, 404),
    ],
)
def test_bad_lesson_requests_are_refused_and_change_nothing(client, db, method, path, body, status):
    state = lesson_move(client, 2, client.get("/api/lessons/2").json()["game"], "AD:4>2")["game"]
    assert state["version"] == 1
    before = dump(db)
    r = client.request(method, path, json=body)
    assert r.status_code == status, r.text
    if path.startswith("/api/"):
        assert isinstance(r.json()["error"], str) and r.json()["error"]
    else:  # an address a person opens: an error page that says what is wrong
        assert r.headers["content-type"].startswith("text/html") and re.search(r"no (lesson|game) ", r.text), r.text
    assert dump(db) == before


def test_lesson_progress_survives_a_restarted_server(db):
    with TestClient(create_app(Config(db=db, budget=SMALL)), base_url=BASE) as first:
        lesson_move(first, 1, first.get("/api/lessons/1").json()["game"], "5H:3>1")
        state = first.get("/api/lessons/4").json()["game"]
        for move in ("2H:2>1", "tail"):
            state = lesson_move(first, 4, state, move)["game"]
    with TestClient(create_app(Config(db=db, budget=SMALL)), base_url=BASE) as second:
        listing = second.get("/api/lessons").json()
        assert [item["status"] for item in listing["lessons"]] == ["done", "new", "new", "started"]
        assert listing["next"] == 2
        again = second.get("/api/lessons/4").json()["game"]
        assert again == state  # the same position, version, step and sentences


def test_the_lesson_tables_are_documented_as_created():
    serve_md = (Path(__file__).resolve().parents[1] / "docs" / "serve.md").read_text(encoding="utf-8")
    assert LESSON_SCHEMA.strip() in serve_md


def test_lesson_games_are_not_games(client):
    """A lesson is neither listed with the games nor counted in the statistics."""
    lesson_move(client, 1, client.get("/api/lessons/1").json()["game"], "5H:3>1")
    assert client.get("/api/games").json() == {"games": []}
    assert client.get("/api/stats").json()["modes"] == {}


# --------------------------------------------------------------------------
# the hint's reason


def test_a_fair_hint_in_a_lesson_and_in_a_game_carries_the_top_moves_reason(client):
    r = client.post("/api/lessons/3/hint", json={"kind": "fair", "version": 0})
    assert r.status_code == 200, r.text
    hint = r.json()["hint"]
    lesson = lessons()[2]
    assert hint["best"] in {move_text(m) for m in legal_moves(lesson.start, lesson.rules)}
    assert hint["reason"] == hint_reason(Observation.of(lesson.start), parse_move(hint["best"]), CLEAR)
    # the reason's content, not only the function's echo: a broken hint_reason fails here
    assert (hint["best"], hint["reason"]) == (
        "AS:3>1",
        "it joins the ace of spades to the two of spades: a same-suit run of 2 cards",
    )
    game = client.post("/api/games", json={"deal": 5, "mode": "clear"}).json()["game"]
    r = client.post(f"/api/games/{game['id']}/hint", json={"kind": "fair", "samples": 3, "version": 0})
    assert r.status_code == 200, r.text
    hint = r.json()["hint"]
    view = Observation.of(deal(5, CLEAR))
    assert hint["reason"] == hint_reason(view, parse_move(hint["best"]), CLEAR)  # no King moved: shown = engine
    assert (hint["best"], hint["reason"]) == ("9H:6>1", "it empties a column: a place for the king of spades")


def test_a_lesson_hint_the_player_moved_past_answers_with_the_lessons_state(client, monkeypatch):
    from scorpion_solver.serve import helpers

    def moved_on(*args):
        raise helpers.Stale("the player moved on")

    monkeypatch.setattr(helpers, "fair", moved_on)
    r = client.post("/api/lessons/3/hint", json={"kind": "fair", "version": 0})
    assert r.status_code == 409, r.text
    assert r.json()["game"]["id"] == "lesson-3" and r.json()["game"]["lesson"]["number"] == 3


def position(text: str, rules=CLEAR):
    return parse_position(text, rules, reachable=False).position


LESSON_3_WITH_A_SPACE_MAKER = """
col1: 4H 3H KS QH
col2: QS JS TS 9S 8S 7S 6S 5S 4S 3S
col3: KH JH TH 9H 8H 7H 6H 5H AS
col4: 2H AH
col5: 2S
col6:
col7:
tail: -
"""

CLASSIC_HEARTS_ONE_MOVE_FROM_COMPLETE = """
col1: KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col2: AH
col3: AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S
col4: AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C
col5: AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D
col6:
col7:
tail: -
"""


@pytest.mark.parametrize(
    "number, move, reason",
    [
        (1, "5H:3>1", "it joins the five of hearts to the six of hearts: a same-suit run of 9 cards"),
        (2, "9C:2>1", "it empties a column: a place only a King may take"),
        (3, "KS:1>5", "it gives the king of spades a column of its own and frees the three of hearts"),
        (4, "2H:2>1", "it completes the hearts from King to Ace: swept off the table"),
        (4, "tail", "it deals the tail: three new cards onto columns 1, 2 and 3"),
        (4, "KH:1>5", "it moves the king of hearts out of columns 1-3, where the tail would land on it"),
    ],
)
def test_hint_reasons_of_the_lesson_positions(number, move, reason):
    lesson = lessons()[number - 1]
    assert hint_reason(Observation.of(lesson.start), parse_move(move), lesson.rules) == reason


def test_hint_reasons_for_a_space_for_a_king_a_frozen_run_a_flip_and_no_move():
    view = Observation.of(position(LESSON_3_WITH_A_SPACE_MAKER))
    assert hint_reason(view, parse_move("2S:5>2")) == "it empties a column: a place for the king of spades"
    classic = Observation.of(position(CLASSIC_HEARTS_ONE_MOVE_FROM_COMPLETE, CLASSIC))
    assert (
        hint_reason(classic, parse_move("AH:2>1"), CLASSIC)
        == "it completes the hearts from King to Ace: complete, frozen in place"
    )
    assert hint_reason(view, None) == "no legal move is left"
    # the relatives' own rules (issue 52): Wasp's space takes any card; the Goodsol rules leave a run built
    wasp = get_rules("wasp")
    assert (
        hint_reason(Observation.of(position(LESSON_3_WITH_A_SPACE_MAKER, wasp)), parse_move("2S:5>2"), wasp)
        == "it empties a column: a place any card may take, with the cards on it"
    )
    goodsol = get_rules("goodsol")
    built = Observation.of(position(CLASSIC_HEARTS_ONE_MOVE_FROM_COMPLETE, goodsol))
    assert (
        hint_reason(built, parse_move("AH:2>1"), goodsol)
        == "it completes the hearts from King to Ace: built, and left on the table"
    )
    only_tail = Observation.of(lessons()[3].start)
    assert hint_reason(only_tail, parse_move("tail")).endswith("columns 1, 2 and 3")


def test_a_hint_reason_never_reads_a_face_down_card():
    """Two positions that differ only in their face-down cards give the same reasons for every move."""
    texts = [
        LESSON_3_WITH_A_SPACE_MAKER.replace("col1: 4H 3H KS QH", "col1: 4H* 3H* KS QH"),
        LESSON_3_WITH_A_SPACE_MAKER.replace("col1: 4H 3H KS QH", "col1: 3H* 4H* KS QH"),
    ]
    views = [Observation.of(position(text)) for text in texts]
    assert views[0] == views[1]
    moves = legal_moves(position(texts[0]), CLEAR)
    assert parse_move("KS:1>6") in moves
    reasons = [[hint_reason(view, move) for move in moves] for view in views]
    assert reasons[0] == reasons[1]
    assert hint_reason(views[0], parse_move("KS:1>6")) == "it turns up the face-down card under the king of spades"


# --------------------------------------------------------------------------
# the rules page


def test_the_shipped_rule_book_is_docs_rules_md():
    assert SHIPPED.read_text(encoding="utf-8") == DOCS_RULES.read_text(encoding="utf-8"), (
        "the package's copy of the rule book is stale: cp docs/rules.md scorpion_solver/serve/pages/rules.md"
    )


def test_the_rules_page_is_the_rule_book_with_working_anchors_and_no_dead_links(client):
    text = DOCS_RULES.read_text(encoding="utf-8")
    r = client.get("/rules")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert render_rules(text) in page
    headings = re.findall(r"^#+ (.+)$", text, flags=re.M)
    assert len(headings) == 21 and "1. Building" in headings  # with "Two new games" (the relatives)
    for heading in headings:
        assert f'id="{slug(heading)}"' in page, heading
    for anchor in set(re.findall(r"\]\(#([^)]+)\)", text)):  # every link of the rule book into itself resolves
        assert f'id="{anchor}"' in page, anchor
    hrefs = re.findall(r'href="([^"]+)"', render_rules(text))
    assert all(h.startswith(("#", "/", "http")) for h in hrefs), hrefs  # no link to a file the server lacks
    assert "<span>output.md</span>" in page and "<table>" in page and "scorpion_deal" in page


def test_every_page_links_the_rules(client):
    game = client.post("/api/games", json={"deal": 5, "mode": "clear"}).json()["game"]
    for path in ("/", "/stats", f"/game/{game['id']}", "/learn/1", "/learn/4"):
        r = client.get(path)
        assert r.status_code == 200 and 'href="/rules"' in r.text, path
    learn = client.get("/learn/2").text
    assert 'data-api="/api/lessons/2"' in learn and 'id="lesson-say"' in learn and "/static/lesson.js" in learn
    assert client.get("/static/lesson.js").status_code == 200 and client.get("/static/rules.css").status_code == 200
