"""Checking a solution move by move: the cheap independent check of every ``won``.

:func:`check_solution` accepts exactly the move lists that
``engine.replay`` accepts, and returns the same final position, but checks
each move directly instead of generating every legal move at every step:

* a tableau move ``card:src>dst`` is legal when the card lies in column
  ``src`` at a movable height (face up, at or above the column's frozen
  floor), the position is not already won, and the destination takes it:
  a non-empty column whose top card is the card's successor (same suit, one
  rank up; nothing builds on an Ace), or an empty column under the engine's
  canonical rules (a King unless any card may fill a space; among the
  interchangeable empty columns only the leftmost; no relocation of a whole
  column into an interchangeable one, nor any after the tail deal);
* the tail deal is legal while the tail is undealt and, when the rules deal
  it only when stuck, while no move other than a whole-column relocation
  exists; that one check looks for such a move directly (a card to build on
  a top card, or a movable King above the bottom of its column with an empty
  column to go to) instead of listing every move.

The facts ``legal_moves`` recomputes per card per step are kept incrementally:
each column's face-down count and frozen floor (a frozen run never moves
again, so a floor only rises, when a run freezes on top of its column); a
card's height is one ``list.index`` in the column the move names; whether
the position is won is asked only after a move that leaves an Ace (or
nothing) on top of its destination, as every won position has. Everything
here is plain Python over lists; it shares no code with the jitted kernel,
whose solutions it checks. The reference engine stays the definition: the tests
compare the two on the solver's solutions, mutated ones and random legal
moves.
"""

from __future__ import annotations

from typing import Iterable

from .cards import NUM_CARDS, RUN_LENGTH, is_king, run_of_suit
from .engine import Move, MoveError, _why_illegal, is_won, move_text
from .position import NUM_COLUMNS, Position, frozen_floor
from .rules import CLEAR, SPACE_ANY, TAIL_WHEN_STUCK, Rules

_RUNS = tuple(list(run_of_suit(suit)) for suit in range(4))
_NOT_A_MOVE = -2  # (card, src, dst) outside the board: no position makes it legal


