"""deadlock.is_deadlocked: True only with a proof that the position is lost."""

from __future__ import annotations

import random

import pytest

from scorpion_solver import CLASSIC, CLEAR, Position, deal, format_position, is_won, legal_moves, parse_position
from scorpion_solver.game.cards import SUITS, run_of_suit
from scorpion_solver.game.engine import apply_move, parse_moves, replay, settle
from scorpion_solver.game.rules import GOODSOL, SCORPION2, WASP
from scorpion_solver.solver.deadlock import can_become_top, is_deadlocked

RUN = {s: " ".join(r + s for r in "KQJT98765432A") for s in SUITS}


def pos(text, rules=CLEAR):
    """A synthetic position: face-down cards where no deal puts them are allowed here."""
    return parse_position(text, rules, reachable=False).position


# Hearts only (the other suits swept). 5H is face down under 4H: 4H can leave only
# onto 5H, which lies beneath it, so 5H never comes to the top and is never turned up.
BURIED_BY_OWN_PREDECESSOR = """\
col1: 5H* 4H
col2: KH QH JH TH 9H 8H 7H 6H
col3: 3H 2H AH
col4:
col5:
col6:
col7:
tail: -
"""

# The same cards with the face-down one swapped: 5H leads onto 6H, 4H turns up.
OPEN = """\
col1: 4H* 5H
col2: KH QH JH TH 9H 8H 7H 6H
col3: 3H 2H AH
col4:
col5:
col6:
col7:
tail: -
"""


def test_face_down_card_covered_by_its_own_predecessor_is_deadlocked():
    assert is_deadlocked(pos(BURIED_BY_OWN_PREDECESSOR), CLEAR)


def test_open_position_is_not_deadlocked():
    p = pos(OPEN)
    assert not is_deadlocked(p, CLEAR)
    # ... and really is won: the detector must not have called it lost.
    assert is_won(replay(p, parse_moves("5H:1>2 4H:1>2 3H:3>2"), CLEAR), CLEAR)


def test_buried_position_really_has_no_way_out():
    p = pos(BURIED_BY_OWN_PREDECESSOR)
    # The only move is 3H onto 4H, after which nothing moves at all.
    assert [str(m) for m in legal_moves(p)] == ["3H:3>1"]
    q = replay(p, parse_moves("3H:3>1"))
    assert legal_moves(q) == [] and not is_won(q)
    assert is_deadlocked(q, CLEAR)


UNDER_FROZEN = f"""\
col1: 5H* {RUN["S"]}
col2: {RUN["C"]}
col3: {RUN["D"]}
col4: KH QH JH TH 9H 8H 7H 6H
col5: 4H 3H 2H AH
col6:
col7:
tail: -
"""


def test_face_down_card_under_a_frozen_run_in_classic_is_deadlocked():
    p = pos(UNDER_FROZEN, CLASSIC)
    assert SUITS.index("S") in p.frozen and p.hidden[0] == 1
    assert is_deadlocked(p, CLASSIC)


def test_same_cards_in_clear_are_not_deadlocked():
    # In clear the runs are swept, 5H turns up and the hearts finish.
    p = pos(UNDER_FROZEN, CLEAR)
    assert p.columns[0] and p.hidden[0] == 0
    assert not is_deadlocked(p, CLEAR)
    assert is_won(replay(p, parse_moves("5H:1>4 4H:5>4"), CLEAR), CLEAR)


def test_face_up_card_under_a_frozen_run_blocks_its_predecessor_in_classic():
    # 5H can never move (it is under the frozen spades), so 4H never lands on it.
    p = pos(UNDER_FROZEN.replace("5H*", "5H"), CLASSIC)
    assert p.hidden[0] == 0
    assert is_deadlocked(p, CLASSIC)


@pytest.mark.parametrize("number", [5, 33, 37])
def test_winnable_deals_are_not_deadlocked_at_the_root_in_clear(number):
    assert not is_deadlocked(deal(number), CLEAR)


@pytest.mark.parametrize("number", [5, 37])
def test_winnable_deals_are_not_deadlocked_at_the_root_in_classic(number):
    assert not is_deadlocked(deal(number, CLASSIC), CLASSIC)


