"""``scorpion serve``'s API, in process (Starlette's TestClient): games played to their end through HTTP.

Every expectation comes from the engine or the solver, not from the server:
the deal-5 win is the solver's line, the lost game is found by playing the
engine's first legal move until none is left, the hidden cards are the true
position's. The no-leak test reads every response of a whole game.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time

import httpx
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from scorpion_solver import solve
from scorpion_solver.cli import main
from scorpion_solver.game.cards import card_text
from scorpion_solver.game.deal import deal, layout, secret_shuffle
from scorpion_solver.game.engine import (
    apply_move,
    interchangeable_columns,
    is_won,
    legal_moves,
    move_text,
    parse_move,
    parse_moves,
    replay,
)
from scorpion_solver.game.rules import get_rules
from scorpion_solver.game.view import Observation
from scorpion_solver.play.fair import FairHint
from scorpion_solver.play.intervals import wilson_interval
from scorpion_solver.serve import Config, create_app
from scorpion_solver.serve import helpers as serve_helpers
from scorpion_solver.serve.helpers import Budget
from scorpion_solver.serve.store import default_path
from scorpion_solver.serve.table import TAIL_LOCKED, Table
from scorpion_solver.solver.result import Limits

CLEAR, CLASSIC = get_rules("clear"), get_rules("classic")
SMALL = Budget(fair_nodes=2_000, peek_nodes=300_000, seconds=None)
JSON_TYPE = {"Content-Type": "application/json"}


def make_client(db, budget=SMALL, **extra) -> TestClient:
    return TestClient(create_app(Config(db=db, budget=budget, **extra)), base_url="http://127.0.0.1:8765")


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db):
    with make_client(db) as c:
        yield c


def new_game(client, deal_number=5, mode="clear", **extra) -> dict:
    r = client.post("/api/games", json={"deal": deal_number, "mode": mode, **extra})
    assert r.status_code == 201, r.text
    return r.json()["game"]


def post(client, game, action, **body) -> dict:
    r = client.post(f"/api/games/{game['id']}/{action}", json={"version": game["version"], **body})
    assert r.status_code == 200, r.text
    return r.json()["game"]


def move(client, game, text) -> dict:
    return post(client, game, "move", move=text)


def solver_line(number: int, rules=CLEAR) -> list[str]:
    result = solve(deal(number, rules), rules)
    assert result.status == "won"
    return result.solution.split()


def first_move_loss(rules=CLEAR) -> tuple[int, list[str]]:
    """The first deal that the engine's first legal move, played until none is left, loses; and that line."""
    for number in range(1, 200):
        position, line = deal(number, rules), []
        while (moves := legal_moves(position, rules)) and len(line) < 400:
            position = apply_move(position, moves[0], rules)
            line.append(move_text(moves[0]))
        if not moves and not is_won(position, rules):
            return number, line
    raise AssertionError("no deal lost by first moves")  # pragma: no cover


def hidden_texts(position) -> set[str]:
    """The cards a player cannot see in the true position: face down and in the tail."""
    down = {c for col, h in zip(position.columns, position.hidden) for c in col[:h]}
    return {card_text(c) for c in down | set(position.tail)}


# ---------------------------------------------------------------------------------
# games played through


def test_deal_5_clear_played_with_the_solvers_line_to_the_announced_win(client):
    line = solver_line(5)
    game = new_game(client)
    position = deal(5, CLEAR)
    for k, text in enumerate(line, start=1):
        assert game["status"] == "playing"
        assert text in [m["move"] for m in game["legal"]]
        game = move(client, game, text)
        position = apply_move(position, parse_move(text), CLEAR)
        assert game["ply"] == k and game["moves"] == line[:k]
        assert game["last"]["move"] == text
        # the view is the true position's, face-down cards as null
        for col, shown, hidden in zip(position.columns, game["view"]["columns"], position.hidden):
            assert [c["card"] for c in shown] == [None] * hidden + [card_text(c) for c in col[hidden:]]
    assert game["status"] == "won" and game["legal"] == [] and game["view"]["swept"] == ["C", "S", "H", "D"]
    r = client.post(f"/api/games/{game['id']}/move", json={"move": line[0], "version": game["version"]})
    assert r.status_code == 409 and "over" in r.json()["error"] and r.json()["game"]["status"] == "won"


