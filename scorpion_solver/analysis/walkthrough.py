"""A solution rendered step by step for a person following it at the table.

Each step names the move, then shows the table after it in one of two layouts:

* ``rows``: the seven columns one per line, bottom card first (compact, and
  easy to diff or grep);
* ``columns``: the seven columns side by side as they lie on the table, the
  bottom card of each at the head of the display and its top card (the one
  that plays) lowest.

Face-down cards show as ``##`` followed by the card in brackets (the solver
knows them); the tail and the swept (Clear runs) or frozen (classic) suits
follow the columns. The group that just moved is marked: in reverse video on a
terminal, between ``>`` and ``<`` in plain text. With colour on, each suit
has its own colour, as in a four-colour deck (Scorpion builds by suit, so two
red suits alike would mislead): spades in the terminal's own colour, hearts
red, diamonds blue, clubs green; face-down cards are dim. Without colour
(piped output) the text carries no escape codes at all.
"""

from __future__ import annotations

from ..game.cards import card_text, suit_of
from ..game.engine import Move, apply_move, move_text
from ..game.position import Position
from ..game.rules import Rules

LAYOUTS = ("rows", "columns")

SUIT_COLOURS = ("\x1b[32m", "", "\x1b[31m", "\x1b[34m")  # by suit index C S H D: green, default, red, blue
_DIM = "\x1b[2m"
_REVERSE = "\x1b[7m"
_RESET = "\x1b[0m"

_CELL = 7  # widest card cell: "##(KH)" or ">KH<", plus a space


def _plain(card: int, face_down: bool, moved: bool, color: bool) -> str:
    """The visible characters of a card cell (no escape codes)."""
    text = card_text(card)
    if face_down:
        text = f"##({text})"
    if moved and not color:
        text = f">{text}<"
    return text


def _card(card: int, face_down: bool, moved: bool, color: bool, width: int = 0) -> str:
    """A card as shown, padded with spaces to ``width`` visible characters."""
    text = _plain(card, face_down, moved, color)
    pad = " " * max(0, width - len(text))
    if not color:
        return text + pad
    style = SUIT_COLOURS[suit_of(card)]
    if face_down:
        style += _DIM
    if moved:
        style += _REVERSE
    return (style + text + _RESET if style else text) + pad


def _footer(pos: Position, color: bool) -> list[str]:
    tail = " ".join(_card(c, True, False, color) for c in pos.tail) if pos.tail else "dealt"
    lines = [f"  tail: {tail}"]
    swept = pos.swept_suits()
    if swept:
        lines.append("  swept: " + " ".join("CSHD"[s] for s in swept))
    if pos.frozen:
        lines.append("  frozen: " + " ".join("CSHD"[s] for s in sorted(pos.frozen)))
    return lines


def render_rows(pos: Position, moved: set[int] = frozenset(), color: bool = False) -> str:
    """One line per column, bottom card first."""
    lines = []
    for i, col in enumerate(pos.columns):
        cards = [_card(c, j < pos.hidden[i], c in moved, color) for j, c in enumerate(col)]
        lines.append(f"  {i + 1}: " + (" ".join(cards) if cards else "(empty)"))
    return "\n".join(lines + _footer(pos, color))


def render_columns(pos: Position, moved: set[int] = frozenset(), color: bool = False) -> str:
    """The columns side by side, each read downward from its bottom card to its top card."""
    header = "  " + "".join(f"{i + 1:<{_CELL}}" for i in range(len(pos.columns)))
    lines = [header.rstrip()]
    height = max((len(col) for col in pos.columns), default=0)
    for row in range(max(height, 1)):
        cells = []
        for i, col in enumerate(pos.columns):
            if row < len(col):
                cells.append(_card(col[row], row < pos.hidden[i], col[row] in moved, color, _CELL))
            elif row == 0:
                cells.append(f"{'--':<{_CELL}}")  # an empty column
            else:
                cells.append(" " * _CELL)
        lines.append(("  " + "".join(cells)).rstrip())
    return "\n".join(lines + _footer(pos, color))


def render_position(pos: Position, moved: set[int] = frozenset(), color: bool = False, layout: str = "rows") -> str:
    if layout == "rows":
        return render_rows(pos, moved, color)
    if layout == "columns":
        return render_columns(pos, moved, color)
    raise ValueError(f"unknown layout '{layout}' (rows or columns)")


def moved_cards(before: Position, move: Move) -> set[int]:
    if move.is_tail:
        return set(before.tail)
    col = before.columns[move.src]
    return set(col[col.index(move.card) :])


def render_walkthrough(
    start: Position, moves: list[Move], rules: Rules, color: bool = False, layout: str = "rows"
) -> str:
    """The start position and the position after every move, the moved group marked."""
    out = ["start:", render_position(start, color=color, layout=layout)]
    pos = start
    for number, move in enumerate(moves, start=1):
        group = moved_cards(pos, move)
        pos = apply_move(pos, move, rules)
        out.append(f"move {number}/{len(moves)}: {move_text(move)}")
        still_there = {c for c in group if any(c in col for col in pos.columns)}
        out.append(render_position(pos, still_there, color, layout))
    return "\n".join(out)
