"""The installed numba behaves as docs/design.md's choice for the game shapes assumes.

The kernel will compile one search per game shape (issue 53: Double Scorpion
and Three Blind Mice beside Scorpion). docs/design.md, "Relatives: several
game shapes in one search", chose the way from what
``benchmarks/shape_specialization.py`` found; this test runs that probe
and checks each finding, so a numba upgrade that changes one is noticed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import shape_specialization  # noqa: E402  (benchmarks/shape_specialization.py)


@pytest.fixture(scope="module")
def runs():
    return shape_specialization.probe_twice()


def test_a_literal_shape_compiles_per_shape_on_demand_folds_and_caches(runs):
    first, second = runs
    # 7 and 10 columns of ones, summed twice (inline and in a called helper)
    assert (first["literal"]["one_deck_answer"], first["literal"]["two_deck_answer"]) == (14, 20)
    assert first["literal"]["signatures_after_one_deck"] == ["Literal[int](0)"]
    assert first["literal"]["two_deck_constant_offsets"] == 10
    assert first["literal"]["cache_hits"] == 0 and second["literal"]["cache_hits"] == 2


def test_the_state_element_type_selects_the_shape_folds_and_caches(runs):
    first, second = runs
    assert first["typed"]["answers (int8 state, int16 state)"] == [14, 20]
    assert first["typed"]["signatures"] == ["int8", "int16"]
    # without reference counting, frames copied with kernel._copy_into, 7 and 10 columns
    assert first["typed"]["frames (int8, int16)"] == second["typed"]["frames (int8, int16)"] == [38, 50]
    assert first["typed"]["two_deck_constant_offsets"] == 10
    assert first["typed"]["cache_hits"] == 0 and second["typed"]["cache_hits"] == 2


def test_a_closure_holding_a_kernel_never_loads_from_the_cache(runs):
    first, second = runs
    assert first["closure"]["answers"] == second["closure"]["answers"] == [14, 20]
    assert second["closure"]["cache_hits"] == 0
    assert second["closure_cache_files"] > first["closure_cache_files"]


def test_a_second_import_with_other_globals_runs_the_first_shapes_code(runs):
    for run in runs:
        # 10 columns of ones must sum to 10: the cache hands back the 7-column code
        assert run["globals"]["answers (7 then 10 columns of ones)"] == [7, 7]
