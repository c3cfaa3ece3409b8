"""Small traps of the command line, each as a user meets it.

A closed pipe ends a command quietly; ``--help`` shows every summary whole;
an output folder that does not exist, or a folder that is not a results
folder, is refused instead of being made or written beside; a file that is
not the results folder and cannot be written is named as what it is; deal
numbers stop at PySolFC's largest game number; a page that holds no hidden
card offers no box to show them.
"""

from __future__ import annotations

import errno
import subprocess
from pathlib import Path

from scorpion_cli import SCORPION, assert_user_error, run

from scorpion_solver import batch
from scorpion_solver.game.deal import PYSOLFC_MAX_GAME, deal
from scorpion_solver.game.position_text import format_position
from scorpion_solver.game.rules import CLEAR


def test_a_closed_pipe_ends_the_command_quietly():
    command = " ".join([*SCORPION, "solve", "1-3000", "--nodes", "100"]) + " | head -1"
    done = subprocess.run(["bash", "-c", "set -o pipefail; " + command], capture_output=True, text=True, timeout=300)
    assert done.stdout.startswith("deal 1 clear: lost [1 node,") and done.stdout.count("\n") == 1
    assert done.stderr == "", done.stderr  # no 'error: Broken pipe', no 'Exception ignored'
    assert done.returncode in (0, 141)


def test_the_help_shows_every_summary_whole():
    listing = run("--help").stdout
    replay_line = next(line for line in listing.splitlines() if line.strip().startswith("replay"))
    assert "e.g." not in replay_line and replay_line.rstrip().endswith(("result;", "advance a", "view."))
    for line in listing.splitlines():
        assert not line.rstrip().endswith("(e.g."), line


def test_a_page_into_a_missing_folder_is_refused(tmp_path):
    out = tmp_path / "no-such-folder" / "deal5.html"
    message = assert_user_error(run("show", 5, "--html", out))
    assert f"cannot write {out}: there is no folder {out.parent}" in message
    assert not out.parent.exists()


def test_a_batch_or_play_into_a_folder_that_is_not_a_results_folder_is_refused(tmp_path):
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "thesis.tex").write_text("\\documentclass{article}")
    for args in (["batch", "1-4", "--out", folder], ["play", "1-4", "--policy", "random", "--out", folder]):
        message = assert_user_error(run(*args))
        assert f"{folder} is not a results folder" in message and "thesis.tex" in message
    assert sorted(p.name for p in folder.iterdir()) == ["thesis.tex"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run("batch", "1-2", "--nodes", "100", "--workers", "1", "--out", empty, "--no-progress").exit_code == 0


def test_a_write_that_fails_outside_the_results_folder_is_named_as_such(tmp_path, monkeypatch):
    cache = tmp_path / "site-packages" / "scorpion_solver" / "solver" / "__pycache__" / "kernel.search-1.nbi"

    def refused(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(cache))

    monkeypatch.setattr(batch.resumable, "warm_up", refused)
    out = tmp_path / "out"
    message = assert_user_error(run("batch", "1-4", "--out", out, "--workers", "1", "--no-progress"))
    assert f"cannot write {cache}: Read-only file system (outside the results folder {out}" in message
    assert "cannot write the results folder" not in message


def test_deal_numbers_stop_at_pysolfc_largest_game():
    last = run("deal", PYSOLFC_MAX_GAME)
    assert last.exit_code == 0 and last.stdout == format_position(deal(PYSOLFC_MAX_GAME, CLEAR), CLEAR)
    for command in (["deal"], ["solve"], ["hint", "--fair"]):
        message = assert_user_error(run(command[0], PYSOLFC_MAX_GAME + 1, *command[1:]))
        assert "beyond PySolFC's largest game number (10^20" in message


def test_a_fair_page_offers_no_box_to_show_face_down_cards(tmp_path):
    fair = tmp_path / "fair.html"
    plain = tmp_path / "plain.html"
    assert run("show", 5, "--fair", "--samples", 2, "--nodes", 500, "--html", fair).exit_code == 0
    assert run("show", 5, "--html", plain).exit_code == 0
    assert 'id="peek"' not in fair.read_text() and "show face-down cards" not in fair.read_text()
    assert 'id="peek"' in plain.read_text()


def test_the_rules_page_says_which_preset_is_pysolfc_scorpion():
    rules = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text()
    assert '| PySolFC, game 29 "Scorpion" |' in rules
    row = next(line for line in rules.splitlines() if line.startswith('| PySolFC, game 29 "Scorpion" |'))
    assert row.rstrip().endswith("| `clear` |")
    assert "| cardgames.io Scorpion, that option off |" in rules
