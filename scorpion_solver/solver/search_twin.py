"""The plain-Python twin of ``kernel.search`` (hence the name): same moves, same order, same nodes.

It mirrors the kernel's search section (``_expand``, ``_decide_root`` and ``search``); the
deadlock test it calls is ``deadlock``, the twin of the kernel's deadlock section.

Depth-first search over the reference engine with a visited set keyed by the
canonical form of a position (interchangeable columns sorted; with two decks,
read by faces, so a position and its copy-swapped twin are one entry:
``visited_key``). A position once
visited is never expanded again: in a one-player search, if it led to a win
the search would already have stopped. Deadlock pruning (see ``deadlock``) is
checked at the root and after the moves that can create a deadlock: the tail
deal, a move that freezes a run, and a move into the last empty column that
leaves cards behind. Every other move can only help the analysis, so a
position reached by it passes if its parent passed: a build onto a successor
covers only that successor, which no other card needs, and frees the card it
left; a move into an empty column while another stays empty frees the card it
left and changes nothing the analysis reads; relocating a whole column changes
no card's neighbours. With ``Reductions.successor_above`` (the deadlock test's
successor-above rule, see ``deadlock``) one more move is checked: a build
whose group holds the successor of a card of the destination column, which
puts that successor above it; any other build only takes blockers away.
With ``Reductions.safe_leads`` a position that has a safe
lead (``safe_lead``) is expanded with that one move, as in the kernel.

Double Scorpion is searched with the deadlock test after every move, as the
kernel runs it there: the argument above that a build cannot make a passing
position fail is a one-deck one (with two decks the build covers a copy of
the successor that the other copy of its card may have been counting on);
Three Blind Mice with the deadlock test on the root only (as the kernel's caller runs it:
``search._solve_from_root``), a root it proves dead being ``lost`` at once.
Their winning line is returned as found, as the cut of detours
(``shortest.shorten_line``) names moves by card and column, not by the
two-deck notation or the reserve.
"""

from __future__ import annotations

import time

from ..game.cards import face_of, is_ace, is_king
from ..game.engine import RESERVE, Move, apply_move, canonical_key, is_won, lead_index, legal_moves
from ..game.position import Position, frozen_floor
from ..game.rules import CLEAR, SPACE_ANY, Rules
from .deadlock import is_deadlocked, needs_deadlock_check
from .probes import later_tries, probe_limits, probe_starts, scout_limits
from .reductions import FULL, Reductions
from .result import LOST, UNKNOWN, WON, Limits, SolveResult
from .shortest import shorten_line


def shortened(pos: Position, path: list[Move], rules: Rules) -> list[Move]:
    """The line cut of its detours until it gets no shorter (twin of ``lines.shorten_path``)."""
    if len(path) < 3:
        return path
    while True:
        shorter = shorten_line(pos, path, rules)
        if len(shorter) >= len(path):
            return path
        path = shorter


def visited_key(pos: Position, rules: Rules) -> tuple:
    """The position's key in the visited set (twin of the kernel's keys): equal up to the order of
    interchangeable columns and, with two decks, up to which copy of a face lies where.

    The rules read a card's face only, so a position and its copy-swapped
    twin have the same moves, continuations and verdict: one entry.
    """
    if rules.decks == 1:
        return canonical_key(pos)
    faces = Position(
        columns=tuple(tuple(face_of(c) for c in cards) for cards in pos.columns),
        hidden=pos.hidden,
        tail=tuple(face_of(c) for c in pos.tail),
        frozen=pos.frozen,
        reserves=tuple(face_of(c) for c in pos.reserves),
    )
    return canonical_key(faces)


def search_order(pos: Position, rules: Rules, reveals_first: bool = False) -> list[Move]:
    """The legal moves in the order the search tries them (twin of the kernel's). ``reveals_first``, the
    two-deck search's second order (``kernel._reveals_first``): first the moves whose group lies on a
    face-down card, each part in the legal moves' order."""
    moves = legal_moves(pos, rules)
    if not reveals_first or rules.is_scorpion_shape:  # the one-deck kernel has one order
        return moves
    return sorted(moves, key=lambda move: not _reveals(pos, move, rules))


def _reveals(pos: Position, move: Move, rules: Rules) -> bool:
    """Whether the group ``move`` takes lies on a face-down card."""
    if move.is_tail or move.src == RESERVE:
        return False
    index = lead_index(pos, move, rules.decks)
    return index is not None and index > 0 and index == pos.hidden[move.src]


def _is_run(cards: tuple[int, ...]) -> bool:
    """Each card lies on its successor (cards listed bottom first)."""
    return all(upper == lower - 1 for lower, upper in zip(cards, cards[1:]))


def safe_lead(pos: Position, move: Move, rules: Rules) -> bool:
    """Twin of ``kernel._safe_lead`` (the rule and its soundness argument are there).

    A legal non-King move ``c`` onto ``c + 1`` after the tail deal, with
    King-only spaces, where (A) c leads a run down to an Ace, or to a card t
    and c lies on a run down to t - 1, or (B) c + 1 lies on a run down to a
    card l with only face-down or frozen cards (or nothing) under it, and l
    is a King or c lies on l + 1. Never with frozen runs (classic).
    """
    if move.is_tail or not pos.tail_dealt or rules.space == SPACE_ANY or rules.freezes or is_king(move.card):
        return False
    x, y = pos.columns[move.src], pos.columns[move.dst]
    i = x.index(move.card)
    group = x[i:]
    group_run = _is_run(group)
    h = len(y) - 1
    while h > 0 and y[h - 1] == y[h] + 1:
        h -= 1
    low = y[h]
    floor = frozen_floor(pos, move.dst)
    if group_run and is_ace(group[-1]):
        return True
    if group_run:
        g = i - 1
        while g > 0 and x[g - 1] == x[g] + 1:
            g -= 1
        if group[-1] - 1 in x[max(g, 0) : i]:
            return True
    if h > pos.hidden[move.dst] and h > floor:
        return False
    return is_king(low) or (i > 0 and x[i - 1] == low + 1)


