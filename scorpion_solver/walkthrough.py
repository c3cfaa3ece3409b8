"""A solution rendered step by step for a person following it at the table.

Each step shows the move and then the seven columns, one per line, bottom card
first, with face-down cards as ``##`` followed by the card in brackets (the
solver knows them), the tail, and the group that just moved marked: in colour
(reverse video) on a terminal, between ``>`` and ``<`` when piped. Suits are
coloured red (hearts, diamonds) and default (clubs, spades) on a terminal.
"""

from __future__ import annotations

from .cards import card_text, suit_of
from .engine import Move, apply_move, move_text
from .position import Position
from .rules import Rules

_RED = "\x1b[31m"
_REVERSE = "\x1b[7m"
_RESET = "\x1b[0m"


def _card(card: int, face_down: bool, moved: bool, color: bool) -> str:
    text = card_text(card)
    if face_down:
        text = f"##({text})"
    if color:
        if suit_of(card) in (2, 3):
            text = _RED + text + _RESET
        if moved:
            text = _REVERSE + text + _RESET
    elif moved:
        text = f">{text}<"
    return text


def render_position(pos: Position, moved: set[int] = frozenset(), color: bool = False) -> str:
    lines = []
    for i, col in enumerate(pos.columns):
        cards = [_card(c, j < pos.hidden[i], c in moved, color) for j, c in enumerate(col)]
        lines.append(f"  {i + 1}: " + (" ".join(cards) if cards else "(empty)"))
    tail = " ".join(_card(c, True, False, color) for c in pos.tail) if pos.tail else "dealt"
    lines.append(f"  tail: {tail}")
    swept = pos.swept_suits()
    if swept:
        lines.append("  swept: " + " ".join("CSHD"[s] for s in swept))
    return "\n".join(lines)


def moved_cards(before: Position, move: Move) -> set[int]:
    if move.is_tail:
        return set(before.tail)
    col = before.columns[move.src]
    return set(col[col.index(move.card):])


def render_walkthrough(start: Position, moves: list[Move], rules: Rules, color: bool = False) -> str:
    out = ["start:", render_position(start, color=color)]
    pos = start
    for number, move in enumerate(moves, start=1):
        group = moved_cards(pos, move)
        pos = apply_move(pos, move, rules)
        out.append(f"move {number}/{len(moves)}: {move_text(move)}")
        out.append(render_position(pos, {c for c in group if any(c in col for col in pos.columns)}, color))
    return "\n".join(out)
