"""bench_batch.py's CPU timers: the functions a batch worker calls, wrapped by the part of the split they belong to.

``Timers.install`` wraps each function of ``TIMED`` that the code under test
has (older revisions lack some) in a ``process_time_ns`` timer; ``calibrate``
measures what the clock itself adds to one call, which ``snapshot`` subtracts.
"""

from __future__ import annotations

import importlib
import time

MODES = ("clear", "classic")
PARTS = ("deal", "search", "line", "verify")

# The functions a batch worker's path calls, by the part of the split they belong to. A target
# that does not exist in the code under test is skipped, so the benchmark runs unchanged on older
# revisions (main before issue 13 has only the first of each part).
TIMED = (
    ("scorpion_solver.game.deal", "deal", "deal"),
    ("scorpion_solver.solver.deal_kernel", "DealWriter.deal_into", "deal"),
    ("scorpion_solver.solver.deal_kernel", "DealWriter.deal_many", "deal"),
    ("scorpion_solver.solver.kernel", "search", "search"),
    ("scorpion_solver.solver.kernel", "screen_roots", "search"),
    ("scorpion_solver.solver.kernel", "shorten_line", "line"),
    ("scorpion_solver.solver.kernel", "shortest_search", "line"),
    ("scorpion_solver.solver.search", "verify_solution", "verify"),
)


class Timers:
    """CPU nanoseconds per part, accumulated by wrappers around the TIMED functions."""

    def __init__(self) -> None:
        self.ns = dict.fromkeys(PARTS, 0)
        self.calls = dict.fromkeys(PARTS, 0)
        self.bias = 0  # ns the clock itself adds to one measured call
        self._saved: list[tuple[object, str, object]] = []

    def wrap(self, fn, part: str):
        ns, calls, clock = self.ns, self.calls, time.process_time_ns

        def timed(*args, **kwargs):
            t0 = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                ns[part] += clock() - t0
                calls[part] += 1

        return timed

    def install(self, parts: tuple[str, ...] = PARTS) -> list[str]:
        installed = []
        for module_name, attr, part in TIMED:
            if part not in parts:
                continue
            try:
                module = importlib.import_module(module_name)
            except ImportError:
                continue
            owner, _, name = attr.rpartition(".")
            holder = getattr(module, owner, None) if owner else module
            fn = getattr(holder, name, None)
            if fn is None:
                continue
            self._saved.append((holder, name, fn))
            setattr(holder, name, self.wrap(fn, part))
            installed.append(f"{module_name}.{attr} ({part})")
        return installed

    def uninstall(self) -> None:
        for module, attr, fn in reversed(self._saved):
            setattr(module, attr, fn)
        self._saved.clear()

    def calibrate(self, calls: int = 20000) -> None:
        """The clock's share of one measured call: what an empty wrapped call measures."""
        probe = Timers()
        empty = probe.wrap(lambda: None, "deal")
        best = None
        for _ in range(3):
            probe.ns["deal"] = 0
            for _ in range(calls):
                empty()
            mean = probe.ns["deal"] / calls
            best = mean if best is None else min(best, mean)
        self.bias = best

    def snapshot(self) -> dict[str, float]:
        """Accumulated ns per part, less the clock's bias per call."""
        return {p: max(0.0, self.ns[p] - self.bias * self.calls[p]) for p in PARTS}
