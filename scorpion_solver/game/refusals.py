"""Why a move is refused, in words that depend only on what the player sees.

The engine's own reason (``engine.play``'s MoveError) may name where a
face-down card lies: right for a tool that holds the whole position, a leak
for a player at the table (``scorpion serve``, a view typed with ``??``).
:func:`refusal` answers from the face-up cards, the face-down counts, the
number of tail cards and the swept and frozen suits only: it never reads a
card in a face-down or tail slot, so two positions with the same view get the
same :class:`Refusal` (tests/test_refusals.py shuffles the hidden cards to
check it). A card the player cannot see is "not a face-up card", wherever it
lies.

Each refusal names the rule it breaks (``rule``, a stable word the served
pages key on) and says it in one sentence (``sentence``).

==================  ========================================================
rule                the move breaks
==================  ========================================================
``game-over``       no move is legal: the game is won or lost
``face-up``         only a face-up card can move (the card is face down, in
                    the tail, or already swept: the player sees none of it)
``column``          the card lies face up in another column
``same-column``     a group cannot move onto its own column (said only when the card is in that column)
``frozen``          a frozen run, and every card under it, never moves
``same-suit``       a card goes only onto the next higher card of its suit
``one-rank-up``     same suit, but not the card one rank higher
``ace``             nothing goes onto an Ace
``king``            a King goes on no card: only into an empty column
``space-king``      only a King (with what lies on it) enters an empty column
``changes-nothing`` a whole column into an empty column changes nothing (both
                    columns interchangeable: those the tail cannot reach,
                    4-7 in Scorpion, or any once the tail is dealt)
``space-leftmost``  of interchangeable empty columns, a move names the
                    leftmost (the game is the same whichever takes the group)
``tail-once``       the tail is dealt once, and it is gone (or the game has
                    none: Three Blind Mice, Double Scorpion all dealt)
``tail-when-stuck`` classic: the tail only when no other move exists
``reserve``         Three Blind Mice: a reserve card moves alone from the
                    reserve (``2H:r>5``), and only a reserve card moves from it
==================  ========================================================

Where a reserve card may land is decided as for any card. Nothing is ever put on a reserve card: the
notation has no move to the reserve.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import NUM_CARDS, card_text, is_ace, is_king, suit_of
from .engine import (
    RESERVE,
    UPPER_COPY,
    Move,
    interchangeable_columns,
    is_relocation,
    lead_index,
    legal_moves,
    move_text,
)
from .position import Position, frozen_floor
from .rules import SPACE_ANY, Rules


class Refusal(NamedTuple):
    """Why a move is not legal: the rule it breaks and one sentence for the player."""

    rule: str
    sentence: str


def _face_up(pos: Position, card: int) -> tuple[int, int] | None:
    """(column, index) of ``card`` when it lies face up; None otherwise (a face-down slot is never read)."""
    for i, col in enumerate(pos.columns):
        for j in range(pos.hidden[i], len(col)):
            if col[j] == card:
                return i, j
    return None


def refusal(pos: Position, move: Move, rules: Rules) -> Refusal | None:
    """Why ``move`` is not legal in ``pos``, from the player's view only; None when it is legal.

    Reads the face-up cards, the face-down counts, the tail's length and the
    frozen suits: never the card in a face-down or tail slot.
    """
    legal = legal_moves(pos, rules)  # the legal moves depend on the view alone (game/view.py)
    if move in legal:
        return None
    if not legal:
        return Refusal("game-over", "the game is over: no move is legal any more.")
    if move.is_tail:
        return _tail_refusal(pos, legal, rules)
    name = card_text(move.card)
    width = len(pos.columns)
    if move.dst >= width or (move.src != RESERVE and move.src >= width):
        return Refusal("column", f"this game has {width} columns: {move_text(move)} names a column beyond them.")
    if rules.decks == 2:  # Double Scorpion: a move names a face, and which face-up copy in its column
        name = move_text(Move(move.card, 0, 0)).split(":")[0]
        where = _two_deck_lead(pos, move)
        if isinstance(where, Refusal):
            return where
    else:
        where = _face_up(pos, move.card)
    if move.card in pos.reserves or move.src == RESERVE:  # Three Blind Mice's reserve cards, face up
        reserve = _reserve_refusal(pos, move, name, where)
        if reserve is not None:
            return reserve
        return _target_refusal(pos, move, name, -1, legal, rules)
    if where is None:
        return Refusal("face-up", f"{name} is not a face-up card: only a face-up card can move.")
    column, index = where
    if column != move.src:  # checked first: `9C:1>1` with 9C elsewhere is about where 9C is
        return Refusal("column", f"{name} is in column {column + 1}, not in column {move.src + 1}.")
    if move.src == move.dst:
        return Refusal("same-column", f"{name} cannot move onto its own column {move.src + 1}.")
    if index < frozen_floor(pos, column):
        return Refusal(
            "frozen", f"{name} is in or under a frozen run: a completed run and what lies under it never move."
        )
    return _target_refusal(pos, move, name, index, legal, rules)


def _two_deck_lead(pos: Position, move: Move) -> tuple[int, int] | Refusal | None:
    """Where the copy a two-deck move names lies face up (column, index); the refusal when it names none
    (the face lies face up elsewhere only, or its column holds one face-up copy and the move names the upper);
    None when no copy of the face is face up."""
    face = move.card % NUM_CARDS
    if move.src != RESERVE:
        index = lead_index(pos, move, 2)
        if index is not None:
            return move.src, index
    up = [
        (i, j)
        for i, col in enumerate(pos.columns)
        for j in range(pos.hidden[i], len(col))
        if col[j] % NUM_CARDS == face
    ]
    if move.src != RESERVE and move.card >= UPPER_COPY and any(i == move.src for i, _ in up):
        return Refusal(
            "column",
            f"{card_text(face)}+ names the upper of two face-up {card_text(face)} in column {move.src + 1}, "
            "which holds one.",
        )
    return up[0] if up else None


def _reserve_refusal(pos: Position, move: Move, name: str, where: tuple[int, int] | None) -> Refusal | None:
    """A move that names a reserve card from a column, or a card from the reserve that is not there; None when
    the card is the reserve's and the move names the reserve (its target decides)."""
    if move.card in pos.reserves and move.src != RESERVE:
        return Refusal(
            "reserve", f"{name} is a reserve card, not in column {move.src + 1}: it moves from the reserve, alone."
        )
    if move.card not in pos.reserves:
        if where is not None:
            return Refusal(
                "reserve", f"{name} is in column {where[0] + 1}: only a reserve card moves from the reserve."
            )
        return Refusal("face-up", f"{name} is not a face-up card: only a face-up card can move.")
    return None


