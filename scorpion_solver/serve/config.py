"""The settings of one ``scorpion serve`` (``Config``): the database, the results, the help pool, the names."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..game.deal import secret_shuffle
from . import helpers
from .games import GRADED
from .guard import LOOPBACK_NAMES
from .store import new_token

HINT_DEADLINE = 60.0  # seconds a fair hint may take in all (its layouts' solves each have their own clock)


def _default_results_root() -> Path:
    """The committed results next to the package (a source checkout); the current folder's otherwise."""
    here = Path(__file__).resolve().parents[2] / "results"
    return here if here.is_dir() else Path("results")


@dataclass
class Config:
    db: Path | str
    results_root: Path = field(default_factory=_default_results_root)
    workers: int = 2
    queue: int = 8
    wait_seconds: float = 30.0
    budget: helpers.Budget = helpers.Budget()
    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES  # the names the server answers to (serve.guard)
    hint_deadline: float = HINT_DEADLINE
    tokens: Callable[[], str] = new_token  # a new game's public id (the tests pass a counter)
    # deals a random game: its cards (52, or 104), given their number, in dealing order from the secure
    # generator (the tests pass their own)
    shuffle: Callable[[int], list[int]] = secret_shuffle
    # undealt deals of each grade and mode the graded pool keeps (serve.pool; `scorpion serve --pool`, 50 there);
    # 0: no grading in the background (a graded pick then takes what the pool holds)
    pool_target: int = 0
    pool_modes: tuple[str, ...] = GRADED  # the games the graded pool stocks (the tests stock fewer)
