"""Why a hinted move is good, in one sentence a player can check on the table.

A fair hint ranks moves by the share of sampled layouts they keep winnable;
this module adds the reason a player can see for the top move. It reads the
player's view only (``game.view.Observation``): a hidden card is never named,
and a move's effect is worked out on the view's stand-in position, which is
exact for everything said here (a flip, a sweep, an emptied column and a join
do not depend on which card lies face down; the tail's cards are never named).

The first of these that holds is the reason: the move completes a suit (swept
in Clear runs, frozen in classic, built and left in the Goodsol rules); it turns a face-down card up; it deals the
tail; it plays a reserve card (Three Blind Mice); it empties a column for a King (for any card in Wasp); it puts a
King into an empty column; it joins a same-suit run. Sentences name cards, never columns (the page may
show the columns in another order than the engine's, ``serve/table.py``),
except the columns where the tail lands (1-3, or 1-4 in Double Scorpion). In Double Scorpion a move names a
face and which of its face-up copies in the column leads (``engine.lead_index``); a run joins either copy,
so runs are read by face.
"""

from __future__ import annotations

from collections import Counter

from ..game.cards import SUITS, face_of, is_king, rank_of, suit_of
from ..game.engine import RESERVE, Move, apply_move, complete_run_on_top, lead_index
from ..game.rules import CLEAR, RUNS_LEFT, SPACE_ANY, Rules
from ..game.view import UNKNOWN, Observation

RANK_WORDS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
SUIT_WORDS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}


def card_words(card: int) -> str:
    """``the seven of hearts``: a card as the page's screen-reader names say it."""
    return f"the {RANK_WORDS[rank_of(card) - 1]} of {SUIT_WORDS[SUITS[suit_of(card)]]}"


def _run_length(column: tuple[int, ...], hidden: int, top: int) -> int:
    """How many face-up cards, from index ``top`` down, run in one suit one rank apart."""
    length = 1
    while top - length >= hidden and face_of(column[top - length]) == face_of(column[top - length + 1]) + 1:
        if is_king(column[top - length + 1]):
            break
        length += 1
    return length


TAIL_WORDS = {3: "three", 4: "four"}


def _tail_columns(rules: Rules) -> str:
    """``columns 1, 2 and 3``: where the tail lands."""
    return "columns " + ", ".join(str(c + 1) for c in range(rules.tail_size - 1)) + f" and {rules.tail_size}"


def hint_reason(view: Observation, move: Move | None, rules: Rules = CLEAR) -> str:
    """One sentence: why ``move`` (a legal move of ``view``, engine columns) helps, from what the player sees."""
    if move is None:
        return "no legal move is left"
    legal = view.legal_moves(rules)
    if move.is_tail:
        alone = " (the only move left)" if legal == [move] else ""
        return f"it deals the tail: {TAIL_WORDS.get(rules.tail_size, rules.tail_size)} new cards onto {_tail_columns(rules)}{alone}"
    before = view.stand_in()
    after = apply_move(before, move, rules)
    # a suit's second run (two decks) leaves after its first: counted, not as a set
    done = set(Counter(after.swept_suits(rules.decks)) - Counter(before.swept_suits(rules.decks)))
    frozen = set(after.frozen) - set(before.frozen)
    if done or frozen:
        suit = SUIT_WORDS[SUITS[min(done or frozen)]]
        what = "swept off the table" if done else "complete, frozen in place"
        return f"it completes the {suit} from King to Ace: {what}"
    built = complete_run_on_top(after.columns[move.dst], after.hidden[move.dst])
    if rules.runs == RUNS_LEFT and built is not None:  # the Goodsol rules: a complete run stays, and still moves
        return f"it completes the {SUIT_WORDS[SUITS[built]]} from King to Ace: built, and left on the table"
    if view.reveals(move, rules):
        return f"it turns up the face-down card under {card_words(move.card)}"
    if move.src == RESERVE:  # Three Blind Mice: a reserve card, which leaves the reserve for good
        where = f"onto {card_words(move.card + 1)}" if view.columns[move.dst] else "into an empty column"
        return f"it plays {card_words(move.card)} from the reserve {where}"
    column = view.columns[move.src]
    index = lead_index(view, move, rules.decks)
    if index == 0 and not view.tail_dealt and move.src < rules.tail_size <= move.dst:
        return f"it moves {card_words(move.card)} out of columns 1-{rules.tail_size}, where the tail would land on it"
    if index == 0:
        kings = [c for col in view.columns for j, c in enumerate(col) if j > 0 and c != UNKNOWN and is_king(c)]
        if rules.space == SPACE_ANY:  # Wasp: any card may go there
            place = "a place any card may take, with the cards on it"
        else:
            place = f"a place for {card_words(kings[0])}" if kings else "a place only a King may take"
        return f"it empties a column: {place}"
    if not view.columns[move.dst]:
        return f"it gives {card_words(move.card)} a column of its own and frees {card_words(column[index - 1])}"
    top = len(after.columns[move.dst]) - (len(column) - index)
    length = _run_length(after.columns[move.dst], after.hidden[move.dst], top)
    return f"it joins {card_words(move.card)} to {card_words(move.card + 1)}: a same-suit run of {length} cards"