def test_won_position_is_not_deadlocked():
    p = pos("col1:\ncol2:\ncol3:\ncol4:\ncol5:\ncol6:\ncol7:\ntail: -\n")
    assert not is_deadlocked(p, CLEAR)


# --------------------------------------------------------------------------
# Soundness on small random positions: a deadlock verdict is a proof of loss,
# so no deadlocked position may have a win (found by exhaustive search).


def _random_position(rng, rules):
    """A small random position: clear with one or two live suits, or classic with two
    live suits and the other two as frozen runs stacked in column 7."""
    live = rng.sample(range(4), 2 if rules.freezes or rng.random() < 0.3 else 1)
    cards = [s * 13 + r for s in live for r in range(13)]
    rng.shuffle(cards)
    with_tail = rng.random() < 0.5
    tail = tuple(cards[:3]) if with_tail else ()
    columns = [[] for _ in range(7)]
    free = 7
    if rules.freezes:
        for s in range(4):
            if s not in live:
                columns[6].extend(run_of_suit(s))
        free = 6
    for c in cards[3:] if with_tail else cards:
        columns[rng.randrange(free)].append(c)
    hidden = [rng.randint(0, len(c)) for c in columns[:free]] + [0] * (7 - free)
    frozen = set()
    settle(columns, hidden, frozen, range(7), rules)
    return Position(tuple(map(tuple, columns)), tuple(hidden), tail, frozenset(frozen))


class _Budget(Exception):
    pass


def _winnable(start, rules, budget):
    """Exhaustive depth-first search (iterative); _Budget when it would visit too many positions."""
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
                    raise _Budget
                seen.add(q)
                stack.append(q)
    return False


def _soundness_sample(rules, seed, count, budget):
    rng = random.Random(seed)
    verdicts = {"won": 0, "lost-deadlocked": 0, "lost-open": 0, "lost-by-the-rule": 0}
    for _ in range(count):
        p = _random_position(rng, rules)
        try:
            won = _winnable(p, rules, budget)
        except _Budget:
            continue
        dead = is_deadlocked(p, rules)
        assert not (won and dead), f"deadlock claimed in a winnable position:\n{format_position(p, rules)}"
        verdicts["won" if won else "lost-deadlocked" if dead else "lost-open"] += 1
        verdicts["lost-by-the-rule"] += dead and not is_deadlocked(p, rules, successor_above=False)
    return verdicts


@pytest.mark.parametrize("rules", [CLEAR, CLASSIC], ids=lambda r: r.name)
def test_deadlock_is_sound_on_small_random_positions(rules):
    verdicts = _soundness_sample(rules, seed=29, count=40, budget=2000)
    # The sample holds both winnable and deadlocked positions, so the check bites.
    assert verdicts["won"] >= 3 and verdicts["lost-deadlocked"] >= 3, verdicts


@pytest.mark.slow
@pytest.mark.parametrize("rules", [CLEAR, CLASSIC, WASP], ids=lambda r: r.name)
def test_deadlock_is_sound_on_many_random_positions(rules):
    verdicts = _soundness_sample(rules, seed=672, count=300, budget=20000)
    assert verdicts["won"] >= 10 and verdicts["lost-deadlocked"] >= 2, verdicts


def _rule_sample(rules, seed, wanted, budget):
    """Random positions that only the successor-above rule proves lost, each searched exhaustively:
    none may be winnable. Returns how many were searched."""
    rng = random.Random(seed)
    found = 0
    for _ in range(1000 * wanted):
        p = _random_position(rng, rules)
        if not is_deadlocked(p, rules) or is_deadlocked(p, rules, successor_above=False):
            continue
        try:
            won = _winnable(p, rules, budget)
        except _Budget:
            continue
        assert not won, f"the successor-above rule claimed a winnable position lost:\n{format_position(p, rules)}"
        found += 1
        if found == wanted:
            break
    return found


# Under Wasp rules a card can escape its successor into a space, so the rule decides fewer positions.
RULE_SAMPLE = [(CLEAR, 40), (CLASSIC, 40), (WASP, 10), (GOODSOL, 40), (SCORPION2, 40)]


@pytest.mark.parametrize("rules, wanted", RULE_SAMPLE, ids=lambda r: getattr(r, "name", ""))
def test_successor_above_rule_is_sound_where_it_decides(rules, wanted):
    assert _rule_sample(rules, seed=7, wanted=wanted, budget=20000) == wanted


