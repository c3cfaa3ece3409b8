"""The greedy order: a heuristic ranking of the legal moves of a view, in the spirit of the strategy advice.

Each move gets a score from what a player can see (:func:`move_score`); the
moves are ranked by score, highest first, ties in the engine's canonical
order. The rules of thumb, in order of weight:

* **Uncover face-down cards first** (score 100, more the fewer face-down cards
  are left in that column): a flip is the only way to learn a card.
* **Make spaces, preferably in columns 5-7** (40, +20 in columns 5-7, +0 in
  columns 1-3 while the tail is still to come, since it lands on 1-3).
* **Free a card that something can build on** (20): the move exposes a card
  whose predecessor (same suit, one rank lower) lies face up and can move.
* **A King into a space only when it frees something**: a King moved off a
  face-up card gets the score of what it exposes, and -20 when it exposes
  nothing useful; a whole column moved into a space scores -50.
* **Never break a run for nothing**: moving a card off its own successor (the
  same suit, one rank higher) scores -30.
* **Hold the tail while productive moves remain**: the tail deal scores 1,
  above every unproductive move (score 0 or less), below every productive one.

Moves that lead to a view seen before in the game are dropped by the
policies (:func:`fresh_moves`): they reveal nothing, so whatever could be
done from that view could have been done when it was first seen.
"""

from __future__ import annotations

from ..game.cards import face_of, is_ace, is_king
from ..game.engine import RESERVE, Move, lead_index
from ..game.rules import CLEAR, Rules
from ..game.view import UNKNOWN, Observation

REVEAL = 100
SPACE = 40
SPACE_FAR = 20  # extra for a space in columns 5-7
ENABLES_BUILD = 20
USELESS_KING = -20
RELOCATION = -50
BREAKS_RUN = -30
TAIL_SCORE = 1
RESERVE_SCORE = 2  # as a build that enables nothing: the card leaves the reserve and frees no other


def _face_up_movable(view: Observation, card: int) -> bool:
    """Whether ``card`` (with two decks: either copy of its face) lies face up in a column."""
    if view.decks == 1:
        for i, col in enumerate(view.columns):
            if card in col:
                return col.index(card) >= view.hidden[i]
        return False
    face = face_of(card)
    return any(c != UNKNOWN and face_of(c) == face for i, col in enumerate(view.columns) for c in col[view.hidden[i] :])


def move_score(view: Observation, move: Move, rules: Rules = CLEAR) -> int:
    """The heuristic value of a move (module docstring); higher is better."""
    if move.is_tail:
        return TAIL_SCORE
    if move.src == RESERVE:  # Three Blind Mice: a reserve card played alone; it uncovers nothing
        return RESERVE_SCORE
    col = view.columns[move.src]
    index = lead_index(view, move, view.decks)  # with two decks the move names a face and which copy
    to_space = not view.columns[move.dst]
    if index == 0:
        if to_space:
            return RELOCATION
        score = SPACE
        if move.src >= 4:
            score += SPACE_FAR
        elif move.src <= 2 and not view.tail_dealt:
            score -= SPACE // 2  # the tail will land there
        return score
    below = col[index - 1]
    if below == UNKNOWN:
        return REVEAL - view.hidden[move.src]
    if index - 1 < view.hidden[move.src]:
        return REVEAL // 2  # a known face-down card turns up: it frees the column
    if not is_king(move.card) and face_of(below) == face_of(move.card) + 1:
        return BREAKS_RUN
    enables = not is_ace(below) and _face_up_movable(view, below - 1)
    if to_space:
        return ENABLES_BUILD if enables else USELESS_KING
    return ENABLES_BUILD if enables else 2


def fresh_moves(view: Observation, moves: list[Move], seen: set, rules: Rules = CLEAR) -> list[Move]:
    """The moves not leading back to a view in ``seen`` (all of them if every one does)."""
    fresh = []
    for move in moves:
        after = view.after(move, rules)
        if after is None or after.key() not in seen:
            fresh.append(move)
    return fresh or list(moves)


def greedy_order(view: Observation, moves: list[Move], rules: Rules = CLEAR) -> list[Move]:
    """``moves`` ranked by :func:`move_score`, best first, ties in the given (canonical) order."""
    order = {m: i for i, m in enumerate(moves)}
    return sorted(moves, key=lambda m: (-move_score(view, m, rules), order[m]))
