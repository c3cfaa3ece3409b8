"""The benchmark deal sets time real work (issue 25 item 8).

The hard and largest sets of ``benchmarks/common.py`` are derived from the
nodes column of the committed ``results/deals-1-1000000``; these tests check
the derivation against an independent reading of the folder, and that no deal
of the sets is decided at the root by today's search (a set of such deals
would time one node a deal, as the written-down sets came to).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from scorpion_solver.batch import read_folder
from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import get_rules
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import solve

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import common  # noqa: E402  (benchmarks/common.py)


@pytest.fixture(scope="module")
def committed():
    """Every row's deal, mode and nodes, read with the package's own folder reader."""
    frame = read_folder(common.RESULTS, columns=["deal", "mode", "nodes"]).to_pandas()
    return {mode: rows for mode, rows in frame.groupby("mode")}


def _top(rows, count: int, last: int) -> list[int]:
    rows = rows[rows["deal"] <= last].sort_values(["nodes", "deal"], ascending=[False, True])
    return [int(d) for d in rows["deal"].head(count)]


def test_the_sets_are_the_deals_that_need_the_most_nodes(committed):
    hard, largest = common.hard_deals(), common.largest_deals()
    assert set(hard) == {"clear", "classic"} and set(largest) == {"clear"}
    for mode, (last, count) in common.HARD_SETS.items():
        assert hard[mode] == _top(committed[mode], count, last)
        assert len(hard[mode]) == count
    for mode, (last, count) in common.LARGEST_SETS.items():
        assert largest[mode] == _top(committed[mode], count, last)
    # the largest set needs more nodes than any deal of the Clear hard set, and the sets are ranked
    nodes = committed["clear"].set_index("deal")["nodes"]
    assert min(nodes[d] for d in largest["clear"]) > max(nodes[d] for d in hard["clear"])
    assert [nodes[d] for d in hard["clear"]] == sorted((nodes[d] for d in hard["clear"]), reverse=True)


def test_no_deal_of_the_sets_is_decided_at_the_root(committed):
    """A small budget suffices: a deal decided at the root stops at one node, whatever the budget."""
    sets = [common.hard_deals(), common.largest_deals()]
    for chosen in sets:
        for mode, deals in chosen.items():
            rules = get_rules(mode)
            recorded = committed[mode].set_index("deal")["nodes"]
            for number in deals:
                result = solve(deal(number, rules), rules, Limits(nodes=2_000))
                assert result.nodes > 1 and not result.dead_at_root, (mode, number, result.status, result.nodes)
                assert recorded[number] > 10_000, (mode, number, recorded[number])


def test_a_deal_decided_at_the_root_would_be_caught():
    """The check above can fail: Clear deal 674, once in the hard set, is now lost at the root."""
    rules = get_rules("clear")
    result = solve(deal(674, rules), rules, Limits(nodes=2_000))
    assert result.status == "lost" and result.nodes == 1


def test_hardest_deals_filters_by_mode_and_range(tmp_path):
    """The reader on a folder made here: the mode and the deal range are honoured, ties go to the smaller deal."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(
        {
            "deal": [1, 2, 3, 4, 1, 2],
            "mode": ["clear", "clear", "clear", "clear", "classic", "classic"],
            "nodes": [5, 50, 50, 500, 7, 3],
        }
    )
    pq.write_table(table, tmp_path / "chunk-00000001-00000004.parquet")
    (tmp_path / "_batch.json").write_text("{}")
    assert common.hardest_deals("clear", 2, None, tmp_path) == (4, 2)
    assert common.hardest_deals("clear", 2, 3, tmp_path) == (2, 3)
    assert common.hardest_deals("classic", 5, None, tmp_path) == (1, 2)


def test_run_all_writes_outside_the_tracked_results_and_explains_scaling():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import run_all
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    assert (ROOT / "benchmarks" / "results") not in run_all.DEFAULT_OUT.parents
    assert run_all.DEFAULT_OUT != ROOT / "benchmarks" / "results"
    rows = [
        {"workers": 1, "deals": 300, "wall_seconds": 4.0, "startup_seconds": 3.0, "deals_per_second": 75.0},
        {"workers": 2, "deals": 300, "wall_seconds": 5.4, "startup_seconds": 4.9, "deals_per_second": 55.6},
    ]
    note = run_all.scaling_note(rows)
    assert "dominates" in note and "91%" in note
    assert "busy" in run_all.load_text(1.7) and "load 1.70 per core" in run_all.load_text(1.7)


def test_bench_play_reports_the_cpu_seconds_of_each_game():
    """bench_play's row of a player: CPU seconds a game as mean, p95 and max, consistent with the total."""
    import bench_play  # benchmarks/bench_play.py

    row = bench_play.bench("random", "clear", [5, 33, 37], samples=2, nodes=300)
    assert row["games"] == 3 and row["policy"] == "random"
    assert row["cpu_mean"] == pytest.approx(row["cpu_seconds"] / 3) == pytest.approx(row["cpu_per_game"])
    assert 0 < row["cpu_mean"] <= row["cpu_max"] <= row["cpu_seconds"]
    assert row["cpu_p95"] <= row["cpu_max"]
    text = bench_play.cpu_text(row)
    assert text == f"{row['cpu_mean']:.2f}, {row['cpu_p95']:.2f}, {row['cpu_max']:.2f}"
    none = bench_play.bench("greedy", "clear", [], samples=2, nodes=300)
    assert (none["cpu_mean"], none["cpu_p95"], none["cpu_max"]) == (None, None, None)
    assert bench_play.cpu_text(none) == "-, -, -"


def test_the_cpu_summary_of_games():
    import numpy as np

    from scorpion_solver.batch.protocol import cpu_summary

    # p95 of 1..20 by linear interpolation: 19 + 0.05 * (20 - 19)
    assert cpu_summary(np.arange(1.0, 21.0)) == {"cpu_mean": 10.5, "cpu_p95": 19.05, "cpu_max": 20.0}
    assert cpu_summary(np.array([])) == {"cpu_mean": None, "cpu_p95": None, "cpu_max": None}


def test_the_learned_value_study_measures_a_pick_against_the_best():
    """benchmarks/learned_value.py: its error and rank correlation on hand-made numbers."""
    import learned_value
    import numpy as np

    assert learned_value.spearman(np.array([1.0, 2.0, 3.0]), np.array([10.0, 30.0, 20.0])) == pytest.approx(0.5)
    wins, trials = np.array([10.0, 40.0]), np.array([50.0, 50.0])
    exact = learned_value.errors(np.array([0.2, 0.8]), wins, trials)
    assert exact["rmse_vs_label"] == 0.0 and exact["spearman"] == pytest.approx(1.0)
    off = learned_value.errors(np.array([0.3, 0.7]), wins, trials, ranked=False)
    assert off["rmse_vs_label"] == pytest.approx(0.1) and off["spearman"] is None
    # the label's own variance, p(1-p)/(n-1) = 0.16/49, is taken out of the squared error 0.01
    assert off["rmse_vs_true_share"] == pytest.approx((0.01 - 0.16 / 49) ** 0.5, abs=1e-4)
