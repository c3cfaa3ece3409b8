"""Minimum-length solutions: the argument, and plain twins of the kernel's shortest search.

Why a win's length is fixed up to its *extra cost*. Take any preset (the
builds go onto the same-suit successor only; what may enter a space varies).
The card under a card c changes only when c leads a move (riders keep the
card they lie on) or when the tail deal drops c. In a win every non-King
card ends on its successor (swept in a King-to-Ace run, or lying in one on
the table), and the tail is dealt exactly once (its cards must reach a run).
A non-King card can lead only onto its successor (from off it: it is never
there twice, the successor being one card) or into a space. Follow one
non-King card c of the table (not of the tail): a lead into a space from its
successor must be followed by a lead back onto it. So with q leads into a
space from the successor, p from elsewhere, the number of c's leads is
``2q + p`` when c starts on its successor and ``1 + 2q + p`` otherwise. Give
each move an extra cost (``move_cost``): 1 for a King-led move, 1 for any
move led by a card that started in the tail, 0 for the tail deal and for a
non-King table card leading onto its successor, 2 for a non-King table card
leading into a space from its successor and 1 from anywhere else. Summing
over cards, every win from a position has exactly

    length = fixed_length(position) + extra cost

moves, where ``fixed_length`` counts the non-King table cards not lying on
their successor, plus 1 while the tail is undealt. (With only Kings entering
spaces, Clear runs and classic, this is the leads-once fact: every non-King
table card not on its successor leads exactly once; the variable part is the
King moves and the leads of the three tail cards.) So a shortest win is one
of least extra cost, in every preset, Wasp included: its any-card spaces
only add the cost-1 and cost-2 leads.

How it is found and proved. ``reference_shortest`` (twin of
``kernel.shortest_search``) searches depth first for a win of extra cost at
most ``bound`` for bound = h(root), h(root) + 1, ...: a child is searched
when its cost g plus ``cost_to_go`` (a lower bound on the cost still to
pay) stays within the bound, and a table keyed canonically remembers the
least cost each position was reached with: a position reached again with at
least that cost is skipped, with less it is searched again. By induction
along a cheapest path, every position of least cost g <= bound whose cost-
to-go bound allows it is expanded with cost g, so an iteration that finds no
win proves there is none within its bound, and the first win found has the
least extra cost. Deadlock pruning (``deadlock``, checked where the search
checks it) removes only positions with no win.

``shorten_line`` (twin of ``kernel.shorten_line``) is the cheap pass every
found solution gets: from each position kept, jump to the furthest position
of the line one or two moves away (canonically equal), dropping the detour.
"""

from __future__ import annotations

from ..game.cards import is_king
from ..game.engine import TAIL, Move, apply_move, canonical_key, interchangeable_columns, is_won, legal_moves
from ..game.position import Position
from ..game.rules import CLEAR, Rules
from .deadlock import is_deadlocked, needs_deadlock_check


def _under(pos: Position, card: int) -> int | None:
    for cards in pos.columns:
        if card in cards:
            i = cards.index(card)
            return cards[i - 1] if i > 0 else None
    return None


def move_cost(pos: Position, move: Move, tail_cards: frozenset[int]) -> int:
    """The extra cost of ``move`` from ``pos`` (see the module docstring)."""
    if move.is_tail:
        return 0
    if is_king(move.card) or move.card in tail_cards:
        return 1
    if pos.columns[move.dst]:
        return 0
    return 2 if _under(pos, move.card) == move.card + 1 else 1


def fixed_length(pos: Position) -> int:
    """The moves every win from pos makes whatever its extra cost."""
    n = 0 if not pos.tail else 1
    for cards in pos.columns:
        for i, c in enumerate(cards):
            if not is_king(c) and not (i > 0 and cards[i - 1] == c + 1):
                n += 1
    return n


def cost_to_go(pos: Position, rules: Rules, tail_cards: frozenset[int]) -> int:
    """A lower bound on the extra cost still to pay (twin of ``kernel.cost_to_go``).

    The card directly under a King changes only when the King leads (a rider
    keeps the card it lies on; the cards further down change whenever a card
    between leads and the King rides along). So a King lying directly on a
    card of its own suit must lead (that card belongs above it, in its run),
    and so must, without sweeps (where a won King lies at the bottom of a
    column or on the Ace of a run), a King lying directly on any card but an
    Ace. Once the tail is dealt, a non-King tail card not on its successor
    must still lead (cost 1 each).

    (Until 2026-12-01 a King with a card of its suit anywhere under it was
    counted: not a lower bound, since a card between them may lead with the
    King riding, as in Clear deal 1758, whose 50-move win that bound hid.)"""
    n = 0
    for cards in pos.columns:
        for i, c in enumerate(cards):
            if is_king(c) and i > 0:
                under = cards[i - 1]
                if under // 13 == c // 13 or (not rules.sweeps and under % 13 != 0):
                    n += 1
            elif c in tail_cards and not pos.tail and not is_king(c) and not (i > 0 and cards[i - 1] == c + 1):
                n += 1
    return n


