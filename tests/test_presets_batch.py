"""Batch and stats work for every rules preset, not only the two Scorpion modes."""

import json

import pyarrow.parquet as pq
from click.testing import CliRunner

from scorpion_solver.cli import main
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import is_won, parse_moves, replay
from scorpion_solver.game.rules import get_rules

RELATIVES = ("wasp", "scorpion2", "goodsol")
PRESETS = ("clear", "classic") + RELATIVES


def test_batch_and_stats_for_the_relatives(tmp_path):
    out = tmp_path / "relatives"
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "batch",
            "1-60",
            "--mode",
            ",".join(PRESETS),
            "--workers",
            "1",
            "--nodes",
            "300000",
            "--out",
            str(out),
            "--no-progress",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    rows = pq.read_table(out).to_pylist()
    assert sorted({r["mode"] for r in rows}) == sorted(PRESETS)
    assert len(rows) == 60 * len(PRESETS)
    for row in rows:
        if row["status"] == "won":
            rules = get_rules(row["mode"])
            assert is_won(replay(deal(row["deal"], rules), parse_moves(row["solution"]), rules), rules)
    stats = runner.invoke(main, ["stats", str(out), "--json"], catch_exceptions=False)
    assert stats.exit_code == 0, stats.output
    report = json.loads(stats.stdout)
    text = json.dumps(report)
    for name in RELATIVES:
        assert name in text
    won = {name: {r["deal"] for r in rows if r["mode"] == name and r["status"] == "won"} for name in PRESETS}
    decided = {name: {r["deal"] for r in rows if r["mode"] == name and r["status"] != "unknown"} for name in PRESETS}
    # Every move of the weaker rules is legal under the stronger ones, with the same goal:
    # Wasp and Scorpion II only add moves to Clear runs, Goodsol only adds moves to classic.
    for weaker, stronger in (("clear", "wasp"), ("clear", "scorpion2"), ("classic", "goodsol"), ("classic", "clear")):
        assert won[weaker] & decided[stronger] <= won[stronger], (weaker, stronger)
    assert won["clear"] == {5, 33, 37, 49, 56, 57, 58}
