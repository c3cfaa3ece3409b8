"""The reference rules engine: plain Python, no cleverness.

This is the oracle every faster piece is tested against. It implements
docs/rules.md literally on immutable :class:`Position` values: the legal moves in
canonical form and order, whether one move is legal, playing a move (flips,
sweeps, freezes), won and lost, the move notation, replaying a move list, and
perft.

Playing a move asks :func:`is_legal`, which asks the rules :func:`legal_moves`
lists by of that one move instead of listing every legal move to look for
it; a move rebuilds and settles only the columns it touches; and
:func:`replay` makes its moves on one mutable board (:class:`_Board`, a
Position's fields in lists) instead of building a Position per move. So the
check of every ``won`` (``game.verify``: this replay) costs about 0.1-0.2 ms
for a 52-move solution, not 0.3-0.4 ms (issue 32). tests/test_verify.py holds
both to the listing: every card onto every column along random games in every
preset, solutions and their mutations.

Canonical move order (the jitted engine produces the same list): moves are
listed by destination column (1-7, or 1-10); for one destination by source
column, then by the height of the leading card in its column (lowest first),
then Three Blind Mice's reserve cards in their order; the tail deal, if
available, comes last.

The relatives of issue 53 play here too. Three Blind Mice: ten columns, no
tail, two face-up reserve cards that move alone (a move from ``RESERVE``).
Double Scorpion: ten columns, a tail of four, two decks. Its two copies of a
face are interchangeable, so a move does not name a copy: ``Move.card`` is the
face (``card % 52``) when the leading card is the only, or the lower, of the
face-up copies of its face in the source column, and the face + 52 when it is
the upper of two (text ``6C+:5>2``). A move is then the same for a position
and its copy-swapped twin, and its text says all it means.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple, Sequence

from .cards import NUM_CARDS, RUN_LENGTH, CardError, card_text, is_ace, is_king, parse_card, run_of_suit, suit_of
from .position import COLUMN_COUNTS, NUM_COLUMNS, Position, frozen_floor
from .rules import CLEAR, SPACE_ANY, TAIL_WHEN_STUCK, Rules


class Move(NamedTuple):
    """A group led by ``card`` moves from column ``src`` to ``dst`` (0-based).

    The tail deal is ``TAIL`` (all fields -1). A reserve card (Three Blind
    Mice) moves from ``src == RESERVE``. In a two-deck game ``card`` names the
    face and which face-up copy in the source column (the module docstring).
    """

    card: int
    src: int
    dst: int

    @property
    def is_tail(self) -> bool:
        return self.card < 0

    def __str__(self) -> str:
        return move_text(self)


TAIL = Move(-1, -1, -1)
RESERVE = 10  # a move's source for a reserve card: after the ten columns, so reserve moves sort after theirs
UPPER_COPY = NUM_CARDS  # added to a two-deck move's face when it names the upper of two face-up copies


class MoveError(ValueError):
    """An unreadable or illegal move; the message says which and why."""


# --------------------------------------------------------------------------
# Notation


def move_text(move: Move) -> str:
    """``6C:5>2`` (group led by 6C from column 5 onto column 2) or ``tail``."""
    text = _MOVE_TEXTS.get(move)
    return text if text is not None else _spelled(move)


def _spelled(move: Move) -> str:
    if move.is_tail:
        return "tail"
    upper = "+" if move.card >= UPPER_COPY else ""
    src = "r" if move.src == RESERVE else move.src + 1
    return f"{card_text(move.card)}{upper}:{src}>{move.dst + 1}"


# Every tableau move, made once, at index (card * 7 + src) * 7 + dst: a line decoded from the solver's
# search looks its moves up here (making a Move costs ten times the look-up, and a sampled layout's
# solve decodes a line of about fifty moves).
MOVE_TABLE = tuple(Move(c, s, d) for c in range(NUM_CARDS) for s in range(NUM_COLUMNS) for d in range(NUM_COLUMNS))

# Every move's text, spelled once: a batch writes about 50 000 moves a second into its rows.
_MOVE_TEXTS = {move: _spelled(move) for move in (TAIL, *MOVE_TABLE)}


def parse_move(token: str) -> Move:
    """Read one move token; MoveError naming the token if it is malformed."""
    text = token.strip()
    if text.lower() == "tail":
        return TAIL
    try:
        card_part, cols = text.split(":")
        src_text, dst_text = cols.split(">")
        upper = card_part.endswith("+")
        card, face_down = parse_card(card_part[:-1] if upper else card_part)
        src = RESERVE if src_text.strip().lower() == "r" else int(src_text) - 1
        dst = int(dst_text) - 1
    except (ValueError, CardError) as exc:
        detail = f": {exc}" if isinstance(exc, CardError) else ""
        raise MoveError(f"'{token}' is not a move (expected e.g. 6C:5>2, KS:3>4, 2H:r>5 or tail){detail}") from None
    max_columns = max(COLUMN_COUNTS)
    if face_down or not ((0 <= src < max_columns or src == RESERVE) and 0 <= dst < max_columns):
        raise MoveError(
            f"'{token}' is not a move (columns are 1-7, or 1-10 in the ten-column games, 'r' a reserve card; "
            "a face-down card never moves)"
        )
    if upper and src == RESERVE:
        raise MoveError(f"'{token}' is not a move ('+' names the upper of two copies in a column, not a reserve card)")
    return Move(card + (UPPER_COPY if upper else 0), src, dst)


def parse_moves(text: str) -> list[Move]:
    """Moves separated by whitespace (no comments: see :func:`read_moves` for records)."""
    return [parse_move(tok) for tok in text.split()]


def read_moves(text: str, source: str | None = None) -> list[Move]:
    """A move record: moves separated by spaces or line breaks, ``#`` starts a comment.

    The one reader of move records for every command. A token that is not a
    move raises MoveError naming ``source`` (a file name, if any), the line
    (when there are several) and the move's 1-based number.
    """
    moves = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        for token in line.split("#", 1)[0].split():
            try:
                moves.append(parse_move(token))
            except MoveError as exc:
                where = [source] if source else []
                if "\n" in text.strip():
                    where.append(f"line {lineno}")
                prefix = ", ".join(where) + ": " if where else ""
                raise MoveError(f"{prefix}move {len(moves) + 1}: {exc}") from None
    return moves


def moves_text(moves: Iterable[Move]) -> str:
    return " ".join(move_text(m) for m in moves)


# --------------------------------------------------------------------------
# Facts about a position


def complete_run_on_top(col: Sequence[int], hidden: int) -> int | None:
    """The suit whose face-up King-to-Ace run forms the top 13 cards of col (a tuple or a list), or None.

    With two decks the run may mix copies: its faces are what counts."""
    if len(col) - hidden < RUN_LENGTH or not is_ace(col[-1]):  # most columns fail here, at no cost
        return None
    suit = suit_of(col[-1])
    top, run = tuple(col[-RUN_LENGTH:]), run_of_suit(suit)
    if top == run:
        return suit
    return suit if max(top) >= NUM_CARDS and tuple(c % NUM_CARDS for c in top) == run else None


def is_won(pos: Position, rules: Rules = CLEAR) -> bool:
    if pos.tail:  # cards still to deal: the question of most positions, answered first
        return False
    if rules.sweeps:
        return not any(pos.columns) and not pos.reserves
    for col, hidden in zip(pos.columns, pos.hidden):
        if hidden or len(col) % RUN_LENGTH:
            return False
        for start in range(0, len(col), RUN_LENGTH):
            if col[start : start + RUN_LENGTH] != run_of_suit(suit_of(col[start])):
                return False
    return True


def interchangeable_columns(pos: Position) -> tuple[int, ...]:
    """Columns the tail cannot reach: 4-7 before Scorpion's tail deal (5-10 before Double Scorpion's), every
    column after it or in a game without a tail."""
    return _COLUMN_RANGES[len(pos.columns), 0 if pos.tail_dealt else len(pos.tail)]


# (columns, tail cards still to deal) -> the columns from the first the tail cannot reach
_COLUMN_RANGES = {(n, t): tuple(range(t, n)) for n in COLUMN_COUNTS for t in (0, 3, 4)}


def canonical_key(pos: Position) -> tuple:
    """Equal for positions equal up to the order of interchangeable columns."""
    free = interchangeable_columns(pos)
    fixed = tuple((pos.columns[i], pos.hidden[i]) for i in range(len(pos.columns)) if i not in free)
    loose = tuple(sorted((pos.columns[i], pos.hidden[i]) for i in free))
    key = fixed, loose, pos.tail, pos.frozen
    return key + (pos.reserves,) if pos.reserves else key


def _location(pos: Position, card: int) -> tuple[int, int] | None:
    for i, col in enumerate(pos.columns):
        if card in col:
            return i, col.index(card)
    return None


def _movable(pos: Position, column: int, index: int) -> bool:
    """A card can lead a group: face up and not in or under a frozen run."""
    return index >= pos.hidden[column] and (not pos.frozen or index >= frozen_floor(pos, column))


def is_relocation(pos: Position, move: Move) -> bool:
    """A whole column moving into an empty column (docs/rules.md, "Spaces")."""
    if move.is_tail or move.src == RESERVE or pos.columns[move.dst]:
        return False
    col = pos.columns[move.src]
    # the group's leading card is the column's bottom card: face up, and the lowest copy of its face there
    return bool(col) and not pos.hidden[move.src] and move.card < UPPER_COPY and col[0] % NUM_CARDS == move.card


def _tableau_moves(pos: Position, rules: Rules) -> list[Move]:
    moves = []
    for dst in range(len(pos.columns)):
        moves += moves_into(pos, dst, rules)
    return moves


def _face_up_copies(col: Sequence[int], hidden: int, face: int) -> list[int]:
    """Where the face-up copies of a face lie in a column, lowest first (two decks)."""
    return [i for i in range(hidden, len(col)) if col[i] % NUM_CARDS == face]


def two_deck_move(pos: Position, src: int, index: int, dst: int) -> Move:
    """The move of the group led by the card at ``index`` in column ``src`` of a two-deck game, as named."""
    col = pos.columns[src]
    face = col[index] % NUM_CARDS
    upper = any(col[i] % NUM_CARDS == face for i in range(pos.hidden[src], index))
    return Move(face + (UPPER_COPY if upper else 0), src, dst)


def lead_index(pos: Position, move: Move, decks: int) -> int | None:
    """Where the card leading ``move`` lies in its source column (None if not there face up, or for two
    decks, not as the copy the move names); a one-deck card's face-down place counts, for messages."""
    col = pos.columns[move.src]
    if decks == 1:
        return col.index(move.card) if move.card in col else None
    found = _face_up_copies(col, pos.hidden[move.src], move.card % NUM_CARDS)
    nth = move.card // UPPER_COPY
    return found[nth] if nth < len(found) else None


