"""A user's file that is not UTF-8 or not JSON, and a results folder that cannot be written, each said in one line
that names the file, the line and what is wrong, never the decoder's message (issue 49 item 10).

Every place the command line reads a file a user gives or points at is here: a position (text or the JSON of
``deal --json``) for every command that takes a SOURCE, a moves file, a deal list, a folder's ``_batch.json``
(``stats``, ``stats --against``, ``verify``, a resumed ``batch`` or ``play``), the ``.stats.json`` and the
``SHA256SUMS`` that ``verify`` checks. The decoder's own words ("Expecting", "char 61", "codec can't decode",
"position 12") must not reach the user.
"""

from __future__ import annotations

import errno
import re
import shutil
from pathlib import Path

import pytest
from scorpion_cli import assert_user_error, run, small_folder

from scorpion_solver.cli.common import interruptible
from scorpion_solver.game.text_input import TextInputError, decode_text, parse_json

RAW = ("Expecting", "(char ", "codec", "position ", "delimiter", "offset")


def assert_readable(line: str) -> str:
    for raw in RAW:
        assert raw not in line, line
    return line


# ---------------------------------------------------------------------------
# the readers themselves: line, column and the trouble in words


@pytest.mark.parametrize(
    "text, where, trouble",
    [
        ('{"columns": [\n  ["AS"],\n  ]\n}\n', "line 3, column 3", "a value is missing here"),
        ('{"mode": "clear", "tail": [],}', "line 1, column 30", "a key in double quotes is missing here"),
        ("{'mode': 'clear'}", "line 1, column 2", "a key in single quotes"),
        ('{"mode" "clear"}', "line 1, column 9", "a colon is missing here"),
        ('{"tail": ["AS" "2S"]}', "line 1, column 16", "a comma is missing here"),
        ('{"tail": ["AS"]', "line 1, column 16", "the text ends before the JSON value does"),
        ('{"mode": "clear}', "line 1, column 10", "a string starts here and is never closed"),
        ('{"mode": "a\tb"}', "line 1, column 12", "a tab or line break inside a string"),
        ('{"mode": "a\\qb"}', "line 1, column 12", "a backslash that starts no escape"),
        ('{"tail": []} {"tail": []}', "line 1, column 14", "more text after the JSON value has ended"),
    ],
)
def test_json_trouble_is_said_in_words(text, where, trouble):
    with pytest.raises(TextInputError) as caught:
        parse_json(text, "game.json")
    message = str(caught.value)
    assert message.startswith(f"game.json, {where}: not valid JSON: ") and trouble in message, message
    assert_readable(str(caught.value))


def test_an_empty_json_file_is_called_empty():
    with pytest.raises(TextInputError, match=r"^game\.json: empty, not JSON$"):
        parse_json(" \n", "game.json")


def test_a_byte_that_is_not_utf8_is_placed_by_line_and_column():
    data = "col1: AS\ncol2: 2é ".encode() + b"\xe9t\xe9\n"  # a UTF-8 é first, then Latin-1 bytes
    with pytest.raises(TextInputError) as caught:
        decode_text(data, "deal.txt")
    assert str(caught.value) == (
        "cannot read deal.txt: not UTF-8 text at line 2, column 10 (byte 0xe9: saved in another encoding, "
        "such as Latin-1, or a binary file?)"
    )


def test_utf16_is_named_as_such():
    with pytest.raises(
        TextInputError, match=r"^cannot read deal\.json: not UTF-8 text but UTF-16 \(save it as UTF-8\)$"
    ):
        decode_text('{"tail": []}'.encode("utf-16"), "deal.json")


# ---------------------------------------------------------------------------
# every command that reads a SOURCE


SOURCE_COMMANDS = [
    ["solve"],
    ["hint"],
    ["play", "--policy", "random"],
    ["perft", "--engine", "reference", "--depth", "1"],
    ["replay"],
    ["analyze", "--moves", "tail"],
    ["show", "--html", "{tmp}/page.html"],
]


def _source_command(command: list[str], source: Path, tmp_path: Path) -> list[str]:
    return [command[0], str(source), *(a.replace("{tmp}", str(tmp_path)) for a in command[1:])]


