"""The ``scorpion`` command, driven through click's CliRunner."""

from __future__ import annotations

import json

import pytest
from perft_table import TABLE
from scorpion_cli import assert_user_error as one_error_line
from scorpion_cli import run

from scorpion_solver import deal, format_position
from scorpion_solver.cli import main

DEAL_1 = """\
col1: JD* 5H* KH* AS 4H TH 8D
col2: 2D* KD* 3H* AH AC 8H QS
col3: 9H* KC* 2S* 3C 4D 2C 6C
col4: JC* 9S* KS* 4C 7S JH 3D
col5: 5D 5S 9D 5C 3S 7D 8C
col6: 7H AD QD TS TD 6D TC
col7: 7C QC JS QH 4S 8S 6S
tail: 9C 2H 6H
"""

AFTER_3 = """\
mode: clear
col1: JD* 5H* KH* AS 4H TH 8D 7D 8C 9C
col2: 2D* KD* 3H* AH AC 8H QS JS QH 4S 8S 6S 2H
col3: 9H* KC* 2S* 3C 4D 2C 6C 6H
col4: JC* 9S* KS* 4C 7S JH 3D
col5: 5D 5S 9D 5C 3S
col6: 7H AD QD TS TD 6D TC
col7: 7C QC
tail: -
# 3 moves played; the game is in play
"""

# Hearts only, the other suits swept; wins with 5H:1>2 4H:1>2 3H:3>2.
HEARTS = """\
col1: 4H* 5H
col2: KH QH JH TH 9H 8H 7H 6H
col3: 3H 2H AH
col4:
col5:
col6:
col7:
tail: -
"""


def assert_user_error(result, starts):
    """The one error line (scorpion_cli.assert_user_error) starts with ``starts``, and nothing went to stdout."""
    assert one_error_line(result).startswith(starts), result.stderr
    assert result.stdout == ""


# --------------------------------------------------------------------------
# deal


def test_deal_1():
    result = run("deal", "1")
    assert result.exit_code == 0
    assert result.stdout == "mode: clear\n" + DEAL_1
    assert result.stderr == ""


def test_deal_1_classic():
    result = run("deal", "1", "--mode", "classic")
    assert result.exit_code == 0
    assert result.stdout == "mode: classic\n" + DEAL_1


def test_deal_scorpion2_rules():
    result = run("deal", "1", "--rules", "scorpion2")
    assert result.exit_code == 0
    assert "col4: JC 9S KS 4C 7S JH 3D\n" in result.stdout
    assert result.stdout.startswith("mode: scorpion2\ncol1: JD* 5H* KH* AS")


def test_deal_32000():
    result = run("deal", "32000")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1] == "col1: 7S* TH* 9C* 9H AD JH 2D"
    assert result.stdout.splitlines()[-1] == "tail: 8H KC AS"


def test_deal_json():
    result = run("deal", "1", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["mode"] == "clear"
    assert data["columns"][0] == ["JD*", "5H*", "KH*", "AS", "4H", "TH", "8D"]
    assert data["columns"][6] == ["7C", "QC", "JS", "QH", "4S", "8S", "6S"]
    assert len(data["columns"]) == 7
    assert data["tail"] == ["9C", "2H", "6H"]
    assert data["tail_dealt"] is False
    assert data["swept"] == [] and data["frozen"] == []


# --------------------------------------------------------------------------
# perft (the counts of deal 1 are tests/data/perft.txt's)


def counts_text(preset: str, depth: int) -> str:
    """What `scorpion perft 1 --depth DEPTH` prints for deal 1 in PRESET, from the stored table."""
    return "".join(f"depth {d}: {TABLE[preset].counts[d]}\n" for d in range(1, depth + 1))


def test_perft_reference():
    result = run("perft", "1", "--depth", "3", "--engine", "reference")
    assert result.exit_code == 0
    assert result.stdout == counts_text("clear", 3) == "depth 1: 6\ndepth 2: 29\ndepth 3: 123\n"


def test_perft_reference_classic():
    result = run("perft", "1", "-d", "3", "--engine", "reference", "--mode", "classic")
    assert result.exit_code == 0
    assert result.stdout == counts_text("classic", 3)


def test_perft_divide():
    result = run("perft", "1", "--depth", "2", "--engine", "reference", "--divide")
    assert result.exit_code == 0
    divide = "".join(f"  {move}: {n}\n" for move, n in TABLE["clear"].divides[2])
    assert result.stdout == counts_text("clear", 2) + "divide at depth 2:\n" + divide
    assert divide.startswith("  7D:5>1: 5\n  JS:7>2: 5\n") and divide.count("\n") == 6


def test_perft_position_file(tmp_path):
    path = tmp_path / "deal1.txt"
    path.write_text(DEAL_1)
    result = run("perft", str(path), "--depth", "3", "--engine", "reference")
    assert result.exit_code == 0
    assert result.stdout == counts_text("clear", 3)


def test_perft_position_file_mode_line(tmp_path):
    path = tmp_path / "deal1.txt"
    path.write_text("mode: classic\n" + DEAL_1)
    result = run("perft", str(path), "--depth", "2", "--engine", "reference")
    assert result.stdout == counts_text("classic", 2)
    # --mode overrides the file's mode line.
    result = run("perft", str(path), "--depth", "2", "--engine", "reference", "--mode", "clear")
    assert result.stdout == counts_text("clear", 2)


# --------------------------------------------------------------------------
# replay


def test_replay_legal_moves():
    result = run("replay", "1", "7D:5>1", "JS:7>2", "tail")
    assert result.exit_code == 0
    assert result.stdout == AFTER_3
    assert result.stderr == ""


def test_replay_moves_file(tmp_path):
    path = tmp_path / "moves.txt"
    path.write_text("7D:5>1 JS:7>2\ntail\n")
    result = run("replay", "1", "--moves-file", str(path))
    assert result.exit_code == 0
    assert result.stdout == AFTER_3


def test_replay_output_reads_back(tmp_path):
    result = run("replay", "1", "7D:5>1", "JS:7>2", "tail")
    path = tmp_path / "after.txt"
    path.write_text(result.stdout)
    again = run("replay", str(path))
    assert again.exit_code == 0
    assert again.stdout == AFTER_3.replace("# 3 moves", "# 0 moves")


def test_replay_position_file_to_a_win(tmp_path):
    path = tmp_path / "hearts.txt"
    path.write_text(HEARTS)
    result = run("replay", str(path), "5H:1>2", "4H:1>2", "3H:3>2")
    assert result.exit_code == 0
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert lines == ["mode: clear"] + [f"col{i}:" for i in range(1, 8)] + [
        "tail: -",
        "# 3 moves played; the game is won",
    ]


def test_replay_to_a_lost_position(tmp_path):
    path = tmp_path / "buried.txt"
    path.write_text(HEARTS.replace("col1: 4H* 5H", "col1: 5H* 4H"))
    result = run("replay", str(path), "3H:3>1")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "# 1 move played; the game is lost (no legal move)"
    assert result.stdout.splitlines()[1] == "col1: 5H* 4H 3H 2H AH"


def test_replay_illegal_move():
    result = run("replay", "1", "7D:5>1", "JS:7>2", "5C:5>1", "tail")
    assert_user_error(result, "error: move 3: 5C:5>1 is not legal here")
    assert (
        result.stderr == "error: move 3: 5C:5>1 is not legal here: 5C does not build on 8C (same suit, one rank up)\n"
    )


def test_replay_illegal_tail_in_classic():
    result = run("replay", "1", "tail", "--mode", "classic")
    assert_user_error(result, "error: move 1: tail is not legal here")


def test_replay_illegal_move_in_moves_file(tmp_path):
    path = tmp_path / "moves.txt"
    path.write_text("tail\ntail\n")
    result = run("replay", "1", "--moves-file", str(path))
    assert_user_error(result, "error: move 2: tail is not legal here: the tail has already been dealt")


# --------------------------------------------------------------------------
# Bad input: one line on stderr, exit status 2


@pytest.mark.parametrize(
    "args, starts",
    [
        (["deal", "0"], "error: deal number must be 1 or more, got 0"),
        (["deal", "--", "-1"], "error: deal number must be 1 or more, got -1"),
        (["deal", "abc"], "error: 'abc' is not a deal number"),
        (["deal", "1.5"], "error: '1.5' is not a deal number"),
        (["perft", "0", "--depth", "2", "--engine", "reference"], "error: deal number must be 1 or more"),
        (["replay", "0", "tail"], "error: deal number must be 1 or more"),
        (["replay", "1", "bogus"], "error: move 1: 'bogus' is not a move"),
        (
            ["replay", "1", "6C:9>2"],
            "error: move 1: 6C:9>2 is not legal here: this game has 7 columns, and 9 is not one",
        ),
        (["replay", "1", "6C:11>2"], "error: move 1: '6C:11>2' is not a move"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else "",
)
def test_bad_arguments(args, starts):
    assert_user_error(run(*args), starts)


@pytest.mark.parametrize("command", [["perft", "{}", "--depth", "1", "--engine", "reference"], ["replay", "{}"]])
def test_missing_position_file(tmp_path, command):
    missing = str(tmp_path / "nope.txt")
    result = run(*[a.format(missing) for a in command])
    assert_user_error(result, f"error: cannot read {missing}")


def test_missing_moves_file(tmp_path):
    missing = str(tmp_path / "nope.txt")
    assert_user_error(run("replay", "1", "--moves-file", missing), f"error: cannot read {missing}")


@pytest.mark.parametrize(
    "text, problem",
    [
        (DEAL_1.replace("col3: 9H*", "col3: 8D*"), "line 3: 8D appears twice"),
        (DEAL_1.replace("QS", "ZZ"), "line 2: col2: 'ZZ' is not a card"),
        (DEAL_1.replace("AS 4H", "AS 4H*"), "line 1: col1: face-down card 4H* lies above face-up card AS"),
        (DEAL_1.replace("tail: 9C 2H 6H", "tail: 9C 2H"), "line 8: the tail holds 3 cards"),
        (DEAL_1 + "foo: 1\n", "line 9: unknown line 'foo:'"),
        (DEAL_1.replace(" 6S\n", "\n"), "cards missing: 6S"),
        ("", "no line for col1"),
    ],
)
@pytest.mark.parametrize("command", ["perft", "replay"])
def test_malformed_position_file(tmp_path, text, problem, command):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    args = [command, str(path)] + (["--depth", "1", "--engine", "reference"] if command == "perft" else [])
    result = run(*args)
    assert_user_error(result, f"error: {path}")
    assert problem in result.stderr


# Bad option values: "one line on stderr and exit status 2" for every user
# mistake, click's own usage errors included.


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "-1"],
        ["deal", "1", "--mode", "bogus"],
        ["perft", "1", "--depth", "x", "--engine", "reference"],
    ],
    ids=lambda v: " ".join(v),
)
def test_bad_option_values_are_one_line(args):
    result = run(*args)
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("error:")


@pytest.mark.parametrize(
    "args",
    [
        ["deal", "-1"],
        ["deal", "1", "--mode", "bogus"],
        ["perft", "1", "--depth", "x", "--engine", "reference"],
        ["perft", "1"],
    ],
    ids=lambda v: " ".join(v),
)
def test_bad_option_values_exit_2_without_traceback(args):
    result = run(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert result.stdout == ""


# --------------------------------------------------------------------------
# help


def test_main_help():
    result = run("--help")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: ")
    for name in ("deal", "perft", "replay"):
        assert name in result.stdout


@pytest.mark.parametrize("command", sorted(main.commands))
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_command_help(command, flag):
    result = run(command, flag)
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: ")
    assert f" {command} " in result.stdout.splitlines()[0]
    assert result.stderr == ""


def test_deal_output_matches_api():
    assert run("deal", "617").stdout == "mode: clear\n" + format_position(deal(617))
