"""A winning line from the kernel to the caller: decoded, cut of its detours, polished, and checked.

``solve`` reads the line off the search's stack (:func:`winning_path`), cuts
its detours (:func:`shorten_path`, twin ``shortest.shorten_line``), replaces a
line with many King moves by a minimum one when a small shortest search finds
it (:func:`polish_path`), and replays it in plain Python before returning it
(:func:`verify_solution`: ``game.verify.check_solution``, which accepts
exactly what the reference engine's ``replay`` accepts): a replay failure is
a bug and raises :class:`VerificationError`. With ``debug`` every kernel
state along the line is checked from scratch (:func:`debug_line`).
"""

from __future__ import annotations

import time

import numpy as np

from ..game.cards import NUM_CARDS
from ..game.engine import MOVE_TABLE, TAIL, Move, apply_move, is_won, moves_text
from ..game.position import NUM_COLUMNS, Position
from ..game.rules import Rules
from ..game.verify import check_solution
from . import kernel
from .compact import compact_keys, decode_move, from_compact, is_wide, move_code, move_codes, state_problems, to_compact
from .driver import Stack, make_code, make_move, run_bounded, shorten_codes
from .result import Limits
from .shortest import cost_to_go, fixed_length

POLISH_KINGS = 8  # a line with more King moves than this gets a small shortest search
POLISH_NODES = 20_000  # its node budget (all iterations together)


class VerificationError(RuntimeError):
    """A solution the kernel reported does not replay to a win: a bug."""


def winning_path(stack: Stack, depth: int) -> list[Move]:
    """The moves the search made from the root to ply ``depth`` (decode_move of every frame, at once).

    Looked up in the engine's ``MOVE_TABLE`` (the tail deal's index points past it), not made one by one,
    when every source column is one (as in every line the search makes); else made.
    """
    plies = np.arange(depth)
    codes = stack.moves[plies, stack.midx[:depth] - 1].astype(np.int64)
    if stack.wide:  # the wide layout names copies: each move decoded in its own frame
        return [decode_move(stack.states[d], code) for d, code in enumerate(codes.tolist())]
    cards = np.minimum(codes >> 3, NUM_CARDS - 1)  # the tail's code too reads a card's column, unused
    sources = stack.states[plies, kernel.LOCCOL + cards].astype(np.int64)
    dst = codes & 7
    if sources.min(initial=0) >= 0 and dst.max(initial=0) < NUM_COLUMNS:
        index = (cards * NUM_COLUMNS + sources) * NUM_COLUMNS + dst
        index[codes == kernel.TAIL_CODE] = len(MOVE_TABLE)
        return list(map(_MOVES_AND_TAIL.__getitem__, index.tolist()))
    return [
        TAIL if code == kernel.TAIL_CODE else Move(card, src, code % 8)
        for code, card, src in zip(codes.tolist(), cards.tolist(), sources.tolist())
    ]


_MOVES_AND_TAIL = (*MOVE_TABLE, TAIL)  # winning_path's look-up: MOVE_TABLE, then the tail deal


def _root_state(position: Position, root: tuple[np.ndarray, np.ndarray] | None) -> tuple[np.ndarray, np.ndarray]:
    """A fresh copy of the position's compact state and keys: of ``root`` when given (the search's
    own root frame, the same state), else converted."""
    if root is not None:
        return root[0].copy(), root[1].copy()
    s = to_compact(position)
    return s, compact_keys(s)


def decode_line(
    position: Position, codes: np.ndarray, rules: Rules, root: tuple[np.ndarray, np.ndarray] | None = None
) -> list[Move]:
    """The moves of a line of kernel codes from ``position`` (each decoded in the state it is played from)."""
    s, keys = _root_state(position, root)
    path = []
    for code in codes:
        path.append(decode_move(s, int(code)))
        make_code(s, keys, code, rules)
    return path


def shorten_path(
    position: Position, path: list[Move], rules: Rules, root: tuple[np.ndarray, np.ndarray] | None = None
) -> list[Move]:
    """The winning line without its detours (``kernel.shorten_line``, twin
    ``shortest.shorten_line``): repeated while it gets shorter. The result is a
    line of the same positions' game, replayed by the caller's verification.
    ``root``: the position's compact state and keys when the caller has them
    (``solve`` passes its root frame: a conversion costs more than the cut)."""
    if len(path) < 3:
        return path
    state, keys = _root_state(position, root)
    codes = _line_codes(state, keys, path, rules) if is_wide(state) else move_codes(path)
    codes = shorten_codes(state, keys, codes, rules)
    return path if len(codes) == len(path) else decode_line(position, codes, rules, root)


def _line_codes(state: np.ndarray, keys: np.ndarray, path: list[Move], rules: Rules) -> np.ndarray:
    """The kernel's codes of a line from a wide state (a code names the copy it moves, read from the state
    the move is played from)."""
    s, k = state.copy(), keys.copy()
    codes = []
    for move in path:
        codes.append(move_code(move, s))
        make_code(s, k, codes[-1], rules)
    return np.array(codes, dtype=np.uint16)


def polish_path(position: Position, path: list[Move], rules: Rules, prune: bool = True) -> list[Move]:
    """A minimum-length win instead of ``path`` when ``path`` makes more than
    POLISH_KINGS King moves and ``solve_shortest``'s iterations find one within
    POLISH_NODES nodes; else ``path``. Keeps the King shuttles that the detour
    cut cannot see (moves between fixed columns interleaved with other moves)
    out of printed and stored solutions at a bounded cost."""
    if sum(1 for m in path if not m.is_tail and m.card % 13 == 12) <= POLISH_KINGS:
        return path
    fixed = fixed_length(position)
    budget = POLISH_NODES
    start = time.perf_counter()
    for bound in range(cost_to_go(position, rules, frozenset(position.tail)), len(path) - fixed):
        status, found, used = run_bounded(position, rules, bound, fixed, Limits(), budget, start, prune)
        budget -= used
        if status == kernel.S_WON:
            return found
        if status != kernel.S_LOST or budget <= 0:
            break
    return path


def verify_solution(position: Position, path: list[Move], rules: Rules) -> None:
    """Replay in plain Python (``verify.check_solution``); raise VerificationError unless it wins."""
    try:
        final = check_solution(position, path, rules)
    except ValueError as exc:
        raise VerificationError(f"solution does not replay: {exc}") from exc
    if not is_won(final, rules):
        raise VerificationError(f"solution {moves_text(path)} replays but does not win")


def debug_check(expected: Position, s: np.ndarray, keys: np.ndarray, where: str) -> None:
    """Raise VerificationError unless the state passes ``state_problems`` and holds ``expected``."""
    problems = state_problems(s, keys)
    if from_compact(s) != expected:
        problems.append("the compact state is not the reference engine's position")
    if problems:
        raise VerificationError(f"debug: at {where}: " + "; ".join(problems))


def debug_line(position: Position, path: list[Move], rules: Rules) -> None:
    """Play the line with the kernel's make_move and check every state from scratch."""
    s = to_compact(position)
    keys = compact_keys(s)
    for number, move in enumerate(path, start=1):
        make_move(s, keys, move, rules)
        position = apply_move(position, move, rules)
        debug_check(position, s, keys, f"move {number} ({move})")