def _won(columns: list[list[int]], hidden: list[int], tail: tuple[int, ...], sweeps: bool) -> bool:
    """``engine.is_won`` on the lists."""
    if tail:
        return False
    if sweeps:
        return not any(columns)
    for col, down in zip(columns, hidden):
        if down or len(col) % RUN_LENGTH:
            return False
        for start in range(0, len(col), RUN_LENGTH):
            if col[start : start + RUN_LENGTH] != _RUNS[col[start] // RUN_LENGTH]:
                return False
    return True


def _non_relocation_exists(columns: list[list[int]], hidden: list[int], floor: list[int], kings_only: bool) -> bool:
    """Whether a tableau move other than a whole-column relocation exists (the tail undealt).

    Such a move builds a card on its successor on top of another column, or
    moves a card from above the bottom of its column (a King, unless any card
    may fill a space) into an empty column; before the tail deal some empty
    column always takes it (columns 1-3 each, or the leftmost of 4-7).
    """
    space = False
    for dst, col in enumerate(columns):
        if not col:
            space = True
            continue
        lead = col[-1] - 1
        if col[-1] % RUN_LENGTH == 0:
            continue  # nothing builds on an Ace
        for src, other in enumerate(columns):
            if src != dst and lead in other:
                index = other.index(lead)
                if index >= hidden[src] and index >= floor[src]:
                    return True
                break
    if not space:
        return False
    for src, col in enumerate(columns):
        for index in range(max(1, hidden[src], floor[src]), len(col)):
            if not kings_only or is_king(col[index]):
                return True
    return False


def check_solution(pos: Position, moves: Iterable[Move], rules: Rules = CLEAR) -> Position:
    """Play a move list, checking each move; the final position.

    Accepts exactly what ``engine.replay`` accepts and returns the same
    position; MoveError naming the first illegal move (1-based) and why.
    Whether the final position is won is the caller's question (``is_won``).
    """
    columns = [list(col) for col in pos.columns]
    hidden = list(pos.hidden)
    floor = [frozen_floor(pos, i) for i in range(NUM_COLUMNS)]
    frozen = set(pos.frozen)
    tail = tuple(pos.tail)
    sweeps, freezes = rules.sweeps, rules.freezes
    kings_only = rules.space != SPACE_ANY
    when_stuck = rules.tail == TAIL_WHEN_STUCK
    maybe_won = True
    for number, move in enumerate(moves, start=1):
        card, src, dst = move
        if maybe_won and _won(columns, hidden, tail, sweeps):
            raise _illegal(number, move, columns, hidden, tail, frozen, rules)
        if card < 0:
            if move != (-1, -1, -1) or not tail:
                raise _illegal(number, move, columns, hidden, tail, frozen, rules)
            if when_stuck and _non_relocation_exists(columns, hidden, floor, kings_only):
                raise _illegal(number, move, columns, hidden, tail, frozen, rules)
            for i in range(3):
                columns[i].append(tail[i])
            tail = ()
            touched: tuple[int, ...] = (0, 1, 2)
        else:
            if card >= NUM_CARDS or not (0 <= src < NUM_COLUMNS and 0 <= dst < NUM_COLUMNS) or src == dst:
                raise _illegal(number, move, columns, hidden, tail, frozen, rules)
            col = columns[src]
            try:
                index = col.index(card)
            except ValueError:
                raise _illegal(number, move, columns, hidden, tail, frozen, rules) from None
            if index < hidden[src] or index < floor[src]:
                raise _illegal(
                    number, move, columns, hidden, tail, frozen, rules
                )  # face down, or in or under a frozen run
            target = columns[dst]
            if target:
                top = target[-1]
                if top % RUN_LENGTH == 0 or card != top - 1:
                    raise _illegal(
                        number, move, columns, hidden, tail, frozen, rules
                    )  # builds only on its successor, and nothing on an Ace
            else:
                if kings_only and not is_king(card):
                    raise _illegal(number, move, columns, hidden, tail, frozen, rules)
                if not tail or dst >= 3:
                    first = 3 if tail else 0
                    if not all(columns[first:dst]):
                        raise _illegal(
                            number, move, columns, hidden, tail, frozen, rules
                        )  # not the leftmost of the interchangeable empty columns
                if index == 0 and (not tail or (src >= 3 and dst >= 3)):
                    raise _illegal(
                        number, move, columns, hidden, tail, frozen, rules
                    )  # relocating a whole column changes nothing
            target.extend(col[index:])
            del col[index:]
            touched = (src, dst)
        for i in touched:
            col = columns[i]
            while True:  # engine.settle: flip a face-down top, then sweep or freeze a complete run on top
                size = len(col)
                if size and hidden[i] >= size:
                    hidden[i] = size - 1
                if (
                    size - hidden[i] < RUN_LENGTH
                    or col[-1] % RUN_LENGTH
                    or col[-RUN_LENGTH:] != _RUNS[col[-1] // RUN_LENGTH]
                ):
                    break
                if sweeps:
                    del col[-RUN_LENGTH:]
                    continue
                if freezes:
                    frozen.add(col[-1] // RUN_LENGTH)
                    floor[i] = max(floor[i], size)
                break
        if card < 0:
            maybe_won = True
        else:
            target = columns[dst]
            maybe_won = not target or target[-1] % RUN_LENGTH == 0
    return Position(tuple(tuple(c) for c in columns), tuple(hidden), tail, frozenset(frozen))


def _illegal(number, move, columns, hidden, tail, frozen, rules) -> MoveError:
    """The error for an illegal move, worded as ``engine.replay`` words it."""
    here = Position(tuple(tuple(c) for c in columns), tuple(hidden), tail, frozenset(frozen))
    return MoveError(f"move {number}: {move_text(move)} is not legal here{_why_illegal(here, move, rules)}")


def solution_wins(pos: Position, moves: Iterable[Move], rules: Rules = CLEAR) -> bool:
    """Whether the move list is legal from ``pos`` and ends in a won position."""
    try:
        final = check_solution(pos, moves, rules)
    except MoveError:
        return False
    return is_won(final, rules)
