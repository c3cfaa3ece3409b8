"""Issue 47: the attack that found random and graded deals from their own face-up cards, as a test.

Before secret deals, a graded game came from a small public list (the committed play results' graded
deals) and a random one from deals 1-1,000,000: an attacker keyed every such deal's face-up layout and
found the game's deal, then solved it. Here the attacker's index is built the same way (every graded deal
of both modes, and the random range: deals 1-20,000 by default, all 1,000,000 under ``-m slow``), 200
random and graded games are started through the HTTP API, and none is found in it. A second test reads
every answer about a game in play and finds no field from which a hidden card follows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from scorpion_solver.batch.deal_grades import GRADES, grade_modes
from scorpion_solver.game.cards import card_text
from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import MODES, get_rules
from scorpion_solver.serve import Config, create_app
from scorpion_solver.serve.helpers import Budget
from scorpion_solver.serve.pool import stock_pool

RESULTS = Path(__file__).resolve().parent.parent / "results"
BASE = "http://127.0.0.1:8765"
BUDGET = Budget(fair_nodes=500, peek_nodes=5_000, seconds=None)
POOL = 10  # graded deals stocked per grade and mode: 60 graded games
RANDOM_GAMES = 140  # and 140 random ones: 200 in all


def face_up(position) -> tuple:
    """What a player sees of a starting position: each column's face-up cards (the attacker's key)."""
    return tuple(tuple(card_text(c) for c in col[h:]) for col, h in zip(position.columns, position.hidden))


def shown(view: dict) -> tuple:
    return tuple(tuple(c["card"] for c in col if c["card"]) for col in view["columns"])


def attackers_index(random_range: int) -> dict[tuple, int]:
    """Face-up layout -> deal number, for every deal the server could deal before secret deals."""
    graded = grade_modes(MODES, RESULTS, RESULTS / "deals-1-1000000", graded_only=True)
    index = {}
    for mode in MODES:
        rules = get_rules(mode)
        for number in graded[mode]:
            index[face_up(deal(number, rules))] = number
        for number in range(1, random_range + 1):
            index[face_up(deal(number, rules))] = number
    return index


def attack(tmp_path, random_range: int) -> None:
    if not (RESULTS / "deals-1-1000000").is_dir():
        pytest.skip("the committed results are not in this checkout")
    index = attackers_index(random_range)
    graded = grade_modes(MODES, RESULTS, RESULTS / "deals-1-1000000", graded_only=True)
    assert sum(map(len, graded.values())) > 1_000  # the graded pools the server dealt from: all in the index
    assert all(face_up(deal(n, get_rules(m))) in index for m in MODES for n in graded[m])
    config = Config(db=tmp_path / "g.sqlite3", budget=BUDGET)
    with TestClient(create_app(config), base_url=BASE) as client:
        # the games the attacker's index covers: grading Double Scorpion's pool too took minutes of CPU
        stock_pool(client.app.state.server.store, POOL, modes=MODES)
        views = []
        for k in range(RANDOM_GAMES):
            r = client.post("/api/games", json={"random": "any", "mode": MODES[k % 2]})
            assert r.status_code == 201, r.text
            views.append(r.json()["game"])
        for mode in MODES:
            for grade in GRADES:
                for _ in range(POOL):
                    r = client.post("/api/games", json={"random": grade, "mode": mode})
                    assert r.status_code == 201, r.text
                    views.append(r.json()["game"])
        assert len(views) == 200
        found = [(g["id"], index[shown(g["view"])]) for g in views if shown(g["view"]) in index]
        assert found == []
        # the key would find a game of a listed deal: the index is not blind
        chosen = client.post("/api/games", json={"deal": next(iter(index.values())), "mode": "clear"}).json()["game"]
        assert shown(chosen["view"]) in index


def test_no_random_or_graded_game_is_found_in_the_attackers_index(tmp_path):
    attack(tmp_path, 20_000)


@pytest.mark.slow
def test_no_random_or_graded_game_is_found_among_all_the_deals_a_random_pick_could_be(tmp_path):
    attack(tmp_path, 1_000_000)


FORBIDDEN = ("seed", "secret_id", "secret_deal", "pool", "pool_index", "cards", "number")


def fields(value, path=""):
    """Every (key path, value) of a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", key, item
            yield from fields(item, f"{path}.{key}")
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from fields(item, f"{path}[{k}]")


def test_no_answer_about_a_game_in_play_holds_a_field_a_hidden_card_follows_from(tmp_path):
    config = Config(db=tmp_path / "g.sqlite3", budget=BUDGET)
    with TestClient(create_app(config), base_url=BASE) as client:
        store = client.app.state.server.store
        store.add_secret("clear", list(range(52)), "easy", 0.1)
        games = [
            client.post("/api/games", json={"random": kind, "mode": "clear"}).json()["game"] for kind in ("any", "easy")
        ]
        for game in games:
            gid = game["id"]
            game = client.post(f"/api/games/{gid}/move", json={"move": game["legal"][0]["move"], "version": 0}).json()[
                "game"
            ]
            answers = [
                client.get(f"/api/games/{gid}").json(),
                client.get("/api/games").json(),
                client.get("/api/stats").json(),
                client.post(f"/api/games/{gid}/hint", json={"kind": "fair", "samples": 2, "version": 1}).json(),
                client.post(f"/api/games/{gid}/move", json={"move": "AC:1>2", "version": 1}).json(),
                client.post(f"/api/games/{gid}/move", json={"move": "AC:1>2", "version": 0}).json(),
                client.post("/api/games", json={"replay": gid}).json(),
            ]
            for answer in answers:
                for where, key, value in fields(answer):
                    # a fair hint's ``seed`` is its sampling seed (the game's version), not a deal's
                    assert key not in FORBIDDEN or where == ".hint.seed", where
                    if key in ("deal", "start"):
                        assert value is None, where
            secret_id = client.app.state.server.row(gid).secret_id
            export = client.get(f"/api/games/{gid}/export")
            page = client.get(f"/game/{gid}")
            assert export.text.splitlines()[0].startswith("# a secret deal (its cards are shown when the game ends)")
            assert export.headers["content-disposition"] == 'attachment; filename="scorpion-secret-clear.txt"'
            assert page.status_code == 200 and f"secret {secret_id}" not in page.text
            # what the export holds besides its header: the moves played, nothing else
            assert export.text.splitlines()[1:] == [m for m in game["moves"]]
        assert json.dumps(client.get("/api/games").json()).count('"deal": null') == 2
