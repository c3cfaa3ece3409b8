"""Pytest hooks and fixtures for the whole suite: the compiled solver loaded once, and a run without Chromium.

The solver's numba kernel is compiled (or loaded from numba's on-disk cache)
once per test run, by a session fixture, before the first test: no test pays
for it in its own time, and the tests that start ``scorpion`` in a subprocess
under a timeout find the cache filled (on a fresh checkout a first compile
takes minutes). The CLI runner the tests share is ``tests/scorpion_cli.py``.

The page tests (``tests/test_page.py``) open pages in headless Chromium and are
skipped on a machine without it (they fail instead when ``CI`` is set). A skip
is one ``s`` among hundreds of dots, easy to miss, so the header (shown without
``-q``) names the Chromium the run uses or says none was found, and the summary ends with a
line counting the browser checks that did not run and saying how to get them.
"""

from __future__ import annotations

import re

import pytest
from chromium import INSTALL, find_chromium

from scorpion_solver.solver.search import load_solver

_CHROMIUM = re.compile(r"chromium", re.IGNORECASE)


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