def test_undo_twice_redo_and_a_new_move_drops_the_redo_stack(client):
    line = solver_line(5)
    start = new_game(client)
    game = start
    states = [start]
    for text in line[:3]:
        game = move(client, game, text)
        states.append(game)
    game = post(client, game, "undo")
    game = post(client, game, "undo")
    assert game["ply"] == 1 and game["moves"] == line[:1] and game["can_redo"] and game["can_undo"]
    assert game["view"] == states[1]["view"] and game["last"]["move"] == line[0]
    game = post(client, game, "redo")
    assert game["ply"] == 2 and game["moves"] == line[:2] and game["view"] == states[2]["view"] and game["can_redo"]
    other = [m["move"] for m in game["legal"] if m["move"] != line[2]][0]
    game = move(client, game, other)
    assert game["moves"] == line[:2] + [other] and not game["can_redo"]
    r = client.post(f"/api/games/{game['id']}/redo", json={"version": game["version"]})
    assert r.status_code == 400 and r.json() == {"error": "nothing to redo"}
    for _ in range(3):
        game = post(client, game, "undo")
    assert game["view"] == start["view"] and not game["can_undo"]
    r = client.post(f"/api/games/{game['id']}/undo", json={"version": game["version"]})
    assert r.status_code == 400


def test_restart_replays_the_deal_and_keeps_the_earlier_moves(client, db):
    line = solver_line(5)
    start = game = new_game(client)
    for text in line[:4]:
        game = move(client, game, text)
    game = post(client, game, "restart")
    assert game["ply"] == 0 and game["moves"] == [] and game["view"] == start["view"] and not game["can_redo"]
    assert game["version"] == start["version"] + 5
    with sqlite3.connect(db) as con:
        kept = con.execute(
            "SELECT attempt, move FROM moves WHERE game_id = (SELECT id FROM games WHERE token = ?) ORDER BY id",
            (game["id"],),
        ).fetchall()
    assert kept == [(0, m) for m in line[:4]]
    game = move(client, game, line[0])
    assert game["moves"] == line[:1]


def test_goto_jumps_along_the_line(client):
    line = solver_line(5)
    game = new_game(client)
    states = [game]
    for text in line[:5]:
        game = move(client, game, text)
        states.append(game)
    game = post(client, game, "goto", ply=2)
    assert game["moves"] == line[:2] and game["view"] == states[2]["view"] and game["can_redo"]
    game = post(client, game, "goto", ply=5)
    assert game["moves"] == line[:5] and game["view"] == states[5]["view"]
    r = client.post(f"/api/games/{game['id']}/goto", json={"ply": 6, "version": game["version"]})
    assert r.status_code == 400 and "between 0 and 5" in r.json()["error"]


def test_classic_tail_locked_while_other_moves_exist(client):
    line = solver_line(5, CLASSIC)
    game = new_game(client, mode="classic")
    assert game["tail_locked"] == TAIL_LOCKED and game["view"]["tail"] == 3
    assert all(m["kind"] != "tail" for m in game["legal"]) and game["legal"]
    r = client.post(f"/api/games/{game['id']}/move", json={"move": "tail", "version": game["version"]})
    assert r.status_code == 400 and "only when no other move exists" in r.json()["error"]
    # along the solver's line the tail unlocks exactly where the engine allows it
    position = deal(5, CLASSIC)
    for text in line[: line.index("tail")]:
        game = move(client, game, text)
        position = apply_move(position, parse_move(text), CLASSIC)
    legal = [move_text(m) for m in legal_moves(position, CLASSIC)]
    assert "tail" in legal and game["tail_locked"] is None
    assert [m["move"] for m in game["legal"]] == legal
    game = move(client, game, "tail")
    assert game["view"]["tail"] == 0 and len(game["last"]["revealed"]) == 3 and game["tail_locked"] is None
    assert game["last"]["revealed"] == [card_text(c) for c in deal(5, CLASSIC).tail]


def test_a_lost_deal_reaches_the_announced_loss(client):
    number, line = first_move_loss()
    game = new_game(client, number)
    for text in line:
        assert game["status"] == "playing"
        game = move(client, game, text)
    assert game["status"] == "lost" and game["legal"] == [] and game["tail_locked"] is None
    r = client.post(f"/api/games/{game['id']}/move", json={"move": "tail", "version": game["version"]})
    assert r.status_code == 409 and r.json()["game"]["status"] == "lost"
    # undo leaves the loss: the game is playable again from there
    assert post(client, game, "undo")["status"] == "playing"


def test_export_is_read_by_analyze_and_import_continues_it(client, tmp_path):
    number, line = first_move_loss()
    game = new_game(client, number)
    for text in line[:10]:
        game = move(client, game, text)
    r = client.get(f"/api/games/{game['id']}/export")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert r.text.splitlines()[0] == f"# deal {number} mode clear"
    path = tmp_path / "game.txt"
    path.write_text(r.text)
    run = CliRunner().invoke(main, ["analyze", str(number), "--moves-file", str(path), "--nodes", "300000", "--json"])
    assert run.exit_code == 0, run.output
    report = json.loads(run.output)
    assert report["moves_played"] == 10
    # mid-game the analysis reads the hidden cards: refused with peeking off, a recorded peek once it is on
    refused = client.post(f"/api/games/{game['id']}/analysis", json={})
    assert refused.status_code == 403 and "switch peeking on" in refused.json()["error"]
    assert client.get("/api/stats").json()["chosen"]["clear"]["peeks"] == 0
    game = post(client, game, "peek", on=True)
    api = client.post(f"/api/games/{game['id']}/analysis", json={}).json()["analysis"]
    assert client.get("/api/stats").json()["chosen"]["clear"]["peeks"] == 1
    assert (api["fatal_index"], api["final_status"], api["finding"]) == (
        report["fatal_index"],
        report["final_status"],
        report["finding"],
    )
    imported = new_game(client, number, moves=r.text)
    assert imported["moves"] == line[:10] and imported["view"] == game["view"] and imported["ply"] == 10
    assert move(client, imported, line[10])["moves"] == line[:11]
    bad = client.post("/api/games", json={"deal": number, "mode": "clear", "moves": "9H:6>1 KS:1>1"})
    assert bad.status_code == 400 and bad.json()["error"].startswith("move 1")


