"""benchmarks/bench_batch.py (issue 32): its runs, and a small run end to end against the C twin.

The end-to-end run is the benchmark itself on a few deals: it must find the
C twin's verdicts and nodes equal to the batch's on every deal, write both
reports, and carry the check's share and the ratio to the C twin per run.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_batch  # noqa: E402  (benchmarks/bench_batch.py)


def test_the_default_runs_are_the_issues_three():
    assert bench_batch.parse_runs(bench_batch.DEFAULT_RUNS) == [
        (("classic",), 1, 20000),
        (("clear",), 1, 20000),
        (("clear", "classic"), 1, 10000),
    ]
    assert bench_batch.parse_runs("clear:7") == [(("clear",), 7, 7)]


@pytest.mark.parametrize("text", ["wasp:1-10", "clear:10-1", "clear", "clear+clear:1-5", "classic:0-3", "clear:a-b"])
def test_a_bad_run_is_one_clear_error(text):
    with pytest.raises(SystemExit, match=re.escape(f"--runs: '{text}' is not a run")):
        bench_batch.parse_runs(text)


def test_rows_that_differ_between_sides_are_named():
    this = {"5:clear": ["won", 40, "aaa"], "6:clear": ["lost", 9, "bbb"], "7:classic": ["won", 3, "ccc"]}
    base = {"5:clear": ["won", 40, "aaa"], "6:clear": ["won", 9, "bbb"], "7:classic": ["won", 3, "ddd"]}
    assert bench_batch.rows_differ(this, base) == [
        "deal 6 (clear): this ['lost', 9], baseline ['won', 9]",
        "deal 7 (classic): this ['won', 3], baseline ['won', 3] (solutions differ)",
    ]
    assert bench_batch.rows_differ(this, dict(this)) == []


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("gcc") is None, reason="the C twin needs gcc")
def test_a_small_run_agrees_with_its_c_twin(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_batch.py"), "--runs", "classic:1-40,clear+classic:1-12"]
        + ["--chunk", "20", "--split-calls", "0", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    (report_file,) = tmp_path.glob("batch-1-40-*.json")
    report = json.loads(report_file.read_text())
    assert report["runs"] == ["classic 1-40", "clear+classic 1-12"]
    (side,) = report["sides"]
    for run, deals in zip(side["runs"], (40, 24)):
        assert run["all"]["deals"] == deals
        assert run["verify"]["won_deals"] > 0  # deal 5 is won in both modes
        assert run["c_twin"]["differ"] == [] and run["c_twin"]["seconds"] > 0
        assert run["c_twin"]["total_over_c_twin"] > 1  # the batch does more than the search
        assert run["c_twin"]["line_seconds"] > 0  # deal 5's line is cut of its detours
        assert 1 < run["c_twin"]["total_over_native"] < run["c_twin"]["total_over_c_twin"]
        assert 0 < run["check_share"] < 1 and run["check"]["seconds"] > 0  # the check, timed in the plain pass
    assert "| classic 1-40 | this checkout | 40 |" in (report_file.with_suffix(".md")).read_text()
