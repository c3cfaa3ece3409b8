"""commit and commit2 play pinned games record for record: a change meant to make them cheaper changes no decision.

``tests/data/play-records.json`` holds eight games (two players, four deals,
both modes; won and lost) as the code of aafb504 played them at K = 20,
1000 nodes a solve, the exact endgame from 5 unseen cards, seed = deal:
their moves and what they cost in solves and nodes (a cheaper solve, closure
walk or replay must leave every count as it was). Since b948455 three of them
count fewer solves, each one node fewer (6, 16 and 16): the exact endgame's
blind deadlock test settles a view whose every arrangement is lost with no
solve, where each arrangement's solve had been a root dead at once; their
moves are unchanged. The full check, at K = 100
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


def test_one_sampled_win_in_twenty_is_replayed_and_a_bad_one_checked_raises():
    """The players replay one sampled layout's win in CHECKED_SAMPLED_WINS (the games above are unchanged by it):
    the first, the 21st, ...; a checked line that does not win raises, an unchecked one is not read."""
    from scorpion_solver.game.engine import legal_moves
    from scorpion_solver.play.policies import CHECKED_SAMPLED_WINS
    from scorpion_solver.solver.lines import VerificationError
    from scorpion_solver.solver.search import SampledWinChecks, solve

    rules = get_rules("clear")
    position = deal(5, rules)
    won = solve(position, rules)
    assert won.status == "won" and CHECKED_SAMPLED_WINS == 20
    checks = SampledWinChecks(CHECKED_SAMPLED_WINS)
    not_a_win = legal_moves(position, rules)[:1]
    with pytest.raises(VerificationError):
        checks.add(5, position, not_a_win, rules, won)  # the first win is checked
    for _ in range(CHECKED_SAMPLED_WINS - 1):
        checks.add(5, position, not_a_win, rules, won)  # the 2nd to the 20th are not
    assert (checks.wins, checks.checked) == (CHECKED_SAMPLED_WINS, 1)
    with pytest.raises(VerificationError):
        checks.add(5, position, not_a_win, rules, won)  # the 21st is


def test_a_players_sampled_wins_are_checked_one_in_twenty():
    rules = get_rules("classic")
    policy = make_policy("commit2", rules, seed=49, samples=20, nodes=1000, exact_endgame=5)
    play_game(deal(49, rules), rules, policy)
    checks = policy._sampled_checks
    assert checks.wins > 100 and checks.checked == (checks.wins + 19) // 20
