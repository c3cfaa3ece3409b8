"""Deadlock detection, the plain-Python twin of the kernel's deadlock section.

It mirrors ``kernel._deadlocked``, ``kernel._can_become_top`` and the search's when-to-test rule
(``needs_deadlock_check``, twin of the check after each move in ``kernel._expand``); ``search_twin``
and ``shortest.bounded_search`` call it where the kernel's searches call theirs.

Facts of the rules this rests on (docs/rules.md, "Moves"):

* cards only ever land on column tops;
* a non-King card leads a move only onto its successor (same suit, one rank
  up), which must be a top at that moment; a King leads only into an empty
  column (under Wasp rules any card may);
* a card lying directly on another stays there until it leads a move or is
  swept; riding along in a group does not separate the two;
* in classic, frozen runs and everything under them never move.

So a card ``x`` covered by ``y`` can become a column top again only if ``y``
can leave: ``y`` leads onto ``y+1`` (which must be able to become a top), or
``y`` is a King (any card under Wasp rules) and some column can become empty,
or ``y`` is a King that may yet be swept with its run (Clear runs; needs the
Queen on it already or the King itself able to become a top). A face-down
``y`` must first become a top itself to be turned up. A column can become empty
when its bottom card can leave (a King moving between spaces does not make
one). ``can_top`` is the least fixed point of these rules, starting from the
current tops and the tail cards; every condition is necessary, so ``can_top``
over-approximates what can happen and a ``False`` is a proof.

The position is lost when a face-down card can never become a top (it can
never be turned up, so the game cannot be won), or when a non-King card not
yet lying on its successor has a successor that can never become a top (every
win, swept or not, needs every card on its successor, and a card gets there
only by landing on it as a top).

The successor-above rule (``successor_above``, on unless switched off) adds
one more necessary condition. A non-King card ``c`` whose successor ``c+1``
lies above it in its own column can lead onto ``c+1`` only once ``c+1`` has
left that column (a group never lands on a card of its own), and ``c+1``
leaves it only inside a group led by one of the cards from just above ``c``
up to ``c+1``: nothing ever lands between two cards of a column; those cards
cannot go but by leading (a sweep or a frozen run taking one of them would
take ``c+1`` too, and ``c`` of the same suit can then never reach it); and
``c`` riding along in a group carries ``c+1`` above it. So ``c`` can leave
only when ``c+1`` can become a top *and* one of those cards can leave
(``can_leave``, computed in the same least fixed point, over-approximates
which cards ever lead). With the rule the position is also lost when a
non-King card not on its successor can never leave: it must, to get there.
This is what catches a suit lying in its own way, say 6H above 5H with no
card between them that can ever lead.

Three Blind Mice (ten columns, two face-up reserve cards, no tail, one deck):
every fact above holds with ten columns, and a reserve card is like a tail
card already dealt: it can lead at any time (so it starts as a top) and
nothing ever lands on it. A win sweeps it too, so a non-King reserve card
must land on its successor (which must be able to become a top), and a King
in the reserve can leave only into an empty column (so some column must be
able to become empty). The solver runs the test there on the root position
only (``search.solve``, with the kernel's twin of this code,
``kernel.wide_root_dead``); the twin search runs this plain code there.

Double Scorpion (two copies of each face, ids ``face`` and ``face + 52``):
every fact above holds with "its successor" read as "a copy of its
successor" (``successor_copies``). A non-King card leads only onto a copy of
the face one rank up that is a top at that moment; every win sweeps it lying
on such a copy (a run may mix copies), so a card not on one must land on one,
which must be able to become a top; a King sweeps with its Queen of either
copy on it. The successor-above rule holds per copy: a copy lying above the
card in its own column is reached only once a card from just above the card
up to that copy has left (a sweep of one of them takes the copy too, and the
card may still reach the other copy), so the card leaves when some copy is
a possible top and free in that sense. The tail of four is like the tail of
three. What does not carry over is which moves can make a passing position
fail (``needs_deadlock_check``): a build covers one copy of a successor,
which the other copy of the built card may have counted on, so a two-deck
search runs the test after every move (``kernel._wide_deadlocked``, the
kernel's twin of this test for the wide layout). tests/test_deadlock_relatives.py
checks it against exhaustive search on small positions of both games.
"""

from __future__ import annotations

from ..game.cards import MAX_DECKS, NUM_CARDS, face_of, is_ace, is_king
from ..game.engine import TAIL, Move
from ..game.position import Position, frozen_floor
from ..game.rules import SPACE_ANY, Rules

CARD_IDS = MAX_DECKS * NUM_CARDS  # ids 0..103: a two-deck game's second copies are 52..103


