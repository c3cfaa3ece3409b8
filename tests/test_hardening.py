"""Issue 17: no traceback for any input or fault, honest timings, one output vocabulary.

Each test reproduces one item of the issue as a user or the machine would
trigger it (numbered as in the issue) and asserts the fixed outcome. The fault
cases run the command in a subprocess under the fault: a path under a regular
file for an unwritable --out (the tests run as root, which ignores permission
bits, and no read-only mount is available: ENOTDIR is what really fails for
root), RLIMIT_FSIZE for a full disk, RLIMIT_AS for refused memory, SIGTERM
for a stopped batch, a copied chunk file for duplicates.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorpion_solver import batch as B
from scorpion_solver.batch.backends import solve_chunk
from scorpion_solver.batch.folder import new_metadata
from scorpion_solver.cli import main
from scorpion_solver.game.cards import make_card
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import perft_divide
from scorpion_solver.game.position_text import format_position
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.solver.result import Limits

ROOT = Path(__file__).resolve().parents[1]
SCORPION = [sys.executable, "-m", "scorpion_solver"]


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def assert_user_error(result, *fragments):
    """Exit status 2, exactly one line on stderr starting with 'error:', no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def assert_one_error_line(stderr: str, *fragments) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def small_folder(out: Path, deals: str = "1-4", chunk: int = 2, nodes: int = 2000, modes=("clear", "classic")):
    """A finished results folder made in this process (no worker pool)."""
    out.mkdir()
    settings = B.BatchSettings(B.parse_range(deals), tuple(modes), Limits(nodes=nodes))
    B.write_metadata(out, new_metadata(settings, chunk))
    for piece in B.plan_chunks(settings.deals, chunk):
        rows = solve_chunk(tuple(piece.deals.tolist()), settings.modes, settings.limits)
        B.write_chunk(out, piece.name, rows)
    return out


# ---------------------------------------------------------------------------
# 1. a node budget the int64 columns cannot hold


@pytest.mark.parametrize("option", ["--nodes", "--memory"])
@pytest.mark.parametrize("command", ["batch", "solve", "hint"])
def test_1_budgets_beyond_int64_are_refused_before_any_work(tmp_path, command, option):
    out = tmp_path / "out"
    args = [command, "1-20" if command != "hint" else "1", option, "99999999999999999999"]
    if command == "batch":
        args += ["--out", out]
    assert_user_error(run(*args), f"Invalid value for '{option}'")
    assert not out.exists()  # nothing solved, no folder whose rerun would crash again


# ---------------------------------------------------------------------------
# 2. deal numbers of 2^63 and more


def test_2_batch_refuses_deals_beyond_int64_in_one_line(tmp_path):
    assert_user_error(run("batch", "100000000000000000000"), "2^63-1", "scorpion solve 100000000000000000000")
    assert_user_error(run("batch", "5-9223372036854775808"), "deal 9223372036854775808 is beyond")
    listed = tmp_path / "deals.txt"
    listed.write_text("# deals\n5\n9223372036854775808\n")
    assert_user_error(run("batch", listed), f"{listed} line 3", "beyond what a batch holds")
    assert B.parse_range("9223372036854775807").numbers.tolist() == [2**63 - 1]


def test_2_solve_takes_the_big_pysolfc_numbers_in_ranges_too():
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
def test_3_non_finite_seconds_are_refused(command, value):
    assert_user_error(run(*command, "--time", value), "Invalid value for '--time'")


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 0.0, -1.0])
def test_3_the_api_refuses_non_finite_seconds_too(value):
    with pytest.raises(ValueError, match="finite positive number of seconds"):
        Limits(seconds=value)
    assert Limits(seconds=0.5).seconds == 0.5


# ---------------------------------------------------------------------------
# 4. solve streams a range


def _limited(address_space: int):
    def preexec():
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    return preexec


def test_4_a_range_of_a_hundred_million_deals_starts_at_once_within_little_memory():
    # 300 MB of address space: the list of 100 million targets alone would need several GB.
    code = "from scorpion_solver.cli.solve import parse_targets; t = iter(parse_targets('1-100000000')); print(next(t), next(t))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, preexec_fn=_limited(300 << 20)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "2"]


