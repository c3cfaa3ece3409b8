"""The data a game page draws: every position computed by the reference engine, as JSON.

The page (``page.html``) only draws: it never plays a move itself. Python
replays the line with ``game.engine`` and writes each position, and what each
move did, into one JSON object embedded in the page. Its schema (version 1)::

    {
      "version": 1,
      "title": "Scorpion deal 5 (clear)",
      "deal": 5,                  # or null for a position file / a hand-made position
      "source": "5",              # what the position came from, as the user named it
      "rules": {"name": "clear", "summary": "complete runs are swept; ..."},
      "command": "scorpion show 5 --solution --html deal5.html",
      "generator": "scorpion-solver 0.1.0",
      "verdict": {"status": "won", "text": "..."} or null,
      "line": {"label": "solution", "steps": [STEP, ...]},   # steps[0] is the start
      "choices": CHOICES or null
    }

    STEP     = {"move": EFFECT or null (the start), "position": POSITION}
    POSITION = {"columns": [[CARD, ...] x 7],     # bottom card first
                "down": [n x 7],                  # face-down cards at the bottom of each column
                "tail": [CARD, ...],              # three until dealt, then []
                "swept": ["H", ...],              # suits swept to the foundations
                "frozen": [[column, start, "S"], ...],  # frozen runs (classic): 13 cards from start
                "state": "in play" | "won" | "lost"}
    CARD     = "9H" (rank, suit), or "??": a card the player does not know (drawn as a "?" back)
    EFFECT   = {"text": "9H:6>1", "group": [CARD, ...], "src": column or null (tail deal),
                "dst": [column, ...], "flips": [[column, index], ...],
                "sweeps": [[column, "H"], ...], "frozen": ["S", ...], "description": "..."}
    CHOICES  = {"at": step index, "kind": "verdict" | "share", "title": "...",
                "status": "...", "reason": "...", "options": [OPTION, ...]}
    OPTION   = {"move": "9H:6>1", "effect": EFFECT, "position": POSITION,
                "verdict": "winnable" | "lost" | "unknown", "detail": "win in 23 moves",   # kind "verdict"
                "share": 0.73, "interval": [0.61, 0.83], "samples": 200}                    # kind "share"

Columns are 0-based in the data (1-based in the notation and on the page).
A ``share`` choice is what play without peeking gives (the share of sampled
layouts of the unseen cards in which a move keeps the game winnable, with its
95% interval); a ``verdict`` choice is ``analysis.hints.hint``'s. Positions
with unknown cards come from that side too: :func:`position_view` masks the
cards in ``unknown`` as ``"??"``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath

from .. import __version__
from ..game.cards import RANKS, RUN_LENGTH, SUITS, card_text, make_card
from ..game.engine import Move, is_lost, is_won, move_text, play
from ..game.position import NUM_COLUMNS, Position, run_start
from ..game.rules import RUNS_FROZEN, RUNS_SWEPT, SPACE_ANY, TAIL_ANYTIME, Rules

SCHEMA_VERSION = 1
UNKNOWN_CARD = "??"
KIND_VERDICT = "verdict"
KIND_SHARE = "share"
VERDICTS = ("winnable", "lost", "unknown")
STATES = ("in play", "won", "lost")

SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
SUIT_SYMBOLS = {"C": "\u2663", "S": "\u2660", "H": "\u2665", "D": "\u2666"}


def rules_summary(rules: Rules) -> str:
    """The rule choices of a preset in words, for the page's header."""
    runs = {
        RUNS_SWEPT: "a complete King-to-Ace run is swept off the table",
        RUNS_FROZEN: "a complete King-to-Ace run is frozen where it lies",
    }.get(rules.runs, "a complete King-to-Ace run stays and its cards still move")
    tail = "the tail may be dealt at any time" if rules.tail == TAIL_ANYTIME else "the tail only when no move is left"
    space = "any group may fill an empty column" if rules.space == SPACE_ANY else "only a King fills an empty column"
    down = "face down: " + " ".join(str(n) for n in rules.face_down)
    return f"{runs}; {tail}; {space}; {down}"


# --------------------------------------------------------------------------
# positions and moves

#: Which cards of a position the page writes as unknown (``??``); None: every card is shown.
Mask = Callable[[Position], Collection[int]] | None


def face_down_cards(pos: Position) -> frozenset[int]:
    """The cards a player cannot see: the face-down cards of the columns and the tail (a :data:`Mask`)."""
    down = [c for col, hidden in zip(pos.columns, pos.hidden) for c in col[:hidden]]
    return frozenset(down) | frozenset(pos.tail)