def _space_open(pos: Position, dst: int) -> bool:
    """Whether moves into the empty column ``dst`` are listed: of interchangeable empty columns, only the leftmost."""
    interchangeable = interchangeable_columns(pos)
    if dst not in interchangeable:
        return True
    columns = pos.columns
    for i in interchangeable:  # in increasing order
        if i >= dst:
            return True
        if not columns[i]:
            return False  # an empty interchangeable column left of dst takes these moves
    return True


def _space_floor(pos: Position, src: int, dst: int) -> int:
    """The lowest index in column ``src`` whose card may lead its group into the empty column ``dst``:
    movable (face up, not in or under a frozen run), and not the bottom card where relocating the whole
    column changes nothing."""
    floor = pos.hidden[src]
    if pos.frozen:
        floor = max(floor, frozen_floor(pos, src))
    if not floor and (pos.tail_dealt or (src >= len(pos.tail) and dst >= len(pos.tail))):
        floor = 1
    return floor


def _may_enter_space(card: int, rules: Rules) -> bool:
    return rules.space == SPACE_ANY or is_king(card)


def _may_deal_tail(pos: Position, rules: Rules, tableau: list[Move] | None = None) -> bool:
    """Whether the tail may be dealt (a won position aside): it is there, and in the when-stuck mode every
    tableau move (``tableau``, listed here when not given) is a relocation."""
    if not pos.tail:
        return False
    if rules.tail != TAIL_WHEN_STUCK:
        return True
    return all(is_relocation(pos, m) for m in (_tableau_moves(pos, rules) if tableau is None else tableau))


