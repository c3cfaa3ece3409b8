"""The player's view as text: the position text format with an unknown card ``??``.

::

    mode: clear
    col1: ?? ?? ?? AS 4H TH 8D     # three face-down cards the player has not seen
    col5: 5D 5S 9D 5C 3S 7D 8C
    ...
    tail: ?? ?? ??                 # or "tail: -" once dealt

``??`` is allowed only in face-down slots (below every face-up card of its
column, never on top: a face-down card left on top turns up) and in the tail.
A face-down card may also be given (``JD*``): a view with no ``??`` is an
ordinary position. The reader checks that the known cards, the unknowns and
the swept suits make 52 cards, that no card appears twice, that no column
holds more face-down cards than the rules deal there, and names the line of
each problem (:class:`~scorpion_solver.game.position_text.PositionError`).
Swept suits (Clear runs) are the whole suits missing from the text.
"""

from __future__ import annotations

from .cards import RUN_LENGTH, card_text, run_of_suit
from .engine import settle
from .position import run_start
from .position_text import UNKNOWN_TOKEN, PositionError, parse_position_text, read_fields
from .rules import CLEAR, Rules
from .text_input import read_text
from .view import UNKNOWN, Observation


def has_unknown(text: str) -> bool:
    """Whether position text uses the unknown card ``??`` (outside comments)."""
    return any(UNKNOWN_TOKEN in line.split("#", 1)[0] for line in text.splitlines())