@pytest.mark.slow
@pytest.mark.parametrize("rules, wanted", RULE_SAMPLE, ids=lambda r: getattr(r, "name", ""))
def test_successor_above_rule_is_sound_on_many_positions(rules, wanted):
    assert _rule_sample(rules, seed=2026, wanted=10 * wanted, budget=50000) == 10 * wanted


# Hearts only. 5H must lead onto 6H, which lies on it: 6H must go first, onto 7H, which lies
# under 5H. The test without the rule lets 5H leave once 6H can be a top (it is one) and so
# 7H become a top; the rule sees that only 6H (the one card between) could take 6H away.
OWN_SUCCESSOR_ON_TOP = """\
col1: 7H 5H 6H
col2: KH QH JH TH 9H 8H
col3: 4H 3H 2H AH
col4:
col5:
col6:
col7:
tail: -
"""


def test_a_successor_lying_on_its_own_card_is_a_deadlock_only_the_rule_sees():
    p = pos(OWN_SUCCESSOR_ON_TOP)
    assert is_deadlocked(p, CLEAR) and not is_deadlocked(p, CLEAR, successor_above=False)
    assert not _winnable(p, CLEAR, 1000)
    # With a card between them that can leave (9H onto TH), 6H rides away on it, and the hearts finish.
    opened = pos(
        OWN_SUCCESSOR_ON_TOP.replace("col1: 7H 5H 6H", "col1: 7H 5H 9H 6H")
        .replace("9H 8H", "")
        .replace("col4:", "col4: 8H")
    )
    assert not is_deadlocked(opened, CLEAR)
    assert is_won(replay(opened, parse_moves("9H:1>2 5H:1>2 6H:2>1 8H:4>2 7H:1>2 4H:3>2"), CLEAR), CLEAR)


# --------------------------------------------------------------------------
# The search skips the full test after a move that took the last space when
# kernel._space_by_chains finds a column that can become empty; that is sound
# only if every such answer is one the full test derives too.


def _chain_says_space(p, rules, successor_above=True):
    from scorpion_solver.solver import kernel
    from scorpion_solver.solver.search import to_compact

    return bool(kernel._space_by_chains(to_compact(p), int(rules.sweeps), successor_above))


# Clubs and Diamonds swept. No empty column, and no bottom card can leave at once: 5H needs 6H on top,
# 6H has 8S on it, and 8S can leave onto 9S, the top of column 1 (two links).
TWO_LINKS = """\
col1: 5H 9S
col2: 6H 8S
col3: 7H* KS QS JS TS
col4: KH 7S 6S 5S
col5: 4H* 3H 2H AH
col6: 4S* 3S 2S AS
col7: 8H* QH JH TH 9H
tail: -
"""


def test_space_found_through_a_chain_of_two_links():
    rules = CLEAR
    p = pos(TWO_LINKS, rules)
    assert _chain_says_space(p, rules)
    assert can_become_top(p, rules)[1]
    # With 8S face down on 6H the chain breaks at once (whatever the full test makes of it):
    blocked = pos(TWO_LINKS.replace("col1: 5H 9S", "col1: 5H").replace("col2: 6H 8S", "col2: 6H* 8S* 9S"), rules)
    assert not _chain_says_space(blocked, rules)


@pytest.mark.parametrize("successor_above", [True, False], ids=["successor-above", "without"])
@pytest.mark.parametrize("rules", [CLEAR, CLASSIC, WASP], ids=lambda r: r.name)
def test_space_by_chains_agrees_with_the_full_test(rules, successor_above):
    rng = random.Random(1105)
    found = {True: 0, False: 0}
    positions = [_random_position(rng, rules) for _ in range(300)]
    for number in range(1, 31):
        p = deal(number, rules)
        for _ in range(60):
            moves = legal_moves(p, rules)
            if not moves or is_won(p, rules):
                break
            p = apply_move(p, rng.choice(moves), rules)
            positions.append(p)
    for p in positions:
        chain = _chain_says_space(p, rules, successor_above)
        if chain:
            assert can_become_top(p, rules, successor_above)[1], format_position(p, rules)
        if all(p.columns):
            found[chain] += 1
    # Both answers occur among positions without an empty column, so the check bites.
    assert found[True] >= 50 and found[False] >= 50, found
