"""The typed record a solve returns, and the limits it runs under (its sound cuts are ``reductions``).

The fields of :class:`SolveResult` are the columns of the batch output.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

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

    ``status`` is ``won`` (``solution`` replays to a win with the reference
    engine), ``lost`` (exhaustive search) or ``unknown`` (``stopped_by`` names
    the limit: ``nodes``, ``memory`` or ``time``). ``shortest`` is
    ``proved`` when the solution is a win of minimum length (``solve_shortest``),
    ``shortened`` when a limit stopped that proof (the solution is the shortest
    found), and empty for an ordinary solve.
    """

    status: str
    rules: str
    nodes: int = 0
    moves_made: int = 0
    seconds: float = 0.0
    solution: str = ""
    solution_length: int = 0
    peak_entries: int = 0
    max_depth: int = 0
    deadlock_checks: int = 0
    deadlock_prunes: int = 0
    dead_at_root: bool = False
    stopped_by: str = ""
    shortest: str = ""
    deal: int | None = field(default=None)

    def as_row(self) -> dict:
        return asdict(self)
