"""The commitment: moves that reveal nothing, then the one move that reveals (a flip or the tail deal).

From a view, the moves that reveal nothing form a deterministic graph (the
closure, ``exact.reveal_closure``); a commitment is a path in it and the
revealing move that ends it. Until that last move the player learns nothing,
so a player who cannot peek decides a whole commitment at once, and the no-peek
players (``commit``, ``commit2``, the exact endgame, UB_1 in ``bounds``) all
reason in commitments. This module holds the value and what is done with it:

* :data:`Commitment`, the moves themselves (a tuple: hashable, comparable);
* :class:`RevealingPair`, a commitment found in a closure: its path, its
  revealing move and the position before that move (``pair.commitment``);
* :func:`first_commitment`, the commitment a line of moves starts with;
* :func:`play_commitment` and :func:`after_commitment`, the position after one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, reduce

from ..game.engine import Move, apply_move
from ..game.position import Position
from ..game.rules import Rules
from ..game.view import Observation

Commitment = tuple[Move, ...]  # moves that reveal nothing, then the one that reveals


@dataclass
class RevealingPair:
    """A revealing move ``move`` of ``view`` (a view of the closure), reached by ``path`` from the closure's ``root``.

    ``position`` is the closure root's stand-in moved along ``path``: the
    unknown slots keep the root's stand-in cards (a move that reveals nothing
    does not touch them), so a layout of the root fills them the same way.
    ``view`` is made on first use: a closure has many pairs, and most are
    never looked at (building each view was a tenth of a commit game's CPU).
    ``outcomes`` and ``bound`` are the exact endgame's (``play.exact``).
    """

    root: Observation
    move: Move
    path: Commitment
    position: object = None
    outcomes: list = field(default_factory=list)  # (probability, outcome view)
    bound: Fraction = Fraction(1)

    @cached_property
    def view(self) -> Observation:
        return self.root.masked(self.position)

    @property
    def commitment(self) -> Commitment:
        """The whole commitment: the path, then the revealing move."""
        return self.path + (self.move,)


def first_reveal(view: Observation, line: tuple[Move, ...], rules: Rules) -> tuple[Observation, int] | None:
    """Where ``line`` first turns a card up: the view before that move, and the moves up to it (itself included).

    None if the line reveals nothing.
    """
    for n, move in enumerate(line):
        following = view.after(move, rules)
        if following is None:  # the move reveals a card
            return view, n + 1
        view = following
    return None


def first_commitment(view: Observation, line: tuple[Move, ...], rules: Rules) -> Commitment | None:
    """The moves of ``line`` up to its first reveal, as ``view`` tells it; None if it reveals nothing."""
    found = first_reveal(view, line, rules)
    return None if found is None else tuple(line[: found[1]])


def play_commitment(position: Position, commitment: Commitment, rules: Rules) -> Position:
    """``position`` after the moves of ``commitment``."""
    return reduce(lambda p, m: apply_move(p, m, rules), commitment, position)


def slot_cards(layout, slots: list[tuple[int, int]]) -> list[int]:
    """The cards ``layout`` holds in the hidden ``slots`` of a view (``Observation.hidden_slots``)."""
    return [layout.columns[i][j] if i >= 0 else layout.tail[j] for i, j in slots]


def after_commitment(pair: RevealingPair, cards: list[int], rules: Rules) -> Position:
    """The position after the commitment ``pair`` in the layout whose hidden slots hold ``cards`` (``slot_cards``)."""
    return apply_move(pair.view.filled(cards), pair.move, rules)
