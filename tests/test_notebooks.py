"""The analysis notebooks of notebooks/ run, against a small results folder made here.

CI never depends on the big results folder: a module fixture solves deals
1-300 in both modes (with a small node budget, so that some deals are
unknown) and every committed notebook is executed against it through
SCORPION_RESULTS. The notebooks must also match their generator,
notebooks/build_notebooks.py. Skipped when the `notebooks` extra is missing.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
NAMES = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
CELL_TIMEOUT = 120


def load_builder():
    spec = importlib.util.spec_from_file_location("build_notebooks", NOTEBOOKS / "build_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ci_installs_the_notebooks_extra():
    """Without the extra the notebook tests would be skipped silently: CI must install it."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert {"nbclient", "nbformat", "ipykernel", "matplotlib", "pandas"} <= set(extras["notebooks"])
    install = "pip install -q -e '.[test,dask,notebooks]'"
    assert install in (ROOT / ".ci" / "run").read_text()
    assert install in (ROOT / "README.md").read_text()


def test_committed_notebooks_match_their_generator():
    nbformat = pytest.importorskip("nbformat")
    builder = load_builder()
    assert NAMES == sorted(builder.NOTEBOOKS), "notebooks/*.ipynb and build_notebooks.NOTEBOOKS differ"
    for name in NAMES:
        committed = nbformat.read(NOTEBOOKS / name, as_version=4)
        assert builder.sources(committed) == builder.sources(builder.build(name)), (
            f"notebooks/{name} differs from build_notebooks.py: run python notebooks/build_notebooks.py --execute"
        )


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("results") / "deals-1-300"
    command = [
        sys.executable,
        "-m",
        "scorpion_solver",
        "batch",
        "1-300",
        "--mode",
        "clear,classic",
        "--workers",
        "2",
        "--nodes",
        "200000",
        "--out",
        str(out),
        "--no-progress",
    ]
    done = subprocess.run(command, check=False, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return out


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs(name, sample, monkeypatch):
    pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    builder = load_builder()
    monkeypatch.setenv("SCORPION_RESULTS", str(sample))
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    builder.execute(nb, timeout=CELL_TIMEOUT)  # raises CellExecutionError, naming the cell, on any error
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert str(sample) in text, "the notebook did not read SCORPION_RESULTS"
    assert any("image/png" in o.get("data", {}) for o in outputs), "the notebook drew no plot"