@pytest.mark.parametrize("command", SOURCE_COMMANDS, ids=lambda c: c[0])
def test_a_position_that_is_not_json_names_its_line(command, tmp_path):
    path = tmp_path / "deal5.json"
    text = run("deal", "5", "--json").stdout.rstrip()
    path.write_text(text[:-1] + ",}\n")  # a trailing comma, as a hand edit leaves one
    line = assert_user_error(run(*_source_command(command, path, tmp_path)))
    assert line == (
        f"error: {path}, line 1, column {len(text) + 1}: not valid JSON: a key in double quotes is missing here "
        "(a comma before '}', or a key in single quotes or none?)"
    )


@pytest.mark.parametrize("command", SOURCE_COMMANDS, ids=lambda c: c[0])
def test_a_position_that_is_not_utf8_names_its_line(command, tmp_path):
    path = tmp_path / "deal5.txt"
    lines = run("deal", "5").stdout.splitlines(keepends=True)
    path.write_bytes("".join(lines[:2]).encode() + b"# caf\xe9\n" + "".join(lines[2:]).encode())
    line = assert_user_error(run(*_source_command(command, path, tmp_path)))
    assert line.startswith(f"error: cannot read {path}: not UTF-8 text at line 3, column 6 (byte 0xe9"), line


def test_a_moves_file_and_a_deal_list_that_are_not_utf8(tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_bytes(b"tail\n\xff\n")
    line = assert_user_error(run("replay", "5", "--moves-file", moves))
    assert line.startswith(f"error: cannot read {moves}: not UTF-8 text at line 2, column 1 (byte 0xff"), line
    deals = tmp_path / "deals.txt"
    deals.write_bytes(b"1\n2\n3\xa0\n")
    line = assert_user_error(run("batch", deals, "--out", tmp_path / "out"))
    assert line.startswith(f"error: cannot read {deals}: not UTF-8 text at line 3, column 2 (byte 0xa0"), line
    assert not (tmp_path / "out").exists()


# ---------------------------------------------------------------------------
# a folder's _batch.json, its .stats.json and SHA256SUMS


@pytest.fixture(scope="module")
def finished_folder(tmp_path_factory):
    return small_folder(tmp_path_factory.mktemp("folders") / "deals-1-2", deals="1-2", chunk=2)


def _copy(folder: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(folder, tmp_path / folder.name))


def test_a_metadata_file_that_is_not_json_names_its_line(finished_folder, tmp_path):
    out = _copy(finished_folder, tmp_path)
    meta = out / "_batch.json"
    meta.write_text(meta.read_text().replace('"modes":', '"modes"', 1))
    line_number = next(n for n, line in enumerate(meta.read_text().splitlines(), 1) if '"modes"' in line)
    expected = f"error: {meta}, line {line_number}, column "
    for command in (
        ["stats", out],
        ["stats", finished_folder, "--against", out],
        ["verify", out],
        ["batch", "1-2", "--nodes", 2000, "--chunk", 2, "--out", out],
        ["play", "1-2", "--policy", "random", "--out", out],
    ):
        line = assert_readable(assert_user_error(run(*command)))
        assert line.startswith(expected) and line.endswith("not valid JSON: a colon is missing here, after a key"), (
            command,
            line,
        )


def test_a_metadata_file_that_is_not_utf8_names_its_line(finished_folder, tmp_path):
    out = _copy(finished_folder, tmp_path)
    meta = out / "_batch.json"
    meta.write_bytes(meta.read_bytes().replace(b'"modes"', b'"mod\xe9s"', 1))
    line = assert_readable(assert_user_error(run("stats", out)))
    assert re.fullmatch(
        rf"error: cannot read {re.escape(str(meta))}: not UTF-8 text at line \d+, column \d+ \(byte 0xe9: .*\)", line
    ), line


def test_verify_fails_a_stats_file_that_is_not_json_and_reads_sums_in_words(finished_folder, tmp_path):
    out = _copy(finished_folder, tmp_path)
    stats = tmp_path / f"{out.name}.stats.json"
    stats.write_text('{"modes": {\n"clear": 1,\n}\n')
    result = run("verify", out)
    assert result.exit_code == 1, result.output
    (failed,) = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert failed == (
        f"FAIL  stats: {stats}, line 3, column 1: not valid JSON: a key in double quotes is missing here "
        "(a comma before '}', or a key in single quotes or none?)"
    )
    sums = tmp_path / "SHA256SUMS"
    sums.write_bytes(b"\x00" * 64 + b"  \xff\n")
    line = assert_readable(assert_user_error(run("verify", out)))
    assert line.startswith(f"error: cannot read {sums}: not UTF-8 text at line 1, column 67 (byte 0xff"), line


# ---------------------------------------------------------------------------
# a folder that cannot be written: named once, and what it keeps said as it is


@pytest.mark.parametrize(
    "command, kind",
    [
        (["batch", "1-2", "--nodes", 1000, "--workers", 1], "results"),
        (["play", "1-2", "--policy", "random", "--workers", 1], "play"),
        (["bound", "1-2", "--workers", 1], "bound"),
    ],
    ids=lambda c: c if isinstance(c, str) else c[0],
)
def test_an_out_that_cannot_be_made_is_named_once_and_keeps_nothing(command, kind, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    out = blocker / "out"
    line = assert_user_error(run(*command, "--out", out, "--no-progress"))
    assert line == (
        f"error: cannot write the {kind} folder {out}: Not a directory; no chunk was finished, so none is kept: "
        "fix this and rerun the same command"
    )
    assert line.count(str(out)) == 1


def _stopped(folder: Path, exc: BaseException, capsys) -> tuple[int, str]:
    def operation():
        raise exc

    with pytest.raises(SystemExit) as stopped:
        interruptible(operation, folder, "play")
    return stopped.value.code, capsys.readouterr().err


def test_a_write_that_fails_says_how_many_chunks_are_kept(finished_folder, tmp_path, capsys):
    out = _copy(finished_folder, tmp_path)  # 1-2 in one chunk
    (out / "chunk-00000003-00000004.parquet").write_bytes((out / "chunk-00000001-00000002.parquet").read_bytes())
    full = OSError(errno.ENOSPC, "No space left on device", str(out / ".chunk-00000005-00000006.parquet.tmp"))
    status, err = _stopped(out, full, capsys)
    assert status == 2
    assert err == (
        f"error: cannot write the play folder {out} (.chunk-00000005-00000006.parquet.tmp): No space left on device; "
        "the 2 finished chunks in it are kept: fix this and rerun the same command\n"
    )
    outside = OSError(errno.EROFS, "Read-only file system", "/usr/lib/site-packages/numba_cache/x.nbi")
    status, err = _stopped(out, outside, capsys)
    assert err == (
        "error: cannot write /usr/lib/site-packages/numba_cache/x.nbi: Read-only file system (outside the play "
        f"folder {out}: the 2 finished chunks in it are kept): fix this and rerun the same command\n"
    )


def test_an_interrupted_run_says_how_many_chunks_are_kept(finished_folder, tmp_path, capsys):
    status, err = _stopped(tmp_path / "new", KeyboardInterrupt(), capsys)
    assert status == 130
    assert err == (
        f"\ninterrupted: no chunk in {tmp_path / 'new'} was finished, so none is kept; rerun the same command to "
        "finish the rest\n"
    )
    out = _copy(finished_folder, tmp_path)
    status, err = _stopped(out, KeyboardInterrupt(), capsys)
    assert err == f"\ninterrupted: the 1 finished chunk in {out} is kept; rerun the same command to finish the rest\n"


def test_a_dead_worker_is_one_line_with_what_is_kept(finished_folder, tmp_path, capsys):
    from concurrent.futures.process import BrokenProcessPool

    out = _copy(finished_folder, tmp_path)
    status, err = _stopped(out, BrokenProcessPool("a child process terminated abruptly"), capsys)
    assert status == 1
    assert err == (
        "error: a worker process died (a child process terminated abruptly); the 1 finished chunk in "
        f"{out} is kept; rerun the same command to finish the rest\n"
    )
