"""The position type shared by every part of the tool.

A :class:`Position` is immutable and hashable. Columns are tuples of cards,
bottom card first; ``hidden[i]`` counts the face-down cards at the bottom of
column i (face-down cards are always the lowest ones, docs/rules.md "Position
text"). ``tail`` holds the three tail cards in dealing order (they land on
columns 1, 2, 3) or is empty once dealt. Cards on neither the table nor the
tail have been swept; they always form whole suits. ``frozen`` lists the suits
whose complete run is frozen (classic only; empty otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import NUM_CARDS, RUN_LENGTH, card_text, run_of_suit

NUM_COLUMNS = 7
TAIL_SIZE = 3


@dataclass(frozen=True)
class Position:
    columns: tuple[tuple[int, ...], ...]
    hidden: tuple[int, ...]
    tail: tuple[int, ...]
    frozen: frozenset[int] = field(default_factory=frozenset)

    @property
    def tail_dealt(self) -> bool:
        return not self.tail

    def cards_in_play(self) -> list[int]:
        return [c for col in self.columns for c in col] + list(self.tail)

    def swept_suits(self) -> list[int]:
        present = set(self.tail).union(*self.columns)
        return [s for s in range(4) if present.isdisjoint(run_of_suit(s))]

    def top(self, column: int) -> int | None:
        col = self.columns[column]
        return col[-1] if col else None

    def is_face_down(self, column: int, index: int) -> bool:
        return index < self.hidden[column]

    def __str__(self) -> str:
        lines = []
        for i, col in enumerate(self.columns):
            cards = [card_text(c) + ("*" if j < self.hidden[i] else "") for j, c in enumerate(col)]
            lines.append(f"col{i + 1}:" + "".join(" " + c for c in cards))
        lines.append("tail: " + (" ".join(card_text(c) for c in self.tail) if self.tail else "-"))
        return "\n".join(lines)


def position_problems(pos: Position) -> list[str]:
    """Everything structurally wrong with a position (empty list when sound).

    Checks card accounting (each card at most once, missing cards form whole
    suits), the face-down counts, the tail size and that frozen suits lie as
    runs. It does not know the rules; the engine checks rule-specific facts.
    """
    problems = []
    if len(pos.columns) != NUM_COLUMNS or len(pos.hidden) != NUM_COLUMNS:
        return [f"a position has {NUM_COLUMNS} columns"]
    if len(pos.tail) not in (0, TAIL_SIZE):
        problems.append(f"the tail holds {len(pos.tail)} cards; it holds {TAIL_SIZE} until dealt, then none")
    seen: dict[int, str] = {}
    for i, col in enumerate(pos.columns):
        if not 0 <= pos.hidden[i] <= len(col):
            problems.append(f"col{i + 1}: {pos.hidden[i]} face-down cards in a column of {len(col)}")
        for c in col:
            if not 0 <= c < NUM_CARDS:
                problems.append(f"col{i + 1}: {c} is not a card")
            elif c in seen:
                problems.append(f"{card_text(c)} appears twice ({seen[c]} and col{i + 1})")
            else:
                seen[c] = f"col{i + 1}"
    for c in pos.tail:
        if c in seen:
            problems.append(f"{card_text(c)} appears twice ({seen[c]} and tail)")
        seen[c] = "tail"
    for suit in range(4):
        run = run_of_suit(suit)
        present = [c for c in run if c in seen]
        if 0 < len(present) < RUN_LENGTH:
            missing = [card_text(c) for c in run if c not in seen]
            problems.append("missing cards " + " ".join(missing) + " (removed cards must form whole suits)")
    for suit in pos.frozen:
        if not any(run_start(col, hidden, suit) is not None for col, hidden in zip(pos.columns, pos.hidden)):
            problems.append(f"frozen suit {'CSHD'[suit]} does not lie as a face-up King-to-Ace run")
    return problems


def run_start(col: tuple[int, ...], hidden: int, suit: int) -> int | None:
    """Index of the King of the suit's complete face-up run in col, if it lies there."""
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
