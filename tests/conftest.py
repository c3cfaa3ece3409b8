"""Pytest hooks and fixtures for the whole suite: the compiled solver loaded once, and a run without Chromium.

The solver's numba kernels are compiled once per test run, before any test
and before pytest-xdist starts its workers (``pytest_sessionstart`` in the
controller, only when numba's cache lacks some, in three processes side by side:
``tests/compile_kernels.py``): two workers would otherwise compile the same
kernels side by side, minutes each on a fresh checkout. Each
process (a worker, or the one process of a run without ``-n``) then loads
them from the cache by a session fixture, before its first test: no test pays
for it in its own time, and the tests that start ``scorpion`` in a subprocess
under a timeout find the cache filled. The CLI runner the tests share is
``tests/scorpion_cli.py``.

The suite runs in parallel (``python -m pytest -n auto --dist loadfile``, the
README's command): each test file runs whole in one worker, so its
module-scoped fixtures (results folders, play runs) are made once; every test
writes only under its own ``tmp_path`` and binds only free ports.

The page tests (``tests/test_page.py``) open pages in headless Chromium and are
skipped on a machine without it (they fail instead when ``CI`` is set). A skip
is one ``s`` among hundreds of dots, easy to miss, so the header (shown without
``-q``) names the Chromium the run uses or says none was found, and the summary ends with a
line counting the browser checks that did not run and saying how to get them.
"""

from __future__ import annotations

import re

import compile_kernels
import pytest
from chromium import INSTALL, find_chromium

from scorpion_solver.solver.search import load_solver

_CHROMIUM = re.compile(r"chromium", re.IGNORECASE)


def pytest_sessionstart(session) -> None:
    """In the controller, before xdist starts the workers: compile the kernels numba's cache lacks, once."""
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller has done it
        return
    from scorpion_solver.solver import compiling

    wide = compiling.kernels_of(compile_kernels.WIDE_JOBS)
    if compiling.missing(compiling.SOLVER_KERNELS + compiling.PERFT_KERNELS + SUITE_KERNELS + wide):
        compile_kernels.compile_every_kernel()


SUITE_KERNELS = ("generate_moves", "is_deadlocked", "can_become_top")  # called from Python by the tests


@pytest.fixture(scope="session", autouse=True)
def compiled_solver() -> float:
    """Load the compiled solver into this process once; the seconds it took (0 when loaded already)."""
    return load_solver()


def pytest_report_header(config) -> str:
    found = find_chromium()
    if found:
        return f"chromium: {found}"
    return f"chromium: NOT FOUND, the browser tests will be skipped: {INSTALL}"


def _skip_reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if _CHROMIUM.search(_skip_reason(r))]
    if not skipped:
        return
    tests = "test" if len(skipped) == 1 else "tests"
    terminalreporter.write_sep(
        "!",
        f"BROWSER CHECKS SKIPPED: {len(skipped)} {tests} need headless Chromium: {INSTALL}",
        red=True,
        bold=True,
    )