def position_view(pos: Position, rules: Rules, unknown: Collection[int] = ()) -> dict:
    """The page's view of a position; cards in ``unknown`` are written ``??``."""

    def show(card: int) -> str:
        return UNKNOWN_CARD if card in unknown else card_text(card)

    frozen = []
    for suit in sorted(pos.frozen):
        for i, (col, hidden) in enumerate(zip(pos.columns, pos.hidden)):
            start = run_start(col, hidden, suit)
            if start is not None:
                frozen.append([i, start, SUITS[suit]])
    state = "won" if is_won(pos, rules) else "lost" if is_lost(pos, rules) else "in play"
    return {
        "columns": [[show(c) for c in col] for col in pos.columns],
        "down": list(pos.hidden),
        "tail": [show(c) for c in pos.tail],
        "swept": [SUITS[s] for s in pos.swept_suits()],
        "frozen": frozen,
        "state": state,
    }


def move_effect(before: Position, move: Move, after: Position, unknown: Collection[int] = ()) -> dict:
    """What a move did, read off the positions before and after it (both the engine's).

    The group that moved; the cards turned face up (a face-down card never
    moves, so its index in the column is the same before and after); the
    suits swept, each with the column its run was completed in (where its
    King lay, or where the King went if it moved); the suits newly frozen.
    The cards in ``unknown`` (what the player does not know after the move)
    are written ``??``: a card a move turns up in a sampled stand-in for a
    view is not the real one.
    """

    def show(card: int) -> str:
        return UNKNOWN_CARD if card in unknown else card_text(card)

    if move.is_tail:
        group = [show(c) for c in before.tail]
        src, dst = None, list(range(len(before.tail)))
        king_went = {c: i for i, c in enumerate(before.tail)}
    else:
        column = before.columns[move.src]
        index = column.index(move.card)
        group = [show(c) for c in column[index:]]
        src, dst = move.src, [move.dst]
        king_went = {c: move.dst for c in column[index:]}
    flips = []
    for i in range(NUM_COLUMNS):
        was, now = before.columns[i], after.columns[i]
        for j in range(after.hidden[i], min(before.hidden[i], len(now))):
            if j < len(was) and was[j] == now[j]:
                flips.append([i, j])
    present = set(after.cards_in_play())
    sweeps = []
    for suit in range(4):
        king = make_card(13, suit)
        if king in before.cards_in_play() and king not in present:
            where = king_went.get(king)
            if where is None:
                where = next(i for i, col in enumerate(before.columns) if king in col)
            sweeps.append([where, SUITS[suit]])
    frozen = [SUITS[s] for s in sorted(after.frozen - before.frozen)]
    effect = {
        "text": move_text(move),
        "group": group,
        "src": src,
        "dst": dst,
        "flips": flips,
        "sweeps": sweeps,
        "frozen": frozen,
    }
    effect["description"] = describe(
        effect, after, into_empty=not move.is_tail and not before.columns[move.dst], unknown=unknown
    )
    return effect


def card_words(card: str) -> str:
    """``9H`` as ``9♥``; an unknown card as ``?``."""
    if card == UNKNOWN_CARD:
        return "?"
    return card[0].replace("T", "10") + SUIT_SYMBOLS[card[1]]


def describe(effect: dict, after: Position, into_empty: bool = False, unknown: Collection[int] = ()) -> str:
    """One sentence for a move: what moved from where to where, what turned up, what was swept or frozen."""
    group = " ".join(card_words(c) for c in effect["group"])
    if effect["src"] is None:
        parts = [f"the tail is dealt: {group} onto columns 1, 2, 3"]
    else:
        n = len(effect["group"])
        what = group if n <= 3 else f"{card_words(effect['group'][0])} and the {n - 1} cards on it"
        onto = "into the empty column" if into_empty else "onto column"
        parts = [f"{what} from column {effect['src'] + 1} {onto} {effect['dst'][0] + 1}"]
    for column, index in effect["flips"]:
        card = after.columns[column][index]
        if card in unknown:
            parts.append(f"an unseen card turned face up in column {column + 1} (which one, the view cannot tell)")
        else:
            parts.append(f"{card_words(card_text(card))} turned face up in column {column + 1}")
    for column, suit in effect["sweeps"]:
        parts.append(f"the {SUIT_NAMES[suit]} run swept from column {column + 1}")
    for suit in effect["frozen"]:
        parts.append(f"the {SUIT_NAMES[suit]} run frozen")
    return "; ".join(parts)


def _view(pos: Position, rules: Rules, mask: Mask) -> dict:
    return position_view(pos, rules, mask(pos) if mask else ())


