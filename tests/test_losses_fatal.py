"""The decision that lost a game (`scorpion losses --fatal`), and the exact loss past the endgame's reach.

The games are committed Three Blind Mice games of hop (results/play-1-1000-mice-hop-k100-n1000-s0). Deal
315's own cards can be won, and hop lost it: the study finds the one move after which they could not be,
and measures that decision exactly. Past --exact-unseen the exact loss is the whole-deal computation
(``losses.whole_view_loss``, on ``exact.deal_value``), which must agree with the endgame where both apply.
"""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scorpion_cli import assert_user_error, run

from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, move_text, parse_moves
from scorpion_solver.game.rules import get_rules
from scorpion_solver.game.view import Observation
from scorpion_solver.play.exact import ExactEndgame
from scorpion_solver.play.losses import fatal_step, whole_view_loss
from scorpion_solver.solver.result import LOST, WON, Limits
from scorpion_solver.solver.search import solve

HOP = Path(__file__).resolve().parents[1] / "results" / "play-1-1000-mice-hop-k100-n1000-s0"
CHUNK = "chunk-00000301-00000350.parquet"  # deals 301-350: one game lost on a winnable deal, 315's
MICE = get_rules("mice")


def game(number: int) -> list:
    rows = pq.read_table(HOP / CHUNK).to_pylist() if 301 <= number <= 350 else []
    rows = rows or [r for p in sorted(HOP.glob("chunk-*.parquet")) for r in pq.read_table(p).to_pylist()]
    return parse_moves(next(r["moves"] for r in rows if r["deal"] == number))


def position_at(number: int, moves: list, step: int):
    position = deal(number, MICE)
    for move in moves[:step]:
        position = apply_move(position, move, MICE)
    return position


def test_the_move_that_lost_a_game_is_the_first_after_which_its_cards_cannot_win():
    moves = game(315)
    step = fatal_step(deal(315, MICE), moves, MICE)
    assert step == 33 and len(moves) == 34 and move_text(moves[33]) == "9C:10>3"
    limits = Limits(nodes=5_000_000, memory_mb=64)
    before = position_at(315, moves, 33)
    assert solve(before, MICE, limits).status == WON
    assert solve(apply_move(before, moves[33], MICE), MICE, limits).status == LOST
    assert fatal_step(deal(3, MICE), game(3), MICE) is None  # won: no move lost it
    assert fatal_step(deal(2, MICE), game(2), MICE) is None  # the deal's own cards were never winnable


@pytest.mark.parametrize("step", [19, 23], ids=["build", "flip"])
def test_the_whole_view_loss_agrees_with_the_endgame_where_both_apply(step):
    moves = game(315)
    view = Observation.of(position_at(315, moves, step))
    assert len(view.hidden_slots()) == 4 and view.reveals(moves[step], MICE) == (step == 23)
    endgame = ExactEndgame(MICE, max_unseen=6)
    expected = (endgame.value(view), endgame.move_value(view, moves[step]), endgame.thoughtful_share(view))
    assert expected == (Fraction(3, 4), Fraction(3, 4), Fraction(1))
    assert whole_view_loss(view, moves[step], MICE) == expected


@pytest.fixture()
def one_chunk(tmp_path) -> Path:
    folder = tmp_path / "play-mice-hop"
    folder.mkdir()
    shutil.copy(HOP / "_batch.json", folder)
    shutil.copy(HOP / CHUNK, folder)
    return folder


def test_losses_fatal_measures_only_the_decision_that_lost_each_game(one_chunk):
    result = run("losses", one_chunk, "--fatal", "--samples", 4, "--workers", 1, "--json")
    assert result.exit_code == 0, result.output
    out = Path(json.loads(result.stdout)["folder"])
    assert out.name == "losses-play-mice-hop-k4-fatal"
    (row,) = pq.read_table(sorted(out.glob("chunk-*.parquet"))).to_pylist()
    moves = game(315)
    view = Observation.of(position_at(315, moves, 33))
    endgame = ExactEndgame(MICE, max_unseen=5)
    assert (row["deal"], row["step"], row["unseen"], row["kind"]) == (315, 33, 2, "build")
    assert row["exact_before"] == float(endgame.value(view))
    assert row["exact_after"] == float(endgame.move_value(view, moves[33]))
    settings = json.loads((out / "_batch.json").read_text())["settings"]
    assert settings["fatal"] is True and settings["whole_view"]["budget_nodes"] == 300_000_000
    title = run("stats", out).stdout.splitlines()[0]
    assert title.endswith(
        "samples 4, nodes 20000, exact_unseen 5, fatal True, whole_view (solve_nodes 50,000,000, solve_memory_mb 512, "
        "budget_nodes 300,000,000, budget_views 300,000)"
    )


def test_losses_fatal_wants_a_game_lost_on_a_winnable_deal(one_chunk):
    for path in one_chunk.glob("chunk-*.parquet"):
        rows = [r for r in pq.read_table(path).to_pylist() if r["deal"] != 315]
        pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(path)), path)
    assert_user_error(
        run("losses", one_chunk, "--fatal", "--workers", 1), f"{one_chunk} holds no game lost on a winnable deal"
    )
