"""Faults of the machine and of the results folder: each ends in one line, and the folder stays resumable.

The fault cases run the command in a subprocess under the fault: a path under a
regular file for an unwritable --out (the tests run as root, which ignores
permission bits, and no read-only mount is available: ENOTDIR is what really
fails for root), RLIMIT_FSIZE for a full disk, RLIMIT_AS for refused memory,
SIGTERM for a stopped batch, a damaged ``_batch.json``, a copied chunk file for
duplicates.
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

import pytest
from scorpion_cli import SCORPION, assert_one_error_line, assert_user_error, run, small_folder

# ---------------------------------------------------------------------------
# 5. an unwritable --out, a full disk


def test_an_out_folder_that_cannot_be_made_is_one_line(tmp_path):
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


def test_a_read_only_out_folder_is_one_line(immutable_folder):
    result = run("batch", "1-4", "--nodes", 1000, "--workers", 1, "--out", immutable_folder, "--no-progress")
    assert_user_error(result, "cannot write the results folder", "Operation not permitted")
    assert list(immutable_folder.iterdir()) == []


def _file_size_limit(limit: int):
    def preexec():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return preexec


def test_a_full_disk_is_one_line_and_the_folder_resumes(tmp_path):
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


def test_a_refused_table_is_unknown_stopped_by_memory():
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
        r"deal 375728 clear: unknown \(stopped by the memory limit\) \[[0-9,]+ nodes, [0-9.]+ s\]\n", done.stdout
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
def test_a_damaged_metadata_file_is_one_line(tmp_path, damage, problem):
    out = small_folder(tmp_path / "f", deals="1-2", chunk=2)
    meta = json.loads((out / "_batch.json").read_text())
    damage(meta)
    (out / "_batch.json").write_text(json.dumps(meta))
    assert_user_error(run("stats", out), problem)
    assert_user_error(run("batch", "1-2", "--nodes", 2000, "--chunk", 2, "--out", out), problem)


def test_metadata_that_is_not_an_object(tmp_path):
    out = small_folder(tmp_path / "f", deals="1-2", chunk=2)
    (out / "_batch.json").write_text("[1, 2]")
    assert_user_error(run("stats", out), "not a JSON object")


# ---------------------------------------------------------------------------
# 9. duplicated chunk files


def test_a_copied_chunk_is_refused_not_counted(tmp_path):
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
# 11. SIGTERM ends a batch like Ctrl-C


def stopped_by_sigterm(command: list[str], out, what: str) -> tuple[str, dict]:
    """Start ``command``, send SIGTERM once its first chunk is written; its stderr and the run's record.

    The stop is the clean one: exit 143, one line on stderr, no traceback, the run recorded as interrupted.
    """
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not list(out.glob("chunk-*.parquet")) and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
    assert process.poll() is None, f"the {what} ended before it could be stopped"
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGTERM, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    kept = len(list(out.glob("chunk-*.parquet")))  # said as it is: the count, and the folder's name
    assert len(lines) == 1 and lines[0].startswith(
        f"interrupted: the {kept} finished chunk{'s' if kept > 1 else ''} in {out} {'are' if kept > 1 else 'is'} kept"
    ), stderr
    assert lines[0].endswith("(stopped by SIGTERM)") and "Traceback" not in stderr
    run_record = json.loads((out / "_batch.json").read_text())["runs"][-1]
    assert run_record["interrupted"] == "SIGTERM" and run_record["stopped_early"] is True
    return stderr, run_record


def test_sigterm_ends_a_batch_cleanly_recorded_and_resumable(tmp_path):
    out = tmp_path / "term"
    command = [*SCORPION, "batch", "1-300", "--nodes", "200000", "--workers", "2", "--out", str(out), "--no-progress"]
    stderr, run_record = stopped_by_sigterm(command, out, "batch")
    assert "leaked" not in stderr
    assert run_record["finished"] is not None
    kept = {p.name for p in out.glob("chunk-*.parquet")}
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{len(kept)} before" in done.stdout


def test_sigterm_ends_a_play_run_as_it_ends_a_batch(tmp_path):
    """``scorpion play RANGE`` handles SIGTERM as ``batch`` does: one line, 143, the run recorded as
    interrupted, and the same command finishes it without playing a kept chunk again."""
    out = tmp_path / "play"
    command = [*SCORPION, "play", "1-400", "--policy", "greedy", "--play-lost", "--chunk", "10", "--workers", "1"]
    command += ["--out", str(out), "--no-progress"]
    stopped_by_sigterm(command, out, "play run")
    kept = {p.name for p in out.glob("chunk-*.parquet")}
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    assert f"{len(kept)} before" in done.stdout and len(list(out.glob("chunk-*.parquet"))) == 40


def test_sigterm_ends_a_study_as_it_ends_a_batch(tmp_path):
    """``scorpion bound`` (a study) stops as a batch does: one line, 143, the run recorded as interrupted,
    no worker left running; the same command finishes it."""
    out = tmp_path / "bound"
    command = [*SCORPION, "bound", "1-60", "--chunk", "2", "--samples", "4", "--nodes", "500", "--workers", "1"]
    command += ["--out", str(out), "--no-progress"]
    stopped_by_sigterm(command, out, "study")
    kept = {p.name for p in out.glob("chunk-*.parquet")}
    time.sleep(2)  # a worker left behind would go on writing chunks
    assert {p.name for p in out.glob("chunk-*.parquet")} == kept
    done = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["written"] == 30 - len(kept) and len(list(out.glob("chunk-*.parquet"))) == 30


@pytest.mark.slow
def test_ctrl_c_on_a_dask_local_batch_prints_no_worker_tracebacks(tmp_path):
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
    kept = len(list(out.glob("chunk-*.parquet")))
    assert stderr.rstrip().splitlines()[-1].startswith(f"interrupted: the {kept} finished chunk"), stderr
    assert json.loads((out / "_batch.json").read_text())["runs"][-1]["interrupted"] == "SIGINT"
