"""The private graded pool of ``scorpion serve``: secret deals the server grades itself, kept in its database.

A graded game must not come from a public list: a list of graded deal numbers is small, and a deal's
face-up cards find it in the list at once (docs/serve.md, "Fair play"). So the server deals secret
shuffles (``game.deal.secret_shuffle``), grades each with the project's own rule
(``batch.deal_grades.grade_layout``: the exact search, greedy, the look-ahead player) and keeps those of
each grade and mode until the stock of deals no game has dealt reaches the target (``Config.pool_target``,
50 by default). :class:`PoolStocker` does it in the background, in one worker process at the lowest
priority, so moves and hints do not wait for it; a layout that gets no grade (not winnable) or whose
grade is full is dropped, and its CPU time is added to the next deal kept of its mode, so each deal
carries what it cost to find (``secret_deals.cpu``, ``Store.pool_costs``).
"""

from __future__ import annotations

import concurrent.futures
import logging
import multiprocessing
import os
import threading
from typing import Callable

from ..batch.deal_grades import GRADES, grade_layout
from ..game.deal import layout, secret_shuffle
from ..game.rules import get_rules
from .games import GRADED

DEFAULT_TARGET = 50
log = logging.getLogger("scorpion.serve.pool")
Graded = tuple[list[int], str | None, float]  # a layout's cards, its grade (None: none), its CPU seconds


# The exact search's budget when grading a two-deck layout: a Double Scorpion deal the search decides at all
# is decided in a few thousand nodes (median 2,064 on deals 1-800), but one in nine runs to the batch's 50
# million (about 100 s); a layout left unknown gets no grade and is dropped, so a smaller budget bounds
# what a dropped layout costs (about 20 s a budget: when the first move order runs out, the search spends
# the budget again on probes and a third time on a second order, so about a minute) and keeps only deals
# the search proves winnable.
TWO_DECK_GRADE_NODES = 5_000_000


def grade_secret_deal(mode: str, seed: int) -> Graded:
    """A new secret shuffle and its grade in ``mode`` (None: no grade), with the CPU seconds it took."""
    from ..solver.result import Limits

    rules = get_rules(mode)
    cards = secret_shuffle(rules.num_cards)
    limits = Limits(nodes=TWO_DECK_GRADE_NODES) if rules.decks == 2 else None
    graded = grade_layout(layout(cards, rules), rules, seed, limits)
    return cards, graded.grade, graded.cpu_seconds


def wanted(stock: dict[tuple[str, str], int], modes, target: int) -> list[tuple[str, str]]:
    """The (mode, grade) buckets whose stock of undealt deals is below ``target``."""
    return [(mode, grade) for mode in modes for grade in GRADES if stock.get((mode, grade), 0) < target]


def emptiest(needed: list[tuple[str, str]], stock: dict[tuple[str, str], int]) -> str:
    """The mode to grade a layout of next: that of the wanted bucket with the fewest deals, so every mode's
    grades fill side by side (a player of either mode waits as little as the other); a one-deck game's
    before any two-deck one's, since a Double Scorpion layout takes a hundred times as long to grade and its
    slowest grade would otherwise hold every game's stock back to its pace."""
    return min(needed, key=lambda bucket: (get_rules(bucket[0]).decks, stock.get(bucket, 0)))[0]


def stock_pool(
    store,
    target: int,
    modes=GRADED,
    grade: Callable[[str, int], Graded | None] = grade_secret_deal,
    stopping: Callable[[], bool] = lambda: False,
    kept: Callable[[], None] = lambda: None,
) -> int:
    """Grade secret deals until every grade of every mode holds ``target`` undealt deals (or ``stopping()``,
    or ``grade`` answers None: it was stopped); the number of deals added, ``kept()`` called after each. The
    tests stock a small pool with it in their own thread; the server's :class:`PoolStocker` runs it with a
    ``grade`` that sends the work to a worker process."""
    added, carried, seed = 0, {mode: 0.0 for mode in modes}, 0
    while not stopping():
        stock = store.pool_stock()
        needed = wanted(stock, modes, target)
        if not needed:
            break
        mode = emptiest(needed, stock)
        graded = grade(mode, seed)
        seed += 1
        if graded is None:
            break
        if _keep(store, mode, *graded, carried, needed):
            added += 1
            kept()
    return added


def _keep(store, mode, cards, got, cpu, carried, needed) -> int:
    """Keep a graded layout if its bucket wants one (1), else carry its cost to the next one kept (0)."""
    if got is not None and (mode, got) in needed:
        store.add_secret(mode, cards, got, cpu + carried[mode])
        carried[mode] = 0.0
        return 1
    carried[mode] += cpu
    return 0


def _lowest_priority() -> None:
    try:
        os.nice(19)
    except OSError:  # pragma: no cover - a platform without nice
        pass


class PoolStocker:
    """Keeps the graded pool stocked to ``target`` in the background: a thread that sends the grading to
    one worker process (niced), and logs the stock as it grows."""

    def __init__(self, store, target: int, modes=GRADED) -> None:
        self.store, self.target, self.modes = store, target, tuple(modes)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: str | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.target > 0 and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="scorpion-graded-pool", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a server's threads
        worker = concurrent.futures.ProcessPoolExecutor(1, mp_context=context, initializer=_lowest_priority)
        try:
            self._stock(worker)
        except Exception as exc:  # a broken worker: the server plays on; a graded pick says why
            self.error = f"{type(exc).__name__}: {exc}"
            log.error("graded pool: grading stopped (%s)", self.error)
        finally:
            # a grading under way is dropped, not waited for: one layout of Three Blind Mice or Wasp can take
            # many seconds, and the server must stop at once (nothing is half-kept: the parent keeps a deal)
            processes = list((getattr(worker, "_processes", None) or {}).values())
            worker.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
                process.join(5)

    def _stock(self, worker) -> None:
        """Fill the pool whenever it lacks deals; look again every few seconds (a deal dealt empties a place)."""
        while not self._stop.is_set():
            if wanted(self.store.pool_stock(), self.modes, self.target):
                log.warning("graded pool: preparing graded deals in the background (%s)", self.progress())
                stock_pool(
                    self.store,
                    self.target,
                    self.modes,
                    grade=lambda mode, seed: self._graded_by(worker, mode, seed),
                    stopping=self._stop.is_set,
                    kept=lambda: log.warning("graded pool: %s", self.progress()),
                )
                if not self._stop.is_set():
                    log.warning("graded pool: stocked (%d deals of each grade and mode)", self.target)
            self._stop.wait(5.0)

    def _graded_by(self, worker, mode: str, seed: int) -> Graded | None:
        """``grade_secret_deal`` in the worker process; None if the server stops meanwhile."""
        future = worker.submit(grade_secret_deal, mode, seed)
        while not self._stop.is_set():
            try:
                return future.result(timeout=0.5)
            except concurrent.futures.TimeoutError:
                continue
        future.cancel()
        return None

    def progress(self, only: str | None = None) -> str:
        """The stock of each grade (of mode ``only``, or of every mode) against the target, in words."""
        stock = self.store.pool_stock()
        parts = []
        for mode in self.modes if only is None else (only,):
            counts = ", ".join(f"{grade} {stock.get((mode, grade), 0)}" for grade in GRADES)
            parts.append(f"{mode}: {counts}")
        return "; ".join(parts) + f" of {self.target}"
