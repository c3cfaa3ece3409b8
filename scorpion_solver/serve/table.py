"""The server-side game: the true position, and what the player is shown of it.

A :class:`Table` is a deal, a mode and a line of moves with a ply (how many of
them are played; the rest is the redo stack). Every rule is the engine's:
the position is the deal replayed with ``game.engine.apply_move``, the legal
moves are ``legal_moves``, won and lost are ``is_won`` and "no legal move".
What leaves the server is built from ``game.view.Observation.of`` only, so no
face-down or tail card can be in it (:meth:`Table.state`).

Columns the player sees versus the engine's. The engine lists one move of a
King into interchangeable empty columns (columns 4-7 before the tail deal, any
after): the leftmost. A player may drop it on any of them, so the table keeps
a mapping ``perm`` (shown column -> engine column), changed only by such a
move: the engine plays its canonical move, and the two empty columns swap
places in the mapping, so the King lies where the player put it. Swapping
columns the engine treats as interchangeable changes nothing in the game.
Everything sent out (moves, legal moves, hints, lines) is written in shown
columns; the database and the export keep the engine's moves.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NoReturn

from ..game.cards import SUITS, card_text, run_of_suit
from ..game.deal import check_deal_number, deal
from ..game.engine import (
    RESERVE,
    TAIL,
    Move,
    MoveError,
    apply_move,
    interchangeable_columns,
    is_won,
    legal_moves,
    move_text,
    parse_move,
    read_moves,
)
from ..game.position import NUM_COLUMNS, Position, run_start
from ..game.refusals import refusal, whole_column_refusal
from ..game.rules import TAIL_WHEN_STUCK, Rules, get_rules
from ..game.view import UNKNOWN, Observation
from .games import PLAYABLE, rule_section
from .store import Played

IDENTITY = tuple(range(NUM_COLUMNS))  # Scorpion's seven columns as the engine has them; a game's own: identity()
MAX_DEAL = 2**63 - 1  # as `scorpion batch`: deal numbers an int64 holds
TAIL_LOCKED = "classic: the tail may be dealt only when no other move exists"

PLAYING, WON, LOST = "playing", "won", "lost"


class GameError(ValueError):
    """A request the game refuses (illegal move, nothing to undo, ...): 400 with the message.

    ``rule`` names the rule a refused move breaks (``game.refusals``), or is None; ``section`` the part of
    the rules page's player's part that says it for the game (``games.rule_section``).
    """

    def __init__(self, message: str, rule: str | None = None, section: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.section = section


def check_mode(mode) -> Rules:
    """The rules of a game the server offers (``games.PLAYABLE``); GameError naming them otherwise."""
    if not isinstance(mode, str) or mode.strip().lower() not in PLAYABLE:
        raise GameError(f"mode must be one of {', '.join(PLAYABLE)}, got {str(mode)[:40]!r}")
    return get_rules(mode)


def check_deal(number) -> int:
    try:
        check_deal_number(number)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    if number > MAX_DEAL:
        raise GameError(f"deal number must be at most {MAX_DEAL}, got {number}")
    return number


def player_move(value) -> Move:
    """The move a request names (text, in the columns the player sees): the one place a player's move is read."""
    if not isinstance(value, str):
        raise GameError(f"move must be a string like 6C:5>2 or tail, got {value!r}")
    try:
        return parse_move(value)
    except MoveError as exc:
        raise GameError(str(exc)) from None


def status_of(position: Position, rules: Rules, legal: list[Move] | None = None) -> str:
    """won, lost (no legal move) or playing; ``legal``: the position's legal moves, when already known."""
    if is_won(position, rules):
        return WON
    return LOST if not (legal if legal is not None else legal_moves(position, rules)) else PLAYING


def identity(rules: Rules) -> tuple[int, ...]:
    """The mapping of a game whose columns are shown as the engine has them: 7, or 10 in the wide games."""
    return tuple(range(rules.num_columns))


def shown_move(move: Move, perm: tuple[int, ...]) -> Move:
    """The engine's move written in the shown columns (a reserve card's source is the reserve in both)."""
    if move.is_tail:
        return move
    inverse = {engine: shown for shown, engine in enumerate(perm)}
    src = RESERVE if move.src == RESERVE else inverse[move.src]
    return Move(move.card, src, inverse[move.dst])


def engine_move(move: Move, perm: tuple[int, ...]) -> Move:
    """The player's move (shown columns) in the engine's columns; GameError for a column the game lacks."""
    if move.src != RESERVE and move.src >= len(perm) or move.dst >= len(perm):
        raise GameError(f"{move_text(move)} names a column this game does not have (it has {len(perm)})")
    src = RESERVE if move.src == RESERVE else perm[move.src]
    return Move(move.card, src, perm[move.dst])


