"""Reading and writing the position text format of docs/rules.md.

::

    mode: clear            # clear | classic | another preset (optional)
    col1: JD* 5H* KH* AS 4H TH 8D
    ...
    col7: 7C QC JS QH 4S 8S 6S
    tail: 9C 2H 6H         # or "tail: -" once dealt
    frozen: S H            # optional, classic: covered runs that are frozen

The ten-column relatives (docs/rules.md, "Relatives: two new games") have
lines ``col1`` .. ``col10``; Double Scorpion's tail holds four cards (its
all-dealt layout and Three Blind Mice have no tail: the ``tail:`` line may be
left out, or be ``tail: -``); Three Blind Mice has ``reserve: 2H 6H`` (the
reserve cards not yet played, or ``-``). In a two-deck game a card may appear
twice (its two copies); the copies are read as ids ``face`` then ``face + 52``.

The reader names the line and the problem for every malformed input
(:class:`PositionError`), including positions no deal can reach: more
face-down cards in a column than the rules deal there (none in columns 5-7,
at most three in columns 1-4 for Scorpion), or a column whose every card is
face down (its top card always lies face up). What the reader settles by
itself, as a player would: the mode's effect on complete runs lying on top
is applied (swept in Clear runs, frozen in classic), and a card a swept run
uncovers is turned face up. A ``frozen:`` line is ignored by rules that do
not freeze. The JSON that ``scorpion deal --json`` prints is read too
(:func:`parse_position_json`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .cards import NUM_CARDS, CardError, card_text, parse_card, parse_suit, suit_of
from .engine import complete_run_on_top, settle
from .position import COLUMN_COUNTS, NUM_COLUMNS, Position, position_problems, run_start
from .rules import CLEAR, Rules, get_rules
from .text_input import parse_json, read_text, strip_bom, visible


class PositionError(ValueError):
    """Malformed position text; the message names the line and the problem."""


@dataclass(frozen=True)
class ParsedPosition:
    position: Position
    rules: Rules


_KEY = re.compile(r"^\s*([A-Za-z]+[0-9]*)\s*:(.*)$")


def keyed_lines(text: str, fail, seen: dict[str, int]):
    """The ``key: values`` lines of a position text, as (line number, key, values).

    Comments and blank lines are dropped, a byte-order mark too; ``seen`` gets
    each key's line number. A line of another shape, or a key given twice,
    raises ``fail(line number, message)``. Shared by this reader and the
    view reader (``view_text``), so both read the same lines the same way.
    """
    for lineno, raw in enumerate(strip_bom(text).splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _KEY.match(line)
        if not match:
            raise fail(
                lineno,
                f"expected 'colN: cards', 'tail: cards', 'reserve: cards', 'mode: name' or 'frozen: suits', got '{line}'",
            )
        key, value = match.group(1).lower(), match.group(2).split()
        if key in seen:
            raise fail(lineno, f"'{key}' given twice (first on line {seen[key]})")
        seen[key] = lineno
        yield lineno, key, value


@dataclass
class TextFields:
    """The lines of a position text, read and checked line by line (``read_fields``)."""

    columns: dict[int, tuple[list[int], int, int]]  # column index -> (cards bottom first, face-down count, line)
    tail: list[int] | None  # [] once dealt, None without a tail line
    frozen: list[tuple[int, int]]  # (suit, line)
    mode_rules: Rules | None
    where: dict[int, str]  # known card -> where it lies ("col3", "tail")
    lines: dict[str, int]  # key -> line number
    reserves: list[int]  # the reserve line's cards ([] without one)
    tail_dash: bool  # the tail line reads '-'
    second_copies: dict[int, tuple[int, str]]  # a card read a second time (id face + 52) -> (line, place)

    def check_shape(self, rules: Rules, source: str) -> None:
        """Refuse what the game of ``rules`` has no room for: columns beyond its own, a tail of another size
        (or a missing tail line in a game with a tail), reserve cards, a second copy of a card in a one-deck game."""
        fail = _FieldReader(source, None).fail
        width = rules.num_columns
        for index, (_, _, lineno) in sorted(self.columns.items()):
            if index >= width:
                raise fail(lineno, f"unknown line 'col{index + 1}:' ({rules.name} has {width} columns)")
        if len(self.reserves) > rules.reserves:
            room = f"has {rules.reserves} reserve cards" if rules.reserves else "has no reserve cards"
            raise fail(self.lines["reserve"], f"{rules.name} {room}, got {len(self.reserves)}")
        if rules.decks == 1 and self.second_copies:
            card, (lineno, place) = min(self.second_copies.items(), key=lambda item: item[1][0])
            face = card % 52
            raise fail(lineno, f"{card_text(face)} appears twice ({self.where[face]} and {place})")
        missing = [f"col{i + 1}" for i in range(width) if i not in self.columns]
        if missing:
            raise PositionError(f"{source}: no line for {', '.join(missing)} (write an empty column as 'colN:')")
        if self.tail is None:
            if rules.tail_size:
                raise PositionError(f"{source}: no 'tail:' line (write 'tail: -' once the tail is dealt)")
        elif (self.tail or not self.tail_dash) and len(self.tail) != rules.tail_size:
            if rules.tail_size:
                message = f"the tail holds {rules.tail_size} cards (or '-' once dealt), got {len(self.tail)}"
            else:
                message = (
                    f"{rules.name} has no tail (write 'tail: -' or leave the line out), got {len(self.tail)} cards"
                )
            raise fail(self.lines["tail"], message)


def read_fields(text: str, source: str, unknown: int | None = None) -> TextFields:
    """Read the lines of a position text; shared by this reader and the view reader (``view_text``).

    Checks what one line shows: the shape of each line, each card, a card
    given twice, a face-down card (or, with ``unknown``, the unknown card
    ``??``, read as ``unknown`` and counted face down) above a face-up one,
    the tail's length; and that every column and the tail have their line.
    What depends on the whole text is the callers'.
    """
    reader = _FieldReader(source, unknown)
    for lineno, key, value in keyed_lines(text, reader.fail, reader.lines):
        if key == "mode":
            reader.mode(value, lineno)
        elif re.fullmatch(r"col([1-9]|10)", key):
            reader.column(key, value, lineno)
        elif key == "tail":
            reader.read_tail(value, lineno)
        elif key == "frozen":
            reader.read_frozen(value, lineno)
        elif key == "reserve":
            reader.read_reserve(value, lineno)
        else:
            raise reader.fail(
                lineno,
                f"unknown line '{key}:' (expected mode, col1..col7 (col10 in the ten-column games), tail, "
                "reserve or frozen)",
            )
    return TextFields(
        reader.columns,
        reader.tail,
        reader.frozen,
        reader.mode_rules,
        reader.where,
        reader.lines,
        reader.reserves,
        reader.tail_dash,
        reader.second_copies,
    )


class _FieldReader:
    """What :func:`read_fields` has read so far, and the reading of each kind of line."""

    def __init__(self, source: str, unknown: int | None) -> None:
        self.source, self.unknown = source, unknown
        self.lines: dict[str, int] = {}
        self.columns: dict[int, tuple[list[int], int, int]] = {}
        self.tail: list[int] | None = None
        self.frozen: list[tuple[int, int]] = []
        self.mode_rules: Rules | None = None
        self.where: dict[int, str] = {}
        self.reserves: list[int] = []
        self.tail_dash = False  # the tail line reads '-'
        self.second_copies: dict[int, tuple[int, str]] = {}

    def fail(self, lineno: int, message: str) -> PositionError:
        return PositionError(f"{self.source}, line {lineno}: {visible(message)}")

    def is_unknown(self, token: str) -> bool:
        """Whether ``token`` is ``??`` read as the unknown card (only a view's reader passes ``unknown``)."""
        return self.unknown is not None and token.rstrip("*") == UNKNOWN_TOKEN

    def read_card(self, token: str, place: str, lineno: int) -> tuple[int, bool]:
        if token.rstrip("*") == UNKNOWN_TOKEN:
            raise self.fail(
                lineno,
                f"{place}: ?? is an unknown card: this text is a player's view, and this command needs every "
                "card (a view is read by `scorpion hint --fair`, `scorpion show --fair` and "
                "`scorpion replay VIEW ... --reveal`)",
            )
        try:
            card, face_down = parse_card(token)
        except CardError as exc:
            raise self.fail(lineno, f"{place}: {exc}") from None
        if card in self.where:  # a second copy (two decks; a one-deck game refuses it in check_shape)
            if card + NUM_CARDS in self.where:
                raise self.fail(
                    lineno,
                    f"{card_text(card)} appears three times ({self.where[card]}, {self.where[card + NUM_CARDS]} and "
                    f"{place}); a game has at most two decks",
                )
            card += NUM_CARDS
            self.second_copies[card] = (lineno, place)
        self.where[card] = place
        return card, face_down

    def mode(self, value: list[str], lineno: int) -> None:
        if len(value) != 1:
            raise self.fail(lineno, "mode takes one name, e.g. 'mode: clear'")
        try:
            self.mode_rules = get_rules(value[0])
        except ValueError as exc:
            raise self.fail(lineno, str(exc)) from None

    def column(self, key: str, value: list[str], lineno: int) -> None:
        cards, hidden, face_up_seen = [], 0, None
        for token in value:
            if self.is_unknown(token):
                if face_up_seen is not None:
                    raise self.fail(lineno, f"{key}: the unknown card ?? lies above face-up card {face_up_seen}")
                cards.append(self.unknown)
                hidden += 1
                continue
            card, face_down = self.read_card(token, key, lineno)
            if face_down:
                if face_up_seen is not None:
                    raise self.fail(lineno, f"{key}: face-down card {token} lies above face-up card {face_up_seen}")
                hidden += 1
            elif face_up_seen is None:
                face_up_seen = token
            cards.append(card)
        self.columns[int(key[3:]) - 1] = (cards, hidden, lineno)

    def read_tail(self, value: list[str], lineno: int) -> None:
        self.tail = []
        self.tail_dash = value == ["-"]
        if self.tail_dash:
            return
        for token in value:
            if self.is_unknown(token):
                self.tail.append(self.unknown)
            else:
                self.tail.append(self.read_card(token, "tail", lineno)[0])  # '*' allowed: tail cards are face down

    def read_reserve(self, value: list[str], lineno: int) -> None:
        if value == ["-"]:
            return
        for token in value:
            card, face_down = self.read_card(token, "reserve", lineno)
            if face_down:
                raise self.fail(lineno, f"reserve: {token}: the reserve cards lie face up")
            self.reserves.append(card)

    def read_frozen(self, value: list[str], lineno: int) -> None:
        for token in value:
            try:
                self.frozen.append((parse_suit(token), lineno))
            except CardError as exc:
                raise self.fail(lineno, f"frozen: {exc}") from None


UNKNOWN_TOKEN = "??"  # the view's unknown card (view_text)


def parse_position(
    text: str, rules: Rules | None = None, source: str = "position", reachable: bool = True
) -> ParsedPosition:
    """Read a position. ``rules`` (if given) overrides the text's ``mode:`` line.

    ``reachable=False`` skips the face-down checks no deal could fail (more
    face-down cards in a column than the rules deal there), for the
    synthetic positions of engine tests; a column entirely face down is
    refused either way.
    """
    fields = read_fields(text, source)
    columns = fields.columns
    rules = rules or fields.mode_rules or CLEAR
    fields.check_shape(rules, source)

    def fail(lineno: int, message: str) -> PositionError:
        return PositionError(f"{source}, line {lineno}: {visible(message)}")

    for index, (cards, hidden_count, lineno) in sorted(columns.items()):
        if cards and hidden_count == len(cards):
            raise fail(
                lineno,
                f"col{index + 1}: every card is face down; the top card of a column always lies face up "
                f"(write {card_text(cards[-1])} without '*')",
            )
    last_line = max(fields.lines.values()) if fields.lines else 1
    if reachable:
        _refuse_face_down_beyond_the_deal(columns, rules, fail)
    _refuse_missing_cards(fields.where, rules, source)
    width = rules.num_columns
    col_lists = [list(columns[i][0]) for i in range(width)]
    hidden = [columns[i][1] for i in range(width)]
    frozen = _frozen_suits(fields.frozen, rules, col_lists, hidden, fail)
    settle(col_lists, hidden, frozen, range(width), rules)
    position = Position(
        tuple(tuple(c) for c in col_lists),
        tuple(hidden),
        tuple(fields.tail or ()),
        frozenset(frozen),
        tuple(fields.reserves),
    )
    problems = position_problems(position)
    if problems:
        raise PositionError(f"{source}, line {last_line}: {problems[0]}")
    return ParsedPosition(position, rules)


def _refuse_face_down_beyond_the_deal(columns: dict, rules: Rules, fail) -> None:
    """Refuse a column with more face-down cards than ``rules`` deal there (no deal reaches it)."""
    for index, (_, hidden_count, lineno) in sorted(columns.items()):
        dealt = rules.face_down[index]
        if hidden_count > dealt:
            dealt_text = "no card" if dealt == 0 else f"{dealt} card{'s' if dealt != 1 else ''}"
            raise fail(
                lineno,
                f"col{index + 1}: {hidden_count} face-down cards, but {rules.name} deals {dealt_text} face down "
                "in this column and a face-down card is never covered again",
            )


def _refuse_missing_cards(where: dict[int, str], rules: Rules, source: str) -> None:
    """Refuse cards off the table unless ``rules`` sweep and they are whole runs (for each run swept, the
    thirteen cards of its suit); the message names them."""
    missing = {face: rules.decks - sum(face + NUM_CARDS * d in where for d in range(2)) for face in range(NUM_CARDS)}
    absent = [face for face, n in missing.items() for _ in range(n)]
    if absent and not rules.sweeps:
        shown = " ".join(card_text(c) for c in absent[:13])
        raise PositionError(
            f"{source}: cards missing: {shown}{' ...' if len(absent) > 13 else ''} "
            f"({rules.name} keeps every card on the table)"
        )
    partial = [c for c in absent if len({missing[f] for f in range(NUM_CARDS) if suit_of(f) == suit_of(c)}) > 1]
    if partial:
        raise PositionError(
            f"{source}: cards missing: {' '.join(card_text(c) for c in partial)} "
            "(cards off the table must be whole swept suits)"
        )


def _frozen_suits(read: list[tuple[int, int]], rules: Rules, col_lists, hidden, fail) -> set[int]:
    """The suits of the ``frozen:`` line under rules that freeze; each must lie as a face-up King-to-Ace run."""
    if not rules.freezes:
        return set()
    for suit, lineno in read:
        if not any(run_start(tuple(c), h, suit) is not None for c, h in zip(col_lists, hidden)):
            raise fail(lineno, f"frozen: suit {'CSHD'[suit]} does not lie as a face-up King-to-Ace run")
    return {s for s, _ in read}


def format_position(position: Position, rules: Rules | None = None) -> str:
    """The position as text; reading it back gives the same position (up to which copy of a two-deck card is
    which: the copies are interchangeable)."""
    lines = []
    if rules is not None:
        lines.append(f"mode: {rules.name}")
    text = str(position)
    if rules is not None and not rules.tail_size:  # a game without a tail (or with it dealt at the start)
        text = "\n".join(line for line in text.splitlines() if not line.startswith("tail:"))
    if rules is not None and rules.reserves and not position.reserves:
        text += "\nreserve: -"
    lines.append(text)
    covered = sorted(s for s in position.frozen if not _frozen_on_top(position, s))
    if covered:
        lines.append("frozen: " + " ".join("CSHD"[s] for s in covered))
    return "\n".join(lines) + "\n"


def _frozen_on_top(position: Position, suit: int) -> bool:
    return any(complete_run_on_top(col, h) == suit for col, h in zip(position.columns, position.hidden))


def position_json(position: Position, rules: Rules | None = None, number: int | None = None) -> str:
    """The position as one JSON object (docs/output.md); :func:`parse_position_json` reads it back."""
    data = {
        "deal": number,
        "mode": rules.name if rules else None,
        "columns": [
            [card_text(c) + ("*" if j < position.hidden[i] else "") for j, c in enumerate(col)]
            for i, col in enumerate(position.columns)
        ],
        "tail": [card_text(c) for c in position.tail],
        "tail_dealt": position.tail_dealt,
        "swept": ["CSHD"[s] for s in position.swept_suits(rules.decks if rules else 1)]
        if (rules is None or rules.sweeps)
        else [],
        "frozen": ["CSHD"[s] for s in sorted(position.frozen)],
    }
    if position.reserves or (rules is not None and rules.reserves):
        data["reserves"] = [card_text(c) for c in position.reserves]
    return json.dumps(data)


def parse_position_json(text: str, rules: Rules | None = None, source: str = "position") -> ParsedPosition:
    """Read the JSON object of ``deal --json`` (``mode``, ``columns``, ``tail``, ``frozen``).

    The fields derived from the others (``tail_dealt``, ``swept``, ``deal``)
    are not needed; the position is checked as its text would be.
    """
    data = parse_json(text, source)
    if not isinstance(data, dict):
        raise PositionError(f"{source}: a JSON position is an object with columns and tail")

    def tokens(key: str, value) -> str:
        if not isinstance(value, list) or not all(isinstance(t, str) and t.strip() == t and t for t in value):
            raise PositionError(f"{source}: '{key}' must be a list of card texts, got {json.dumps(value)[:60]}")
        return " ".join(value)

    columns = data.get("columns")
    if not isinstance(columns, list) or len(columns) not in COLUMN_COUNTS:
        raise PositionError(
            f"{source}: 'columns' must be a list of {NUM_COLUMNS} lists of cards (10 in the ten-column games)"
        )
    lines = [f"col{i + 1}: {tokens(f'columns[{i}]', col)}" for i, col in enumerate(columns)]
    if "tail" not in data:
        raise PositionError(f"{source}: no 'tail' (an empty list once dealt)")
    lines.append(f"tail: {tokens('tail', data['tail']) or '-'}")
    if "reserves" in data:
        lines.append(f"reserve: {tokens('reserves', data['reserves']) or '-'}")
    if data.get("frozen"):
        lines.append(f"frozen: {tokens('frozen', data['frozen'])}")
    mode = data.get("mode")
    if mode is not None:
        if not isinstance(mode, str) or not mode.strip() or len(mode.split()) != 1:
            raise PositionError(f"{source}: 'mode' must be a rules preset name, got {json.dumps(mode)[:60]}")
        lines.insert(0, f"mode: {mode}")
    return parse_position("\n".join(lines) + "\n", rules, source=f"{source} (as JSON)")


def read_position_source(path: str, rules: Rules | None = None) -> ParsedPosition:
    """A position file, text or JSON (``deal --json``); ``-`` is standard input."""
    return parse_position_text(read_text(path), rules, "standard input" if path == "-" else path)


def parse_position_text(text: str, rules: Rules | None, source: str) -> ParsedPosition:
    """A position as text or as the JSON of ``deal --json`` (told apart by the opening brace)."""
    if text.lstrip().startswith("{"):
        return parse_position_json(text, rules, source=source)
    return parse_position(text, rules, source=source)
