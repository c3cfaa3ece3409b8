"""The machine code of every kernel, compiled with and without the numba patches (solver/numba_patches.py): the same.

    python benchmarks/numba_patch_check.py     # about 5 minutes of CPU: every job compiled twice

The patches change how numba does its work on the kernels' IR (how it
copies an inlined callee, how often it types a call, how it finds live
variables), not what it makes of it; this compiles every job of
``solver.compiling.JOBS`` from an empty numba cache in two processes, numba's
own way (``SCORPION_NUMBA_STOCK=1``) and patched, and compares each compiled
kernel's assembly with the names that differ from process to process
masked: labels, mangled symbol names (numba's unique ids) and the constant
byte strings' (Python's per-process string hash). Equal assembly means
equal speed, so the patches need no speed benchmark; the report gives each
side's CPU seconds of the compile (``--measure``'s process compiles every
job itself: ``SCORPION_COMPILE_PROCESSES=1``; about 1.5-3 minutes each).
Exits 1 when any kernel differs. Reports go to
``benchmarks/results/numba-patches-<date>``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import machine_record, write_report  # noqa: E402


def measure() -> dict:
    """In this process (its numba cache empty): every job compiled, each kernel's assembly hashed."""
    from numba.core.registry import CPUDispatcher

    from scorpion_solver.solver import compiling, deal_kernel, kernel, numba_patches, search

    start = time.process_time()
    search.load_solver(jobs=tuple(compiling.JOBS))
    seconds = time.process_time() - start
    hashes = {}
    for module in (kernel, deal_kernel):
        for function in vars(module).values():
            if not isinstance(function, CPUDispatcher):
                continue
            for signature in function.signatures:
                asm = function.inspect_asm(signature)
                text = numba_patches.masked_assembly(asm)
                name = compiling.compiled_name(function.py_func, signature)
                hashes[name] = {"lines": text.count("\n") + 1, "sha1": hashlib.sha1(text.encode()).hexdigest()}
    return {"patched": numba_patches.applied(), "cpu_seconds": round(seconds, 1), "kernels": hashes}


def run_side(stock: bool) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {
            **os.environ,
            "NUMBA_CACHE_DIR": cache,
            "SCORPION_NUMBA_STOCK": "1" if stock else "0",
            # every kernel compiled in this process: one loaded from a cache another process wrote has no assembly
            "SCORPION_COMPILE_PROCESSES": "1",
        }
        done = subprocess.run(
            [sys.executable, __file__, "--measure"], env=env, capture_output=True, text=True, check=False
        )
    if done.returncode != 0:
        raise SystemExit(f"the {'stock' if stock else 'patched'} compile failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent / "results"), help="report folder")
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure()))
        return 0
    load_before = os.getloadavg()
    stock, patched = run_side(stock=True), run_side(stock=False)
    short = [n for side in (stock, patched) for n, k in side["kernels"].items() if k["lines"] < 20]
    if short:
        raise SystemExit(f"no assembly for {sorted(set(short))}: loaded from a cache, not compiled in the process")
    if any(stock["patched"].values()) or not all(patched["patched"].values()):
        raise SystemExit(
            f"the patches were not applied as asked: stock {stock['patched']}, patched {patched['patched']}"
        )
    names = sorted(set(stock["kernels"]) | set(patched["kernels"]))
    differing = [n for n in names if stock["kernels"].get(n) != patched["kernels"].get(n)]
    rows = [
        f"| `{n}` | {stock['kernels'].get(n, {}).get('lines', '-')} | {'same' if n not in differing else 'DIFFERS'} |"
        for n in names
    ]
    lines = [
        "# numba patched (solver/numba_patches.py): the same machine code",
        "",
        f"Every job compiled from an empty cache: stock {stock['cpu_seconds']} CPU s, patched "
        f"{patched['cpu_seconds']} CPU s (one process each, one after the other; patches "
        f"{', '.join(name for name, on in patched['patched'].items() if on)}). "
        f"{len(names) - len(differing)} of {len(names)} kernels' assembly identical (labels and mangled "
        "names and byte strings masked).",
        "",
        "| kernel | assembly lines | stock vs patched |",
        "|---|---:|---|",
        *rows,
        "",
        f"Machine: {machine_record()['cpu']}, load {load_before} before and {os.getloadavg()} after.",
    ]
    record = {"stock": stock, "patched": patched, "differing": differing, "machine": machine_record()}
    write_report(args.out, "numba-patches", record, "\n".join(lines) + "\n")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
