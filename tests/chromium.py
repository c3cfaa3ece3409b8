"""Where the browser tests find Chromium, and what they do without it (one rule for every browser test).

Chromium is Debian's ``chromium`` (Playwright's own browser download does not
work on these machines), or the program ``SCORPION_CHROMIUM`` names. Without
it (or without Playwright) a browser test fails in CI, where ``.ci/run``
installs both, and is skipped elsewhere; ``tests/conftest.py`` then says so
loudly at the end of the run.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

INSTALL = "apt-get install chromium fonts-dejavu-core (or set SCORPION_CHROMIUM)"


def find_chromium() -> str | None:
    named = os.environ.get("SCORPION_CHROMIUM")
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    return shutil.which("chromium") or shutil.which("chromium-browser")


def launch_or_skip(driver_factory):
    """Chromium launched under Playwright (a generator for a module fixture), or the missing piece reported."""
    program = find_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        program, reason = (
            None,
            "Playwright is needed to drive headless Chromium in the browser tests: pip install -e '.[test]'",
        )
    else:
        reason = f"headless Chromium is needed for the browser tests: {INSTALL}"
    if program is None:
        if os.environ.get("CI"):
            pytest.fail(reason + " (.ci/run installs it)")
        pytest.skip(reason)
    with (driver_factory or sync_playwright)() as driver:
        running = driver.chromium.launch(executable_path=program)
        yield running
        running.close()
