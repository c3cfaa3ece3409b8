"""`scorpion batch`: ranges, chunks, the Parquet folder, resume (also after SIGKILL), retry, backends.

The expensive runs are shared: one uninterrupted run of deals 1-60 (chunk 10,
both modes, 2 workers) is the reference that the resume, reader, stats and
Dask tests compare against. Tables are compared sorted by (deal, mode) and
without the ``seconds`` column (wall clock is the only column a rerun may change).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from scorpion_cli import run

from scorpion_solver import batch
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import is_won, parse_moves, replay
from scorpion_solver.game.rules import get_rules
from scorpion_solver.solver.reductions import Reductions

WON_1_40 = {"clear": {5, 33, 37}, "classic": {5, 37}}  # docs/rules.md, "Verdicts"


def invoke(*args: str):
    return run(*args, catch_exceptions=False)


def batch_command(*args: str):
    result = invoke("batch", *args)
    assert result.exit_code == 0, result.output
    return result


def user_error(result) -> str:
    """The one `error:` line of a user mistake (exit status 2)."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def table(folder: Path):
    """The folder's rows, sorted, without the wall-clock column."""
    return batch.read_folder(folder).drop_columns(["seconds"])


@pytest.fixture(scope="module")
def ref60(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("batch") / "ref60"
    batch_command("1-60", "--chunk", "10", "--workers", "2", "--out", out)
    return out


def copy_folder(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".lock"))
    return dst


# ---------------------------------------------------------------------------
# RANGE, modes, chunks


def test_parse_range_forms():
    d = batch.parse_range("1-100")
    assert len(d) == 100 and (d.first, d.last, d.label) == (1, 100, "1-100")
    assert list(batch.parse_range("7").numbers) == [7]
    assert list(batch.parse_range(" 3 - 5 ").numbers) == [3, 4, 5]
    assert (
        batch.parse_range("1-100").digest() == batch.parse_range("1-100").digest() != batch.parse_range("1-99").digest()
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("5-1", "5 comes after 1"),
        ("0-3", "start at 1"),
        ("abc", "is not a RANGE"),
        ("1-", "is not a RANGE"),
        ("1..5", "is not a RANGE"),
    ],
)
def test_parse_range_errors(text, message):
    with pytest.raises(batch.BatchError, match=message):
        batch.parse_range(text)


def test_parse_range_file(tmp_path):
    path = tmp_path / "hard.txt"
    path.write_text("# deals to look at\n33\n5\n\n37  # won in clear\n5\n")
    d = batch.parse_range(str(path))
    assert list(d.numbers) == [5, 33, 37] and d.label == "hard"
    path.write_text("5\nseven\n")
    with pytest.raises(batch.BatchError, match=r"hard.txt line 2: 'seven' is not a deal number"):
        batch.parse_range(str(path))
    path.write_text("# nothing\n")
    with pytest.raises(batch.BatchError, match="no deal numbers"):
        batch.parse_range(str(path))


def test_parse_modes():
    assert batch.parse_modes("classic,clear") == ("clear", "classic")
    assert batch.parse_modes("wasp, CLEAR,clear") == ("clear", "wasp")
    with pytest.raises(ValueError, match="unknown rules 'nope'"):
        batch.parse_modes("clear,nope")


def test_chunks_plan_and_names():
    assert (
        batch.default_chunk(60) == 10
        and batch.default_chunk(100_000) == 1000
        and batch.default_chunk(5_000_000) == 1000
    )
    plan = list(batch.plan_chunks(batch.parse_range("1-25"), 10))
    assert [c.name for c in plan] == [
        "chunk-00000001-00000010.parquet",
        "chunk-00000011-00000020.parquet",
        "chunk-00000021-00000025.parquet",
    ]
    assert batch.default_out(batch.parse_range("1-100"), ("clear", "classic"), batch.Limits(nodes=50)) == Path(
        "results/1-100-clear+classic-n50"
    )


