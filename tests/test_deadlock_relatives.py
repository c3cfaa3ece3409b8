"""The deadlock test on the ten-column games: sound for two copies of a face and for reserve cards.

Double Scorpion reads a card's successor as either copy of the face one rank
up (``deadlock.successor_copies``); the successor-above rule holds per copy.
A ``True`` must be a proof of loss, so no position it calls dead may have a
win, found here by an exhaustive search of small random positions (one or two
suits left, both copies of each in Double Scorpion, with or without the tail
of four; Three Blind Mice with reserve cards). The kernel's wide test
(``kernel._wide_deadlocked``) must give the plain test's answer and can_top on
the same positions and along random games of the dealt deals.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from scorpion_solver.game.cards import NUM_CARDS, face_of
from scorpion_solver.game.deal import deal
from scorpion_solver.game.engine import apply_move, is_won, legal_moves, settle
from scorpion_solver.game.position import Position
from scorpion_solver.game.rules import get_rules
from scorpion_solver.solver import kernel
from scorpion_solver.solver.compact import to_compact
from scorpion_solver.solver.deadlock import can_become_top, is_deadlocked
from scorpion_solver.solver.driver import rule_flags

DOUBLE, DEALT, MICE = get_rules("double"), get_rules("double-dealt"), get_rules("mice")


def random_position(rng: random.Random, rules, widest: int = 4) -> Position:
    """A small random position of a ten-column game: one or two suits left (both copies of each in
    Double Scorpion), dealt into the ten columns with random face-down counts, a tail of four (double,
    half the time) or up to two reserve cards (mice)."""
    suits = rng.sample(range(4), 1 if rng.random() < 0.6 else 2)
    decks = rules.decks
    cards = [s * 13 + r + NUM_CARDS * d for s in suits for r in range(13) for d in range(decks)]
    rng.shuffle(cards)
    tail: tuple[int, ...] = ()
    reserves: tuple[int, ...] = ()
    if rules.name == "double" and rng.random() < 0.5:
        tail, cards = tuple(cards[:4]), cards[4:]
    if rules.name == "mice":
        k = rng.randint(0, 2)
        reserves, cards = tuple(cards[:k]), cards[k:]
    width = rng.randint(2, widest)  # how many columns get cards: few columns make deadlocks
    columns: list[list[int]] = [[] for _ in range(10)]
    for c in cards:
        columns[rng.randrange(width)].append(c)
    hidden = [rng.randint(0, len(col)) for col in columns]
    settle(columns, hidden, set(), range(10), rules)
    return Position(tuple(map(tuple, columns)), tuple(hidden), tail, frozenset(), reserves)


class OverBudget(Exception):
    pass


def winnable(start: Position, rules, budget: int) -> bool:
    """Exhaustive depth-first search; OverBudget when it would visit more than ``budget`` positions."""
    seen = {start}
    stack = [start]
    while stack:
        p = stack.pop()
        if is_won(p, rules):
            return True
        for m in legal_moves(p, rules):
            q = apply_move(p, m, rules)
            if q not in seen:
                if len(seen) >= budget:
                    raise OverBudget
                seen.add(q)
                stack.append(q)
    return False


def jit_deadlocked(pos: Position, rules, successor_above: bool) -> tuple[bool, list[bool]]:
    sweeps, _, space_any, _ = rule_flags(rules)
    early, dead, can_top = kernel.wide_is_deadlocked(to_compact(pos), sweeps, space_any, successor_above)
    assert early == dead  # the search's early stop changes no answer
    assert kernel.wide_root_dead(to_compact(pos), bool(sweeps), bool(space_any), successor_above) == dead  # solve's
    return bool(dead), [bool(x) for x in can_top[: NUM_CARDS * rules.decks]]


def assert_twins_agree(pos: Position, rules) -> bool:
    """The kernel's answer and can_top equal the plain test's, with and without the successor-above rule;
    the answer with it."""
    for successor_above in (False, True):
        plain = is_deadlocked(pos, rules, successor_above), can_become_top(pos, rules, successor_above)[0]
        assert jit_deadlocked(pos, rules, successor_above) == plain, f"{rules.name}, {successor_above}:\n{pos}"
    return plain[0]


def soundness_sample(rules, seed: int, count: int, budget: int, widest: int = 4) -> dict[str, int]:
    rng = random.Random(seed)
    verdicts = {"won": 0, "lost-dead": 0, "lost-open": 0, "dead-by-the-rule": 0}
    for _ in range(count):
        p = random_position(rng, rules, widest)
        dead = is_deadlocked(p, rules)
        assert_twins_agree(p, rules)
        try:
            won = winnable(p, rules, budget)
        except OverBudget:
            continue
        assert not (won and dead), f"deadlock claimed in a winnable {rules.name} position:\n{p}"
        verdicts["won" if won else "lost-dead" if dead else "lost-open"] += 1
        verdicts["dead-by-the-rule"] += dead and not is_deadlocked(p, rules, successor_above=False)
    return verdicts


@pytest.mark.parametrize("rules", [DOUBLE, DEALT, MICE], ids=lambda r: r.name)
def test_the_deadlock_test_is_sound_on_small_random_positions(rules):
    verdicts = soundness_sample(rules, seed=53, count=80, budget=3000)
    # both winnable and dead positions were searched to the end, so the check bites
    assert verdicts["won"] >= 3 and verdicts["lost-dead"] >= 5, verdicts


@pytest.mark.slow
@pytest.mark.parametrize("rules", [DOUBLE, DEALT, MICE], ids=lambda r: r.name)
def test_the_deadlock_test_is_sound_on_many_random_positions(rules):
    verdicts = soundness_sample(rules, seed=2026, count=1500, budget=30000, widest=7)
    assert verdicts["won"] >= 50 and verdicts["lost-dead"] >= 50 and verdicts["dead-by-the-rule"] >= 1, verdicts


def spade(rank: int, copy: int = 0) -> int:
    return 13 + rank - 1 + NUM_CARDS * copy


# 2S lies on 4S with 3S on it: 3S needs a 4S on top, and 2S leaves only once 3S has gone (the successor-above
# rule). With one spade run left the only 4S is the one under 2S: dead, and lost.
STUCK = (spade(4), spade(2), spade(3))
ONE_RUN_LEFT = (STUCK, tuple(spade(r) for r in range(13, 4, -1)), (spade(1),)) + ((),) * 7
# With both runs left, the other 4S is a top: 3S goes onto it, 2S follows, and the game is won.
BOTH_RUNS_LEFT = (
    STUCK,
    tuple(spade(r) for r in range(13, 4, -1)),
    (spade(1),),
    (spade(4, 1),),
    tuple(spade(r, 1) for r in range(13, 4, -1)),
    (spade(3, 1),),
    (spade(2, 1),),
    (spade(1, 1),),
    (),
    (),
)


def test_a_card_may_count_on_either_copy_of_its_successor():
    lonely = Position(ONE_RUN_LEFT, (0,) * 10, ())
    assert is_deadlocked(lonely, DEALT) and assert_twins_agree(lonely, DEALT)
    assert not winnable(lonely, DEALT, 200_000)
    pair = Position(BOTH_RUNS_LEFT, (0,) * 10, ())
    assert not is_deadlocked(pair, DEALT) and not assert_twins_agree(pair, DEALT)
    assert winnable(pair, DEALT, 200_000)


@pytest.mark.parametrize("rules", [DOUBLE, DEALT, MICE], ids=lambda r: r.name)
def test_the_kernel_test_equals_the_plain_one_along_random_games(rules):
    rng = random.Random(rules.name)
    dead = 0
    for number in range(1, 9):
        pos = deal(number, rules)
        for _ in range(150):
            dead += assert_twins_agree(pos, rules)
            moves = legal_moves(pos, rules)
            if not moves:
                break
            pos = apply_move(pos, rng.choice(moves), rules)
    assert dead > 0  # the walk meets dead positions too


def test_the_plain_test_reads_faces_for_the_cards_lying_on_their_successor():
    # a run of mixed copies lies on its successors face by face: no card is waiting for a successor
    col = tuple(13 + r - 1 + NUM_CARDS * (r % 2) for r in range(13, 1, -1))
    pos = Position((col, (13,)) + ((),) * 8, (0,) * 10, ())
    assert all(face_of(a) == face_of(b) + 1 for a, b in zip(col, col[1:]))
    assert not is_deadlocked(pos, DEALT)
    assert np.all(jit_deadlocked(pos, DEALT, True)[1][13 : 13 + 13] == can_become_top(pos, DEALT)[0][13:26])