@dataclass
class Table:
    """One game: the deal, the mode, the line (engine moves with the mapping after each) and the ply.

    ``deal`` is the deal's number, or 0 for a secret deal, whose starting position ``start`` is given."""

    deal: int
    rules: Rules
    line: list[Played] = field(default_factory=list)
    ply: int = 0
    start: Position | None = field(default=None, repr=False)
    _positions: list[Position] = field(default_factory=list, repr=False)
    _legal: dict[int, list[Move]] = field(default_factory=dict, repr=False)  # ply -> its legal moves (a cache)

    def __post_init__(self) -> None:
        self._positions = [self.start if self.start is not None else deal(self.deal, self.rules)]

    @classmethod
    def replayed(cls, number: int, rules: Rules, line, ply: int, start: Position | None = None) -> "Table":
        return cls(number, rules, list(line), ply, start)

    # -- positions -------------------------------------------------------------

    def position_at(self, ply: int) -> Position:
        """The position after the first ``ply`` moves of the line (moves were checked when played)."""
        while len(self._positions) <= ply:
            k = len(self._positions)
            self._positions.append(apply_move(self._positions[-1], self.line[k - 1].move, self.rules))
        return self._positions[ply]

    @property
    def position(self) -> Position:
        return self.position_at(self.ply)

    def perm_at(self, ply: int) -> tuple[int, ...]:
        return self.line[ply - 1].perm if ply else identity(self.rules)

    @property
    def perm(self) -> tuple[int, ...]:
        return self.perm_at(self.ply)

    def legal_at(self, ply: int) -> list[Move]:
        """The engine's legal moves after ``ply`` moves, worked out once per position of the line: an answer
        reads them for the status, the list of legal moves and the tail's lock, a move to check itself."""
        if ply not in self._legal:
            self._legal[ply] = legal_moves(self.position_at(ply), self.rules)
        return self._legal[ply]

    def status_at(self, ply: int) -> str:
        return status_of(self.position_at(ply), self.rules, self.legal_at(ply))

    @property
    def status(self) -> str:
        return self.status_at(self.ply)

    # -- moves -------------------------------------------------------------------

    def resolve(self, move: Move | str) -> Played:
        """The player's move (shown columns: a ``Move``, or the text a request sent, read here by
        :func:`player_move`) as the engine's; GameError if it is not legal here."""
        if not isinstance(move, Move):
            move = player_move(move)
        if self.status != PLAYING:
            raise GameError("the game is over")  # callers answer 409 before getting here
        position, perm = self.position, self.perm
        legal = self.legal_at(self.ply)
        if move.is_tail:
            if TAIL in legal:
                return Played(TAIL, TAIL, perm)
            self._refuse(position, TAIL)
        engine = engine_move(move, perm)
        if engine in legal:
            return Played(engine, move, perm)
        interchangeable = interchangeable_columns(position)
        empties = [c for c in interchangeable if not position.columns[c]]
        if engine.dst in empties:
            canonical = Move(engine.card, engine.src, empties[0])
            if canonical in legal:
                # the King goes where the player put it: the two empty columns swap in the mapping
                new = list(perm)
                other = perm.index(canonical.dst)
                new[move.dst], new[other] = canonical.dst, perm[move.dst]
                return Played(canonical, move, tuple(new))
        self._refuse(position, move)

    def _refuse(self, position: Position, move: Move) -> NoReturn:
        """Raise GameError saying why, from the player's view only (``game.refusals``), in shown columns."""
        perm = self.perm
        shown = Position(
            tuple(position.columns[e] for e in perm),
            tuple(position.hidden[e] for e in perm),
            position.tail,
            position.frozen,
            position.reserves,
        )
        why = refusal(shown, move, self.rules)
        if why is None:
            # legal in the shown order but not in the engine's: only a whole-column move between the player's
            # interchangeable columns can be (it changes nothing)
            why = whole_column_refusal(move.card, move.src)
        raise GameError(
            f"{move_text(move)} is not legal here: {why.sentence}", why.rule, rule_section(why.rule, self.rules.name)
        )

    def play(self, played: Played) -> str:
        """Play a resolved move after the current ply (the redo stack beyond it goes), applied once; the
        status after it."""
        after = apply_move(self.position, played.move, self.rules)
        del self.line[self.ply :]
        del self._positions[self.ply + 1 :]
        for ply in [k for k in self._legal if k > self.ply]:
            del self._legal[ply]
        self.line.append(played)
        self._positions.append(after)
        self.ply += 1
        return self.status

    # -- what the player sees ------------------------------------------------------

    def legal(self) -> list[dict]:
        """The legal moves in shown columns; a King into a space is listed for every empty column it may take."""
        position, perm = self.position, self.perm
        inverse = {engine: shown for shown, engine in enumerate(perm)}
        interchangeable = interchangeable_columns(position)
        empties = [c for c in interchangeable if not position.columns[c]]
        out = []
        for move in self.legal_at(self.ply):
            if move.is_tail:
                out.append({"move": "tail", "card": None, "from": None, "to": None, "kind": "tail"})
                continue
            # the leading card as the move names it: "6C", or "6C+" for the upper of two copies in its column
            card = move_text(Move(move.card, 0, 0)).split(":")[0]
            src = "r" if move.src == RESERVE else inverse[move.src] + 1  # a reserve card: "2H:r>5"
            if position.columns[move.dst]:
                targets, kind = [move.dst], "build"
            elif move.dst in empties:
                targets, kind = sorted(empties, key=inverse.get), "space"
            else:
                targets, kind = [move.dst], "space"
            for dst in targets:
                to = inverse[dst] + 1
                text = move_text(Move(move.card, RESERVE if src == "r" else src - 1, to - 1))
                out.append({"move": text, "card": card, "from": src, "to": to, "kind": kind})
        return out

    def tail_locked(self) -> str | None:
        position = self.position
        if self.rules.tail != TAIL_WHEN_STUCK or not position.tail or self.status != PLAYING:
            return None
        return None if TAIL in self.legal_at(self.ply) else TAIL_LOCKED

    def view(self) -> dict:
        """The player's view (``Observation.of``: no face-down or tail card), columns in shown order."""
        position = self.position
        seen = Observation.of(position, self.rules.decks)
        frozen_slots = set()
        for i, col in enumerate(position.columns):
            for suit in position.frozen:
                start = run_start(col, position.hidden[i], suit)
                if start is not None:
                    frozen_slots.update((i, j) for j in range(start, start + len(run_of_suit(suit))))
        columns = []
        for engine in self.perm:
            cards = []
            for j, card in enumerate(seen.columns[engine]):
                if card == UNKNOWN:
                    cards.append({"card": None})
                else:
                    cards.append({"card": card_text(card), "frozen": (engine, j) in frozen_slots})
            columns.append(cards)
        return {
            "columns": columns,
            "hidden": [seen.hidden[engine] for engine in self.perm],
            "tail": len(seen.tail),
            "swept": [SUITS[s % 4] for s in sorted(seen.swept)],  # a run each: a suit twice in Double Scorpion
            "frozen": [SUITS[s] for s in sorted(seen.frozen)],
            "reserves": [card_text(c) for c in position.reserves],  # face up: Three Blind Mice's, never refilled
        }

    def last(self) -> dict | None:
        """The move that led here: what it showed (cards turned face up, the tail's cards) and swept."""
        if not self.ply:
            return None
        before, after = self.position_at(self.ply - 1), self.position
        was_up = {c for i, col in enumerate(before.columns) for c in col[before.hidden[i] :]} | set(before.reserves)
        revealed = []
        for engine in self.perm:
            col = after.columns[engine]
            revealed += [card_text(c) for c in col[after.hidden[engine] :] if c not in was_up]
        decks = self.rules.decks  # two decks: a suit's second run is swept apart from its first
        swept = sorted((Counter(after.swept_suits(decks)) - Counter(before.swept_suits(decks))).elements())
        return {
            "move": move_text(self.line[self.ply - 1].shown),
            "revealed": revealed,
            "swept": [SUITS[s] for s in swept],
        }

    def shown_moves(self) -> list[str]:
        return [move_text(p.shown) for p in self.line[: self.ply]]

    def engine_moves(self) -> list[Move]:
        return [p.move for p in self.line[: self.ply]]


def import_line(number: int, rules: Rules, text: str) -> list[Played]:
    """A move file's moves (engine notation, ``#`` comments) checked by the engine: GameError on the first bad one.

    A refused move is explained from what the moves before it showed (``game.refusals``): an import must not
    tell where a card lies that no move has turned up.
    """
    try:
        moves = read_moves(text)
    except MoveError as exc:
        raise GameError(str(exc)) from None
    position = deal(number, rules)
    line = []
    for k, move in enumerate(moves, start=1):
        if status_of(position, rules) != PLAYING:
            raise GameError(f"move {k}: the game is already over after move {k - 1}")
        why = refusal(position, move, rules)
        if why is not None:
            raise GameError(
                f"move {k}: {move_text(move)} is not legal here: {why.sentence}",
                why.rule,
                rule_section(why.rule, rules.name),
            )
        position = apply_move(position, move, rules)
        line.append(Played(move, move, identity(rules)))
    return line
