"""Deadlock detection, the plain-Python twin of the kernel's ``_deadlocked``.

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
"""

from __future__ import annotations

from ..game.cards import NUM_CARDS, is_king
from ..game.position import Position, frozen_floor
from ..game.rules import SPACE_ANY, Rules


def can_become_top(pos: Position, rules: Rules) -> tuple[list[bool], bool]:
    """(can_top per card, whether some column can ever be empty)."""
    can_top = [False] * NUM_CARDS
    present = [False] * NUM_CARDS
    floors = [frozen_floor(pos, i) for i in range(7)]
    for col in pos.columns:
        if col:
            can_top[col[-1]] = True
        for c in col:
            present[c] = True
    for c in pos.tail:
        can_top[c] = True
        present[c] = True
    space = any(not col for col in pos.columns)
    any_card_spaces = rules.space == SPACE_ANY

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
        if present[card + 1] and can_top[card + 1]:
            return True
        return any_card_spaces and space and idx > 0

    changed = True
    while changed:
        changed = False
        for i, col in enumerate(pos.columns):
            for idx in range(len(col) - 2, -1, -1):
                x = col[idx]
                if not can_top[x] and leaves(i, idx + 1, col[idx + 1]):
                    can_top[x] = True
                    changed = True
            if not space and col and leaves(i, 0, col[0]):
                space = True
                changed = True
    return can_top, space


def is_deadlocked(pos: Position, rules: Rules) -> bool:
    """True when the position is provably lost by the argument above."""
    can_top, _ = can_become_top(pos, rules)
    for i, col in enumerate(pos.columns):
        for idx in range(pos.hidden[i]):
            if not can_top[col[idx]]:
                return True
        for idx, c in enumerate(col):
            if is_king(c) or can_top[c + 1]:
                continue
            if idx > 0 and col[idx - 1] == c + 1:
                continue
            return True
    for c in pos.tail:
        if not is_king(c) and not can_top[c + 1]:
            return True
    return False
