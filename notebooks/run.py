#!/usr/bin/env python3
"""Run the analysis notebooks of notebooks/ and keep their outputs; check their pairing.

Each notebook is kept as code: NAME.py, a jupytext percent script (`# %%`
cells), paired with NAME.ipynb (jupytext metadata `formats: ipynb,py:percent`),
which holds the same cells and the outputs of the last run. Edit either and
bring the other up to date with `jupytext --sync notebooks/*.py`. This script
runs the notebooks in a fresh kernel of this interpreter (ipykernel, through
nbclient) and writes each .ipynb back with its outputs:

    jupytext --sync notebooks/*.py                    # pair: the newer of NAME.py and NAME.ipynb wins
    python notebooks/run.py                           # run them all, against results/deals-1-1000000
    python notebooks/run.py win_rates                 # just one
    python notebooks/run.py --results results/quickstart   # another folder (sets SCORPION_RESULTS)
    python notebooks/run.py --check                   # exit 1 if a notebook and its script differ

tests/test_notebooks.py uses `execute` and `sources` to run every notebook
against a small results folder it makes itself.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CELL_TIMEOUT = 600  # seconds per cell on the full million-deal folder
NAMES = sorted(p.stem for p in HERE.glob("*.ipynb"))


def sources(nb) -> list[tuple[str, str]]:
    """What a notebook and its script must agree on: the cells' kinds and sources."""
    return [(cell.cell_type, cell.source) for cell in nb.cells]


def differs(name: str) -> bool:
    """True when notebooks/NAME.ipynb and notebooks/NAME.py do not hold the same cells (or one is missing)."""
    import jupytext

    notebook, script = HERE / f"{name}.ipynb", HERE / f"{name}.py"
    if not (notebook.is_file() and script.is_file()):
        return True
    return sources(jupytext.read(notebook)) != sources(jupytext.read(script))


def kernel_manager():
    """A kernel manager for ipykernel in this very interpreter (sys.executable).

    Only ipykernel's own kernel spec is looked at, so another kernel called
    ``python3`` elsewhere on the machine cannot take its place.
    """
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    specs = KernelSpecManager(kernel_dirs=[], ensure_native_kernel=True)
    return KernelManager(kernel_name="python3", kernel_spec_manager=specs)


def execute(nb, timeout: int = CELL_TIMEOUT, cwd: Path = HERE):
    """Run every cell of ``nb`` in place (working folder ``cwd``); raises CellExecutionError on an error.

    The results folder is the kernel's SCORPION_RESULTS (inherited from this
    process's environment).
    """
    from nbclient import NotebookClient

    client = NotebookClient(
        nb,
        km=kernel_manager(),
        timeout=timeout,
        startup_timeout=120,
        record_timing=False,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    return nb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("names", nargs="*", metavar="NOTEBOOK", help="only these (default: all)")
    parser.add_argument("--results", metavar="DIR", help="the results folder (sets SCORPION_RESULTS)")
    parser.add_argument("--timeout", type=int, default=CELL_TIMEOUT, help="seconds per cell (default %(default)s)")
    parser.add_argument(
        "--check", action="store_true", help="run nothing; exit 1 if a notebook's cells differ from its script's"
    )
    args = parser.parse_args(argv)
    names = [Path(n).name.removesuffix(".ipynb").removesuffix(".py") for n in args.names] or NAMES
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        parser.error(f"unknown notebook(s) {', '.join(unknown)}; known: {', '.join(NAMES)}")
    stale = [n for n in names if differs(n)]
    for n in stale:
        print(f"{n}.ipynb and {n}.py differ: run `jupytext --sync notebooks/{n}.py` first", file=sys.stderr)
    if args.check or stale:
        return 1 if stale else 0
    if args.results:
        os.environ["SCORPION_RESULTS"] = str(Path(args.results).resolve())
    import nbformat

    for n in names:
        path = HERE / f"{n}.ipynb"
        nb = nbformat.read(path, as_version=4)
        print(f"running {n}.ipynb ...", file=sys.stderr, flush=True)
        execute(nb, timeout=args.timeout)
        nbformat.write(nb, path)
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