def line_steps(start: Position, moves: Iterable[Move], rules: Rules, mask: Mask = None) -> list[dict]:
    """The start and the position after each move, with what each move did (MoveError on an illegal move)."""
    steps = [{"move": None, "position": _view(start, rules, mask)}]
    position = start
    for number, move in enumerate(moves, start=1):
        try:
            after = play(position, move, rules)
        except ValueError as exc:
            raise type(exc)(f"move {number}: {exc}") from None
        effect = move_effect(position, move, after, mask(after) if mask else ())
        steps.append({"move": effect, "position": _view(after, rules, mask)})
        position = after
    return steps


# --------------------------------------------------------------------------
# choices: the legal moves of one position, each judged


@dataclass(frozen=True)
class Choice:
    """One move offered at a position, with a verdict (hint) or a share of winnable layouts (play).

    ``verdict`` is one of ``winnable``, ``lost``, ``unknown`` with ``detail``
    in words (``win in 23 moves``); or ``share`` (0..1) with its ``interval``
    and the number of ``samples`` it was measured on.
    """

    move: Move
    verdict: str | None = None
    detail: str = ""
    share: float | None = None
    interval: tuple[float, float] | None = None
    samples: int | None = None


def choices_from_hint(report) -> list[Choice]:
    """The moves of an ``analysis.hints.HintReport``, best first, as choices."""
    out = []
    for v in report.moves:
        if v.verdict == "winnable":
            detail = "it wins at once" if v.moves_to_win == 1 else f"a win in {v.moves_to_win} moves"
        elif v.verdict == "lost":
            detail = "no win after it"
        else:
            detail = f"stopped by the {v.stopped_by} limit" if v.stopped_by else ""
        out.append(Choice(v.move, verdict=v.verdict, detail=detail))
    return out


def choices_from_fair(report) -> list[Choice]:
    """The moves of a ``play.fair.FairHint``, best first, as share choices."""
    return [Choice(m.move, share=m.share, interval=m.interval, samples=m.samples) for m in report.moves]


def choices_view(
    position: Position,
    rules: Rules,
    choices: Sequence[Choice],
    at: int,
    *,
    title: str,
    status: str = "",
    reason: str = "",
    mask: Mask = None,
) -> dict:
    """The choices block: every option with the engine's position after it (``mask`` as in :func:`page_data`)."""
    kinds = {KIND_SHARE if c.share is not None else KIND_VERDICT for c in choices}
    if len(kinds) > 1:
        raise ValueError("the choices of one position are all verdicts or all shares")
    options = []
    for c in choices:
        after = play(position, c.move, rules)
        effect = move_effect(position, c.move, after, mask(after) if mask else ())
        option = {"move": move_text(c.move), "effect": effect, "position": _view(after, rules, mask)}
        if c.share is not None:
            option.update(share=c.share, interval=list(c.interval) if c.interval else None, samples=c.samples)
        else:
            option.update(verdict=c.verdict, detail=c.detail)
        options.append(option)
    return {
        "at": at,
        "kind": kinds.pop() if kinds else KIND_VERDICT,
        "title": title,
        "status": status,
        "reason": reason,
        "options": options,
    }


# --------------------------------------------------------------------------
# the whole page


def page_data(
    start: Position,
    rules: Rules,
    moves: Sequence[Move] = (),
    *,
    label: str = "moves",
    deal: int | None = None,
    source: str = "",
    command: str = "",
    verdict: dict | None = None,
    choices: dict | None = None,
    mask: Mask = None,
) -> dict:
    """The page's data for a line of ``moves`` from ``start`` (replayed with the reference engine).

    ``mask`` gives, for a position, the cards to write as unknown (``??``),
    e.g. :func:`face_down_cards` for what a player without peeking sees.
    """
    where = f"deal {deal}" if deal is not None else (PurePath(source).name if source else "a position")
    return {
        "version": SCHEMA_VERSION,
        "title": f"Scorpion {where} ({rules.name})",
        "deal": deal,
        "source": source or (str(deal) if deal is not None else ""),
        "rules": {"name": rules.name, "summary": rules_summary(rules)},
        "command": command,
        "generator": f"scorpion-solver {__version__}",
        "verdict": verdict,
        "line": {"label": label, "steps": line_steps(start, moves, rules, mask)},
        "choices": choices,
    }


# --------------------------------------------------------------------------
# checking page data (hand-made data included)

_CARD = re.compile(f"^[{RANKS}][{SUITS}]$")


def _card_problems(card, where: str) -> list[str]:
    if card == UNKNOWN_CARD or (isinstance(card, str) and _CARD.match(card)):
        return []
    return [f"{where}: {card!r} is not a card (rank and suit like 9H, or ?? for an unknown card)"]