def test_statistics_count_wins_losses_streak_and_help(client):
    won = new_game(client)
    for text in solver_line(5):
        won = move(client, won, text)
    number, line = first_move_loss()
    lost = new_game(client, number)
    r = client.post(f"/api/games/{lost['id']}/hint", json={"kind": "fair", "samples": 2, "version": lost["version"]})
    assert r.status_code == 200
    for text in line:
        lost = move(client, lost, text)
    new_game(client, 7)  # in play: counted as a game, not as finished
    imported = new_game(client, 5, moves=" ".join(solver_line(5)))  # a won import: kept, never a win of the player
    assert imported["status"] == "won" and imported["imported"] is True and won["imported"] is False
    assert [g["imported"] for g in client.get("/api/games").json()["games"]] == [True, False, False, False]
    stats = client.get("/api/stats").json()["chosen"]["clear"]
    low, high = wilson_interval(1, 2)
    assert stats == {
        "games": 3,
        "finished": 2,
        "won": 1,
        "lost": 1,
        "win_rate": 0.5,
        "low": low,
        "high": high,
        "best_streak": 1,
        "fair_hints": 1,
        "peeks": 0,
        "peeked_games": 0,
        "peeked_finished": 0,
        "imported": 1,
    }


def test_a_game_survives_a_server_restart(db):
    line = solver_line(5)
    with make_client(db) as first:
        game = new_game(first)
        for text in line[:6]:
            game = move(first, game, text)
        game = post(first, game, "undo")
    with make_client(db) as second:  # a new app on the same file: a restarted server
        again = second.get(f"/api/games/{game['id']}").json()["game"]
        assert again == game
        assert post(second, again, "redo")["moves"] == line[:6]
        assert [g["id"] for g in second.get("/api/games").json()["games"]] == [game["id"]]


def test_two_tabs_moving_at_once_one_applies_the_other_gets_409(client):
    line = solver_line(5)
    game = new_game(client)
    answers = []
    barrier = threading.Barrier(2)

    def tab(text):
        barrier.wait()
        answers.append(client.post(f"/api/games/{game['id']}/move", json={"move": text, "version": game["version"]}))

    threads = [threading.Thread(target=tab, args=(t,)) for t in (line[0], line[1])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 409]
    applied = next(a for a in answers if a.status_code == 200).json()["game"]
    conflict = next(a for a in answers if a.status_code == 409).json()
    assert conflict["game"] == applied and len(applied["moves"]) == 1
    assert client.get(f"/api/games/{game['id']}").json()["game"]["moves"] == applied["moves"]


def test_peek_is_refused_until_switched_on_and_is_recorded(client, db):
    game = new_game(client)
    for kind in ("winnable", "peek", "line"):
        r = client.post(f"/api/games/{game['id']}/hint", json={"kind": kind, "version": game["version"]})
        assert r.status_code == 403 and "peeking" in r.json()["error"]
    r = client.post(f"/api/games/{game['id']}/peek", json={"on": False})
    assert r.status_code == 400
    r = client.post(f"/api/games/{game['id']}/peek", json={"on": True})
    assert r.status_code == 400 and r.json()["error"] == "'version' is missing"
    r = client.post(f"/api/games/{game['id']}/peek", json={"on": True, "version": game["version"] + 1})
    assert r.status_code == 409 and r.json()["game"]["peek"] is False
    game = client.post(f"/api/games/{game['id']}/peek", json={"on": True, "version": game["version"]}).json()["game"]
    assert game["peek"] is True and game["peeked"] is True
    winnable = client.post(f"/api/games/{game['id']}/hint", json={"kind": "winnable", "version": game["version"]})
    assert winnable.json()["hint"]["status"] == "won"  # the JSON vocabulary: a win exists
    line = client.post(f"/api/games/{game['id']}/hint", json={"kind": "line", "version": game["version"]}).json()
    position = deal(5, CLEAR)
    for text in line["hint"]["line"]:
        position = apply_move(position, parse_move(text), CLEAR)
    assert line["hint"]["status"] == "won" and is_won(position, CLEAR)
    with sqlite3.connect(db) as con:
        kinds = [
            k
            for (k,) in con.execute(
                "SELECT kind FROM events WHERE game_id = (SELECT id FROM games WHERE token = ?) ORDER BY id",
                (game["id"],),
            )
        ]
    assert kinds == ["peek_on", "winnable", "line"]
    assert client.get("/api/stats").json()["chosen"]["clear"]["peeks"] == 2


