"""The typed record a solve returns, and the limits it runs under (its sound cuts are ``reductions``).

:meth:`SolveResult.as_row` gives the columns of the batch output (``ROW_FIELDS``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..game.engine import Move, moves_text

WON, LOST, UNKNOWN = "won", "lost", "unknown"

DEFAULT_NODES = 50_000_000
DEFAULT_MEMORY_MB = 1024


@dataclass(frozen=True)
class Limits:
    """What may stop a search before it decides: budgets only.

    ``nodes`` is counted inside the kernel (reproducible; a search may pass it
    by less than one expansion); ``seconds`` is wall clock, checked by
    ``search.solve`` between kernel slices of about 16,000 nodes (a few
    milliseconds). ``memory_mb`` caps the transposition table. Which sound
    cuts a search makes is not a limit: ``reductions.Reductions``.
    """

    nodes: int = DEFAULT_NODES
    memory_mb: int = DEFAULT_MEMORY_MB
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.nodes < 1:
            raise ValueError("the node budget must be at least 1")
        if self.memory_mb < 1:
            raise ValueError("the memory budget must be at least 1 MB")
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds > 0):
            # NaN compares false both ways and infinity is no limit (and no JSON): both refused, as the CLI does
            raise ValueError(f"the time limit must be a finite positive number of seconds, got {self.seconds!r}")


@dataclass
class SolveResult:
    """Outcome of one solve.

    ``status`` is ``won`` (``line`` replays to a win with the reference
    engine), ``lost`` (exhaustive search) or ``unknown`` (``stopped_by`` names
    the limit: ``nodes``, ``memory`` or ``time``). The winning line
    is a value, ``line``; ``solution`` (its move notation, docs/rules.md) and
    ``solution_length`` are derived from it. ``shortest`` is ``proved`` when
    the line is a win of minimum length (``solve_shortest``), ``shortened``
    when a limit stopped that proof (the line is the shortest found), and
    empty for an ordinary solve.
    """

    status: str
    rules: str
    nodes: int = 0
    moves_made: int = 0
    seconds: float = 0.0
    line: tuple[Move, ...] = ()
    peak_entries: int = 0
    max_depth: int = 0
    deadlock_checks: int = 0
    deadlock_prunes: int = 0
    dead_at_root: bool = False
    stopped_by: str = ""
    shortest: str = ""
    deal: int | None = field(default=None)

    @property
    def solution(self) -> str:
        """The winning line in move notation ("" unless won)."""
        return moves_text(self.line)

    @property
    def solution_length(self) -> int:
        return len(self.line)

    def after(self, first: SolveResult) -> SolveResult:
        """This result, of a second search of the same position, with the first one's work counted in: the
        nodes, moves made and deadlock tests added, the peak entries and depth the larger (two-deck games
        probe, then search in a second move order, when the first runs out of nodes: docs/design.md, "Two
        move orders" and "Probes")."""
        self.nodes += first.nodes
        self.moves_made += first.moves_made
        self.deadlock_checks += first.deadlock_checks
        self.deadlock_prunes += first.deadlock_prunes
        self.peak_entries = max(self.peak_entries, first.peak_entries)
        self.max_depth = max(self.max_depth, first.max_depth)
        return self

    def as_row(self) -> dict:
        """The record as the batch's and ``solve --json``'s row: ``ROW_FIELDS``, the line as text."""
        return {name: getattr(self, name) for name in ROW_FIELDS}


# The row of a result, in the order of the batch's columns and of ``solve --json``
# (the line as its text and length, as written before the line was a value).
ROW_FIELDS = (
    "status",
    "rules",
    "nodes",
    "moves_made",
    "seconds",
    "solution",
    "solution_length",
    "peak_entries",
    "max_depth",
    "deadlock_checks",
    "deadlock_prunes",
    "dead_at_root",
    "stopped_by",
    "shortest",
    "deal",
)
