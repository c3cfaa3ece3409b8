"""What a newcomer's trial of the command line tripped over (issue 49, items 1-10): each is refused in one line,
or does what it says.

The committed folders under results/ are read, never written: a command that could write is given an --out in
tmp_path.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from scorpion_cli import assert_user_error, run

from scorpion_solver.batch import studies
from scorpion_solver.play.intervals import wilson_interval

RESULTS = Path(__file__).resolve().parents[1] / "results"
BOUND = RESULTS / "bound-1-1000-clear+classic-k100-s0"
LOSSES = RESULTS / "losses-play-1-2000-clear+classic-commit-k100-n1000-x5-s0-k50"
PLAY = RESULTS / "play-1-10000-clear+classic-greedy-s0"
COMMIT = [RESULTS / f"play-1-2000-clear+classic-commit-k100-n1000-x5-s{seed}" for seed in range(3)]
HOP = [RESULTS / f"play-1-2000-clear+classic-hop-k100-n1000-s{seed}" for seed in range(3)]
KINDS = {BOUND: "a bound folder", LOSSES: "a losses folder", PLAY: "a play folder"}

# A view with three unseen cards (tests/test_exact.py): its exact value is 2/3.
GUESS = """
col1: ?? ?? 3C 2C AC QC JC TC 9C 8C 7C 6C
col2: ?? 5C 4C KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H
col3: 2D AD
col4: KD QD JD TD 9D 8D 7D 6D 5D 4D
col5:
col6: KS QS JS TS 9S
col7: KC 7S 6S 5S 4S 3S 2S AS
tail: -
"""


# --------------------------------------------------------------------------
# 1. stats with several DIRs of a bound or losses folder first


@pytest.mark.parametrize(
    "first, second", [(BOUND, LOSSES), (BOUND, PLAY), (LOSSES, PLAY), (BOUND, BOUND)], ids=["b-l", "b-p", "l-p", "b-b"]
)
def test_stats_refuses_a_study_folder_with_other_folders(first, second):
    line = assert_user_error(run("stats", first, second))
    assert f"{first} is {KINDS[first]}" in line and f"{second} is {KINDS[second]}" in line


# --------------------------------------------------------------------------
# 2. hint --fair --exact honours --time and --memory


def test_hint_fair_exact_stops_at_its_time_limit(tmp_path):
    path = tmp_path / "guess.txt"
    path.write_text(GUESS)
    result = run("hint", path, "--fair", "--exact", "--time", "0.000001")
    assert result.exit_code == 0, result.output
    assert "exact value: unknown (stopped by the time limit)" in result.stdout
    assert "2/3" not in result.stdout  # no value that the limit did not let it finish
    data = json.loads(run("hint", path, "--fair", "--exact", "--time", "0.000001", "--json").stdout)
    assert (data["stopped_by"], data["exact_value"]) == ("time", None)


def test_hint_fair_exact_gives_each_solve_its_memory(tmp_path, monkeypatch):
    from scorpion_solver.solver import search

    seen = []
    real = search.solve

    def recording(position, rules, limits, **kw):
        seen.append(limits.memory_mb)
        return real(position, rules, limits, **kw)

    monkeypatch.setattr(search, "solve", recording)
    path = tmp_path / "guess.txt"
    path.write_text(GUESS)
    result = run("hint", path, "--fair", "--exact", "--memory", "3")
    assert result.exit_code == 0, result.output
    assert "exact value: 66.7% (2/3)" in result.stdout
    assert seen and set(seen) == {3}


# --------------------------------------------------------------------------
# 3. stats A-s* --against B-s*, as a shell expands it


def test_stats_against_takes_a_players_seeds_as_a_glob_gives_them():
    glob = run("stats", *COMMIT, "--against", HOP[0], *HOP[1:])
    assert glob.exit_code == 0, glob.output
    spelled = run("stats", *COMMIT, *(a for f in HOP for a in ("--against", f)))
    assert spelled.exit_code == 0, spelled.output
    assert glob.stdout == spelled.stdout
    assert "(seeds 0, 1, 2)" in glob.stdout and HOP[0].name in glob.stdout


# --------------------------------------------------------------------------
# 4. bound --results BAD is refused before any work


def test_bound_refuses_a_bad_results_folder_before_any_work(tmp_path):
    out = tmp_path / "bound"
    assert_user_error(
        run("bound", "5", "--samples", 2, "--results", tmp_path, "--out", out, "--workers", 1),
        f"{tmp_path} holds no exact results",
    )
    assert not out.exists()


# --------------------------------------------------------------------------
# 5. options that are accepted and do nothing


@pytest.mark.parametrize("folder", [PLAY, BOUND, LOSSES], ids=["play", "bound", "losses"])
def test_stats_top_is_refused_where_no_hardest_deals_are_listed(folder):
    assert_user_error(run("stats", folder, "--top", 3), "--top is an option of stats on a results folder")


def test_stats_top_is_refused_for_play_folders_against_another():
    assert_user_error(run("stats", COMMIT[0], "--against", HOP[0], "--top", 3), "--top")


@pytest.mark.parametrize("option", [("--nodes", 1000), ("--memory", 16), ("--time", 5)])
def test_show_refuses_a_budget_without_anything_to_solve(tmp_path, option):
    out = tmp_path / "page.html"
    assert_user_error(run("show", 5, "--html", out, *option), f"{option[0]} is an option of --solution, --hint")
    assert not out.exists()


def test_play_greedy_refuses_a_seed():
    assert_user_error(run("play", 5, "--policy", "greedy", "--seed", 3), "--seed is an option of a policy that draws")


def test_solve_refuses_debug_with_shortest_and_solution_with_json():
    assert_user_error(run("solve", 5, "--shortest", "--debug"), "--debug is an option of a solve without --shortest")
    assert_user_error(run("solve", 5, "--json", "--solution"), "--solution is an option of text output")


# --------------------------------------------------------------------------
# 6. perft --depth 0


def test_perft_depth_zero_counts_the_empty_sequence():
    for engine in ("jit", "reference"):
        result = run("perft", 5, "--depth", 0, "--engine", engine)
        assert (result.exit_code, result.stdout, result.stderr) == (0, "depth 0: 1\n", "")


# --------------------------------------------------------------------------
# 7. the JSON of `deal N --json` is deal N


def test_the_json_of_a_deal_is_that_deal(tmp_path):
    path = tmp_path / "deal5.json"
    path.write_text(run("deal", 5, "--json").stdout)
    from_file = run("play", path, "--policy", "random", "--seed", 4)
    from_number = run("play", 5, "--policy", "random", "--seed", 4)
    assert from_file.exit_code == 0, from_file.output
    # the same game, seeded from deal 5 and not from deal 0 (the last line holds the seconds)
    assert from_file.stdout.splitlines()[:2] == from_number.stdout.splitlines()[:2]
    assert from_file.stdout.startswith("deal 5, clear, random:")
    record = json.loads(run("play", path, "--policy", "random", "--seed", 4, "--json").stdout)
    assert (
        record["deal"] == 5
        and record["moves"] == json.loads(run("play", 5, "--policy", "random", "--seed", 4, "--json").stdout)["moves"]
    )
    solved = run("solve", path, "--json")
    assert json.loads(solved.stdout)["deal"] == 5
    assert run("hint", path, "--fair", "--samples", 3).stdout.startswith("deal 5, clear:")


def test_a_json_naming_another_deal_than_its_cards_is_refused(tmp_path):
    data = json.loads(run("deal", 5, "--json").stdout)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(dict(data, deal=6)))
    assert_user_error(run("solve", path), f"{path} names deal 6, but its cards are not deal 6's in clear")
    path.write_text(json.dumps(dict(data, deal=None)))
    result = run("solve", path)
    assert result.exit_code == 0 and result.stdout.startswith(f"{path} clear: won")


# --------------------------------------------------------------------------
# 8. a range past PySolFC's largest game


def test_a_range_past_pysolfc_largest_game_is_refused_up_front():
    result = assert_user_error(run("solve", "1-100000000000000000001"), "beyond PySolFC's largest game number")
    assert result


# --------------------------------------------------------------------------
# 9. bound's interval on a few deals


def test_bound_interval_keeps_its_width_on_a_few_deals(tmp_path, monkeypatch):
    rows = [
        {"deal": d, "mode": "clear", "upper": 0.0, "split": 0.0, "pair_unknown": 0, "cpu_seconds": 1.0}
        for d in (1, 2, 3)
    ]
    monkeypatch.setattr(studies, "read_study_folder", lambda out: pa.Table.from_pylist(rows))
    monkeypatch.setattr(studies, "read_metadata", lambda out: {"settings": {"samples": 10}})
    (line,) = studies.bound_summary(tmp_path)
    assert (line.upper, line.upper_low, line.upper_high) == (0.0, 0.0, pytest.approx(wilson_interval(0, 3)[1]))
    assert line.upper_high == pytest.approx(0.5615, abs=1e-4)
    ones = [dict(r, upper=u) for r, u in zip(rows, (0.2, 0.2, 0.2))]
    monkeypatch.setattr(studies, "read_study_folder", lambda out: pa.Table.from_pylist(ones))
    (line,) = studies.bound_summary(tmp_path)
    # every deal's share alike: the 30 layouts in all are the observations
    assert (line.upper_low, line.upper_high) == pytest.approx(wilson_interval(6, 30))
    assert np.isclose(line.upper, 0.2)


# --------------------------------------------------------------------------
# issue 48 item 8: value_ties needs a learned model


@pytest.mark.parametrize("mode", ["wasp", "scorpion2", "goodsol"])
def test_value_ties_is_refused_for_a_preset_without_a_learned_model(mode, tmp_path):
    for source in ("5", "1-3"):  # one game, and a run that would write a folder
        out = tmp_path / f"play-{mode}"
        line = assert_user_error(
            run("play", source, "--policy", "commit2", "--option", "value_ties=1", "--mode", mode, "--out", out)
            if source != "5"
            else run("play", source, "--policy", "commit2", "--option", "value_ties=1", "--mode", mode),
            f"{mode} has none (the presets with one: clear, classic)",
        )
        assert line.startswith("error: --option value_ties=1") and not out.exists()


# --------------------------------------------------------------------------
# 10. messages: a wrong-kind --out names the kinds; a --no-x switch is named as typed

SOLVED = RESULTS / "deals-1-100000-wasp"


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("batch", "1-2", "--out", PLAY), f"{PLAY} is a play folder (made by scorpion play), not a results folder"),
        (
            ("play", "1-2", "--policy", "random", "--out", SOLVED),
            f"{SOLVED} is a results folder (made by scorpion batch), not a play folder",
        ),
        (
            ("bound", "1-2", "--out", SOLVED),
            f"{SOLVED} is a results folder (made by scorpion batch), not a bound folder",
        ),
    ],
    ids=["batch", "play", "bound"],
)
def test_a_wrong_kind_out_names_the_kinds(args, fragment):
    line = assert_user_error(run(*args), fragment)
    assert "format" not in line and "scorpion-" not in line


def test_a_no_switch_is_named_as_typed():
    assert_user_error(run("play", 5, "--policy", "random", "--no-progress"), "--no-progress is an option of a RANGE")
    assert_user_error(run("solve", 5, "--no-color"), "--no-color is an option of --walkthrough")
    assert_user_error(run("solve", 5, "--color"), "--color is an option of --walkthrough")


# --------------------------------------------------------------------------
# issue 48 item 7: two identical runs on a new folder


def test_two_identical_batches_on_a_new_folder_solve_each_chunk_once(tmp_path):
    import re
    import subprocess

    from scorpion_cli import SCORPION

    out = tmp_path / "race"
    command = [*SCORPION, "batch", "1-40", "--chunk", "2", "--nodes", "2000", "--mode", "clear"]
    command += ["--out", str(out), "--workers", "1", "--no-progress"]
    runs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=600), *p.communicate()) for p in runs]
    written = 0
    for status, stdout, stderr in results:
        if status == 0:
            written += int(re.search(r"; (\d+) chunks written now", stdout).group(1))
        else:  # the loser of the race is told, in one line, and writes nothing
            assert status == 2 and stderr.strip() == f"error: another scorpion batch is writing to {out}", stderr
    assert written == 20  # every chunk of the plan solved once, not twice
    meta = json.loads((out / "_batch.json").read_text())
    assert len(meta["runs"]) == 1 and meta["runs"][0]["chunks_todo"] == 20  # the run that wrote is recorded
    assert len(list(out.glob("chunk-*.parquet"))) == 20


def test_a_run_reads_a_new_folder_only_under_its_lock(tmp_path, monkeypatch):
    """The other run gets in while this one loads the solver (the window before the fix): it must find the lock."""
    from scorpion_solver import batch
    from scorpion_solver.batch import Execution, resumable
    from scorpion_solver.batch.backends import LocalBackend
    from scorpion_solver.solver.result import Limits

    out = tmp_path / "race"
    settings = batch.BatchSettings(batch.parse_range("1-8"), ("clear",), Limits(nodes=2000), 2)
    how = Execution(lambda: LocalBackend(1), progress=False)
    real_warm_up, other, started = resumable.warm_up, [], []

    def warm_up_while_another_runs(modes, progress, *more):
        if not started:  # the other, identical run, from start to end, while this one loads
            started.append(True)
            try:
                other.append(batch.run_batch(settings, out, how).written)
            except batch.BatchError as exc:
                other.append(str(exc))
        return real_warm_up(modes, progress, *more)

    monkeypatch.setattr(resumable, "warm_up", warm_up_while_another_runs)
    mine = batch.run_batch(settings, out, how)
    if isinstance(other[0], int):  # it ran to the end first: this run has nothing left to solve
        assert (other[0], mine.written) == (4, 0)
    else:
        assert other == [f"another scorpion batch is writing to {out}"] and mine.written == 4
    runs = json.loads((out / "_batch.json").read_text())["runs"]
    assert len(runs) == 1 and runs[0]["chunks_todo"] == 4