def test_a_fair_hint_judges_every_legal_move_from_the_view(client):
    game = new_game(client)
    r = client.post(f"/api/games/{game['id']}/hint", json={"kind": "fair", "samples": 3, "version": game["version"]})
    assert r.status_code == 200, r.text
    hint = r.json()["hint"]
    assert hint["samples"] == 3 and hint["unseen"] == sum(CLEAR.face_down) + 3  # face down and tail
    assert sorted(m["move"] for m in hint["moves"]) == sorted(m["move"] for m in game["legal"])
    assert all(0 <= m["low"] <= m["share"] <= m["high"] <= 1 for m in hint["moves"])
    assert client.get(f"/api/games/{game['id']}").json()["game"]["hints_asked"] == 1
    stale = client.post(f"/api/games/{game['id']}/hint", json={"kind": "fair", "version": game["version"] + 1})
    assert stale.status_code == 409 and stale.json()["game"]["version"] == game["version"]


def kings_into_two_spaces(count: int = 1) -> list[tuple[int, list[str], str, int]]:
    """Deals and lines after which a King may go into either of two interchangeable empty columns.

    Each is (deal, the line before, the engine's canonical King move, the other empty column, 1-based).
    """
    found = []
    for number in range(1, 400):
        rng, position, line = random.Random(number), deal(number, CLEAR), []
        while (moves := legal_moves(position, CLEAR)) and len(line) < 300:
            empty = [c for c in interchangeable_columns(position) if not position.columns[c]]
            kings = [m for m in moves if not m.is_tail and m.dst in empty]
            if len(empty) >= 2 and kings:
                found.append((number, line, move_text(kings[0]), empty[1] + 1))
                break
            chosen = rng.choice(moves)
            position = apply_move(position, chosen, CLEAR)
            line.append(move_text(chosen))
        if len(found) == count:
            return found
    raise AssertionError("no such position")  # pragma: no cover


KING_SPOTS = kings_into_two_spaces(5)


def test_a_king_stays_in_the_empty_column_the_player_chose(client, tmp_path):
    number, line, canonical, other = KING_SPOTS[0]
    game = new_game(client, number, moves=" ".join(line))
    card, src = canonical.split(":")[0], int(canonical.split(":")[1][0])
    spaces = [m["to"] for m in game["legal"] if m["card"] == card and m["kind"] == "space"]
    assert other in spaces and len(spaces) >= 2
    chosen = f"{card}:{src}>{other}"
    after = move(client, game, chosen)
    assert after["moves"][-1] == chosen and after["view"]["columns"][other - 1][0]["card"] == card
    # the game goes on in the player's columns; the export holds the engine's moves, which analyze replays
    export = client.get(f"/api/games/{game['id']}/export").text
    assert parse_moves(" ".join(export.splitlines()[2:]))[-1] == parse_move(canonical)
    path = tmp_path / "g.txt"
    path.write_text(export)
    run = CliRunner().invoke(main, ["replay", str(number), "--moves-file", str(path)])
    assert run.exit_code == 0, run.output
    # a refusal names the columns the player sees
    r = client.post(f"/api/games/{game['id']}/move", json={"move": f"{card}:{src}>1", "version": after["version"]})
    assert r.status_code == 400 and f"{card} is in column {other}, not in column {src}" in r.json()["error"]
    nxt = after["legal"][0]["move"]
    assert move(client, after, nxt)["moves"][-1] == nxt


# ---------------------------------------------------------------------------------
# never a hidden card


CARD_RE = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][CSHD])(?![A-Za-z0-9])")