def can_become_top(pos: Position, rules: Rules, successor_above: bool = True) -> tuple[list[bool], bool]:
    """(can_top per card id of the rules' decks, whether some column can ever be empty)."""
    can_top, _, space = least_fixed_point(pos, rules, successor_above)
    return can_top[: NUM_CARDS * rules.decks], space


def successor_copies(card: int) -> tuple[int, int]:
    """The ids the card's successor may have: its face one rank up, in either deck (a one-deck game
    holds only the first)."""
    face = face_of(card) + 1
    return face, face + NUM_CARDS


def lies_on_successor(col, idx: int) -> bool:
    """Does the card at ``col[idx]`` lie directly on a copy of its successor?"""
    return idx > 0 and face_of(col[idx - 1]) == face_of(col[idx]) + 1


def least_fixed_point(pos: Position, rules: Rules, successor_above: bool = True) -> tuple[list[bool], list[bool], bool]:
    """(can_top per card id, can_leave per card id, whether some column can ever be empty)."""
    can_top = [False] * CARD_IDS
    can_leave = [False] * CARD_IDS
    present = [False] * CARD_IDS
    where: dict[int, tuple[int, int]] = {}
    floors = [frozen_floor(pos, i) for i in range(len(pos.columns))]
    for i, col in enumerate(pos.columns):
        if col:
            can_top[col[-1]] = True
        for idx, c in enumerate(col):
            present[c] = True
            where[c] = (i, idx)
    for c in pos.tail + pos.reserves:  # each can lead (the tail once dealt); nothing ever lands on one
        can_top[c] = True
        present[c] = True
    space = any(not col for col in pos.columns)
    any_card_spaces = rules.space == SPACE_ANY

    def successor_free(i: int, idx: int, successor: int) -> bool:
        """Successor-above rule: a successor lying above the card in its column leaves it only
        with a card from just above the card up to that successor (nothing lands between them)."""
        if successor not in where or where[successor][0] != i or where[successor][1] < idx:
            return True
        return any(can_leave[c] for c in pos.columns[i][idx + 1 : where[successor][1] + 1])

    def leaves(i: int, idx: int, card: int) -> bool:
        """Can the card at (column i, idx) lead a move away (or be swept)?"""
        if idx < floors[i]:
            return False
        if idx < pos.hidden[i] and not can_top[card]:
            return False
        col = pos.columns[i]
        if is_king(card):
            if rules.sweeps and (can_top[card] or (idx + 1 < len(col) and face_of(col[idx + 1]) == face_of(card) - 1)):
                return True
            return space and idx > 0
        for successor in successor_copies(card):
            if present[successor] and can_top[successor] and (not successor_above or successor_free(i, idx, successor)):
                return True
        return any_card_spaces and space and idx > 0

    changed = True
    while changed:
        changed = False
        for i, col in enumerate(pos.columns):
            for idx in range(len(col) - 1, -1, -1):
                c = col[idx]
                if can_leave[c] or not leaves(i, idx, c):
                    continue
                can_leave[c] = True
                changed = True
                if idx > 0:
                    can_top[col[idx - 1]] = True
                else:
                    space = True
    return can_top, can_leave, space


def is_deadlocked(pos: Position, rules: Rules, successor_above: bool = True) -> bool:
    """True when the position is provably lost by the argument above."""
    can_top, can_leave, space = least_fixed_point(pos, rules, successor_above)

    def successor_can_top(card: int) -> bool:
        return any(can_top[successor] for successor in successor_copies(card))

    for i, col in enumerate(pos.columns):
        for idx in range(pos.hidden[i]):
            if not can_top[col[idx]]:
                return True
        for idx, c in enumerate(col):
            if is_king(c) or lies_on_successor(col, idx):
                continue
            if successor_can_top(c) and (not successor_above or can_leave[c]):
                continue
            return True
    for c in pos.tail + pos.reserves:
        if not is_king(c) and not successor_can_top(c):
            return True
    # a King in the reserve leaves it only into an empty column (the tail's Kings are dealt onto columns)
    return any(is_king(c) for c in pos.reserves) and not space


def needs_deadlock_check(before: Position, move: Move, after: Position, successor_above: bool = False) -> bool:
    """Whether the search runs the deadlock test after ``move`` (twin of the kernel's rule, used by both
    plain searches): only a move that can make a position newly dead needs it."""
    if move == TAIL or after.frozen != before.frozen:
        return True
    if successor_above and before.columns[move.dst]:
        # a build whose group holds the successor of a card of the destination column: the
        # successor-above rule may now fail where it passed (twin of ``kernel._lands_over_predecessor``)
        group = before.columns[move.src][before.columns[move.src].index(move.card) :]
        below = set(before.columns[move.dst])
        if any(not is_ace(g) and g - 1 in below for g in group):
            return True
    # into a space, leaving cards behind (relocating a whole column changes nothing),
    # taking the last space: with another space left nothing got worse
    return not before.columns[move.dst] and before.columns[move.src][0] != move.card and all(after.columns)


