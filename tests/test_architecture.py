"""The package's architecture is a checked contract, and the code passes its linter.

The layers (``cli`` above ``batch`` above ``analysis`` above ``solver`` above
``game``) are written as an import-linter contract in ``pyproject.toml``; these
tests run it on the package, and on a copy of the package with one forbidden
import added, to show that the check would catch a circle coming back.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    path = BIN / name
    if not path.exists():
        found = shutil.which(name)
        if found is None:
            pytest.fail(f"{name} is not installed: pip install -e '.[test]'")
        return found
    return str(path)


def _lint_imports(root: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run(
        [_tool("lint-imports"), "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_layers_contract_is_kept():
    run = _lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 kept, 0 broken" in run.stdout


@pytest.mark.parametrize(
    "module, forbidden_import",
    [
        ("game/cards.py", "from ..solver import result"),  # game reaching up to the solver
        ("solver/search.py", "from ..analysis import hints"),  # the solver reaching up to analysis
        ("batch/plan.py", "from .. import cli"),  # batch reaching up to the command line
    ],
)
def test_layers_contract_catches_an_upward_import(tmp_path, module, forbidden_import):
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copytree(
        ROOT / "scorpion_solver",
        copy / "scorpion_solver",
        ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"),
    )
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    with open(copy / "scorpion_solver" / module, "a", encoding="utf-8") as handle:
        handle.write(f"\n{forbidden_import}  # noqa: E402,F401\n")
    run = _lint_imports(copy)
    assert run.returncode != 0
    assert "1 broken" in run.stdout
    assert "is not allowed to import" in run.stdout


def test_ruff_lint_and_format_are_clean():
    paths = ["scorpion_solver", "tests", "benchmarks", "notebooks/run.py"]
    lint = subprocess.run([_tool("ruff"), "check", "--no-cache", *paths], cwd=ROOT, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout + lint.stderr
    fmt = subprocess.run(
        [_tool("ruff"), "format", "--no-cache", "--check", *paths], cwd=ROOT, capture_output=True, text=True
    )
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr
