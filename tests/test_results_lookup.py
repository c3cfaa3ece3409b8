"""The committed results are found wherever a command runs, and no rate is ever computed from nothing.

``scorpion play RANGE`` and ``scorpion deals`` read the exact verdicts of
``results/deals-1-1000000`` (``play`` reads a relative's from its own
``deals-1-100000-MODE`` beside it): from ``--results``, ``$SCORPION_RESULTS``,
``./results`` or the checkout the package runs from, and refuse clearly when
there are none. A play folder without verdicts shows its thoughtful rate as
unknown, never 0%; a chunk file missing a column is one error naming both;
``stats PLAYDIR --against`` is refused, not ignored.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from scorpion_cli import assert_user_error, run

from scorpion_solver.batch import play_runs
from scorpion_solver.batch.stats import mcnemar

ROOT = Path(__file__).resolve().parents[1]


def test_the_checkout_results_are_found_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(play_runs.RESULTS_ENV, raising=False)
    assert play_runs.find_results() == ROOT / "results"
    listed = run("deals", "--winnable", "-n", "3", "--grade", "easy")
    assert listed.exit_code == 0, listed.output
    assert [line.split("\t")[1] for line in listed.stdout.splitlines()] == ["easy"] * 3


def test_no_results_anywhere_is_refused_by_play_and_deals(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(play_runs, "results_candidates", lambda: [tmp_path / "results"])
    message = assert_user_error(run("play", "1-20", "--policy", "random", "--no-progress", "--workers", "1"))
    assert "no" in message and "--results DIR" in message and "--play-lost" in message
    assert not (tmp_path / "results").exists()  # nothing played, no folder left behind
    message = assert_user_error(run("deals", "--winnable"))
    assert "deals-1-1000000" in message and "--results DIR" in message


def test_an_explicit_results_folder_must_hold_the_verdicts(tmp_path):
    message = assert_user_error(run("deals", "--winnable", "--results", tmp_path))
    assert f"{tmp_path} holds no exact results" in message
    listed = run("deals", "--winnable", "--results", ROOT / "results", "-n", "2", "--mode", "classic", "--json")
    assert listed.exit_code == 0 and len(json.loads(listed.stdout)["deals"]) == 2


def test_deals_without_a_grade_come_from_the_graded_deals(tmp_path):
    listed = run("deals", "--winnable", "-n", "40", "--seed", "3", "--json")
    assert listed.exit_code == 0, listed.output
    grades = [d["grade"] for d in json.loads(listed.stdout)["deals"]]
    assert len(grades) == 40 and set(grades) <= {"easy", "medium", "hard"}


def test_a_play_folder_without_verdicts_has_an_unknown_thoughtful_rate(tmp_path, monkeypatch):
    monkeypatch.setattr(play_runs, "results_candidates", lambda: [tmp_path / "nowhere"])
    out = tmp_path / "play"
    done = run("play", "1-6", "--policy", "random", "--play-lost", "--out", out, "--no-progress", "--workers", "1")
    assert done.exit_code == 0, done.output
    stats = run("stats", out)
    assert stats.exit_code == 0, stats.output
    row = next(line for line in stats.stdout.splitlines() if line.startswith("| clear |"))
    assert "unknown (no exact verdicts)" in row and "0.00% (" not in row.split("|")[6]
    summary = json.loads(run("stats", out, "--json").stdout)["modes"]["clear"]
    assert summary["thoughtful_rate"] is None and summary["ratio"] is None
    assert summary["thoughtful_unknown"] == 6


def test_stats_of_a_play_folder_pairs_it_with_another_play_folder_only(tmp_path):
    folder = ROOT / "results" / "play-1-2000-clear+classic-commit-k100-n1000-x5-s0"
    hop = ROOT / "results" / "play-1-2000-clear+classic-hop-k100-n1000-s0"
    message = assert_user_error(run("stats", folder, "--against", ROOT / "results" / "deals-1-1000000"))
    assert message.startswith(f"error: --against with the play folder {folder} reads a play folder")
    assert "deals-1-1000000 is a results folder (made by scorpion batch)" in message
    message = assert_user_error(run("stats", folder, "--pair", "clear:wasp"))
    assert "is a play folder" in message and "--pair" in message
    paired = json.loads(run("stats", folder, "--against", hop, "--json").stdout)["paired"][0]["modes"]
    # results/README.md: commit won 40 Clear runs deals hop K=100 lost and lost 31 it won; classic 22 and 10
    assert [(m["deals"], m["first_better"], m["second_better"]) for m in paired.values()] == [
        (230, 40, 31),
        (191, 22, 10),
    ]
    # one seed each: the sign-flip test is the exact McNemar test
    assert [m["p_value"] for m in paired.values()] == pytest.approx(
        [mcnemar(40, 31, exact_below=10**9).p_value, mcnemar(22, 10, exact_below=10**9).p_value], rel=1e-9
    )
    text = run("stats", folder, "--against", hop).stdout
    assert "| clear | 230 | 64.35% | 60.43% | 40 | 31 | 0.342 |" in text


def test_a_relatives_verdicts_come_from_its_own_folder(tmp_path):
    # Three Blind Mice deals 1-12: results/deals-1-100000-mice has 3 and 4 won, the rest lost to 12
    assert play_runs.verdict_folders(ROOT / "results" / play_runs.EXACT_NAME, ("clear", "mice", "nomode")) == {
        "clear": ROOT / "results" / "deals-1-1000000",
        "mice": ROOT / "results" / "deals-1-100000-mice",
    }
    out = tmp_path / "play"
    done = run("play", "1-12", "--mode", "mice", "--policy", "random", "--out", out, "--no-progress", "--workers", "1")
    assert done.exit_code == 0, done.output
    assert "shown lost by " in done.output and "deals-1-100000-mice" in done.output
    rows = play_runs.read_play_folder(out).to_pylist()
    assert [r["deal"] for r in rows if r["thoughtful"] == "won"] == [3, 4]
    assert all(r["played"] == (r["thoughtful"] == "won") for r in rows)
    summary = json.loads(run("stats", out, "--json").stdout)["modes"]["mice"]
    assert (summary["thoughtful_rate"], summary["thoughtful_unknown"]) == (pytest.approx(2 / 12), 0)


@pytest.mark.parametrize("column", ["status", "mode"])
def test_a_chunk_missing_a_column_is_one_error_naming_chunk_and_column(tmp_path, column):
    out = tmp_path / "f"
    assert run("batch", "1-8", "--chunk", "4", "--nodes", "200", "--workers", "1", "--out", out).exit_code == 0
    damaged = out / "chunk-00000005-00000008.parquet"
    pq.write_table(pq.read_table(damaged).drop([column]), damaged)
    message = assert_user_error(run("stats", out))
    assert str(damaged) in message and f"no '{column}' column" in message
