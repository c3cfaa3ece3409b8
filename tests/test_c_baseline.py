"""The native C baseline (benchmarks/c_baseline) is the same search as the numba kernel (safe leads and the
successor-above rule included).

benchmarks/compare_c.py measures the kernel's speed against it, which means
something only while both search the very same nodes: a change of the
kernel's search must be ported to the C file, and this test says when it was
not.
"""

from __future__ import annotations

import shutil
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.solver import driver, search
from scorpion_solver.solver.result import Limits

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
COMPARED = (
    "status",
    "nodes",
    "moves_made",
    "deadlock_checks",
    "deadlock_prunes",
    "peak_entries",
    "max_depth",
    "dead_at_root",
    "stopped_by",
    "solution",
)


@pytest.fixture(scope="module")
def c_kernel():
    if shutil.which("gcc") is None:
        pytest.skip("no gcc: the C baseline cannot be built")
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from c_kernel import load_c_kernel

        return load_c_kernel()
    finally:
        sys.path.remove(str(BENCHMARKS))


def solve_with(kernel, stack, position, rules, limits):
    saved = driver.kernel, driver._reused
    driver.kernel, driver._reused = kernel, stack
    try:
        return search.solve(position, rules, limits)
    finally:
        driver.kernel, driver._reused = saved


def same_results(c_kernel, cases, limits):
    c_stack = threading.local()
    results = []
    for rules, number in cases:
        position = deal(number, rules)
        ours = search.solve(position, rules, limits)
        theirs = solve_with(c_kernel, c_stack, position, rules, limits)
        for field in COMPARED:
            assert getattr(theirs, field) == getattr(ours, field), (rules.name, number, field)
        results.append((ours.status, ours.stopped_by))
    return results


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=["clear", "classic"])
def test_c_baseline_searches_the_same_nodes(c_kernel, rules):
    results = same_results(c_kernel, [(rules, n) for n in range(1, 61)], Limits())
    assert {("won", ""), ("lost", "")} <= set(results), results


# 127,000, 337,000 and 107,000 nodes (safe leads and the successor-above rule on)
HARD = [(CLEAR, 230), (CLEAR, 103), (CLASSIC, 87459)]


@pytest.mark.parametrize(
    "limits, stop", [(Limits(nodes=3000), "nodes"), (Limits(memory_mb=1), "memory")], ids=["nodes", "memory"]
)
def test_c_baseline_stops_at_the_same_node(c_kernel, limits, stop):
    assert same_results(c_kernel, HARD, limits) == [("unknown", stop)] * len(HARD)


def test_c_baseline_resumes_like_the_kernel(c_kernel, monkeypatch):
    """Kernel calls of 997 nodes each: hundreds of resumes, and the table grows between them."""
    monkeypatch.setattr(driver, "SLICE_NODES", 997)
    assert same_results(c_kernel, HARD, Limits()) == [("lost", "")] * len(HARD)


def test_c_baseline_leaves_the_same_table(c_kernel):
    """The same entries in the same slots: the C keys are the kernel's keys, not just as good."""
    tables = {}
    for name, kernel in (("numba", driver.kernel), ("C", c_kernel)):
        real = kernel.search

        def spy(*args, real=real, name=name):
            status = real(*args)
            tables[name] = args[5].copy()  # the table the last call left
            return status

        spy_kernel = type(sys)("spy_kernel")
        spy_kernel.__dict__.update({k: getattr(kernel, k) for k in dir(kernel) if not k.startswith("__")})
        spy_kernel.search = spy
        result = solve_with(spy_kernel, threading.local(), deal(230), CLEAR, Limits())
        assert result.status == "lost" and result.nodes == 127072
    assert tables["numba"].shape == tables["C"].shape and np.array_equal(tables["numba"], tables["C"])
    assert np.count_nonzero(tables["C"][:, 1]) == 127072