def test_no_response_of_a_whole_game_shows_a_card_before_it_is_revealed(client):
    line = solver_line(5)
    bodies_checked = 0
    position = deal(5, CLEAR)
    seen: set[str] = set()

    def check(response, position):
        nonlocal bodies_checked
        seen.update(c for col, h in zip(position.columns, position.hidden) for c in map(card_text, col[h:]))
        secret = hidden_texts(position) - seen
        found = set(CARD_RE.findall(response.text))
        assert not (found & secret), (response.request.url, found & secret)
        bodies_checked += 1

    names = ("game.js", "game.css", "cards.js", "cards.css")
    static = [f"/static/{name}" for name in names]
    for path in ["/", "/stats", *static]:
        response = client.get(path)
        assert response.status_code == 200, path
        check(response, position)
    r = client.get("/?deal=5&mode=clear", follow_redirects=False)
    game_id = r.headers["location"].rsplit("/", 1)[1]
    check(client.get(r.headers["location"]), position)
    game = client.get(f"/api/games/{game_id}").json()["game"]
    for k, text in enumerate(line):
        for path in (f"/api/games/{game_id}", "/api/games", f"/api/games/{game_id}/export", "/api/stats"):
            check(client.get(path), position)
        if k in (0, 20):
            r = client.post(
                f"/api/games/{game_id}/hint", json={"kind": "fair", "samples": 2, "version": game["version"]}
            )
            check(r, position)
        if k == 10:  # a wrong move and a stale version answer with the state too
            wrong = client.post(f"/api/games/{game_id}/move", json={"move": "AC:1>1", "version": game["version"]})
            assert wrong.status_code == 400
            check(wrong, position)
            check(client.post(f"/api/games/{game_id}/move", json={"move": text, "version": -1}), position)
            game = post(client, game, "undo")
            check(client.get(f"/api/games/{game_id}"), position)  # not the position undone: a card seen stays seen
            game = post(client, game, "redo")
        r = client.post(f"/api/games/{game_id}/move", json={"move": text, "version": game["version"]})
        position = apply_move(position, parse_move(text), CLEAR)
        check(r, position)
        game = r.json()["game"]
    assert game["status"] == "won" and bodies_checked > 5 * len(line)


# ---------------------------------------------------------------------------------
# bad input


@pytest.mark.parametrize(
    "body, status, words",
    [
        (b"{not json", 400, "not valid JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (json.dumps({"deal": 0, "mode": "clear"}).encode(), 400, "1 or more"),
        (json.dumps({"deal": 2**63, "mode": "clear"}).encode(), 400, "at most"),
        (json.dumps({"deal": "5", "mode": "clear"}).encode(), 400, "whole number"),
        (json.dumps({"deal": True, "mode": "clear"}).encode(), 400, "whole number"),
        (json.dumps({"deal": 5, "mode": "spider"}).encode(), 400, "mode must be"),
        (json.dumps({"random": "impossible", "mode": "clear"}).encode(), 400, "'random' must be"),
        (b" " * (64 * 1024 + 1), 413, "larger than"),
    ],
)
def test_bad_requests_are_4xx_json(client, body, status, words):
    r = client.post("/api/games", content=body, headers=JSON_TYPE)
    assert r.status_code == status and words in r.json()["error"]


def test_unknown_games_paths_and_methods_are_4xx_json(client):
    assert client.get("/api/games/999").status_code == 404
    assert client.get("/api/games/abc").json() == {"error": "no game 'abc'"}
    assert client.get("/api/games/AAAAAAAAAAAAAAAAAAAAAA").json() == {"error": "no game 'AAAAAAAAAAAAAAAAAAAAAA'"}
    assert client.get("/api/nowhere").json()["error"] == "no such page or API path"
    assert client.delete("/api/games").status_code == 405
    # an address a person opens gets a page, not JSON
    for path, words in (("/game/999", "404: no game &#x27;999&#x27;"), ("/nowhere", "404: no such page or API path")):
        r = client.get(path)
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html") and words in r.text
        assert '<a href="/">Back to the start page</a>' in r.text
    game = new_game(client)
    r = client.post(f"/api/games/{game['id']}/move", json={"move": "ZZ:1>2", "version": game["version"]})
    assert r.status_code == 400 and "not a move" in r.json()["error"]
    r = client.post(f"/api/games/{game['id']}/move", json={"move": "KS:2>6", "version": game["version"]})
    assert r.status_code == 400 and "not legal" in r.json()["error"]
    r = client.post(f"/api/games/{game['id']}/move", json={"move": 5, "version": game["version"]})
    assert r.status_code == 400
    r = client.get("/?deal=abc")
    assert r.status_code == 400


PATHS = ["/", "/stats", "/game/{id}", "/api/games", "/api/stats", "/static/x.js", "/api/games/{id}"] + [
    f"/api/games/{{id}}/{a}" for a in ("move", "undo", "redo", "restart", "goto", "hint", "peek", "export", "analysis")
]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
KEYS = st.sampled_from(["move", "version", "ply", "kind", "samples", "on", "deal", "mode", "random", "moves", "seed"])


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory):
    tiny = Budget(fair_nodes=200, peek_nodes=2_000, seconds=0.5)
    tokens = (f"fuzzgame{n:04d}" for n in itertools.count(1))
    with make_client(tmp_path_factory.mktemp("fuzz") / "g.sqlite3", tiny, tokens=lambda: next(tokens)) as c:
        new_game(c)  # its id: fuzzgame0001
        yield c


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    path=st.sampled_from(PATHS),
    game=st.sampled_from(["fuzzgame0001", "fuzzgame0002", "1", "999999", "x", "-1", "1e3"]),
    kind=st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain", None]),
    body=st.one_of(
        st.binary(max_size=40),
        JSON.map(lambda v: json.dumps(v).encode()),
        st.dictionaries(
            KEYS, JSON | st.sampled_from(["9H:6>1", "tail", "fair", "peek", "clear", 0, 1]), max_size=4
        ).map(lambda v: json.dumps(v).encode()),
    ),
    use_version=st.booleans(),
    pick_legal=st.booleans(),
)
def test_random_requests_answer_2xx_or_4xx_json(fuzz_client, method, path, game, kind, body, use_version, pick_legal):
    try:
        data = json.loads(body)
    except ValueError:
        data = None
    if use_version and isinstance(data, dict):
        current = fuzz_client.get("/api/games/fuzzgame0001").json()["game"]
        data["version"] = current["version"]
        if pick_legal and current["legal"]:
            data["move"] = current["legal"][0]["move"]
        body = json.dumps(data).encode()
    headers = {"Content-Type": kind} if kind else {}
    r = fuzz_client.request(method, path.replace("{id}", game), content=body, headers=headers, follow_redirects=False)
    assert r.status_code < 500 or r.status_code == 503, (method, path, body, r.text)
    if r.status_code >= 400 and path.startswith("/api/"):
        assert isinstance(r.json()["error"], str)
    elif r.status_code >= 400 and r.headers["content-type"].startswith("text/html"):  # a page a person opened
        assert f"{r.status_code}: " in r.text
    elif r.status_code >= 400:  # refused before any route (serve.guard): JSON
        assert isinstance(r.json()["error"], str)
    if path.startswith("/api/") and not path.endswith("export") and r.status_code < 300:
        r.json()


