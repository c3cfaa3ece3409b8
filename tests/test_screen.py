"""The batch's chunk screen (``search.screen_deals``): the deals lost at the root, decided in two jitted calls.

Every deal it decides must get exactly the result ``solve_deal`` gives (the
same counters; only ``seconds`` differs), it must decide exactly the deals
``solve_deal`` finds dead at the root, its deadlock verdicts must be the plain
twin's (``deadlock.is_deadlocked``), and ``deal_many`` must write what
``deal_into`` writes, deal by deal.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from scorpion_solver import CLEAR, deal
from scorpion_solver.batch import backends
from scorpion_solver.game.rules import PRESETS
from scorpion_solver.solver import deal_kernel, kernel
from scorpion_solver.solver.deadlock import is_deadlocked
from scorpion_solver.solver.reductions import Reductions
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import screen_deals, solve_deal

SMALL = Limits(nodes=20_000, memory_mb=64)  # the root's verdict does not depend on the budget


@pytest.mark.parametrize("name", sorted(name for name, rules in PRESETS.items() if rules.is_scorpion_shape))
def test_screened_results_are_solve_deals_and_every_dead_root_is_screened(name):
    rules = PRESETS[name]
    numbers = list(range(1, 601)) + [31999, 32000, 32001, 2**32 + 9, 2**40 + 3]
    screened = screen_deals(numbers, rules, SMALL)
    assert screened, "a range this long has deals dead at the root"
    for n in numbers:
        expected = solve_deal(n, rules, SMALL)
        if n in screened:
            got = screened[n]
            assert got.seconds > 0
            got.seconds = expected.seconds = 0.0
            assert got == expected, n
        else:
            assert not expected.dead_at_root, n


@pytest.mark.parametrize("name", ["clear", "classic", "wasp"])
def test_screen_verdicts_are_the_plain_deadlock_test(name):
    rules = PRESETS[name]
    numbers = list(range(1, 201))
    screened = screen_deals(numbers, rules, SMALL)
    assert {n for n in numbers if is_deadlocked(deal(n, rules), rules)} == set(screened)


def test_nothing_is_screened_without_the_deadlock_test_or_past_int64():
    assert screen_deals(list(range(1, 50)), CLEAR, Limits(), Reductions(prune=False)) == {}
    assert screen_deals([2**63, 2**64 + 1], CLEAR, SMALL) == {}
    assert screen_deals([], CLEAR, SMALL) == {}


def test_deal_many_writes_what_deal_into_writes():
    rng = random.Random(5)
    numbers = [1, 2, 31999, 32000, 2**32 - 1, 2**32, 2**63 - 1] + [rng.randrange(1, 2**63) for _ in range(300)]
    writer = deal_kernel.DealWriter()
    for rules in (CLEAR, PRESETS["scorpion2"]):
        states = np.full((len(numbers), kernel.STATE_SIZE), 99, dtype=np.int8)
        writer.deal_many(np.array(numbers, dtype=np.int64), rules.face_down, states)
        one = np.zeros(kernel.STATE_SIZE, dtype=np.int8)
        for n, state in zip(numbers, states):
            assert writer.deal_into(n, rules.face_down, one)
            assert np.array_equal(state, one), n
    with pytest.raises(ValueError, match="1 or more"):
        writer.deal_many(np.array([3, 0], dtype=np.int64), CLEAR.face_down, np.zeros((2, kernel.STATE_SIZE), np.int8))


def test_solve_pairs_rows_are_the_same_with_and_without_the_screen(monkeypatch):
    from scorpion_solver.solver import search

    pairs = [(n, mode) for n in range(1, 121) for mode in ("clear", "classic")] + [(7, "goodsol"), (2**63, "clear")]
    with_screen = backends.solve_pairs(pairs, SMALL)
    monkeypatch.setattr(search, "screen_deals", lambda numbers, rules, limits, reductions: {})
    without = backends.solve_pairs(pairs, SMALL)
    assert sum(r["dead_at_root"] for r in with_screen) > 150
    assert [dict(r, seconds=0.0) for r in with_screen] == [dict(r, seconds=0.0) for r in without]
