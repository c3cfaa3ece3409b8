"""A test run without Chromium says loudly that the browser checks were skipped (issue 25 item 9).

The hooks are in ``tests/conftest.py``; they are run here on a small suite of
their own (pytester) and on the real page tests in a subprocess whose
``SCORPION_CHROMIUM`` names a program that does not exist.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

pytest_plugins = ["pytester"]

TESTS = Path(__file__).resolve().parent
MISSING = "/nonexistent/chromium-for-the-test"
PICK = "test_won_deal_steps_to_the_won_position_with_the_keys or test_phone_and_desktop_widths_fit"  # two browser tests


def _suite(pytester):
    _conftest(pytester)
    pytester.makepyfile(
        test_pages="""
import pytest

@pytest.fixture(scope="module")
def browser():
    pytest.skip("headless Chromium is needed for the browser tests: apt-get install chromium")

def test_one(browser):
    pass

def test_two(browser):
    pass

def test_other():
    pytest.skip("no reason to do with a browser")

def test_plain():
    assert True
"""
    )


def _conftest(pytester):
    """The suite's conftest.py and the module it imports, copied beside the small suite."""
    pytester.makeconftest((TESTS / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(chromium=(TESTS / "chromium.py").read_text(encoding="utf-8"))


def test_the_summary_counts_the_skipped_browser_tests(pytester, monkeypatch):
    monkeypatch.setenv("SCORPION_CHROMIUM", MISSING)
    _suite(pytester)
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, skipped=3)
    result.stdout.fnmatch_lines(
        [
            "chromium: NOT FOUND, the browser tests will be skipped: apt-get install chromium fonts-dejavu-core*",
            "*BROWSER CHECKS SKIPPED: 2 tests need headless Chromium: apt-get install chromium fonts-dejavu-core*",
        ]
    )


def test_no_line_when_nothing_about_a_browser_was_skipped(pytester, monkeypatch):
    monkeypatch.setenv("SCORPION_CHROMIUM", MISSING)
    _conftest(pytester)
    pytester.makepyfile(
        test_plain="""
import pytest

def test_plain():
    assert True

def test_other():
    pytest.skip("no reason to do with a browser")
"""
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, skipped=1)
    assert "BROWSER CHECKS SKIPPED" not in result.stdout.str()


def test_the_header_names_the_chromium_found(pytester, monkeypatch):
    monkeypatch.setenv("SCORPION_CHROMIUM", sys.executable)  # any program that exists stands in for it
    _suite(pytester)
    result = pytester.runpytest()
    result.stdout.fnmatch_lines([f"chromium: {sys.executable}"])


def test_the_real_page_tests_without_chromium_say_so(tmp_path):
    """The page tests themselves, run as the README runs them, on a machine where no Chromium is found."""
    env = {k: v for k, v in os.environ.items() if k != "CI"}  # with CI set they fail instead, on purpose
    env["SCORPION_CHROMIUM"] = MISSING
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(TESTS / "test_page.py"), "-k", PICK],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 skipped" in run.stdout, run.stdout
    lines = [line for line in run.stdout.splitlines() if "BROWSER CHECKS SKIPPED" in line]
    assert len(lines) == 1 and "2 tests need headless Chromium" in lines[0], run.stdout