def extra_cost(pos: Position, line: list[Move], rules: Rules, tail_cards: frozenset[int] | None = None) -> int:
    """The extra cost of a line (its length minus ``fixed_length`` when it wins);
    tail_cards: the cards that started in the tail (default: pos's tail)."""
    tail_cards = frozenset(pos.tail) if tail_cards is None else tail_cards
    total = 0
    for move in line:
        total += move_cost(pos, move, tail_cards)
        pos = apply_move(pos, move, rules)
    return total


def bounded_search(pos: Position, rules: Rules, bound: int, prune: bool = True) -> tuple[list[Move] | None, int]:
    """Twin of ``kernel.shortest_search`` for one bound: (a win of extra cost <= bound
    or None, nodes). The same nodes in the same order as the kernel."""
    tail_cards = frozenset(pos.tail)
    if is_won(pos, rules):
        return [], 1
    if cost_to_go(pos, rules, tail_cards) > bound or (prune and is_deadlocked(pos, rules, successor_above=False)):
        return None, 1
    best = {canonical_key(pos): 0}
    nodes = 1
    stack: list[tuple[Position, int, list[Move], int]] = [(pos, 0, legal_moves(pos, rules), 0)]
    path: list[Move] = []
    while stack:
        here, g_here, moves, i = stack[-1]
        if i == len(moves):
            stack.pop()
            if path:
                path.pop()
            continue
        stack[-1] = (here, g_here, moves, i + 1)
        move = moves[i]
        g = g_here + move_cost(here, move, tail_cards)
        if g > bound:
            continue
        child = apply_move(here, move, rules)
        if is_won(child, rules):
            return path + [move], nodes
        if g + cost_to_go(child, rules, tail_cards) > bound:
            continue
        key = canonical_key(child)
        if best.get(key, g + 1) <= g:
            continue
        best[key] = g
        nodes += 1
        if prune and needs_deadlock_check(here, move, child) and is_deadlocked(child, rules, successor_above=False):
            continue
        path.append(move)
        stack.append((child, g, legal_moves(child, rules), 0))
    return None, nodes


def reference_shortest(pos: Position, rules: Rules = CLEAR, max_extra: int = 64) -> list[Move] | None:
    """A win of least length (iterative deepening on the extra cost), or None when
    no win of extra cost <= max_extra exists."""
    for bound in range(cost_to_go(pos, rules, frozenset(pos.tail)), max_extra + 1):
        line, _ = bounded_search(pos, rules, bound)
        if line is not None:
            return line
    return None


def breadth_first_length(pos: Position, rules: Rules = CLEAR, max_positions: int = 2_000_000) -> int | None:
    """The length of a shortest win by plain breadth-first search over canonical
    positions (no pruning, no cost argument): the oracle the tests compare with.
    None when there is no win; ValueError past max_positions."""
    if is_won(pos, rules):
        return 0
    seen = {canonical_key(pos)}
    frontier = [pos]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for here in frontier:
            for move in legal_moves(here, rules):
                child = apply_move(here, move, rules)
                if is_won(child, rules):
                    return depth
                key = canonical_key(child)
                if key not in seen:
                    seen.add(key)
                    nxt.append(child)
        if len(seen) > max_positions:
            raise ValueError(f"more than {max_positions} positions within {depth} moves")
        frontier = nxt
    return None


def remap_move(orig: Position, actual: Position, move: Move) -> Move:
    """``move`` of orig, for actual (equal to orig up to interchangeable columns)."""
    if move.is_tail:
        return TAIL
    src = next(col for col, cards in enumerate(actual.columns) if move.card in cards)
    if orig.columns[move.dst]:
        top = orig.columns[move.dst][-1]
        dst = next(col for col, cards in enumerate(actual.columns) if cards and cards[-1] == top)
        return Move(move.card, src, dst)
    free = interchangeable_columns(actual)
    if move.dst not in free:
        return Move(move.card, src, move.dst)
    dst = min(col for col in free if not actual.columns[col])
    return Move(move.card, src, dst)


def shorten_line(pos: Position, line: list[Move], rules: Rules = CLEAR, two_moves: bool = True) -> list[Move]:
    """Twin of ``kernel.shorten_line``: cut the detours of a line (see the module docstring)."""
    positions = [pos]
    for move in line:
        positions.append(apply_move(positions[-1], move, rules))
    last_index = {canonical_key(p): j for j, p in enumerate(positions)}
    out: list[Move] = []
    actual = pos
    i = 0
    while i < len(line):
        here = positions[i]
        best_j, chosen, gain = i + 1, [line[i]], 0
        for a in legal_moves(here, rules):
            child = apply_move(here, a, rules)
            j = last_index.get(canonical_key(child), -1)
            if j - i - 1 > gain:
                best_j, chosen, gain = j, [a], j - i - 1
            if two_moves and not is_won(child, rules):
                for b in legal_moves(child, rules):
                    j = last_index.get(canonical_key(apply_move(child, b, rules)), -1)
                    if j - i - 2 > gain:
                        best_j, chosen, gain = j, [a, b], j - i - 2
        orig = here
        for move in chosen:
            mapped = remap_move(orig, actual, move)
            out.append(mapped)
            orig = apply_move(orig, move, rules)
            actual = apply_move(actual, mapped, rules)
        i = best_j
    return out