def _target_refusal(pos: Position, move: Move, name: str, index: int, legal: list[Move], rules: Rules) -> Refusal:
    """Why the group led by ``name`` (at ``index`` of its column; -1: a reserve card) may not land on ``move.dst``."""
    target = pos.top(move.dst)
    if target is None:
        if rules.space != SPACE_ANY and not is_king(move.card):
            return Refusal("space-king", f"{name} cannot go into an empty column: only a King may go there.")
        return _space_refusal(pos, move, index, legal)
    on = card_text(target)
    if is_king(move.card):
        return Refusal("king", f"{name} cannot go on {on}: a King goes on no card, only into an empty column.")
    if is_ace(target):
        return Refusal("ace", f"{name} cannot go on {on}: nothing goes onto an Ace.")
    wanted = card_text(target - 1)
    if suit_of(move.card) != suit_of(target):
        return Refusal(
            "same-suit",
            f"{name} cannot go on {on}: a card goes only on the next higher card of its own suit "
            f"({name} on {card_text(move.card + 1)}).",
        )
    return Refusal("one-rank-up", f"{name} cannot go on {on}: only {wanted}, one rank lower, goes on {on}.")


def _space_refusal(pos: Position, move: Move, index: int, legal: list[Move]) -> Refusal:
    """A group that may enter an empty column, refused there: it is the whole column and the move changes
    nothing, or another empty column it could take is the leftmost of the interchangeable ones."""
    free = interchangeable_columns(pos)
    if index == 0 and move.src in free and move.dst in free:
        return whole_column_refusal(move.card, move.src)
    leftmost = next(c for c in free if not pos.columns[c])  # dst is one of them, and not the leftmost
    empties = " and ".join(str(c + 1) for c in free if not pos.columns[c])
    canonical = Move(move.card, move.src, leftmost)
    assert canonical in legal, "a group that may enter an empty column enters the leftmost interchangeable one"
    return Refusal(
        "space-leftmost",
        f"{card_text(move.card)} may go into an empty column, but the empty columns {empties} are interchangeable "
        f"(no tail card lands there): a move into them is written to the leftmost, {move_text(canonical)}.",
    )


def whole_column_refusal(card: int, src: int) -> Refusal:
    """A whole column moved into an empty column: the position stays the same game."""
    return Refusal(
        "changes-nothing",
        f"moving {card_text(card)} with all of column {src + 1} into an empty column changes nothing.",
    )


def _tail_refusal(pos: Position, legal: list[Move], rules: Rules) -> Refusal:
    if not rules.tail_size:  # Three Blind Mice, Double Scorpion all dealt
        return Refusal("tail-once", "this game has no tail to deal: every card is dealt at the start.")
    if not pos.tail:
        onto = ", ".join(str(c + 1) for c in range(rules.tail_size - 1)) + f" and {rules.tail_size}"
        return Refusal("tail-once", f"the tail has been dealt already: it is dealt once, onto columns {onto}.")
    other = next(m for m in legal if not is_relocation(pos, m))  # what keeps the tail locked (engine._may_deal_tail)
    return Refusal(
        "tail-when-stuck",
        "in classic the tail may be dealt only when no other move exists (moving a whole column into an empty "
        f"column does not count), and {move_text(other)} still can be played.",
    )


def refusal_text(pos: Position, move: Move, rules: Rules) -> str:
    """``MOVE is not legal here: SENTENCE`` (empty when the move is legal)."""
    why = refusal(pos, move, rules)
    return "" if why is None else f"{move_text(move)} is not legal here: {why.sentence}"
