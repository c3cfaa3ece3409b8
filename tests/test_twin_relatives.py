"""The plain twin search decides small positions of Double Scorpion and Three Blind Mice.

Safe leads are proved for one deck and no reserve (docs/design.md,
"Relatives: several game shapes in one search"), so ``reference_solve``
searches Double Scorpion with the deadlock test after every move and Three
Blind Mice with the deadlock test on the root only (``Reductions.proven_for``,
``Reductions.in_search``): a ``lost`` is exhaustive, pruned by the test or a
dead root, and a ``won`` line replays to a win in the plain engine. Small positions (all runs swept but
the spades, one run a deck) and three dealt games the twin wins quickly.
"""

from __future__ import annotations

import pytest

from scorpion_solver.game.cards import face_of
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, canonical_key, is_won, legal_moves
from scorpion_solver.game.position import Position
from scorpion_solver.game.rules import get_rules
from scorpion_solver.game.verify import check_solution
from scorpion_solver.solver.reductions import FULL, PRESETS, Reductions
from scorpion_solver.solver.result import Limits
from scorpion_solver.solver.search_twin import reference_solve, visited_key

SPADES = 13  # card id of AS (suits C, S, H, D; id = suit * 13 + rank - 1; + 52 for the second copy)
OTHER = 52


def spade(rank: int, copy: int = 0) -> int:
    return SPADES + rank - 1 + OTHER * copy


