"""What the command line says to a user: what a deal number is, JSON sources everywhere, no option ignored in
silence, and counts written as words and numbers are (issue 39, items 2, 3, 4 and 7)."""

from __future__ import annotations

import re

import pytest
from scorpion_cli import assert_user_error, run

from scorpion_solver.game.deal import DEAL_NUMBER

SOURCE = (
    "a SOURCE is a deal number (a whole number from 1 to 10^20, a PySolFC game number), a position file (text, "
    "or the JSON of deal --json) or - (standard input)"
)
SOLVE_SOURCE = SOURCE.replace("), a position file", "), a range N-M (like 1-100), a position file")

# ---------------------------------------------------------------------------
# item 2: a deal number or range that is none


@pytest.mark.parametrize("text", ["abc", "1e30", "5x", "1-", "1-3x"])
def test_solve_says_what_a_deal_number_or_range_is(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no file of that name
    assert assert_user_error(run("solve", text)) == f"error: cannot read {text}: no such file; {SOLVE_SOURCE}"


@pytest.mark.parametrize("command", [["hint"], ["analyze", "--moves", "tail"], ["perft", "--depth", "1"], ["replay"]])
def test_every_source_says_what_a_source_is(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = assert_user_error(run(command[0], "abc", *command[1:]))
    assert line == f"error: cannot read abc: no such file; {SOURCE}"


@pytest.mark.parametrize("command", [["solve", "-1"], ["solve", "-7"], ["hint", "-3"], ["perft", "-1", "--depth", "1"]])
def test_a_negative_deal_number_is_not_an_unknown_option(command):
    number = command[1]
    assert assert_user_error(run(*command)) == f"error: '{number}' is not a deal number ({DEAL_NUMBER})"


def test_deal_says_the_same_of_a_deal_number():
    assert assert_user_error(run("deal", "abc")) == f"error: 'abc' is not a deal number ({DEAL_NUMBER})"


def test_a_missing_file_that_looks_like_one_is_still_named(tmp_path):
    missing = tmp_path / "position.txt"
    assert assert_user_error(run("solve", missing)) == f"error: cannot read {missing}: no such file; {SOLVE_SOURCE}"


# ---------------------------------------------------------------------------
# item 3: the JSON of `deal --json` is a SOURCE everywhere


def test_play_plays_the_json_of_deal(tmp_path):
    path = tmp_path / "deal5.json"
    path.write_text(run("deal", "5", "--json").stdout)
    from_json = run("play", path, "--policy", "greedy")
    from_number = run("play", "5", "--policy", "greedy")
    assert from_json.exit_code == 0, from_json.output
    first, *rest = from_json.stdout.splitlines()
    assert first == "deal 5, clear, greedy: lost (proved-lost) after 12 moves"  # the JSON names its deal
    assert first == from_number.stdout.splitlines()[0]
    assert rest[0] == from_number.stdout.splitlines()[1]  # the same moves


@pytest.mark.parametrize(
    "command",
    [
        ["solve"],
        ["hint"],
        ["hint", "--fair", "--samples", "2"],
        ["analyze", "--moves", "5H:1>3"],
        ["perft", "--depth", "2"],
        ["replay", "5H:1>3"],
        ["show", "--html", "{tmp}/page.html"],
        # greedy needs no seed: a file plays as deal 0 under the one seed rule, deal 5 as deal 5
        ["play", "--policy", "greedy"],
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_every_source_command_reads_the_json_of_deal(command, tmp_path):
    path = tmp_path / "deal5.json"
    path.write_text(run("deal", "5", "--json").stdout)
    args = [a.replace("{tmp}", str(tmp_path)) for a in command[1:]]
    from_json, from_number = run(command[0], path, *args), run(command[0], "5", *args)
    assert from_json.exit_code == 0, from_json.output
    # the same answer, the source's name and the seconds aside
    assert same_but_names_and_seconds(from_json.stdout, path) == same_but_names_and_seconds(from_number.stdout, path)


def same_but_names_and_seconds(text: str, path) -> str:
    text = text.replace(str(path), "SOURCE").replace("deal5.json", "SOURCE").replace("deal 5", "SOURCE")
    return re.sub(r"\b[0-9.]+ s\b", "S s", text)


# ---------------------------------------------------------------------------
# item 4: no option is ignored in silence


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["solve", "5", "--walkthrough", "--json"],
            "--walkthrough prints text: give --walkthrough or --json, not both",
        ),
        (["solve", "5", "--layout", "columns"], "--layout is an option of --walkthrough"),
        (["solve", "5", "--layout", "rows"], "--layout is an option of --walkthrough"),
        (["solve", "5", "--color"], "--color is an option of --walkthrough"),
        (
            ["hint", "5", "--samples", "3"],
            "--samples is an option of --fair (which samples layouts of the hidden cards)",
        ),
        (["hint", "5", "--seed", "1"], "--seed is an option of --fair (which samples layouts of the hidden cards)"),
        (
            ["hint", "5", "--fair", "--exact", "--samples", "3"],
            "--samples is an option of --fair without --exact (--exact weighs every arrangement, it samples none)",
        ),
        (["hint", "5", "--max-unseen", "3"], "--max-unseen is an option of --fair --exact"),
        (["hint", "5", "--fair", "--max-unseen", "3"], "--max-unseen is an option of --fair --exact"),
        (
            ["play", "5", "--policy", "random", "--samples", "4"],
            "--samples is an option of --policy hop, commit, commit2",
        ),
        (["play", "5", "--policy", "greedy", "--nodes", "40"], "--nodes is an option of --policy hop, commit, commit2"),
        (
            ["play", "1-3", "--policy", "random", "--samples", "4"],
            "--samples is an option of --policy hop, commit, commit2",
        ),
        (
            ["play", "5", "--policy", "greedy", "--out", "{tmp}/games"],
            "--out is an option of a RANGE (one game prints its record; it writes no folder)",
        ),
        (
            ["play", "5", "--policy", "greedy", "--play-lost"],
            "--play-lost is an option of a RANGE (one game prints its record; it writes no folder)",
        ),
    ],
)
def test_an_option_that_would_be_ignored_is_refused(args, message, tmp_path):
    result = run(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert assert_user_error(result) == f"error: {message}"
    assert not (tmp_path / "games").exists()


def test_the_options_still_work_where_they_mean_something():
    walk = run("solve", "5", "--walkthrough", "--layout", "columns", "--no-color")
    assert walk.exit_code == 0 and "won" in walk.stdout.splitlines()[0]
    assert run("hint", "5", "--fair", "--samples", "2", "--seed", "1").exit_code == 0
    assert run("play", "5", "--policy", "hop", "--samples", "2", "--nodes", "200").exit_code == 0


# ---------------------------------------------------------------------------
# item 7: counts read as words and numbers do


def test_one_of_a_thing_is_singular():
    assert run("solve", "1").stdout.startswith("deal 1 clear: lost [1 node, ")
    assert run("replay", "1", "tail").stdout.splitlines()[-1] == "# 1 move played; the game is in play"


def test_a_game_record_counts_in_words(tmp_path):
    line = run("play", "5", "--policy", "greedy").stdout.splitlines()
    assert line[0] == "deal 5, clear, greedy: lost (proved-lost) after 12 moves"
    assert line[2].startswith("[12 decisions, 0 solves, 0 nodes, ")


def test_a_play_folder_names_its_policy_once_and_counts_with_separators():
    folder = "results/play-1-10000-clear+classic-greedy-s0"
    lines = run("stats", folder).stdout.splitlines()
    assert lines[1] == "policy: greedy, seed 0, reductions deadlock, move_cap 400, proof_nodes 20000, skip_lost True"
    assert lines[6].startswith("| clear | 10,000 | 1,246 | 572 | 5.72% ")


def test_big_counts_have_thousands_separators():
    # the hardest classic deal of 1-1,000,000 (results/deals-1-1000000.stats.txt: 216,647 nodes)
    result = run("solve", "116173-116174", "--mode", "classic")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("deal 116173 classic: lost [216,647 nodes, ")
    assert lines[2].startswith("2 solves: classic: 0 won, 2 lost, 0 unknown [216,648 nodes, ")
