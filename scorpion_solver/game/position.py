"""The position type shared by every part of the tool.

A :class:`Position` is immutable and hashable. Columns are tuples of cards,
bottom card first; ``hidden[i]`` counts the face-down cards at the bottom of
column i (face-down cards are always the lowest ones, docs/rules.md "Position
text"). ``tail`` holds the tail cards in dealing order (three for Scorpion,
landing on columns 1, 2, 3; four for Double Scorpion, onto columns 1-4) or is
empty once dealt (or in a game without a tail). Cards on neither the table,
the tail nor the reserves have been swept; they always form whole suits.
``frozen`` lists the suits whose complete run is frozen (classic only; empty
otherwise). ``reserves`` holds Three Blind Mice's face-up reserve cards not
yet played, in their order (empty in every other game).

The number of columns is the game's: seven, or ten for Double Scorpion and
Three Blind Mice. A two-deck game's cards are ids 0..103 (``cards``: the face
is ``card % 52``); the copies of a face are told apart by id only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import MAX_DECKS, NUM_CARDS, RUN_LENGTH, card_text, face_of, run_of_suit

NUM_COLUMNS = 7  # Scorpion's; a Position's own count is len(columns)
TAIL_SIZE = 3  # Scorpion's; Double Scorpion's tail holds 4
COLUMN_COUNTS = (7, 10)  # the games' column counts (docs/rules.md)
TAIL_SIZES = (3, 4)  # the tail sizes of the games with a tail


@dataclass(frozen=True)
class Position:
    columns: tuple[tuple[int, ...], ...]
    hidden: tuple[int, ...]
    tail: tuple[int, ...]
    frozen: frozenset[int] = field(default_factory=frozenset)
    reserves: tuple[int, ...] = ()

    @property
    def tail_dealt(self) -> bool:
        return not self.tail

    @property
    def num_columns(self) -> int:
        return len(self.columns)

    def cards_in_play(self) -> list[int]:
        return [c for col in self.columns for c in col] + list(self.tail) + list(self.reserves)

    def swept_suits(self, decks: int = 1) -> list[int]:
        """The suits swept, in a game of ``decks`` decks: with two, a suit is listed once for each of its
        runs that has left (removed cards form whole runs, each with one King)."""
        if decks == 1:
            present = set(self.tail).union(*self.columns, self.reserves)
            return [s for s in range(4) if present.isdisjoint(run_of_suit(s))]
        kings = [face_of(c) for c in self.cards_in_play() if c % RUN_LENGTH == RUN_LENGTH - 1]
        return [s for s in range(4) for _ in range(decks - kings.count(run_of_suit(s)[0]))]

    def top(self, column: int) -> int | None:
        col = self.columns[column]
        return col[-1] if col else None

    def __str__(self) -> str:
        lines = []
        for i, col in enumerate(self.columns):
            cards = [card_text(c) + ("*" if j < self.hidden[i] else "") for j, c in enumerate(col)]
            lines.append(f"col{i + 1}:" + "".join(" " + c for c in cards))
        lines.append("tail: " + (" ".join(card_text(c) for c in self.tail) if self.tail else "-"))
        if self.reserves:
            lines.append("reserve: " + " ".join(card_text(c) for c in self.reserves))
        return "\n".join(lines)


def position_problems(pos: Position) -> list[str]:
    """Everything structurally wrong with a position (empty list when sound).

    Checks card accounting (each card at most once, missing cards form whole
    suits), the face-down counts, the tail size and that frozen suits lie as
    runs. It does not know the rules; the engine checks rule-specific facts.
    """
    problems = []
    columns = len(pos.columns)
    if columns not in COLUMN_COUNTS or len(pos.hidden) != columns:
        return [f"a position has 7 columns (10 in Double Scorpion and Three Blind Mice), not {columns}"]
    if len(pos.tail) not in (0, *TAIL_SIZES):
        problems.append(
            f"the tail holds {len(pos.tail)} cards; it holds 3 (4 in Double Scorpion) until dealt, then none"
        )
    seen: dict[int, str] = {}
    places = [(f"col{i + 1}", col) for i, col in enumerate(pos.columns)] + [
        ("tail", pos.tail),
        ("reserve", pos.reserves),
    ]
    for i, (place, cards) in enumerate(places):
        if i < columns and not 0 <= pos.hidden[i] <= len(cards):
            problems.append(f"{place}: {pos.hidden[i]} face-down cards in a column of {len(cards)}")
        for c in cards:
            if not 0 <= c < MAX_DECKS * NUM_CARDS:
                problems.append(f"{place}: {c} is not a card")
            elif c in seen:
                problems.append(f"{card_text(c)} appears twice ({seen[c]} and {place})")
            else:
                seen[c] = place
    decks = 2 if any(c >= NUM_CARDS for c in seen) else 1
    for suit in range(4):
        run = run_of_suit(suit)
        counts = [sum(c + NUM_CARDS * d in seen for d in range(decks)) for c in run]
        if len(set(counts)) > 1:
            missing = [card_text(c) for c, n in zip(run, counts) if n < max(counts)]
            problems.append("missing cards " + " ".join(missing) + " (removed cards must form whole suits)")
    for suit in pos.frozen:
        if not any(run_start(col, hidden, suit) is not None for col, hidden in zip(pos.columns, pos.hidden)):
            problems.append(f"frozen suit {'CSHD'[suit]} does not lie as a face-up King-to-Ace run")
    return problems


def run_start(col: tuple[int, ...], hidden: int, suit: int) -> int | None:
    """Index of the King of the suit's complete face-up run in col, if it lies there (one deck: frozen runs
    are classic's, a one-deck mode)."""
    run = run_of_suit(suit)
    if run[0] not in col:
        return None
    start = col.index(run[0])  # a card lies in one place: the run can start only at its King
    return start if start >= hidden and tuple(col[start : start + RUN_LENGTH]) == run else None


def frozen_floor(pos: Position, column: int) -> int:
    """Number of cards at the bottom of a column that can never move (frozen runs and below)."""
    floor = 0
    col, hidden = pos.columns[column], pos.hidden[column]
    for suit in pos.frozen:
        start = run_start(col, hidden, suit)
        if start is not None:
            floor = max(floor, start + RUN_LENGTH)
    return floor


def copy_blind(pos: Position) -> tuple:
    """The position with each card read as its face: equal for a two-deck position and its copy-swapped twins
    (the two copies of a face are interchangeable in play), and for a one-deck position its own fields."""

    def faces(cards: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(c % NUM_CARDS for c in cards)

    return tuple(faces(c) for c in pos.columns), pos.hidden, faces(pos.tail), pos.frozen, faces(pos.reserves)
