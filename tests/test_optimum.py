"""`scorpion stats NOPEEKDIR --against PLAYDIR`: each player's share of the optimum V and its regret (issue 53).

The players are two committed, finished play folders of Three Blind Mice; the nopeek folder is written here
with values chosen by hand for deals whose games those folders hold, so every number below is worked out
from the definitions (batch/studies.py, optimum_shares), not read back from the code:

deal  V    S    hop (T, won)   commit2 (T, won)
2     1/4  1/4  lost, lost     lost, lost      (the arrangement dealt is lost: no gap)
3     1/2  3/4  won, won       won, won        (V < S: the expectimax's deal)
7     0    0    lost, lost     lost, lost      (dead)
140   1/2  1/2  won, won       won, LOST       (commit2's gap: 1)
190   unknown                                   (left out, counted)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from scorpion_cli import assert_user_error, run

from scorpion_solver.batch import studies
from scorpion_solver.play.intervals import wilson_interval

RESULTS = Path(__file__).resolve().parents[1] / "results"
HOP = RESULTS / "play-1-1000-mice-hop-k100-n1000-s0"
COMMIT2 = RESULTS / "play-1-1000-mice-commit2-k100-n1000-rt-s0"
SOLVED = RESULTS / "deals-1-100000-wasp"


def _row(deal: int, value: str | None, share: str | None, by: str) -> dict:
    exact = value is not None
    return {
        "deal": deal,
        "mode": "mice",
        "unseen": 9,
        "status": "exact" if exact else "unknown",
        "value": value,
        "share": share,
        "lower": value if exact else "0",
        "upper": value if exact else "1",
        "value_float": None,
        "lower_float": 0.0,
        "upper_float": 1.0,
        "stopped_by": "" if exact else "nodes",
        "solves": 1,
        "nodes": 1,
        "views": 1,
        "cpu_seconds": 1.0,
        "covered": value,
        "by": by,
    }


def _nopeek_folder(tmp_path: Path) -> Path:
    out = tmp_path / "nopeek"
    out.mkdir()
    shutil.copy(RESULTS / "nopeek-1-1000-mice" / "_batch.json", out / "_batch.json")
    rows = [
        _row(2, "1/4", "1/4", "cover"),
        _row(3, "1/2", "3/4", "expectimax"),
        _row(7, "0", "0", "dead"),
        _row(140, "1/2", "1/2", "cover"),
        _row(190, None, None, ""),
    ]
    pq.write_table(pa.Table.from_pylist(rows, schema=studies.NOPEEK_SCHEMA), out / "chunk-00000001-00000005.parquet")
    return out


def test_each_player_is_set_beside_the_optimum(tmp_path):
    folder = _nopeek_folder(tmp_path)
    result = run("stats", folder, "--against", HOP, "--against", COMMIT2, "--json")
    assert result.exit_code == 0, result.output
    hop, commit2 = (p["modes"]["mice"] for p in json.loads(result.stdout)["players"])
    for m in (hop, commit2):
        assert (m["deals"], m["value_unknown"], m["unfinished"]) == (4, 1, 0)
        assert (m["value_mean"], m["share_mean"]) == (0.3125, 0.375)
    # hop loses no winnable arrangement: its value is estimated at mean S, past V by deal 3's S - V (noise)
    assert (hop["won_mean"], hop["gap_mean"], hop["player_value"], hop["regret"]) == (0.5, 0.0, 0.375, -0.0625)
    # commit2 loses deal 140's winnable arrangement: value 0.375 - 1/4, regret 0.3125 - 0.125, share 0.125 / 0.3125
    assert (commit2["won_mean"], commit2["gap_mean"], commit2["player_value"]) == (0.25, 0.25, 0.125)
    assert commit2["regret"] == 0.1875 and abs(commit2["share_of_optimum"] - 0.4) < 1e-12
    low, high = wilson_interval(1, 4)  # one seed: the gap's interval is Wilson's, shifted by the mean S - V,
    assert high > 0.375  # and cut at the mean S (a player's value is never below 0)
    assert commit2["regret_interval"] == [low - 0.0625, 0.375 - 0.0625]
    assert commit2["share_interval"] == [0.0, (0.375 - low) / 0.3125]
    assert commit2["lost_with_value"] == [
        {"deal": 2, "exact_fraction": "1/4", "winnable": False, "won": 0},
        {"deal": 140, "exact_fraction": "1/2", "winnable": True, "won": 0},
    ]


def test_the_text_names_the_deal_a_player_lost_where_it_could_be_won(tmp_path):
    folder = _nopeek_folder(tmp_path)
    result = run("stats", folder, "--against", COMMIT2)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[-2] == (
        f"{COMMIT2.name}, mice: deals lost where V > 0: 2 (V = 1/4, lost arrangement, won 0 of 1), "
        "140 (V = 1/2, winnable arrangement, won 0 of 1)"
    )
    row = next(line for line in lines if line.startswith(f"| {COMMIT2.name} |"))
    assert row.startswith(f"| {COMMIT2.name} | mice | 4 | 0.3125 | 0.3750 | 0.2500 | 0.2500 | 0.1250 | 40.00% (")
    assert row.endswith(" | 1 |")


def test_a_nopeek_folder_is_set_beside_play_folders_only(tmp_path):
    folder = _nopeek_folder(tmp_path)
    line = assert_user_error(run("stats", folder, "--against", SOLVED))
    assert line.startswith(
        f"error: --against with the nopeek folder {folder} reads a play folder (made by scorpion play), "
        f"and {SOLVED} is a results folder"
    )
    assert_user_error(run("stats", folder, "--pair", "clear:mice"), "--pair pairs the presets of results folders")
    assert_user_error(run("stats", folder, "--against", tmp_path / "nowhere"), "not a folder")
