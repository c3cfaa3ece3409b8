"""A batch ends promptly, with its workers, on every path: finished, failed, or aborted mid-transfer.

The hang these tests pin: a fatal error (a results folder that cannot be written)
aborts the local pool by terminating its workers. A worker killed while sending
its rows leaves half a message in the result pipe; the pool's manager thread
then waits in ``recv`` for the rest, and the interpreter's exit joins that thread
forever (the batch had printed its one-line error and never exited). The mid-send
abort is reproduced exactly by watching the manager thread until it is inside
``recv``; the full-disk failure of the README's own tests is repeated under load.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from scorpion_solver import batch
from scorpion_solver.solver.result import Limits

# not scorpion_cli.SCORPION: a subprocess imports this module as tests.test_batch_shutdown
SCORPION = [sys.executable, "-m", "scorpion_solver"]

MID_SEND_ABORT = textwrap.dedent(
    """
    import multiprocessing, sys, time
    from concurrent.futures import ProcessPoolExecutor
    from scorpion_solver.batch.backends import LocalBackend
    from tests.test_batch_shutdown import many_rows

    def manager_receiving(manager):
        frame = sys._current_frames().get(manager.ident)
        while frame is not None:
            if frame.f_code.co_name == "_recv":
                return True
            frame = frame.f_back
        return False

    if __name__ == "__main__":
        backend = LocalBackend.__new__(LocalBackend)  # a bare pool: no solver to load in the worker
        backend.workers = 1
        backend.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        future = backend.submit(many_rows)
        manager = backend.pool._executor_manager_thread
        started = time.monotonic()
        while not manager_receiving(manager):
            assert not future.done() and time.monotonic() - started < 120, "the rows never started to arrive"
            time.sleep(0.0005)
        backend.close(abort=True)
        print("aborted:", type(future.exception()).__name__, flush=True)
    """
)


def many_rows() -> bytes:
    """A result big enough that sending it takes a while: the abort lands in the middle of it."""
    return b"x" * (600 << 20)


def test_aborting_a_pool_while_a_worker_sends_its_rows_ends_the_process(tmp_path):
    script = tmp_path / "abort.py"
    script.write_text(MID_SEND_ABORT)
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env, cwd=root)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "aborted: BrokenProcessPool\n"


class InlineBackend:
    """Runs each task in this process at submit; records how it was closed."""

    name = "inline"
    window = 2

    def __init__(self) -> None:
        self.closed: list[bool] = []

    def submit(self, fn, *args):
        future = Future()
        future.set_result(fn(*args))
        return future

    def wait_any(self, futures):
        return set(futures), set()

    def describe(self) -> dict:
        return {"backend": self.name}

    def close(self, abort: bool = False) -> None:
        self.closed.append(abort)


def test_a_finished_batch_closes_its_backend_once(tmp_path):
    backend = InlineBackend()
    settings = batch.BatchSettings(batch.parse_range("1-4"), ("clear",), Limits(nodes=200), chunk=2)
    report = batch.run_batch(settings, tmp_path / "out", batch.Execution(lambda: backend, progress=False))
    assert report.complete and report.written == 2
    assert backend.closed == [False]


def test_a_finished_play_run_closes_its_backend_once(tmp_path):
    from scorpion_solver.batch.play_runs import PlaySettings, run_play
    from scorpion_solver.play.players import PolicySpec

    backend = InlineBackend()
    settings = PlaySettings(
        batch.parse_range("1-2"), ("clear",), PolicySpec("random"), skip_lost=False, exact=None, chunk=2
    )
    report = run_play(settings, tmp_path / "play", batch.Execution(lambda: backend, progress=False))
    assert report.complete
    assert backend.closed == [False]


def test_a_failed_chunk_write_aborts_the_backend_once(tmp_path):
    backend = InlineBackend()
    out = tmp_path / "out"
    settings = batch.BatchSettings(batch.parse_range("1-4"), ("clear",), Limits(nodes=200), chunk=2)

    def failing_write(*args, **kwargs):
        raise OSError(28, "No space left on device")

    original = batch.runner.write_chunk
    batch.runner.write_chunk = failing_write
    try:
        with pytest.raises(OSError):
            batch.run_batch(settings, out, batch.Execution(lambda: backend, progress=False))
    finally:
        batch.runner.write_chunk = original
    assert backend.closed == [True]


def _file_size_limit(limit: int):
    def preexec():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return preexec


def _full_disk_failures(tmp_path: Path, times: int) -> None:
    """Run the full-disk batch ``times`` times beside two busy loops; each must end with its one error line."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        for attempt in range(times):
            out = tmp_path / f"full-{attempt}"
            command = [*SCORPION, "batch", "1-400", "--chunk", "200", "--nodes", "50", "--workers", "1"]
            started = time.monotonic()
            done = subprocess.run(
                [*command, "--out", str(out), "--no-progress"],
                capture_output=True,
                text=True,
                timeout=240,
                preexec_fn=_file_size_limit(6000),
            )
            assert done.returncode == 2, (attempt, done.stderr)
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            assert len(lines) == 1 and "File too large" in lines[0], (attempt, done.stderr)
            assert time.monotonic() - started < 240
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def test_a_full_disk_ends_the_batch_every_time_under_load(tmp_path):
    # twice here (the mid-send abort above pins the hang itself); thirty times under -m slow
    _full_disk_failures(tmp_path, times=2)


@pytest.mark.slow
def test_a_full_disk_ends_the_batch_every_time_under_load_many_times(tmp_path):
    _full_disk_failures(tmp_path, times=30)
