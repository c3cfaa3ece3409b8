"""The player's view of a position, and positions sampled consistently with it.

An :class:`Observation` holds exactly what a player at the table knows: the
face-up cards where they lie, how many face-down cards each column holds,
whether the tail is still to be dealt, and which suits are swept (Clear runs)
or frozen (classic). Each face-down slot and each tail slot holds a card or
:data:`UNKNOWN`; the cards a player has not seen (:attr:`Observation.unseen`)
are known as a set, not where they lie. A view made from a position by
:meth:`Observation.of` knows no face-down or tail card; a view read from text
(``game.view_text``) may also know some (a fully known position is a view with
no unknown slot, so every tool that takes a view also takes a position).

Why sampling is exact. The deal is a uniform shuffle of the 52 cards
(docs/rules.md, "Deal numbers"), so before any move every assignment of cards to the
52 slots is equally likely. A move never looks at a face-down card: which
moves are legal, and what they do to face-up cards, depends only on the
face-up cards, the face-down counts and whether the tail is there (the engine
never reads a face-down card's identity, see ``engine._movable``). The only
events that reveal a hidden card are a flip (the card left on top of a
column) and the tail deal, and each reveals the card of one fixed slot. So
what the player has seen is a function of the face-up cards alone, and the
probability of seeing it is the same for every assignment of the unseen cards
to the remaining hidden slots: conditioning a uniform distribution on an
event that fixes some slots and leaves the others unconstrained leaves the
others uniform. Hence, given the view, every way of placing the unseen cards
into the hidden slots is equally likely, and :func:`sample_positions` (a
uniform permutation of the unseen cards into the hidden slots, in a fixed
slot order) draws exactly from the player's posterior.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Sequence

import numpy as np

from .cards import NUM_CARDS, RUN_LENGTH, card_text, run_of_suit
from .engine import Move, MoveError, apply_move, legal_moves
from .position import Position
from .refusals import refusal_text
from .rules import CLEAR, Rules

UNKNOWN = -1  # a hidden slot whose card the player has not seen


class MissingReveal(ValueError):
    """A move turned up a card that was not given (:meth:`Observation.advance`)."""


@dataclass(frozen=True)
class Observation:
    """What a player knows of a position (see the module docstring).

    ``columns[i]`` lists column i bottom first; its first ``hidden[i]`` slots
    are face down and may hold :data:`UNKNOWN`, the others are face-up cards.
    ``tail`` is its slots (cards or UNKNOWN: three, four in Double
    Scorpion) until dealt, then empty. ``frozen`` holds suit indexes;
    ``swept`` the runs that have left the table, by run index: suit s's
    first run is s, its second (two decks) s + 4. ``decks``: 1, or 2 in
    Double Scorpion, where a card's two copies (ids f and f + 52) are
    interchangeable: the unseen cards are the faces not accounted for, each
    given an id not on the table.
    """

    columns: tuple[tuple[int, ...], ...]
    hidden: tuple[int, ...]
    tail: tuple[int, ...]
    swept: frozenset[int] = field(default_factory=frozenset)
    frozen: frozenset[int] = field(default_factory=frozenset)
    reserves: tuple[int, ...] = ()  # Three Blind Mice's reserve cards, face up (shown; the view reads no further)
    decks: int = 1

    @classmethod
    def of(cls, position: Position, decks: int | None = None) -> "Observation":
        """The view of a player at the table: every face-down and tail card unknown.

        ``decks`` is the game's (``rules.decks``); without it, two when a second copy's id is on the table.
        """
        if decks is None:
            decks = decks_of(position)
        columns = tuple(
            tuple(UNKNOWN if j < position.hidden[i] else c for j, c in enumerate(col))
            for i, col in enumerate(position.columns)
        )
        tail = tuple(UNKNOWN for _ in position.tail)
        swept = swept_runs(position, decks)
        return cls(columns, position.hidden, tail, swept, position.frozen, position.reserves, decks)

    @property
    def tail_dealt(self) -> bool:
        return not self.tail

    def known_cards(self) -> set[int]:
        known = {c for col in self.columns for c in col if c != UNKNOWN} | {c for c in self.tail if c != UNKNOWN}
        return known.union(self.reserves)

    def hidden_slots(self) -> list[tuple[int, int]]:
        """The unknown slots in a fixed order: (column, index) bottom first column by column, then (-1, t) tail."""
        return list(self._slots)

    @cached_property
    def _slots(self) -> tuple[tuple[int, int], ...]:
        """:meth:`hidden_slots`, found once (a view never changes; a sampled layout's fill asks for them)."""
        slots = [(i, j) for i, col in enumerate(self.columns) for j, c in enumerate(col) if c == UNKNOWN]
        return tuple(slots + [(-1, t) for t, c in enumerate(self.tail) if c == UNKNOWN])

    @cached_property
    def unseen(self) -> tuple[int, ...]:
        """The cards the player has not seen, sorted (one for each unknown slot; found once)."""
        known = self.known_cards()
        if self.decks == 1:
            gone = {c for s in self.swept for c in run_of_suit(s)}
            return tuple(c for c in range(NUM_CARDS) if c not in known and c not in gone)
        out = []
        for face in range(NUM_CARDS):
            ids = [face + NUM_CARDS * d for d in range(self.decks)]
            left = self.decks - sum(r % 4 == face // RUN_LENGTH for r in self.swept) - sum(i in known for i in ids)
            out += [i for i in ids if i not in known][: max(left, 0)]
        return tuple(sorted(out))

    @property
    def fully_known(self) -> bool:
        """No card is hidden any more: the position is perfect-information."""
        return not self.hidden_slots()

    def filled(self, cards) -> Position:
        """The position with ``cards`` placed into :meth:`hidden_slots`, in that order."""
        columns = list(self.columns)  # only the columns with an unknown slot are rebuilt
        rebuilt: dict[int, list[int]] = {}
        tail = list(self.tail)
        for (i, j), card in zip(self._slots, cards, strict=True):
            if i < 0:
                tail[j] = int(card)
            else:
                column = rebuilt.get(i)
                if column is None:
                    column = rebuilt[i] = list(columns[i])
                column[j] = int(card)
        for i, column in rebuilt.items():
            columns[i] = tuple(column)
        return Position(tuple(columns), self.hidden, tuple(tail), self.frozen, self.reserves)

    def stand_in(self) -> Position:
        """One position consistent with the view (unseen cards in sorted order).

        Only for what does not depend on the hidden cards: the legal moves,
        and the effect of a move that reveals nothing.
        """
        return self.filled(self.unseen)

    def legal_moves(self, rules: Rules = CLEAR) -> list[Move]:
        """The legal moves, in the engine's canonical order (they never depend on hidden cards)."""
        return legal_moves(self.stand_in(), rules)

    def reveals(self, move: Move, rules: Rules = CLEAR) -> bool:
        """Whether the move shows a hidden card: a flip (also one after a sweep) or the tail deal."""
        return self._after(move, rules)[1]

    def after(self, move: Move, rules: Rules = CLEAR) -> "Observation | None":
        """The view after a move that reveals nothing; None when it would reveal a card."""
        position, reveals = self._after(move, rules)
        return None if reveals else self.masked(position)

    def _after(self, move: Move, rules: Rules) -> tuple[Position, bool]:
        position = apply_move(self.stand_in(), move, rules)
        if move.is_tail and any(c == UNKNOWN for c in self.tail):
            return position, True
        for i, col in enumerate(self.columns):
            # face-down cards turn up from the top of the face-down part only
            if any(c == UNKNOWN for c in col[position.hidden[i] : self.hidden[i]]):
                return position, True
        return position, False

    def masked(self, position: Position, swept: frozenset[int] | None = None) -> "Observation":
        """The view of ``position`` keeping this view's unknown slots unknown (same slots, same cards).

        ``swept``: the position's swept suits when the caller knows them (else found from its cards).
        """
        # slots keep their identity across a move that reveals nothing: the face-down
        # parts of the columns and the tail are untouched; a column or tail without an
        # unknown slot is the position's own
        columns = list(position.columns)
        tail = position.tail
        for i, unknown in self._unknown_by_column.items():
            cards = list(tail if i < 0 else columns[i])
            for j in unknown:
                if j < len(cards):
                    cards[j] = UNKNOWN
            if i < 0:
                tail = tuple(cards)
            else:
                columns[i] = tuple(cards)
        if swept is None:
            swept = swept_runs(position, self.decks)
        return Observation(tuple(columns), position.hidden, tail, swept, position.frozen, position.reserves, self.decks)

    @cached_property
    def _unknown_by_column(self) -> dict[int, frozenset[int]]:
        """The unknown slots' indexes by column (-1: the tail), for :meth:`masked`."""
        by_column: dict[int, set[int]] = {}
        for i, j in self._slots:
            by_column.setdefault(i, set()).add(j)
        return {i: frozenset(js) for i, js in by_column.items()}

    def blind(self) -> "Observation":
        """The view of a player at the table: every face-down and tail slot unknown, whatever this view knew.

        A typed view may name a face-down card (``JD*``); a player never saw
        one, so a fair hint judges from this view instead.
        """
        columns = tuple(
            tuple(UNKNOWN if j < self.hidden[i] else c for j, c in enumerate(col)) for i, col in enumerate(self.columns)
        )
        return Observation(
            columns, self.hidden, tuple(UNKNOWN for _ in self.tail), self.swept, self.frozen, self.reserves, self.decks
        )

    def knowing(self, cards: dict[tuple[int, int], int]) -> "Observation":
        """This view with the given slots ((column, index) or (-1, tail index), as in :meth:`hidden_slots`) known."""
        columns = [list(col) for col in self.columns]
        tail = list(self.tail)
        for (i, j), card in cards.items():
            if i < 0:
                tail[j] = card
            else:
                columns[i][j] = card
        return Observation(
            tuple(tuple(c) for c in columns),
            self.hidden,
            tuple(tail),
            self.swept,
            self.frozen,
            self.reserves,
            self.decks,
        )

    def play(self, move: Move, revealed: Sequence[int] = (), rules: Rules = CLEAR) -> "Observation":
        """The view after a legal move, given exactly the cards it turned up (see :meth:`advance`)."""
        view, used = self._play(move, revealed, rules)
        if used != len(revealed):
            raise ValueError(f"{move} turns up {used} card{'s' if used != 1 else ''}; {len(revealed)} given")
        return view

    def advance(self, moves: Sequence[Move], revealed: Sequence[int] = (), rules: Rules = CLEAR) -> "Observation":
        """The view after the moves, given the cards they turned up, in the order a player sees them.

        The tail deal shows its cards first (onto columns 1, 2, 3, in that
        order), then each face-down card a move turned up, column by column (a
        move can turn up two: its own column's, and one a sweep uncovers). The
        cards must be unseen, and exactly as many as the moves turn up
        (ValueError naming the move otherwise). The tail's cards are placed
        before the deal is played because they can complete a run, and so
        decide which cards a sweep uncovers.
        """
        view, cards = self, list(revealed)
        for number, move in enumerate(moves, start=1):
            try:
                view, used = view._play(move, cards, rules)
            except ValueError as exc:
                raise type(exc)(f"move {number} ({move}): {exc}") from None
            cards = cards[used:]
        if cards:
            raise ValueError(
                f"{len(cards)} card{'s' if len(cards) != 1 else ''} given to reveal but not turned up by any move "
                f"({' '.join(card_text(c) for c in cards)})"
            )
        return view

    def _play(self, move: Move, cards: Sequence[int], rules: Rules) -> tuple["Observation", int]:
        """The view after ``move`` and how many of ``cards`` (a prefix) it turned up."""
        why = refusal_text(self.stand_in(), move, rules)  # from the view: the stand-in's hidden cards are made up
        if why:
            raise MoveError(why)
        view, used = self, 0

        def take(slots: list[tuple[int, int]], what: str) -> None:
            nonlocal view, used
            given = list(cards[used : used + len(slots)])
            if len(given) < len(slots):
                raise MissingReveal(f"it turns up {what}, and the cards given to reveal do not say which")
            unseen = set(view.unseen)
            for card in given:
                if card not in unseen:
                    raise ValueError(f"{card_text(card)} cannot be turned up: it is not an unseen card")
            if len(set(given)) != len(given):
                raise ValueError("a card is given twice")
            view = view.knowing(dict(zip(slots, given)))
            used += len(slots)

        if move.is_tail:
            tail_slots = [(-1, t) for t, c in enumerate(self.tail) if c == UNKNOWN]
            if tail_slots:
                take(tail_slots, f"the tail's {len(tail_slots)} cards")
        after = apply_move(view.stand_in(), move, rules)
        flips = [
            (i, j)
            for i, col in enumerate(view.columns)
            for j in range(after.hidden[i], view.hidden[i])
            if col[j] == UNKNOWN
        ]
        if flips:
            where = " and ".join(f"column {i + 1}" for i, _ in flips)
            take(flips, f"the face-down card{'s' if len(flips) > 1 else ''} of {where}")
        return view.masked(apply_move(view.stand_in(), move, rules)), used

    def key(self) -> tuple:
        return (self.columns, self.hidden, self.tail, self.swept, self.frozen, self.reserves, self.decks)

    def problems(self, rules: Rules = CLEAR) -> list[str]:
        """Everything that keeps the view from being a legal position of ``rules``' game (empty when sound)."""
        out = []
        width = rules.num_columns
        if len(self.columns) != width or len(self.hidden) != width:
            return [f"a position of {rules.name} has {width} columns"]
        if len(self.tail) not in (0, rules.tail_size):
            out.append(f"the tail holds {len(self.tail)} cards; it holds {rules.tail_size} until dealt, then none")
        if self.decks != rules.decks:
            out.append(f"{rules.name} is played with {rules.decks} deck{'s' if rules.decks > 1 else ''}")
        for i, col in enumerate(self.columns):
            if not 0 <= self.hidden[i] <= len(col):
                out.append(f"col{i + 1}: {self.hidden[i]} face-down cards in a column of {len(col)}")
            elif self.hidden[i] > rules.face_down[i]:
                out.append(
                    f"col{i + 1}: {self.hidden[i]} face-down cards, but {rules.name} deals "
                    f"{rules.face_down[i]} face down there"
                )
            if any(c == UNKNOWN for c in col[self.hidden[i] :]):
                out.append(f"col{i + 1}: an unknown card ?? lies face up (only face-down cards can be unknown)")
        if self.swept and not rules.sweeps:
            out.append(f"{rules.name} sweeps no suit, yet cards are off the table")
        seen: dict[int, str] = {}
        places = [(f"col{i + 1}", col) for i, col in enumerate(self.columns)] + [
            ("tail", self.tail),
            ("reserve", self.reserves),
        ]
        for place, cards in places:
            for c in cards:
                if c == UNKNOWN:
                    continue
                if c in seen:
                    out.append(f"{card_text(c)} appears twice ({seen[c]} and {place})")
                seen[c] = place
        faces = [c % NUM_CARDS for c in seen]
        for r in self.swept:
            suit = r % 4
            on_table = [card_text(c) for c in run_of_suit(suit) if faces.count(c) > self.decks - 1 - r // 4]
            if on_table:
                out.append(f"suit {'CSHD'[suit]} is swept but {' '.join(on_table)} is on the table")
        unknown = len(self.hidden_slots())
        total = len(seen) + unknown + RUN_LENGTH * len(self.swept)
        if total != NUM_CARDS * self.decks:
            out.append(
                f"{len(seen)} known cards, {unknown} unknown and {len(self.swept)} swept runs make {total} "
                f"cards, not {NUM_CARDS * self.decks}"
            )
        return out


def decks_of(position: Position) -> int:
    """The decks of ``position``'s game when no rules say: two when a second copy's id is on the table.

    (A two-deck position whose second copies have all been swept reads as one deck: pass the rules' count.)
    """
    return 2 if any(c >= NUM_CARDS for c in position.cards_in_play()) else 1


def swept_runs(position: Position, decks: int) -> frozenset[int]:
    """The runs that have left the table, by run index (suit s's first s, its second s + 4: ``Observation``)."""
    suits = position.swept_suits(decks)
    return frozenset(s + 4 * suits[:k].count(s) for k, s in enumerate(suits))


def sample_positions(view: Observation, k: int, seed: int) -> list[Position]:
    """``k`` positions consistent with the view: the unseen cards shuffled uniformly into the hidden slots.

    Reproducible: the same view, ``k`` and ``seed`` give the same list, and the
    first positions of a longer list are those of a shorter one.
    """
    if k < 0:
        raise ValueError("the number of samples must be at least 0")
    unseen = np.array(view.unseen, dtype=np.int64)
    rng = np.random.default_rng(seed)
    return [view.filled(rng.permutation(unseen)) for _ in range(k)]
