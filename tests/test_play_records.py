"""commit and commit2 play pinned games record for record: a change meant to make them cheaper changes no decision.

``tests/data/play-records.json`` holds eight games (two players, four deals,
both modes; won and lost) as the code of aafb504 played them at K = 20,
1000 nodes a solve, the exact endgame from 5 unseen cards, seed = deal:
their moves and what they cost in solves and nodes (a cheaper solve, closure
walk or replay must leave every count as it was). The full check, at K = 100
on ten winnable deals a mode, paired against a checkout of the code before a
change, with the CPU each spends: ``python benchmarks/same_games.py --baseline DIR``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import get_rules
from scorpion_solver.play import make_policy, play_game

GAMES = json.loads((Path(__file__).parent / "data" / "play-records.json").read_text())["games"]
RECORDED = ("outcome", "reason", "moves", "decisions", "solves", "nodes", "proof_solves")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g['policy']}-{g['mode']}-{g['deal']}")
def test_the_player_plays_the_pinned_game(game):
    rules = get_rules(game["mode"])
    policy = make_policy(game["policy"], rules, seed=game["deal"], samples=20, nodes=1000, exact_endgame=5)
    record = play_game(deal(game["deal"], rules), rules, policy).as_dict()
    assert {k: record[k] for k in RECORDED} == {k: game[k] for k in RECORDED}


def test_the_pinned_games_cover_both_players_modes_and_outcomes():
    assert {(g["policy"], g["mode"]) for g in GAMES} == {
        (p, m) for p in ("commit", "commit2") for m in ("clear", "classic")
    }
    assert {g["outcome"] for g in GAMES} == {"won", "lost"}