def moves_into(pos: Position, dst: int, rules: Rules = CLEAR) -> list[Move]:
    """The tableau moves into column ``dst``, in canonical order, as ``legal_moves`` lists them
    (its tableau moves are these for every column in turn; a won position aside)."""
    col = pos.columns[dst]
    if col:
        target = col[-1]
        if is_ace(target):
            return []  # nothing builds on an Ace
        lead = target - 1
        if rules.decks == 2:
            return _two_deck_builds(pos, lead % NUM_CARDS, dst)
        for src, cards in enumerate(pos.columns):  # where the lead lies (_location, inline)
            if lead in cards:
                if src != dst and _movable(pos, src, cards.index(lead)):
                    return [Move(lead, src, dst)]
                break
        if lead in pos.reserves:
            return [Move(lead, RESERVE, dst)]
        return []
    if not _space_open(pos, dst):
        return []
    moves = []
    any_card = rules.space == SPACE_ANY  # _may_enter_space, asked once for the column (its rule) ...
    for src, cards in enumerate(pos.columns):
        floor = _space_floor(pos, src, dst)
        if rules.decks == 2:
            moves += [
                two_deck_move(pos, src, i, dst) for i in range(floor, len(cards)) if any_card or is_king(cards[i])
            ]
            continue
        leads = cards[floor:]
        if not any_card:  # ... and here for each card: Kings only (is_king)
            leads = [card for card in leads if card % RUN_LENGTH == RUN_LENGTH - 1]
        moves += [Move(card, src, dst) for card in leads]
    moves += [Move(card, RESERVE, dst) for card in pos.reserves if any_card or is_king(card)]
    return moves


