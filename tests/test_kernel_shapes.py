"""The kernel refuses the games whose shape it does not play yet, instead of searching them as Scorpion.

Double Scorpion (``double``, ``double-dealt``) and Three Blind Mice
(``mice``) deal 10 columns, two decks or reserve cards (issue 53); the
kernel's layout holds one deck in 7 columns with a tail of 3
(docs/design.md, "Relatives: several game shapes in one search"). Before
this refusal a Mice position converted without complaint into a corrupt
state, and ``solve_deal``/``screen_deals`` dealt Scorpion's deal N under
the new preset's name, so a batch would have recorded Scorpion's verdicts
as the new game's.
"""

from __future__ import annotations

import pytest

from scorpion_solver.game.deal import deal
from scorpion_solver.game.rules import get_rules
from scorpion_solver.solver.compact import rule_bits, to_compact
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search import screen_deals, solve, solve_deal

NEW_SHAPES = ("double", "double-dealt", "mice")
SHAPE_ONLY = "the solver's kernel plays Scorpion's shape only"


@pytest.mark.parametrize("mode", NEW_SHAPES)
def test_the_rules_and_the_positions_of_a_new_shape_are_refused(mode):
    rules = get_rules(mode)
    with pytest.raises(ValueError, match=f"{SHAPE_ONLY}.*'{mode}'"):
        rule_bits(rules)
    with pytest.raises(ValueError, match=f"{SHAPE_ONLY}.*10 columns"):
        to_compact(deal(1, rules))


@pytest.mark.parametrize("mode", NEW_SHAPES)
def test_no_solve_of_a_new_shape_returns_a_verdict(mode):
    rules = get_rules(mode)
    limits = Limits(nodes=1000)
    with pytest.raises(ValueError, match=SHAPE_ONLY):
        solve(deal(1, rules), rules, limits)
    with pytest.raises(ValueError, match=SHAPE_ONLY):
        solve_deal(1, rules, limits)
    with pytest.raises(ValueError, match=SHAPE_ONLY):
        screen_deals([1, 2, 3], rules, limits)
