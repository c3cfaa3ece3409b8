"""The jitted deal generator against its plain twin, and the batch's fast path against solve().

``deal_kernel.DealWriter.deal_into`` must write exactly ``to_compact(deal(n))``
for every deal number (both generators: Microsoft below 32000, the Mersenne
Twister from 32000 on, seeded with one or two 32-bit words), under every
face-down pattern; ``search.solve_deal`` must return what
``solve(deal(n))`` returns; ``solve_pairs`` (the batch worker) uses it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_deal import GOLDEN

from scorpion_solver import CLASSIC, CLEAR, deal, format_position
from scorpion_solver.batch import backends
from scorpion_solver.batch.folder import COLUMNS, STRINGIFY
from scorpion_solver.game.deal import MS_LIMIT
from scorpion_solver.game.rules import PRESETS, SCORPION2
from scorpion_solver.solver import deal_kernel, kernel
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import from_compact, solve, solve_deal, to_compact

EDGES = [1, 2, 3, 617, 11982, 31998, 31999, 32000, 32001, 32767, 32768, 99999, 100000, 1000000]
WORDS = [2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**33 + 12345, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1]


def jit_state(number, rules=CLEAR):
    state = np.full(kernel.STATE_SIZE, 99, dtype=np.int8)  # every byte must be written
    assert deal_kernel.DealWriter().deal_into(number, rules.face_down, state)
    return state


def test_the_layout_is_the_kernels_alone():
    """The shuffle keeps no copy of the state layout (kernel.write_deal writes the state), so an edit
    of the layout cannot leave a stale copy in numba's cache of this module; the generator switch is
    its own constant and must be game.deal's."""
    for name in ("COL_CAP", "COLS", "LEN", "HID", "FLOOR", "LOCCOL", "LOCIDX", "TAIL", "DEALT", "SWEPT", "FROZEN"):
        assert not hasattr(deal_kernel, name), name
    assert not hasattr(deal_kernel, "STATE_SIZE")
    assert deal_kernel.MS_LIMIT == MS_LIMIT


@pytest.mark.parametrize("number", sorted(GOLDEN))
def test_golden_deals(number):
    assert format_position(from_compact(jit_state(number))) == GOLDEN[number] + "\n"


@pytest.mark.parametrize("number", EDGES + WORDS)
@pytest.mark.parametrize("rules", [CLEAR, SCORPION2], ids=lambda r: r.name)
def test_equal_to_the_plain_generator_at_the_edges(number, rules):
    assert np.array_equal(jit_state(number, rules), to_compact(deal(number, rules)))


def test_equal_to_the_plain_generator_on_many_numbers():
    rng = random.Random(13)
    numbers = list(range(1, 2001)) + list(range(31000, 33001))
    numbers += [rng.randrange(1, 2**32) for _ in range(500)] + [rng.randrange(2**32, 2**64) for _ in range(500)]
    writer = deal_kernel.DealWriter()
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int8)
    for n in numbers:
        assert writer.deal_into(n, CLEAR.face_down, state)
        assert np.array_equal(state, to_compact(deal(n))), n


def test_numbers_from_2_to_the_64_take_the_plain_path():
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int8)
    assert not deal_kernel.DealWriter().deal_into(2**64, CLEAR.face_down, state)
    assert not state.any()
    big = 2**64 + 5
    a, b = solve(deal(big), CLEAR, Limits(nodes=2000)), solve_deal(big, CLEAR, Limits(nodes=2000))
    a.seconds = b.seconds = 0.0
    assert a == b


@pytest.mark.parametrize("bad", [0, -1, True, 1.0, "1", None])
def test_bad_numbers_are_refused_as_by_deal(bad):
    with pytest.raises(ValueError):
        deal(bad)
    with pytest.raises(ValueError):
        deal_kernel.DealWriter().deal_into(bad, CLEAR.face_down, np.zeros(kernel.STATE_SIZE, dtype=np.int8))


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_solve_deal_is_solve_of_the_deal(rules):
    for n in list(range(1, 121)) + [32000, 2**40 + 3]:
        a, b = solve(deal(n, rules), rules), solve_deal(n, rules)
        a.seconds = b.seconds = 0.0
        assert a == b, n


@pytest.mark.parametrize(
    "name",
    sorted(name for name, rules in PRESETS.items() if rules.is_scorpion_shape and name not in ("clear", "classic")),
)
def test_solve_deal_in_the_relatives(name):
    rules = PRESETS[name]
    for n in range(1, 16):
        a, b = solve(deal(n, rules), rules, Limits(nodes=20000)), solve_deal(n, rules, Limits(nodes=20000))
        a.seconds = b.seconds = 0.0
        assert a == b, n


def test_solve_pairs_rows_are_the_rows_of_solve():
    limits = Limits(nodes=100_000)
    pairs = [(n, mode) for n in range(1, 41) for mode in ("clear", "classic")]
    rows = backends.solve_pairs(pairs, limits)
    assert sum(row["status"] == "won" for row in rows) == 5  # 5, 33, 37 in Clear; 5, 37 in classic
    for (n, mode), row in zip(pairs, rows):
        rules = PRESETS[mode]
        expected = solve(deal(n, rules), rules, limits).as_row()
        expected.update(deal=n, mode=mode, budget_nodes=limits.nodes, budget_memory_mb=limits.memory_mb)
        expected["budget_seconds"] = None
        expected = {k: str(expected[k]) if k in STRINGIFY else expected[k] for k in COLUMNS}
        assert list(row) == list(COLUMNS)
        row, expected = dict(row, seconds=0.0), dict(expected, seconds=0.0)
        assert row == expected


def test_solve_pairs_uses_the_fast_path(monkeypatch):
    from scorpion_solver.solver import search

    numbers = []
    real = search.solve_deal

    def spy(number, rules, limits, reductions, checks):
        numbers.append(number)
        return real(number, rules, limits, reductions, checks)

    monkeypatch.setattr(search, "solve_deal", spy)
    pairs = [(n, "clear") for n in range(1, 11)] + [(5, "classic"), (8, "classic")]
    backends.solve_pairs(pairs, Limits())
    # the deals the chunk screen does not decide at the root (tests/test_screen.py), each by the fast path
    alive = [n for n, mode in pairs if not solve(deal(n, PRESETS[mode]), PRESETS[mode]).dead_at_root]
    assert numbers == alive == [5, 5]
