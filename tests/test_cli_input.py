"""What the command line refuses, in one line, and what it takes: budgets, deal numbers, seconds, sources, presets.

A user mistake is one ``error:`` line and exit status 2, never a traceback:
budgets and deal numbers beyond what the int64 columns hold, seconds that are
not a finite positive number, positions no deal can reach, a retry with the
budget that left the deals unknown, moves given twice, conflicting rules
presets, binary files and invisible characters. Beside the refusals, what the
command line takes: PySolFC's biggest deal numbers, ``-`` for standard input,
move records from a file, several presets where a command solves several.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from scorpion_cli import assert_user_error, run, small_folder

from scorpion_solver import batch
from scorpion_solver.cli import main
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import perft_divide
from scorpion_solver.game.position_text import format_position
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.solver.result import Limits

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------
# 1. a node budget the int64 columns cannot hold


@pytest.mark.parametrize("option", ["--nodes", "--memory"])
@pytest.mark.parametrize("command", ["batch", "solve", "hint"])
def test_budgets_beyond_int64_are_refused_before_any_work(tmp_path, command, option):
    out = tmp_path / "out"
    args = [command, "1-20" if command != "hint" else "1", option, "99999999999999999999"]
    if command == "batch":
        args += ["--out", out]
    assert_user_error(run(*args), f"Invalid value for '{option}'")
    assert not out.exists()  # nothing solved, no folder whose rerun would crash again


# ---------------------------------------------------------------------------
# 2. deal numbers of 2^63 and more


def test_batch_refuses_deals_beyond_int64_in_one_line(tmp_path):
    assert_user_error(run("batch", "100000000000000000000"), "2^63-1", "scorpion solve 100000000000000000000")
    assert_user_error(run("batch", "5-9223372036854775808"), "deal 9223372036854775808 is beyond")
    listed = tmp_path / "deals.txt"
    listed.write_text("# deals\n5\n9223372036854775808\n")
    assert_user_error(run("batch", listed), f"{listed} line 3", "beyond what a batch holds")
    assert batch.parse_range("9223372036854775807").numbers.tolist() == [2**63 - 1]


def test_solve_takes_the_big_pysolfc_numbers_in_ranges_too():
    result = run("solve", "9223372036854775807-9223372036854775808", "--nodes", 100)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("deal 9223372036854775807 clear: ")
    assert lines[1].startswith("deal 9223372036854775808 clear: ")
    assert run("deal", 2**64 + 5).stdout == format_position(deal(2**64 + 5, CLEAR), CLEAR)


# ---------------------------------------------------------------------------
# 3. --time nan (and inf): not a limit, and not JSON


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "0", "-1", "1e400"])
@pytest.mark.parametrize(
    "command", [["solve", "5"], ["batch", "1-2"], ["hint", "5"], ["analyze", "5", "--moves", "tail"]]
)
def test_non_finite_seconds_are_refused(command, value):
    assert_user_error(run(*command, "--time", value), "Invalid value for '--time'")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 0.0, -1.0])
def test_the_api_refuses_non_finite_seconds_too(value):
    with pytest.raises(ValueError, match="finite positive number of seconds"):
        Limits(seconds=value)
    assert Limits(seconds=0.5).seconds == 0.5


# ---------------------------------------------------------------------------
# 8. positions no deal can reach (more in test_position_text.py)


def test_face_down_cards_in_column_5_are_refused_by_every_command(tmp_path):
    text = format_position(deal(1)).replace("col5: 5D 5S", "col5: 5D* 5S")
    path = tmp_path / "p.txt"
    path.write_text(text)
    for command in (["solve", path], ["hint", path], ["perft", path, "-d", 1], ["replay", path]):
        assert_user_error(run(*command), "line 5: col5: 1 face-down cards, but clear deals no card")


# ---------------------------------------------------------------------------
# 12. --retry-unknown with the same budget


def test_retry_with_the_same_budget_says_the_budget_must_be_larger(tmp_path):
    out = small_folder(tmp_path / "u", deals="5-6", chunk=2, nodes=50)
    meta = json.loads((out / "_batch.json").read_text())
    assert meta["limits"]["nodes"] == 50
    unknown = batch.read_folder(out).to_pylist()
    assert sum(r["status"] == "unknown" for r in unknown) >= 1
    line = assert_user_error(run("batch", "5-6", "--retry-unknown", "--nodes", 50, "--out", out), "bigger one")
    assert "left unknown by this same budget" in line


# ---------------------------------------------------------------------------
# 13. one reader of move records


MOVES_FILE = """\
# deal 5, the start of its solution
9H:6>1 5H:1>3   # two moves on one line
2C:7>1
"""


def test_replay_and_analyze_read_the_same_record(tmp_path):
    path = tmp_path / "moves.txt"
    path.write_text(MOVES_FILE)
    from_file = run("replay", 5, "--moves-file", path)
    assert from_file.exit_code == 0, from_file.output
    assert from_file.stdout == run("replay", 5, "9H:6>1", "5H:1>3", "2C:7>1").stdout
    assert "# 3 moves played" in from_file.stdout
    analysed = run("analyze", 5, "--moves-file", path, "--json")
    assert json.loads(analysed.stdout)["moves_played"] == 3
    stdin = run("replay", 5, "--moves-file", "-", input=MOVES_FILE)
    assert stdin.stdout == from_file.stdout


def test_moves_on_the_command_line_and_in_a_file_are_refused_together(tmp_path):
    path = tmp_path / "moves.txt"
    path.write_text(MOVES_FILE)
    assert_user_error(run("replay", 5, "tail", "--moves-file", path), "not both")
    assert_user_error(run("analyze", 5, "--moves", "tail", "--moves-file", path), "not both")
    bad = tmp_path / "bad.txt"
    bad.write_text("9H:6>1\n# fine so far\n5H:1>3 XX:1>2\n")
    for command in (["replay", 5, "--moves-file", bad], ["analyze", 5, "--moves-file", bad]):
        assert_user_error(run(*command), f"{bad}, line 3: move 3: 'XX:1>2' is not a move")


# ---------------------------------------------------------------------------
# 14. one way to name rules presets


@pytest.mark.parametrize(
    "command",
    [
        ["deal", 5],
        ["solve", 5],
        ["hint", 5],
        ["analyze", 5, "--moves", "tail"],
        ["perft", 5, "-d", 1],
        ["replay", 5],
        ["batch", "1-2"],
    ],
)
def test_conflicting_mode_and_rules_are_refused_everywhere(command):
    assert_user_error(run(*command, "--mode", "classic", "--rules", "wasp"), "--mode classic and --rules wasp")
    assert_user_error(run(*command, "--mode", "bogus"), "unknown rules 'bogus'")


@pytest.mark.parametrize("command", [["deal", 5], ["hint", 5], ["perft", 5, "-d", 1], ["replay", 5]])
def test_both_in_a_one_preset_command_says_which_commands_take_several(command):
    assert_user_error(run(*command, "--mode", "both"), "takes one rules preset", "solve and batch take several")


def test_same_name_twice_and_lists_where_several_are_taken():
    assert run("deal", 5, "--mode", "classic", "--rules", "CLASSIC").stdout == format_position(
        deal(5, CLASSIC), CLASSIC
    )
    lines = run("solve", 5, "--rules", "both,wasp", "--nodes", 1000).stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["deal 5 clear", "deal 5 classic", "deal 5 wasp"]
    assert lines[3].startswith("3 solves: ")


def test_batch_both_is_clear_and_classic():
    assert batch.parse_modes("classic,clear") == ("clear", "classic")
    from scorpion_solver.cli.common import resolve_rules

    assert [r.name for r in resolve_rules("both", None, several=True)] == ["clear", "classic"]


# ---------------------------------------------------------------------------
# 16. the smaller items


def test_a_byte_order_mark_is_dropped_and_invisible_characters_are_shown(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + format_position(deal(5)).encode())
    assert run("solve", path).stdout.startswith(f"{path} clear: won")
    path.write_text("col1:\u200b JD\n")
    line = assert_user_error(run("solve", path))
    assert "\\u200b" in line and "\u200b" not in line


def test_a_binary_file_is_named(tmp_path):
    path = tmp_path / "binary.dat"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    for command in (["solve", path], ["replay", 5, "--moves-file", path], ["batch", path]):
        assert_user_error(run(*command), f"cannot read {path}: not UTF-8 text")


def test_all_missing_cards_are_named():
    # deal 1 with "tail: -" but the tail's cards nowhere: 9C, 2H and 6H are missing (two suits)
    text = re.sub(r"tail: .*", "tail: -", format_position(deal(1)))
    assert_user_error(run("solve", "-", input=text), "cards missing: 9C 2H 6H (")


def test_perft_divide_uses_the_jitted_kernel(monkeypatch):
    import scorpion_solver.cli.game as cli_game

    expected = run("perft", 5, "-d", 3, "--divide", "--engine", "reference").stdout

    def refuse(*args):
        raise AssertionError("the reference engine was used")

    monkeypatch.setattr(cli_game, "perft_divide", refuse)
    assert run("perft", 5, "-d", 3, "--divide").stdout == expected
    assert [line for line in expected.splitlines() if line.startswith("  ")] == [
        f"  {m}: {n}" for m, n in perft_divide(deal(5), 3)
    ]


def test_bare_scorpion_prints_its_help():
    result = run()
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith("Usage: ") and "Commands:" in result.stdout


def test_dash_is_standard_input():
    text = format_position(deal(5))
    assert run("solve", "-", input=text).stdout.startswith("standard input clear: won")
    assert run("replay", "-", "9H:6>1", input=text).stdout == run("replay", 5, "9H:6>1").stdout


def test_batch_reads_deal_numbers_from_standard_input(monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"7\n# c\n3\n7\n")))
    deals = batch.parse_range("-")
    assert deals.numbers.tolist() == [3, 7] and deals.spec == "standard input"


def _commands():
    return sorted(main.commands)


@pytest.mark.parametrize("command", _commands())
def test_move_examples_are_quoted_in_every_help_text(command):
    text = run(command, "--help").stdout
    for match in re.finditer(r"\S*6C:5>2\S*", text):
        assert match.group(0).startswith("'"), f"unquoted move in {command} --help: {match.group(0)}"


def test_replay_help_quotes_its_move_example():
    assert "'6C:5>2'" in run("replay", "--help").stdout
    assert "'6C:5>2'" in run("--help").stdout


def test_move_examples_are_quoted_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    replay_row = next(line for line in readme.splitlines() if line.startswith("| `scorpion replay"))
    assert "'6C:5>2'" in replay_row
    for line in readme.splitlines():
        if line.startswith("| `scorpion"):
            for cell in re.findall(r"`[^`]*`", line):
                if ">" in cell and ":" in cell:
                    assert re.search(r"'[^']*:[^']*>[^']*'", cell), cell
