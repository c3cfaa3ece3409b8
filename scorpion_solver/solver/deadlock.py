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
able to become empty). The kernel plays that game in its wide layout, whose
search does not run this test; the solver runs it on the root position
only (``search.solve``), in this plain code, which is also what the twin
search does for it. Double Scorpion (two copies of each card, so two
successors) is not covered: the test stays off there.
"""

from __future__ import annotations

from ..game.cards import NUM_CARDS, is_ace, is_king
from ..game.engine import TAIL, Move
from ..game.position import Position, frozen_floor
from ..game.rules import SPACE_ANY, Rules


def can_become_top(pos: Position, rules: Rules, successor_above: bool = True) -> tuple[list[bool], bool]:
    """(can_top per card, whether some column can ever be empty)."""
    can_top, _, space = least_fixed_point(pos, rules, successor_above)
    return can_top, space


def least_fixed_point(pos: Position, rules: Rules, successor_above: bool = True) -> tuple[list[bool], list[bool], bool]:
    """(can_top per card, can_leave per card, whether some column can ever be empty)."""
    can_top = [False] * NUM_CARDS
    can_leave = [False] * NUM_CARDS
    present = [False] * NUM_CARDS
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

    def successor_free(i: int, idx: int, card: int) -> bool:
        """Successor-above rule: card + 1 lying above the card in its column leaves it only
        with a card from just above the card up to card + 1 (nothing lands between them)."""
        if card + 1 not in where or where[card + 1][0] != i or where[card + 1][1] < idx:
            return True
        return any(can_leave[c] for c in pos.columns[i][idx + 1 : where[card + 1][1] + 1])

    def leaves(i: int, idx: int, card: int) -> bool:
        """Can the card at (column i, idx) lead a move away (or be swept)?"""
        if idx < floors[i]:
            return False
        if idx < pos.hidden[i] and not can_top[card]:
            return False
        if is_king(card):
            if rules.sweeps and (
                can_top[card] or (idx + 1 < len(pos.columns[i]) and pos.columns[i][idx + 1] == card - 1)
            ):
                return True
            return space and idx > 0
        if present[card + 1] and can_top[card + 1] and (not successor_above or successor_free(i, idx, card)):
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
    for i, col in enumerate(pos.columns):
        for idx in range(pos.hidden[i]):
            if not can_top[col[idx]]:
                return True
        for idx, c in enumerate(col):
            if is_king(c):
                continue
            if idx > 0 and col[idx - 1] == c + 1:
                continue
            if can_top[c + 1] and (not successor_above or can_leave[c]):
                continue
            return True
    for c in pos.tail + pos.reserves:
        if not is_king(c) and not can_top[c + 1]:
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