def dead_for_every_arrangement(
    columns, hidden, tail, reserves, unseen, rules: Rules, floors=None, successor_above: bool = True
) -> bool:
    """Whether a player's view is lost whatever its unknown cards are: the test above, made blind.

    ``columns`` and ``tail`` hold cards or ``unknown`` (-1, ``game.view.UNKNOWN``) in the
    slots the player has not seen; ``unseen`` the cards those slots hold in some order;
    ``floors`` the columns' frozen floors (classic). The fixed point is taken over the
    slots, with every unknown card given every chance: it counts as present, able to
    become a top and to leave; an unknown slot becomes a top when the card above it can
    leave, and its card then leaves; a King with an unknown card on it may have its
    Queen there; a known card lying on an unknown one may lie on its successor. Every
    rule of the fixed point only grows with these, so what it finds is a superset of
    what the test finds for any one arrangement, and a condition that fails here
    fails for each of them: then every arrangement is lost (its thoughtful share is
    0, and so is the exact no-peek value, ``play.exact``). The conditions checked are
    the test's own, on the known cards and on the slots: an unknown slot that can
    never become a top, a known non-King card (not already on its successor) whose
    successor can never become a top or which can never leave, a reserve or tail card
    likewise, a reserve King with no column that can become empty.
    """
    unknown = -1
    width = len(columns)
    floors = floors or [0] * width
    can_top = [False] * NUM_CARDS
    can_leave = [False] * NUM_CARDS
    present = [False] * NUM_CARDS
    for c in unseen:
        can_top[c] = can_leave[c] = present[c] = True
    where: dict[int, tuple[int, int]] = {}
    slot_top: set[tuple[int, int]] = set()  # unknown slots that can become a top
    for i, col in enumerate(columns):
        if col:
            if col[-1] == unknown:
                slot_top.add((i, len(col) - 1))
            else:
                can_top[col[-1]] = True
        for idx, c in enumerate(col):
            if c != unknown:
                present[c] = True
                where[c] = (i, idx)
    for c in tuple(tail) + tuple(reserves):
        if c != unknown:
            can_top[c] = present[c] = True
    space = any(not col for col in columns)
    any_card_spaces = rules.space == SPACE_ANY

    def successor_free(i: int, idx: int, card: int) -> bool:
        if card + 1 not in where or where[card + 1][0] != i or where[card + 1][1] < idx:
            return True
        return any(c == unknown or can_leave[c] for c in columns[i][idx + 1 : where[card + 1][1] + 1])

    def leaves(i: int, idx: int, card: int) -> bool:
        if idx < floors[i]:
            return False
        if card == unknown:
            return (i, idx) in slot_top
        if idx < hidden[i] and not can_top[card]:
            return False
        col = columns[i]
        if is_king(card):
            if rules.sweeps and (can_top[card] or (idx + 1 < len(col) and col[idx + 1] in (card - 1, unknown))):
                return True
            return space and idx > 0
        if present[card + 1] and can_top[card + 1] and (not successor_above or successor_free(i, idx, card)):
            return True
        return any_card_spaces and space and idx > 0

    left: set[tuple[int, int]] = set()
    changed = True
    while changed:
        changed = False
        for i, col in enumerate(columns):
            for idx in range(len(col) - 1, -1, -1):
                c = col[idx]
                if (i, idx) in left or not leaves(i, idx, c):
                    continue
                left.add((i, idx))
                changed = True
                if c != unknown:
                    can_leave[c] = True
                if idx == 0:
                    space = True
                elif col[idx - 1] == unknown:
                    slot_top.add((i, idx - 1))
                else:
                    can_top[col[idx - 1]] = True
    for i, col in enumerate(columns):
        for idx in range(hidden[i]):
            c = col[idx]
            if (i, idx) not in slot_top if c == unknown else not can_top[c]:
                return True
        for idx, c in enumerate(col):
            if c == unknown or is_king(c):
                continue
            if idx > 0 and (col[idx - 1] == c + 1 or (col[idx - 1] == unknown and c + 1 in unseen)):
                continue
            if can_top[c + 1] and (not successor_above or can_leave[c]):
                continue
            return True
    for c in tuple(tail) + tuple(reserves):
        if c != unknown and not is_king(c) and not can_top[c + 1]:
            return True
    return any(c != unknown and is_king(c) for c in reserves) and not space