def test_cli_user_mistakes(tmp_path):
    assert "5 comes after 1" in user_error(invoke("batch", "5-1", "--out", tmp_path / "x"))
    assert "unknown rules" in user_error(invoke("batch", "1-5", "--mode", "clear,nope"))
    assert "not a RANGE" in user_error(invoke("batch", "no-such-file.txt"))
    assert "not both" in user_error(invoke("batch", "1-5", "--scheduler", "tcp://x:1", "--dask-local", "2"))
    assert "is not a folder" in user_error(invoke("stats", tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    assert "no finished chunk files" in user_error(invoke("stats", tmp_path / "empty"))
    assert not (tmp_path / "x").exists()


def test_default_folder_under_results(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = batch_command("3-6", "--mode", "classic", "--nodes", "5000", "--workers", "1")
    out = tmp_path / "results" / "3-6-classic-n5000"
    assert result.stdout.startswith(str(Path("results/3-6-classic-n5000")))
    assert [p.name for p in sorted(out.glob("*.parquet"))] == ["chunk-00000003-00000006.parquet"]
    assert batch.read_folder(out).column("mode").to_pylist() == ["classic"] * 4


# ---------------------------------------------------------------------------
# the folder


def test_small_batch_rows(ref60):
    files = sorted(ref60.glob("*.parquet"))
    assert [f.name for f in files] == [batch.chunk_name(a, a + 9) for a in range(1, 61, 10)]
    for f in files:
        t = pq.read_table(f)
        assert t.schema.equals(batch.SCHEMA, check_metadata=False)
        keys = list(zip(t.column("deal").to_pylist(), t.column("mode").to_pylist()))
        assert keys == sorted(keys) and len(keys) == 20
        assert pq.ParquetFile(f).metadata.row_group(0).column(0).compression == "ZSTD"
    rows = batch.read_folder(ref60).to_pylist()
    assert len(rows) == 120 and {(r["deal"], r["mode"]) for r in rows} == {
        (d, m) for d in range(1, 61) for m in ("clear", "classic")
    }
    for r in rows:
        if r["deal"] <= 40:
            assert (r["status"] == "won") == (r["deal"] in WON_1_40[r["mode"]]), r
            assert r["status"] in ("won", "lost"), r
        assert (r["budget_nodes"], r["budget_memory_mb"], r["budget_seconds"]) == (batch.DEFAULT_NODES, 1024, None)
        if r["status"] == "won":  # every solution replays to a win
            rules = get_rules(r["mode"])
            moves = parse_moves(r["solution"])
            assert len(moves) == r["solution_length"]
            assert is_won(replay(deal(r["deal"], rules), moves, rules), rules)
        else:
            assert r["solution"] == "" and r["solution_length"] == 0


def test_metadata_records_settings(ref60):
    meta = json.loads((ref60 / "_batch.json").read_text())
    assert meta["format"] == "scorpion-batch/1" and meta["package_version"]
    assert meta["modes"] == ["clear", "classic"] and meta["rules"]["classic"]["runs"] == "frozen"
    assert meta["limits"] == {
        "nodes": batch.DEFAULT_NODES,
        "memory_mb": 1024,
        "seconds": None,
        "prune": True,
        "safe_leads": True,
        "successor_above": True,
    }
    assert meta["deals"]["spec"] == "1-60" and meta["deals"]["count"] == 60 and meta["chunk"] == 10
    assert meta["columns"] == list(batch.SCHEMA.names)
    run = meta["runs"][0]
    assert run["finished"] and run["chunks_written"] == 6 and run["execution"] == {"backend": "local", "workers": 2}
    assert run["machine"]["host"] and run["machine"]["cpus"] and "scorpion" in run["command"]


def test_readers_see_exactly_the_finished_rows(ref60, tmp_path):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    folder = copy_folder(ref60, tmp_path / "f")
    (folder / ".chunk-00000061-00000070.parquet.tmp").write_bytes(b"PAR1 half a file")  # a crash mid-write
    (folder / ".lock").touch()
    expected = sorted(zip(*[batch.read_folder(folder).column(c).to_pylist() for c in ("deal", "mode", "status")]))
    frame = pd.read_parquet(folder)
    assert sorted(zip(frame["deal"], frame["mode"], frame["status"])) == expected
    frame = pl.read_parquet(folder / "*.parquet")
    assert sorted(frame.select("deal", "mode", "status").iter_rows()) == expected
    rows = duckdb.sql(f"select deal, mode, status from read_parquet('{folder}/*.parquet')").fetchall()
    assert sorted(rows) == expected
    assert duckdb.sql(
        f"select count(*) from read_parquet('{folder}/*.parquet') where status = 'won' and deal <= 40"
    ).fetchall() == [(5,)]


# ---------------------------------------------------------------------------
# resume


def test_resume_after_deleting_chunks(ref60, tmp_path):
    folder = copy_folder(ref60, tmp_path / "resume")
    for name in ("chunk-00000011-00000020.parquet", "chunk-00000051-00000060.parquet"):
        (folder / name).unlink()
    result = batch_command("1-60", "--chunk", "10", "--workers", "2", "--out", folder)
    assert "2 chunks written now, 4 before, 6 in the plan" in result.stdout
    assert table(folder).equals(table(ref60))
    again = batch_command(
        "1-60", "--workers", "1", "--out", folder
    )  # nothing left: no chunk written, no worker started
    assert "0 chunks written now, 6 before" in again.stdout
    assert len(json.loads((folder / "_batch.json").read_text())["runs"]) == 2


def test_progress_bar_starts_where_the_folder_is():
    tally = batch.Tally(("clear", "classic"))
    tally.add("clear", "won", 3)
    stream = io.StringIO()
    bar = batch.make_progress(100, 40, tally, disable=False, file=stream)
    bar.update(10)
    bar.close()
    assert bar.n == 50 and "50/100" in stream.getvalue() and "clear W3 L0 U0 | classic W0 L0 U0" in stream.getvalue()


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait(timeout=30)


def test_sigkill_then_rerun_matches_uninterrupted(tmp_path):
    args = ["1-300", "--chunk", "10", "--workers", "2"]
    killed = tmp_path / "killed"
    cmd = [
        sys.executable,
        "-c",
        "from scorpion_solver.cli import main; main()",
        "batch",
        *args,
        "--out",
        str(killed),
        "--progress",
    ]
    proc = subprocess.Popen(
        cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    try:
        deadline = time.monotonic() + 120
        while not list(killed.glob("chunk-*.parquet")):
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "no chunk file after 120 s"
            time.sleep(0.002)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        _kill_group(proc)
    finished = sorted(killed.glob("chunk-*.parquet"))
    assert 0 < len(finished) < 30
    # every chunk file that counts is whole; a temporary file (if the kill hit a write) is not counted
    (killed / ".chunk-00000291-00000300.parquet.tmp").write_bytes(b"PAR1 torn")
    assert batch.read_folder(killed).num_rows == 20 * len(finished)
    pd = pytest.importorskip("pandas")
    assert len(pd.read_parquet(killed)) == 20 * len(finished)

    # Ctrl-C (SIGINT to the process group, as a terminal sends it): exit 130, finished chunks kept
    before = len(finished)
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(list(killed.glob("chunk-*.parquet"))) == before:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "no new chunk file after 120 s"
            time.sleep(0.002)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        _kill_group(proc)
    finished = sorted(killed.glob("chunk-*.parquet"))
    kept = f"interrupted: the {len(finished)} finished chunks in {killed} are kept"
    assert proc.returncode == 130 and kept in err.decode(), err.decode()
    assert before < len(finished) < 30
    assert batch.read_folder(killed).num_rows == 20 * len(finished)

    result = batch_command(*args, "--out", killed)
    assert f"{30 - len(finished)} chunks written now, {len(finished)} before" in result.stdout
    assert not [p for p in killed.iterdir() if p.name.endswith(".tmp")]
    clean = tmp_path / "clean"
    batch_command(*args, "--out", clean)
    assert table(killed).equals(table(clean))
    runs = json.loads((killed / "_batch.json").read_text())["runs"]
    assert runs[0]["finished"] is None  # the killed run never finished
    assert runs[1]["finished"] and runs[1]["stopped_early"] and not runs[2]["stopped_early"]


# ---------------------------------------------------------------------------
# one folder, one set of settings


def test_refuses_to_mix_settings(ref60, tmp_path):
    folder = copy_folder(ref60, tmp_path / "mix")
    common = ["--chunk", "10", "--workers", "1", "--out", folder]
    assert "refusing to mix results of different rules" in user_error(
        invoke("batch", "1-60", "--mode", "classic", *common)
    )
    assert "refusing to mix results of different rules" in user_error(
        invoke("batch", "1-60", "--mode", "wasp", *common)
    )
    message = user_error(invoke("batch", "1-60", "--nodes", "1000", *common))
    assert "different limits" in message and "--retry-unknown" in message
    assert "holds deals 1-60" in user_error(invoke("batch", "1-70", *common))
    assert "--chunk 10" in user_error(invoke("batch", "1-60", "--chunk", "20", "--out", folder))
    # the order of --mode does not matter
    assert "0 chunks written now" in batch_command("1-60", "--mode", "classic,clear", *common).stdout
    # one writer at a time
    with batch.FolderLock(folder):
        assert "another scorpion batch is writing to" in user_error(invoke("batch", "1-60", *common))
    # a preset whose rules changed since the folder was made
    meta = json.loads((folder / "_batch.json").read_text())
    meta["rules"]["classic"]["tail"] = "anytime"
    (folder / "_batch.json").write_text(json.dumps(meta))
    assert "the rules 'classic' recorded in" in user_error(invoke("batch", "1-60", *common))
    assert table(folder).equals(table(ref60))


def test_refuses_foreign_chunk_folder(tmp_path):
    folder = tmp_path / "foreign"
    folder.mkdir()
    batch.write_chunk(folder, "chunk-00000001-00000001.parquet", [])
    assert "no _batch.json" in user_error(invoke("batch", "1-5", "--out", folder))


# ---------------------------------------------------------------------------
# retry


def test_retry_unknown_with_bigger_budget(ref60, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "retry"
    batch_command("1-100", "--nodes", "50", "--chunk", "25", "--workers", "2", "--out", folder)
    first = {(r["deal"], r["mode"]): r for r in batch.read_folder(folder).to_pylist()}
    unknown = {k for k, r in first.items() if r["status"] == "unknown"}
    assert unknown and all(first[k]["stopped_by"] == "nodes" for k in unknown)
    assert len(unknown) < len(first)

    assert "needs a bigger budget" in user_error(invoke("batch", "1-100", "--retry-unknown", "--out", folder))
    assert "needs a bigger budget than" in user_error(
        invoke("batch", "1-100", "--retry-unknown", "--nodes", "20", "--out", folder)
    )
    assert "--retry-unknown needs --out" in user_error(invoke("batch", "1-100", "--retry-unknown", "--nodes", "99"))

    result = batch_command("1-100", "--retry-unknown", "--nodes", "2000000", "--workers", "2", "--out", folder)
    assert f"{len(unknown)} solves" in result.stdout
    after = {(r["deal"], r["mode"]): r for r in batch.read_folder(folder).to_pylist()}
    assert after.keys() == first.keys()
    for key, row in after.items():
        assert row["status"] in ("won", "lost")
        assert row["budget_nodes"] == (2_000_000 if key in unknown else 50)
        if key not in unknown:
            assert row == first[key]  # decided rows are left alone
    reference = {(r["deal"], r["mode"]): r["status"] for r in batch.read_folder(ref60).to_pylist()}
    assert all(after[k]["status"] == s for k, s in reference.items())
    meta = json.loads((folder / "_batch.json").read_text())
    assert meta["limits"]["nodes"] == 50 and meta["retries"][0]["limits"]["nodes"] == 2_000_000

    again = invoke("batch", "1-100", "--retry-unknown", "--nodes", "2000000", "--out", folder)
    assert again.exit_code == 0 and "no unknown deal left" in again.stderr
    stats = invoke("stats", folder)
    assert stats.exit_code == 0 and "decided by budget (nodes): 50:" in stats.stdout


def test_retry_needs_a_finished_folder(ref60, tmp_path):
    folder = copy_folder(ref60, tmp_path / "unfinished")
    (folder / "chunk-00000001-00000010.parquet").unlink()
    assert "is not finished" in user_error(
        invoke("batch", "1-60", "--chunk", "10", "--retry-unknown", "--nodes", batch.DEFAULT_NODES + 1, "--out", folder)
    )


# ---------------------------------------------------------------------------
# stats on a real folder, the Dask backend


def test_stats_on_batch_folder(ref60):
    result = invoke("stats", ref60, "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    rows = batch.read_folder(ref60).to_pylist()
    for mode in ("clear", "classic"):
        s = summary["modes"][mode]
        assert s["deals"] == 60 and s["won"] == sum(r["mode"] == mode and r["status"] == "won" for r in rows)
        assert s["wilson_low"] <= s["win_rate"] <= s["wilson_high"]
    assert summary["rules_bugs"] == [] and summary["paired"]["classic_only"] == 0
    assert summary["settings"]["deals"]["spec"] == "1-60"
    text = invoke("stats", ref60)
    assert text.exit_code == 0 and "McNemar" in text.stdout and "hardest" in text.stdout


def test_dask_local_cluster_matches_local(ref60, tmp_path):
    pytest.importorskip("distributed")
    folder = tmp_path / "dask"
    batch_command("1-60", "--chunk", "10", "--dask-local", "2", "--out", folder)
    assert table(folder).equals(table(ref60))
    execution = json.loads((folder / "_batch.json").read_text())["runs"][0]["execution"]
    assert execution["backend"] == "dask" and len(execution["workers"]) == 2
    assert "--workers is for local processes" in user_error(
        invoke("batch", "1-60", "--dask-local", "2", "--workers", "2", "--out", folder)
    )


def test_folder_made_before_the_successor_above_rule_resumes_only_with_it_off(tmp_path):
    """The committed folders predate the rule: resuming one asks for both options it was made without."""
    out = tmp_path / "old"
    flags = ("--no-safe-leads", "--no-successor-above")
    first = invoke("batch", "1-20", "--mode", "clear", "--out", out, "--chunk", "10", "--no-progress", *flags)
    assert first.exit_code == 0, first.output
    meta_path = out / batch.METADATA
    meta = json.loads(meta_path.read_text())
    assert meta["limits"]["safe_leads"] is False and meta["limits"]["successor_above"] is False
    del meta["limits"]["safe_leads"], meta["limits"]["successor_above"]  # as folders made before both
    meta_path.write_text(json.dumps(meta))
    (out / "chunk-00000011-00000020.parquet").unlink()
    refused = invoke("batch", "1-20", "--mode", "clear", "--out", out, "--no-progress")
    assert refused.exit_code == 2
    assert "no safe leads, no successor-above rule" in refused.output
    assert "add --no-safe-leads --no-successor-above" in refused.output
    only_one = invoke("batch", "1-20", "--mode", "clear", "--out", out, "--no-progress", "--no-safe-leads")
    assert only_one.exit_code == 2 and "add --no-successor-above" in only_one.output
    resumed = invoke("batch", "1-20", "--mode", "clear", "--out", out, "--no-progress", *flags)
    assert resumed.exit_code == 0, resumed.output
    assert batch.read_folder(out).column("deal").to_pylist() == list(range(1, 21))
    no_rule = Reductions(successor_above=False)
    assert batch.default_out(batch.parse_range("1-20"), ("clear",), batch.Limits(), no_rule).name.endswith(
        "-nosuccessorabove"
    )


def test_folder_made_before_safe_leads_resumes_only_with_them_off(tmp_path):
    """A folder whose limits predate ``safe_leads`` was solved without the cut: it is that setting, not another."""
    out = tmp_path / "old"
    first = invoke(
        "batch", "1-30", "--mode", "clear", "--out", out, "--chunk", "10", "--no-progress", "--no-safe-leads"
    )
    assert first.exit_code == 0, first.output
    meta_path = out / batch.METADATA
    meta = json.loads(meta_path.read_text())
    assert meta["limits"]["safe_leads"] is False
    del meta["limits"]["safe_leads"]  # as the folders written before the cut existed
    meta_path.write_text(json.dumps(meta))
    (out / "chunk-00000021-00000030.parquet").unlink()
    refused = invoke("batch", "1-30", "--mode", "clear", "--out", out, "--no-progress")
    assert refused.exit_code == 2
    assert "no safe leads" in refused.output and "add --no-safe-leads" in refused.output
    resumed = invoke("batch", "1-30", "--mode", "clear", "--out", out, "--no-progress", "--no-safe-leads")
    assert resumed.exit_code == 0, resumed.output
    table = batch.read_folder(out)
    assert table.column("deal").to_pylist() == list(range(1, 31))
    fresh = invoke("batch", "1-30", "--mode", "clear", "--out", tmp_path / "new", "--chunk", "10", "--no-progress")
    assert fresh.exit_code == 0, fresh.output
    assert batch.read_folder(tmp_path / "new").column("status").to_pylist() == table.column("status").to_pylist()
