"""Reading and writing the position text format of RULES.md.

::

    mode: clear            # clear | classic | another preset (optional)
    col1: JD* 5H* KH* AS 4H TH 8D
    ...
    col7: 7C QC JS QH 4S 8S 6S
    tail: 9C 2H 6H         # or "tail: -" once dealt
    frozen: S H            # optional, classic: covered runs that are frozen

The reader names the line and the problem for every malformed input
(:class:`PositionError`). What the reader settles by itself, as a player
would: a face-down card on top of a column is turned face up, and the
mode's effect on complete runs lying on top is applied (swept in Clear runs,
frozen in classic). A ``frozen:`` line is ignored by rules that do not freeze.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .cards import CardError, card_text, parse_card, parse_suit, suit_of
from .engine import complete_run_on_top, settle
from .position import NUM_COLUMNS, TAIL_SIZE, Position, position_problems, run_start
from .rules import CLEAR, Rules, get_rules


class PositionError(ValueError):
    """Malformed position text; the message names the line and the problem."""


@dataclass(frozen=True)
class ParsedPosition:
    position: Position
    rules: Rules


_KEY = re.compile(r"^\s*([A-Za-z]+[0-9]*)\s*:(.*)$")


def parse_position(text: str, rules: Rules | None = None, source: str = "position") -> ParsedPosition:
    """Read a position. ``rules`` (if given) overrides the text's ``mode:`` line."""
    seen_lines: dict[str, int] = {}
    columns: dict[int, tuple[list[int], int]] = {}
    tail: list[int] | None = None
    frozen_suits: list[tuple[int, int]] = []
    mode_rules: Rules | None = None
    where_card: dict[int, str] = {}

    def fail(lineno: int, message: str) -> PositionError:
        return PositionError(f"{source}, line {lineno}: {message}")

    def note_card(card: int, place: str, lineno: int) -> None:
        if card in where_card:
            raise fail(lineno, f"{card_text(card)} appears twice ({where_card[card]} and {place})")
        where_card[card] = place

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _KEY.match(line)
        if not match:
            raise fail(lineno, f"expected 'colN: cards', 'tail: cards', 'mode: name' or 'frozen: suits', got '{line}'")
        key, value = match.group(1).lower(), match.group(2).split()
        if key in seen_lines:
            raise fail(lineno, f"'{key}' given twice (first on line {seen_lines[key]})")
        seen_lines[key] = lineno
        if key == "mode":
            if len(value) != 1:
                raise fail(lineno, "mode takes one name, e.g. 'mode: clear'")
            try:
                mode_rules = get_rules(value[0])
            except ValueError as exc:
                raise fail(lineno, str(exc)) from None
        elif re.fullmatch(r"col[1-7]", key):
            index = int(key[3]) - 1
            cards, hidden, face_up_seen = [], 0, None
            for token in value:
                try:
                    card, face_down = parse_card(token)
                except CardError as exc:
                    raise fail(lineno, f"{key}: {exc}") from None
                note_card(card, key, lineno)
                if face_down:
                    if face_up_seen is not None:
                        raise fail(lineno, f"{key}: face-down card {token} lies above face-up card {face_up_seen}")
                    hidden += 1
                elif face_up_seen is None:
                    face_up_seen = token
                cards.append(card)
            columns[index] = (cards, hidden)
        elif key == "tail":
            if value == ["-"]:
                tail = []
            else:
                tail = []
                for token in value:
                    try:
                        card, _ = parse_card(token)  # '*' allowed: tail cards are face down by nature
                    except CardError as exc:
                        raise fail(lineno, f"tail: {exc}") from None
                    note_card(card, "tail", lineno)
                    tail.append(card)
                if len(tail) != TAIL_SIZE:
                    raise fail(lineno, f"the tail holds {TAIL_SIZE} cards (or '-' once dealt), got {len(tail)}")
        elif key == "frozen":
            for token in value:
                try:
                    frozen_suits.append((parse_suit(token), lineno))
                except CardError as exc:
                    raise fail(lineno, f"frozen: {exc}") from None
        else:
            raise fail(lineno, f"unknown line '{key}:' (expected mode, col1..col7, tail or frozen)")

    missing = [f"col{i + 1}" for i in range(NUM_COLUMNS) if i not in columns]
    if missing:
        raise PositionError(f"{source}: no line for {', '.join(missing)} (write an empty column as 'colN:')")
    if tail is None:
        raise PositionError(f"{source}: no 'tail:' line (write 'tail: -' once the tail is dealt)")
    rules = rules or mode_rules or CLEAR
    last_line = max(seen_lines.values()) if seen_lines else 1

    absent = [c for c in range(52) if c not in where_card]
    if absent and not rules.sweeps:
        shown = " ".join(card_text(c) for c in absent[:13])
        raise PositionError(
            f"{source}: cards missing: {shown}{' ...' if len(absent) > 13 else ''} "
            f"({rules.name} keeps every card on the table)"
        )
    absent_suits = {suit_of(c) for c in absent}
    for suit in sorted(absent_suits):
        partial = [card_text(c) for c in absent if suit_of(c) == suit]
        if len(partial) != 13:
            raise PositionError(
                f"{source}: cards missing: {' '.join(partial)} (cards off the table must be whole swept suits)"
            )

    col_lists = [list(columns[i][0]) for i in range(NUM_COLUMNS)]
    hidden = [columns[i][1] for i in range(NUM_COLUMNS)]
    frozen: set[int] = set()
    if rules.freezes:
        for suit, lineno in frozen_suits:
            if not any(run_start(tuple(c), h, suit) is not None for c, h in zip(col_lists, hidden)):
                raise fail(lineno, f"frozen: suit {'CSHD'[suit]} does not lie as a face-up King-to-Ace run")
        frozen = {s for s, _ in frozen_suits}
    settle(col_lists, hidden, frozen, range(NUM_COLUMNS), rules)
    position = Position(tuple(tuple(c) for c in col_lists), tuple(hidden), tuple(tail), frozenset(frozen))
    problems = position_problems(position)
    if problems:
        raise PositionError(f"{source}, line {last_line}: {problems[0]}")
    return ParsedPosition(position, rules)


def format_position(position: Position, rules: Rules | None = None) -> str:
    """The position as text; reading it back gives the same position."""
    lines = []
    if rules is not None:
        lines.append(f"mode: {rules.name}")
    lines.append(str(position))
    covered = sorted(s for s in position.frozen if not _frozen_on_top(position, s))
    if covered:
        lines.append("frozen: " + " ".join("CSHD"[s] for s in covered))
    return "\n".join(lines) + "\n"


def _frozen_on_top(position: Position, suit: int) -> bool:
    return any(complete_run_on_top(col, h) == suit for col, h in zip(position.columns, position.hidden))


def position_json(position: Position, rules: Rules | None = None) -> str:
    data = {
        "mode": rules.name if rules else None,
        "columns": [
            [card_text(c) + ("*" if j < position.hidden[i] else "") for j, c in enumerate(col)]
            for i, col in enumerate(position.columns)
        ],
        "tail": [card_text(c) for c in position.tail],
        "tail_dealt": position.tail_dealt,
        "swept": ["CSHD"[s] for s in position.swept_suits()] if (rules is None or rules.sweeps) else [],
        "frozen": ["CSHD"[s] for s in sorted(position.frozen)],
    }
    return json.dumps(data)


def read_position_file(path: str, rules: Rules | None = None) -> ParsedPosition:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise PositionError(f"cannot read {path}: {exc.strerror}") from None
    return parse_position(text, rules, source=path)