def _two_deck_builds(pos: Position, face: int, dst: int) -> list[Move]:
    """The moves onto column ``dst`` of a group led by either copy of ``face`` (two decks)."""
    moves = []
    for src, cards in enumerate(pos.columns):
        if src != dst:
            found = _face_up_copies(cards, pos.hidden[src], face)
            moves += [Move(face + UPPER_COPY * nth, src, dst) for nth in range(len(found))]
    return moves


def legal_moves(pos: Position, rules: Rules = CLEAR) -> list[Move]:
    """All legal moves in canonical order (none in a won position)."""
    if is_won(pos, rules):
        return []
    moves = _tableau_moves(pos, rules)
    if _may_deal_tail(pos, rules, moves):
        moves.append(TAIL)
    return moves


def is_legal(pos: Position, move: Move, rules: Rules = CLEAR) -> bool:
    """``move in legal_moves(pos, rules)``, decided for this one move: the rules ``moves_into`` lists
    by, asked of the column the move names (the tail deal's rule may still list the tableau moves)."""
    return _legal_index(pos, move, rules) is not None


def _legal_index(pos: Position, move: Move, rules: Rules) -> int | None:
    """Where a legal move's leading card lies in its column (-1 for the tail deal); None for an illegal move.

    :func:`is_legal`'s answer, with the index :meth:`_Board.make_at` needs, so a replay looks each card up once.
    """
    card, src, dst = move
    if card < 0:
        return -1 if move == TAIL and _may_deal_tail(pos, rules) and not is_won(pos, rules) else None
    columns = pos.columns
    if not (0 <= dst < len(columns)) or src == dst:
        return None
    if src == RESERVE:
        return _reserve_index(pos, card, dst, rules)
    if not 0 <= src < len(columns):
        return None
    if rules.decks == 2:
        index = lead_index(pos, move, 2)
        if index is None:
            return None
        card = columns[src][index]
    else:
        try:
            index = columns[src].index(card)
        except ValueError:  # not in that column
            return None
    if index < pos.hidden[src] or (pos.frozen and index < frozen_floor(pos, src)):  # not _movable, inline
        return None
    target = columns[dst]
    if target:  # same suit, one rank up (a King builds on nothing); with two decks either copy
        if (target[-1] - card - 1) % NUM_CARDS or is_ace(target[-1]):
            return None
    elif not (_space_open(pos, dst) and index >= _space_floor(pos, src, dst) and _may_enter_space(card, rules)):
        return None
    # A won position has no legal move. Asked last (the other tests are cheaper), and only when the tail is
    # dealt (a won position's is) and runs are not swept (a won position with swept runs has no card left,
    # and this move's card is on the table).
    if not pos.tail and not rules.sweeps and is_won(pos, rules):
        return None
    return index


def _reserve_index(pos: Position, card: int, dst: int, rules: Rules) -> int | None:
    """Where a reserve card lies among the reserves, if it may move onto column ``dst``; None otherwise."""
    if card not in pos.reserves:
        return None
    target = pos.columns[dst]
    if target:
        if (target[-1] - card - 1) % NUM_CARDS or is_ace(target[-1]):
            return None
    elif not (_space_open(pos, dst) and _may_enter_space(card, rules)):
        return None
    return pos.reserves.index(card)


