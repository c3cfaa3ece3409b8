"""The solver's help, off the event loop: a bounded pool of threads with node and time budgets.

The solver's kernel runs without the GIL (``nogil=True``) and keeps one search
stack per thread, so threads are enough: while a solve runs, the server keeps
answering moves. At most ``workers`` calls run at once and at most ``queue``
more wait; a request beyond that is refused at once (:class:`PoolFull`, a 503
with a clear message), and a request that waited longer than ``wait_seconds``
for a worker is refused the same way.

A request the player has moved past is not run: before a queued call starts,
``still_current()`` is asked again (the game's version must not have changed);
a fair hint already running asks it between its sampled layouts and stops; and
a result that arrives after the player moved is thrown away by the caller.
A call cut short by its budget is ``unknown`` (the solver's own verdict), never
lost.

What each kind of help may read:

* ``fair``: only the player's view (``Observation.of``): ``play.fair.fair_hint``;
* ``winnable``, ``peek``, ``line``: the true position (the player switched peeking on);
* ``analysis``: the true position, of a finished game, or of one in play with peeking on.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..analysis.game_record import GameAnalysis, analyze
from ..analysis.hints import HintReport, hint
from ..game.engine import Move
from ..game.position import Position
from ..game.rules import Rules
from ..game.view import Observation
from ..play.fair import FairHint, HintAbandoned, fair_hint
from ..solver.result import Limits

FAIR_NODES = 100_000  # per sampled layout and move, as `scorpion hint --fair`: K x (moves + 1) solves, most decided in a few nodes
PEEK_NODES = 2_000_000
SECONDS = 10.0  # wall clock per solve; a call cut short answers unknown


@dataclass(frozen=True)
class Budget:
    fair_nodes: int = FAIR_NODES
    peek_nodes: int = PEEK_NODES
    seconds: float = SECONDS

    def fair(self) -> Limits:
        return Limits(nodes=self.fair_nodes, seconds=self.seconds)

    def peek(self) -> Limits:
        return Limits(nodes=self.peek_nodes, seconds=self.seconds)


class PoolFull(Exception):
    """More requests than the pool takes, or one waited too long: 503."""


class Stale(Exception):
    """The player moved past the request before it ran: 409."""


class HelpPool:
    def __init__(self, workers: int = 2, queue: int = 8, wait_seconds: float = 30.0, budget: Budget = Budget()):
        self.workers = workers
        self.queue = queue
        self.wait_seconds = wait_seconds
        self.budget = budget
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="scorpion-help")
        self._count_lock = threading.Lock()
        self._waiting_or_running = 0
        self._slots: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._slots is None or self._loop is not loop:  # made inside the loop that uses it
            self._slots, self._loop = asyncio.Semaphore(self.workers), loop
        return self._slots

    async def run(self, fn, *args, still_current=lambda: True):
        """Run ``fn(*args)`` in the pool; PoolFull when full or after waiting too long, Stale when moved past."""
        with self._count_lock:
            if self._waiting_or_running >= self.workers + self.queue:
                raise PoolFull(
                    f"the solver is busy ({self._waiting_or_running} requests waiting or running); try again shortly"
                )
            self._waiting_or_running += 1
        try:
            slots = self._semaphore()
            try:
                await asyncio.wait_for(slots.acquire(), timeout=self.wait_seconds)
            except TimeoutError:
                raise PoolFull(f"the solver was busy for {self.wait_seconds:g} s; try again") from None
            try:
                if not still_current():
                    raise Stale("the game moved on before this request ran")
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self._executor, fn, *args)
            finally:
                slots.release()
        finally:
            with self._count_lock:
                self._waiting_or_running -= 1

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


# -- the kinds of help: plain functions the pool runs ------------------------------


def fair(view: Observation, rules: Rules, samples: int, seed: int, limits: Limits, still_current=None) -> FairHint:
    """``scorpion hint --fair`` of the player's view (engine columns): it never sees a hidden card.

    ``still_current`` is asked between sampled layouts: once the player has
    moved on, the hint stops (:class:`Stale`) and frees its worker.
    """
    try:
        return fair_hint(view, rules, samples=samples, seed=seed, limits=limits, keep_going=still_current)
    except HintAbandoned:
        raise Stale("the game moved on while this hint was computed") from None


def winnable(position: Position, rules: Rules, limits: Limits) -> dict:
    """Whether a win is still open from the true position: one solve (not a verdict for every move)."""
    from ..solver.search import solve  # numba loads on first use, not on import

    status = solve(position, rules, limits).status
    reason = {
        "won": "winnable: a win is still open from here",
        "lost": "lost: no line of play wins from here",
    }.get(status, "unknown: the solver's budget ran out before it decided")
    return {"status": status, "reason": reason}


def peek(position: Position, rules: Rules, limits: Limits) -> HintReport:
    """``scorpion hint``: every move's verdict, from the true position (engine columns)."""
    return hint(position, rules, limits)


def line(position: Position, rules: Rules, limits: Limits) -> tuple[str, list[Move]]:
    """The solver's winning line from the true position (status, moves)."""
    from ..solver.search import solve  # numba loads on first use, not on import

    result = solve(position, rules, limits)
    return result.status, list(result.line)


def analysis(start: Position, moves: list[Move], rules: Rules, limits: Limits) -> GameAnalysis:
    """``scorpion analyze`` of the line played so far (engine columns)."""
    return analyze(start, moves, rules, limits)