def expansion_moves(
    pos: Position, rules: Rules, reductions: Reductions = FULL, reveals_first: bool = False
) -> list[Move]:
    """The moves a node's expansion tries: all legal moves, or only the first safe lead."""
    moves = search_order(pos, rules, reveals_first)
    if reductions.safe_leads:
        for move in moves:
            if safe_lead(pos, move, rules):
                return [move]
    return moves


def reference_solve(
    pos: Position, rules: Rules = CLEAR, limits: Limits = Limits(), reductions: Reductions = FULL
) -> SolveResult:
    """Twin of ``kernel.search``: the same nodes in the same order, the same verdict and solution
    (cut of its detours as ``search.solve`` cuts it, ``lines.shorten_path``; ``solve``'s polish has no twin).

    A position is a node when it is added to the visited set, which happens
    when its parent is expanded (all children at once, in move order); it is
    expanded when its turn comes on the stack. Limits are checked before each
    step, so a search may pass the node budget by less than one expansion.
    A ten-column game's search that runs out of nodes is probed (``probes``),
    then searched again in the second move order (``search_order``'s
    ``reveals_first``), each with the same budget, as ``search.solve`` does.
    """
    start = time.perf_counter()
    reductions = reductions.proven_for(rules)
    scout = None if rules.is_scorpion_shape else scout_limits(limits)
    result = _search(pos, rules, scout or limits, reductions, start)
    if not rules.is_scorpion_shape and result.stopped_by == "nodes":
        for kind, *which in later_tries(limits, scout is not None):
            if result.stopped_by != "nodes":
                break
            if kind == "probes":
                result = _probed(pos, rules, limits, reductions, start, result, *which)
                continue
            again = _search(pos, rules, limits, reductions, start, reveals_first=which[0], root_test=False)
            result = again.after(result)
    return result


def _probed(
    pos: Position,
    rules: Rules,
    limits: Limits,
    reductions: Reductions,
    start: float,
    tried: SolveResult,
    first: int,
    stop: int,
) -> SolveResult:
    """Probes ``first`` to ``stop`` after the tries before (``tried``, their counted work): the first
    probe's win, its line from ``pos``, or unknown, each probe's work counted in."""
    for moves, here in probe_starts(pos, rules, stop, first):
        if is_won(here, rules):
            tried.status, tried.stopped_by, tried.line = WON, "", tuple(moves)
            return tried
        probe = _search(here, rules, probe_limits(limits), reductions, start, root_test=False).after(tried)
        if probe.status == WON:
            probe.line = tuple(moves) + probe.line
            return probe
        tried = probe
        tried.status, tried.stopped_by = UNKNOWN, "time" if probe.stopped_by == "time" else "nodes"
        if probe.stopped_by == "time":
            break
    return tried


def _search(
    pos: Position,
    rules: Rules,
    limits: Limits,
    reductions: Reductions,
    start: float,
    reveals_first: bool = False,
    root_test: bool = True,
) -> SolveResult:
    """One search of ``reference_solve``, in the first move order or (``reveals_first``) the second.
    ``root_test=False`` for the searches after the first (the second order, the probes), which the kernel
    runs without the root's deadlock test: the root's was run and counted once."""
    in_search = reductions.prune and reductions.in_search(rules)
    result = SolveResult(status=LOST, rules=rules.name, nodes=1)
    visited = {visited_key(pos, rules)}

    def finish(status: str, path: list[Move] | None = None, stopped_by: str = "") -> SolveResult:
        result.status = status
        result.stopped_by = stopped_by
        result.peak_entries = len(visited)
        if path is not None:
            if rules.is_scorpion_shape:
                path = shortened(pos, path, rules)
            result.line = tuple(path)
        result.seconds = time.perf_counter() - start
        return result

    def expand(here: Position) -> list[Move]:
        kept = []
        moves = expansion_moves(here, rules, reductions, reveals_first)
        result.moves_made += len(moves)
        for move in moves:
            key = visited_key(apply_move(here, move, rules), rules)
            if key not in visited:
                visited.add(key)
                kept.append(move)
        result.nodes += len(kept)
        return kept

    if is_won(pos, rules):
        return finish(WON, [])
    if reductions.prune and root_test:
        result.deadlock_checks = 1
        if is_deadlocked(pos, rules, reductions.successor_above):
            result.dead_at_root = True
            result.deadlock_prunes = 1
            return finish(LOST)
    stack: list[tuple[Position, list[Move], int]] = [(pos, expand(pos), 0)]
    path: list[Move] = []
    while stack:
        here, moves, i = stack[-1]
        if i == len(moves):
            stack.pop()
            if path:
                path.pop()
            continue
        if result.nodes >= limits.nodes:
            return finish(UNKNOWN, stopped_by="nodes")
        if limits.seconds is not None and time.perf_counter() - start > limits.seconds:
            return finish(UNKNOWN, stopped_by="time")
        stack[-1] = (here, moves, i + 1)
        move = moves[i]
        child = apply_move(here, move, rules)
        if is_won(child, rules):
            return finish(WON, path + [move])
        if in_search and (rules.decks == 2 or needs_deadlock_check(here, move, child, reductions.successor_above)):
            result.deadlock_checks += 1
            if is_deadlocked(child, rules, reductions.successor_above):
                result.deadlock_prunes += 1
                continue
        path.append(move)
        result.max_depth = max(result.max_depth, len(path))
        stack.append((child, expand(child), 0))
    return finish(LOST)