def parse_view(text: str, rules: Rules | None = None, source: str = "position") -> tuple[Observation, Rules]:
    """Read a view (position text that may hold ``??``); ``rules`` overrides its ``mode:`` line."""
    fields = read_fields(text, source, unknown=UNKNOWN)
    rules = rules or fields.mode_rules or CLEAR
    fields.check_shape(rules, source)
    tail, where, lines_of = fields.tail or [], fields.where, fields.lines
    width = rules.num_columns
    col_cards, hidden = _view_columns(fields.columns, source, width)
    unknown = sum(c == UNKNOWN for col in col_cards for c in col) + sum(c == UNKNOWN for c in tail)
    swept = _swept_off_the_table(where, unknown, source, rules.decks)
    frozen_suits = _frozen_runs([suit for suit, _ in fields.frozen], rules, col_cards, hidden, source, lines_of)
    col_lists, hidden_list = [list(c) for c in col_cards], list(hidden)
    settle(col_lists, hidden_list, frozen_suits, range(width), rules)  # runs on top: swept or frozen
    remaining = {c for col in col_lists for c in col} | set(tail)
    for suit in range(4):  # the runs settle swept, each thirteen known cards of the suit
        gone = sum(c in where and c not in remaining for face in run_of_suit(suit) for c in (face, face + 52))
        already = sum(r % 4 == suit for r in swept)
        swept |= {suit + 4 * (already + k) for k in range(gone // RUN_LENGTH)}
    view = Observation(
        tuple(tuple(c) for c in col_lists),
        tuple(hidden_list),
        tuple(tail),
        frozenset(swept),
        frozenset(frozen_suits),
        tuple(fields.reserves),
        rules.decks,
    )
    problems = view.problems(rules)
    if problems:
        last = max(lines_of.values()) if lines_of else 1
        raise PositionError(f"{source}, line {last}: {problems[0]}")
    return view, rules


def _view_columns(read: dict, source: str, width: int) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The columns' cards and face-down counts; a known face-down card on top turns face up, a ?? there is refused."""
    columns: dict[int, tuple[list[int], int]] = {}
    for index, (cards, hidden, lineno) in read.items():
        if cards and cards[-1] == UNKNOWN and hidden == len(cards):
            raise PositionError(
                f"{source}, line {lineno}: col{index + 1}: the top card of a column is face up; it cannot be ??"
            )
        if cards and hidden == len(cards):
            hidden -= 1  # a known face-down card on top turns face up
        columns[index] = (cards, hidden)
    return tuple(tuple(columns[i][0]) for i in range(width)), tuple(columns[i][1] for i in range(width))


def _swept_off_the_table(where: dict, unknown: int, source: str, decks: int = 1) -> set[int]:
    """The runs the cards not shown (beyond the ``unknown`` ??) are: whole suits, or the text is refused.

    By run index (``Observation.swept``: suit s's first run s, its second s + 4). With two decks a
    face is missing as many times as its copies not shown.
    """
    missing = {face: decks - sum(face + 52 * d in where for d in range(decks)) for face in range(52)}
    absent = sum(missing.values())
    in_all = 52 * decks
    # how many whole runs of each suit are off the table: the fewest copies missing of any of its faces
    whole = {s: min(missing[f] for f in run_of_suit(s)) for s in range(4)}
    extra = absent - unknown
    if extra < 0:
        raise PositionError(
            f"{source}: {unknown} unknown cards ?? but only {absent} cards are not shown ({in_all} cards in all)"
        )
    if extra % RUN_LENGTH or extra // RUN_LENGTH > sum(whole.values()):
        raise PositionError(
            f"{source}: {len(where)} known cards and {unknown} unknown cards ?? make {len(where) + unknown}; "
            f"the cards off the table must be whole swept suits ({in_all} cards in all)"
        )
    if extra and sum(whole.values()) != extra // RUN_LENGTH:
        names = " ".join("CSHD"[s] for s in range(4) for _ in range(whole[s]))
        raise PositionError(
            f"{source}: which suits are swept is ambiguous (whole suits absent: {names}); show more of the cards"
        )
    return {s + 4 * k for s in range(4) for k in range(whole[s])} if extra else set()


def _frozen_runs(frozen: list[int], rules: Rules, col_cards, hidden, source: str, lines_of: dict) -> set[int]:
    """The frozen suits (under rules that freeze), each of which must lie as a face-up King-to-Ace run."""
    frozen_suits = set(frozen) if rules.freezes else set()
    for suit in frozen_suits:
        if not any(run_start(col, h, suit) is not None for col, h in zip(col_cards, hidden)):
            raise PositionError(
                f"{source}, line {lines_of['frozen']}: frozen: suit {'CSHD'[suit]} does not lie as a face-up "
                "King-to-Ace run"
            )
    return frozen_suits


def read_view_source(path: str, rules: Rules | None = None) -> tuple[Observation, Rules]:
    """A view from a file or ``-`` (standard input), read as every position source is read.

    Text with ``??`` is a view; any other source is a position (text, or the
    JSON of ``deal --json``), whose view is what a player at the table sees of
    it: every face-down and tail card unseen (:meth:`Observation.of`).
    """
    return view_from_text(read_text(path), rules, "standard input" if path == "-" else path)


def view_from_text(text: str, rules: Rules | None, source: str) -> tuple[Observation, Rules]:
    """A view from text with ``??``, else the player's view of the position the text (or JSON) holds."""
    if has_unknown(text):
        return parse_view(text, rules, source=source)
    parsed = parse_position_text(text, rules, source)
    return Observation.of(parsed.position, parsed.rules.decks), parsed.rules


def format_view(view: Observation, rules: Rules | None = None) -> str:
    """The view as text (``??`` for unknown cards); reading it back gives the same view."""
    lines = [f"mode: {rules.name}"] if rules is not None else []
    for i, col in enumerate(view.columns):
        tokens = [
            UNKNOWN_TOKEN if c == UNKNOWN else card_text(c) + ("*" if j < view.hidden[i] else "")
            for j, c in enumerate(col)
        ]
        lines.append(f"col{i + 1}:" + "".join(" " + t for t in tokens))
    if rules is None or rules.tail_size:
        lines.append(
            "tail: "
            + (" ".join(UNKNOWN_TOKEN if c == UNKNOWN else card_text(c) for c in view.tail) if view.tail else "-")
        )
    if view.reserves or (rules is not None and rules.reserves):
        lines.append("reserve: " + (" ".join(card_text(c) for c in view.reserves) or "-"))
    if view.frozen:
        lines.append("frozen: " + " ".join("CSHD"[s] for s in sorted(view.frozen)))
    return "\n".join(lines) + "\n"