def is_lost(pos: Position, rules: Rules = CLEAR) -> bool:
    return not is_won(pos, rules) and not legal_moves(pos, rules)


# --------------------------------------------------------------------------
# Playing moves


def settle(
    columns: list[Sequence[int]], hidden: list[int], frozen: set[int], touched: Iterable[int], rules: Rules
) -> None:
    """Apply what happens at once after a move to the touched columns, in place.

    Face-down tops flip; with swept runs a complete run on top is removed
    (repeatedly: a sweep can uncover another complete run); with frozen runs a
    complete run on top freezes. A column may be a tuple or a list: a sweep
    replaces it by its slice.
    """
    for i in touched:
        while True:
            col = columns[i]
            n = len(col)
            if n and hidden[i] >= n:
                hidden[i] = n - 1  # a face-down card left on top turns face up
            if n - hidden[i] < RUN_LENGTH or col[-1] % RUN_LENGTH:
                break  # complete_run_on_top's first test, inline: fewer than 13 face-up cards, or no Ace on top
            suit = complete_run_on_top(col, hidden[i])
            if suit is None:
                break
            if rules.sweeps:
                columns[i] = col[:-RUN_LENGTH]
                continue
            if rules.freezes:
                frozen.add(suit)
            break


class _Board:
    """A position being played in place: replaying a move list builds no ``Position`` per move.

    It has a Position's fields, which is all the rule functions above read
    (``replay`` hands it to ``is_legal`` in a Position's place): ``columns`` a
    list of tuples, ``hidden`` a list, ``frozen`` a set.
    """

    __slots__ = ("columns", "hidden", "tail", "frozen", "_frozen", "reserves")

    def __init__(self, pos: Position) -> None:
        self.columns = list(pos.columns)
        self.hidden = list(pos.hidden)
        self.tail = pos.tail
        self.reserves = pos.reserves
        self.frozen = set(pos.frozen)
        # the start's frozen suits, kept when no run froze (runs only ever freeze, never thaw)
        self._frozen = pos.frozen if isinstance(pos.frozen, frozenset) else frozenset(pos.frozen)

    @property
    def tail_dealt(self) -> bool:
        return not self.tail

    def position(self) -> Position:
        frozen = self._frozen if len(self.frozen) == len(self._frozen) else frozenset(self.frozen)
        return Position(tuple(self.columns), tuple(self.hidden), self.tail, frozen, self.reserves)

    def make(self, move: Move, rules: Rules) -> None:
        """Carry out a legal move: the touched columns rebuilt as tuples (the others stay), then settled."""
        if move.card < 0:
            index = -1
        elif move.src == RESERVE:
            index = self.reserves.index(move.card)
        elif rules.decks == 2:
            index = lead_index(self, move, 2)
        else:
            index = self.columns[move.src].index(move.card)
        self.make_at(move, index, rules)

    def make_at(self, move: Move, index: int, rules: Rules) -> None:
        """:meth:`make` with the leading card's index in its column known (``_legal_index``'s answer)."""
        columns = self.columns
        card, src, dst = move
        if card < 0:  # the tail deal
            touched: Iterable[int] = range(len(self.tail))
            for i, dealt in enumerate(self.tail):
                columns[i] += (dealt,)
            self.tail = ()
        elif src == RESERVE:
            touched = (dst,)
            columns[dst] += (self.reserves[index],)
            self.reserves = self.reserves[:index] + self.reserves[index + 1 :]
        else:
            touched = (src, dst)
            cards = columns[src]
            columns[dst] += cards[index:]
            columns[src] = cards[:index]
        settle(columns, self.hidden, self.frozen, touched, rules)


def _illegal(pos: Position, move: Move, rules: Rules) -> MoveError:
    return MoveError(f"{move_text(move)} is not legal here{_why_illegal(pos, move, rules)}")


def play(pos: Position, move: Move, rules: Rules = CLEAR) -> Position:
    """The position after a legal move (MoveError if it is not legal here)."""
    if not is_legal(pos, move, rules):
        raise _illegal(pos, move, rules)
    return apply_move(pos, move, rules)


def apply_move(pos: Position, move: Move, rules: Rules = CLEAR) -> Position:
    """Carry out a move known to be legal (:func:`play` checks first)."""
    board = _Board(pos)
    board.make(move, rules)
    return board.position()


