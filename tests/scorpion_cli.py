"""The ``scorpion`` command run in process for the tests, the checks of a user mistake, and a small results folder.

One runner for every test file (click's CliRunner; every argument passed as
text), and the project's rule for a user mistake written once: exit status 2,
exactly one line on stderr that starts with ``error:``, no traceback. A plain
module beside ``conftest.py`` (as ``chromium.py`` is), because pytest's
conftest files are not meant to be imported by the tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

from click.testing import CliRunner

from scorpion_solver import batch
from scorpion_solver.batch.backends import solve_chunk
from scorpion_solver.batch.folder import new_metadata
from scorpion_solver.cli import main
from scorpion_solver.solver.result import Limits

SCORPION = [sys.executable, "-m", "scorpion_solver"]  # the command in a process of its own


def run(*args, input=None, catch_exceptions: bool = True):
    """``scorpion ARGS`` in this process; stdout and stderr apart (click's Result)."""
    return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=catch_exceptions)


def assert_one_error_line(stderr: str, *fragments) -> str:
    """stderr (blank lines aside) is one line starting with 'error: ' holding every fragment, and no traceback."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def assert_user_error(result, *fragments) -> str:
    """Exit status 2, exactly one line on stderr starting with 'error:' (with every fragment), no traceback."""
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


def small_folder(out: Path, deals: str = "1-4", chunk: int = 2, nodes: int = 2000, modes=("clear", "classic")):
    """A finished results folder made in this process (no worker pool)."""
    out.mkdir()
    settings = batch.BatchSettings(batch.parse_range(deals), tuple(modes), Limits(nodes=nodes))
    batch.write_metadata(out, new_metadata(settings, chunk))
    for piece in batch.plan_chunks(settings.deals, chunk):
        rows = solve_chunk(tuple(piece.deals.tolist()), settings.modes, settings.limits)
        batch.write_chunk(out, piece.name, rows)
    return out