def test_4_solve_prints_the_first_verdicts_of_a_huge_range_at_once():
    process = subprocess.Popen(
        [*SCORPION, "solve", "1-100000000", "--nodes", "100"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_limited(3 << 30),
    )
    try:
        first = [process.stdout.readline() for _ in range(3)]
    finally:
        process.kill()
        process.communicate()
    assert [line.split(":")[0] for line in first] == ["deal 1 clear", "deal 2 clear", "deal 3 clear"]


# ---------------------------------------------------------------------------
# 5. an unwritable --out, a full disk


def test_5_an_out_folder_that_cannot_be_made_is_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = subprocess.run(
        [
            *SCORPION,
            "batch",
            "1-4",
            "--nodes",
            "1000",
            "--workers",
            "1",
            "--out",
            str(blocker / "out"),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2
    assert_one_error_line(done.stderr, "cannot write the results folder", "Not a directory")


@pytest.fixture
def immutable_folder(tmp_path):
    """A folder even root cannot write to (chattr +i); skipped where the file system has no such flag."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("no immutable flag here (chattr +i)")
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=False)


def test_5_a_read_only_out_folder_is_one_line(immutable_folder):
    result = run("batch", "1-4", "--nodes", 1000, "--workers", 1, "--out", immutable_folder, "--no-progress")
    assert_user_error(result, "cannot write the results folder", "Operation not permitted")
    assert list(immutable_folder.iterdir()) == []


def _file_size_limit(limit: int):
    def preexec():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return preexec


def test_5_a_full_disk_is_one_line_and_the_folder_resumes(tmp_path):
    out = tmp_path / "full"
    command = [*SCORPION, "batch", "1-400", "--chunk", "200", "--nodes", "50", "--workers", "1", "--out", str(out)]
    done = subprocess.run(
        [*command, "--no-progress"], capture_output=True, text=True, timeout=300, preexec_fn=_file_size_limit(6000)
    )
    assert done.returncode == 2, done.stderr
    assert_one_error_line(done.stderr, "cannot write the results folder", "File too large")
    assert not list(out.glob("chunk-*.parquet"))  # the atomic writes held: no half-written chunk
    meta = json.loads((out / "_batch.json").read_text())
    assert meta["runs"][-1]["stopped_early"] is True and meta["runs"][-1]["finished"]
    done = subprocess.run([*command, "--no-progress"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.glob("chunk-*.parquet")) == [
        "chunk-00000001-00000200.parquet",
        "chunk-00000201-00000400.parquet",
    ]
    assert not list(out.glob(".*.tmp"))


# ---------------------------------------------------------------------------
# 6. the machine refuses memory for the table


def test_6_a_refused_table_is_unknown_stopped_by_memory():
    # Load the solver, then allow 32 MB more address space: deal 375728 (Clear, 3.8 million nodes)
    # grows its table past that long before it is decided; its budget allows 4 GB.
    script = textwrap.dedent("""
        import resource, sys
        from scorpion_solver.solver.search import load_solver
        from scorpion_solver.cli import main
        load_solver()
        size = int(next(l for l in open("/proc/self/status") if l.startswith("VmSize")).split()[1]) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size + (32 << 20), resource.RLIM_INFINITY))
        main(["solve", "375728", "--memory", "4096"])
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr and done.returncode == 0, done.stderr
    assert re.fullmatch(
        r"deal 375728 clear: unknown \(stopped by the memory limit\) \[\d+ nodes, [0-9.]+ s\]\n", done.stdout
    )


# ---------------------------------------------------------------------------
# 7. a damaged _batch.json


@pytest.mark.parametrize(
    "damage, problem",
    [
        (lambda m: m.pop("modes"), "modes is missing"),
        (lambda m: m.update(modes="clear"), "modes is not a list"),
        (lambda m: m["deals"].pop("sha256"), "deals.sha256 is missing"),
        (lambda m: m.update(limits=None), "limits is not a dict"),
        (lambda m: m.update(chunk=True), "chunk is not a int"),
    ],
)
def test_7_a_damaged_metadata_file_is_one_line(tmp_path, damage, problem):
    out = small_folder(tmp_path / "f", deals="1-2", chunk=2)
    meta = json.loads((out / "_batch.json").read_text())
    damage(meta)
    (out / "_batch.json").write_text(json.dumps(meta))
    assert_user_error(run("stats", out), problem)
    assert_user_error(run("batch", "1-2", "--nodes", 2000, "--chunk", 2, "--out", out), problem)


def test_7_metadata_that_is_not_an_object(tmp_path):
    out = small_folder(tmp_path / "f", deals="1-2", chunk=2)
    (out / "_batch.json").write_text("[1, 2]")
    assert_user_error(run("stats", out), "not a JSON object")


# ---------------------------------------------------------------------------
# 8. positions no deal can reach (more in test_position_text.py)


def test_8_face_down_cards_in_column_5_are_refused_by_every_command(tmp_path):
    text = format_position(deal(1)).replace("col5: 5D 5S", "col5: 5D* 5S")
    path = tmp_path / "p.txt"
    path.write_text(text)
    for command in (["solve", path], ["hint", path], ["perft", path, "-d", 1], ["replay", path]):
        assert_user_error(run(*command), "line 5: col5: 1 face-down cards, but clear deals no card")


# ---------------------------------------------------------------------------
# 9. duplicated chunk files


def test_9_a_copied_chunk_is_refused_not_counted(tmp_path):
    out = small_folder(tmp_path / "dup", deals="1-4", chunk=2)
    assert run("stats", out).exit_code == 0
    shutil.copy(out / "chunk-00000001-00000002.parquet", out / "chunk-00000001-00000002 (copy).parquet")
    assert_user_error(run("stats", out), "chunk-00000001-00000002 (copy).parquet", "move them away")
    (out / "chunk-00000001-00000002 (copy).parquet").rename(out / "chunk-00000001-00000003.parquet")
    line = assert_user_error(run("stats", out, "--json"), "appear more than once")
    assert "chunk-00000001-00000002.parquet and chunk-00000001-00000003.parquet" in line
    assert_user_error(run("batch", "1-4", "--nodes", 2000, "--chunk", 2, "--out", out), "appear more than once")
    (out / "chunk-00000001-00000003.parquet").unlink()
    result = run("stats", out, "--json")
    assert json.loads(result.stdout)["modes"]["clear"]["deals"] == 4


# ---------------------------------------------------------------------------
# 10. timings: the solver is loaded before the first solve's clock starts


def test_10_the_kernel_is_loaded_when_the_first_solve_starts_its_clock():
    script = textwrap.dedent("""
        import time
        from scorpion_solver.solver import kernel as K, search
        from scorpion_solver.game.deal import deal
        seen = []
        real = time.perf_counter
        def clock():
            seen.append(len(K.search.overloads))
            return real()
        search.time.perf_counter = clock
        search.solve(deal(5))
        search.time.perf_counter = real
        print(seen[-2], len(seen))
    """)
    # seen[-2] is the solve's own start: by then the kernel must be loaded (one overload)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    loaded_at_start, _ = done.stdout.split()
    assert loaded_at_start == "1"


def test_10_a_first_run_says_once_that_the_solver_is_being_compiled(monkeypatch):
    from scorpion_solver.solver import search

    monkeypatch.setattr(search, "_loaded", False)
    monkeypatch.setattr(search, "solver_is_cached", lambda: False)
    result = run("solve", "4-6")
    assert result.exit_code == 0
    assert result.stderr == search.COMPILE_NOTE + "\n"
    result = run("solve", "4-6")  # loaded now: nothing said
    assert result.stderr == ""


def test_10_an_empty_numba_cache_is_detected(tmp_path):
    code = "from scorpion_solver.solver.search import solver_is_cached; print(solver_is_cached())"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    empty = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert empty.stdout.strip() == "False", empty.stderr
    normal = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert normal.stdout.strip() == "True", normal.stderr


# ---------------------------------------------------------------------------
# 11. SIGTERM ends a batch like Ctrl-C


def test_11_sigterm_ends_a_batch_cleanly_recorded_and_resumable(tmp_path):
    out = tmp_path / "term"
    command = [*SCORPION, "batch", "1-300", "--nodes", "200000", "--workers", "2", "--out", str(out), "--no-progress"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not list(out.glob("chunk-*.parquet")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
    assert process.poll() is None, "the batch ended before it could be stopped"
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted: the finished chunks are kept"), stderr
    assert lines[0].endswith("(stopped by SIGTERM)")
    assert "leaked" not in stderr and "Traceback" not in stderr
    run_record = json.loads((out / "_batch.json").read_text())["runs"][-1]
    assert run_record["interrupted"] == "SIGTERM" and run_record["stopped_early"] is True
    assert run_record["finished"] is not None
    kept = {p.name for p in out.glob("chunk-*.parquet")}
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{len(kept)} before" in done.stdout


def test_11_sigterm_ends_a_play_run_as_it_ends_a_batch(tmp_path):
    """``scorpion play RANGE`` handles SIGTERM as ``batch`` does: one line, 143, the run recorded as
    interrupted, and the same command finishes it without playing a kept chunk again."""
    out = tmp_path / "play"
    command = [*SCORPION, "play", "1-400", "--policy", "greedy", "--play-lost", "--chunk", "10", "--workers", "1"]
    command += ["--out", str(out), "--no-progress"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not list(out.glob("chunk-*.parquet")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
    assert process.poll() is None, "the play run ended before it could be stopped"
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted: the finished chunks are kept"), stderr
    assert lines[0].endswith("(stopped by SIGTERM)") and "Traceback" not in stderr
    run_record = json.loads((out / "_batch.json").read_text())["runs"][-1]
    assert run_record["interrupted"] == "SIGTERM" and run_record["stopped_early"] is True
    kept = {p.name for p in out.glob("chunk-*.parquet")}
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert f"{len(kept)} before" in done.stdout and len(list(out.glob("chunk-*.parquet"))) == 40


@pytest.mark.slow
def test_11_ctrl_c_on_a_dask_local_batch_prints_no_worker_tracebacks(tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "dask"
    command = [
        *SCORPION,
        "batch",
        "1-300",
        "--nodes",
        "200000",
        "--dask-local",
        "2",
        "--out",
        str(out),
        "--no-progress",
    ]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    deadline = time.monotonic() + 300
    while not list(out.glob("chunk-*.parquet")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
    assert process.poll() is None, "the batch ended before it could be stopped"
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C in a terminal: the whole process group
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stderr.rstrip().splitlines()[-1].startswith("interrupted: the finished chunks are kept")
    assert json.loads((out / "_batch.json").read_text())["runs"][-1]["interrupted"] == "SIGINT"


# ---------------------------------------------------------------------------
# 12. --retry-unknown with the same budget


def test_12_retry_with_the_same_budget_says_the_budget_must_be_larger(tmp_path):
    out = small_folder(tmp_path / "u", deals="5-6", chunk=2, nodes=50)
    meta = json.loads((out / "_batch.json").read_text())
    assert meta["limits"]["nodes"] == 50
    unknown = B.read_folder(out).to_pylist()
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


def test_13_replay_and_analyze_read_the_same_record(tmp_path):
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


def test_13_moves_on_the_command_line_and_in_a_file_are_refused_together(tmp_path):
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
def test_14_conflicting_mode_and_rules_are_refused_everywhere(command):
    assert_user_error(run(*command, "--mode", "classic", "--rules", "wasp"), "--mode classic and --rules wasp")
    assert_user_error(run(*command, "--mode", "bogus"), "unknown rules 'bogus'")


@pytest.mark.parametrize("command", [["deal", 5], ["hint", 5], ["perft", 5, "-d", 1], ["replay", 5]])
def test_14_both_in_a_one_preset_command_says_which_commands_take_several(command):
    assert_user_error(run(*command, "--mode", "both"), "takes one rules preset", "solve and batch take several")


def test_14_same_name_twice_and_lists_where_several_are_taken():
    assert run("deal", 5, "--mode", "classic", "--rules", "CLASSIC").stdout == format_position(
        deal(5, CLASSIC), CLASSIC
    )
    lines = run("solve", 5, "--rules", "both,wasp", "--nodes", 1000).stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["deal 5 clear", "deal 5 classic", "deal 5 wasp"]
    assert lines[3].startswith("3 solves: ")


def test_14_batch_both_is_clear_and_classic():
    assert B.parse_modes("classic,clear") == ("clear", "classic")
    from scorpion_solver.cli.common import resolve_rules

    assert [r.name for r in resolve_rules("both", None, several=True)] == ["clear", "classic"]


@pytest.mark.slow
def test_15_the_committed_results_give_the_committed_numbers():
    folder = ROOT / "results" / "deals-1-1000000"
    if not folder.is_dir():
        pytest.skip("the committed results folder is not here")
    result = CliRunner().invoke(main, ["stats", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    committed = json.loads((ROOT / "results" / "deals-1-1000000.stats.json").read_text())
    committed.pop("duplicates", None)  # refused now rather than counted (older stats files had it)
    data["folder"] = committed["folder"]
    assert data == committed


# ---------------------------------------------------------------------------
# 16. the smaller items


def test_16_a_byte_order_mark_is_dropped_and_invisible_characters_are_shown(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + format_position(deal(5)).encode())
    assert run("solve", path).stdout.startswith(f"{path} clear: won")
    path.write_text("col1:\u200b JD\n")
    line = assert_user_error(run("solve", path))
    assert "\\u200b" in line and "\u200b" not in line


def test_16_a_binary_file_is_named(tmp_path):
    path = tmp_path / "binary.dat"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    for command in (["solve", path], ["replay", 5, "--moves-file", path], ["batch", path]):
        assert_user_error(run(*command), f"cannot read {path}: not UTF-8 text")


def test_16_all_missing_cards_are_named():
    # deal 1 with "tail: -" but the tail's cards nowhere: 9C, 2H and 6H are missing (two suits)
    text = re.sub(r"tail: .*", "tail: -", format_position(deal(1)))
    assert_user_error(run("solve", "-", input=text), "cards missing: 9C 2H 6H (")


def test_16_perft_divide_uses_the_jitted_kernel(monkeypatch):
    import scorpion_solver.cli.game as cli_game

    expected = run("perft", 5, "-d", 3, "--divide", "--engine", "reference").stdout

    def refuse(*args):
        raise AssertionError("the reference engine was used")

    monkeypatch.setattr(cli_game, "perft_divide", refuse)
    assert run("perft", 5, "-d", 3, "--divide").stdout == expected
    assert [line for line in expected.splitlines() if line.startswith("  ")] == [
        f"  {m}: {n}" for m, n in perft_divide(deal(5), 3)
    ]


def test_16_bare_scorpion_prints_its_help():
    result = run()
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith("Usage: ") and "Commands:" in result.stdout


def test_16_dash_is_standard_input():
    text = format_position(deal(5))
    assert run("solve", "-", input=text).stdout.startswith("standard input clear: won")
    assert run("replay", "-", "9H:6>1", input=text).stdout == run("replay", 5, "9H:6>1").stdout


def test_16_batch_reads_deal_numbers_from_standard_input(monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"7\n# c\n3\n7\n")))
    deals = B.parse_range("-")
    assert deals.numbers.tolist() == [3, 7] and deals.spec == "standard input"


def _commands():
    return sorted(main.commands)


@pytest.mark.parametrize("command", _commands())
def test_16_move_examples_are_quoted_in_every_help_text(command):
    text = run(command, "--help").stdout
    for match in re.finditer(r"\S*6C:5>2\S*", text):
        assert match.group(0).startswith("'"), f"unquoted move in {command} --help: {match.group(0)}"


def test_16_replay_help_quotes_its_move_example():
    assert "'6C:5>2'" in run("replay", "--help").stdout
    assert "'6C:5>2'" in run("--help").stdout


def test_16_move_examples_are_quoted_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    replay_row = next(line for line in readme.splitlines() if line.startswith("| `scorpion replay"))
    assert "'6C:5>2'" in replay_row
    for line in readme.splitlines():
        if line.startswith("| `scorpion"):
            for cell in re.findall(r"`[^`]*`", line):
                if ">" in cell and ":" in cell:
                    assert re.search(r"'[^']*:[^']*>[^']*'", cell), cell


def test_16_stats_text_formats_numbers_one_way(tmp_path):
    out = small_folder(tmp_path / "fmt", deals="1-12", chunk=6)
    text = run("stats", out).stdout
    assert not re.search(r"\d\.?\d*e[-+]\d", text.split("McNemar")[0]), text  # no exponent form
    assert " 1 nodes" not in text and "1 node," in text
    from scorpion_solver.batch.stats import _decimal, _num

    assert (_decimal(6.5e-05), _decimal(0.000266), _decimal(20.34), _decimal(1234.5)) == (
        "0.000065",
        "0.000266",
        "20.3",
        "1,234",
    )
    assert _num(17041238, True) == "17,041,238"


def test_16_walkthrough_gives_each_suit_its_own_colour():
    from scorpion_solver.analysis.walkthrough import SUIT_COLOURS, _card

    assert len(set(SUIT_COLOURS)) == 4
    shown = {suit: _card(make_card(5, index), False, False, True) for index, suit in enumerate("CSHD")}
    assert len(set(shown.values())) == 4


def test_16_mode_comparison_runs_on_a_one_mode_folder(tmp_path, monkeypatch):
    pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    import importlib.util

    out = small_folder(tmp_path / "one", deals="1-20", chunk=20, modes=("clear",))
    spec = importlib.util.spec_from_file_location("notebooks_run", ROOT / "notebooks" / "run.py")
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    monkeypatch.setenv("SCORPION_RESULTS", str(out))
    nb = nbformat.read(ROOT / "notebooks" / "mode_comparison.ipynb", as_version=4)
    runner.execute(nb, timeout=120)
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    shown = json.dumps([o.get("data", {}) for o in outputs])
    assert "This folder holds clear only" in shown


def test_16_run_all_writes_outside_the_tracked_results_and_explains_scaling():
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
    source = (ROOT / "benchmarks" / "run_all.py").read_text()
    assert "load average at start" not in source and "this shared machine" not in source