def _why_illegal(pos: Position, move: Move, rules: Rules) -> str:
    if move.is_tail:
        if not pos.tail:
            return ": there is no tail in this game" if rules.tail_size == 0 else ": the tail has already been dealt"
        return ": in this mode the tail may be dealt only when no other move exists"
    columns = len(pos.columns)
    for end, number in (("source", move.src), ("destination", move.dst)):
        if not (0 <= number < columns or (end == "source" and number == RESERVE)):
            return f": this game has {columns} columns, and {number + 1} is not one"
    if move.src == RESERVE:
        if move.card not in pos.reserves:
            return f": {card_text(move.card)} is not a reserve card here"
        if not pos.columns[move.dst]:
            return ": only a King may move into an empty column"
        return f": {card_text(move.card)} does not build on {card_text(pos.columns[move.dst][-1])} (same suit, one rank up)"
    if move.src == move.dst:
        return ": a group cannot move onto its own column"
    if rules.decks == 2:
        return _why_illegal_two_decks(pos, move, rules)
    where = _location(pos, move.card)
    if where is None:
        return f": {card_text(move.card)} is not on the table"
    if where[0] != move.src:
        return f": {card_text(move.card)} is in column {where[0] + 1}, not {move.src + 1}"
    if where[1] < pos.hidden[where[0]]:
        return f": {card_text(move.card)} is face down"
    if not _movable(pos, *where):
        return f": {card_text(move.card)} is in or under a frozen run"
    if not pos.columns[move.dst]:
        if rules.space != SPACE_ANY and not is_king(move.card):
            return ": only a King may move into an empty column"
        return ": relocating a whole column changes nothing (or another empty column is the canonical target)"
    target = pos.columns[move.dst][-1]
    if target != move.card + 1 or is_king(move.card):
        return f": {card_text(move.card)} does not build on {card_text(target)} (same suit, one rank up)"
    return ""


def _why_illegal_two_decks(pos: Position, move: Move, rules: Rules) -> str:
    face = move.card % NUM_CARDS
    name = card_text(face)
    found = _face_up_copies(pos.columns[move.src], pos.hidden[move.src], face)
    if move.card >= UPPER_COPY and len(found) == 1:
        return f": {name}+ names the upper of two face-up copies of {name} in column {move.src + 1}; there is one"
    if not found:
        return f": no face-up {name} lies in column {move.src + 1}"
    card = pos.columns[move.src][found[move.card // UPPER_COPY]]
    if not pos.columns[move.dst]:
        if rules.space != SPACE_ANY and not is_king(card):
            return ": only a King may move into an empty column"
        return ": relocating a whole column changes nothing (or another empty column is the canonical target)"
    target = pos.columns[move.dst][-1]
    if (target - card - 1) % NUM_CARDS or is_king(card):
        return f": {name} does not build on {card_text(target)} (same suit, one rank up)"
    return ""


def replay(pos: Position, moves: Iterable[Move], rules: Rules = CLEAR) -> Position:
    """Play a move list; MoveError naming the first illegal move (1-based).

    Each move is checked by :func:`is_legal` (its index-giving form) and made on one
    :class:`_Board`, as :func:`play` would check and make it.
    """
    board = _Board(pos)
    make_at = board.make_at
    for number, move in enumerate(moves, start=1):
        index = _legal_index(board, move, rules)
        if index is None:
            raise MoveError(f"move {number}: {_illegal(board, move, rules)}")
        make_at(move, index, rules)
    return board.position()


def replay_positions(pos: Position, moves: Iterable[Move], rules: Rules = CLEAR) -> list[Position]:
    """The position before the first move and after each move."""
    out = [pos]
    for number, move in enumerate(moves, start=1):
        try:
            out.append(play(out[-1], move, rules))
        except MoveError as exc:
            raise MoveError(f"move {number}: {exc}") from None
    return out


# --------------------------------------------------------------------------
# perft


def perft(pos: Position, depth: int, rules: Rules = CLEAR) -> int:
    """Number of distinct move sequences of length ``depth``."""
    if depth == 0:
        return 1
    moves = legal_moves(pos, rules)
    if depth == 1:
        return len(moves)
    return sum(perft(apply_move(pos, m, rules), depth - 1, rules) for m in moves)


def perft_divide(pos: Position, depth: int, rules: Rules = CLEAR) -> list[tuple[Move, int]]:
    """perft split by first move, for locating a disagreement."""
    return [(m, perft(apply_move(pos, m, rules), depth - 1, rules)) for m in legal_moves(pos, rules)]
