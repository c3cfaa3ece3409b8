"""Probes, and the short first try before them: the order of a ten-column search's tries.

Why: a won two-deck deal is usually won in a few thousand nodes (Double
Scorpion deals 1-300: median 2,056), but a depth-first search that takes a
wrong turn near the root can spend millions of nodes beneath it before it
comes back. That is the heavy tail of search costs, and the usual remedy is
many short searches from different starts instead of one long one (Gomes,
Selman and Kautz, "Boosting combinatorial search through randomization",
AAAI 1998). A probe plays a few random legal moves from the root, then
searches from there, in the first move order, with a small budget.

What a probe proves: its win is a win of the root (the random moves, then
the search's line, replayed from the root like any line); its loss says only
that the random moves were bad. So probes turn an unknown into won, never
into lost, and a deal no probe wins stays unknown.

The random moves come from a generator seeded by the root position's text,
so a solve is reproducible, and ``search`` and its twin (``search_twin``)
draw the same probes in the same order.

The tries of a ten-column search with a budget of B nodes, each stopping the
solve when it decides the deal:

    1. the first move order, with SCOUT_NODES       (the scout; only when B > SCOUT_NODES)
    2. the first tenth of B // PROBE_NODES probes of PROBE_NODES each  (only when B >= PROBE_NODES)
    3. the first move order again, with B           (from scratch: a fresh table)
    2'. the other probes, in the same draw
    4. the second move order, with B

Without a scout (B <= SCOUT_NODES) the first try is the first order with B
and the probes follow it, all at once, before the second order.

Why the scout: most deals are won in a few thousand nodes, and of those the
first order does not win within a few hundred thousand, the probes win most
within a few of them (Double Scorpion deals 1-1,200: 163 deals the first
order left unknown at 5 million nodes, each then won by a probe, after a
median of 35,151 probe nodes). So the long first-order search comes after
the first probes, not before. Why not after all of them: a probe never
proves a loss, so on a lost deal that the scout does not settle every probe
runs to its end, B nodes in all, before the first order proves the loss
(Three Blind Mice deals 1-500 at B = 50 million: 22 lost deals cost about
50 million nodes each instead of 0.7-5.5 million; its no-peek study's
lost arrangements likewise). A tenth of them first keeps most probe wins
(a median of 35,151 probe nodes, about 2 probes) and costs a lost deal a
tenth of that. Every try of the older order (3, 2, 4) is still made, with
the same budget and the same draws in the same order, so a verdict cannot
differ from it: only node counts, and which win is found first, can.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator

from ..game.engine import Move, apply_move, is_won, legal_moves
from ..game.position import Position
from ..game.position_text import format_position
from ..game.rules import Rules
from .result import Limits

PROBE_NODES = 20_000  # one probe's budget: Double Scorpion's median win is about 2,000 nodes
PROBE_MOVES = 3  # random moves before a probe's search
SCOUT_NODES = 100_000  # the first try's budget: Double Scorpion deals 1-1,200, 75% won within it


def scout_limits(limits: Limits) -> Limits | None:
    """The first try's limits (``SCOUT_NODES``, the solve's memory and time), or None when the budget is no
    bigger: then the first try is the whole first-order search."""
    if limits.nodes <= SCOUT_NODES:
        return None
    return Limits(nodes=SCOUT_NODES, memory_mb=limits.memory_mb, seconds=limits.seconds)


EARLY_PROBES = 10  # one probe in this many comes before the first order's long search, the rest after it


def later_tries(limits: Limits, scouted: bool) -> list[tuple]:
    """The tries after a ten-column search's first, in order (module docstring): ``("probes", first, stop)``
    for the probes ``first`` to ``stop`` of the draw, ``("order", reveals_first)`` for a whole-budget search
    in a move order. ``scouted``: the first try was the scout."""
    count = probe_count(limits)
    if not scouted:
        return [("probes", 0, count), ("order", True)]
    early = count // EARLY_PROBES
    return [("probes", 0, early), ("order", False), ("probes", early, count), ("order", True)]


def probe_count(limits: Limits) -> int:
    """How many probes a search under ``limits`` makes: a third budget of ``limits.nodes``, in probes of
    ``PROBE_NODES`` (none below that, so a small budget searches as before)."""
    return limits.nodes // PROBE_NODES


def probe_limits(limits: Limits) -> Limits:
    """One probe's limits: ``PROBE_NODES``, with the solve's memory and time (its clock runs on)."""
    return Limits(nodes=PROBE_NODES, memory_mb=limits.memory_mb, seconds=limits.seconds)


def probe_starts(position: Position, rules: Rules, count: int, first: int = 0) -> Iterator[tuple[list[Move], Position]]:
    """The probes' random moves from ``position`` and the positions they lead to, from probe ``first`` up to
    ``count`` of the draw (the earlier ones are drawn and skipped: the same probes whatever the split).

    Up to ``PROBE_MOVES`` moves each, fewer where a position has no legal
    move or is won (a won start is a win by its moves alone)."""
    rng = random.Random(zlib.crc32(format_position(position, rules).encode()))
    for index in range(count):
        here, moves = position, []
        for _ in range(PROBE_MOVES):
            legal = legal_moves(here, rules)
            if not legal or is_won(here, rules):
                break
            move = rng.choice(legal)
            moves.append(move)
            here = apply_move(here, move, rules)
        if index >= first:
            yield moves, here
