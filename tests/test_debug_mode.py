"""solve(debug=True): the compact state is checked from scratch along winning lines."""

import numpy as np
import pytest

from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import CLASSIC, CLEAR
from scorpion_solver.solver.search import VerificationError, compact_keys, debug_check, solve, to_compact


@pytest.mark.parametrize("number, rules", [(5, CLEAR), (33, CLEAR), (37, CLASSIC)])
def test_debug_solve_agrees_with_plain_solve(number, rules):
    plain = solve(deal(number, rules), rules)
    checked = solve(deal(number, rules), rules, debug=True)
    assert (checked.status, checked.nodes, checked.solution) == (plain.status, plain.nodes, plain.solution)
    assert checked.status == "won"


def testdebug_check_catches_a_stale_key():
    position = deal(5)
    state = to_compact(position)
    keys = compact_keys(state)
    debug_check(position, state, keys, "the root")  # sound: no error
    keys[14] ^= np.uint64(1)
    with pytest.raises(VerificationError, match="incremental keys differ"):
        debug_check(position, state, keys, "the root")


def testdebug_check_catches_a_wrong_location():
    position = deal(5)
    state = to_compact(position)
    keys = compact_keys(state)
    state[469 + 0] = 6  # LOCCOL of AC: claims column 7
    with pytest.raises(VerificationError, match="LOCCOL"):
        debug_check(position, state, keys, "the root")