# ---------------------------------------------------------------------------------
# the command


def test_serve_has_help_and_refuses_a_taken_port_in_one_line(tmp_path):
    run = CliRunner().invoke(main, ["serve", "--help"])
    assert run.exit_code == 0 and "--db" in run.output and "--open" in run.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = CliRunner().invoke(main, ["serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")])
    assert run.exit_code == 2 and run.output.count("\n") == 1 and run.output.startswith("error: cannot listen")


@pytest.mark.parametrize("what", ["a folder", "not a database"])
def test_serve_refuses_a_database_it_cannot_use_in_one_line(tmp_path, what):
    db = tmp_path / "games.sqlite3"
    if what == "a folder":
        db.mkdir()
    else:
        db.write_bytes(b"these are not the pages of an SQLite file" * 100)
    run = CliRunner().invoke(main, ["serve", "--port", "0", "--db", str(db)])
    assert run.exit_code == 2 and run.output.count("\n") == 1 and run.output.startswith("error: ")


def test_the_database_lives_in_the_users_data_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "scorpion-solver" / "games.sqlite3"


def test_scorpion_serve_answers_warns_off_loopback_and_stops_on_sigterm(tmp_path):
    db = tmp_path / "g.sqlite3"
    command = [sys.executable, "-m", "scorpion_solver", "serve", "--host", "0.0.0.0", "--port", "0", "--db", str(db)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://\S+/", server.stdout.readline()).group(0).replace("0.0.0.0", "127.0.0.1")
        for _ in range(600):  # the URL is printed just before uvicorn binds (a loaded machine: up to a minute)
            try:
                created = httpx.post(url + "api/games", json={"deal": 5, "mode": "clear"})
                break
            except httpx.ConnectError:
                time.sleep(0.1)
        assert created.status_code == 201 and created.json()["game"]["deal"] == 5
        assert httpx.get(url + "api/games").json()["games"][0]["deal"] == 5
    finally:
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0 and out.strip().endswith("stopped (SIGTERM)")
    assert err.startswith("warning: listening on 0.0.0.0")
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT deal, mode FROM games").fetchall() == [(5, "clear")]


# ---------------------------------------------------------------------------------
# the help pool: full, waiting too long, moved past


# what a stand-in for helpers.fair answers: a fair hint that judged no move
NO_FAIR_MOVES = FairHint(
    rules="clear", samples=1, unseen=0, wins=0, unknown=0, moves=(), solves=0, nodes=0, seconds=0.0, seed=0
)


@pytest.fixture
def blocked_fair(monkeypatch):
    """helpers.fair replaced by a call that waits for ``release`` (and counts its calls)."""
    gate = {"started": threading.Event(), "release": threading.Event(), "calls": 0}

    def fair(view, rules, samples, seed, limits, still_current=None):
        gate["calls"] += 1
        gate["started"].set()
        assert gate["release"].wait(10)
        return NO_FAIR_MOVES

    monkeypatch.setattr(serve_helpers, "fair", fair)
    return gate


def _hint_in_thread(client, game, answers):
    def ask():
        body = {"kind": "fair", "version": game["version"]}
        answers.append(client.post(f"/api/games/{game['id']}/hint", json=body))

    thread = threading.Thread(target=ask)
    thread.start()
    return thread


def test_more_hints_than_the_pool_takes_are_refused_with_503(db, blocked_fair):
    with make_client(db, workers=1, queue=0) as client:
        game = new_game(client)
        answers = []
        first = _hint_in_thread(client, game, answers)
        assert blocked_fair["started"].wait(10)
        r = client.post(f"/api/games/{game['id']}/hint", json={"kind": "fair", "version": game["version"]})
        assert r.status_code == 503 and "busy" in r.json()["error"] and r.json()["retry"] is True
        blocked_fair["release"].set()
        first.join()
        assert answers[0].status_code == 200 and blocked_fair["calls"] == 1
        # the pool is free again
        r = client.post(f"/api/games/{game['id']}/hint", json={"kind": "fair", "version": game["version"]})
        assert r.status_code == 200 and blocked_fair["calls"] == 2


def test_a_hint_waiting_too_long_is_refused(db, blocked_fair):
    with make_client(db, workers=1, queue=1, wait_seconds=0.2) as client:
        game = new_game(client)
        answers = []
        first = _hint_in_thread(client, game, answers)
        assert blocked_fair["started"].wait(10)
        r = client.post(f"/api/games/{game['id']}/hint", json={"kind": "fair", "version": game["version"]})
        assert r.status_code == 503 and "busy for 0.2 s" in r.json()["error"]
        blocked_fair["release"].set()
        first.join()


def test_hints_the_player_moved_past_are_dropped(db, blocked_fair):
    with make_client(db, workers=1, queue=1) as client:
        game = new_game(client)
        answers = []
        running = _hint_in_thread(client, game, answers)
        assert blocked_fair["started"].wait(10)
        queued = _hint_in_thread(client, game, answers)
        time.sleep(0.2)  # let the second request reach the queue
        moved = move(client, game, game["legal"][0]["move"])
        blocked_fair["release"].set()
        running.join()
        queued.join()
        assert [a.status_code for a in answers] == [409, 409]
        assert all(a.json()["game"]["version"] == moved["version"] for a in answers)
        assert blocked_fair["calls"] == 1  # the queued one never ran


def test_a_running_fair_hint_stops_when_the_player_moves_on():
    """The hint asks between its sampled layouts whether the game is still where it was; once not, it stops."""
    asked = []

    def still_current() -> bool:
        asked.append(len(asked))
        return len(asked) <= 3  # the player moves while the third layout is judged

    with pytest.raises(serve_helpers.Stale):
        serve_helpers.fair(Observation.of(deal(5, CLEAR)), CLEAR, 50, 0, Limits(nodes=2000), still_current)
    assert len(asked) == 4  # asked before each layout: three judged, the fourth (of 50) never started


# ---------------------------------------------------------------------------------
# random deals, and the fair hint's input


@pytest.mark.parametrize("grade", ["easy", "medium", "hard"])
def test_a_graded_deal_comes_from_the_private_pool_with_the_grade_asked_for(client, grade):
    service = client.app.state.server
    cards = secret_shuffle()
    service.store.add_secret("classic", cards, grade, 0.5)  # as the pool keeps a deal it graded (serve.pool)
    game = new_game_random(client, grade)
    assert game["grade"] == grade and game["ply"] == 0 and game["deal"] is None and game["secret"] is True
    assert dealt(client, game) == 0 and service.table(service.row(game["id"])).position_at(0) == layout(cards, CLASSIC)
    again = client.post("/api/games", json={"random": grade, "mode": "classic"})  # dealt once: none left
    assert again.status_code == 400 and f"no {grade} deal remains in classic" in again.json()["error"]


def new_game_random(client, kind, mode="classic") -> dict:
    r = client.post("/api/games", json={"random": kind, "mode": mode})
    assert r.status_code == 201, r.text
    return r.json()["game"]


def dealt(client, game: dict) -> int:
    """The deal number of a game in the database (0: a secret deal; no answer tells a number while it is played)."""
    return client.app.state.server.row(game["id"]).deal


def test_a_random_deal_of_any_kind_is_a_secret_shuffle_and_the_start_page_redirects_to_it(client):
    game = new_game_random(client, "any", "clear")
    assert game["grade"] is None and game["deal"] is None and dealt(client, game) == 0 and game["secret"]
    r = client.get("/?random=any&mode=classic", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/game/")
    opened = client.get("/api/games/" + r.headers["location"].rsplit("/", 1)[1]).json()["game"]
    assert opened["mode"] == "classic" and opened["secret"] and opened["deal"] is None


def test_the_fair_hint_is_given_the_players_view_only(client, monkeypatch):
    seen = []

    def fair(view, rules, samples, seed, limits, still_current=None):
        seen.append(view)
        return NO_FAIR_MOVES

    monkeypatch.setattr(serve_helpers, "fair", fair)
    line = solver_line(5)
    game = new_game(client)
    for text in line[:12]:
        game = move(client, game, text)
    r = client.post(f"/api/games/{game['id']}/hint", json={"kind": "fair", "version": game["version"]})
    assert r.status_code == 200
    position = deal(5, CLEAR)
    for text in line[:12]:
        position = apply_move(position, parse_move(text), CLEAR)
    (view,) = seen
    assert isinstance(view, Observation) and view == Observation.of(position)
    # not one face-down or tail card is known to it: every such slot is unknown
    assert len(view.hidden_slots()) == sum(position.hidden) + len(position.tail)
    assert not (view.known_cards() & {c for col, h in zip(position.columns, position.hidden) for c in col[:h]})


def test_after_a_loss_the_analysis_finds_the_fatal_move_and_its_alternative_wins(client):
    position, line = deal(5, CLEAR), []  # deal 5 is winnable; the engine's first move, again and again, loses it
    while moves := legal_moves(position, CLEAR):
        position = apply_move(position, moves[0], CLEAR)
        line.append(move_text(moves[0]))
    game = new_game(client, 5)  # played on the board, not imported: an imported game never counts
    for text in line:
        game = move(client, game, text)
    assert game["status"] == "lost"
    analysis = client.post(f"/api/games/{game['id']}/analysis", json={}).json()["analysis"]
    assert analysis["finding"] == "fatal" and analysis["final_status"] == "lost"
    fatal = analysis["fatal_index"]
    assert analysis["fatal_move"] == line[fatal - 1] and analysis["alternative"] != line[fatal - 1]
    # the player jumps to the position before the fatal move and plays the alternative's win through
    game = post(client, game, "goto", ply=fatal - 1)
    assert game["status"] == "playing" and analysis["alternative"] in [m["move"] for m in game["legal"]]
    for text in analysis["alternative_solution"].split():
        game = move(client, game, text)
    assert game["status"] == "won"
    stats = client.get("/api/stats").json()["chosen"]["clear"]
    assert (stats["won"], stats["lost"]) == (0, 1)  # the game counts by its first finish


def test_an_oversized_body_without_a_length_is_refused_while_it_streams(client):
    def chunks():  # sent chunked (no Content-Length): 100 x 4 KB, past the 64 KB limit
        for _ in range(100):
            yield b" " * 4096

    r = client.post("/api/games", content=chunks(), headers=JSON_TYPE)
    assert r.status_code == 413 and "larger than" in r.json()["error"]


def test_done_when_deal_5_won_with_an_undo_and_a_fair_hint_is_in_the_statistics_after_a_restart(db):
    line = solver_line(5)
    with make_client(db) as first:
        game = new_game(first)
        for k, text in enumerate(line):
            if k == 3:
                game = post(first, move(first, game, line[3]), "undo")
                body = {"kind": "fair", "samples": 2, "version": game["version"]}
                assert first.post(f"/api/games/{game['id']}/hint", json=body).status_code == 200
            game = move(first, game, text)
        assert game["status"] == "won"
    with make_client(db) as second:
        stats = second.get("/api/stats").json()["chosen"]["clear"]
        assert (stats["games"], stats["won"], stats["win_rate"], stats["fair_hints"]) == (1, 1, 1.0, 1)
        assert second.get("/api/games").json()["games"][0]["status"] == "won"


@settings(max_examples=60, deadline=None)
@given(
    start=st.one_of(st.integers(1, 5000).map(lambda n: (n, [], None)), st.sampled_from(KING_SPOTS)),
    mode=st.sampled_from(["clear", "classic"]),
    picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=150),
)
def test_any_line_the_player_picks_is_the_engines_game_in_the_players_columns(start, mode, picks):
    """From a deal, or (Clear runs) from a King facing two spaces whose first pick is the other space."""
    number, before, king = start[0], start[1], start[2]
    rules = CLEAR if king else get_rules(mode)
    table = Table(number, rules)
    for text in before:
        table.play(table.resolve(text))
    if king:
        card, src = king.split(":")[0], int(king.split(":")[1][0])
        table.play(table.resolve(f"{card}:{src}>{start[3]}"))
        assert table.perm != tuple(range(7))
    for pick in picks:
        legal = table.legal()
        engine_legal = legal_moves(table.position, rules)
        if not legal:
            assert not engine_legal and table.status in ("won", "lost")
            break
        chosen = legal[pick % len(legal)]
        played = table.resolve(chosen["move"])
        assert played.move in engine_legal  # the engine plays one of its own legal moves (a Move: issue 37)
        table.play(played)
        position, perm = table.position, table.perm
        assert sorted(perm) == list(range(7))
        view = table.view()
        for shown, engine in enumerate(perm):  # each column the player sees is an engine column, face-down as null
            col, hidden = position.columns[engine], position.hidden[engine]
            assert [c["card"] for c in view["columns"][shown]] == [None] * hidden + [card_text(c) for c in col[hidden:]]
        if chosen["kind"] != "tail" and chosen["card"] in {c["card"] for col in view["columns"] for c in col}:
            assert chosen["card"] in [c["card"] for c in view["columns"][chosen["to"] - 1]]  # where the player put it
    # the engine's record replays to the same position (what the export holds)
    assert replay(deal(number, rules), table.engine_moves(), rules) == table.position