def position_problems(view: dict, where: str) -> list[str]:
    problems = []
    columns = view.get("columns")
    if not isinstance(columns, list) or len(columns) != NUM_COLUMNS:
        return [f"{where}: a position has {NUM_COLUMNS} columns"]
    down = view.get("down")
    if not isinstance(down, list) or len(down) != NUM_COLUMNS:
        problems.append(f"{where}: 'down' needs {NUM_COLUMNS} counts")
        down = [0] * NUM_COLUMNS
    known: dict[str, str] = {}
    for i, col in enumerate(columns):
        if not 0 <= down[i] <= len(col):
            problems.append(f"{where}: column {i + 1} has {down[i]} face-down cards of {len(col)}")
        for j, card in enumerate(col):
            problems += _card_problems(card, f"{where}, column {i + 1}, card {j + 1}")
            if card != UNKNOWN_CARD:
                if card in known:
                    problems.append(f"{where}: {card} appears twice ({known[card]} and column {i + 1})")
                known[card] = f"column {i + 1}"
    tail = view.get("tail", [])
    if len(tail) not in (0, 3):
        problems.append(f"{where}: the tail holds {len(tail)} cards (3 until dealt, then none)")
    for card in tail:
        problems += _card_problems(card, f"{where}, tail")
        if card != UNKNOWN_CARD and card in known:
            problems.append(f"{where}: {card} appears twice ({known[card]} and the tail)")
    for suit in view.get("swept", []):
        if suit not in SUITS:
            problems.append(f"{where}: swept suit {suit!r} is not one of {SUITS}")
    for entry in view.get("frozen", []):
        if len(entry) != 3 or not 0 <= entry[0] < NUM_COLUMNS or entry[2] not in SUITS:
            problems.append(f"{where}: frozen run {entry!r} is not [column, start, suit]")
        elif entry[1] + RUN_LENGTH > len(columns[entry[0]]):
            problems.append(f"{where}: frozen run {entry!r} runs past the top of its column")
    if view.get("state") not in STATES:
        problems.append(f"{where}: state {view.get('state')!r} is not one of {', '.join(STATES)}")
    return problems


def _effect_problems(effect: dict, where: str) -> list[str]:
    problems = []
    for key in ("text", "group", "src", "dst", "flips", "sweeps", "frozen", "description"):
        if key not in effect:
            problems.append(f"{where}: the move has no {key!r}")
    for card in effect.get("group", []):
        problems += _card_problems(card, f"{where}, moved group")
    return problems


def page_problems(data: dict) -> list[str]:
    """Everything wrong with page data against the schema above (empty when sound)."""
    problems = []
    if data.get("version") != SCHEMA_VERSION:
        problems.append(f"version {data.get('version')!r}: this page draws version {SCHEMA_VERSION}")
    for key in ("title", "rules", "command", "line"):
        if key not in data:
            problems.append(f"no {key!r}")
    steps = (data.get("line") or {}).get("steps") or []
    if not steps:
        problems.append("the line has no steps (steps[0] is the start position)")
    for k, step in enumerate(steps):
        where = "start" if k == 0 else f"move {k}"
        if (step.get("move") is None) != (k == 0):
            problems.append(f"{where}: only the start has no move")
        if step.get("move") is not None:
            problems += _effect_problems(step["move"], where)
        problems += position_problems(step.get("position") or {}, where)
    if data.get("choices"):
        problems += _choices_problems(data["choices"], len(steps))
    return problems


def _choices_problems(choices: dict, steps: int) -> list[str]:
    """What is wrong with a page's choices block: where it stands, its kind, each option (verdict or share)."""
    problems = []
    if not 0 <= choices.get("at", -1) < steps:
        problems.append(f"choices: 'at' {choices.get('at')!r} is not a step of the line")
    kind = choices.get("kind")
    if kind not in (KIND_VERDICT, KIND_SHARE):
        problems.append(f"choices: kind {kind!r} is not {KIND_VERDICT} or {KIND_SHARE}")
    for option in choices.get("options", []):
        where = f"choice {option.get('move')}"
        problems += _effect_problems(option.get("effect") or {}, where)
        problems += position_problems(option.get("position") or {}, where)
        if kind == KIND_VERDICT and option.get("verdict") not in VERDICTS:
            problems.append(f"{where}: verdict {option.get('verdict')!r} is not one of {', '.join(VERDICTS)}")
        if kind == KIND_SHARE:
            share, interval = option.get("share"), option.get("interval")
            if not isinstance(share, (int, float)) or not 0 <= share <= 1:
                problems.append(f"{where}: share {share!r} is not between 0 and 1")
            elif interval is not None and not (len(interval) == 2 and interval[0] <= share <= interval[1]):
                problems.append(f"{where}: interval {interval!r} does not hold the share {share}")
    return problems
