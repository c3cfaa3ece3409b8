"""Where a command's game comes from: a SOURCE read as a start position, or as what a player sees of it.

A SOURCE is a deal number (a PySolFC game number), a position file (text,
or the JSON of ``scorpion deal --json``) or ``-`` (standard input); a file
may be a *view* that writes ``??`` for the cards a player has not seen. The
command line (``cli``) and the page builder read every source through these
functions, so a deal, a file and a view mean the same thing everywhere. A
mistake in the source is a :class:`SourceError` (a ``ValueError``), which
the command line reports as one line.
"""

from __future__ import annotations

import json
import os
from typing import Sequence

from ..game.deal import DEAL_NUMBER, check_deal_number, deal
from ..game.engine import Move, MoveError, move_text, play, replay
from ..game.position import Position
from ..game.position_text import parse_position_text
from ..game.rules import Rules, get_rules
from ..game.text_input import read_text
from ..game.view import MissingReveal, Observation
from ..game.view_text import has_unknown, view_from_text


class SourceError(ValueError):
    """A SOURCE (or the moves played from it) that cannot be read as asked."""


def is_deal_number(text: str) -> bool:
    digits = text.strip().lstrip("-")
    return digits.isascii() and digits.isdigit()


SOURCE_FORMS = (
    f"a SOURCE is a deal number ({DEAL_NUMBER}), a position file (text, or the JSON of deal --json) "
    "or - (standard input)"
)


def refuse_missing(source: str, forms: str = SOURCE_FORMS) -> None:
    """A SourceError saying what a source may be (``forms``) when ``source`` is no deal number, no file and not ``-``.

    ``abc``, ``1e30`` or ``5x`` are told what a deal number is, not only
    that no such file exists; an existing file is left to its reader.
    """
    if source != "-" and not is_deal_number(source) and not os.path.lexists(source):
        raise SourceError(f"cannot read {source}: no such file; {forms}")


def load_start(source: str, rules: Rules | None) -> tuple[Position, Rules, int | None]:
    """A deal number, a position file (text or JSON) or ``-`` (standard input).

    Returns (position, rules, deal number or None). ``rules`` (if given)
    overrides a file's own ``mode``.
    """
    refuse_missing(source)
    if is_deal_number(source):
        number = check_deal_number(int(source.strip()))
        rules = rules or get_rules("clear")
        return deal(number, rules), rules, number
    text, name = read_text(source), _source_name(source)
    parsed = parse_position_text(text, rules, name)
    return parsed.position, parsed.rules, carried_deal(text, parsed.position, parsed.rules, name)


def _source_name(source: str) -> str:
    return "standard input" if source == "-" else source


def carried_deal(text: str, position: Position, rules: Rules, name: str) -> int | None:
    """The deal number that the JSON of ``deal N --json`` carries, or None (text, or ``"deal": null``).

    Such a file is deal N: its game is deal N's (``play``'s seed, a label, a
    JSON answer's ``deal``). A number whose deal has other cards is refused,
    rather than read as another game than the one the file names.
    """
    if not text.lstrip().startswith("{"):
        return None
    number = json.loads(text).get("deal")  # the position was read from this text: it is a JSON object
    if number is None:
        return None
    if isinstance(number, bool) or not isinstance(number, int):
        raise SourceError(f"{name}: 'deal' must be a deal number or null, got {json.dumps(number)[:60]}")
    check_deal_number(number)
    if deal(number, rules) != position:
        raise SourceError(
            f"{name} names deal {number}, but its cards are not deal {number}'s in {rules.name}: "
            'set "deal" to null to use it as a position of its own'
        )
    return number


def load_view(
    source: str, rules: Rules | None, moves: Sequence[Move] = (), revealed: Sequence[int] = ()
) -> tuple[Observation, Rules, int | None]:
    """What a player sees of SOURCE after ``moves``: (view, rules, deal number or None).

    A deal number is played with its true cards, and the view knows only the
    cards those moves turned up. A file (or ``-``) is read as every source is
    (:func:`~scorpion_solver.game.view_text.read_view_source`): a view with
    ``??``, or a position whose face-down and tail cards count as unseen; a
    move that turns up a card then needs that card in ``revealed`` (the order
    of ``Observation.advance``).
    """
    refuse_missing(source)
    if is_deal_number(source):
        if revealed:
            raise SourceError("--reveal is for a view typed by hand: a deal number knows the cards its moves turn up")
        position, rules, number = load_start(source, rules)
        return Observation.of(replay(position, moves, rules), rules.decks), rules, number
    text, name = read_text(source), _source_name(source)
    if not has_unknown(text):
        parsed = parse_position_text(text, rules, name)
        number = carried_deal(text, parsed.position, parsed.rules, name)
        if number is not None and not revealed:  # deal N itself: its moves turn up its own cards
            return (
                Observation.of(replay(parsed.position, moves, parsed.rules), parsed.rules.decks),
                parsed.rules,
                number,
            )
    view, rules = view_from_text(text, rules, name)
    try:
        return view.advance(moves, revealed, rules), rules, None
    except MissingReveal as exc:
        raise SourceError(
            f"{exc}: `scorpion replay VIEW MOVES --reveal CARD` takes the cards a move turns up"
        ) from None
    except ValueError as exc:
        raise SourceError(str(exc)) from None


def load_blind_start(
    source: str, rules: Rules | None, moves: Sequence[Move]
) -> tuple[Position, Rules, int | None, frozenset[int] | None]:
    """A start to draw without peeking: (position, rules, deal number or None, the unseen cards or None).

    A deal number: the deal itself, and None for the unseen cards: its
    face-down and tail cards are unseen at every position (the moves turn up
    real cards, as at the table). A file or ``-`` (a view with ``??``, or a
    position, read as every source is): its view's stand-in, with every
    face-down and tail card unseen; a move that would turn up an unseen card
    is refused, since the source does not say which card it is.
    """
    if is_deal_number(source):
        position, rules, number = load_start(source, rules)
        return position, rules, number, None
    view, rules, number = load_view(source, rules)
    if number is not None:  # the JSON of deal N: deal N itself
        return deal(number, rules), rules, number, None
    view = view.blind()
    reached = view
    for number, move in enumerate(moves, start=1):
        try:
            play(reached.stand_in(), move, rules)  # says why a move is not legal
        except MoveError as exc:
            raise SourceError(f"move {number}: {exc}") from None
        after = reached.after(move, rules)
        if after is None:
            raise SourceError(
                f"move {number}: {move_text(move)} turns up an unseen card ({source} does not say which): "
                "give the position after it instead"
            )
        reached = after
    return view.stand_in(), rules, None, frozenset(view.unseen)
