"""Each kind of folder is recognised: `stats` summarises a bound or losses folder, and a folder of the wrong
kind given where another is read is one `error:` line naming both kinds, never advice to delete valid data.

The committed folders under results/ are read, never written: a command that could write is given an --out
in tmp_path (and stops before it writes).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scorpion_cli import assert_user_error, run

from scorpion_solver.batch import studies

RESULTS = Path(__file__).resolve().parents[1] / "results"
BOUND = RESULTS / "bound-1-1000-clear+classic-k100-s0"
LOSSES = RESULTS / "losses-play-1-2000-clear+classic-commit-k100-n1000-x5-s0-k50"
PLAY = RESULTS / "play-1-10000-clear+classic-greedy-s0"
SOLVED = RESULTS / "deals-1-100000-wasp"


def test_stats_of_a_bound_folder_is_its_summary():
    result = run("stats", BOUND)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"{BOUND}: UB_1 of deals 1-1000, modes clear, classic; samples 100, nodes 200000, seed 0",
        "| mode | deals | UB_1 (upper estimate, 95% CI) | split estimate | thoughtful rate |",
        "|---|---|---|---|---|",
        "| clear | 1,000 | 11.88% (11.25% - 12.53%) | 11.30% | 11.30% |",
        "| classic | 1,000 | 9.53% (8.97% - 10.12%) | 9.42% | 9.40% |",
    ]
    assert result.stderr == ""


def test_stats_json_of_a_bound_folder_is_the_bound_vocabulary():
    result = run("stats", BOUND, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["folder"] == str(BOUND) and list(data["modes"]) == ["clear", "classic"]
    clear = data["modes"]["clear"]
    assert (clear["deals"], round(clear["upper"], 4), clear["thoughtful_rate"]) == (1000, 0.1188, 0.113)


def test_stats_of_a_losses_folder_is_its_summary():
    result = run("stats", LOSSES)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == (
        f"{LOSSES}: decision losses of the 421 games of play-1-2000-clear+classic-commit-k100-n1000-x5-s0 "
        "(policy commit); samples 50, nodes 20000, exact_unseen 5"
    )
    assert "| clear | build | 5,882 | 0.0005 | 0.0128 | 0.0002 (1,079) |" in lines
    assert "| classic | tail | 156 | 0.0005 | 0.0004 | 0.0000 (26) |" in lines
    assert (
        lines.count("| mode | kind | decisions | sampled loss, mean | sampled loss per game | exact loss, mean (n) |")
        == 1
    )
    data = json.loads(run("stats", LOSSES, "--json").stdout)
    assert data == {"folder": str(LOSSES), "modes": studies.loss_summary(LOSSES)}


@pytest.mark.parametrize("folder", [BOUND, LOSSES], ids=["bound", "losses"])
def test_a_study_folder_is_not_paired(folder):
    kind = "bound" if folder == BOUND else "losses"
    assert_user_error(
        run("stats", folder, "--against", SOLVED),
        f"error: {folder} is a {kind} folder (made by scorpion {kind}): --against and --pair pair results folders "
        "(made by scorpion batch) or play folders (made by scorpion play)",
    )


def test_a_results_folder_pairs_only_with_results_folders():
    line = assert_user_error(run("stats", SOLVED, "--against", PLAY))
    assert line == (
        f"error: --against with the results folder {SOLVED} reads a results folder (made by scorpion batch), "
        f"and {PLAY} is a play folder (made by scorpion play), read by scorpion stats DIR [--against PLAYDIR], "
        "scorpion losses DIR"
    )
    line = assert_user_error(run("stats", SOLVED, "--against", BOUND))
    assert f"and {BOUND} is a bound folder (made by scorpion bound), read by scorpion stats DIR" in line


def test_a_play_folder_pairs_only_with_play_folders():
    line = assert_user_error(run("stats", PLAY, "--against", SOLVED))
    assert line == (
        f"error: --against with the play folder {PLAY} reads a play folder (made by scorpion play), "
        f"and {SOLVED} is a results folder (made by scorpion batch), read by scorpion stats DIR [--against DIR2]"
    )


@pytest.mark.parametrize("folder", [SOLVED, BOUND, LOSSES], ids=["results", "bound", "losses"])
def test_losses_reads_only_a_play_folder(folder, tmp_path):
    out = tmp_path / "losses"
    line = assert_user_error(run("losses", folder, "--out", out))
    assert line.startswith(f"error: scorpion losses reads a play folder (made by scorpion play), and {folder} is a")
    assert "delete" not in line and not out.exists()


@pytest.mark.parametrize(
    "args",
    [("stats", BOUND), ("stats", LOSSES), ("stats", SOLVED, "--against", PLAY), ("stats", PLAY, "--against", SOLVED)],
)
def test_no_valid_folder_is_called_damaged(args):
    result = run(*args)
    assert "damaged" not in result.stderr and "delete" not in result.stderr