def ten(*columns: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(columns) + ((),) * (10 - len(columns))


def test_the_reductions_are_kept_for_scorpion_and_the_deadlock_test_for_the_ten_column_games():
    for mode in ("clear", "classic", "wasp", "scorpion2", "goodsol"):
        assert FULL.proven_for(get_rules(mode)) == FULL and FULL.in_search(get_rules(mode))
    no_safe_leads = Reductions(prune=True, safe_leads=False, successor_above=True)
    for mode in ("double", "double-dealt"):  # the test reads either copy of a successor (deadlock's docstring)
        assert FULL.proven_for(get_rules(mode)) == no_safe_leads and FULL.in_search(get_rules(mode))
    mice = get_rules("mice")  # one deck: the deadlock test holds (deadlock's docstring), on the root only
    assert FULL.proven_for(mice) == no_safe_leads
    assert not FULL.in_search(mice)
    assert PRESETS["none"].proven_for(mice) == PRESETS["none"]


def test_a_two_deck_win_through_a_run_of_mixed_copies():
    # KS..4S of the first copy, the second copy's 3S on them, then the first 2S; AS alone in column 2:
    # AS onto 2S completes a King-to-Ace run of spades, which is swept, and the game is won. (A deadlock test
    # that read a card's successor as the next id would call it dead: 3S of the second copy is id 54.)
    rules = get_rules("double")
    col1 = tuple(spade(r) for r in range(13, 3, -1)) + (spade(3, copy=1), spade(2))
    pos = Position(columns=ten(col1, (spade(1),)), hidden=(0,) * 10, tail=())
    result = reference_solve(pos, rules)
    assert result.status == "won" and (result.deadlock_checks, result.deadlock_prunes) == (1, 0)
    assert [str(m) for m in result.line] == ["AS:2>1"]
    assert is_won(check_solution(pos, result.line, rules), rules)


# 2S lies on 4S with 3S on it: 3S needs 4S on top, which 2S covers, and 2S needs 3S on top, which lies on it;
# the only other move is the group 4S 2S 3S onto 5S, and AS never finds 2S on top. Lost.
STUCK = (spade(4), spade(2), spade(3))
KING_TO_FIVE = tuple(spade(r) for r in range(13, 4, -1))


@pytest.mark.parametrize("mode", ("double", "double-dealt"))
def test_a_two_deck_position_lost_by_exhaustive_search_and_by_the_deadlock_test(mode):
    rules = get_rules(mode)  # one run left on the table, seven swept
    pos = Position(columns=ten(STUCK, KING_TO_FIVE, (spade(1),)), hidden=(0,) * 10, tail=())
    result = reference_solve(pos, rules, reductions=PRESETS["none"])
    assert result.status == "lost" and result.deadlock_checks == 0
    assert result.nodes > 1
    result = reference_solve(pos, rules)  # 2S can never leave 4S (successor-above): dead at the root
    assert (result.status, result.dead_at_root, result.nodes) == ("lost", True, 1)


def test_mice_reserve_cards_win_and_lose():
    rules = get_rules("mice")
    run = tuple(spade(r) for r in range(13, 1, -1))  # KS down to 2S
    won = Position(columns=ten(run), hidden=(0,) * 10, tail=(), reserves=(spade(1),))
    result = reference_solve(won, rules)
    assert result.status == "won" and [str(m) for m in result.line] == ["AS:r>1"]
    assert is_won(check_solution(won, result.line, rules), rules)
    lost = Position(columns=ten(STUCK, KING_TO_FIVE), hidden=(0,) * 10, tail=(), reserves=(spade(1),))
    result = reference_solve(lost, rules)  # 2S can never leave 4S (successor-above): dead at the root
    assert (result.status, result.dead_at_root, result.nodes) == ("lost", True, 1)
    searched = reference_solve(lost, rules, reductions=PRESETS["none"])  # the same verdict without the test
    assert (searched.status, searched.deadlock_checks) == ("lost", 0) and searched.nodes > 1


def test_a_position_and_its_copy_swapped_twin_are_one_visited_entry():
    rules = get_rules("double")
    position = deal(1, rules)
    swap = {c: (c + OTHER) % (2 * OTHER) for c in range(2 * OTHER)}  # every card to its other copy
    twin = Position(
        columns=tuple(tuple(swap[c] for c in cards) for cards in position.columns),
        hidden=position.hidden,
        tail=tuple(swap[c] for c in position.tail),
    )
    assert twin != position and canonical_key(twin) != canonical_key(position)
    assert visited_key(twin, rules) == visited_key(position, rules)
    # only the two 5D swapped (columns 6 and 8 of deal 1)
    five_d = [c for c in position.cards_in_play() if face_of(c) == 3 * 13 + 4]
    assert len(five_d) == 2
    one_swapped = Position(
        columns=tuple(tuple(swap[c] if c in five_d else c for c in cards) for cards in position.columns),
        hidden=position.hidden,
        tail=tuple(swap[c] if c in five_d else c for c in position.tail),
    )
    assert one_swapped != position and visited_key(one_swapped, rules) == visited_key(position, rules)
    # a different position is another entry
    moved = apply_move(position, legal_moves(position, rules)[0], rules)
    assert visited_key(moved, rules) != visited_key(position, rules)
    # one deck: the key is the engine's canonical key, as before
    clear = get_rules("clear")
    assert visited_key(deal(1, clear), clear) == canonical_key(deal(1, clear))


# Deals the twin wins in a few thousand nodes, with the nodes and the line's length it takes today: the kernel,
# once it plays these games, must search the same nodes in the same order (as it does the twin's one-deck search).
# (mode, number, nodes, line length, deadlock tests, prunes): Three Blind Mice tests its root only, Double
# Scorpion the root and every child made (two prunes spare double-dealt deal 2 two of the 919 nodes it took
# without the test).
SMALL_WINS = [
    ("mice", 3, 173, 50, 1, 0),
    ("double", 1, 1430, 223, 223, 0),
    ("double-dealt", 2, 917, 138, 199, 2),
]


@pytest.mark.parametrize(("mode", "number", "nodes", "length", "checks", "prunes"), SMALL_WINS)
def test_the_twin_wins_deals_of_the_new_games_and_the_line_replays(mode, number, nodes, length, checks, prunes):
    rules = get_rules(mode)
    result = reference_solve(deal(number, rules), rules, Limits(nodes=30_000))
    assert (result.status, result.nodes, len(result.line)) == ("won", nodes, length)
    assert (result.deadlock_checks, result.deadlock_prunes) == (checks, prunes)
    assert is_won(check_solution(deal(number, rules), result.line, rules), rules)
